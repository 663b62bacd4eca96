/* stats/monstat.c: stats: blkiomon's interval statistics: minmax, histograms, device and total tables */
/* Each matched D/C pair counts its size, its D-to-C time and the
 * throughput they give, per device and direction, for the interval; with
 * totals on (Prometheus) also since start.
 *
 * Repairs over blkiomon 0.3: a 0 us D-to-C time counts as 1 us for the
 * throughput (blkiomon divides by zero and dies); throughput is computed
 * in 64 bits (blkiomon wraps size*1000 at 32 bits past 4 MiB requests);
 * the variance is exact (stats/exact.c). */
#include <string.h>
#include "stats/stats.h"

struct monstat mon;

static void mm_init(struct minmax *m) { memset(m, 0, sizeof(*m)); m->min = ~(u64)0; }

static void mm_add(struct minmax *m, u64 v)
{
	m->sum += v;
	m->sos += v * v;
	sq_add(&m->sq, v);
	if (v < m->min)
		m->min = v;
	if (v > m->max)
		m->max = v;
	m->num++;
}

/* num*squares >= sum^2 for any values (Cauchy-Schwarz), and stays so when
 * sum wraps at 64 bits (the wrapped sum is smaller): the exact variance is
 * never negative, so text, JSON and every other reader print it as it is. */
char *mm_var(char *p, const struct minmax *m, int decimals)
{
	return fmt_variance(p, m->num, m->sum, &m->sq, decimals);
}

static struct dstat *dstat_get(u32 device)
{
	struct dstat *s;
	u32 i;

	for (i = 0; i < mon.ndev; i++)
		if (mon.dev[i].device == device)
			return &mon.dev[i];
	if (mon.ndev == MON_DEVS) {
		mon.dev_overflow++;
		return NULL;
	}
	s = &mon.dev[i];
	memset(s, 0, sizeof(*s));
	s->device = device;
	for (int k = 0; k < 2; k++) {
		mm_init(&s->size[k]);
		mm_init(&s->d2c[k]);
		mm_init(&s->thr[k]);
	}
	s->next = mon.list;
	mon.list = ++mon.ndev;
	return s;
}

static struct total *total_get(u32 device)
{
	u32 i;

	for (i = 0; i < mon.ntot; i++)
		if (mon.tot[i].device == device)
			return &mon.tot[i];
	if (mon.ntot == MON_DEVS) {
		mon.dev_overflow++;
		return NULL;
	}
	mon.tot[mon.ntot].device = device;
	return &mon.tot[mon.ntot++];
}

static void total_add(u32 device, int dir, u64 size, u64 d2c)
{
	struct total *t = total_get(device);

	if (!t)
		return;
	if (dir < 0)
		t->bidir++;
	else
		t->num[dir]++, t->bytes[dir] += size;
	t->size_sum += size;
	t->d2c_sum_us += d2c;
	t->size_hist[hist_idx(size, SIZE_BUCKETS, 1024)]++;
	t->d2c_hist[hist_idx(d2c, D2C_BUCKETS, 8)]++;
}

void mon_account(const struct dc_rec *d, const struct dc_rec *c)
{
	u64 d2c = (c->time - d->time) / 1000, size = d->bytes;
	u64 thr = size * 1000 / (d2c ? d2c : 1);	/* blkiomon: / 0, SIGFPE */
	struct dstat *s = dstat_get(d->dev);
	int dir;

	if (!s)
		return;
	dir = (c->action & TC(TC_READ)) ? 0 : (c->action & TC(TC_WRITE)) ? 1 : -1;
	if (dir < 0)
		s->bidir++;
	else {
		mm_add(&s->thr[dir], thr);
		mm_add(&s->size[dir], size);
		mm_add(&s->d2c[dir], d2c);
	}
	s->size_hist[hist_idx(size, SIZE_BUCKETS, 1024)]++;
	s->d2c_hist[hist_idx(d2c, D2C_BUCKETS, 8)]++;
	if (mon.totals)
		total_add(d->dev, dir, size, d2c);
}

/* the interval's devices are reported: the next one starts empty */
COLD void mon_restart(void)
{
	mon.ndev = 0;
	mon.list = 0;
}

#ifndef IOMON_NO_EXPORT
/* Every C that carries an error counts, paired with a D or not, as
 * blkparse lists it; a paired one also counts in the figures above, as
 * in blkiomon, which never looks at the error.  The direction is the
 * kernel's: write when the write bit is set, else read (blkparse's W and
 * R).  Only the exports show these: blkiomon's reports stay its own. */
void mon_fail(const struct rec *r)
{
	u32 e = rec_errno(r), dir = !!(ACT32(r) & TC(TC_WRITE)), i;
	struct monfail *f;

	if (!e)
		return;
	for (i = 0; i < mon.nfail; i++) {
		f = &mon.fail[i];
		if (f->device == r->dev && f->err == e && f->dir == dir)
			break;
	}
	if (i == mon.nfail) {
		if (i == MON_FAILS) {
			mon.fail_overflow++;
			return;
		}
		mon.fail[mon.nfail++] = (struct monfail){ .device = r->dev, .err = e, .dir = dir };
	}
	mon.fail[i].n++;
	mon.fail[i].total++;
}
#endif
