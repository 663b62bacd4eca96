/* match/track.c: match: blkparse -t's requests in flight, on an IFT_DROP table */
/* blkparse keeps a red-black tree per device; lookups are all exact, so the
 * in-flight table does the same work.  Keyed by device index.  When the pool
 * is full the new request goes untracked (its lines print without timings)
 * and is counted (track_dropped). */
#include "match/match.h"

IFT_POOL(tracks, struct track, TRACK_MAX, TRACK_HASH, IFT_DROP);
struct ift *const track_table = &tracks;

struct track *track_find(u32 dev, u64 sector)
{
	return ift_find(track_table, dev, sector, 0);
}

struct track *track_get(u32 dev, u64 sector, u32 pid)
{
	struct track *t = track_find(dev, sector);

	if (!t && (t = ift_put(track_table, dev, sector, 0, 0)))
		t->pid = pid;
	return t;
}

void track_del(struct track *t)
{
	ift_del(track_table, t);
}

/* blkparse drops the request on a sector alias; so do we */
int track_rekey(struct track *t, u64 sector)
{
	return ift_move(track_table, t, t->h.dev, sector);
}
