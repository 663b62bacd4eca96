/* stats/latstat.c: stats: biolatency's histograms: D (or Q) to C by device and sector, log2 and log-linear buckets */
/* A request's latency is issue (D) to completion (C), or with -Q queue
 * (Q) to completion, matched by (device, sector) in a fixed in-flight
 * table; a requeue (R) forgets the issue.  Buckets as BCC's bpf_log2l:
 * slot 1 holds 0 and 1, slot i (i > 1) holds 2^(i-1)..2^i-1.  -P's
 * buckets are log-linear, LAT_PSUB to a power of two: a bucket's middle
 * is within 1/128 of any value in it.
 */
#include <string.h>
#include "stats/stats.h"

struct lreq {
	struct ift_hdr h;
	u32 pid, flags;		/* pid first: ift_start's */
	u64 t;
};
_Static_assert(offsetof(struct lreq, pid) == sizeof(struct ift_hdr), "ift_start: the starter's pid first");
IFT_POOL(lreqs, struct lreq, LAT_REQS, LAT_HASH, IFT_AGE_NEAR);
struct latstat lats;

/* flags as BCC's -F names them, from the request's RWBS bits */
static u32 flags_of(u32 a, u32 bytes)
{
	u32 f;

	if (a & TC(TC_DISCARD))
		f = 3;
	else if (a & TC(TC_WRITE))
		f = 1;
	else if ((a & TC(TC_FLUSH)) && !bytes)
		f = 2;
	else
		f = 0;
	if (a & TC(TC_SYNC))
		f |= LATF_SYNC;
	if (a & TC(TC_META))
		f |= LATF_META;
	if (a & TC(TC_FUA))
		f |= LATF_FUA;
	if ((a & TC(TC_FLUSH)) && LAT_OP(f) != 2)
		f |= LATF_PREFLUSH;
	if (a & TC(TC_AHEAD))
		f |= LATF_AHEAD;
	return f;
}

static int slot_of(u64 v)
{
	return v < 2 ? 1 : 64 - __builtin_clzll(v);
}

static u32 pbucket(u64 v)
{
	u32 e;

	if (v < 2 * LAT_PSUB)
		return (u32)v;
	e = 63 - (u32)__builtin_clzll(v);	/* >= 7 */
	if (e > 47)
		return LAT_PBUCKETS - 1;
	return 2 * LAT_PSUB + (e - 7) * LAT_PSUB + (u32)((v >> (e - 6)) & (LAT_PSUB - 1));
}

/* the middle of bucket i, in ns */
u64 lat_pvalue(u32 i)
{
	u32 e;
	u64 lo, w;

	if (i < 2 * LAT_PSUB)
		return i;
	e = (i - 2 * LAT_PSUB) / LAT_PSUB + 7;
	w = (u64)1 << (e - 6);
	lo = ((u64)1 << e) + (u64)((i - 2 * LAT_PSUB) % LAT_PSUB) * w;
	return lo + w / 2;
}

static void account(u32 dev, u32 flags, u64 ns)
{
	u64 v = ns / (lats.ms ? 1000000u : 1000u);
	u32 key = lats.disks ? dev : lats.flags ? flags : 0, i;

	for (i = 0; i < lats.nhist && lats.hist[i].key != key; i++)
		;
	if (i == lats.nhist) {
		if (lats.nhist == LAT_HISTS) {
			lats.lost++;
			return;
		}
		memset(&lats.hist[lats.nhist], 0, sizeof(lats.hist[0]));
		lats.hist[lats.nhist++].key = key;
	}
	lats.hist[i].slot[slot_of(v)]++;
	lats.total += ns;
	lats.n++;
	if (!lats.pct)
		return;
	for (i = 0; i < lats.npser && !(lats.ps[i].dev == dev && lats.ps[i].op == LAT_OP(flags)); i++)
		;
	if (i == lats.npser) {
		if (lats.npser == LAT_PSERIES) {
			lats.lost++;
			return;
		}
		memset(&lats.ps[lats.npser], 0, sizeof(lats.ps[0]));
		lats.ps[lats.npser].dev = dev;
		lats.ps[lats.npser++].op = LAT_OP(flags);
	}
	lats.ps[i].n++;
	if (ns > lats.ps[i].max)
		lats.ps[i].max = ns;
	lats.ps[i].b[pbucket(ns)]++;
}

unsigned long long lat_aged(void)
{
	return lreqs.aged;
}

void lat_clear(void)
{
	lats.nhist = lats.npser = 0;
	lats.total = lats.n = 0;
}

/* Two requests in flight at one sector at once (two readers of one
 * block) are two to biolatency, which keys a request by its address:
 * the second is kept beside the first, as kind | 2.  A record goes to the
 * one of its own kind (read, write, discard) when only one of them is (a
 * discard's C is not a read's: brd's read never completes at its start,
 * and mke2fs's discards come at that sector next), then to the one its
 * process started when only one of them is its (a bio-based device
 * completes in the submitter's context: fixtures/sameblock), else to the
 * older (by its start), or for a merged bio the newer. */
static struct lreq *pick(const struct rec *r, u32 k, int newer)
{
	struct lreq *q = ift_look(&lreqs, r->dev, r->sector, k), *o = ift_look(&lreqs, r->dev, r->sector, k | 2);
	u32 op;

	if (!q || !o)
		return q ? q : o;
	op = LAT_OP(flags_of(ACT32(r), r->bytes));
	if ((LAT_OP(q->flags) == op) != (LAT_OP(o->flags) == op))
		return LAT_OP(q->flags) == op ? q : o;
	if ((q->pid == r->pid) != (o->pid == r->pid))
		return q->pid == r->pid ? q : o;
	return (o->t < q->t) != newer ? o : q;
}

void lat_event(const struct rec *r)
{
	u32 a = ACT32(r), op = a & 0xffff, k = !r->bytes;
	struct lreq *q;

	rec_seq(r);
	/* k: a request without a size (a flush) is kept apart from one with
	 * a size at its sector; a flush's completions are not the write's */
	if (op == (lats.queued ? TA_QUEUE : TA_ISSUE)) {
		if ((q = ift_start(&lreqs, r, k))) {
			q->t = r->time;
			q->flags = flags_of(a, r->bytes);
			q->pid = r->pid;
		}
	} else if (op == TA_ISSUE && lats.queued) {
		if ((q = pick(r, k, 0)))
			q->flags = flags_of(a, r->bytes);	/* the request's own flags */
	} else if (op == TA_BACKMERGE && lats.queued) {
		if ((q = pick(r, k, 1)))
			ift_drop(&lreqs, q);
	} else if (op == TA_FRONTMERGE && lats.queued) {
		/* the request now starts at this bio's sector, its time stays */
		struct lreq *old = ift_look(&lreqs, r->dev, r->sector + (r->bytes >> 9), k), keep;

		if (old && (q = ift_look(&lreqs, r->dev, r->sector, k))) {
			keep = *old;
			ift_drop(&lreqs, old);
			q->t = keep.t;
		} else if (old)
			ift_move(&lreqs, old, r->dev, r->sector);
	} else if (op == TA_REQUEUE && !lats.queued) {
		if ((q = pick(r, k, 0)))
			ift_drop(&lreqs, q);
	} else if (op == TA_COMPLETE) {
		fail_note(r);
		if ((q = pick(r, k, 0))) {
			account(r->dev, q->flags, r->time > q->t ? r->time - q->t : 0);
			ift_drop(&lreqs, q);
		}
	}
}
