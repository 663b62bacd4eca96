/* match/inflight.c: match: the one table of requests in flight, keyed by (device, sector, kind) */
/*
 * Every stage that follows a request from one record to the next (parse -t,
 * monitor's D/C pairing, top's owners; later btt) keeps it here.  A table
 * is a fixed pool of caller-defined entries whose first member is a
 * struct ift_hdr (key, chain link, age, stamp); the rest is the caller's
 * payload, which the table only zeroes on add and never reads, so one
 * object serves any payload size (struct ift's esize) without a heap.
 * IFT_POOL() declares the arrays and the table and checks the layout.
 *
 * A key is unique at any time (every caller finds before it adds, and a
 * move onto a taken key fails), so chain order and the hash are not output;
 * slot allocation is: free list first (last freed, first reused), then the
 * never-used slots in order.  That order is output (monitor -D prints
 * leftovers by slot; top ages by slot), so it is the same for every table.
 * What differs is what a full pool does (enum ift_full):
 *   IFT_DROP       the new request is not kept (counted in dropped)     parse -t
 *   IFT_AGE_FIFO   the oldest stored entry goes: a ring of (slot, stamp)
 *                  in store order, stale pairs skipped; when the ring is
 *                  full its oldest pair is dropped                      monitor
 *   IFT_AGE_NEAR   the least `born` of 32 slots past a moving hand goes  top
 * Aged entries are counted (aged) and shown to evict() first, if set.
 */
#include <string.h>
#include "iomon.h"

#define E(t, i) ((struct ift_hdr *)((t)->pool + (size_t)((i) - 1) * (t)->esize))

/* any bucket count: the high half of the product scaled, no divide */
static inline u32 *chain(const struct ift *t, u32 dev, u64 sector)
{
	u64 h = (sector ^ (u64)dev << 40) * 0x9e3779b97f4a7c15ull;

	return &t->bucket[(u32)(((h >> 32) * t->nbucket) >> 32)];
}

void *ift_find(struct ift *t, u32 dev, u64 sector, u32 kind)
{
	u32 i;

	for (i = *chain(t, dev, sector); i; i = E(t, i)->next) {
		struct ift_hdr *e = E(t, i);

		if (e->sector == sector && e->dev == dev && e->kind == kind)
			return e;
	}
	return NULL;
}

/* out of its chain; returns its slot */
static u32 unlink_out(struct ift *t, struct ift_hdr *e)
{
	u32 *l = chain(t, e->dev, e->sector), i;

	while ((i = *l) && E(t, i) != e)
		l = &E(t, i)->next;
	*l = e->next;
	return i;
}

static void put_free(struct ift *t, struct ift_hdr *e, u32 idx)
{
	e->used = 0;
	e->next = t->freelist;
	t->freelist = idx;
}

void ift_del(struct ift *t, void *p)
{
	struct ift_hdr *e = p;

	put_free(t, e, unlink_out(t, e));
}

static void age(struct ift *t, struct ift_hdr *e)
{
	if (t->evict)
		t->evict(t->ctx, e);
	ift_del(t, e);
	t->aged++;
}

/* the oldest stored entry: pop (slot, stamp) pairs until one is live */
static void age_fifo(struct ift *t)
{
	while (!t->freelist) {
		u32 slot = t->ring[2 * t->ring_tail], st = t->ring[2 * t->ring_tail + 1];
		struct ift_hdr *e = E(t, slot);

		t->ring_tail = (t->ring_tail + 1) % t->cap;
		t->ring_n--;
		if (e->used && e->stamp == st)
			age(t, e);
	}
}

/* the least born of a few slots past the hand: cheap, and requests whose
 * completion never comes cannot hold the pool for good */
static void age_near(struct ift *t)
{
	u32 i, k, old = t->hand % t->cap;

	for (i = 1; i < 32 && i < t->cap; i++) {
		k = (t->hand + i) % t->cap;
		if (E(t, k + 1)->born < E(t, old + 1)->born)
			old = k;
	}
	t->hand = old + 1;
	age(t, E(t, old + 1));
}

void *ift_add(struct ift *t, u32 dev, u64 sector, u32 kind, u64 born)
{
	struct ift_hdr *e;
	u32 idx, *l;

	if (!t->freelist) {
		if (t->hwm < t->cap) {
			idx = ++t->hwm;
			goto got;
		}
		if (t->full == IFT_DROP) {
			t->dropped++;
			return NULL;
		}
		if (t->full == IFT_AGE_FIFO)
			age_fifo(t);
		else
			age_near(t);
	}
	idx = t->freelist;
	t->freelist = E(t, idx)->next;
got:
	e = E(t, idx);
	memset(e, 0, t->esize);
	e->sector = sector;
	e->born = born;
	e->dev = dev;
	e->kind = kind;
	e->used = 1;
	l = chain(t, dev, sector);
	e->next = *l;
	*l = idx;
	if (t->full == IFT_AGE_FIFO) {
		e->stamp = ++t->stamp;
		if (t->ring_n == t->cap) {	/* ring full of stale pairs: drop one */
			t->ring_tail = (t->ring_tail + 1) % t->cap;
			t->ring_n--;
		}
		t->ring[2 * t->ring_head] = idx;
		t->ring[2 * t->ring_head + 1] = e->stamp;
		t->ring_head = (t->ring_head + 1) % t->cap;
		t->ring_n++;
	}
	return e;
}

void *ift_get(struct ift *t, u32 dev, u64 sector, u32 kind, u64 born)
{
	void *e = ift_find(t, dev, sector, kind);

	return e ? e : ift_add(t, dev, sector, kind, born);
}

int ift_move(struct ift *t, void *p, u32 dev, u64 sector)
{
	struct ift_hdr *e = p;
	u32 idx = unlink_out(t, e), *l;

	if (ift_find(t, dev, sector, e->kind)) {
		put_free(t, e, idx);
		return -1;
	}
	e->dev = dev;
	e->sector = sector;
	l = chain(t, dev, sector);
	e->next = *l;
	*l = idx;
	return 0;
}

void *ift_slot(struct ift *t, u32 i)
{
	return i && i <= t->hwm && E(t, i)->used ? E(t, i) : NULL;
}
