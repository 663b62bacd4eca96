/* output/btt.c: driver: btt: options, the report, live intervals, the exports */
//applet: btt btt btt_main
//sources: @trace capture/input.c capture/merge.c capture/window.c match/inflight.c match/procs.c
//sources: output/bttdm.c output/bttexp.c output/bttfiles.c output/bttopt.c output/bttrep.c
//sources: output/export.c stats/bttios.c stats/bttproc.c stats/bttrange.c
//sources: stats/bttrb.c stats/bttseek.c stats/bttstat.c stats/exact.c stats/monstat.c
//readme: btt 1.2.0: the `.avg` report and its files, iostat, latency files | btt.1
/* usage: iomon btt -i INPUT... | --trace DEV... [-o NAME]
 * The inputs are read by capture/input.c (shared with plot) into
 * stats/bttstat.c's figures. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "output/output.h"

USAGE(btt,
"usage: btt -i INPUT... | --trace DEV... | --listen[=PORT] [options]\n"
"  -i, --input-file INPUT    a dump (blkparse -d), a trace's NAME, or -\n"
"  -o, --output-file NAME    NAME.avg, .dat, .msg, _qhist.dat, _dhist.dat (-X: .xvg)\n"
"  -A, --all-data            per process and per device tables, Q2D histogram\n"
"  -a, --seek-absolute       seeks from the last I/O's end\n"
"  -B, --dump-blocknos NAME  NAME_DEV_{r,w,c}.dat: each D's time and blocks\n"
"  -d, --range-delta SECS    a gap that ends a range in NAME.dat (0.1)\n"
"  -D, --devices MAJ,MIN;...  report only these devices, in this order\n"
"  -e, --exes EXE,...        only these processes' figures\n"
"  -I, --iostat NAME         an iostat-like table a -S interval\n"
"  -l, -q, -z NAME           NAME_DEV_{d2c,q2c,q2d}.dat: each I/O's latency\n"
"  -L, --periodic-latencies SECS  DEV_{q2d,d2c,q2c}_plat.dat: means a SECS\n"
"  -m, --seeks-per-second NAME    NAME_DEV.dat (with -s)\n"
"  -M, --dev-maps FILE       devices' names: lines of NAME MAJ,MIN\n"
"  -p, --per-io-dump NAME    each I/O's Q, G, I, M, D, C\n"
"  -P, --per-io-trees NAME   DEV_pit.dat: each C's Q times | D | C\n"
"  -Q, --active-queue-depth NAME  NAME_DEV_aqd.dat: I/Os issued, not done\n"
"  -r, --no-remaps           leave remaps out\n"
"  -s, --seeks NAME          NAME_DEV_{d2d,q2q}_{r,w,c}.dat: each seek\n"
"  -S, --iostat-interval SECS  -I's interval (1); live: the report's too\n"
"  -t, --time-start SECS, -T, --time-end SECS  only records between\n"
"  -u, --unplug-hist NAME    NAME_DEV.dat: unplugs by I/Os let go\n"
"  -v, --verbose             progress on stdout; -V, --version; -h, --help\n"
"  -Z, --do-active           DEV_live.dat, sys_live.dat: busy periods\n"
"  --trace DEV [-w SECS]     trace DEV live; --hist, --json FILE, --prom FILE\n")

static char btt_out[8192];

static char json_buf[4096], msg_buf[1024], xvg_buf[1024];

static struct {
	char *in[IN_NAMES];
	const char *out, *prom, *ios;
	struct obuf json, text;	/* text: live -S's interval report, stdout */
	struct obuf msg, *msgs;	/* msgs: NAME.msg, or text */
	const char *argv0;
	int nin, hist, json_on, every, xvg;
	int slow;		/* -t/-T, -r, -v, -u or an option file (not -Z's: stats hands it its spans): each record by slow_record */
	int bounded, no_remaps;	/* -t/-T given (2: past -T, stopped), -r */
	double t_start, t_end;
	int verbose;		/* -v: btt's progress on stdout */
	s64 vsec;		/* its last line's second */
	u64 vrecs, vbytes, vsize, vt0;	/* records btt counts, bytes read, the input's size, the start (ns) */
	struct obuf x;		/* -X with -o: NAME.xvg */
	u64 t0;
	u64 next;		/* -S: mono_ms of the next interval's end */
} A;

static COLD void export_now(void)
{
	btt_export(A.json_on ? &A.json : NULL, A.prom, wall_sec(), A.every);
}

/* live -S: the interval's figures as text on stdout (not when the JSON
 * is there), labelled by the seconds since the start */
static void interval_text(void)
{
	if (A.every && (!A.json_on || A.json.fd != 1))
		btt_interval_report(&A.text, (mono_ms() - A.t0 + 500) / 1000);
}

static void drain(void);

static void live_round(void)
{
	drain();
	if (A.every && mono_ms() >= A.next) {
		A.next += (u64)A.every * 1000;
		interval_text();
		export_now();
		btt_pool_flush();	/* a file followed sees each interval's lines */
	}
}

TEXT(btt_events_of_devices, "%llu events of devices beyond the first %d (BTT_DEVS) left out")
TEXT(btt_requests_found_btt, "%llu requests found %d (BTT_REQS) in flight: not tracked, so "
	"the figures are approximate")
TEXT(btt_busy_periods_let, "%llu busy periods let go of past the %d (BTT_PERIODS) kept: the "
	"I/O Active Period figures are approximate")
TEXT(btt_busy_periods_early, "%llu busy periods reached one let go of early (records out of "
	"time order): the I/O Active Period figures are approximate")
TEXT(btt_process_names_past, "%llu process names past %d (PROC_MAX): their processes go by "
	"pidNNNNNNNNN")
TEXT(btt_activity_ranges_past, "%llu activity ranges past %d (BTT_RANGES) joined the one "
	"before: the range data are approximate")
TEXT(btt_events_of_processes, "%llu events of processes past %d names (BTT_PROCS): the Per "
	"Process figures leave them out")
TEXT(btt_seeks_of_new, "%llu seeks of new distances past the %d (BTT_SEEKS) kept, or of "
	"2^48 sectors or more: their MEDIAN and MODE are approximate")
/* a pool that ran out makes the figures approximate: said, never silent */
static COLD void pools_report(void)
{
	if (btt_dev_dropped)
		warn_text(U_btt_events_of_devices, btt_dev_dropped, BTT_DEVS);
	if (btt_req_dropped)
		warn_text(U_btt_requests_found_btt,
			 btt_req_dropped, BTT_REQS);
	if (btt_live_folds)
		warn_text(U_btt_busy_periods_let,
			 btt_live_folds, BTT_PERIODS);
	else if (btt_live_early)
		warn_text(U_btt_busy_periods_early, btt_live_early);
#ifdef BTT_PERIODS_SAY
	warn_msg("busy periods: %u nodes held at most, %u let go of in one record at most", btt_live_hwm(), btt_live_most());
#endif
	if (proc_dropped)
		warn_text(U_btt_process_names_past, proc_dropped, PROC_MAX);
	if (btt_range_dropped)
		warn_text(U_btt_activity_ranges_past,
			 btt_range_dropped, BTT_RANGES);
	if (btt_proc_dropped)
		warn_text(U_btt_events_of_processes,
			 btt_proc_dropped, BTT_PROCS);
	if (btt_seek_dropped)
		warn_text(U_btt_seeks_of_new,
			 btt_seek_dropped, BTT_SEEKS);
}

/* btt's messages (a trace's notes of text), as they come: NAME.msg or stdout */
static void message(const struct btt_dev *d, const struct rec *r)
{
	ob_printf(A.msgs, "(%3u,%3u) %5u.%09u %.*s\n", DEV_MAJOR(d->dev), DEV_MINOR(d->dev), (u32)(r->time / 1000000000),
		  (u32)(r->time % 1000000000), (int)r->pdu_len, (const char *)r->pdu);
}

/* the lines the last record's figures left (stats/bttstat.c); with
 * A.slow, btt_pending stays set, so that every record comes this way */
static void drain(void)
{
	if (btt_pending) {
		btt_pending = A.slow;
		btt_files_after();
	}
}

/* -t/-T, -r: btt leaves out the records before -t's second, and stops at
 * the first past -T's (0 unless given: -t alone stops at once), the
 * notes too from there; -r: remaps, for which btt then makes no device */
static int outside(const struct rec *r)
{
	int note = !!(ACT32(r) & (TC(TC_NOTIFY) | TC(TC_PC)));
	double t;

	if (A.bounded == 2 || (A.no_remaps && !note && (ACT32(r) & 0xffff) == TA_REMAP))
		return 1;
	if (A.bounded && !note) {
		t = btt_time(r->time);
		if (t < A.t_start)
			return 1;
		if (t > A.t_end) {
			A.bounded = 2;
			return 1;
		}
	}
	return 0;
}

/* -v: btt counts the records it reads that are not notes (within -t/-T),
 * and once a second (by the wall clock, looked at every 1000) prints
 * the count and the share of the input's bytes read */
static COLD void verbose_rec(void)
{
	s64 now;

	if (++A.vrecs % 1000 || (now = wall_sec()) == A.vsec)
		return;
	ob_printf(&A.text, "%10llu t (%6.2f%%)\r%s", (unsigned long long)A.vrecs,
		  A.vsize ? 100.0 * (double)A.vbytes / (double)A.vsize : 0.0, A.vrecs % 1000000 ? "" : "\n");
	ob_flush(&A.text);
	A.vsec = now;
}

TEXT(btt_verbose_end, "\015%80s\015%10llu traces @ %.1f Ktps in %.6f seconds\n")
/* -v at the end: the line cleared, the count and its rate */
static COLD void verbose_end(void)
{
	double dt = (double)(mono_ns() - A.vt0) / 1e9;

	ob_printf(&A.text, TX(btt_verbose_end), "", (unsigned long long)A.vrecs,
		  (double)A.vrecs / dt / 1000.0, dt);
	ob_flush(&A.text);
}

/* a message, a record after one that left lines, or any with -t/-T, -r
 * or an option file (what stats/bttstat.c kept of it then read) */
static COLD __attribute__((noinline)) void slow_record(const struct rec *r)
{
	drain();
	A.vbytes += 48 + r->pdu_len;
	if (A.slow && outside(r))
		return;
	if (A.verbose && !(ACT32(r) & (TC(TC_NOTIFY) | TC(TC_PC))))
		verbose_rec();
	btt_event(r);
	if (btt_msg_dev) {
		message(btt_msg_dev, r);
		btt_msg_dev = NULL;
	}
	if (A.slow)
		btt_opt_after(r);
}

/* each record in time order to its figures; what the one before left to
 * print goes first (the common case: neither, one jump) */
static void record(const struct rec *r)
{
	if (__builtin_expect((u32)r->action == TN_MESSAGE || btt_pending, 0))
		slow_record(r);
	else
		btt_event(r);
}

/* NAME + sfx made for o (buf: btt_out), or 1 said */
static COLD int out_open(struct obuf *o, char *path, const char *sfx, char *buf, u32 cap)
{
	int fd;

	if ((size_t)sfmt(path, PATH_LEN, "%s%s", A.out, sfx) >= PATH_LEN) {
		warn_msg("%s: name too long", A.out);
		return 1;
	}
	if ((fd = open_out(path, 0644)) < 0)
		return 1;
	ob_init(o, fd, path, buf, cap);
	return 0;
}

/* NAME.msg made before the run, or stdout; apart, so that its path is
 * off the stack the run goes on */
static COLD __attribute__((noinline)) int msg_open(void)
{
	char path[PATH_LEN];

	A.msgs = &A.text;
	if (!A.out)
		return 0;
	if (out_open(&A.msg, path, ".msg", msg_buf, sizeof(msg_buf)))
		return 1;
	A.msg.name = A.out;	/* (path is gone by its end) */
	A.msgs = &A.msg;
	if (A.xvg) {		/* made now, kept empty */
		if (out_open(&A.x, path, ".xvg", xvg_buf, sizeof(xvg_buf)))
			return 1;
		A.x.name = A.out;
		btt_xvg = &A.x;
	}
	return 0;
}

/* with -o NAME: NAME.avg, NAME.dat (the range data), NAME_qhist.dat,
 * NAME_dhist.dat; else the report and the range data on stdout */
static COLD int report(void)
{
	static const char sfx[4][11] = { ".avg", ".dat", "_qhist.dat", "_dhist.dat" };
	char path[PATH_LEN];
	struct obuf o;
	int k, rc = 0;

	for (k = 0; k < (A.out ? 4 : 1); k++) {
		if (!A.out)
			ob_init(&o, 1, "(stdout)", btt_out, sizeof(btt_out));
		else if (out_open(&o, path, sfx[k], btt_out, sizeof(btt_out))) {
			rc = 1;
			continue;
		}
		if (!k)
			btt_report(&o, btt_per_proc);
		if (k == !!A.out)
			btt_range_data(&o);
		if (!k && A.hist)
			btt_hist_report(&o);
		if (k > 1)
			btt_size_hist(&o, k - 2);
		rc |= ob_close(&o) != 0;
	}
	return rc;
}

static const struct lopt longopts[] = {
	{ "seek-absolute", 0, 0, 'a' },
	{ "all-data", 0, 0, 'A' },
	{ "dump-blocknos", 1, 0, 'B' },
	{ "range-delta", 1, 0, 'd' },
	{ "devices", 1, 0, 'D' },
	{ "exes", 1, 0, 'e' },
	{ "help", 0, 0, 'h' },
	{ "input-file", 1, 0, 'i' },
	{ "iostat", 1, 0, 'I' },
	{ "d2c-latencies", 1, 0, 'l' },
	{ "periodic-latencies", 1, 0, 'L' },
	{ "seeks-per-second", 1, 0, 'm' },
	{ "dev-maps", 1, 0, 'M' },
	{ "output-file", 1, 0, 'o' },
	{ "per-io-dump", 1, 0, 'p' },
	{ "per-io-trees", 1, 0, 'P' },
	{ "q2c-latencies", 1, 0, 'q' },
	{ "active-queue-depth", 1, 0, 'Q' },
	{ "no-remaps", 0, 0, 'r' },
	{ "seeks", 1, 0, 's' },
	{ "iostat-interval", 1, 0, 'S' },
	{ "time-start", 1, 0, 't' },
	{ "time-end", 1, 0, 'T' },
	{ "unplug-hist", 1, 0, 'u' },
	{ "version", 0, 0, 'V' },
	{ "verbose", 0, 0, 'v' },
	{ "do-active", 0, 0, 'z' },	/* btt's table gives it -z's letter, not -Z's */
	{ "easy-parse-avgs", 0, 0, 'X' },
	{ "q2d-latencies", 1, 0, 'z' },
	{ "trace", 1, 0, 't' | 256 },
	{ "wait", 1, 0, 'w' },
	{ "hist", 0, 0, 'H' },
	{ "json", 1, 0, 'J' },
	{ "prom", 1, 0, 'P' | 256 },
	{ "listen", 2, 0, 'l' | 256 },
	{ 0, 0, 0, 0 },
};

/* btt's options of the files beside the report (output/bttopt.c) */
static COLD int file_opt(int c, char *arg)
{
	const char *e;

	switch (c) {
	case 'B': btt_opt.bno = arg; break;
	case 's': btt_opt.seek = arg; break;
	case 'm': btt_opt.sps = arg; break;
	case 'Q': btt_opt.aqd = arg; break;
	case 'u': btt_opt.unplug = arg; break;
	case 'p': btt_opt.pio = arg; break;
	case 'P': btt_opt.pit = arg; break;
	case 'Z': btt_opt.live = 1; break;
	case 'X': A.xvg = 1; break;
	case 'v': A.verbose = 1; break;
	case 'a': btt_seek_abs = 1; break;
	case 'r': A.no_remaps = 1; break;
	case 'D': btt_dlist = arg; break;
	case 'M': return btt_map_read(arg);
	case 't': case 'T':	/* btt's sscanf %lf: a value not read leaves 0 */
		*(c == 't' ? &A.t_start : &A.t_end) = scan_double(arg, &e);
		A.bounded = 1;
		break;
	case 'V': {		/* btt's version of its report, 2.09, under its name */
		char b[PATH_LEN];
		struct obuf o;

		ob_init(&o, 1, "(stdout)", b, sizeof(b));
		ob_printf(&o, "%s version 2.09\n", A.argv0);
		ob_close(&o);
		return -1;
	}
	case 'h':
		usage_put(1, U_btt);
		return -1;
	case 'l': case 'q': case 'z': case 'd': case 'L': case 'S':
		return btt_files_opt(c, arg);
	default:
		usage_put(2, U_btt);
		return 1;
	}
	return 0;
}

/* the files made before the run, and what the figures keep: with -t/-T,
 * -r or an option file every record goes by slow_record */
static COLD int run_start(void)
{
	struct stat st;

	if (msg_open() || btt_opt_start())
		return 1;
	btt_more = A.hist | A.json_on | A.every | !!A.prom;
	A.t0 = mono_ms();
	A.next = A.t0 + (u64)A.every * 1000;
	ob_init(&A.text, 1, "(stdout)", btt_out, sizeof(btt_out));
	btt_ev_more = btt_ios_on | btt_opt_on;
	A.slow = A.bounded | A.no_remaps | btt_opt_on | !!btt_opt.unplug | A.verbose;
	if (A.verbose && A.out)	/* btt names its files as it makes them */
		ob_printf(&A.text, "Sending range data to %s.dat\nSending stats data to %s.avg\nSending K messages to %s.msg\n",
			  A.out, A.out, A.out);
	if (A.verbose && A.out && A.xvg)
		ob_printf(&A.text, "Sending EZ stats data to %s.xvg\n", A.out);
	A.vsec = wall_sec();
	A.vt0 = mono_ns();
	if (A.nin == 1 && !stat(A.in[0], &st))
		A.vsize = (u64)st.st_size;
	btt_pending = A.slow;
	return 0;
}

/* btt opens its input before it makes a file: a name that is no file
 * and no trace (NAME.blktrace.0, or .zst) is said as its perror says it,
 * and nothing is made */
static COLD int inputs_gone(void)
{
	struct stat st;
	int i, e;

	for (i = 0; i < A.nin; i++)
		if (in_kind(A.in[i]) == 1 && stat(A.in[i], &st) && (e = errno, !trace_there(A.in[i]))) {
			warn_msg(WARN_BARE "%s: %s", A.in[i], strerror(e));
			return 1;
		}
	return 0;
}

TEXT(btt_d_a_device, "-D %s: a device the trace does not have (btt 1.2.0 crashes): "
	"left out")
TEXT(btt_more_than_inputs, "%s: more than %d inputs (DEVS_MAX, MERGE_INPUTS)")
TEXT(btt_fatal_m_option, "FATAL: -m option requires -s options")
COLD int btt_main(int argc, char **argv)
{
	struct cap_cfg cfg;
	struct stat st;
	int c, rc;

	cap_defaults(&cfg);
	A.argv0 = argv[0];
	while ((c = opt_get(argc, argv, "aAB:d:D:e:hi:I:l:L:m:M:o:p:P:q:Q:rs:S:t:T:u:VvXz:Zw:", longopts)) != -1) {
		switch (c) {
		case 'i':
			if (A.nin == IN_NAMES) {
				warn_text(U_btt_more_than_inputs, opt_arg, IN_NAMES);
				return 1;
			}
			A.in[A.nin++] = opt_arg;
			break;
		case 'o': A.out = opt_arg; break;
		case 'A': btt_per_proc = 1; break;
		case 'e': btt_exes = opt_arg; break;
		case 'H': A.hist = 1; break;
		case 'P' | 256: A.prom = opt_arg; break;
		case 'J':
			if ((c = strcmp(opt_arg, "-") ? open_out(opt_arg, 0644) : 1) < 0)
				return 1;
			ob_init(&A.json, c, opt_arg, json_buf, sizeof(json_buf));
			A.json_on = 1;
			break;
		case 't' | 256:
			if (cap_add_device(opt_arg))
				return 1;
			break;
		case 'l' | 256:
		case 'w':
			if (cap_opt(&cfg, c & 255, opt_arg))
				return 1;
			break;
		case 'I': A.ios = opt_arg; break;	/* made once the input is seen */
		case 'S':	/* btt's iostat interval, and the exports' */
			A.every = atoi(opt_arg);
			/* fall through */
		default:	/* the rest of btt's (and unknown ones) */
			if ((rc = file_opt(c, opt_arg)))
				return rc > 0;
		}
	}
	if (btt_opt.sps && !btt_opt.seek) {
		warn_text(U_btt_fatal_m_option);
		return 1;
	}
	if (!!A.nin + !!cap_ndev() + cfg.listen != 1 || opt_ind < argc) {
		warn_msg("%s", opt_ind < argc ? "unexpected argument" : "one of -i INPUT, --trace DEV, --listen");
		return 1;
	}
	/* btt reads an empty dump as nothing to do: no report, no files */
	if (A.nin == 1 && in_kind(A.in[0]) == 0 && !stat(A.in[0], &st) && S_ISREG(st.st_mode) && !st.st_size)
		return 0;
	if (inputs_gone() || (A.ios && btt_files_opt('I', A.ios)) || run_start())
		return 1;
	rc = in_run(&(struct input){ A.in, A.nin, &cfg, record, live_round, NULL, NULL });
	if (rc && !btt_ndevs)	/* nothing read (inputs of mixed kinds): no files */
		return 1;
	drain();
	if (A.verbose)
		verbose_end();
	if (!A.nin)
		interval_text();	/* live: the last one, cut short */
	rc |= btt_files_end() | btt_opt_end() | (A.out ? ob_close(&A.msg) : (ob_flush(&A.text), 0));
	pools_report();
	if (A.json_on || A.prom)	/* the last (or only) interval */
		export_now();
	rc |= report();
	if (btt_dmissing) {	/* (found as the devices were listed) */
		warn_text(U_btt_d_a_device, btt_dlist);
		rc = 1;
	}
	return ((btt_xvg && ob_close(btt_xvg)) | (A.json_on && ob_close(&A.json)) | rc) != 0;
}
