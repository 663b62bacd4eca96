/* match/track.c: match: blkparse -t requests in flight by (device, sector) */
/* In-flight request tracking for blkparse -t: a request is known by its
 * device and start sector from G/I until C.  blkparse keeps a red-black
 * tree per device; lookups are all exact, so a hash over a fixed pool does
 * the same work.  When the pool is full the new request goes untracked
 * (its lines print without timings) and is counted. */
#include "match/match.h"

static struct track pool[TRACK_MAX];
static u32 bucket[TRACK_HASH];	/* index + 1 */
static u32 free_head, used;
unsigned long long track_dropped;

static u32 hash(u32 dev, u64 sector)
{
	u64 h = (sector ^ (u64)dev << 40) * 0x9e3779b97f4a7c15ull;

	return (u32)(h >> 32) % TRACK_HASH;
}

struct track *track_find(u32 dev, u64 sector)
{
	u32 i;

	for (i = bucket[hash(dev, sector)]; i; i = pool[i - 1].next)
		if (pool[i - 1].sector == sector && pool[i - 1].dev == dev)
			return &pool[i - 1];
	return NULL;
}

static void link_in(struct track *t)
{
	u32 h = hash(t->dev, t->sector);

	t->next = bucket[h];
	bucket[h] = (u32)(t - pool) + 1;
}

static void unlink_out(struct track *t)
{
	u32 *p = &bucket[hash(t->dev, t->sector)];
	u32 me = (u32)(t - pool) + 1;

	while (*p != me)
		p = &pool[*p - 1].next;
	*p = t->next;
}

struct track *track_get(u32 dev, u64 sector, u32 pid)
{
	struct track *t = track_find(dev, sector);

	if (t)
		return t;
	if (free_head) {
		t = &pool[free_head - 1];
		free_head = t->next;
	} else if (used < TRACK_MAX)
		t = &pool[used++];
	else {
		track_dropped++;
		return NULL;
	}
	*t = (struct track){ .sector = sector, .pid = pid, .dev = (u16)dev };
	link_in(t);
	return t;
}

void track_del(struct track *t)
{
	unlink_out(t);
	t->next = free_head;
	free_head = (u32)(t - pool) + 1;
}

int track_rekey(struct track *t, u64 sector)
{
	unlink_out(t);
	if (track_find(t->dev, sector)) {
		/* blkparse drops the request on a sector alias; so do we */
		t->next = free_head;
		free_head = (u32)(t - pool) + 1;
		return -1;
	}
	t->sector = sector;
	link_in(t);
	return 0;
}
