/* output/snoop.c: driver: biosnoop: a line per completed I/O, live or from a trace */
//applet: biosnoop snoop snoop_main
//sources: @trace capture/input.c capture/merge.c capture/window.c match/inflight.c match/procs.c
//sources: stats/snoopstat.c stats/failstat.c output/iolines.c
//readme: BCC's biosnoop, without BPF; slow or failed I/O only, errnos | biosnoop.8
/* snoop: biosnoop's lines from block traces (the matching:
 * stats/snoopstat.c).  Live (-t DEV, or every whole disk) through iomon
 * trace's backends, each round's lines written as they come, or replayed
 * from trace files (-i).
 */
#include <string.h>
#include "output/output.h"

USAGE(snoop,
"usage: iomon snoop [-Q] [-P] [-d DISK] [--slower MS] [--errors] [-t DEV]...\n"
"                   [-i NAME]\n"
"\n"
"Block I/O, a line per completed request, as biosnoop prints it.\n"
"\n"
" -Q            include OS queued time (QUE: queue to issue)\n"
" -P            the I/O pattern: S sequential, R random (? a disk's first)\n"
" -d DISK       only DISK (its name, as sda)\n"
" --slower MS   only I/Os whose latency (LAT) is above MS milliseconds\n"
" --errors      only I/Os that failed\n"
"               with either, an ERRNO column (EIO ...; - when none)\n"
" -t DEV        trace DEV (repeatable); default: every whole disk, as top\n"
" -i NAME       replay NAME.blktrace.N files (or - for a stream)\n"
"A closing line counts the I/Os that failed, with their sectors.\n")

static struct {
	int queue, pattern, errors, errcol, live;
	u64 slower, t0;	/* ns; t0: the first completion, us */
	const char *replay;
	char *in;
	char *devs[CAP_DEVS];
	int ndevs;
	struct disk_filter only;	/* -d */
	int started;
	char outbuf[SNOOP_OUT_BUF];
	struct obuf out;
} S;

static void header(void)
{
	struct obuf *o = &S.out;

	ob_printf(o, "%-11s %-14s %-7s %-9s %-1s %-10s %-7s", "TIME(s)", "COMM", "PID", "DISK", "T", "SECTOR", "BYTES");
	if (S.pattern)
		ob_puts(o, "P ");
	if (S.queue)
		ob_printf(o, "%7s ", "QUE(ms)");
	ob_printf(o, "%7s", "LAT(ms)");
	ob_puts(o, S.errcol ? " ERRNO\n" : "\n");
}

static void line(const struct snoop_io *io)
{
	struct obuf *o = &S.out;
	char comm[16], disk[48], b[12], t[32];
	const char *n = io->owned ? proc_name(io->pid) : NULL;
	u64 us = io->done / 1000, d;

	if (!S.started)	/* biosnoop's clock: the first completion it sees */
		S.started = 1, S.t0 = us;
	if ((S.errors && !io->err) || (S.slower && io->lat <= S.slower))
		return;
	d = us - S.t0;
	if (n)
		sfmt(comm, sizeof(comm), "%s", n);
	else if (!io->owned || S.replay || sys_comm(io->pid, comm))
		sfmt(comm, sizeof(comm), "?");
	blk_disk_name(io->dev, S.replay, disk, sizeof(disk));
	sfmt(t, sizeof(t), "%llu.%06llu", (unsigned long long)(d / 1000000), (unsigned long long)(d % 1000000));
	ob_printf(o, "%-11s %-14.14s %-7u %-9s %c %-10llu %-7u", t, comm, io->pid, disk, io->w ? 'W' : 'R',
		  (unsigned long long)io->sector, io->bytes);
	if (S.pattern)
		ob_printf(o, "%c ", io->pattern);
	if (S.queue)
		ob_printf(o, "%7.2f ", (double)io->que / 1000000);
	ob_printf(o, "%7.2f", (double)io->lat / 1000000);
	if (S.errcol)
		ob_printf(o, " %s", io->err ? errno_name(io->err, b) : "-");
	ob_puts(o, "\n");
}

/* ---- records ---- */

static int want_dev(u32 dev)
{
	return disk_wanted(&S.only, dev, S.replay);
}

static void snoop_record(const struct rec *r)
{
	u32 a = ACT32(r);
	struct snoop_io io;

	if (a == TN_PROCESS) {
		proc_add(r->pid, r->pdu, r->pdu_len);
		return;
	}
	if ((a & TC(TC_NOTIFY)) || !want_dev(r->dev))
		return;
	if (snoop_event(r, &io))
		line(&io);
}

/* ---- live: as biolatency's, records in time order (capture/input.c),
 * each round's lines written after it ---- */

static void live_round(void)
{
	ob_flush(&S.out);
}

static int run_live(void)
{
	struct cap_cfg c;

	if (cap_live_devices(&c, S.devs, S.ndevs, "-t"))
		return -1;
	S.live = 1;
	header();
	ob_flush(&S.out);
	return in_trace(&(struct input){ NULL, 0, &c, snoop_record, live_round, NULL, NULL });
}

TEXT(snoop_slower_is_no, "--slower: '%s' is no number of milliseconds")
/* MS: milliseconds, a fraction allowed (0.5) */
static int ms_arg(const char *s, u64 *ns)
{
	u64 v = 0, scale = 1000000;
	const char *p = s;

	for (; *p >= '0' && *p <= '9' && v < 1000000000000u; p++)
		v = v * 10 + (u64)(*p - '0');
	v *= scale;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			if (scale /= 10)
				v += scale * (u64)(*p - '0');
	if (p == s || *p) {
		warn_text(U_snoop_slower_is_no, s);
		return -1;
	}
	*ns = v;
	return 0;
}

static int options(int argc, char **argv)
{
	static const struct lopt lo[] = {
		{ "queue", 0, 0, 'Q' },
		{ "pattern", 0, 0, 'P' },
		{ "disk", 1, 0, 'd' },
		{ "slower", 1, 0, 's' },
		{ "errors", 0, 0, 'e' },
		{ NULL, 0, 0, 0 }
	};
	int c;

	while ((c = opt_get(argc, argv, "QPd:t:i:", lo)) != -1) {
		switch (c) {
		case 'Q': S.queue = 1; break;
		case 'P': S.pattern = 1; break;
		case 'd': S.only.disk = opt_arg; break;
		case 'i':
			if (in_one(&S.in, opt_arg))
				return 1;
			break;
		case 'e': S.errors = S.errcol = snoop_unissued_fails = 1; break;
		case 's':
			if (ms_arg(opt_arg, &S.slower))
				return 1;
			S.errcol = 1;
			break;
		case 't':
			if (cap_dev_arg(S.devs, &S.ndevs, opt_arg))
				return 1;
			break;
		default:
			usage_put(2, U_snoop);
			return 1;
		}
	}
	if (opt_ind < argc) {
		usage_put(2, U_snoop);
		return 1;
	}
	return -1;
}

TEXT(snoop_requests_aged_out, "%llu requests aged out of SNOOP_REQS %d; %llu completions on "
	"disks past SNOOP_DEVS %d had no pattern")
int snoop_main(int argc, char **argv)
{
	int c = options(argc, argv);

	if (c >= 0)
		return c;
	ob_init(&S.out, 1, "stdout", S.outbuf, sizeof(S.outbuf));
	if (S.in) {
		S.replay = replay_label(S.in);
		header();
		c = in_trace(&(struct input){ &S.in, 1, NULL, snoop_record, NULL, NULL, NULL });
	} else if ((c = run_live()) < 0)
		return 1;
	fail_line(&S.out);
	ob_flush(&S.out);	/* the lines before what went wrong is said */
	if (snoop_aged() || snoop_nodev)
		warn_text(U_snoop_requests_aged_out,
			 snoop_aged(), SNOOP_REQS, snoop_nodev, SNOOP_DEVS);
	return ob_close(&S.out) || c ? 1 : 0;
}
