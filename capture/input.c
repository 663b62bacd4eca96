/* capture/input.c: capture: one input for the drivers (a dump, trace files by name, a stream, a live capture or trace -l's clients), records in time order to the driver, in blkparse's dump order or the kernel's */
/*
 * btt and plot take what `blkparse -d DUMP -O` would have written and
 * then read it: the same records, their times from the same genesis.
 * A dump is read straight (capture/source.c).  Trace files are merged
 * as blkparse merges them (capture/merge.c, MERGE_BLKPARSE): genesis
 * is the first record's time, notes pass as read with the kernel's.
 * A raw stream, on stdin or pushed by a live capture, goes through
 * blkparse's window (capture/window.c): genesis is the first batch's
 * earliest time, and a record older than its device's CPU has shown
 * waits for the end.  Zone records, which have no dump form, are left
 * out.  This owns that order and those times: the driver gets each
 * record (in->rec) and, live, a call after each round (in->round).
 * top and biolatency take the kernel's (in_trace): a trace by name
 * merged by time as replayed (MERGE_TIME), a stream as it comes, a
 * live round's CPUs merged (capture/runs.c); monitor takes them as
 * they arrive (in_arrive), and on stdin its deadlines are looked at
 * between reads.  parse and btrace (in_stream) get a stream's batches,
 * read by the same code, and sort, check and print them themselves.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "capture/capture.h"

static const struct input *I;
static volatile sig_atomic_t in_stop;	/* (the capture stops on its own signals) */
static u64 genesis;

/* one record at time t, as blkparse -d writes it: one of a category (its
 * whole mask), no zone record */
static void deliver(const struct rec *r, u64 t)
{
	struct rec h;

	if (!(ACT32(r) >> TC_SHIFT))
		return;
	if (((r->action >> 32) || (ACT32(r) & 0xff) >= TA_ZONE_PLUG) && !(ACT32(r) & TC(TC_NOTIFY)))
		return;
	h = *r;
	h.time = t;
	I->rec(&h);
}

/* the dump (stdin's: its first record already taken) in its order, read
 * straight: one input, so no merge.  One: a dump's notes keep the
 * kernel's times, its records blkparse's, so two would not merge by time */
static int read_dump(int from_stdin)
{
	void (*fn)(const struct rec *) = I->rec;
	struct src s;
	struct rec r;
	int fd = from_stdin ? 0 : open(I->names[0], O_RDONLY | O_CLOEXEC), n;

	if (fd < 0) {
		err_sys(I->names[0]);
		return 1;
	}
	src_init(&s, fd, fd ? I->names[0] : "(stdin)", merge_mem(), STREAM_BUF);
	while ((n = src_next(&s, &r)) > 0)
		fn(&r);
	close(fd);
	src_zero_report();
	return n < 0;
}

/* ---- trace files by name, blkparse's merge ---- */

/* blkparse moves a folder given in the name into its input folder (POSIX
 * dirname/basename), and keeps it for the names after; "./x" is left */
static char *split_dir(char *name, const char **dir)
{
	char *base = strrchr(name, '/'), *end;

	if (!base || !base[1])
		return name;
	end = base;
	while (end > name && end[-1] == '/')
		end--;
	if (end == name) {
		*dir = "/";
		return base + 1;
	}
	if (end - name == 1 && name[0] == '.')
		return name;
	*end = 0;
	*dir = name;
	return base + 1;
}

COLD char *in_open_name(char *name, u16 tag, const char **dir, void (*added)(const char *path))
{
	char *b = str_find(name, ".blktrace.");

	if (b)
		*b = 0;
	name = split_dir(name, dir);
	return merge_files(*dir, name, tag, STREAMS_MAX, "STREAMS_MAX", STREAM_BUF, 1, added) ? name : NULL;
}

static const char *in_dir;

static COLD int read_traces(void)
{
	struct merge_in *m;
	int i;

	merge_begin(MERGE_BLKPARSE, BATCH_DEFAULT, I->rec, &in_stop);
	for (i = 0; i < I->n; i++)
		if (!in_open_name(I->names[i], (u16)i, &in_dir, NULL))
			return 1;
	merge_start();
	if ((m = merge_head()))
		genesis = m->head.time;
	for (; (m = merge_head()); merge_pop())
		deliver(&m->head, m->head.time - genesis);
	src_zero_report();
	return src_errors ? 1 : 0;
}

/* ---- a raw stream, blkparse's window ---- */

static struct src PS;
/* devices in the order read, and each one's CPUs' last sequence + 1 */
static u32 devs[DEVS_MAX], ndevs;
static u64 last_seq[DEVS_MAX][CPUS_MAX];
static unsigned long long dev_dropped;

static int dev_index(u32 dev)
{
	u32 i;

	for (i = 0; i < ndevs; i++)
		if (devs[i] == dev)
			return (int)i;
	if (ndevs == DEVS_MAX)
		return -1;
	devs[ndevs] = dev;
	return (int)ndevs++;
}

static void seen(const struct rec *r)
{
	dev_index(r->dev);
}

/* 1: held for the end (older than its CPU has shown, newer than its
 * next while the batch of n holds that one, or behind such a record:
 * window_hold); n 0: not from a batch */
static int emit(const struct rec *r, u32 n)
{
	int d = dev_index(r->dev);
	u64 *last;

	if (d < 0) {
		dev_dropped++;
		return 0;
	}
	last = ACT32(r) != TN_MESSAGE && r->cpu < CPUS_MAX ? &last_seq[d][r->cpu] : NULL;
	if (n && window_hold(r, last && *last && r->seq != *last &&
				(r->seq < *last || window_has(n, r, (u32)*last))))
		return 1;
	if (last)
		*last = (u64)r->seq + 1;
	deliver(r, r->time);
	return 0;
}

static void emit_held(struct rec *r)
{
	emit(r, 0);
}

/* -d's batch: timed from genesis (the first batch's earliest record),
 * sorted and delivered */
static int blkd_batch(u32 n, int live)
{
	u32 i;

	(void)live;
	if (!genesis) {
		genesis = ~(u64)0;
		for (i = 0; i < n; i++)
			if (window_rec[i].time < genesis)
				genesis = window_rec[i].time;
	}
	for (i = 0; i < n; i++)
		window_rec[i].time -= genesis;
	window_sort(n);
	for (i = 0; i < n; i++)
		emit(&window_rec[window_order[i]], n);
	return 0;
}

static void note(const struct rec *r)
{
	I->rec(r);
}

static const struct in_stream blkd = { { BATCH_DEFAULT, note, seen, &in_stop }, blkd_batch, emit_held },
	blkd_live = { { 100000, note, seen, &in_stop }, blkd_batch, emit_held };

/* ---- a stream in blkparse's batches: -d's above, or parse's own ---- */

static const struct in_stream *S;
static int s_live;

/* One batch read and handed on.  0: nothing was waiting; 1: a batch went
 * out; -1: the stream ended (or the driver ended it). */
static int batch(void)
{
	int end = 0;
	u32 n = window_fill(&PS, &S->wc, &end);

	if (!n)
		return end || *S->wc.stop ? -1 : 0;
	return S->batch(n, s_live) < 0 || end ? -1 : 1;
}

/* bytes of the stream in: a batch goes out each time the buffer fills */
static int push(const void *p, size_t n)
{
	const u8 *b = p;

	while (n) {
		u32 room;

		if (PS.pos && (PS.cap - PS.len < n || PS.len - PS.pos <= PS.pos)) {
			memmove(PS.buf, PS.buf + PS.pos, PS.len - PS.pos);
			PS.base += PS.pos;
			PS.len -= PS.pos;
			PS.pos = 0;
		}
		room = PS.cap - PS.len;
		if (!room) {
			if (batch() <= 0)
				return -1;	/* no progress: cannot happen with whole records */
			continue;
		}
		if (room > n)
			room = (u32)n;
		memcpy(PS.buf + PS.len, b, room);
		PS.len += room;
		b += room;
		n -= room;
	}
	return *S->wc.stop ? -1 : 0;
}

static COLD void push_begin(const struct in_stream *st)
{
	S = st;
	s_live = 1;
	src_init(&PS, -1, "(capture)", merge_mem(), STREAM_BUF);
	PS.eof = 0;
	PS.push = 1;
}

/* the last batches, the held records */
static COLD void drain(void)
{
	while (batch() > 0)
		;
	window_release(S->held);
}

TEXT(input_device_table_full, "device table full: %llu events dropped (DEVS_MAX %d)")
TEXT(input_late_record_table, "late-record table full: %llu records printed early (HOLD_MAX "
	"%d, HOLD_BYTES %d)")
/* what ran out said */
static COLD int push_end(int rc)
{
	drain();
	src_zero_report();
	if (dev_dropped)
		warn_text(U_input_device_table_full, dev_dropped, DEVS_MAX);
	if (window_hold_overflow)
		warn_text(U_input_late_record_table,
			 (unsigned long long)window_hold_overflow, HOLD_MAX, HOLD_BYTES);
	return rc || src_errors ? 1 : 0;
}

/* Stdin up to its first record that is not a note, read exactly: a dump's
 * times start at 0 (blkparse's genesis), a raw trace's at the kernel
 * clock's (seconds since boot at least).  Notes before it go as read. */
static u8 peek[REC_V8_LEN + 65536];

TEXT(input_stdin_not_a, "(stdin): not a dump or a trace")
static COLD int read_stdin(void)
{
	struct rec r;
	u32 n = 0, want = REC_V7_LEN;
	ssize_t k;

	for (;;) {
		for (; n < want; n += (u32)k)
			if ((k = read(0, peek + n, want - n)) <= 0) {
				if (!k && !n)
					return 0;	/* empty */
				goto bad;
			}
		if ((k = rec_decode(peek, n, &r)) == DEC_MORE) {
			want = (u32)r.hdr_len + r.pdu_len;
			continue;
		}
		if (k < 0)
			goto bad;
		if (!REC_IS_NOTE(&r))
			break;
		I->rec(&r);	/* a process's name (btt -A) */
		n = 0;
		want = REC_V7_LEN;
	}
	if (r.time < 1000000000) {
		I->rec(&r);
		return read_dump(1);
	}
	push_begin(&blkd);
	while (!push(peek, n) && (k = read(0, peek, sizeof(peek))) > 0)
		n = (u32)k;
	return push_end(0);
bad:
	warn_text(U_input_stdin_not_a);
	return 1;
}

/* after each round of reads from every CPU: what came, in batches (all
 * CPUs' records together keep the first batch's genesis the earliest) */
static void pump(void)
{
	while (batch() > 0)
		;
}

static void live_round(void)
{
	pump();
	if (I->round)
		I->round();
}

/* blktrace -o - | blkparse -i - -d, as btrace runs it */
static COLD int read_live(struct cap_cfg *c)
{
	push_begin(&blkd_live);
	c->watch_stdout = 1;
	return push_end(cap_run_plain(c, push, live_round));
}

/* blkparse's own (parse, btrace): a stream by name ("-": stdin), or
 * NULL: live from cap, blktrace -o - | blkparse -i - */
COLD int in_stream(const struct in_stream *st, const char *name, struct cap_cfg *cap)
{
	struct stat sb;
	int fd = 0, rc = 0;

	if (!name) {
		push_begin(st);
		s_live = 2;
		cap->watch_stdout = 1;
		rc = cap_run_plain(cap, push, pump);
	} else {
		if (strcmp(name, "-") && (fd = open(name, O_RDONLY | O_CLOEXEC)) < 0) {
			err_sys(name);
			return -1;
		}
		S = st;
		s_live = fstat(fd, &sb) || !S_ISREG(sb.st_mode);
		/* every input's buffer, none of them used here: a batch's
		 * records stay where they were read, and notes between them
		 * (bfq's messages with a cgroup id, several an I/O) must not
		 * cut it short of blkparse's; low pages are reused as before */
		src_init(&PS, fd, fd ? name : "(stdin)", merge_mem(), MERGE_POOL);
		while (!*st->wc.stop && batch() >= 0)
			;
		if (fd)
			close(fd);
	}
	drain();
	return rc;
}

TEXT(input_i_one_trace, "-i %s: one trace only (-i %s given)")
/* 0: a dump (a regular file), 1: a trace's name, 2: stdin */
/* an applet's one -i: a second is refused, not silently put in its place */
COLD int in_one(char **in, char *name)
{
	if (*in) {
		warn_text(U_input_i_one_trace, name, *in);
		return -1;
	}
	*in = name;
	return 0;
}

int in_kind(const char *s)
{
	struct stat st;

	if (!strcmp(s, "-"))
		return 2;
	return str_find(s, ".blktrace.") || stat(s, &st) || !S_ISREG(st.st_mode);
}

TEXT(input_one_dump_one, "one dump, one -, trace names, or devices to trace")
COLD int in_run(const struct input *in)
{
	int i, k = in->n ? in_kind(in->names[0]) : 3;

	I = in;
	for (i = 1; i < in->n; i++)
		if (in_kind(in->names[i]) != k || k != 1)
			k = 4;
	if (k == 4 || (in->n && cap_ndev())) {
		warn_text(U_input_one_dump_one);
		return 1;
	}
	return k == 3 ? read_live(in->cap) : k == 2 ? read_stdin() : k ? read_traces() : read_dump(0);
}

/* ---- the kernel's order and times (top, biolatency, monitor) ---- */

static volatile sig_atomic_t *stop;

/* trace names, each NAME.blktrace.CPU files, all merged by time as one */
static COLD int read_names(void)
{
	unsigned long long errors = src_errors;	/* a read error ends a file quietly */
	int i, rc;

	merge_begin(MERGE_TIME, 1, NULL, stop);
	for (i = 0; i < I->n; i++)
		if (!merge_files(NULL, I->names[i], 0, STREAMS_MAX, "STREAMS_MAX", STREAM_BUF / REPLAY_FILES, 0, NULL))
			return 1;
	merge_start();
	while (!*stop && merge_first >= 0) {
		I->rec(&merge_in[merge_first].head);
		merge_pop();
	}
	rc = merge_end();
	src_zero_report();
	return rc || src_errors != errors;
}

/* a whole record (or an unfilled one) waits in s: reading it will not block */
static int buffered(const struct src *s)
{
	struct rec r;
	u32 have = s->len - s->pos;

	return have >= REC_V7_LEN && (rec_decode(s->buf + s->pos, have, &r) > 0 || rec_unfilled(s->buf + s->pos));
}

/* "-" as it comes.  With the driver's clock (due), its deadline on the
 * monotonic clock is looked at before each read that would wait: what
 * arrived after it counts after round(), what arrived before it before;
 * poll sleeps to it, rounded up to the millisecond. */
static COLD int read_stdin_as_read(void)
{
	struct src s;
	struct rec r;
	int got;

	src_init(&s, 0, "(stdin)", merge_mem(), STREAM_BUF);
	while (!*stop) {
		u64 next, now, ms;
		struct pollfd p = { 0, POLLIN, 0 };

		if (I->due && !buffered(&s) && (next = I->due())) {
			if ((now = mono_ns()) >= next) {
				I->round();
				continue;
			}
			ms = (next - now + 999999) / 1000000;
			got = poll(&p, 1, ms > 86400000 ? 86400000 : (int)ms);
			/* quiet until the deadline, or woken past it: the
			 * deadline's round comes before this read's records */
			if (!got || (got < 0 && errno == EINTR) || (got > 0 && mono_ns() >= next))
				continue;
		}
		if ((got = src_record(&s, &r)) <= 0) {
			src_zero_report();
			return got < 0;
		}
		I->rec(&r);
	}
	src_zero_report();
	return 0;
}

static struct src LS;
static unsigned long long live_bad;	/* bytes that were no record */

static void live_one(void *ctx, const struct rec *r)
{
	(void)ctx;
	I->rec(r);
}

/* the round's records: merged by time (in_trace), or as they arrived
 * (in_arrive) */
static void (*take)(void);

static void take_merged(void)
{
	runs_take(&LS, live_one, NULL, &live_bad);
}

static void take_arrived(void)
{
	struct rec r;

	while (src_record(&LS, &r) > 0)
		I->rec(&r);
}

static int live_push(const void *p, size_t n)
{
	return src_feed(&LS, p, n, take);
}

/* the round's records, then the driver's clock: the capture calls back
 * every CAP_LIVE_MS with or without records */
static void trace_round(void)
{
	take();
	if (I->round)
		I->round();
}

TEXT(input_bytes_of_the, "%llu bytes of the capture were not whole records; skipped")
static COLD int kernel(const struct input *in, void (*t)(void))
{
	int rc;

	I = in;
	stop = in->stop ? in->stop : &in_stop;
	take = t;
	if (in->n)
		return in->n > 1 || strcmp(in->names[0], "-") ? read_names() : read_stdin_as_read();
	src_init_push(&LS, merge_mem(), STREAM_BUF);
	rc = cap_run_plain(in->cap, live_push, trace_round);
	if (live_bad)
		warn_text(U_input_bytes_of_the, live_bad);
	return rc || live_bad;
}

COLD int in_trace(const struct input *in)
{
	return kernel(in, take_merged);
}

COLD int in_arrive(const struct input *in)
{
	return kernel(in, take_arrived);
}
