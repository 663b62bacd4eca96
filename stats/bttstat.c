/* stats/bttstat.c: stats: btt's per-device figures (requests queued, issued, blocks completed) from a dump in time order */
/* btt (blktrace 1.2.0) keeps, per device, a tree of the queued requests
 * (Q) in flight, keyed by start sector.  A Q whose start sector is
 * already in flight is not linked and counts nowhere; a C removes every
 * Q inside its range.  The Qs in flight live here on the shared in-flight
 * table, keyed (device, start sector); a C walks its range Q by Q. */
#include "stats/stats.h"

struct btt_q {
	struct ift_hdr h;
	u32 len;		/* sectors */
};
#define BTT_KIND_Q 'Q'
IFT_POOL(bq, struct btt_q, BTT_REQS, BTT_REQS, IFT_DROP);

struct btt_dev btt_devs[BTT_DEVS];
u32 btt_ndevs;
unsigned long long btt_dev_dropped, btt_req_dropped;

/* the device's entry, made at its first event as btt makes its d_info */
static struct btt_dev *dev_of(u32 dev)
{
	u32 i;

	for (i = 0; i < btt_ndevs; i++)
		if (btt_devs[i].dev == dev)
			return &btt_devs[i];
	if (btt_ndevs == BTT_DEVS) {
		btt_dev_dropped++;
		return NULL;
	}
	btt_devs[btt_ndevs] = (struct btt_dev){ .dev = dev, .culling = 1 };
	return &btt_devs[btt_ndevs++];
}

static void queued(struct btt_dev *d, const struct rec *r)
{
	struct btt_q *q;

	if (ift_find(&bq, r->dev, r->sector, BTT_KIND_Q))
		return;		/* btt's tree refuses the same start sector */
	d->n_qs++;
	q = ift_add(&bq, r->dev, r->sector, BTT_KIND_Q, r->time);
	if (!q) {
		btt_req_dropped++;
		return;
	}
	q->len = r->bytes >> 9;
}

/* the Qs a C covers, [sector, sector + len), leave the tree */
static void completed(struct btt_dev *d, const struct rec *r)
{
	u64 s = r->sector, e = s + (r->bytes >> 9), blks = r->bytes >> 9;
	struct btt_q *q;

	if (!d->blk_n++)
		d->blk_min = d->blk_max = blks;
	else if (blks < d->blk_min)
		d->blk_min = blks;
	else if (blks > d->blk_max)
		d->blk_max = blks;
	d->blk_total += blks;
	while (s < e && (q = ift_find(&bq, r->dev, s, BTT_KIND_Q)) && s + q->len <= e) {
		s += q->len ? q->len : 1;
		ift_del(&bq, q);
	}
}

void btt_event(const struct rec *r)
{
	u32 a = ACT32(r), act = a & 0xffff;
	struct btt_dev *d;

	if (a & (TC(TC_NOTIFY) | TC(TC_PC)))
		return;
	if (act != TA_QUEUE && act != TA_REMAP && act != TA_INSERT && act != TA_BACKMERGE &&
	    act != TA_FRONTMERGE && act != TA_REQUEUE && act != TA_ISSUE && act != TA_COMPLETE)
		return;
	if (!r->bytes && (act == TA_QUEUE || act == TA_ISSUE || act == TA_COMPLETE))
		return;
	if (!(d = dev_of(r->dev)))
		return;
	if (d->culling) {	/* a device's figures start at its first Q or A */
		if (act != TA_QUEUE && act != TA_REMAP)
			return;
		d->culling = 0;
	}
	if (act == TA_QUEUE)
		queued(d, r);
	else if (act == TA_ISSUE)
		d->n_ds++;
	else if (act == TA_COMPLETE)
		completed(d, r);
}
