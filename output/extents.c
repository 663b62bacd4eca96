/* output/extents.c: driver: extents: the sectors written since it started, coalesced, for a copier; live or from a trace */
//applet: extents extents_main
//sources: @trace capture/input.c capture/merge.c capture/window.c stats/extset.c output/iolines.c
//readme: bmigrate's dirty map: the sectors written, for a live copy | iomon-extents.1
/* extents: every sector a write, discard, write-zeroes (or zone reset)
 * was queued for, per device, as coalesced extents (stats/extset.c),
 * printed on SIGUSR1 and at the end, and to -o FILE (replaced whole).
 * Anything that could hide a write marks the device unknown.
 */
#include <signal.h>
#include <stdio.h>
#include "output/output.h"

USAGE(extents,
"usage: iomon extents [-o FILE] [-i NAME] [DEV...]\n"
"\n"
"The sectors written since it started, as extents (MAJ,MIN START SECTORS),\n"
"on SIGUSR1 and at the end; unknown where a write may have been missed.\n"
"\n"
" -o FILE       also to FILE\n"
" -i NAME       replay NAME.blktrace.N files (or - for a stream)\n"
" DEV           trace DEV; default: every whole disk\n")

static struct ext pool[EXT_DEVS][EXT_MAX];
static struct {
	struct extset set[EXT_DEVS];
	u32 dev[EXT_DEVS], seq[EXT_DEVS][EXT_CPUS];
	u32 ndev;
	u64 lost;	/* records of devices past EXT_DEVS */
	const char *ofile;
	char outbuf[LAT_OUT_BUF];
	struct obuf out;
} X;
static volatile sig_atomic_t want;

static void on_usr1(int sig)
{
	(void)sig;
	want = 1;
}

static void mark(const char *why)
{
	u32 i;

	for (i = 0; i < X.ndev; i++)
		if (!X.set[i].unknown)
			X.set[i].unknown = why;
}

TEXT(extents_set_lost, "# %llu records of devices past EXT_DEVS %d not counted\n")
static void print_set(struct obuf *o)
{
	u32 i, k;

	for (i = 0; i < X.ndev; i++) {
		const struct extset *x = &X.set[i];
		u32 ma = DEV_MAJOR(X.dev[i]), mi = DEV_MINOR(X.dev[i]);

		ob_printf(o, "# %u,%u %s%s: %u extents, %llu sectors, chunk %llu\n", ma, mi,
			  x->unknown ? "unknown, " : "complete", x->unknown ? x->unknown : "", x->n,
			  (unsigned long long)ext_sectors(x), (unsigned long long)x->chunk);
		for (k = 0; k < x->n; k++)
			ob_printf(o, "%u,%u %llu %llu\n", ma, mi, (unsigned long long)x->e[k].start,
				  (unsigned long long)(x->e[k].end - x->e[k].start));
	}
	if (X.lost)
		ob_printf(o, TX(extents_set_lost), (unsigned long long)X.lost, EXT_DEVS);
}

/* stdout, and -o FILE through FILE.new renamed over it */
static int print_all(void)
{
	static char tmp[PATH_LEN], buf[4096];
	struct obuf f;
	int fd;

	print_set(&X.out);
	ob_flush(&X.out);
	if (!X.ofile)
		return 0;
	sfmt(tmp, sizeof(tmp), "%s.new", X.ofile);
	if ((fd = open_out(tmp, 0644)) < 0)
		return 1;
	ob_init(&f, fd, tmp, buf, sizeof(buf));
	print_set(&f);
	if (ob_close(&f) || rename(tmp, X.ofile)) {
		warn_msg("%s: cannot write it", X.ofile);
		return 1;
	}
	return 0;
}

static struct extset *dev_set(u32 dev)
{
	u32 i;

	for (i = 0; i < X.ndev; i++)
		if (X.dev[i] == dev)
			return &X.set[i];
	if (i == EXT_DEVS)
		return NULL;
	X.dev[i] = dev;
	ext_init(&X.set[i], pool[i], EXT_MAX, 1);
	return &X.set[X.ndev++];
}

static void ext_record(const struct rec *r)
{
	struct extset *x;
	u32 *last;
	int k;

	if (ACT32(r) & TC(TC_NOTIFY))
		return;
	if (!(x = dev_set(r->dev))) {
		X.lost++;
		return;
	}
	if (r->cpu >= EXT_CPUS) {	/* its sequence cannot be followed */
		if (!x->unknown)
			x->unknown = "a CPU past EXT_CPUS";
	} else {
		last = &X.seq[x - X.set][r->cpu];
		if (*last && r->seq != *last + 1 && !x->unknown)
			x->unknown = "a sequence gap";
		*last = r->seq;
	}
	if ((k = ext_kind(r, TA_QUEUE, TA_QUEUE)) > 0)
		ext_add(x, r->sector, r->bytes >> 9 ? r->bytes >> 9 : 1);
	else if (k < 0 && !x->unknown)
		x->unknown = "a zone reset";
}

static void live_round(void)
{
	if (cap_dropped())
		mark("events dropped");
	if (want) {
		want = 0;
		print_all();
	}
}

TEXT(extents_records_of_devices, "%llu records of devices past EXT_DEVS %d not counted")
int extents_main(int argc, char **argv)
{
	char *in = NULL;
	int rc;

	while ((rc = opt_get(argc, argv, "o:i:", NULL)) != -1) {
		if (rc == 'o')
			X.ofile = opt_arg;
		else if (rc == 'i')
			in = opt_arg;
		else
			return usage_put(2, U_extents), 1;
	}
	ob_init(&X.out, 1, "stdout", X.outbuf, sizeof(X.outbuf));
	signal(SIGUSR1, on_usr1);
	if ((rc = in_devs(in, argv + opt_ind, argc - opt_ind, ext_record, live_round)) < 0)
		return usage_put(2, U_extents), 1;
	if (!in)
		mark("the capture ended");
	if (X.lost)
		warn_text(U_extents_records_of_devices, (unsigned long long)X.lost, EXT_DEVS);
	return print_all() | ob_close(&X.out) | rc ? 1 : 0;
}
