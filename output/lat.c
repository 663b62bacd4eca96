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
#include <stdlib.h>
#include <string.h>
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
	int ts, ext;
	const char *replay;
	char *in;
	char *devs[CAP_DEVS];
	int ndevs;
	struct ticks k;
	struct disk_filter only;	/* -d */
	char outbuf[LAT_OUT_BUF];
	struct obuf out;
} L;

static void print_tables(s64 wall)
{
	lat_tables(&L.out, wall, L.ts, L.ext, L.replay);
}

/* ---- records ---- */

static int want_dev(u32 dev)
{
	return disk_wanted(&L.only, dev, L.replay);
}

/* every record: notes, the interval clock, the disk filter, the count */
static void lat_record(const struct rec *r)
{
	if (L.k.done)
		return;
	if (in_note(r, &L.k.wall0))
		return;
	if (tick(&L.k, r) || !want_dev(r->dev))
		return;
	lat_event(r);
}

static int replay(char *name)
{
	int rc = in_trace(&(struct input){ &name, 1, NULL, lat_record, NULL, &L.k.stop, NULL });

	tick_end(&L.k);
	return rc;
}

/* ---- live: as top's, records in time order to lat_record ---- */

static void live_round(void)
{
	tick_live(&L.k);
}

static int run_live(void)
{
	struct cap_cfg c;
	int rc;

	if (cap_live_devices(&c, L.devs, L.ndevs, "-t"))
		return -1;
	L.k.live = 1;
	ob_puts(&L.out, "Tracing block device I/O... Hit Ctrl-C to end.\n");
	ob_flush(&L.out);
	rc = in_trace(&(struct input){ NULL, 0, &c, lat_record, live_round, NULL, NULL });
	tick_end(&L.k);
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
	if (opt_ind < argc && (L.k.interval = atoi(argv[opt_ind++])) <= 0) {
		warn_msg("interval must be above 0");
		return 1;
	}
	if (opt_ind < argc)
		L.k.count = atoi(argv[opt_ind++]);
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
	L.k.out = print_tables;
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
