/* output/btt.c: driver: btt: options, the report, live intervals, the exports */
//applet: btt btt btt_main
//sources: @trace capture/input.c capture/merge.c capture/window.c match/inflight.c match/procs.c
//sources: output/bttexp.c output/bttfiles.c output/bttrep.c
//sources: output/export.c stats/bttios.c stats/bttproc.c stats/bttrange.c
//sources: stats/bttrb.c stats/bttseek.c stats/bttstat.c stats/exact.c stats/monstat.c
//readme: btt 1.2.0: the `.avg` report and its files, iostat, latency files | btt.1
/* usage: iomon btt -i INPUT... | -t DEV... [-o NAME]
 * The inputs are read by capture/input.c (shared with plot) into
 * stats/bttstat.c's figures. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "output/output.h"

USAGE(btt,
"usage: btt -i INPUT... | -t DEV... | --listen[=PORT] [-w SECS] [-S SECS] [-o NAME] [-A] [-e EXE,...]\n"
"  [-d SECS] [-l|-q|-z|-I NAME] [--hist] [--json FILE] [--prom FILE]\n"
"  INPUT: a dump, a trace's NAME, or -; --listen: trace -h's clients (8462)\n")

static char btt_out[8192];

static char json_buf[4096], msg_buf[1024];

static struct {
	char *in[IN_NAMES];
	const char *out, *prom, *ios;
	struct obuf json, text;	/* text: live -S's interval report, stdout */
	struct obuf msg, *msgs;	/* msgs: NAME.msg, or text */
	int nin, hist, json_on, every;
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
	}
}

/* a pool that ran out makes the figures approximate: said, never silent */
static COLD void pools_report(void)
{
	if (btt_dev_dropped)
		warn_msg("%llu events of devices beyond the first %d (BTT_DEVS) left out", btt_dev_dropped, BTT_DEVS);
	if (btt_req_dropped)
		warn_msg("%llu requests found %d (BTT_REQS) in flight: not tracked, so the figures are approximate",
			 btt_req_dropped, BTT_REQS);
	if (btt_live_folds)
		warn_msg("%llu busy periods reached back past the %d (BTT_LIVES) kept: the I/O Active Period figures are approximate",
			 btt_live_folds, BTT_LIVES);
	if (proc_dropped)
		warn_msg("%llu process names past %d (PROC_MAX): their processes go by pidNNNNNNNNN", proc_dropped, PROC_MAX);
	if (btt_range_dropped)
		warn_msg("%llu activity ranges past %d (BTT_RANGES) joined the one before: the range data are approximate",
			 btt_range_dropped, BTT_RANGES);
	if (btt_proc_dropped)
		warn_msg("%llu events of processes past %d names (BTT_PROCS): the Per Process figures leave them out",
			 btt_proc_dropped, BTT_PROCS);
	if (btt_seek_dropped)
		warn_msg("%llu seeks of new distances past the %d (BTT_SEEKS) kept, or of 2^48 sectors or more: their MEDIAN and MODE are approximate",
			 btt_seek_dropped, BTT_SEEKS);
}

/* btt's messages (a trace's notes of text), as they come: NAME.msg or stdout */
static void message(const struct btt_dev *d, const struct rec *r)
{
	ob_printf(A.msgs, "(%3u,%3u) %5u.%09u %.*s\n", DEV_MAJOR(d->dev), DEV_MINOR(d->dev), (u32)(r->time / 1000000000),
		  (u32)(r->time % 1000000000), (int)r->pdu_len, (const char *)r->pdu);
}

/* the lines the last record's figures left (stats/bttstat.c) */
static void drain(void)
{
	if (btt_pending) {
		btt_pending = 0;
		btt_files_after();
	}
}

/* a message, or a record after one that left lines */
static COLD __attribute__((noinline)) void slow_record(const struct rec *r)
{
	drain();
	btt_event(r);
	if (btt_msg_dev) {
		message(btt_msg_dev, r);
		btt_msg_dev = NULL;
	}
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
	{ "input-file", 1, 0, 'i' },
	{ "output-file", 1, 0, 'o' },
	{ "trace", 1, 0, 't' },
	{ "hist", 0, 0, 'H' },
	{ "json", 1, 0, 'J' },
	{ "prom", 1, 0, 'P' },
	{ "listen", 2, 0, 'l' | 256 },
	{ 0, 0, 0, 0 },
};

COLD int btt_main(int argc, char **argv)
{
	struct cap_cfg cfg;
	struct stat st;
	int c, rc;

	cap_defaults(&cfg);
	while ((c = opt_get(argc, argv, "Ae:i:o:t:w:S:l:q:z:I:d:", longopts)) != -1) {
		switch (c) {
		case 'i':
			if (A.nin == IN_NAMES) {
				warn_msg("%s: more than %d inputs (DEVS_MAX, MERGE_INPUTS)", opt_arg, IN_NAMES);
				return 1;
			}
			A.in[A.nin++] = opt_arg;
			break;
		case 'o': A.out = opt_arg; break;
		case 'A': btt_per_proc = 1; break;
		case 'e': btt_exes = opt_arg; break;
		case 'H': A.hist = 1; break;
		case 'P': A.prom = opt_arg; break;
		case 'J':
			if ((c = strcmp(opt_arg, "-") ? open_out(opt_arg, 0644) : 1) < 0)
				return 1;
			ob_init(&A.json, c, opt_arg, json_buf, sizeof(json_buf));
			A.json_on = 1;
			break;
		case 't':
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
		case 'l': case 'q': case 'z': case 'd':
			if (btt_files_opt(c, opt_arg))
				return 1;
			break;
		default:
			usage_put(2, U_btt);
			return 1;
		}
	}
	if (!!A.nin + !!cap_ndev() + cfg.listen != 1 || opt_ind < argc) {
		warn_msg("%s", opt_ind < argc ? "unexpected argument" : "one of -i INPUT, -t DEV, --listen");
		return 1;
	}
	/* btt reads an empty dump as nothing to do: no report, no files */
	if (A.nin == 1 && in_kind(A.in[0]) == 0 && !stat(A.in[0], &st) && S_ISREG(st.st_mode) && !st.st_size)
		return 0;
	if (A.ios && btt_files_opt('I', A.ios))
		return 1;
	if (msg_open())
		return 1;
	btt_more = A.hist | A.json_on | A.every | !!A.prom;
	A.t0 = mono_ms();
	A.next = A.t0 + (u64)A.every * 1000;
	ob_init(&A.text, 1, "(stdout)", btt_out, sizeof(btt_out));
	rc = in_run(&(struct input){ A.in, A.nin, &cfg, record, live_round, NULL, NULL });
	drain();
	if (!A.nin)
		interval_text();	/* live: the last one, cut short */
	rc |= btt_files_end() | (A.out ? ob_close(&A.msg) : (ob_flush(&A.text), 0));
	pools_report();
	if (A.json_on || A.prom)	/* the last (or only) interval */
		export_now();
	return report() || (A.json_on && ob_close(&A.json)) || rc;
}
