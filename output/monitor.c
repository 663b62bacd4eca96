/* output/monitor.c: driver: blkiomon: usage, options, outputs, its records through capture/input.c, the interval clock */
//applet: blkiomon monitor monitor_main
//sources: @trace capture/input.c capture/merge.c capture/window.c match/dcpair.c match/inflight.c
//sources: output/export.c output/monexp.c stats/exact.c stats/monstat.c
//sources: stats/failstat.c output/iolines.c
//option: EXPORT output/monexp.c
//readme: blkiomon 0.3, repaired; live, replays, Prometheus and JSON | blkiomon.8
/* monitor: blkiomon, per-device interval statistics of request sizes and
 * device (D to C) latency, in fixed pools (statistics: stats/monstat.c,
 * reports: output/export.c, D/C pairing: match/dcpair.c).
 *
 * Repairs over blkiomon 0.3 here: the last partial interval is printed at
 * end of input; the message queue is awaited with a bounded backoff.
 * Unmatched requests age out of a fixed pool and are counted (-D),
 * instead of living forever.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "output/output.h"

USAGE(monitor,
"usage: blkiomon -I SECS [-h FILE] [-b FILE] [-d FILE] [-D FILE] [-Q PATH -q ID -m MSGID]\n"
"       iomon monitor -I SECS [OPTIONS] [-i NAME]\n"
"\n"
"Per-device statistics of request sizes and device latency (D to C) each\n"
"interval, from a blktrace stream on stdin (blktrace -a issue -a complete\n"
"-o - sda | blkiomon -I 10 -h -) or from trace files.\n"
"\n"
" -I, --interval=SECS         interval length (required)\n"
" -h, --human-readable=FILE   text statistics ('-' for stdout)\n"
" -b, --binary=FILE           424-byte big-endian struct blkiomon_stat records\n"
" -d, --dump-lldd=FILE        pass driver-data records through to FILE\n"
" -D, --debug=FILE            matching details and counters\n"
" -Q, --msg-queue=PATH        System V message queue: ftok(PATH, -q ID),\n"
" -q, --msg-queue-id=ID       messages of type -m MSGID\n"
" -m, --msg-id=MSGID\n"
" -i, --input=NAME            read NAME.blktrace.N files instead of stdin\n"
"                             (repeatable: all merged by time)\n"
" -t, --trace=DEV             trace DEV live (repeatable), as iomon trace does\n"
" -l, --listen[=PORT]         take trace -h's and blktrace -h's clients, every\n"
"                             client's devices (port 8462; -p PORT)\n"
"     --prom=FILE             Prometheus text (node_exporter textfile), each interval\n"
"     --json=FILE             one JSON object per device and interval ('-' stdout)\n"
"     --clock=wall|trace      interval clock (wall for stdin, trace for -i)\n"
" -V, --version               print the version\n")

static struct mon {
	u64 drvdata, overall;
	int interval, trace_clock;
	long msg_q_id;
	const char *msg_q_name;
	struct obuf human, bin, drv, dbg, js;
	char hbuf[MON_TEXT_BUF], bbuf[MON_BIN_BUF], dbuf[MON_BIN_BUF], gbuf[MON_BIN_BUF];
	char jbuf[MON_JSON_BUF];
	int have_d, have_g;
	u64 start;		/* trace clock: first event */
	s64 wall0;		/* trace clock: wall seconds at start */
} M;

static volatile sig_atomic_t mon_stop;
static void on_sig(int s) { (void)s; mon_stop = 1; }

static struct mon_out O = { .msq = -1, .stop = &mon_stop };

static void flush_interval(s64 t)
{
	export_interval(&O, t);
	if (M.have_d)
		ob_flush(&M.drv);
}

/* ---- D/C matching in a fixed pool (blkiomon_do_trace): match/dcpair.c ---- */

static void debug_rec(const char *what, const struct dc_rec *p)
{
	if (M.have_g)
		ob_printf(&M.dbg, "--- %s ---\ntime     %16llu\nsector   %16llu\nbytes    %16u\naction   %16x\ndevice   %16u\n",
			  what, (unsigned long long)p->time, (unsigned long long)p->sector, p->bytes,
			  p->action, p->dev);
}

/* when the pool is full the oldest waiting record ages out (-D says so);
 * slots above hwm were never used (untouched pages) */
IFT_POOL(pend, struct dc_ent, MON_PENDING, MON_HASH, IFT_AGE_FIFO);
static struct dcpair DC = { .t = &pend };	/* notes: -D's */

/* ---- input ---- */

static void record(const struct rec *r)
{
	u32 a = ACT32(r);
	struct dc_rec t, d, c;

	M.overall++;
	if (a & TC(TC_DRV_DATA)) {
		M.drvdata++;
		if (M.have_d)
			rec_write(&M.drv, r);
		return;
	}
	if (a == TN_TIMESTAMP && r->pdu_len == 8 && !M.start) {
		M.wall0 = ne32_load(r->pdu, r->swapped);	/* intervals in wall time */
		return;
	}
	if (!(a & (TC(TC_ISSUE) | TC(TC_COMPLETE))) || REC_IS_NOTE(r))
		return;
	if (M.trace_clock) {
		u64 iv = (u64)M.interval * 1000000000u, k;

		if (!M.start)
			M.start = r->time;
		/* Intervals after the first one passed are empty and print
		 * nothing: step over them at once (a jump in a damaged trace's
		 * clock would otherwise mean billions of them). */
		if (r->time >= M.start + iv) {
			k = (r->time - M.start) / iv;
			flush_interval(M.wall0 + M.interval);
			M.start += k * iv;
			M.wall0 += (s64)k * M.interval;
		}
	}
#ifndef IOMON_NO_EXPORT
	if ((a & 0xffff) == TA_COMPLETE && (O.json || O.prom))
		mon_fail(r);	/* the exports' failures, paired or not */
#endif
	t = (struct dc_rec){ .time = r->time, .sector = r->sector, .dev = r->dev, .action = a, .bytes = r->bytes };
	if (dc_pair(&DC, &t, &d, &c))
		mon_account(&d, &c);
	if (DC.nnotes) {	/* what the pairing let go of: -D's notes */
		u32 i;

		for (i = 0; i < DC.nnotes; i++)
			debug_rec(DC.note[i].what, &DC.note[i].r);
		DC.nnotes = 0;
	}
}

/* blkiomon's intervals on a stream: a thread sleeps to start + k*I (the
 * clock read to the nanosecond as it starts, after the outputs and the
 * queue are open; the time line says start's second + k*I), while the
 * reader accounts each record as it arrives.  Here, in one thread: the
 * same deadlines (on the monotonic clock), which capture/input.c looks
 * at before each read of the stream, so what arrived after a deadline
 * counts in the next interval and what arrived before it in this one. */
static u64 due_next;
static s64 due_stamp;

static u64 stdin_due(void)
{
	if (M.trace_clock)
		return 0;
	/* driver data is passed on before waiting: ziomon_zfcpdd books it
	 * by the time it arrives */
	if (M.have_d)
		ob_flush(&M.drv);
	return due_next;
}

/* the deadline passed: intervals that passed wholly while we were
 * stopped are empty, and blkiomon prints nothing for them */
static void stdin_round(void)
{
	u64 iv = (u64)M.interval * 1000000000u, k = (mono_ns() - due_next) / iv + 1;

	flush_interval(due_stamp);
	due_next += k * iv;
	due_stamp += (s64)k * M.interval;
}

/* Live: iomon trace's backends hand records over as they are read; the
 * intervals by the wall clock. */
static s64 live_next;

static void live_round(void)
{
	s64 now = wall_sec();

	while (now >= live_next) {
		flush_interval(live_next);
		live_next += M.interval;
	}
}

/* ---- options, main ---- */

COLD static int open_output(struct obuf *o, const char *name, char *buf, u32 len)
{
	int fd = strcmp(name, "-") ? open_out(name, 0644) : 1;

	if (fd < 0)
		return -1;
	ob_init(o, fd, name, buf, len);
	return 0;
}

static const struct lopt longopts[] = {
	{ "human-readable", 1, 0, 'h' }, { "binary", 1, 0, 'b' }, { "dump-lldd", 1, 0, 'd' },
	{ "debug", 1, 0, 'D' }, { "interval", 1, 0, 'I' }, { "msg-queue", 1, 0, 'Q' },
	{ "msg-queue-id", 1, 0, 'q' }, { "msg-id", 1, 0, 'm' }, { "version", 0, 0, 'V' },
	{ "input", 1, 0, 'i' }, { "trace", 1, 0, 't' }, { "clock", 1, 0, 'C' }, { "prom", 1, 0, 'P' }, { "json", 1, 0, 'J' },
	{ "listen", 2, 0, 'l' }, { "port", 1, 0, 'p' }, { "help", 0, 0, 'H' }, { 0, 0, 0, 0 },
};

/* -i's names, each NAME.blktrace.N files, all merged by time as one
 * trace (as blkparse merges its -i's) */
static char *in_names[REPLAY_FILES];
static int in_n;

static struct {
	const char *h, *b, *d, *g, *j;	/* -h -b -d -D --json */
	char *devs[CAP_DEVS];
	int ndevs, clock;	/* clock: -1 as the input suggests */
	struct cap_cfg net;	/* -l */
} A;

TEXT(monitor_json_and_prometheus, "JSON and Prometheus exports (--json, --prom) not built in")
TEXT(monitor_l_takes_its, "-l takes its records from the network: no -t or -i with it")
TEXT(monitor_more_than_i, "more than %d -i (REPLAY_FILES)")
TEXT(monitor_clock_wall_or, "--clock=wall or --clock=trace, not '%s'")
TEXT(monitor_i_secs_is, "-I SECS is required and must be above 0")
/* -1: go on; else the exit status */
COLD static int options(int argc, char **argv)
{
	int c;

	A.clock = -1;
	cap_defaults(&A.net);
	while ((c = opt_get(argc, argv, "b:d:D:h:I:Q:q:m:Vi:t:lp:", longopts)) != -1) {
		switch (c) {
		case 'h': A.h = opt_arg; break;
		case 'b': A.b = opt_arg; break;
		case 'd': A.d = opt_arg; break;
		case 'D': A.g = opt_arg, DC.notes = 1; break;
		case 'I': M.interval = atoi(opt_arg); break;
		case 'Q': M.msg_q_name = opt_arg; break;
		case 'q': M.msg_q_id = atol(opt_arg); break;
		case 'm': O.msg_id = atol(opt_arg); break;
		case 'i':
			if (in_n == REPLAY_FILES) {
				warn_text(U_monitor_more_than_i, REPLAY_FILES);
				return 1;
			}
			in_names[in_n++] = opt_arg;
			break;
		case 't':
			if (cap_dev_arg(A.devs, &A.ndevs, opt_arg))
				return 1;
			break;
		case 'l': case 'p':
			if (cap_opt(&A.net, c, opt_arg))
				return 1;
			break;
		case 'P': O.prom = opt_arg; break;
		case 'J': A.j = opt_arg; break;
		case 'C':
			A.clock = !strcmp(opt_arg, "trace");
			if (!A.clock && strcmp(opt_arg, "wall")) {
				warn_text(U_monitor_clock_wall_or, opt_arg);
				return 1;
			}
			break;
		case 'V':
			return -version_put(argv[0], "0.3");
		case 'H':
			return usage_put(1, U_monitor) != 0;
		default:
			usage_put(2, U_monitor);
			return 1;
		}
	}
	if (M.interval <= 0) {
		warn_text(U_monitor_i_secs_is);
		return 1;
	}
#ifdef IOMON_NO_EXPORT
	if (O.prom || A.j) {	/* a build without them (NO=EXPORT, the profiles) */
		warn_text(U_monitor_json_and_prometheus);
		return 1;
	}
#endif
	if (A.ndevs && in_n) {
		warn_msg("-t or -i, not both");
		return 1;
	}
	if (A.net.listen && (A.ndevs || in_n)) {
		warn_text(U_monitor_l_takes_its);
		return 1;
	}
	return -1;
}

COLD static int open_outputs(void)
{
	if ((A.h && open_output(&M.human, A.h, M.hbuf, sizeof(M.hbuf))) ||
	    (A.b && open_output(&M.bin, A.b, M.bbuf, sizeof(M.bbuf))) ||
	    (A.d && open_output(&M.drv, A.d, M.dbuf, sizeof(M.dbuf))) ||
	    (A.g && open_output(&M.dbg, A.g, M.gbuf, sizeof(M.gbuf))))
		return -1;
	M.have_d = !!A.d, M.have_g = !!A.g;
	if (A.j && open_output(&M.js, A.j, M.jbuf, sizeof(M.jbuf)))
		return -1;
	O.human = A.h ? &M.human : NULL, O.bin = A.b ? &M.bin : NULL, O.json = A.j ? &M.js : NULL;
	O.interval = M.interval;
	mon.totals = O.prom != NULL;
	return 0;
}

TEXT(monitor_debug_counts, "%llu leftover, %llu match, %llu mismatch, %llu driverdata, %llu "
	"overall\n%llu aged out of the pool (MON_PENDING %d), %llu devices over MON_DEVS %d\n")
TEXT(monitor_debug_fails, "%llu failures not in the exports (MON_FAILS %d)\n")
TEXT(monitor_debug_unsent, "%llu records not sent: the message queue stayed full "
	"(MON_QUEUE_WAIT_MS %d)\n")
/* -D: what never paired, in slot order, and the counters */
COLD static int debug_end(void)
{
	u64 left = 0;
	struct dc_ent *e;
	struct dc_rec t;
	u32 i;

	for (i = 1; i <= pend.hwm; i++)
		if ((e = ift_slot(&pend, i))) {
			dc_rec_of(e, &t);
			debug_rec("leftover", &t);
			left++;
		}
	ob_printf(&M.dbg, TX(monitor_debug_counts), (unsigned long long)left, DC.match, DC.mismatch,
		  (unsigned long long)M.drvdata, (unsigned long long)M.overall,
		  pend.aged, MON_PENDING, mon.dev_overflow, MON_DEVS);
#ifndef IOMON_NO_EXPORT
	if (mon.fail_overflow)
		ob_printf(&M.dbg, TX(monitor_debug_fails), mon.fail_overflow, MON_FAILS);
#endif
	if (O.msq >= 0)
		ob_printf(&M.dbg, TX(monitor_debug_unsent), O.unsent, MON_QUEUE_WAIT_MS);
	return ob_close(&M.dbg);
}

TEXT(monitor_records_not_sent, "%llu records not sent: the message queue stayed full %d ms "
	"after the signal")
TEXT(monitor_pending_pool_full, "pending pool full: %llu unmatched records aged out (MON_PENDING "
	"%d)")
TEXT(monitor_device_table_full, "device table full: %llu requests unreported (MON_DEVS %d)")
TEXT(monitor_failure_table_full, "failure table full: %llu failed requests not in --json or "
	"--prom (MON_FAILS %d)")
COLD static int report_end(int rc)
{
	if (M.have_g)
		rc |= debug_end();
	if (O.unsent) {
		warn_text(U_monitor_records_not_sent,
			 O.unsent, MON_QUEUE_WAIT_MS);
		rc = 1;
	}
	/* pools that ran out, said where it is seen without -D */
	if (pend.aged)
		warn_text(U_monitor_pending_pool_full,
			 pend.aged, MON_PENDING);
	if (mon.dev_overflow)
		warn_text(U_monitor_device_table_full,
			 mon.dev_overflow, MON_DEVS);
#ifndef IOMON_NO_EXPORT
	if (mon.fail_overflow)
		warn_text(U_monitor_failure_table_full,
			 mon.fail_overflow, MON_FAILS);
#endif
	if (O.human)
		rc |= ob_close(&M.human);
	if (O.json)
		rc |= ob_close(&M.js);
	if (O.bin)
		rc |= ob_close(&M.bin);
	if (M.have_d)
		rc |= ob_close(&M.drv);
	return rc || src_errors ? 1 : 0;
}

/* stdin, -i's names, or -t's devices (with a port, -l's clients); the
 * last interval, partial, printed (blkiomon drops it) */
static int run_input(void)
{
	struct input in = { in_names, in_n, &A.net, record, stdin_round, &mon_stop, stdin_due };
	char *dash = "-";
	int i, rc;

	if (A.ndevs || A.net.listen) {
		for (i = 0; i < A.ndevs; i++)
			if (cap_add_device(A.devs[i]))
				return 1;
		A.net.mask = (1u << TC_ISSUE) | (1u << TC_COMPLETE) | (1u << TC_DRV_DATA);
		in.n = 0, in.round = live_round;
		live_next = wall_sec() + M.interval;
	} else if (!in_n) {
		in.names = &dash, in.n = 1;
		due_next = mono_ns() + (u64)M.interval * 1000000000u;
		due_stamp = wall_sec() + M.interval;
	}
	rc = in_arrive(&in);
	if (!in.n)	/* the capture's last round is past: what the clock says now */
		live_round();
	flush_interval(in.n && (in_n || M.trace_clock) ? M.wall0 + M.interval : wall_sec());
	return rc;
}

COLD int monitor_main(int argc, char **argv)
{
	int rc = options(argc, argv);

	if (rc >= 0)
		return rc;
	dc_init(&DC);
	M.trace_clock = A.clock >= 0 ? A.clock : in_n > 0;
	for (int i = 0; i < in_n; i++) {
		char *b = str_find((char *)in_names[i], ".blktrace.");

		if (b)
			*b = 0;
	}
	if (open_outputs())
		return 1;
	signal(SIGINT, on_sig);
	signal(SIGTERM, on_sig);
	signal(SIGQUIT, on_sig);
	signal(SIGALRM, on_sig);
	if (export_queue(&O, M.msg_q_name, M.msg_q_id))
		return 1;
	if (A.ndevs || A.net.listen) {
		/* the capture takes over these signals to stop cleanly */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
	}
	rc = run_input();
	return report_end(rc);
}
