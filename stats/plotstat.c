/* stats/plotstat.c: stats: plot's figures, binned by time as records stream in (per device: offsets, bytes, IOPS, D2C, Q2C, depth) */
/* Memory is fixed whatever the trace's length: PLOT_BINS columns of time
 * and PLOT_ROWS rows of offset per device.  When a record falls past the
 * last column the columns pair up (each twice as wide); when a sector
 * falls past the last row, that device's rows do.  A request is matched
 * from Q (or D) to C on the shared in-flight table (match/inflight.c);
 * past PLOT_REQS in flight the oldest is given up, and counted.  Each device's time
 * starts at its first record, so traces of different runs overlay. */
#include <string.h>
#include "stats/stats.h"

struct plot_req {
	struct ift_hdr h;
	u64 q, d;		/* times + 1; 0: not seen */
	u8 proc, dir;
};
/* a request never completed (its C lost) must not hold a slot for the
 * rest of the run: past PLOT_REQS in flight the oldest goes */
IFT_POOL(preq, struct plot_req, PLOT_REQS, 2 * PLOT_REQS, IFT_AGE_FIFO);

struct plot_dev plot_devs[PLOT_SERIES];
u32 plot_ndevs, plot_nprocs, plot_used;	/* plot_used: columns reached */
u64 plot_bin_ns = PLOT_BIN_NS, plot_from, plot_to = ~(u64)0;
int plot_by_proc;
char plot_procs[PLOT_PROCS][16];
unsigned long long plot_dropped_devs;

static struct plot_dev *dev_of(u32 dev, u64 t)
{
	u32 i;

	for (i = 0; i < plot_ndevs; i++)
		if (plot_devs[i].dev == dev)
			return &plot_devs[i];
	if (plot_ndevs == PLOT_SERIES) {
		plot_dropped_devs++;
		return NULL;
	}
	plot_devs[plot_ndevs].dev = dev;
	plot_devs[plot_ndevs].t0 = t;
	return &plot_devs[plot_ndevs++];
}

/* two cells as one: reads and writes both kept, the first process */
static u8 cell_join(u8 x, u8 y)
{
	return x >> 2 ? x | (y & 3) : x | y;
}

/* every device's columns pair up: each covers twice the time */
static void widen(void)
{
	u32 i, b, k, r;

	for (i = 0; i < plot_ndevs; i++) {
		struct plot_dev *d = &plot_devs[i];

		for (b = 0; b < PLOT_BINS / 2; b++) {
			u64 *o = d->bin[b], *x = d->bin[2 * b], *y = d->bin[2 * b + 1];

			for (k = 0; k < PB_N; k++)
				o[k] = x[k] + y[k];
			for (r = 0; r < PLOT_ROWS; r++)
				d->cell[b][r] = cell_join(d->cell[2 * b][r], d->cell[2 * b + 1][r]);
		}
		memset(d->bin[PLOT_BINS / 2], 0, sizeof(d->bin) / 2);
		memset(d->cell[PLOT_BINS / 2], 0, sizeof(d->cell) / 2);
	}
	plot_bin_ns *= 2;
	plot_used = (plot_used + 1) / 2;
}

/* a device's rows pair up: each covers twice the sectors */
static void deepen(struct plot_dev *d)
{
	u32 b, r;

	for (b = 0; b < PLOT_BINS; b++) {
		for (r = 0; r < PLOT_ROWS / 2; r++)
			d->cell[b][r] = cell_join(d->cell[b][2 * r], d->cell[b][2 * r + 1]);
		memset(d->cell[b] + PLOT_ROWS / 2, 0, PLOT_ROWS / 2);
	}
	d->shift++;
}

/* the columns reach span ns from the start (widening as needed); the
 * column there.  -x MIN:MAX calls it for MAX - MIN at the end, so the
 * axis covers the range whatever the records reached. */
u32 plot_cover(u64 span)
{
	u32 c;

	while (span / plot_bin_ns >= PLOT_BINS)
		widen();
	c = (u32)(span / plot_bin_ns);
	if (c >= plot_used)
		plot_used = c + 1;
	return c;
}

/* the column of time t on d; -1: outside -x */
static int col(const struct plot_dev *d, u64 t)
{
	u64 rel = t - d->t0;

	if (rel < plot_from || rel > plot_to)
		return -1;
	return (int)plot_cover(rel - plot_from);
}

/* requests given up in flight (PLOT_REQS newer ones came) */
unsigned long long plot_given_up(void)
{
	return preq.aged;
}

/* -P: a process's colour, by name (the first PLOT_PROCS; 0: the rest) */
static u8 proc_of(u32 pid)
{
	const char *n = proc_name(pid);
	u32 i;

	if (!plot_by_proc || !n)
		return 0;
	for (i = 0; i < plot_nprocs; i++)
		if (!strcmp(plot_procs[i], n))
			return (u8)(i + 1);
	if (plot_nprocs == PLOT_PROCS)
		return 0;
	memcpy(plot_procs[plot_nprocs], n, 16);
	return (u8)++plot_nprocs;
}

/* the queue depth (issued, not completed) integrated over time */
static void depth(struct plot_dev *d, u64 *bin, u64 t, int delta)
{
	if (d->last_t && t > d->last_t)
		bin[PB_QD] += d->depth * (t - d->last_t);
	d->last_t = t;
	if (delta > 0 || d->depth)
		d->depth += (u64)delta;
}

static void issued(struct plot_dev *d, struct plot_req *q, const struct rec *r, int c)
{
	u64 row = r->sector >> d->shift;

	while (row >= PLOT_ROWS) {
		deepen(d);
		row >>= 1;
	}
	d->cell[c][row] = cell_join(d->cell[c][row], (u8)((q->dir + 1u) | (u32)q->proc << 2));
	q->d = r->time + 1;
	depth(d, d->bin[c], r->time, 1);
}

static void completed(struct plot_dev *d, struct plot_req *q, const struct rec *r, int c)
{
	u64 *b = d->bin[c];

	b[q->dir ? PB_WB : PB_RB] += r->bytes;
	b[q->dir ? PB_WN : PB_RN]++;
	if (q->d) {
		b[PB_D2C] += r->time + 1 - q->d;
		b[PB_D2CN]++;
		b[PB_HEAT + hist_idx((r->time + 1 - q->d) / 1000, PLOT_LAT, 1)]++;
		depth(d, b, r->time, -1);
	}
	if (q->q) {
		b[PB_Q2C] += r->time + 1 - q->q;
		b[PB_Q2CN]++;
	}
	ift_del(&preq, q);
}

void plot_event(const struct rec *r)
{
	u32 a = ACT32(r), act = a & 0xffff;
	struct plot_dev *d;
	struct plot_req *q;
	int c;

	if ((u32)r->action == TN_PROCESS) {
		proc_add(r->pid, r->pdu, r->pdu_len);
		return;
	}
	if ((a & (TC(TC_NOTIFY) | TC(TC_PC))) || (act != TA_QUEUE && act != TA_ISSUE && act != TA_COMPLETE) ||
	    !r->bytes || !(d = dev_of(r->dev, r->time)) || (c = col(d, r->time)) < 0)
		return;
	if (act == TA_COMPLETE) {
		if ((q = ift_find(&preq, r->dev, r->sector, 'R')))
			completed(d, q, r, c);
		return;
	}
	if (!(q = ift_get(&preq, r->dev, r->sector, 'R', r->time)))
		return;
	if (!q->q && !q->d) {	/* new */
		q->dir = (a & TC(TC_WRITE)) != 0;
		q->proc = proc_of(r->pid);
	}
	if (act == TA_QUEUE)
		q->q = r->time + 1;
	else
		issued(d, q, r, c);
}
