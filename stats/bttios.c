/* stats/bttios.c: stats: btt's iostat figures (-I): per device, the interval's and the whole run's */
/* As btt 1.2.0 keeps them: a G adds to the queue, a D to the device's
 * busy count, each completed Q that was issued takes one from both; the
 * queue size and idle time are integrated over time in seconds (doubles,
 * in btt's order of operations, for the same digits). */
#include <string.h>
#include "stats/stats.h"

#define UNSET (~(u64)0)
struct ios {
	u64 rqm[2], ios[2], sec[2], wait, svctm;	/* [1]: reads */
	double lqc, ldc, qusz, idle, qg;
	int curq, curd, curg;	/* qg, curg: btt's queue of the Gs' requests only */
};
static struct ios ios[BTT_DEVS][2];	/* [1]: the whole run */
int btt_ios_on;
u64 btt_ios_every = 1000000000, btt_ios_last;
static u64 start = UNSET;
double btt_ios_rows[BTT_DEVS][BTT_IOS_VALS];
u64 btt_ios_stamp;
u32 btt_ios_ready;

/* the counts stay far below 2^63: a signed conversion is one instruction;
 * times and their differences are btt's unsigned ones (btt_sec) */
static double dbl(u64 x) { return (double)(s64)x; }
#define sec_of btt_sec
static double msec_of(u64 t) { return 1000.0 * sec_of(t); }
static u64 tdelta(u64 from, u64 to) { return from < to ? to - from : 1; }

static void queue_area(struct ios *s, double now)
{
	int k;

	for (k = 0; k < 2; k++) {
		s[k].qusz += (now - s[k].lqc) * s[k].curq;
		s[k].qg += (now - s[k].lqc) * s[k].curg;
		s[k].lqc = now;
	}
}

static void idle_time(struct ios *s, double now, int force)
{
	int k, idle = !s[0].curd || force;

	for (k = 0; k < 2; k++) {
		if (idle)
			s[k].idle += now - s[k].ldc;
		s[k].ldc = now;
	}
}

/* every record btt counts (not notes, not PC): an interval may end, its
 * rows then taken for the driver (btt_ios_rows, btt_pending) */
void btt_ios_time(u64 t)
{
	u32 i;

	if (start == UNSET)
		start = t;
	else if (t - start >= btt_ios_every) {
		for (i = 0; i < btt_ndevs; i++)
			btt_ios_row(i, t, 0, btt_ios_rows[i]);
		btt_ios_stamp = t;
		btt_ios_ready = btt_ndevs + 1;
		btt_pending = 1;
		start = t;
	}
	btt_ios_last = t;
}

/* a G, M or D of device i, past its culling */
void btt_ios_event(u32 i, const struct rec *r, u32 act)
{
	struct ios *s = ios[i];
	int rw = (ACT32(r) & TC(TC_READ)) != 0, k;

	if (act == TA_GETRQ)
		queue_area(s, sec_of(r->time));
	else if (act == TA_ISSUE)
		idle_time(s, sec_of(r->time), 0);
	for (k = 0; k < 2; k++) {
		if (act == TA_GETRQ)
			s[k].curq++, s[k].curg++;
		else if (act == TA_ISSUE) {
			s[k].ios[rw]++;
			s[k].sec[rw] += r->bytes >> 9;
			s[k].curd++;
		} else
			s[k].rqm[rw]++;
	}
}

/* an issued Q completes at ct: im is its I's time, else its M's, or UNSET */
void btt_ios_done(u32 i, u64 im, u64 qt, u64 ct, int got)
{
	struct ios *s = ios[i];
	int k;

	queue_area(s, sec_of(ct));
	idle_time(s, sec_of(ct), 0);
	for (k = 0; k < 2; k++) {
		if (im != UNSET)
			s[k].wait += tdelta(im, ct);
		s[k].curq--;
		s[k].curg -= got;
		s[k].curd--;
		s[k].svctm += tdelta(qt, ct);
	}
}

/* device i's row at stamp into v[BTT_IOS_COLS] (rrqm/s ... %util); an
 * interval's counts start again after it */
void btt_ios_row(u32 i, u64 stamp, int all, double *v)
{
	struct ios *s = ios[i], *p = &s[all];
	double now = sec_of(stamp), dt = all ? now : sec_of(stamp - start);
	double nios = dbl(p->ios[0] + p->ios[1]), nrqm = dbl(p->rqm[0] + p->rqm[1]);
	int k;

	idle_time(s, now, 1);
	queue_area(s, now);
	for (k = 0; k < 2; k++) {
		v[k] = dbl(p->rqm[!k]) / dt;
		v[2 + k] = dbl(p->ios[!k]) / dt;
		v[4 + k] = dbl(p->sec[!k]) / dt;
		v[6 + k] = dbl(p->sec[!k] / 2) / dt;
	}
	v[8] = nios > 0.0 ? dbl(p->sec[0] + p->sec[1]) / nios : 0.0;
	v[9] = p->qusz / dt;
	v[BTT_IOS_QG] = p->qg / dt;
	v[10] = nios + nrqm > 0.0 ? msec_of(p->wait) / (nios + nrqm) : 0.0;
	v[11] = nios > 0.0 ? msec_of(p->svctm) / nios : 0.0;
	v[12] = p->idle <= dt ? 100.0 * (1.0 - p->idle / dt) : 0.0;
	if (!all) {
		memset(p, 0, offsetof(struct ios, lqc));
		p->qusz = p->idle = p->qg = 0.0;
	}
}
