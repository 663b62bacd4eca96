/* capture/merge.c: capture: per-CPU trace files merged by time (blkparse's batched merge, replay's plain one) */
/*
 * One merge per process, over a fixed table of inputs (STREAMS_MAX),
 * each with its buffer from one pool.  Two orders, because two originals
 * differ and their users see it:
 * - MERGE_BLKPARSE (parse): each file is read ahead in batches of `batch`
 *   records; notes act when read (the note callback), not in time order;
 *   a record of another CPU is warned of and skipped; the inputs form a
 *   list by head time, a new head going after the last strictly earlier
 *   one, and a file just read staying first unless its next head is
 *   strictly later than the next file's.  The 65600-byte guard (REC_ROOM)
 *   decides when a batch is cut short, and so when names become known.
 * - MERGE_TIME (monitor -i, top -i): one record at a time, notes in time
 *   order among the records, the earliest head first, ties to the lower
 *   file; a damaged file ends quietly (merge_end says so).
 * The caller adds its inputs, calls merge_start, then takes the head
 * (merge_head), consumes it and calls merge_pop.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "capture/capture.h"

struct merge_in merge_in[MERGE_INPUTS];
int merge_first = -1;
u32 merge_n;

static struct {
	int mode, rc;
	u32 batch;
	void (*note)(const struct rec *r);
	volatile sig_atomic_t *stop;
} G;

/* The inputs' buffers, one pool shared out once they are all known
 * (merge_start): each input an equal share in whole pages, at most the
 * cap it asked for, and at least room for a record of the largest payload
 * (MERGE_POOL).  Virtual until read into: a stream touches only the pages
 * it uses. */
static u8 pool[MERGE_POOL] __attribute__((aligned(4096)));

u8 *merge_mem(void) { return pool; }

COLD void merge_begin(int mode, u32 batch, void (*note)(const struct rec *r), volatile sig_atomic_t *stop)
{
	G.mode = mode, G.batch = batch, G.note = note, G.stop = stop, G.rc = 0;
	merge_first = -1;
	merge_n = 0;
}

/* ---- MERGE_BLKPARSE ---- */

static u64 head_time(int i) { return merge_in[i].head.time; }

static void list_insert(int i)
{
	struct merge_in *m = &merge_in[i];
	int at = merge_first;

	if (at < 0 || m->head.time < head_time(at)) {
		m->next = at;
		merge_first = i;
		return;
	}
	while (merge_in[at].next >= 0 && head_time(merge_in[at].next) < m->head.time)
		at = merge_in[at].next;
	m->next = merge_in[at].next;
	merge_in[at].next = i;
}

TEXT(merge_record_for_cpu, "%s: record for cpu %u in cpu %u's file at byte %llu, skipped")
/* Read ahead up to n records (notes do not count), acting on notes.  A
 * batch too large for the buffer is finished later, when the reader
 * catches up; that only delays when names become known. */
static u32 prime(struct merge_in *m, u32 n)
{
	struct src *s = &m->s;
	struct rec r;
	u32 done = 0, i;

	s->keep = m->cons;
	s->pos = m->pp;
	for (i = 0; i < n && !*G.stop; i++) {
		u32 at = s->pos;

		if (s->pos - s->keep + REC_ROOM > s->cap)
			break;
		if (src_record(s, &r) <= 0) {
			n = i;
			break;
		}
		if (r.cpu != m->cpu) {
			warn_text(U_merge_record_for_cpu,
				 m->path, r.cpu, m->cpu, (unsigned long long)(s->base + at));
			continue;
		}
		if (REC_IS_BP_NOTE(&r)) {
			G.note(&r);
			/* notes act now; those ahead of every record need no room */
			if (!done && s->keep == at)
				s->keep = s->pos;
			i--;
			continue;
		}
		done++;
	}
	m->more = n - i;
	m->pp = s->pos;
	m->cons = s->keep;
	s->keep = NO_KEEP;
	return done;
}

/* Decode the next record of the primed batch into m->head; 0 at its end. */
static int next_head(struct merge_in *m)
{
	struct rec *r = &m->head;

	while (m->cons < m->pp) {
		int n = rec_decode(m->s.buf + m->cons, m->pp - m->cons, r);

		if (n <= 0) {
			if (m->pp - m->cons < REC_V7_LEN || !rec_unfilled(m->s.buf + m->cons))
				break;
			m->cons += REC_V7_LEN;	/* counted when primed */
			continue;
		}
		if (r->cpu == m->cpu && !REC_IS_BP_NOTE(r))
			return 1;
		m->cons += (u32)n;
	}
	return 0;
}

static void input_done(struct merge_in *m)
{
	m->next = -1;
	if (m->s.fd >= 0)
		close(m->s.fd);
	m->s.fd = -1;
}

/* blkparse's ms_deq: drop the head; refill at the end of a batch. */
static void pop_blkparse(void)
{
	int i = merge_first;
	struct merge_in *m = &merge_in[i];

	m->cons += m->head.hdr_len + m->head.pdu_len;
	while (!next_head(m)) {
		u32 got = m->more ? prime(m, m->more) : prime(m, G.batch);

		if (!got && (!m->more || *G.stop)) {
			merge_first = m->next;
			input_done(m);
			return;
		}
	}
	if (m->next >= 0 && m->head.time > head_time(m->next)) {
		merge_first = m->next;
		m->next = -1;
		list_insert(i);
	}
}

/* ---- MERGE_TIME ---- */

static void pick_earliest(void)
{
	u32 i;

	merge_first = -1;
	for (i = 0; i < merge_n; i++)
		if (merge_in[i].next == 0 && (merge_first < 0 || merge_in[i].head.time < head_time(merge_first)))
			merge_first = (int)i;
}

/* next is 0 while the input has a head, -1 once it has ended */
static void read_head(struct merge_in *m)
{
	int got = src_record(&m->s, &m->head);

	if (got < 0)
		G.rc = 1;
	if (got <= 0)
		input_done(m);
	else
		m->next = 0;
}

/* ---- both ---- */

/* Add fd (path for messages, cpu its records must carry under
 * MERGE_BLKPARSE, tag the caller's) with at most cap bytes of buffer;
 * merge_files keeps their count within MERGE_INPUTS. */
static COLD void merge_add(int fd, const char *path, u32 cpu, u16 tag, u32 cap)
{
	struct merge_in *m = &merge_in[merge_n++];

	memset(m, 0, sizeof(*m) - sizeof(m->path));
	sfmt(m->path, sizeof(m->path), "%s", path);
	src_init(&m->s, fd, m->path, NULL, cap);
	m->tag = tag;
	m->cpu = cpu;
	m->next = -1;
}

/* The inputs added: each its share of the pool, then read in the order
 * they came (blkparse's first batches, notes acting as read) */
COLD void merge_start(void)
{
	u32 i, share;

	for (i = 0; i < merge_n; i++) {
		struct merge_in *m = &merge_in[i];

		share = MERGE_POOL / merge_n & ~4095u;
		m->s.buf = pool + (size_t)i * share;
		if (m->s.cap > share)
			m->s.cap = share;
		if (G.mode == MERGE_TIME)
			read_head(m);
		else if (prime(m, G.batch) && next_head(m))
			list_insert((int)i);
	}
	if (G.mode == MERGE_TIME)
		pick_earliest();
}

void merge_pop(void)
{
	if (G.mode == MERGE_BLKPARSE) {
		pop_blkparse();
		return;
	}
	read_head(&merge_in[merge_first]);
	pick_earliest();
}

/* Close what is still open; 1 if an input was damaged. */
COLD int merge_end(void)
{
	u32 i;

	for (i = 0; i < merge_n; i++)
		if (merge_in[i].s.fd >= 0)
			close(merge_in[i].s.fd);
	merge_first = -1;
	return G.rc;
}

/* dir/NAME.blktrace.CPU, or its .zst, into path: 0 when it is there
 * (st its stat), 1 when not, -1 (said) when the path is too long */
static int trace_file(char *path, const char *dir, const char *name, u32 cpu, struct stat *st)
{
	size_t l = (size_t)sfmt(path, PATH_LEN, "%s%s%s.blktrace.%u", dir ? dir : "", dir ? "/" : "", name, cpu);

	if (l >= PATH_LEN) {
		warn_msg("%s: path too long", name);
		return -1;
	}
	if (!stat(path, st))
		return 0;
	if (l + 5 > PATH_LEN)
		return 1;
	memcpy(path + l, ".zst", 5);	/* compressed, then (zsrc.c) */
	return stat(path, st) < 0;
}

int trace_there(const char *name)
{
	char path[PATH_LEN];
	struct stat st;

	return !trace_file(path, NULL, name, 0, &st);
}

TEXT(merge_more_than_trace, "%s: more than %u trace files, ignored (%s)")
/* NAME.blktrace.0, .1, ... (or each .zst) under dir when given, until one is missing,
 * each added with tag and cap bytes of buffer.  With skip_empty, files
 * of no size (a FIFO too) are passed over, as blkparse does; a directory, an unreadable file or one past max
 * inputs (the pool named lim) ends the list, said and counted in
 * src_errors.  added() hears of each file added.  The number of names
 * found; 0 when there was none (said, unless an error was). */
COLD u32 merge_files(const char *dir, const char *name, u16 tag, u32 max, const char *lim, u32 cap,
		int skip_empty, void (*added)(const char *path))
{
	u32 cpu;

	for (cpu = 0;; cpu++) {
		struct stat st;
		char path[PATH_LEN];
		int fd;

		if (trace_file(path, dir, name, cpu, &st))
			break;
		if (!st.st_size && skip_empty)
			continue;
		if (S_ISDIR(st.st_mode)) {
			warn_msg("%s: is a directory", path);
			goto bad;
		}
		if (merge_n == max) {
			warn_text(U_merge_more_than_trace, path, max, lim);
			goto bad;
		}
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
			err_sys(path);
			goto bad;
		}
		if (added)
			added(path);
		merge_add(fd, path, cpu, tag, cap);
		continue;
bad:
		src_errors++;
		return cpu;
	}
	if (!cpu)
		warn_msg("No input files found for %s", name);
	return cpu;
}
