/* output/lat.c: driver: biolatency: I/O latency as log2 histograms, live or from a trace */
//applet: biolatency lat lat_main
//sources: @trace capture/input.c capture/merge.c capture/window.c match/inflight.c stats/latstat.c
//sources: stats/failstat.c output/lattable.c output/iolines.c
//readme: BCC's biolatency, without BPF; percentiles (-P) | biolatency.8
/* lat: biolatency's histograms from block traces (the counting:
 * stats/latstat.c, the tables: output/lattable.c).  Live (-t DEV, or every
 * whole disk) through iomon trace's backends, or replayed from trace
 * files (-i) in trace time.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "output/output.h"

USAGE(lat,
"usage: iomon lat [-T] [-Q] [-m] [-D | -F] [-e] [-P] [-d DISK] [-t DEV]...\n"
"                 [-i NAME] [interval [count]]\n"
"\n"
"Block I/O latency as biolatency's log2 histograms.\n"
"\n"
" -T            include a timestamp (HH:MM:SS) on each table\n"
" -Q            include OS queued time: queue (Q) to completion, not\n"
"               issue (D) to completion\n"
" -m            milliseconds, not microseconds\n"
" -D            a histogram per disk\n"
" -F            a histogram per set of I/O flags\n"
" -e            extended: average latency, total and count\n"
" -P            percentiles p50 p90 p99 p99.9 and max per disk and\n"
"               direction (R W, F flush, D discard; within 1 %, max exact)\n"
" -d DISK       only DISK (its name, as sda)\n"
" -t DEV        trace DEV (repeatable); default: every whole disk, as top\n"
" -i NAME       replay NAME.blktrace.N files (or - for a stream) in trace time\n"
" interval      seconds between tables (default: one table at the end)\n"
" count         tables before it stops\n")

static struct {
	int ts, ext, interval, count, live, done;
	const char *replay;
	char *in;
	char *devs[CAP_DEVS];
	int ndevs;
	u64 start, next;
	struct disk_filter only;	/* -d */
	char outbuf[LAT_OUT_BUF];
	struct obuf out;
} L;
static volatile sig_atomic_t lat_stop;
static s64 wall0;

static void print_tables(s64 wall)
{
	lat_tables(&L.out, wall, L.ts, L.ext, L.replay);
}

/* ---- records ---- */

static int want_dev(u32 dev)
{
	return disk_wanted(&L.only, dev, L.replay);
}

static int tick(const struct rec *r)
{
	if (L.live || !L.interval)
		return 0;
	if (!L.start) {
		L.start = r->time;
		L.next = r->time + (u64)L.interval * 1000000000u;
		return 0;
	}
	while (r->time >= L.next) {
		print_tables(wall0 + (s64)((L.next - L.start) / 1000000000u));
		L.next += (u64)L.interval * 1000000000u;
		if (L.count && !--L.count) {
			L.done = lat_stop = 1;
			return 1;
		}
	}
	return 0;
}

/* every record: notes, the interval clock, the disk filter, the count */
static void lat_record(const struct rec *r)
{
	if (L.done)
		return;
	if (in_note(r, &wall0))
		return;
	if (tick(r) || !want_dev(r->dev))
		return;
	lat_event(r);
}

static int replay(char *name)
{
	int rc = in_trace(&(struct input){ &name, 1, NULL, lat_record, NULL, &lat_stop, NULL });

	if (!L.done)
		print_tables(wall0 + (L.interval && L.start ? (s64)((L.next - L.start) / 1000000000u) : 0));
	return rc;
}

/* ---- live: as top's, records in time order to lat_record ---- */

static u64 live_next;

static void live_round(void)
{
	if (L.interval && cap_interval_due(&live_next, (u32)L.interval) && !L.done) {
		print_tables(wall_sec());
		if (L.count && !--L.count) {
			L.done = 1;
			kill(getpid(), SIGTERM);	/* the capture stops cleanly on it */
		}
	}
}

static int run_live(void)
{
	struct cap_cfg c;
	int rc;

	if (cap_live_devices(&c, L.devs, L.ndevs, "-t"))
		return -1;
	L.live = 1;
	ob_puts(&L.out, "Tracing block device I/O... Hit Ctrl-C to end.\n");
	ob_flush(&L.out);
	rc = in_trace(&(struct input){ NULL, 0, &c, lat_record, live_round, NULL, NULL });
	if (!L.done)
		print_tables(wall_sec());
	return rc;
}

static int options(int argc, char **argv)
{
	int c;

	while ((c = opt_get(argc, argv, "TQmDFePd:t:i:", NULL)) != -1) {
		switch (c) {
		case 'T': L.ts = 1; break;
		case 'Q': lats.queued = 1; break;
		case 'm': lats.ms = 1; break;
		case 'D': lats.disks = 1; break;
		case 'F': lats.flags = 1; break;
		case 'e': L.ext = 1; break;
		case 'P': lats.pct = 1; break;
		case 'd': L.only.disk = opt_arg; break;
		case 'i':
			if (in_one(&L.in, opt_arg))
				return 1;
			break;
		case 't':
			if (cap_dev_arg(L.devs, &L.ndevs, opt_arg))
				return 1;
			break;
		default:
			usage_put(2, U_lat);
			return 1;
		}
	}
	if (lats.disks && lats.flags) {
		warn_msg("can only use -D or -F");
		return 1;
	}
	if (opt_ind < argc && (L.interval = atoi(argv[opt_ind++])) <= 0) {
		warn_msg("interval must be above 0");
		return 1;
	}
	if (opt_ind < argc)
		L.count = atoi(argv[opt_ind++]);
	if (opt_ind < argc) {
		usage_put(2, U_lat);
		return 1;
	}
	return -1;
}

TEXT(lat_requests_aged_out, "%llu requests aged out of LAT_REQS %d; %llu latencies found no "
	"room (LAT_HISTS %d, LAT_PSERIES %d)")
int lat_main(int argc, char **argv)
{
	int c = options(argc, argv);

	if (c >= 0)
		return c;
	ob_init(&L.out, 1, "stdout", L.outbuf, sizeof(L.outbuf));
	if (L.in) {
		L.replay = replay_label(L.in);
		/* biolatency says it before its first table */
		ob_puts(&L.out, "Tracing block device I/O... Hit Ctrl-C to end.\n");
		c = replay(L.in);
	} else if ((c = run_live()) < 0)
		return 1;
	fail_line(&L.out);	/* after the last table: what failed, if any did */
	if (lat_aged() || lats.lost)
		warn_text(U_lat_requests_aged_out,
			 lat_aged(), LAT_REQS, lats.lost, LAT_HISTS, LAT_PSERIES);
	return ob_close(&L.out) || c ? 1 : 0;
}
