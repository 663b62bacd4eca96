/* match/match.h: match: the public API of match/: process names, requests in flight */
#ifndef IOMON_MATCH_H
#define IOMON_MATCH_H
#include <stddef.h>
#include "capture/capture.h"

/* match/procs.c: pid -> command name, first name wins (as blkparse) */
const char *proc_name(u32 pid);
void proc_add(u32 pid, const u8 *name, u32 len);
const char *proc_nth(u32 i, u32 *pid);
extern unsigned long long proc_dropped;

/* match/inflight.c: the one table of requests in flight, keyed by
 * (device, sector, kind).  An entry is the caller's struct whose first
 * member is `struct ift_hdr h`; the table zeroes it on add and keeps the
 * key, chain and age in h.  What a full pool does is the table's policy. */
enum ift_full { IFT_DROP, IFT_AGE_FIFO, IFT_AGE_NEAR };
struct ift_hdr {
	u64 sector, born;	/* born: IFT_AGE_NEAR ages the least */
	u32 dev, kind, next, stamp;	/* next: chain or free list, slot + 1 */
	u32 chain;		/* its bucket */
	u8 used;		/* 1; 2 (set by the caller): IFT_AGE_FIFO ages it after the others */
} __attribute__((aligned(8)));	/* payload words follow it whole */
struct ift {
	u8 *pool;
	u32 esize, cap, shift, *bucket, *ring, rcap;	/* 2^(64-shift) buckets; ring: rcap (slot, stamp) pairs, IFT_AGE_FIFO */
	u8 full;		/* enum ift_full */
	u32 freelist, hwm, hand, stamp, ring_head, ring_tail, ring_n;
	void (*evict)(void *ctx, void *e);	/* an entry aged out, before it goes */
	void *ctx;
	unsigned long long dropped, aged;
};
/* an IFT_AGE_FIFO ring's pairs: a sixteenth more than the entries, so
 * that dropping its stale pairs when full always frees that many */
#define IFT_RCAP(cap_) ((cap_) + (cap_) / 16 + 1)
/* static TYPE NAME_pool[CAP] and the table NAME (file scope); _EV: with
 * its evict hook */
#define IFT_POOL(name, type, cap_, nbucket_, full_) IFT_POOL_EV(name, type, cap_, nbucket_, full_, 0)
#define IFT_POOL_EV(name, type, cap_, nbucket_, full_, evict_) \
	_Static_assert(offsetof(type, h) == 0, #type ": struct ift_hdr h must come first"); \
	static type name##_pool[cap_]; \
	static u32 name##_bucket[(nbucket_) < 2 ? 2 : (nbucket_)], name##_ring[(full_) == IFT_AGE_FIFO ? 2 * IFT_RCAP(cap_) : 1]; \
	static struct ift name = { .pool = (u8 *)name##_pool, .esize = sizeof(type), .cap = (cap_), \
		.shift = __builtin_clzll((nbucket_) | 2) + 1, .bucket = name##_bucket, .ring = name##_ring, .rcap = IFT_RCAP(cap_), .full = (full_), \
		.evict = (evict_) }
/* the hot lookups, inline: slot i's entry, a key's chain (the top bits
 * of a multiplicative hash: the largest power of two <= the bucket count
 * is used), a key's entry or NULL */
static inline struct ift_hdr *ift_entry(const struct ift *t, u32 i)
{
	return (struct ift_hdr *)(t->pool + (size_t)(i - 1) * t->esize);
}
static inline u32 ift_hash(const struct ift *t, u32 dev, u64 sector)
{
	return (u32)(((sector ^ (u64)dev << 40) * 0x9e3779b97f4a7c15ull) >> t->shift);
}
static inline u32 *ift_chain(const struct ift *t, u32 dev, u64 sector)
{
	return &t->bucket[ift_hash(t, dev, sector)];
}
static inline void *ift_find(const struct ift *t, u32 dev, u64 sector, u32 kind)
{
	u32 i;

	for (i = *ift_chain(t, dev, sector); i; i = ift_entry(t, i)->next) {
		struct ift_hdr *e = ift_entry(t, i);

		if (e->sector == sector && e->dev == dev && e->kind == kind)
			return e;
	}
	return NULL;
}
u32 ift_room(struct ift *t);	/* no free slot: bump or age; 0: IFT_DROP */
void ift_ring(struct ift *t, struct ift_hdr *e, u32 idx);	/* IFT_AGE_FIFO: e, slot idx, the youngest (a new stamp) */
/* ring position after i (a divide by cap per record showed in monitor's time) */
static inline u32 ift_next(const struct ift *t, u32 i)
{
	return i + 1 == t->rcap ? 0 : i + 1;
}
/* a slot for a new entry: the last freed, else ift_room's; 0: none */
static inline u32 ift_claim(struct ift *t)
{
	u32 idx = t->freelist;

	if (idx)
		t->freelist = ift_entry(t, idx)->next;
	else
		idx = ift_room(t);
	return idx;
}
/* slot idx (entry e) to the free list: last freed, first reused */
static inline void ift_free(struct ift *t, struct ift_hdr *e, u32 idx)
{
	e->used = 0;
	e->next = t->freelist;
	t->freelist = idx;
}
/* a new key (the caller found none); its payload zeroed; NULL: full, IFT_DROP */
static inline void *ift_add(struct ift *t, u32 dev, u64 sector, u32 kind, u64 born)
{
	struct ift_hdr *e;
	u32 idx = ift_claim(t), h;
	u64 *q;

	if (!idx)
		return NULL;
	e = ift_entry(t, idx);
	for (q = (u64 *)(e + 1); (u8 *)q < (u8 *)e + t->esize; q++) {
		*q = 0;		/* a few words: no call to memset (the asm keeps gcc from making one) */
		__asm__("" : "+r"(q));
	}
	h = ift_hash(t, dev, sector);
	/* field by field: a compound literal is zeroed first, with a rep
	 * stosb at -Oz (a request's worth of time in monitor and btt) */
	e->sector = sector;
	e->born = born;
	e->dev = dev;
	e->kind = kind;
	e->next = t->bucket[h];
	e->stamp = 0;
	e->chain = h;
	e->used = 1;
	t->bucket[h] = idx;
	if (t->full == IFT_AGE_FIFO)
		ift_ring(t, e, idx);
	return e;
}
/* An entry found by other means than its key (btt's trees): a slot off
 * the free list, not hashed, not zeroed; back with ift_give.  IFT_DROP
 * tables only (the aging policies find their victims on the chains). */
static inline void *ift_take(struct ift *t)
{
	u32 idx = ift_claim(t);
	struct ift_hdr *e;

	if (!idx)
		return NULL;
	e = ift_entry(t, idx);
	e->used = 1;
	e->next = idx;		/* its own slot, for ift_give */
	return e;
}
static inline void ift_give(struct ift *t, void *p)
{
	ift_free(t, p, ((struct ift_hdr *)p)->next);
}
void *ift_put(struct ift *t, u32 dev, u64 sector, u32 kind, u64 born);	/* ift_add, not inline */
/* ift_find, not inline: for the tables of the -Oz objects (top, lat,
 * snoop, plot), where ift_find and ift_del were made calls anyway, a
 * copy in each file */
void *ift_look(const struct ift *t, u32 dev, u64 sector, u32 kind);
/* Records lost (blktrace's dropped events): rec_seq notes each record's
 * sequence number in its (device, CPU) stream, and rec_lost is the time
 * of the last record that came after a skip.  ift_start: a new request
 * at r's sector, kind k; beside one of kind k in flight there (two
 * readers of one block), kind k | 2; but one that r's process started
 * before records were lost has lost its end, and the new one takes its
 * place (the payload's first word is the starter's pid; two processes'
 * at one sector at once are real: fixtures/loop-flush). */
void rec_seq(const struct rec *r);
extern u64 rec_lost;
void *ift_start(struct ift *t, const struct rec *r, u32 k);
/* e out of its chain; its slot */
static inline u32 ift_unlink(struct ift *t, struct ift_hdr *e)
{
	u32 *l = &t->bucket[e->chain], i;

	while ((i = *l) && ift_entry(t, i) != e)
		l = &ift_entry(t, i)->next;
	*l = e->next;
	return i;
}
static inline void ift_del(struct ift *t, void *p)
{
	ift_free(t, p, ift_unlink(t, p));
}
int ift_move(struct ift *t, void *e, u32 dev, u64 sector);	/* -1: key taken, e freed */
void ift_drop(struct ift *t, void *e);	/* ift_del, not inline */
void *ift_slot(struct ift *t, u32 i);	/* slot 1..hwm in slot order; NULL: free */

/* match/dcpair.c: blkiomon's D/C pairing on an IFT_AGE_FIFO table of
 * struct dc_ent; note[] keeps "mismatch" and "aged out" records.  dc_pair
 * is inline (monitor's per-record path; as a call it cost ~12 % of the rate),
 * what is not per record is in dcpair.c. */
struct dc_rec { u64 time, sector; u32 dev, action, bytes; };
struct dc_ent {
	struct ift_hdr h;	/* key: device, sector, R/W/FS/PC class */
	u64 time;
	u32 action, bytes;
};
/* with notes on, each "mismatch" and "aged out" record waits in note[]
 * for the caller to take after its dc_pair (at most three a call) */
struct dc_note { const char *what; struct dc_rec r; };
struct dcpair {
	struct ift *t;
	int notes;		/* keep them (blkiomon -D) */
	u32 nnotes;
	struct dc_note note[DC_NOTES];
	unsigned long long match, mismatch, notes_lost;	/* aged: t->aged */
};
void dc_init(struct dcpair *p);	/* before the first dc_pair */
void dc_mismatch(struct dcpair *p, const struct dc_rec *old, const struct dc_rec *young);
#define DC_CLASS(action) ((action) & (TC(TC_WRITE) | TC(TC_READ) | TC(TC_FS) | TC(TC_PC)))
static inline void dc_rec_of(const struct dc_ent *e, struct dc_rec *r)
{
	*r = (struct dc_rec){ .time = e->time, .sector = e->h.sector, .dev = e->h.dev,
			      .action = e->action, .bytes = e->bytes };
}
/* r into its entry e (NULL: none to be had), for dc_store and dc_mismatch */
static inline __attribute__((always_inline)) void dc_fill(struct dc_ent *e, const struct dc_rec *r)
{
	if (e) {
		e->time = r->time;
		e->action = r->action;
		e->bytes = r->bytes;
		e->h.used += !!(r->action & TC(TC_ISSUE));	/* a D ages last */
	}
}
/* r waits for its partner */
static inline void dc_store(struct dcpair *p, const struct dc_rec *r)
{
	dc_fill(ift_add(p->t, r->dev, r->sector, DC_CLASS(r->action), r->time), r);
}
/* in meets its partner (same device, sector, class) or waits; 1: a D then
 * a C, set in d and c, counted in match.  A C waits too: its D can come
 * after it from another CPU's stream (network mode) and pairs by time;
 * so a bio-based dm device's Cs, which never find a D, wait until they
 * age out.  A full table ages Cs before Ds (h.used 2): a
 * slow request's D outlives a flood of them, as in blkiomon, which keeps
 * every record */
static inline int dc_pair(struct dcpair *p, const struct dc_rec *in, struct dc_rec *d, struct dc_rec *c)
{
	struct dc_ent *e = ift_find(p->t, in->dev, in->sector, DC_CLASS(in->action));
	struct dc_rec got;
	const struct dc_rec *old, *young;

	if (!e) {
		dc_store(p, in);
		return 0;
	}
	dc_rec_of(e, &got);
	ift_del(p->t, e);
	old = got.time < in->time ? &got : in;
	young = old == in ? &got : in;
	if ((old->action & TC(TC_ISSUE)) && (young->action & TC(TC_COMPLETE))) {
		p->match++;
		*d = *old;
		*c = *young;
		return 1;
	}
	dc_mismatch(p, old, young);
	return 0;
}

/* match/track.c: blkparse -t's requests on an IFT_AGE_FIFO table, keyed
 * by device index; full, the oldest is forgotten */
struct track {
	struct ift_hdr h;
	u64 alloc, queue, dispatch;
	u32 pid;
	/* queue and dispatch were set: 0 is a real time (a trace's first
	 * record, a pipe batch's restart), not "never seen"; reborn: made
	 * where a forgotten request may have been (blkparse's would hold its
	 * times and owner), | 2: one that had a G or an I, | 4: maybe
	 * another owner's */
	u8 queued, dispatched, reborn;
};
struct track *track_find(u32 dev, u64 sector);	/* NULL: none (a forgotten one's: counted) */
struct track *track_get(u32 dev, u64 sector, u32 pid);	/* found or made, an unnamed pid named */
#define track_del(t) ift_drop(track_table, (t))
int track_rekey(struct track *t, u64 sector);	/* -1: alias, entry dropped */
extern struct ift *const track_table;
extern unsigned long long track_met;	/* records that may print otherwise than blkparse's */
/* match/taghelper.c: iowatcher's tag-helper protocol */
#define TAG_UNTAGGED 0xffffffffu	/* the row of requests no helper claimed */
int tag_start(const char *cmd);		/* sh -c CMD; -1 said why */
int tag_record(const struct rec *r, u32 *tag);	/* *tag set when claimed; -1: helper failed */
const char *tag_label(u32 id);
int tag_stop(void);			/* EOF to it, its exit status said; 1: it failed */
int tag_active(void);

#endif
