/* match/track.c: match: blkparse -t's requests in flight, on an IFT_AGE_FIFO table; when full, the oldest forgotten, and what that may change counted */
/* blkparse keeps a red-black tree per device; lookups are all exact, so the
 * in-flight table does the same work.  Keyed by device index.
 *
 * blkparse frees a request only at a C at its sector, so a request that
 * never completes there (a Q back-merged into another request, on a major
 * it takes for dm or md) stays in its tree for good, and its times and
 * owner come back when its sector does (a device rewritten or read back:
 * a real null_blk capture on major 253, dd's writes then reads).  iomon
 * keeps them too, and forgets the oldest when the pool is full.  A
 * forgotten key is marked in a
 * byte map never cleared, so no forgotten key is missed (a few others may
 * be taken for one), and each record that might print otherwise than had
 * it been kept is counted in track_met: 0 proves the text is blkparse's. */
#include "match/match.h"

unsigned long long track_met;
static u8 gone[TRACK_GONE];	/* 1: a forgotten request's key, | 2: it had a G or an I */
static u32 gone_devs;	/* devices (% 32) that forgot one */
static u32 gone_pid;	/* the owner + 1 of every one forgotten, if one; */
static u8 gone_pids;	/* else 1 */

static u32 dev_bit(u32 dev)
{
	return 1u << dev % 32;
}

static u32 gone_bit(u32 dev, u64 sector)
{
	return (u32)(((sector ^ (u64)dev << 40) * 0x9e3779b97f4a7c15ull) >> (64 - __builtin_ctz(TRACK_GONE)));
}

static void forget(void *ctx, void *e)
{
	struct track *t = e;
	u32 b = gone_bit(t->h.dev, t->h.sector);

	(void)ctx;
	gone[b] |= (u8)(1 | ((t->alloc | t->queued) != 0) << 1);
	gone_devs |= dev_bit(t->h.dev);
	gone_pids |= gone_pid && gone_pid != t->pid + 1;
	gone_pid = t->pid + 1;
}

IFT_POOL_EV(tracks, struct track, TRACK_MAX, TRACK_HASH, IFT_AGE_FIFO, forget);
struct ift *const track_table = &tracks;

/* a forgotten request may have had this key: 1, 3 if it had a G or an I */
static int gone_key(u32 dev, u64 sector)
{
	u32 b = gone_bit(dev, sector);

	return gone_devs & dev_bit(dev) ? gone[b] : 0;
}

/* a lookup that is not to make one: a miss may be a forgotten one's */
struct track *track_find(u32 dev, u64 sector)
{
	struct track *t = ift_look(track_table, dev, sector, 0);

	if (!t)
		track_met += (unsigned)gone_key(dev, sector) & 1;
	return t;
}

/* blkparse's find_track: found, or made (an unnamed pid is then named
 * "unknown", which blkparse's kept request would not have done) */
struct track *track_get(u32 dev, u64 sector, u32 pid)
{
	struct track *t = ift_look(track_table, dev, sector, 0);

	if (t)
		return t;
	if ((t = ift_put(track_table, dev, sector, 0, 0))) {
		t->pid = pid;
		/* | 4: blkparse's may have another owner */
		if ((t->reborn = (u8)gone_key(dev, sector)) && (gone_pids || gone_pid != pid + 1))
			t->reborn |= 4;
		if (!proc_name(pid)) {
			track_met += t->reborn & 1;
			proc_add(pid, (const u8 *)"unknown", 8);
		}
	}
	return t;
}

/* blkparse drops the request on a sector alias; so do we (and a forgotten
 * one may have been there) */
int track_rekey(struct track *t, u64 sector)
{
	track_met += (unsigned)gone_key(t->h.dev, sector) & 1;
	return ift_move(track_table, t, t->h.dev, sector);
}
