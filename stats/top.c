/* stats/top.c: stats: biotop: options, tag helper, request owners, the table */
/* top: biotop's "who is hammering the disk" from block traces, no BPF.
 *
 * A request belongs to the process that queued it (Q), named from PROCESS
 * notes, then /proc, then "?"; it counts at completion, with the time from
 * issue (D) to completion (C).  Merged bios count for the request they
 * joined.  Live (-d DEV, or every whole disk) through iomon trace's
 * backends, or replayed from trace files (-i) in trace time.
 *
 * --tag-helper CMD speaks iowatcher's helper protocol: CMD gets every
 * record on its stdin and says which tag each belongs to; rows are then
 * per tag instead of per process.
 */
const char top_usage[] =
"usage: iomon top [-C] [-r MAXROWS] [-p PID] [-d DEV]... [-i NAME]\n"
"                 [--tag-helper CMD] [interval [count]]\n"
"\n"
"Per-process block I/O, biotop's table, every interval (1 s).\n"
"\n"
" -C            don't clear the screen\n"
" -r MAXROWS    rows to print (20)\n"
" -p PID        only requests queued by PID\n"
" -d DEV        trace DEV (repeatable); default: every whole disk\n"
" -i NAME       replay NAME.blktrace.N files (or - for a stream) in trace time\n"
" --tag-helper CMD  run CMD (sh -c); it reads each record (48-byte header in\n"
"               host order, then its payload) on stdin and answers with host\n"
"               u32s: 0 END, 1 TAG LEN LABEL (new tag), 2 TAG (this record's\n"
"               request belongs to TAG); rows are then per tag\n";

#define _GNU_SOURCE	/* pipe2 under glibc (the syntax check) */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "stats/stats.h"

struct row {
	u32 pid, dev;		/* pid, or the tag with a helper */
	char comm[TOP_LABEL];
	u8 w;
	u64 io, bytes, ns;
};

struct req {			/* in flight, by (device, sector); named at completion */
	struct ift_hdr h;	/* h.born: queued */
	u64 issue;
	u32 pid, tag;
	u8 w, tagged;
};

#define UNTAGGED 0xffffffffu	/* the row of requests no helper claimed */

static const char *replay_name;	/* set when replaying: no /proc or /sys lookups */
static struct top {
	struct row rows[TOP_ROWS];
	u32 nrows;
	u64 row_dropped;
	int clear, maxrows, interval, count, tty, interval_live, done;
	s64 only_pid;		/* -p: -1 = every pid */
	u64 start, next;	/* trace time of the next interval's end */
	char outbuf[TOP_OUT_BUF];
	struct obuf out;
} T;

/* The pool is full.  Requests whose completion never comes (lost records,
 * a trace cut short) would hold it for good and stop all counting: the
 * oldest of a few slots past a moving hand makes room, and is counted. */
IFT_POOL(reqs, struct req, TOP_REQS, TOP_HASH, IFT_AGE_NEAR);

static struct req *req_find(u32 dev, u64 sector)
{
	return ift_find(&reqs, dev, sector, 0);
}

static void name_of(u32 pid, char *out)
{
	const char *n = proc_name(pid);
	char p[48], buf[32];
	int fd;
	ssize_t k;

	if (n) {
		sfmt(out, 16, "%s", n);
		return;
	}
	sfmt(p, sizeof(p), "/proc/%u/comm", pid);
	if (replay_name || (fd = open(p, O_RDONLY | O_CLOEXEC)) < 0) {
		sfmt(out, 16, "?");
		return;
	}
	k = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (k <= 0) {
		sfmt(out, 16, "?");
		return;
	}
	buf[k - (buf[k - 1] == '\n')] = 0;
	sfmt(out, 16, "%.15s", buf);
}

/* ---- tag helper: iowatcher's protocol (FORMATS.md section 7) ----
 * One record out, answers in until END: lock step, so neither side can
 * fill a pipe the other is not reading.  Records go out as version-7
 * headers in host order whatever the trace was (byte order and version
 * are our problem, not every helper's); answers are host-order u32s. */
enum { H_END, H_NEW_TAG, H_TAG_IO };

static struct helper {
	const char *cmd;
	int to, from;		/* its stdin, its stdout */
	pid_t pid;
	u8 in[4096];
	u32 pos, len;
	u64 records;
	u32 ntags;
	u64 tags_dropped;
	struct { u32 id; char label[TOP_LABEL]; } tags[TOP_TAGS];
	int failed;
} H;		/* zero-initialised: bss, not 11 KiB of data */

static volatile int top_stop;

static void helper_fail(const char *why)
{
	if (!H.failed)
		warn_msg("tag helper '%s' %s (after %llu records); the tables so far are printed",
			 H.cmd, why, (unsigned long long)H.records);
	H.failed = 1;
	top_stop = 1;
	if (T.interval_live)
		kill(getpid(), SIGTERM);	/* the capture stops cleanly on it */
}

static int helper_start(const char *cmd)
{
	static const int term_sigs[] = { SIGINT, SIGQUIT, SIGHUP };
	struct sigaction ign = { .sa_handler = SIG_IGN }, old[3];
	int in[2], out[2], i;

	H.cmd = cmd;
	if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) {
		err_sys("pipe");
		return -1;
	}
	/* Ctrl-C reaches the whole process group: the helper ignores it (the
	 * disposition survives exec) and ends at EOF, after our last record. */
	for (i = 0; i < 3; i++)
		sigaction(term_sigs[i], &ign, &old[i]);
	/* vfork: musl's fork() brings its atfork and lock machinery (15 KiB);
	 * the child here only moves two fds and execs. */
	H.pid = vfork();
	if (!H.pid) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < 3; i++)
		sigaction(term_sigs[i], &old[i], NULL);
	if (H.pid < 0) {
		err_sys("vfork");
		return -1;
	}
	close(in[0]);
	close(out[1]);
	H.to = in[1];
	H.from = out[0];
	signal(SIGPIPE, SIG_IGN);	/* a helper that dies is an EPIPE we report */
	return 0;
}

static int helper_read(void *p, u32 n)
{
	u8 *d = p;

	while (n) {
		if (H.pos == H.len) {
			struct pollfd pf = { H.from, POLLIN, 0 };
			ssize_t k;
			int r = poll(&pf, 1, TOP_HELPER_MS);

			if (r < 0 && errno == EINTR)
				continue;
			if (!r) {
				char why[48];

				sfmt(why, sizeof(why), "did not answer within %d ms", TOP_HELPER_MS);
				helper_fail(why);
				return -1;
			}
			k = read(H.from, H.in, sizeof(H.in));
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0) {
				helper_fail(k ? "could not be read" : "closed its output");
				return -1;
			}
			H.pos = 0;
			H.len = (u32)k;
		}
		while (n && H.pos < H.len)
			*d++ = H.in[H.pos++], n--;
	}
	return 0;
}

static int helper_send(const void *p, size_t n)
{
	const u8 *b = p;

	while (n) {
		ssize_t k = write(H.to, b, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			helper_fail(errno == EPIPE ? "went away" : "could not be written to");
			return -1;
		}
		b += k;
		n -= (size_t)k;
	}
	return 0;
}

static void helper_label(u32 id, u32 len)
{
	char label[TOP_LABEL];
	u32 i, keep = len < TOP_LABEL - 1 ? len : TOP_LABEL - 1;
	u8 skip[256];

	if (helper_read(label, keep))
		return;
	label[keep] = 0;
	for (len -= keep; len; len -= i) {	/* the part we do not keep */
		i = len < sizeof(skip) ? len : (u32)sizeof(skip);
		if (helper_read(skip, i))
			return;
	}
	for (i = 0; i < H.ntags && H.tags[i].id != id; i++)
		;
	if (i == H.ntags) {
		if (H.ntags == TOP_TAGS) {
			H.tags_dropped++;
			return;
		}
		H.ntags++;
	}
	H.tags[i].id = id;
	memcpy(H.tags[i].label, label, keep + 1);
}

static const char *tag_label(u32 id)
{
	u32 i;

	for (i = 0; i < H.ntags; i++)
		if (H.tags[i].id == id)
			return H.tags[i].label;
	return id == UNTAGGED ? "(untagged)" : "?";
}

/* Hand r to the helper; *tag is set when it claims the record. */
static int helper_record(const struct rec *r, u32 *tag)
{
	u8 out[REC_V7_LEN + 64];
	u32 m[2];
	int small = r->pdu_len <= 64;

	rec_encode_v7(out, r);
	H.records++;
	if (small)	/* most payloads are a few bytes: one write */
		memcpy(out + REC_V7_LEN, r->pdu, r->pdu_len);
	if (helper_send(out, REC_V7_LEN + (small ? r->pdu_len : 0)) ||
	    (!small && helper_send(r->pdu, r->pdu_len)))
		return -1;
	for (;;) {
		if (helper_read(m, 4))
			return -1;
		switch (m[0]) {
		case H_END:
			return 0;
		case H_NEW_TAG:
			if (helper_read(m, 8))
				return -1;
			if (m[1] > 65536) {
				helper_fail("sent a label longer than 64 KiB");
				return -1;
			}
			helper_label(m[0], m[1]);
			if (H.failed)
				return -1;
			break;
		case H_TAG_IO:
			if (helper_read(tag, 4))
				return -1;
			break;
		default: {
			char why[64];

			sfmt(why, sizeof(why), "sent an unknown message type %u", m[0]);
			helper_fail(why);
			return -1;
		}
		}
	}
}

/* End of input: the helper sees EOF; its exit status is reported. */
static int helper_stop(void)
{
	int st = 0;

	if (!H.cmd)
		return 0;
	close(H.to);
	close(H.from);
	while (waitpid(H.pid, &st, 0) < 0 && errno == EINTR)
		;
	if (H.tags_dropped)
		warn_msg("%llu tags over TOP_TAGS %d were not kept", (unsigned long long)H.tags_dropped, TOP_TAGS);
	if (!H.failed && (!WIFEXITED(st) || WEXITSTATUS(st))) {
		warn_msg("tag helper '%s' exited with %s %d", H.cmd, WIFEXITED(st) ? "status" : "signal",
			 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
		return 1;
	}
	return H.failed;
}

static void account(const struct req *q, u64 done, u32 bytes)
{
	u32 i, pid = q->pid;
	char name[16];
	const char *comm = name;
	struct row *r = NULL;

	if (H.cmd) {	/* a row per tag, named by its label */
		pid = q->tagged ? q->tag : UNTAGGED;
		comm = tag_label(pid);
	} else	/* now: the process's note may come after its first I/O */
		name_of(pid, name);
	for (i = 0; i < T.nrows; i++)
		if (T.rows[i].pid == pid && T.rows[i].dev == q->h.dev && T.rows[i].w == q->w &&
		    !strcmp(T.rows[i].comm, comm)) {
			r = &T.rows[i];
			break;
		}
	if (!r) {
		if (T.nrows == TOP_ROWS) {
			T.row_dropped++;
			return;
		}
		r = &T.rows[T.nrows++];
		memset(r, 0, sizeof(*r));
		r->pid = pid;
		r->dev = q->h.dev;
		r->w = q->w;
		sfmt(r->comm, sizeof(r->comm), "%s", comm);
	}
	r->io++;
	r->bytes += bytes;
	r->ns += q->issue && done > q->issue ? done - q->issue : 0;
}

static void disk_name(u32 dev, char *out, size_t len)
{
	char p[64], buf[256], *s, *e;
	int fd;
	ssize_t n;

	if (replay_name) {	/* this machine's /sys knows nothing of it */
		sfmt(out, len, "%s", replay_name);
		return;
	}
	sfmt(p, sizeof(p), "/sys/dev/block/%u:%u/uevent", DEV_MAJOR(dev), DEV_MINOR(dev));
	if ((fd = open(p, O_RDONLY | O_CLOEXEC)) >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			buf[n] = 0;
			if ((s = str_find(buf, "DEVNAME=")) && (e = strchr(s, '\n'))) {
				*e = 0;
				sfmt(out, len, "%s", s + 8);
				return;
			}
		}
	}
	sfmt(out, len, "%u,%u", DEV_MAJOR(dev), DEV_MINOR(dev));
}

/* biotop's table: loadavg line, then rows by bytes, most first. */
static void print_table(s64 wall)
{
	static u16 order[TOP_ROWS];
	char line[256], hms[16], load[128] = "";
	time_t t = (time_t)wall;
	struct tm tm;
	u32 i, j, n = T.nrows;
	int fd;

	/* biotop: clear(1) before each table, or a blank line */
	ob_puts(&T.out, T.clear && T.tty ? "\033[H\033[2J" : "\n");
	localtime_r(&t, &tm);
	*fmt_hms(hms, &tm) = 0;
	if (replay_name)
		sfmt(load, sizeof(load), "(replay)\n");
	else if ((fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC)) >= 0) {
		ssize_t k = read(fd, load, sizeof(load) - 1);

		close(fd);
		load[k > 0 ? k : 0] = 0;
	}
	ob_printf(&T.out, "%-8s loadavg: %s\n", hms, load[0] ? load : "?\n");
	ob_printf(&T.out, "%-7s %-16s %1s %-3s %-3s %-8s %5s %7s %6s\n", H.cmd ? "TAG" : "PID",
		  H.cmd ? "LABEL" : "COMM", "D", "MAJ", "MIN", "DISK", "I/O", "Kbytes", "AVGms");
	for (i = 0; i < n; i++) {
		u16 v = (u16)i;

		for (j = i; j && T.rows[order[j - 1]].bytes < T.rows[v].bytes; j--)
			order[j] = order[j - 1];
		order[j] = v;
	}
	for (i = 0; i < n && (int)i < T.maxrows; i++) {
		const struct row *r = &T.rows[order[i]];
		char disk[32], id[16];

		disk_name(r->dev, disk, sizeof(disk));
		if (r->pid == UNTAGGED && H.cmd)
			id[0] = '-', id[1] = 0;
		else
			sfmt(id, sizeof(id), "%u", r->pid);
		sfmt(line, sizeof(line), "%-7s %-16s %1s %-3u %-3u %-8s %5llu %7llu %6.2f\n", id, r->comm,
			 r->w ? "W" : "R", DEV_MAJOR(r->dev), DEV_MINOR(r->dev), disk, (unsigned long long)r->io,
			 (unsigned long long)(r->bytes / 1024), (double)r->ns / (double)r->io / 1e6);
		ob_puts(&T.out, line);
	}
	if (reqs.aged || T.row_dropped)
		ob_printf(&T.out, "(untracked: %llu requests aged out of TOP_REQS %d, %llu completions found no row in TOP_ROWS %d)\n",
			  reqs.aged, TOP_REQS, (unsigned long long)T.row_dropped, TOP_ROWS);
	ob_flush(&T.out);
	T.nrows = 0;
}

static s64 wall0;

static void top_record(const struct rec *r)
{
	u32 a = ACT32(r), act = a & 0xffff, tag = 0;
	struct req *q;
	int tagged = 0;

	if (T.done)
		return;
	if (H.cmd) {
		tag = UNTAGGED;
		if (helper_record(r, &tag))
			return;
		tagged = tag != UNTAGGED;
	}
	if (a == TN_PROCESS) {
		proc_add(r->pid, r->pdu, r->pdu_len);
		return;
	}
	if (a == TN_TIMESTAMP && r->pdu_len == 8) {
		wall0 = ne32_load(r->pdu, r->swapped);
		return;
	}
	if (REC_IS_NOTE(r) || (a & TC(TC_NOTIFY)))
		return;
	if (T.interval_live)
		;	/* intervals follow the wall clock (live_round) */
	else if (T.interval && T.start) {
		while (r->time >= T.next) {
			print_table(wall0 + (s64)((T.next - T.start) / 1000000000u));
			T.next += (u64)T.interval * 1000000000u;
			if (T.count && !--T.count) {
				T.done = top_stop = 1;
				return;
			}
		}
	} else if (!T.start) {
		T.start = r->time;
		T.next = r->time + (u64)T.interval * 1000000000u;
	}
	switch (act) {
	case TA_QUEUE:	/* the submitter: owner of whatever request this bio makes */
		if (T.only_pid >= 0 && r->pid != (u32)T.only_pid)
			break;
		if ((q = ift_get(&reqs, r->dev, r->sector, 0, r->time))) {
			q->pid = r->pid;
			q->w = (a & TC(TC_WRITE)) != 0;
			q->tagged = (u8)tagged;
			q->tag = tag;
		}
		break;
	case TA_BACKMERGE:	/* the bio joined a request: its own entry ends here */
		if ((q = req_find(r->dev, r->sector)))
			ift_del(&reqs, q);
		break;
	case TA_FRONTMERGE: {	/* the request now starts at this bio's sector */
		struct req *old = req_find(r->dev, r->sector + (r->bytes >> 9)), keep;

		if (!old)
			break;
		keep = *old;
		/* on a taken sector the owner moves into the request there
		 * (its queue time stays) and the moved entry is freed */
		if (ift_move(&reqs, old, r->dev, r->sector) && (q = req_find(r->dev, r->sector))) {
			q->pid = keep.pid, q->w = keep.w, q->issue = keep.issue;
			q->tag = keep.tag, q->tagged = keep.tagged;
		}
		break;
	}
	case TA_ISSUE:
		if ((q = req_find(r->dev, r->sector))) {
			q->issue = r->time;
			if (tagged && !q->tagged)	/* the first claim decides */
				q->tag = tag, q->tagged = 1;
		}
		break;
	case TA_COMPLETE:
		if ((q = req_find(r->dev, r->sector))) {
			account(q, r->time, r->bytes);
			ift_del(&reqs, q);
		}
		break;
	}
}

static u8 topbuf[STREAM_BUF];

static int replay(const char *name)
{
	int rc = 0;

	if (!strcmp(name, "-")) {
		struct src in;
		struct rec r;

		src_init(&in, 0, "(stdin)", topbuf, STREAM_BUF);
		while (!top_stop && (rc = src_record(&in, &r)) > 0)
			top_record(&r);
		rc = !top_stop && rc < 0;
		src_zero_report();
	} else
		rc = src_replay(name, top_record, &top_stop);
	/* the last partial interval too */
	if (T.start && !T.done)
		print_table(wall0 + (s64)((T.next - T.start) / 1000000000u));
	return rc;
}

/* ---- live ---- */

static struct src LS;
static s64 live_next;

static s64 now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return t.tv_sec;
}

static void live_round_records(void);

static int live_push(const void *p, size_t n)
{
	return src_feed(&LS, p, n, live_round_records);
}

/* A round holds each CPU's records in turn, each CPU's in time order.  A
 * request queued on one CPU can complete on another, so the round is
 * merged by time across those runs before it counts.  A round with more
 * than TOP_RUNS runs (many CPUs, a buffer drained mid-round) is merged
 * TOP_RUNS runs at a time. */
static struct { u32 at, end; u64 t; } run[TOP_RUNS];

static u32 run_skip(u32 off, u32 end)	/* past unfilled relay records */
{
	while (end - off >= REC_V7_LEN && rec_unfilled(LS.buf + off))
		off += REC_V7_LEN;
	return off;
}

static void merge_runs(u32 n)
{
	struct rec r;

	for (;;) {
		u32 i, b = n;

		for (i = 0; i < n; i++)
			if (run[i].at < run[i].end && (b == n || run[i].t < run[b].t))
				b = i;
		if (b == n)
			return;
		if (rec_decode(LS.buf + run[b].at, run[b].end - run[b].at, &r) <= 0) {
			run[b].at = run[b].end;	/* src_record said it was whole */
			continue;
		}
		top_record(&r);
		run[b].at = run_skip(run[b].at + r.hdr_len + r.pdu_len, run[b].end);
		if (run[b].at < run[b].end && rec_decode(LS.buf + run[b].at, run[b].end - run[b].at, &r) > 0)
			run[b].t = r.time;
	}
}

static void live_round_records(void)
{
	struct rec r;
	u32 n = 0, cpu = 0;
	u64 t = 0;

	for (;;) {
		u32 at = LS.pos;
		int got = src_record(&LS, &r) > 0;
		int fresh = !n || !got || r.cpu != cpu || r.time < t;

		if (n && fresh)
			run[n - 1].end = at;
		if (!got)
			break;
		if (fresh) {
			if (n == TOP_RUNS) {
				merge_runs(n);
				n = 0;
			}
			run[n].at = run_skip(at, LS.len);
			run[n++].t = r.time;
		}
		cpu = r.cpu;
		t = r.time;
	}
	merge_runs(n);
}

static void live_round(void)
{
	live_round_records();
	/* The first interval starts once the first round is done: a tag
	 * helper may take seconds to start, and records wait for it. */
	if (!live_next)
		live_next = now_s() + T.interval;
	else if (now_s() >= live_next) {
		print_table(live_next);
		live_next += T.interval;
		if (T.count && !--T.count) {
			T.done = 1;
			kill(getpid(), SIGTERM);	/* the capture stops cleanly on it */
		}
	}
}

/* Every whole disk in /sys/block but loop, ram and zram devices, into
 * devs[], CAP_DEVS at most. */
struct disks { char **devs; int n; };

static long add_disk(const char *dir, const char *name, void *arg)
{
	static char names[CAP_DEVS][48];
	struct disks *d = arg;

	(void)dir;
	if (name[0] == '.' || !strncmp(name, "loop", 4) || !strncmp(name, "ram", 3) || !strncmp(name, "zram", 4))
		return 0;
	sfmt(names[d->n], sizeof(names[d->n]), "/dev/%s", name);
	d->devs[d->n] = names[d->n];
	return ++d->n == CAP_DEVS;
}

static int all_disks(char **devs)
{
	struct disks d = { devs, 0 };

	dir_each("/sys/block", add_disk, &d);
	return d.n;
}

int top_main(int argc, char **argv)
{
	static char *devs[CAP_DEVS];
	int ndevs = 0;
	static const struct option lo[] = {
		{ "noclear", no_argument, NULL, 'C' },
		{ "maxrows", required_argument, NULL, 'r' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tag-helper", required_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 }
	};
	const char *in = NULL, *helper = NULL;
	char *e;
	int c;

	T.maxrows = 20;
	T.clear = 1;
	T.interval = 1;
	T.only_pid = -1;
	while ((c = opt_get(argc, argv, "Cr:p:d:i:", lo)) != -1) {
		switch (c) {
		case 'C': T.clear = 0; break;
		case 'r': T.maxrows = atoi(opt_arg); break;
		case 'i': in = opt_arg; break;
		case 'T': helper = opt_arg; break;
		case 'p':
			T.only_pid = (s64)scan_u64(opt_arg, &e, 10);
			if (e == opt_arg || *e) {
				warn_msg("bad -p '%s': a process id", opt_arg);
				return 1;
			}
			break;
		case 'd':
			if (ndevs == CAP_DEVS) {
				warn_msg("more than %d devices (CAP_DEVS)", CAP_DEVS);
				return 1;
			}
			devs[ndevs++] = opt_arg;
			break;
		default:
			if (write(2, top_usage, sizeof(top_usage) - 1) < 0)
				return 1;
			return 1;
		}
	}
	if (opt_ind < argc)
		T.interval = atoi(argv[opt_ind++]);
	if (opt_ind < argc)
		T.count = atoi(argv[opt_ind++]);
	if (T.interval <= 0 || T.maxrows <= 0) {
		warn_msg("interval and -r must be above 0");
		return 1;
	}
	T.tty = isatty(1);
	ob_init(&T.out, 1, "stdout", T.outbuf, sizeof(T.outbuf));
	if (helper && helper_start(helper))
		return 1;
	if (in) {
		static char base[64];
		const char *b = strrchr(in, '/');
		char *x;

		sfmt(base, sizeof(base), "%s", b ? b + 1 : in);
		if ((x = str_find(base, ".blktrace.")))
			*x = 0;
		replay_name = strcmp(in, "-") ? base : "-";
		c = replay(in);
	}
	else {
		if (!ndevs && !(ndevs = all_disks(devs))) {
			warn_msg("no disks to trace (give -d DEV)");
			return 1;
		}
		src_init_push(&LS, topbuf, STREAM_BUF);
		T.start = 0;
		T.interval_live = 1;
		ob_printf(&T.out, "Tracing... Output every %d secs. Hit Ctrl-C to end\n", T.interval);
		ob_flush(&T.out);
		c = trace_devices(devs, ndevs, 0, live_push, live_round);
		if (!T.done)	/* interrupted: biotop prints what it has */
			print_table(now_s());
		ob_puts(&T.out, "Detaching...\n");
	}
	c |= helper_stop();
	if (reqs.aged || T.row_dropped)	/* the tables said it; so does stderr */
		warn_msg("%llu requests aged out of TOP_REQS %d; %llu completions found no row in TOP_ROWS %d",
			 reqs.aged, TOP_REQS, (unsigned long long)T.row_dropped, TOP_ROWS);
	return ob_close(&T.out) || c ? 1 : 0;
}
