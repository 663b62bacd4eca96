/* output/biopattern.c: driver: biopattern: each disk's share of random and sequential I/O per interval, live or from a trace */
//applet: biopattern biopattern biopattern_main
//sources: @trace capture/input.c capture/merge.c capture/window.c stats/iopattern.c output/iolines.c
//readme: BCC's biopattern, without BPF | biopattern.8
/* biopattern: per interval, a line per disk that completed I/O: the
 * share of random and sequential completions, their count and KiB (the
 * counting: stats/iopattern.c).  Live intervals on the monotonic clock;
 * a replay's in trace time.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "output/output.h"

USAGE(biopattern,
"usage: iomon biopattern [-d DISK] [-t DEV]... [-i NAME] [interval [count]]\n"
"\n"
"Each disk's random and sequential block I/O, as biopattern prints it.\n"
"\n"
" -d DISK       only DISK (its name, as sda)\n"
" -t DEV        trace DEV (repeatable); default: every whole disk, as top\n"
" -i NAME       replay NAME.blktrace.N files (or - for a stream) in trace time\n"
" interval      seconds between outputs (default: one at the end)\n"
" count         outputs before it stops\n")

static struct {
	const char *disk;
	char *replay;
	char *devs[CAP_DEVS];
	int ndevs;
	struct ticks k;
	char outbuf[LAT_OUT_BUF];
	struct obuf out;
} P;

static int by_dev(const void *ctx, u16 a, u16 b)
{
	(void)ctx;
	return iop.pat[a].dev > iop.pat[b].dev;
}

static void lines(s64 wall)
{
	static u16 idx[PAT_DEVS];
	struct tm tm;
	char hms[16], name[48];
	u32 i;

	if (!local_tm(wall, &tm))
		memset(&tm, 0, sizeof(tm));
	*fmt_hms(hms, &tm) = 0;
	for (i = 0; i < iop.npat; i++)
		idx[i] = (u16)i;
	isort16(idx, iop.npat, by_dev, NULL);
	for (i = 0; i < iop.npat; i++) {
		const struct pat_dev *p = &iop.pat[idx[i]];
		u64 n = p->rnd + p->seq, pct, rem;

		blk_disk_name(p->dev, P.replay, name, sizeof(name));
		if (!n || (P.disk && strcmp(name, P.disk)))
			continue;
		/* Python's round(): to the nearest, a half to the even */
		pct = p->rnd * 100 / n, rem = p->rnd * 100 % n;
		if (2 * rem > n || (2 * rem == n && (pct & 1)))
			pct++;
		ob_printf(&P.out, "%-9s %-7s %5llu %5llu %8llu %10llu\n", hms, name, (unsigned long long)pct,
			  (unsigned long long)(100 - pct), (unsigned long long)n, (unsigned long long)(p->bytes / 1024));
	}
	ob_flush(&P.out);
	pat_clear();
}

static void pat_record(const struct rec *r)
{
	u32 a = ACT32(r);

	if (P.k.done)
		return;
	if (in_note(r, &P.k.wall0))
		return;
	if (tick(&P.k, r))	/* a replay's intervals: trace time */
		return;
	if ((a & 0xffff) == TA_COMPLETE)
		pat_complete(r->dev, r->sector, r->bytes);
}

/* after each live round's records (capture/input.c): the interval clock */
static void live_round(void)
{
	tick_live(&P.k);
}

static int run(void)
{
	struct cap_cfg c;
	int rc;

	if (P.replay)
		rc = in_trace(&(struct input){ &P.replay, 1, NULL, pat_record, NULL, &P.k.stop, NULL });
	else if (cap_live_devices(&c, P.devs, P.ndevs, "-t"))
		return -1;
	else {
		P.k.live = 1;
		rc = in_trace(&(struct input){ NULL, 0, &c, pat_record, live_round, NULL, NULL });
	}
	tick_end(&P.k);
	return rc;
}

TEXT(biopattern_completions_on_di, "%llu completions on disks past PAT_DEVS %d not counted")
int biopattern_main(int argc, char **argv)
{
	static const struct lopt lo[] = { { "disk", 1, 0, 'd' }, { NULL, 0, 0, 0 } };
	int c;

	while ((c = opt_get(argc, argv, "d:t:i:", lo)) != -1) {
		if (c == 'd')
			P.disk = opt_arg;
		else if (c == 'i') {
			if (in_one(&P.replay, opt_arg))
				return 1;
		} else if (c == 't') {
			if (cap_dev_arg(P.devs, &P.ndevs, opt_arg))
				return 1;
		} else {
			usage_put(2, U_biopattern);
			return 1;
		}
	}
	if (opt_ind < argc && (P.k.interval = atoi(argv[opt_ind++])) <= 0) {
		warn_msg("interval must be above 0");
		return 1;
	}
	if (opt_ind < argc)
		P.k.count = atoi(argv[opt_ind++]);
	if (opt_ind < argc) {
		usage_put(2, U_biopattern);
		return 1;
	}
	ob_init(&P.out, 1, "stdout", P.outbuf, sizeof(P.outbuf));
	P.k.out = lines;
	ob_printf(&P.out, "%-9s %-7s %5s %5s %8s %10s\n", "TIME", "DISK", "%RND", "%SEQ", "COUNT", "KBYTES");
	ob_flush(&P.out);
	if ((c = run()) < 0)
		return 1;
	if (iop.pat_lost)
		warn_text(U_biopattern_completions_on_di, iop.pat_lost, PAT_DEVS);
	return ob_close(&P.out) || c ? 1 : 0;
}
