/* output/top.c: driver: biotop: usage, options, replay and live input, the interval clock */
//applet: biotop top top_main
//sources: @trace capture/input.c capture/merge.c capture/window.c match/inflight.c match/procs.c
//sources: match/taghelper.c output/toptable.c stats/topstat.c stats/failstat.c output/iolines.c
//readme: BCC's biotop, without BPF; tag helpers, failed I/O | biotop.8
/* top: biotop's "who is hammering the disk" from block traces, no BPF
 * (rows: stats/topstat.c, the table: output/toptable.c, the tag helper:
 * match/taghelper.c).  Live (-d DEV, or every whole disk) through iomon
 * trace's backends, or replayed from trace files (-i) in trace time.
 *
 * --tag-helper CMD speaks iowatcher's helper protocol: CMD gets every
 * record on its stdin and says which tag each belongs to; rows are then
 * per tag instead of per process.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "output/output.h"

USAGE(top,
"usage: iomon top [-C] [-e] [-r MAXROWS] [-p PID] [-d DEV]... [-i NAME]\n"
"                 [--tag-helper CMD] [interval [count]]\n"
"\n"
"Per-process block I/O, biotop's table, every interval (1 s).\n"
"\n"
" -C            don't clear the screen\n"
" -e, --errors  an ERR column: the row's I/Os that failed; at the end, a\n"
"               line counting every failed I/O, with their sectors\n"
" -r MAXROWS    rows to print (20)\n"
" -p PID        only requests queued by PID\n"
" -d DEV        trace DEV (repeatable); default: every whole disk, that is\n"
"               /dev/NAME for each /sys/block/NAME with media (size above 0)\n"
"               but loop*, ram* and zram*; one with no driver or media is\n"
"               skipped with a note\n"
" -i NAME       replay NAME.blktrace.N files (or - for a stream) in trace time\n"
" --tag-helper CMD  run CMD (sh -c); it reads each record (48-byte header in\n"
"               host order, then its payload) on stdin and answers with host\n"
"               u32s: 0 END, 1 TAG LEN LABEL (new tag), 2 TAG (this record's\n"
"               request belongs to TAG); rows are then per tag\n")

static const char *replay_name;	/* set when replaying: no /proc or /sys lookups */
static struct top {
	int clear, maxrows, tty;
	struct ticks k;
	char outbuf[TOP_OUT_BUF];
	struct obuf out;
} T;

static void print_table(s64 wall)
{
	top_table(&T.out, wall, T.clear && T.tty, T.maxrows, replay_name);
}

/* the helper failed: the replay stops, and so does a capture */
static void helper_failed(void)
{
	T.k.stop = 1;
	if (T.k.live)
		kill(getpid(), SIGTERM);	/* the capture stops cleanly on it */
}

/* every record: to the helper first, notes to the name table, the
 * interval clock, then the request's owner and counts */
static void top_record(const struct rec *r)
{
	u32 a = ACT32(r), tag = 0;
	int tagged = 0;

	if (T.k.done)
		return;
	if (tops.tags) {
		tag = TAG_UNTAGGED;
		if (tag_record(r, &tag)) {	/* the helper failed */
			if (!T.k.stop)
				helper_failed();
			return;
		}
		tagged = tag != TAG_UNTAGGED;
	}
	if (a == TN_PROCESS) {
		proc_add(r->pid, r->pdu, r->pdu_len);
		return;
	}
	if (in_note(r, &T.k.wall0))
		return;
	if (tick(&T.k, r))	/* a replay's tables: trace time */
		return;
	top_event(r, tag, tagged);
}

static int replay(char *name)
{
	int rc = in_trace(&(struct input){ &name, 1, NULL, top_record, NULL, &T.k.stop, NULL });

	if (T.k.start)	/* the last partial interval too */
		tick_end(&T.k);
	fail_line(&T.out);	/* counted with -e only */
	return rc;
}

/* ---- live ---- */

/* after the round's records (capture/input.c); the first interval
 * starts once the first round is done: a tag helper may take seconds to
 * start, and records wait for it */
static void live_round(void)
{
	tick_live(&T.k);
}

static struct {
	char *in;
	const char *helper;
	char *devs[CAP_DEVS];
	int ndevs;
} A;

TEXT(top_interval_and_r, "interval and -r must be above 0")
/* -1: go on; else the exit status */
static int options(int argc, char **argv)
{
	static const struct lopt lo[] = {
		{ "noclear", 0, 0, 'C' },
		{ "errors", 0, 0, 'e' },
		{ "maxrows", 1, 0, 'r' },
		{ "pid", 1, 0, 'p' },
		{ "tag-helper", 1, 0, 'T' },
		{ NULL, 0, 0, 0 }
	};
	char *e;
	int c;

	T.maxrows = 20;
	T.clear = 1;
	T.k.interval = 1;
	tops.only_pid = -1;
	while ((c = opt_get(argc, argv, "Cer:p:d:i:", lo)) != -1) {
		switch (c) {
		case 'C': T.clear = 0; break;
		case 'e': tops.errors = 1; break;
		case 'r': T.maxrows = atoi(opt_arg); break;
		case 'i':
			if (in_one(&A.in, opt_arg))
				return 1;
			break;
		case 'T': A.helper = opt_arg; break;
		case 'p':
			tops.only_pid = (s64)scan_u64(opt_arg, &e, 10);
			if (e == opt_arg || *e) {
				warn_msg("bad -p '%s': a process id", opt_arg);
				return 1;
			}
			break;
		case 'd':
			if (cap_dev_arg(A.devs, &A.ndevs, opt_arg))
				return 1;
			break;
		default:
			usage_put(2, U_top);
			return 1;
		}
	}
	if (opt_ind < argc)
		T.k.interval = atoi(argv[opt_ind++]);
	if (opt_ind < argc)
		T.k.count = atoi(argv[opt_ind++]);
	if (T.k.interval <= 0 || T.maxrows <= 0) {
		warn_text(U_top_interval_and_r);
		return 1;
	}
	return -1;
}

static int run_replay(char *in)
{
	replay_name = replay_label(in);
	tops.replay = 1;
	return replay(in);
}

TEXT(top_tracing, "Tracing... Output every %d secs. Hit Ctrl-C to end\n")
/* -1: nothing to trace (said).  Devices given must all be traced; of
 * every whole disk, one the capture cannot take is skipped (skip_bad). */
static int run_live(void)
{
	struct cap_cfg c;
	int rc;

	if (cap_live_devices(&c, A.devs, A.ndevs, "-d"))
		return -1;
	T.k.live = 1;
	ob_printf(&T.out, TX(top_tracing), T.k.interval);
	ob_flush(&T.out);
	rc = in_trace(&(struct input){ NULL, 0, &c, top_record, live_round, NULL, NULL });
	tick_end(&T.k);	/* interrupted: biotop prints what it has */
	fail_line(&T.out);	/* counted with -e only; biotop's last word stays last */
	ob_puts(&T.out, "Detaching...\n");
	return rc;
}

TEXT(top_requests_aged_out, "%llu requests aged out of TOP_REQS %d; %llu completions found "
	"no row in TOP_ROWS %d")
int top_main(int argc, char **argv)
{
	int c = options(argc, argv);

	if (c >= 0)
		return c;
	T.tty = isatty(1);
	ob_init(&T.out, 1, "stdout", T.outbuf, sizeof(T.outbuf));
	T.k.out = print_table;
	if (A.helper) {
		if (tag_start(A.helper))
			return 1;
		tops.tags = 1;
	}
	if (A.in)
		c = run_replay(A.in);
	else if ((c = run_live()) < 0)
		return 1;
	c |= tag_stop();
	if (top_aged() || tops.row_dropped)	/* the tables said it; so does stderr */
		warn_text(U_top_requests_aged_out,
			 top_aged(), TOP_REQS, tops.row_dropped, TOP_ROWS);
	return ob_close(&T.out) || c ? 1 : 0;
}
