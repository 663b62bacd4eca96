/* stats/bttrange.c: stats: btt's range data (NAME.dat): when Qs and Cs came, overall, per device and per process */
/* btt keeps a list of ranges for each, a new range when the gap from the
 * last one's end is -d SECS or more (0.1 s).  Here all the lists share
 * one pool, BTT_RANGES of them; the output walks the pool once a list,
 * taking its ranges in the order they were made. */
#include "stats/stats.h"

struct btt_range btt_ranges[BTT_RANGES] __attribute__((aligned(4096)));	/* (a page of its own, as bttseek.c's pools) */
u32 btt_nranges, btt_rtail[2];
u64 btt_range_gap = 100000000;	/* btt's -d 0.1 */
unsigned long long btt_range_dropped;

/* t joins list l's last range when at most btt_range_gap after its end
 * (before it: nothing); else a new range.  Past BTT_RANGES the last one
 * stretches, counted.  The common case inline, the rest a call. */
static void range_new(u32 *tail, u32 l, u64 t)
{
	struct btt_range *p = *tail ? &btt_ranges[*tail - 1] : NULL;
	int full = btt_nranges == BTT_RANGES;

	if (p && t < p->end)
		return;
	if (p && full) {
		btt_range_dropped++;
		p->end = t;
		return;
	}
	if (full) {
		btt_range_dropped++;
		return;
	}
	p = &btt_ranges[btt_nranges++];
	*p = (struct btt_range){ t, t, l };
	*tail = btt_nranges;
}

static inline __attribute__((always_inline)) void range_add(u32 *tail, u32 l, u64 t)
{
	struct btt_range *p;

	if (*tail && t - (p = &btt_ranges[*tail - 1])->end < btt_range_gap) {
		if (t > p->end)
			p->end = t;
	} else
		range_new(tail, l, t);
}

/* a Q (c 0) or C (c 1): all's, the device's and its process's ranges.
 * With one device its ranges are all's: made at the second's coming. */
HOTFN void btt_ranges_add(struct btt_dev *d, u32 proc, int c, u64 t)
{
	range_add(&btt_rtail[c], (u32)c, t);
	if (btt_ndevs > 1)
		range_add(&d->rtail[c], 2 + 2 * (u32)(d - btt_devs) + (u32)c, t);
	if (proc)
		range_add(&btt_procs[proc - 1].rtail[c], BTT_RL_PROC + 2 * (proc - 1) + (u32)c, t);
}

/* the second device came: the first one's ranges so far are all's */
void btt_ranges_split(void)
{
	u32 i, n = btt_nranges;

	for (i = 0; i < n; i++)
		if (btt_ranges[i].list < 2) {
			if (btt_nranges == BTT_RANGES) {
				btt_range_dropped++;
				continue;
			}
			btt_ranges[btt_nranges] = btt_ranges[i];
			btt_ranges[btt_nranges].list += 2;
			btt_devs[0].rtail[btt_ranges[i].list] = ++btt_nranges;
		}
}
