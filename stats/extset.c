/* stats/extset.c: stats: sets of written sectors as sorted extents in a fixed pool, coarsened to bigger chunks when it fills */
/* An extent set: the sectors a device had written (extents, copy),
 * kept as sorted, disjoint, non-touching [start, end) ranges in units
 * of chunk sectors.  When the pool is full the chunk doubles: every
 * range is rounded out to it and neighbours merged, so no written
 * sector is ever dropped, only more around it is claimed.
 */
#include <string.h>
#include "stats/stats.h"

/* the first range whose end reaches s (touching counts) */
static u32 first_from(const struct extset *x, u64 s)
{
	u32 lo = 0, hi = x->n;

	while (lo < hi) {
		u32 m = (lo + hi) / 2;

		if (x->e[m].end < s)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

/* the chunk doubled until the pool is at most three quarters full */
static void coarsen(struct extset *x)
{
	do {
		u32 i, k = 0;
		u64 c = x->chunk *= 2;

		for (i = 0; i < x->n; i++) {
			u64 s = x->e[i].start & ~(c - 1), e = (x->e[i].end + c - 1) & ~(c - 1);

			if (k && x->e[k - 1].end >= s)
				x->e[k - 1].end = e;
			else
				x->e[k].start = s, x->e[k++].end = e;
		}
		x->n = k;
		x->coarsened++;
	} while (x->n > x->cap / 4 * 3);
}

void ext_add(struct extset *x, u64 sector, u64 n)
{
	u64 s, e;
	u32 i, j;

	if (!n)
		return;
	if (sector + n < sector)
		n = ~0ull - sector;
	for (;;) {
		s = sector & ~(x->chunk - 1);
		e = (sector + n + x->chunk - 1) & ~(x->chunk - 1);
		if (e < s)
			e = ~0ull & ~(x->chunk - 1);
		i = first_from(x, s);
		for (j = i; j < x->n && x->e[j].start <= e; j++)
			;
		if (j > i) {	/* merged into e[i], e[i+1..j-1] gone */
			if (x->e[i].start > s)
				x->e[i].start = s;
			if (x->e[j - 1].end > e)
				e = x->e[j - 1].end;
			x->e[i].end = e;
			memmove(&x->e[i + 1], &x->e[j], (x->n - j) * sizeof(x->e[0]));
			x->n -= j - i - 1;
			return;
		}
		if (x->n < x->cap)
			break;
		coarsen(x);
	}
	memmove(&x->e[i + 1], &x->e[i], (x->n - i) * sizeof(x->e[0]));
	x->e[i].start = s, x->e[i].end = e;
	x->n++;
}

void ext_init(struct extset *x, struct ext *pool, u32 cap, u64 chunk)
{
	x->e = pool, x->cap = cap, x->chunk = chunk ? chunk : 1;
	x->n = 0, x->coarsened = 0, x->unknown = NULL;
}

u64 ext_sectors(const struct extset *x)
{
	u64 t = 0;
	u32 i;

	for (i = 0; i < x->n; i++)
		t += x->e[i].end - x->e[i].start;
	return t;
}

/* What r does to a device's data: 1 it writes r->bytes at r->sector (a
 * write, discard or write-zeroes), -1 it changes sectors the record does
 * not bound (a zone reset), 0 nothing.  at: the action counted (Q, or
 * also C for a copier, whose writes are only on the device once done). */
int ext_kind(const struct rec *r, u32 at, u32 at2)
{
	u32 a = ACT32(r), act = a & 0xffff;

	if ((a & (TC(TC_NOTIFY) | TC(TC_PC))) || (act != at && act != at2))
		return 0;
	if (r->action & (TC2(TC2_ZONE_RESET) | TC2(TC2_ZONE_RESET_ALL) | TC2(TC2_ZONE_FINISH)))
		return -1;
	return r->bytes && (a & (TC(TC_WRITE) | TC(TC_DISCARD)));
}
