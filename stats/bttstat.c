/* stats/bttstat.c: stats: btt's per-device and overall figures (stage times, merge counts) from a dump in time order */
/* btt (blktrace 1.2.0) keeps, per device, the queued requests (Q) in
 * flight.  G, S, I and M find the Q holding their sector and stamp it; a
 * D stamps and a C completes (and drops) every Q inside its range.  A Q
 * that never completes whole (a split one) stays for the rest of the run,
 * as in btt.  Checked against btt's output: Qs with the same start sector
 * are all counted, but only the newest stays (in the older one's place in
 * btt's tree, stats/bttrb.c, which gives the order a D or C meets its Qs
 * in).  A G, S, I, M or remap finds its Q as btt's search does: down that
 * tree to the first Q holding its sector (not the newest of those that
 * do: a crafted dump in t-btt tells them apart).  The Qs live on the
 * shared in-flight table (match/inflight.c), BTT_REQS of them; past it a
 * Q is counted, not kept. */
#include "stats/stats.h"

#define UNSET (~(u64)0)
#define BIT(a) (1u << (a))
struct btt_q {
	struct ift_hdr h;
	u64 time, g, s, i, m, d;	/* UNSET (s: 0) until seen */
	u32 len;		/* sectors */
	u16 proc;		/* -A: its process + 1, or 0 */
};
/* what -p -P see of one (struct btt_qseen): time to len as they lie here */
_Static_assert(offsetof(struct btt_q, d) - offsetof(struct btt_q, time) == offsetof(struct btt_qview, d) &&
	       offsetof(struct btt_q, len) - offsetof(struct btt_q, time) == offsetof(struct btt_qview, len),
	       "struct btt_qview is struct btt_q from its time on");
/* slots of the shared table, unkeyed (ift_take): a Q is found by sector
 * in its device's tree, below, so hashing it and unlinking it from a
 * chain was 5% of btt's instructions for nothing */
IFT_POOL(bq, struct btt_q, BTT_REQS, 0, IFT_DROP);
static u32 hits[BTT_REQS];		/* each_q's matches */
static u32 hits_n = ~0u;		/* how many ev_more found for this D or C (each_q's then: the tree has not changed) */
static u64 floor_d;			/* btt_d_after's */

static u32 slot_of(const struct btt_q *q) { return (u32)(q - bq_pool) + 1; }
static struct btt_q *q_of(u32 slot) { return &bq_pool[slot - 1]; }	/* ift_entry, its size known */

struct btt_dev btt_devs[BTT_DEVS];
u32 btt_ndevs;
struct btt_avg btt_all[BTT_NAVG];
struct btt_live btt_live_all;
unsigned long long btt_dev_dropped, btt_req_dropped, btt_live_folds;
int btt_per_proc, btt_more;
static u64 last_q = UNSET;
struct btt_rate btt_rates[BTT_DEVS + 1];
int btt_lat_on, btt_pending;
struct btt_lat btt_lats[2 * BTT_REQS];
struct btt_rline btt_rlines[2];
u32 btt_nlats, btt_nrlines;
const struct btt_dev *btt_msg_dev;
int btt_ev_more, btt_opt_on, btt_opt_qs;
const struct btt_dev *btt_opt_dev;
u32 btt_opt_act, btt_nqseen;
struct btt_qseen btt_qseen[BTT_OPT_QS];
unsigned long long btt_opt_lost;
u32 btt_szhist[1025][2];

/* major 9 (md), 253 and 254 (device mapper): btt's "dm" figures */
int btt_remapper(u32 dev)
{
	u32 m = DEV_MAJOR(dev);

	return m == 9 || m == 253 || m == 254;
}

static struct btt_dev *last_dev;	/* the last one found: the next event's, mostly */

static __attribute__((noinline)) struct btt_dev *dev_find(u32 dev)
{
	u32 i;

	for (i = 0; i < btt_ndevs; i++)
		if (btt_devs[i].dev == dev)
			return last_dev = &btt_devs[i];
	return NULL;
}

const struct btt_dev *btt_dev_get(u32 dev)
{
	return last_dev && last_dev->dev == dev ? last_dev : dev_find(dev);
}

/* the device's entry, made at its first event as btt makes its d_info */
static struct btt_dev *dev_new(u32 dev, u64 time)
{
	struct btt_dev *d;

	if (btt_ndevs == BTT_DEVS) {
		btt_dev_dropped++;
		return NULL;
	}
	if (btt_ndevs == 1) {	/* from here on the overall busy tree is its own */
		btt_live_split();
		btt_ranges_split();
	}
	d = &btt_devs[btt_ndevs++];
	*d = (struct btt_dev){ .dev = dev, .culling = 1, .last_q = UNSET, .start = time, .dm = btt_remapper(dev),
			       .q2q.id = (u16)(2 * btt_ndevs - 2), .d2d.id = (u16)(2 * btt_ndevs - 1),
			       .live.id = BTT_LIVE_DEV + btt_ndevs - 1 };	/* bttseek.c's: device << 1 | tree */
	return d;
}

/* btt's TO_SEC: its times are __u64, so a time gone backwards (a dump of
 * a raw stream) is a difference near 2^64, 18446744073.7 s, not negative */
double btt_sec(u64 t)
{
	return (double)t / 1.0e9;
}

double btt_time(u64 t)
{
	return (double)(t / 1000000000) + (double)(t % 1000000000) / 1.0e9;
}

/* the time in seconds is made only when the plug changes (a division) */
void btt_unplug(struct btt_dev *d, u64 t, u64 nios, int timer)
{
	if (!d->plugged)
		return;
	if (timer) {
		d->nplugs_t++;
		d->nios_upt += nios;
	} else {
		d->nplugs++;
		d->nios_up += nios;
	}
	d->plugged = 0;
	d->plugged_time += btt_time(t) - d->last_plug;
}

/* plugs and unplugs: on known devices only, culled or not, not making
 * one and not moving its end */
static void plug(struct btt_dev *d, const struct rec *r, u32 act)
{
	if (act == TA_PLUG) {
		if (!d->plugged) {
			d->plugged = 1;
			d->last_plug = btt_time(r->time);
		}
	} else
		btt_unplug(d, r->time, r->pdu_len >= 8 ? be64_load(r->pdu) : 0, act == TA_UNPLUG_TIMER);
}

static void avg_add(struct btt_avg *a, u64 t)
{
	if (!a->n++)
		a->min = a->max = a->total = t;
	else {
		if (t < a->min)
			a->min = t;
		else if (t > a->max)
			a->max = t;
		a->total += t;
	}
}

/* The overall figures but Q2Q (its own sequence across devices) are the
 * devices' together, once, before the report: the same as adding each
 * figure twice, which cost a call a figure.  A device's extremes go in as
 * two figures, then the rest of its sum and count. */
void btt_all_fold(void)
{
	u32 i, k;

	if (btt_ndevs == 1)
		btt_live_all = btt_devs[0].live;
	for (i = 0; i < btt_ndevs; i++)
		for (k = 0; k < BTT_NAVG; k++) {
			const struct btt_avg *s = &btt_devs[i].avg[k];
			struct btt_avg *a = &btt_all[k];

			if (s->n && k != BTT_Q2Q && k != BTT_Q2Q_DM) {
				avg_add(a, s->min);
				avg_add(a, s->max);
				a->total += s->total - s->min - s->max;
				a->n += s->n - 2;
			}
		}
}

static u64 tdelta(u64 from, u64 to) { return from < to ? to - from : 1; }

/* a -z, -l or -q line for the driver */
static void lat(const struct btt_dev *d, u32 kind, u64 t, u64 l)
{
	btt_lats[btt_nlats++] = (struct btt_lat){ (u32)(d - btt_devs), kind, t, l };
	btt_pending = 1;
}

/* one figure, for the device and for the Q's process (overall: folded
 * from the devices' at the end, btt_all_fold) */
static void both(struct btt_dev *d, const struct btt_q *q, int which, u64 t)
{
	avg_add(&d->avg[which], t);
	if (btt_more)
		avg_add(&d->iv.avg[which], t);
	if (q->proc)
		avg_add(&btt_procs[q->proc - 1].avg[which], t);
}

/* beyond btt (--hist, the exports): t in a log2 bucket of microseconds */
static void hist(struct btt_dev *d, int k, u64 t)
{
	int i;

	if (!btt_more)
		return;
	i = hist_idx(t / 1000, BTT_HIST, 1);
	d->hist[k][i]++;
	d->iv.hist[k][i]++;
	d->hist_ns[k] += t;
}

/* btt's Q and D size buckets: 512 bytes each, the last all from 1024 on */
static void size_hist(const struct btt_dev *d, int k, u32 bytes)
{
	if (!d->dm && bytes >= 512)
		btt_szhist[bytes / 512 > 1024 ? 1024 : bytes / 512 - 1][k]++;
}

/* a C in second sec: its second's line goes out when a later one begins */
static void rate(u32 slot, s64 sec, u32 nblks)
{
	struct btt_rate *r = &btt_rates[slot];

	if (sec >= r->next) {
		if (r->ios) {
			btt_rlines[btt_nrlines++] = (struct btt_rline){ slot, r->sec, r->ios, r->blks };
			btt_pending = 1;
		}
		r->sec = sec, r->next = sec + 1;
		r->ios = r->blks = 0;
	}
	r->ios++;
	r->blks += nblks;
}

static void q2q(u64 *last, struct btt_avg *a, u64 t)
{
	if (*last != UNSET)
		avg_add(a, t > *last ? t - *last : 1);
	*last = t;
}

static void q_drop(struct btt_q *q)
{
	ift_give(&bq, q);
}

/* a Q's entry, and its node in the device's tree */
static void q_new(struct btt_dev *d, const struct rec *r, u32 proc, struct btt_q *q)
{
	u32 k;

	q->time = r->time;
	q->s = 0;
	q->g = q->i = q->m = q->d = UNSET;
	q->len = r->bytes >> 9;
	q->proc = btt_per_proc ? (u16)proc : 0;	/* -A's figures */
	/* at a start btt's tree holds: the older one is out of btt's sight */
	if ((k = btt_rb_ins((u32)(d - btt_devs), slot_of(q), r->sector, r->sector + q->len)))
		q_drop(q_of(k));
}

/* (the seek asked for first, counted last: bttseek.c) */
static void queued(struct btt_dev *d, const struct rec *r, u32 proc)
{
	struct btt_q *q;
	int dm = d->dm;

	btt_seek_add(&d->q2q, r->sector, r->bytes);
	q2q(&d->last_q, &d->avg[dm ? BTT_Q2Q_DM : BTT_Q2Q], r->time);
	q2q(&last_q, &btt_all[dm ? BTT_Q2Q_DM : BTT_Q2Q], r->time);
	if (btt_per_proc && proc)	/* (a Q the table has no room for too) */
		q2q(&btt_procs[proc - 1].last_q, &btt_procs[proc - 1].avg[dm ? BTT_Q2Q_DM : BTT_Q2Q], r->time);
	btt_ranges_add(d, proc, 0, r->time);
	size_hist(d, 0, r->bytes);
	if ((q = ift_take(&bq)))
		q_new(d, r, proc, q);
	else
		btt_req_dropped++;
	btt_seek_count(&d->q2q);
}

/* the Q holding sector, as btt finds it: down its device's tree */
static struct btt_q *q_at(const struct btt_dev *d, u64 sector)
{
	u32 k = btt_rb_at((u32)(d - btt_devs), sector);

	return k ? q_of(k) : NULL;
}

static void stamped(struct btt_dev *d, const struct rec *r, u32 act)
{
	struct btt_q *q = q_at(d, r->sector);

	if (!q)
		return;
	switch (act) {
	case TA_SLEEPRQ:
		q->s = r->time;
		break;
	case TA_GETRQ:
		q->g = r->time;
		both(d, q, BTT_Q2G, tdelta(q->time, r->time));
		if (q->s)
			both(d, q, BTT_S2G, tdelta(q->s, r->time));
		break;
	case TA_INSERT:
		q->i = r->time;
		if (q->g != UNSET)
			both(d, q, BTT_G2I, tdelta(q->g, r->time));
		break;
	default:		/* back and front merges */
		q->m = r->time;
		both(d, q, BTT_Q2M, tdelta(q->time, r->time));
	}
}

/* btt's Q2D buckets: whole milliseconds against 5, 10, 25, 50, 75, 100,
 * 250, 500 and 1000 */
static COLD int q2d_idx(u64 t)
{
	static const u16 lim[9] = { 5, 10, 25, 50, 75, 100, 250, 500, 1000 };
	double ms = btt_time(t) / 0.001;	/* truncated by btt: the same against whole limits */
	int i;

	for (i = 0; i < 9 && ms >= lim[i]; i++)
		;
	return i;
}

static void issued(struct btt_dev *d, struct btt_q *q, const struct rec *r)
{
	if (q->i != UNSET)
		both(d, q, BTT_I2D, tdelta(q->i, r->time));
	else if (q->m != UNSET)
		both(d, q, BTT_M2D, tdelta(q->m, r->time));
	q->d = r->time;
	if (r->time < floor_d)
		floor_d = r->time;
	hist(d, BTT_H_Q2D, tdelta(q->time, r->time));
	if (btt_per_proc)
		d->q2d[q2d_idx(r->time - q->time)]++;
	if (btt_lat_on)
		lat(d, BTT_LQ2D, r->time, r->time - q->time);
}

/* 1 when every Q waiting for its C was issued after t.  floor_d stays
 * at or below the earliest such D: looked for again only when t reaches
 * it (a D earlier than it, out of time order, lowers it at once) */
COLD int btt_d_after(u64 t)
{
	u32 i;

	if (t < floor_d)
		return 1;
	floor_d = UNSET;
	for (i = 1; i <= bq.hwm; i++)
		if (q_of(i)->h.used && q_of(i)->d < floor_d)
			floor_d = q_of(i)->d;
	return t < floor_d;
}

/* btt_d_after for the busy periods' early folds, which ask it after
 * a C: where a D still waiting holds the floor at or below t, the next
 * 63 calls past it say no without looking (a request that never
 * completes would hold it for good, and the look is through every slot;
 * the tree meanwhile grows by a node a C at most) */
static u32 d_wait;

int btt_d_after_lazy(u64 t)
{
	if (t < floor_d)
		return 1;
	if (d_wait) {
		d_wait--;
		return 0;
	}
	if (btt_d_after(t))
		return 1;
	d_wait = 63;
	return 0;
}

static void completed(struct btt_dev *d, struct btt_q *q, const struct rec *r)
{
	both(d, q, d->dm ? BTT_Q2C_DM : BTT_Q2C, tdelta(q->time, r->time));
	if (q->g != UNSET)
		d->q2g_done += tdelta(q->time, q->g);
	hist(d, BTT_H_Q2C, tdelta(q->time, r->time));
	if (btt_lat_on)
		lat(d, BTT_LQ2C, q->time, tdelta(q->time, r->time));
	if (q->d != UNSET) {
		hist(d, BTT_H_D2C, tdelta(q->d, r->time));
		btt_live_add(&d->live, q->d, r->time);
		if (btt_ndevs > 1)	/* one device: the same tree, copied at the end */
			btt_live_add(&btt_live_all, q->d, r->time);
		both(d, q, BTT_D2C, tdelta(q->d, r->time));
		if (btt_ios_on)
			btt_ios_done((u32)(d - btt_devs), q->i != UNSET ? q->i : q->m, q->time, r->time, q->g != UNSET);
		if (btt_lat_on)
			lat(d, BTT_LD2C, r->time, tdelta(q->d, r->time));
	}
	btt_rb_del((u32)(d - btt_devs), slot_of(q));
	q_drop(q);
}

/* -I's counts; the option files' view of a linked record (btt_opt_dev),
 * and for -p, -P each Q a D or C meets, kept before any is stamped or
 * dropped */
static HOTFN __attribute__((noinline)) void ev_more(struct btt_dev *d, const struct rec *r, u32 act)
{
	u32 k, n;

	if (btt_ios_on && (BIT(act) & (BIT(TA_GETRQ) | BIT(TA_BACKMERGE) | BIT(TA_FRONTMERGE) | BIT(TA_ISSUE))))
		btt_ios_event((u32)(d - btt_devs), r, act);
	if (!btt_opt_on)
		return;
	btt_opt_dev = d, btt_opt_act = act;
	if (!btt_opt_qs || (act != TA_ISSUE && act != TA_COMPLETE))
		return;
	hits_n = n = btt_rb_within((u32)(d - btt_devs), r->sector, r->sector + (r->bytes >> 9), hits);
	for (k = 0; k < n; k++)
		if (btt_nqseen < BTT_OPT_QS)
			btt_qseen[btt_nqseen++] = (struct btt_qseen){ hits[k], btt_rb_start(hits[k]),
								       *(const struct btt_qview *)&q_of(hits[k])->time };
		else
			btt_opt_lost++;
}

/* every Q inside a D or C's range [sector, sector + len), issued or
 * completed (direct calls: through a pointer, D and C in turn missed) */
static void each_q(struct btt_dev *d, const struct rec *r, int done)
{
	u32 k, n = hits_n != ~0u ? hits_n : btt_rb_within((u32)(d - btt_devs), r->sector, r->sector + (r->bytes >> 9), hits);

	hits_n = ~0u;
	for (k = 0; k < n; k++)	/* it may complete (drop) its Q */
		if (done)
			completed(d, q_of(hits[k]), r);
		else
			issued(d, q_of(hits[k]), r);
}

static void blocks(struct btt_dev *d, const struct rec *r)
{
	avg_add(&d->blks, r->bytes >> 9);
}

/* a remap: the Q on the device it came from, by the sector it had there */
static void remapped(const struct rec *r)
{
	struct btt_dev *from;
	struct btt_q *q;

	if (r->pdu_len < 16)
		return;
	from = dev_find(be32_load(r->pdu));
	if (!from || !(q = q_at(from, be64_load(r->pdu + 8))))
		return;
	both(from, q, from->dm ? BTT_Q2A_DM : BTT_Q2A, tdelta(q->time, r->time));
}

/* A D: its seek, its size, the Qs it covers (the seek asked for first,
 * counted last: bttseek.c) */
static void dispatched(struct btt_dev *d, const struct rec *r)
{
	d->n_ds++;
	btt_seek_add(&d->d2d, r->sector, r->bytes);
	d->n_act_q -= d->n_act_q != 0;
	size_hist(d, 1, r->bytes);
	each_q(d, r, 0);
	btt_seek_count(&d->d2d);
}

void btt_event(const struct rec *r)
{
	u32 a = ACT32(r), act = a & 0xffff, proc;
	int msg = (u32)r->action == TN_MESSAGE;	/* on its device (made as btt makes it) once that counts */
	struct btt_dev *d;
	static u64 last_t;
	btt_live_rec();	/* (BTT_PERIODS_SAY's) */
	if (!(d = last_dev) || d->dev != r->dev)
		d = dev_find(r->dev);
	if (a & (TC(TC_NOTIFY) | TC(TC_PC))) {
		if ((u32)r->action == TN_PROCESS)
			proc_add(r->pid, r->pdu, r->pdu_len);
		if (!msg)
			return;
	} else {
		btt_unordered |= r->time < last_t;	/* (bttrb.c's early folds stop) */
		last_t = r->time;
		if (btt_ios_on)
			btt_ios_time(r->time);
		switch (act) {	/* plugs, the kinds btt takes, the rest (a jump table, Makefile) */
		case TA_PLUG: case TA_UNPLUG_IO: case TA_UNPLUG_TIMER:
			if (d)
				plug(d, r, act);
			return;
		case TA_QUEUE: case TA_INSERT: case TA_BACKMERGE: case TA_FRONTMERGE: case TA_ISSUE:
		case TA_COMPLETE: case TA_GETRQ: case TA_SLEEPRQ:
			if (!r->bytes)
				return;
			/* fall through */
		case TA_REMAP: case TA_REQUEUE:
			break;
		default:
			return;
		}
	}
	if (!d && !(d = dev_new(r->dev, r->time)))
		return;
	if (d->culling) {	/* a device's figures start at its first Q or A */
		if (!(BIT(act) & (BIT(TA_QUEUE) | BIT(TA_REMAP))))
			return;
		d->culling = 0;
	}
	d->end = r->time;
	proc = btt_proc_at(r->pid);	/* btt names a process at each event it links */
	btt_proc_dropped += !proc;	/* past BTT_PROCS names */
	if (msg) {
		btt_msg_dev = d;
		return;
	}
	if (btt_ev_more)	/* -I, the option files */
		ev_more(d, r, act);
	switch (act) {
	case TA_QUEUE:
		queued(d, r, proc);
		/* fall through */
	case TA_REQUEUE:	/* #Q and Avg Reqs @ Q count it as a Q (btt's handle_requeue) */
		d->n_qs++;
		d->t_act_q += d->n_act_q++;
		break;
	case TA_REMAP: remapped(r); break;
	case TA_ISSUE: dispatched(d, r); break;
	case TA_COMPLETE:
		blocks(d, r);
		btt_ranges_add(d, proc, 1, r->time);
		{
			s64 sec = (s64)(r->time / 1000000000);	/* btt_time's whole seconds */

			rate(0, sec, r->bytes >> 9);
			rate((u32)(d - btt_devs) + 1, sec, r->bytes >> 9);
		}
		each_q(d, r, 1);
		break;
	case TA_BACKMERGE:
	case TA_FRONTMERGE:
		d->n_act_q -= d->n_act_q != 0;	/* found or not */
		/* fall through */
	default: stamped(d, r, act);
	}
}
