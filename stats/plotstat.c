/* stats/plotstat.c: stats: plot's figures, binned by time as records stream in (per device: offsets, bytes, IOPS, D2C, Q2C, depth), the CPUs' from /proc/stat */
/* Memory is fixed whatever the trace's length: PLOT_BINS columns of time
 * and PLOT_ROWS rows of offset per device.  When a record falls past the
 * last column the columns pair up (each twice as wide); when a sector
 * falls past the last row, that device's rows do.  A request is matched
 * from Q (or D) to C on the shared in-flight table (match/inflight.c);
 * past PLOT_REQS in flight the oldest goes, counted if it was issued.  Each device's time
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
u32 plot_ndevs, plot_nprocs, plot_used, plot_act = TA_ISSUE, plot_in;	/* plot_used: columns reached */
u64 plot_bin_ns = PLOT_BIN_NS, plot_from, plot_to = ~(u64)0, plot_ylo, plot_yhi = ~(u64)0;
int plot_by_proc;
char plot_procs[PLOT_PROCS][16];
unsigned long long plot_dropped_devs;

static void evicted(void *ctx, void *e);

static struct plot_dev *dev_of(u32 dev, u64 t)
{
	u32 i;

	for (i = 0; i < plot_ndevs; i++)
		if (plot_devs[i].dev == dev && plot_devs[i].in == plot_in)
			return &plot_devs[i];
	if (plot_ndevs == PLOT_SERIES) {
		plot_dropped_devs++;
		return NULL;
	}
	preq.evict = evicted;
	plot_devs[plot_ndevs].dev = dev;
	plot_devs[plot_ndevs].in = plot_in;
	plot_devs[plot_ndevs].t0 = t;
	return &plot_devs[plot_ndevs++];
}

/* two cells as one: the reads' and the writes' counts added (at most 15
 * each), the first process kept */
static u16 cell_join(u16 x, u16 y)
{
	u32 r = (x & 15u) + (y & 15u), w = (x >> 4 & 15u) + (y >> 4 & 15u);

	return (u16)((r > 15 ? 15 : r) | (w > 15 ? 15 : w) << 4 | ((x >> 8) ? x : y) >> 8 << 8);
}

/* every device's columns pair up: each covers twice the time */
static void widen(void)
{
	u32 i, b, k, r;

	for (i = 0; i < plot_ndevs; i++) {
		struct plot_dev *d = &plot_devs[i];

		for (b = 0; b < PLOT_BINS / 2; b++) {
			u64 *o = d->bin[b], *x = d->bin[2 * b], *y = d->bin[2 * b + 1];

			for (k = 0; k < PB_ALL; k++)
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
		memset(d->cell[b] + PLOT_ROWS / 2, 0, sizeof(d->cell[b]) / 2);
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

/* A request aged out of the full table was given up only when it had
 * been issued: a Q never issued is a bio merged into another request
 * (request merges have no tracepoint of their own under tracefs), whose
 * completion is its request's. */
static unsigned long long given_up;

static void evicted(void *ctx, void *e)
{
	struct plot_req *q = e;
	u32 i;

	(void)ctx;
	if (!q->d)
		return;
	given_up++;
	for (i = 0; i < plot_ndevs; i++)	/* no longer counted in the depth */
		if (plot_devs[i].dev == q->h.dev && plot_devs[i].in == plot_in && plot_devs[i].depth[q->dir])
			plot_devs[i].depth[q->dir]--;
}

unsigned long long plot_given_up(void)
{
	return given_up;
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

/* the queue depth (issued, not completed) of each direction integrated
 * over time */
static void depth(struct plot_dev *d, u64 *bin, u64 t, u32 w, int delta)
{
	if (d->last_t && t > d->last_t) {
		bin[PB_QD] += d->depth[0] * (t - d->last_t);
		bin[PB_QD + 1] += d->depth[1] * (t - d->last_t);
	}
	d->last_t = t;
	if (delta > 0 || d->depth[w])
		d->depth[w] += (u64)delta;
}

/* the offset map's mark: a request in column c (its -a action), -y's
 * sectors only */
static void mark(struct plot_dev *d, const struct rec *r, int c, u32 w, u32 proc)
{
	u64 row;

	if (r->sector < plot_ylo || r->sector > plot_yhi)
		return;
	row = (r->sector - plot_ylo) >> d->shift;
	while (row >= PLOT_ROWS) {
		deepen(d);
		row >>= 1;
	}
	d->cell[c][row] = cell_join(d->cell[c][row], (u16)((w ? 16 : 1) | proc << 8));
}

static void completed(struct plot_dev *d, struct plot_req *q, const struct rec *r, int c)
{
	u64 *b = d->bin[c], w = q->dir;

	b[PB_B + w] += r->bytes;
	b[PB_N + w]++;
	if (q->d) {
		b[PB_D2C + w] += r->time + 1 - q->d;
		b[PB_D2CN + w]++;
		b[PB_HEAT + hist_idx((r->time + 1 - q->d) / 1000, PLOT_LAT, 1)]++;
		depth(d, b, r->time, (u32)w, -1);
	}
	if (q->q) {
		b[PB_Q2C + w] += r->time + 1 - q->q;
		b[PB_Q2CN + w]++;
	}
	ift_drop(&preq, q);
}

/* a bio merged into a request (M, F) completes with it, never at its own
 * sector: its Q goes, or for F the request's own (the bio now starts it),
 * so ordinary merging never fills the table */
static void merged(const struct rec *r, u32 act)
{
	struct plot_req *q = ift_look(&preq, r->dev, act == TA_BACKMERGE ? r->sector : r->sector + (r->bytes >> 9), 'R');

	if (q && !q->d)
		ift_drop(&preq, q);
}

void plot_event(const struct rec *r)
{
	u32 a = ACT32(r), act = a & 0xffff, w = (a & TC(TC_WRITE)) != 0;
	struct plot_dev *d;
	struct plot_req *q;
	int c;

	if ((u32)r->action == TN_PROCESS) {
		proc_add(r->pid, r->pdu, r->pdu_len);
		return;
	}
	if ((a & (TC(TC_NOTIFY) | TC(TC_PC))) || !r->bytes)
		return;
	if (act == TA_BACKMERGE || act == TA_FRONTMERGE)
		merged(r, act);
	if ((act != TA_QUEUE && act != TA_ISSUE && act != TA_COMPLETE) || !(d = dev_of(r->dev, r->time)) ||
	    (c = col(d, r->time)) < 0)
		return;
	q = act == TA_COMPLETE ? ift_look(&preq, r->dev, r->sector, 'R') : ift_start(&preq, r, 'R');	/* ('R' | 2 is 'R': one a sector) */
	if (q && !q->q && !q->d) {	/* new */
		q->dir = (u8)w;
		q->proc = proc_of(r->pid);
	}
	if (act == plot_act)
		mark(d, r, c, w, q ? q->proc : proc_of(r->pid));
	if (!q)
		return;
	if (act == TA_COMPLETE)
		completed(d, q, r, c);
	else if (act == TA_QUEUE)
		q->q = r->time + 1;
	else if (!q->d) {
		q->d = r->time + 1;
		depth(d, d->bin[c], r->time, w, 1);
	}
}

u16 plot_cpu[PLOT_CPU_SAMPLES][5];
u64 plot_cpu_t[PLOT_CPU_SAMPLES];
u32 plot_ncpu;

/* /proc/stat's first line (all CPUs: user nice system idle iowait irq
 * softirq steal), its change since the last sample as shares */
void plot_cpu_sample(u64 t)
{
	static u64 last[8];
	char buf[256], *s = buf + 4;
	u64 v[8], tot = 0;
	u32 i, first = !last[3];

	if (sys_read("/proc/stat", buf, sizeof(buf)) <= 0 || strncmp(buf, "cpu ", 4))
		return;
	for (i = 0; i < 8; i++) {
		u64 n = scan_u64(s, &s, 10);

		v[i] = n - last[i];
		last[i] = n;
		tot += v[i];
	}
	if (first || !tot)
		return;
	if (plot_ncpu == PLOT_CPU_SAMPLES) {	/* every other sample kept */
		for (i = 0; i < PLOT_CPU_SAMPLES / 2; i++) {
			memcpy(plot_cpu[i], plot_cpu[2 * i + 1], sizeof(plot_cpu[i]));
			plot_cpu_t[i] = plot_cpu_t[2 * i + 1];
		}
		plot_ncpu = i;
	}
	v[1] += v[0];
	for (i = 0; i < 5; i++)	/* user (and nice), system, iowait, irq, softirq */
		plot_cpu[plot_ncpu][i] = (u16)(v[i + 1 + (i > 1)] * 1000 / tot);
	plot_cpu_t[plot_ncpu++] = t;
}
