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
 *   IFT_DROP       the new request is not kept (counted in dropped)     btt
 *   IFT_AGE_FIFO   the oldest stored entry goes: a ring of (slot, stamp)
 *                  in store order, stale pairs skipped; when the ring is
 *                  full its stale pairs are dropped, the live kept in
 *                  order; entries marked used 2 go last    monitor, -t, plot
 *   IFT_AGE_NEAR   the least `born` of 32 slots past a moving hand goes  top
 * Aged entries are counted (aged) and shown to evict() first, if set.
 *
 * The per-record paths (ift_find, ift_add, ift_del) are inline in iomon.h:
 * as calls they cost monitor 20 % of its rate.  An entry remembers its
 * bucket (ift_hdr.chain), so deleting one does not hash again.
 */
#include "match/match.h"

#define E(t, i) ift_entry(t, i)

/* ift_del out of line, for callers off the per-record path */
void ift_drop(struct ift *t, void *e)
{
	ift_del(t, e);
}

static COLD __attribute__((noinline)) void age(struct ift *t, struct ift_hdr *e)
{
	if (t->evict)
		t->evict(t->ctx, e);
	ift_drop(t, e);
	t->aged++;
}

/* A full ring keeps its live pairs, in order, and drops the stale ones
 * (those of entries gone or stored again since).  Dropping its oldest
 * pair instead, as it once did, lost an entry that outlived a ringful of
 * others from the order for good: a full pool then aged younger entries
 * and never it.  The ring has a sixteenth more pairs than there are
 * entries, and the one being stored is not in it, so this frees that many
 * at least: a store costs 17 steps of it at most, each a look at an
 * entry.  That bound is met only where the table stays a sixteenth short
 * of full (requests that never complete, the rest completing): a store
 * and a delete took 91 ns there at 65536 entries, 7 before; 12 with few
 * in the table, 10 before.  A full table ages its oldest instead. */
static COLD __attribute__((noinline)) void ring_keep(struct ift *t)
{
	u32 i = t->ring_tail, n = t->ring_n, *p;

	t->ring_head = i;
	for (t->ring_n = 0; n--; i = ift_next(t, i))	/* the head follows i: in place */
		if (p = &t->ring[2 * i], E(t, p[0])->used && E(t, p[0])->stamp == p[1])
			ift_ring(t, E(t, p[0]), p[0]);
}

__attribute__((noinline)) void ift_ring(struct ift *t, struct ift_hdr *e, u32 idx)
{
	u32 *p;

	if (t->ring_n == t->rcap)
		ring_keep(t);
	p = &t->ring[2 * t->ring_head];
	p[0] = idx;
	p[1] = e->stamp = ++t->stamp;
	t->ring_head = ift_next(t, t->ring_head);
	t->ring_n++;
}

/* the oldest stored entry: pop (slot, stamp) pairs until one is live;
 * one its caller marked (used 2) goes back in as the youngest, at most
 * cap times, so a pool of nothing but those still ages its oldest */
static __attribute__((noinline, cold)) void age_fifo(struct ift *t)
{
	u32 spared = 0;

	while (!t->freelist) {
		u32 slot = t->ring[2 * t->ring_tail], st = t->ring[2 * t->ring_tail + 1];
		struct ift_hdr *e = E(t, slot);

		t->ring_tail = ift_next(t, t->ring_tail);
		t->ring_n--;
		if (!e->used || e->stamp != st)
			continue;
		if (e->used == 2 && spared++ < t->cap)
			ift_ring(t, e, slot);
		else
			age(t, e);
	}
}

/* the least born of a few slots past the hand: cheap, and requests whose
 * completion never comes cannot hold the pool for good */
static __attribute__((noinline, cold)) void age_near(struct ift *t)
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

/* ift_add found no free slot: a never-used one, else make room by the
 * table's policy; 0: IFT_DROP, the new entry is not kept (counted) */
COLD u32 ift_room(struct ift *t)
{
	u32 idx;

	if (t->hwm < t->cap)
		return ++t->hwm;
	if (t->full == IFT_DROP) {
		t->dropped++;
		return 0;
	}
	if (t->full == IFT_AGE_FIFO)
		age_fifo(t);
	else
		age_near(t);
	idx = t->freelist;
	t->freelist = E(t, idx)->next;
	return idx;
}

/* ift_add out of line, for callers off the per-record path */
void *ift_put(struct ift *t, u32 dev, u64 sector, u32 kind, u64 born)
{
	return ift_add(t, dev, sector, kind, born);
}

/* ift_find out of line, for callers off the per-record path */
void *ift_look(const struct ift *t, u32 dev, u64 sector, u32 kind)
{
	return ift_find(t, dev, sector, kind);
}

static void *ift_get(struct ift *t, u32 dev, u64 sector, u32 kind, u64 born)
{
	void *e = ift_look(t, dev, sector, kind);

	return e ? e : ift_put(t, dev, sector, kind, born);
}

/* a hash of (device, CPU) streams, each known by 32 bits of it; a stream
 * whose slot another takes starts over (its callers skip notes: they carry
 * no sequence number) */
static struct { u32 tag, next; } seqs[SEQ_STREAMS];
u64 rec_lost;

void rec_seq(const struct rec *r)
{
	u32 tag = r->dev ^ r->cpu * 0x9e3779b1u;
	__typeof__(seqs[0]) *s = &seqs[tag % SEQ_STREAMS];

	if (s->tag == tag && s->next != r->seq)
		rec_lost = r->time;
	s->tag = tag, s->next = r->seq + 1;
}

void *ift_start(struct ift *t, const struct rec *r, u32 k)
{
	struct ift_hdr *e = ift_look(t, r->dev, r->sector, k);

	if (e && e->born < rec_lost && *(const u32 *)(e + 1) == r->pid)	/* (its payload the caller's to set again) */
		e->born = r->time;
	else if (e)
		k |= 2;
	return ift_get(t, r->dev, r->sector, k, r->time);
}

COLD int ift_move(struct ift *t, void *p, u32 dev, u64 sector)
{
	struct ift_hdr *e = p;
	u32 idx = ift_unlink(t, e), *l;

	if (ift_look(t, dev, sector, e->kind)) {
		ift_free(t, e, idx);
		return -1;
	}
	e->dev = dev;
	e->sector = sector;
	e->chain = ift_hash(t, dev, sector);
	l = &t->bucket[e->chain];
	e->next = *l;
	*l = idx;
	return 0;
}

COLD void *ift_slot(struct ift *t, u32 i)
{
	return i && i <= t->hwm && E(t, i)->used ? E(t, i) : NULL;
}
