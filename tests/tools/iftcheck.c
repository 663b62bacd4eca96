/* tests/tools/iftcheck.c: match/inflight.c on its own: slot order, the three
 * full-pool policies, kinds, and moves onto free and taken keys.
 * Prints each failed expectation; exits 1 if any. */
#include <stdio.h>
#include "match/match.h"

struct ent {
	struct ift_hdr h;
	u32 tag;
};

static int bad;
#define EXPECT(c) do { if (!(c)) { printf("line %d: %s\n", __LINE__, #c); bad = 1; } } while (0)

static u32 slot_of(struct ift *t, void *e) { return (u32)(((u8 *)e - t->pool) / t->esize) + 1; }

static u32 evicted[64], nevicted;
static void on_evict(void *ctx, void *e)
{
	EXPECT(ctx == (void *)&nevicted);
	EXPECT(((struct ift_hdr *)e)->used);	/* still whole when shown */
	evicted[nevicted++] = ((struct ent *)e)->tag;
}

static struct ent *add(struct ift *t, u64 sector, u64 born, u32 tag)
{
	struct ent *e = ift_add(t, 7, sector, 0, born);

	if (e) {
		EXPECT(e->tag == 0);	/* zeroed, whatever the slot held */
		e->tag = tag;
	}
	return e;
}

IFT_POOL(drop, struct ent, 4, 3, IFT_DROP);
IFT_POOL(near, struct ent, 4, 8, IFT_AGE_NEAR);
IFT_POOL(wide, struct ent, 40, 16, IFT_AGE_NEAR);
IFT_POOL(fifo, struct ent, 3, 1, IFT_AGE_FIFO);
IFT_POOL(fifo2, struct ent, 3, 5, IFT_AGE_FIFO);
IFT_POOL(fifo3, struct ent, 3, 2, IFT_AGE_FIFO);
IFT_POOL(bare, struct ent, 3, 0, IFT_DROP);
IFT_POOL(lostp, struct ent, 4, 4, IFT_AGE_NEAR);

static void test_drop(void)
{
	struct ift *t = &drop;
	struct ent *a = add(t, 100, 0, 1), *b = add(t, 200, 0, 2), *c = add(t, 300, 0, 3), *d = add(t, 400, 0, 4);
	u32 i;

	EXPECT(a && b && c && d);
	for (i = 1; i <= 4; i++)	/* never-used slots in order */
		EXPECT(ift_slot(t, i) && ((struct ent *)ift_slot(t, i))->tag == i);
	EXPECT(ift_slot(t, 0) == NULL && ift_slot(t, 5) == NULL);
	EXPECT(add(t, 500, 0, 5) == NULL && t->dropped == 1 && t->aged == 0);
	EXPECT(ift_find(t, 7, 500, 0) == NULL);
	/* a second request at c's sector goes beside it, as kind 2: none, full */
	EXPECT(ift_start(t, &(struct rec){ .dev = 7, .sector = 300, .time = 5 }, 0) == NULL && t->dropped == 2);
	EXPECT(ift_find(t, 7, 300, 1) == NULL);	/* another kind is another key */
	EXPECT(ift_find(t, 8, 300, 0) == NULL);	/* another device too */
	ift_del(t, b);
	ift_del(t, d);
	EXPECT(ift_slot(t, 2) == NULL && ift_slot(t, 4) == NULL && ift_find(t, 7, 200, 0) == NULL);
	/* free list: last freed first */
	EXPECT(slot_of(t, add(t, 600, 0, 6)) == 4);
	EXPECT(slot_of(t, add(t, 700, 0, 7)) == 2);
	EXPECT(add(t, 800, 0, 8) == NULL && t->dropped == 3);

	/* move onto a free key: same entry, same slot, payload kept */
	EXPECT(ift_move(t, a, 7, 101) == 0 && ift_find(t, 7, 101, 0) == a && a->tag == 1);
	EXPECT(ift_find(t, 7, 100, 0) == NULL && a->h.sector == 101);
	/* onto its own key (a zero-length front merge): still there */
	EXPECT(ift_move(t, a, 7, 101) == 0 && ift_find(t, 7, 101, 0) == a);
	/* onto a taken key: -1, the moved entry is gone and its slot free,
	 * the one holding the key is untouched */
	EXPECT(ift_move(t, a, 7, 300) == -1);
	EXPECT(ift_find(t, 7, 101, 0) == NULL && ift_find(t, 7, 300, 0) == c && c->tag == 3);
	EXPECT(ift_slot(t, 1) == NULL);
	EXPECT(slot_of(t, add(t, 900, 0, 9)) == 1);
	EXPECT(t->dropped == 3);
}

static void test_near(void)
{
	struct ift *t = &near;
	u32 i;

	t->evict = on_evict, t->ctx = &nevicted, nevicted = 0;
	add(t, 1, 40, 1), add(t, 2, 10, 2), add(t, 3, 30, 3), add(t, 4, 20, 4);
	/* full: the least born goes (slot 2), the new one takes its slot */
	EXPECT(slot_of(t, add(t, 5, 50, 5)) == 2);
	EXPECT(t->aged == 1 && nevicted == 1 && evicted[0] == 2 && ift_find(t, 7, 2, 0) == NULL);
	/* the hand moved past slot 2: of slots 3, 4, 1, 2 the least is 4 */
	EXPECT(slot_of(t, add(t, 6, 60, 6)) == 4 && evicted[1] == 4);
	EXPECT(t->dropped == 0 && t->aged == 2);

	/* 40 slots: only 32 past the hand are looked at, so the oldest of all
	 * (slot 40) survives the first aging, and the hand then reaches it */
	t = &wide;
	nevicted = 0, t->evict = on_evict, t->ctx = &nevicted;
	for (i = 1; i <= 40; i++)
		add(t, i, i == 40 ? 0 : 100 + i, i);
	EXPECT(slot_of(t, add(t, 41, 1000, 41)) == 1 && evicted[0] == 1);
	EXPECT(ift_find(t, 7, 40, 0) != NULL);
	EXPECT(slot_of(t, add(t, 42, 1000, 42)) == 2 && evicted[1] == 2);
	for (i = 0; i < 6; i++)	/* slots 3..8 */
		add(t, 43 + i, 1000, 43 + i);
	EXPECT(evicted[7] == 8 && ift_find(t, 7, 40, 0) != NULL);
	/* hand at 8: slots 9..40 are looked at */
	EXPECT(slot_of(t, add(t, 60, 1000, 60)) == 40 && evicted[8] == 40);
	EXPECT(ift_find(t, 7, 40, 0) == NULL && t->aged == 9);
}

static void test_fifo(void)
{
	struct ift *t = &fifo;

	nevicted = 0, t->evict = on_evict, t->ctx = &nevicted;
	add(t, 1, 0, 1), add(t, 2, 0, 2), add(t, 3, 0, 3);
	/* full: the first stored goes, then the next; one bucket for all */
	EXPECT(slot_of(t, add(t, 4, 0, 4)) == 1 && evicted[0] == 1);
	EXPECT(slot_of(t, add(t, 5, 0, 5)) == 2 && evicted[1] == 2);
	/* a deleted entry's ring pair is stale: skipped, not aged */
	ift_del(t, ift_find(t, 7, 3, 0));
	EXPECT(slot_of(t, add(t, 6, 0, 6)) == 3 && nevicted == 2);
	EXPECT(slot_of(t, add(t, 7, 0, 7)) == 1 && evicted[2] == 4);
	EXPECT(t->aged == 3 && t->dropped == 0);
	EXPECT(ift_find(t, 7, 5, 0) && ift_find(t, 7, 6, 0) && ift_find(t, 7, 7, 0));

	/* storing into a full ring drops its stale pairs and keeps the live
	 * ones in order: an entry that outlived a ringful of others is still
	 * the oldest and ages first (the ring once dropped its oldest pair,
	 * and with it that entry from the order: the younger one aged) */
	t = &fifo2;
	nevicted = 0, t->evict = on_evict, t->ctx = &nevicted;
	add(t, 1, 0, 1), add(t, 2, 0, 2), add(t, 3, 0, 3);
	ift_del(t, ift_find(t, 7, 2, 0));
	EXPECT(slot_of(t, add(t, 4, 0, 4)) == 2 && nevicted == 0);
	ift_del(t, ift_find(t, 7, 4, 0));
	EXPECT(slot_of(t, add(t, 8, 0, 8)) == 2 && nevicted == 0);	/* the ring's 4 pairs (cap + cap / 16 + 1) were full */
	EXPECT(t->ring_n == 3);	/* 1, 3, 8: the stale pairs of 2 and 4 gone */
	EXPECT(slot_of(t, add(t, 5, 0, 5)) == 1 && evicted[0] == 1);	/* 1, not 3 */
	EXPECT(ift_find(t, 7, 1, 0) == NULL && ift_find(t, 7, 3, 0) != NULL);
	/* leftovers in slot order */
	EXPECT(((struct ent *)ift_slot(t, 1))->tag == 5 && ((struct ent *)ift_slot(t, 2))->tag == 8 &&
	       ((struct ent *)ift_slot(t, 3))->tag == 3);
}

/* entries marked used 2 (monitor's Ds) age after the unmarked ones,
 * each going back in as the youngest; a pool of nothing but marked ones
 * still ages, the oldest first */
static void test_fifo_marked(void)
{
	struct ift *t = &fifo3;

	nevicted = 0, t->evict = on_evict, t->ctx = &nevicted;
	add(t, 1, 0, 1)->h.used = 2;
	add(t, 2, 0, 2), add(t, 3, 0, 3)->h.used = 2;
	EXPECT(slot_of(t, add(t, 4, 0, 4)) == 2 && nevicted == 1 && evicted[0] == 2);	/* not 1 */
	EXPECT(slot_of(t, add(t, 5, 0, 5)) == 2 && evicted[1] == 4);	/* 1 and 3 spared again */
	EXPECT(ift_find(t, 7, 1, 0) && ift_find(t, 7, 3, 0));
	((struct ent *)ift_find(t, 7, 5, 0))->h.used = 2;
	/* all three marked: each is spared once (cap spares), then the first
	 * in the ring goes: 3, spared first of the three last time */
	EXPECT(slot_of(t, add(t, 6, 0, 6)) == 3 && evicted[2] == 3 && nevicted == 3);
	EXPECT(ift_find(t, 7, 1, 0) && ift_find(t, 7, 5, 0) && ift_find(t, 7, 6, 0));
	EXPECT(slot_of(t, add(t, 7, 0, 7)) == 3 && evicted[3] == 6);	/* 6 unmarked */
	EXPECT(t->aged == 4 && t->dropped == 0);
}

/* unkeyed slots (btt's): new ones in order, the last given back first
 * taken again, a full pool counted, slot order seeing only taken ones */
static void test_take(void)
{
	struct ift *t = &bare;
	struct ent *a = ift_take(t), *b = ift_take(t), *c = ift_take(t);

	EXPECT(a && b && c && slot_of(t, a) == 1 && slot_of(t, b) == 2 && slot_of(t, c) == 3);
	EXPECT(ift_take(t) == NULL && t->dropped == 1);
	a->tag = 11, c->tag = 33;
	ift_give(t, b);
	EXPECT(ift_slot(t, 2) == NULL && ((struct ent *)ift_slot(t, 3))->tag == 33);
	ift_give(t, a);
	EXPECT(ift_take(t) == a && ift_take(t) == b && ift_take(t) == NULL && t->dropped == 2);
	EXPECT(((struct ent *)ift_slot(t, 1))->tag == 11);	/* not zeroed: the caller's to set */
}

/* records lost (rec_seq: a (device, CPU)'s sequence numbers skip): a
 * request started before then gives its place to a new one at its sector */
static void test_lost(void)
{
	struct ift *t = &lostp;
	struct ent *a, *b;
	struct rec r = { .dev = 9, .cpu = 1, .sector = 50, .pid = 4 };
	u32 s;

	for (s = 1; s <= 3; s++) {	/* 1, 2, 3 on CPU 1, and 7 on CPU 2: none lost */
		r.seq = s, r.time = s;
		rec_seq(&r);
		r.cpu = 2, r.seq = s + 6;
		rec_seq(&r);
		r.cpu = 1;
	}
	EXPECT(rec_lost == 0);
	r.time = 10;
	EXPECT((a = ift_start(t, &r, 0)) && a->h.kind == 0 && a->h.born == 10);
	a->tag = 4;	/* the payload's first word: the starter's pid */
	r.time = 11;
	EXPECT((b = ift_start(t, &r, 0)) && b != a && b->h.kind == 2);	/* two in flight at once */
	ift_del(t, b);
	r.seq = 9, r.time = 20;	/* CPU 1's 4 to 8 lost */
	rec_seq(&r);
	EXPECT(rec_lost == 20);
	r.seq = 10, r.time = 21;
	rec_seq(&r);
	EXPECT(rec_lost == 20);
	r.pid = 5;	/* another process's: two in flight at once */
	EXPECT((b = ift_start(t, &r, 0)) && b != a && b->h.kind == 2 && a->h.born == 10);
	ift_del(t, b);
	r.pid = 4;
	EXPECT(ift_start(t, &r, 0) == a && a->h.born == 21 && a->tag == 4);	/* a's place, its payload the caller's */
	r.time = 22;
	EXPECT((b = ift_start(t, &r, 0)) && b != a && b->h.kind == 2);	/* started after: kept */
	rec_lost = 0;
}

int main(void)
{
	test_lost();
	test_take();
	test_drop();
	test_near();
	test_fifo();
	test_fifo_marked();
	if (!bad)
		printf("ok\n");
	return bad;
}
