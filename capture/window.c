/* capture/window.c: capture: a stream of all CPUs' records merged by time in a bounded window (blkparse's stream mode) */
/*
 * A stream (stdin, a pipe, btrace's pushed capture) carries every CPU's
 * records interleaved.  blkparse reads a batch, sorts it by (time, device,
 * sequence), prints it and reads the next; a record older than what its
 * CPU has shown is held back to the end, and every record sorting behind
 * it with it.  The window does the reading,
 * the order and the holding; the caller (parse) keeps the meaning: its
 * genesis, its stopwatch, its sequence checks.
 */
#include <poll.h>
#include <string.h>
#include "capture/capture.h"

/* held indices: u16, but in a build with a larger hold (make's build/big) */
#if HOLD_MAX > 65536
typedef u32 hold_ix;
#else
typedef u16 hold_ix;
#endif
_Static_assert(PIPE_WINDOW <= 65536, "window indices are u16");

struct rec window_rec[PIPE_WINDOW];
u16 window_order[PIPE_WINDOW];
static u16 tmp[PIPE_WINDOW];
static struct rec held[HOLD_MAX];
static u8 held_pdu[HOLD_BYTES];
static hold_ix held_order[HOLD_MAX];
static u32 nheld, held_used, held_first;
u64 window_hold_overflow;

static int ready(int fd)
{
	struct pollfd p = { fd, POLLIN, 0 };

	return poll(&p, 1, 0) > 0;
}

/* Read one batch into window_rec: c->batch counted records at most, or
 * what the buffer and the window hold; notes go to c->note as read, every
 * other record to c->seen.  Returns the records read; *end at the end. */
u32 window_fill(struct src *s, const struct window_cfg *c, int *end)
{
	u64 base;
	u32 n = 0, i;

	s->keep = s->pos;
	while (n < c->batch && n < PIPE_WINDOW && !*c->stop) {
		struct rec *r = &window_rec[n];
		int rc;

		if (s->pos - s->keep + REC_ROOM > s->cap)
			break;
		/* Like blkparse, a live pipe ends the batch when nothing more
		 * is waiting, so text follows the I/O instead of lagging by
		 * up to a batch. */
		if (s->fd >= 0 && n && s->len - s->pos < 64 && !ready(s->fd))
			break;
		base = s->base;
		rc = src_record(s, r);
		if (s->base != base)	/* the buffer slid down under the batch */
			for (i = 0; i < n; i++)
				window_rec[i].pdu -= s->base - base;
		if (rc == 0 && s->push)
			break;		/* the rest has not been pushed yet */
		if (rc <= 0) {
			*end = 1;
			break;
		}
		if (REC_IS_BP_NOTE(r)) {
			c->note(r);
			continue;
		}
		c->seen(r);
		n++;
	}
	s->keep = NO_KEEP;	/* the batch's bytes stay until the next read */
	return n;
}

static int batch_cmp(u16 a, u16 b)
{
	const struct rec *x = &window_rec[a], *y = &window_rec[b];

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return a > b ? -1 : 1;	/* exact ties: later read first, as blkparse */
}

/* window_order: the batch by (time, device, sequence), a merge sort */
void window_sort(u32 n)
{
	u32 w, i, j, k, lo, mid, hi;

	for (i = 0; i < n; i++)
		window_order[i] = (u16)i;
	for (w = 1; w < n; w *= 2) {
		for (lo = 0; lo < n; lo += 2 * w) {
			mid = lo + w < n ? lo + w : n;
			hi = lo + 2 * w < n ? lo + 2 * w : n;
			for (i = lo, j = mid, k = lo; k < hi; k++)
				tmp[k] = (j >= hi || (i < mid && batch_cmp(window_order[i], window_order[j]) < 0))
					? window_order[i++] : window_order[j++];
		}
		memcpy(window_order, tmp, n * sizeof(window_order[0]));
	}
}

/* x sorts after y in blkparse's tree (time, device, sequence) */
static int rec_after(const struct rec *x, const struct rec *y)
{
	if (x->time != y->time)
		return x->time > y->time;
	if (x->dev != y->dev)
		return x->dev > y->dev;
	return x->seq > y->seq;
}

/* 1: r's CPU's record numbered seq was read and is not shown yet: it is
 * in the batch (n records, sorting after r) or held (blkparse stalls on
 * r until it shows that one, which a hold keeps to the end).  A record
 * behind the first held one is held anyway: 1 without looking. */
int window_has(u32 n, const struct rec *r, u32 seq)
{
	u32 i;

	if (nheld && !rec_after(&held[held_first], r))
		return 1;
	for (i = 0; i < n + nheld; i++) {
		const struct rec *x = i < n ? &window_rec[i] : &held[i - n];

		if (x->seq == seq && x->dev == r->dev && x->cpu == r->cpu)
			return 1;
	}
	return 0;
}

/* blkparse's loop stops at the first record in its tree that fails the
 * sequence check (a late one) and leaves it, and every record sorting at
 * or after it, of any device, to its final pass; held_first is that
 * record.  Kept to the end (with its payload): a late record and every
 * record behind the first held.  1: held; 0: printed now (not held, or
 * no room: counted). */
int window_hold(const struct rec *r, int late)
{
	int first = !nheld || rec_after(&held[held_first], r);

	if (!late && first)
		return 0;
	if (nheld == HOLD_MAX || HOLD_BYTES - held_used < r->pdu_len) {
		window_hold_overflow++;
		return 0;
	}
	if (first)
		held_first = nheld;
	held[nheld] = *r;
	memcpy(held_pdu + held_used, r->pdu, r->pdu_len);
	held[nheld++].pdu = held_pdu + held_used;
	held_used += r->pdu_len;
	return 1;
}

#if HOLD_MAX > 65536
/* isort16's insertion sort, on the wider indices */
static void held_sort(u32 n)
{
	u32 i, j;

	for (i = 1; i < n; i++) {
		hold_ix v = held_order[i];

		for (j = i; j && rec_after(&held[held_order[j - 1]], &held[v]); j--)
			held_order[j] = held_order[j - 1];
		held_order[j] = v;
	}
}
#else
static int held_after(const void *ctx, u16 a, u16 b)
{
	(void)ctx;
	return rec_after(&held[a], &held[b]);
}
#define held_sort(n) isort16(held_order, (n), held_after, NULL)
#endif

/* The held records, stably by (time, device, sequence), into fn; the
 * hold is empty afterwards. */
void window_release(void (*fn)(struct rec *r))
{
	u32 i;

	for (i = 0; i < nheld; i++)
		held_order[i] = (hold_ix)i;
	/* (nearly in order as held: each CPU's records come in time order) */
	held_sort(nheld);
	for (i = 0; i < nheld; i++)
		fn(&held[held_order[i]]);
	nheld = held_used = 0;
}
