/* output/bttopt.c: output: btt's option files: block numbers (-B), the active queue depth (-Q), seeks (-s) and seeks a second (-m), unplug histograms (-u), periodic latencies (-L), each I/O (-p, -P), busy periods (-Z) */
/* Each file as btt 1.2.0 writes it, line for line.  btt opens a device's
 * files when it first meets the device and removes those left empty at
 * its end: here a file is made at its first line (the -P file, which btt
 * keeps empty, and the -u file, written at the end, for every device).
 * The files share BTT_OPT_FILES buffers, one for every kind of file of
 * every device and sys (at[]'s slots), so none goes unwritten for want of
 * one.  -m's file is btt's two streams (the D2D and the Q2Q
 * seeks) opened on one name: each writes its own bytes from the start
 * through a stdio buffer of a page, so the later write of a place wins;
 * the same chunks, written at the same moments, give the same file. */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "output/output.h"

enum { F_BR, F_BW, F_BC, F_DR, F_DW, F_DC, F_QR, F_QW, F_QC, F_SPSD, F_SPSQ, F_AQD, F_PQ2D, F_PD2C, F_PQ2C,
       F_PIT, F_LIVE, F_N };
#define SYS (&btt_devs[BTT_DEVS])	/* -Z's sys_live.dat: a row past the devices' */
struct bttopt_cfg btt_opt;

static struct obuf of[BTT_OPT_FILES];
static char sps_buf[BTT_OPT_FILES][4096] __attribute__((aligned(4096)));	/* -m's, a stdio page (the others': the pool's) */
static u32 nof;
static u16 at[BTT_DEVS + 1][F_N];		/* of's index + 1; 0: not made yet */
_Static_assert(BTT_OPT_FILES >= F_N * (BTT_DEVS + 1) && BTT_OPT_FILES < 0xffff, "BTT_OPT_FILES: a buffer for each of at[]'s slots, its index a u16");
static u8 sps_made[BTT_DEVS];		/* -m: the file made by one stream */
static struct dev_opt {
	s64 last[2][2];			/* -s: the D2D and Q2Q seeks' last start and end */
	struct { double start, last; u64 n; } sps[2];
	int na;				/* -Q: active */
	struct { double first, last, tl; long nl; } plat[3];
	u32 unplug[21];
} dv[BTT_DEVS];

static struct obuf pio;		/* -p */
static int pio_any;		/* btt removes the file left empty */
static u64 pit_d;			/* -P: the D time of a C's last Q that had one */
static struct { u64 sec; u32 len; } qd[BTT_REQS + 1];	/* -p: each Q's D */

static u32 ix(const struct btt_dev *d) { return (u32)(d - btt_devs); }

/* btt's name of a device in file names, "MAJ,MIN" */
static void dev_nm(char *b, const struct btt_dev *d)
{
	if (d == SYS)
		sfmt(b, 16, "sys");
	else
		btt_dev_file(b, d->dev);
}

static const char *const f_fmt[F_N] = { "%s_%s_r.dat", "%s_%s_w.dat", "%s_%s_c.dat", "%s_%s_d2d_r.dat",
	"%s_%s_d2d_w.dat", "%s_%s_d2d_c.dat", "%s_%s_q2q_r.dat", "%s_%s_q2q_w.dat", "%s_%s_q2q_c.dat", "%s_%s.dat",
	"%s_%s.dat", "%s_%s_aqd.dat", "%s%s_q2d_plat.dat", "%s%s_d2c_plat.dat", "%s%s_q2c_plat.dat", "%s%s_pit.dat",
	"%s%s_live.dat" };

static const char *f_pre(int k)
{
	return k <= F_BC ? btt_opt.bno : k <= F_QC ? btt_opt.seek : k <= F_SPSQ ? btt_opt.sps :
		k == F_AQD ? btt_opt.aqd : "";
}

/* device d's file k, made at its first use; NULL: failed or past the pool */
static struct obuf *f_get(const struct btt_dev *d, int k)
{
	u16 *a = &at[ix(d)][k];
	char path[PATH_LEN], dn[BTT_MAPNAME];
	int fd, sps = k == F_SPSD || k == F_SPSQ;

	if (*a)
		return *a == 0xffff ? NULL : &of[*a - 1];
	*a = 0xffff;
	dev_nm(dn, d);
	if ((size_t)sfmt(path, sizeof(path), f_fmt[k], f_pre(k), dn) >= sizeof(path)) {
		warn_msg("%s: name too long", f_pre(k));
		return NULL;
	}
	if (sps)	/* the second stream on the name writes over, from the start */
		fd = sps_made[ix(d)]++ ? open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644) : open_out(path, 0644);
	else
		fd = open_out(path, 0644);
	if (fd < 0)
		return NULL;
	/* -m's two streams on one name write over each other a buffer at a
	 * time: btt's stdio page, so the same bytes end up on top */
	ob_init(&of[nof], fd, f_pre(k), sps_buf[nof], sizeof(sps_buf[0]));
	if (!sps)
		btt_pool_use(&of[nof]);
	*a = (u16)++nof;
	return &of[nof - 1];
}

/* n bytes at s to p, 8 a move, not a rep movsb (7 % of btt's run with
 * every output): s and p have 7 bytes to spare past them; p + n */
static char *copy8(char *p, const char *s, u32 n)
{
	for (u32 i = 0; i < n; i += 8)
		memcpy(p + i, s + i, 8);
	return p + n;
}

/* as stdio does: the buffer filled to the last byte, then written */
static void f_put(const struct btt_dev *d, int k, const char *s, u32 n)
{
	struct obuf *o = f_get(d, k);
	u32 c;

	/* a line (every caller's buffer has 8 bytes past one of 88) */
	if (o && n <= 88 && o->cap - o->len >= n + 8) {
		o->len = (u32)(copy8(o->buf + o->len, s, n) - o->buf);
		return;
	}
	if (o && !o->cap)	/* a pooled file with no chunk yet */
		ob_full(o);
	while (o && n) {
		c = o->cap - o->len < n ? o->cap - o->len : n;
		memcpy(o->buf + o->len, s, c);
		o->len += c, s += c, n -= c;
		if (o->len == o->cap)
			ob_full(o);
	}
}

static void f_printf(const struct btt_dev *d, int k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void f_printf(const struct btt_dev *d, int k, const char *fmt, ...)
{
	char line[160];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfmt(line, sizeof(line), fmt, ap);
	va_end(ap);
	f_put(d, k, line, (u32)n < sizeof(line) ? (u32)n : sizeof(line) - 1);
}

/* -m: a line for the second of seeks begun at start */
static void sps_emit(const struct btt_dev *d, int q2q)
{
	typeof(&dv[0].sps[0]) s = &dv[ix(d)].sps[q2q];
	double delta = s->last - s->start, v = (double)s->n;

	if (s->n != 1 && delta >= 2.220446049250313e-16)
		v = (double)s->n / delta;
	f_printf(d, F_SPSD + q2q, "%15.9f %.2f\n", s->start, v);
	s->start = 0;
	s->n = 0;
}

/* -s, -m: btt's seek of a Q (q2q) or D: signed, from the last one's
 * nearer end (-a: from its end), none when they touch */
static void seek(const struct btt_dev *d, const struct rec *r, int q2q)
{
	s64 *l = dv[ix(d)].last[q2q], start = (s64)r->sector, end = start + (r->bytes >> 9), dist;
	double t;
	typeof(&dv[0].sps[0]) s = &dv[ix(d)].sps[q2q];
	char rw = r->action & TC(TC_READ) ? 'r' : 'w';

	if (btt_seek_abs)
		dist = start - l[1];
	else if ((l[0] <= start && start <= l[1]) || (l[0] <= end && end <= l[1]))
		dist = 0;
	else
		dist = start > l[1] ? start - l[1] : start - l[0];
	l[0] = start, l[1] = end;
	if (btt_opt.seek) {	/* "%15.9f %13lld %c\n" */
		char b[96], *p = fmt_ns(b, r->time, btt_time, 9, 15);

		*p++ = ' ';
		p = fmt_num(p, dist < 0 ? -(u64)dist : (u64)dist, dist < 0, 13, 0);
		*p++ = ' ', *p++ = rw, *p++ = '\n';
		f_put(d, (q2q ? F_QR : F_DR) + (rw == 'w'), b, (u32)(p - b));
		f_put(d, q2q ? F_QC : F_DC, b, (u32)(p - b));
	}
	if (!btt_opt.sps)
		return;
	t = btt_time(r->time);
	if (s->n && t - s->start >= 1.0)
		sps_emit(d, q2q);
	s->last = t;
	if (!s->n++)
		s->start = t;
}

static void aqd(const struct btt_dev *d, u64 ns, int up)
{
	int *na = &dv[ix(d)].na;
	char b[96], *p, *q;

	if (!up && *na <= 0)
		return;
	*(q = fmt_ns(b, ns, btt_time, 6, 0)) = ' ';	/* "%f %d\n", before and after: the time made once */
	for (int k = 0; k < 2; k++) {
		p = fmt_s64(q + 1, *na);
		*p++ = '\n';
		f_put(d, F_AQD, b, (u32)(p - b));
		if (!k)
			*na += up ? 1 : -1;
	}
}

/* each event btt links, and unplugs */
static void ev(const struct btt_dev *d, const struct rec *r, u32 act)
{
	if (act == TA_UNPLUG_IO) {
		int n = r->pdu_len >= 8 ? (int)be64_load(r->pdu) : 0;

		dv[ix(d)].unplug[n / 5 > 20 ? 20 : n / 5]++;
	} else if (act == TA_QUEUE) {
		seek(d, r, 1);
	} else if (act == TA_ISSUE) {
		seek(d, r, 0);
		if (btt_opt.bno) {
			u64 s = r->sector, e = s + (r->bytes >> 9);

			char b[96], *p = fmt_ns(b, r->time, btt_time, 9, 15);	/* "%15.9f %lld %lld\n" */

			*p++ = ' ';
			p = fmt_s64(p, (s64)s);
			*p++ = ' ';
			p = fmt_s64(p, (s64)e);
			*p++ = '\n';
			f_put(d, r->action & TC(TC_READ) ? F_BR : F_BW, b, (u32)(p - b));
			f_put(d, F_BC, b, (u32)(p - b));
		}
		if (btt_opt.aqd)
			aqd(d, r->time, 1);
	} else if (act == TA_COMPLETE && btt_opt.aqd) {
		aqd(d, r->time, 0);
	}
}


/* "%s %c %10llu+%-4u\n" by text.c's number pieces, at p in -p's buffer:
 * -p is most of what btt writes with every output on (215 of 310 MB on
 * the 5M-event dump), and vfmt three times a line was a third of the run.
 * The block and length (sl, n bytes), mostly the same on all of a Q's
 * lines, are made once and copied 8 bytes a move (sl has the room). */
static char *pio_line(char *p, u64 t, char c, const char *sl, u32 n, int indent)
{
	if (t == ~0ull)
		return p;
	if (indent)
		for (int i = 0; i < 9; i++)
			*p++ = ' ';
	p = fmt_secs_w(p, t, 5);
	*p++ = ' ', *p++ = c, *p++ = ' ';
	return copy8(p, sl, n);
}

/* "%10llu+%-4u\n" of a block and length, in sl (40 bytes); its length */
static u32 pio_sl(char *sl, u64 sec, u32 len)
{
	char *p = fmt_num(sl, sec, 0, 10, 0);

	*p++ = '+';
	p = fmt_num(p, len, 0, 4, 1);
	*p++ = '\n';
	return (u32)(p - sl);
}

/* -p: a Q's stages as a C completes it, made where they go (six lines of
 * at most 72 bytes); -P: its Q time */
static void per_io(const struct btt_dev *d, const struct btt_qseen *e, const struct rec *r)
{
	const struct btt_qview *q = &e->q;
	u64 s = e->start;
	char b[40];

	if (btt_opt.pio) {
		char sl[40], sl2[40], *p = fmt_num(ob_room(&pio, 512), DEV_MAJOR(d->dev), 0, 3, 0);	/* "%3u,%-3u: " */
		u32 n = pio_sl(sl, s, q->len), k;

		*p++ = ',';
		p = fmt_num(p, DEV_MINOR(d->dev), 0, 3, 1);
		*p++ = ':', *p++ = ' ';
		p = pio_line(p, q->time, 'Q', sl, n, 0);
		p = pio_line(p, q->g, 'G', sl, n, 1);
		p = pio_line(p, q->i, 'I', sl, n, 1);
		p = pio_line(p, q->m, 'M', sl, n, 1);
		if (qd[e->slot].sec == s && qd[e->slot].len == q->len)
			p = pio_line(p, q->d, 'D', sl, n, 1);
		else
			k = pio_sl(sl2, qd[e->slot].sec, qd[e->slot].len), p = pio_line(p, q->d, 'D', sl2, k, 1);
		if (r->sector == s && r->bytes >> 9 == q->len)
			p = pio_line(p, r->time, 'C', sl, n, 1);
		else
			k = pio_sl(sl2, r->sector, r->bytes >> 9), p = pio_line(p, r->time, 'C', sl2, k, 1);
		*p++ = '\n';
		ob_done(&pio, p);
		pio_any = 1;
	}
	if (btt_opt.pit) {
		if (q->d != ~0ull)
			pit_d = q->d;
		char *p = fmt_secs_w(b, q->time, 0);	/* "%s " */

		*p++ = ' ';
		f_put(d, F_PIT, b, (u32)(p - b));
	}
}

/* the Qs a D (their D's blocks kept) or a C (each I/O, then the C's
 * end) met, as stats/bttstat.c kept them */
static void q_seen(const struct btt_dev *d, const struct rec *r, u32 act)
{
	char b[80], *p;
	u32 k;

	for (k = 0; k < btt_nqseen; k++)
		if (act == TA_COMPLETE) {
			per_io(d, &btt_qseen[k], r);
		} else {
			qd[btt_qseen[k].slot].sec = r->sector;
			qd[btt_qseen[k].slot].len = r->bytes >> 9;
		}
	if (act != TA_COMPLETE)
		return;
	if (btt_opt.pio) {
		static const char rule[] = "-----------------------------------------\n";

		ob_write(&pio, rule, sizeof(rule) - 1);	/* (a C's: strlen was 2 % on a split trace) */
		pio_any = 1;
	}
	if (btt_opt.pit) {
		*(p = b) = '|', p[1] = ' ';	/* "| %s | %s\n" */
		p = fmt_secs_w(p + 2, pit_d, 0);
		*p++ = ' ', *p++ = '|', *p++ = ' ';
		p = fmt_secs_w(p, r->time, 0);
		*p++ = '\n';
		f_put(d, F_PIT, b, (u32)(p - b));
	}
	pit_d = ~0ull;
}

/* -L: the mean latency of each -L seconds, at their middle */
void btt_plat(const struct btt_dev *d, int k, u64 ts, u64 lat)
{
	typeof(&dv[0].plat[0]) p = &dv[ix(d)].plat[k];
	double now = btt_sec(ts), l = btt_sec(lat);

	if (p->nl && now - p->first >= btt_opt.plat)
		f_printf(d, F_PQ2D + k, "%f %f\n", p->first + (p->last - p->first) / 2, p->tl / (double)p->nl);
	if (!p->nl || now - p->first >= btt_opt.plat) {
		p->first = p->last = now;
		p->nl = 1;
		p->tl = l;
	} else {
		p->last = now;
		p->nl++;
		p->tl += l;
	}
}

/* -Z: busy periods as steps, at height y (the devices' from 1 up in
 * their order, those with any; the system's at 0), from the end of the
 * one before (the first from 0), in the order of btt's tree.  A span the
 * full pool lets go of is written then, with the height known so far (a
 * device before it that gains its first span later moves it up in btt:
 * said at the end) */
static struct { u64 last; int y; u8 on; } lv[BTT_DEVS + 1];

/* (a tree whose first span is going in, when the full pool lets go of
 * another's for its room, has one) */
static int has_lives(const struct btt_live *l) { return l->n || l->folded || l == btt_live_adding; }

/* a device's height: 1 + the devices listed before it that have spans
 * (-D: before its last place in the list; 0: not listed) */
static int live_y(const struct btt_dev *d)
{
	u32 i;
	int y = 0, n = 0;

	BTT_FOR_OUT(i) {
		if (&btt_devs[i] == d)
			y = n + 1;
		n += has_lives(&btt_devs[i].live);
	}
	return y;
}

static void live_span(const struct btt_dev *d, u64 dt, u64 ct)
{
	typeof(&lv[0]) v = &lv[ix(d)];

	if (!v->on) {
		v->on = 1;
		if (d != SYS && !(v->y = live_y(d)))
			v->on = 2;	/* -D leaves it out */
	}
	if (v->on == 2)
		return;
	{	/* "%.9f %d.0\n%.9f %d.0\n%.9f %d.9\n%.9f %d.9\n%.9f %d.0\n" of
		 * btt's times */
		const u64 x[5] = { v->last, dt, dt, ct, ct };
		char o[400], *p = o;

		for (int k = 0; k < 5; k++) {
			p = fmt_ns(p, x[k], btt_time, 9, 0);
			*p++ = ' ';
			p = fmt_s64(p, v->y);
			*p++ = '.', *p++ = k == 2 || k == 3 ? '9' : '0', *p++ = '\n';
		}
		f_put(d, F_LIVE, o, (u32)(p - o));
	}
	v->last = ct;
}

static void live_fold(const struct btt_live *l, u64 dt, u64 ct)
{
	const struct btt_dev *d = l == &btt_live_all ? SYS : (const struct btt_dev *)((const char *)l - offsetof(struct btt_dev, live));

	live_span(d, dt, ct);
	if (d == btt_devs && btt_ndevs == 1)	/* the system's list is its own */
		live_span(SYS, dt, ct);
}

TEXT(bttopt_z_devices_files, "-Z: %u devices' files were begun below the height btt gives "
	"them (a device before them became busy later)")
/* the spans still held, then the heights checked */
static void live_end(void)
{
	u32 i, k, moved = 0;
	u64 dt, ct;

	for (i = 0; i <= btt_ndevs; i++) {
		const struct btt_dev *d = i < btt_ndevs ? &btt_devs[i] : SYS;
		const struct btt_live *l = i < btt_ndevs ? &d->live : btt_ndevs == 1 ? &btt_devs[0].live : &btt_live_all;

		for (k = btt_live_next(l, 0, &dt, &ct); k; k = btt_live_next(l, k, &dt, &ct))
			live_span(d, dt, ct);
		if (i < btt_ndevs && lv[i].on == 1)
			moved += lv[i].y != live_y(d);
	}
	if (moved)
		warn_text(U_bttopt_z_devices_files, moved);
}

/* -u: a device's unplugs by the I/Os each let go, 5 a bucket */
static int unplug_file(const struct btt_dev *d)
{
	char path[PATH_LEN], dn[BTT_MAPNAME];
	struct obuf o;
	char b[512];
	int i, fd;

	dev_nm(dn, d);
	if ((size_t)sfmt(path, sizeof(path), "%s_%s.dat", btt_opt.unplug, dn) >= sizeof(path) ||
	    (fd = open_out(path, 0644)) < 0)
		return 1;
	ob_init(&o, fd, path, b, sizeof(b));
	for (i = 0; i < 21; i++)
		ob_printf(&o, "%d %u\n", i, dv[ix(d)].unplug[i]);
	return ob_close(&o);
}

/* file k of device d closed, if made */
static int f_close(const struct btt_dev *d, int k)
{
	u16 a = at[ix(d)][k];
	int rc;

	if (!a || a == 0xffff || of[a - 1].fd < 0)
		return 0;
	rc = ob_close(&of[a - 1]);
	of[a - 1].fd = -1;
	return rc;
}

/* -m: the last seconds' lines, then btt's two streams closed in its
 * order, the D2D one first; a file still empty then btt removes, and
 * the Q2Q one's bytes go with it */
static int sps_end(const struct btt_dev *d)
{
	char path[PATH_LEN], dn[BTT_MAPNAME];
	struct stat st;
	int k, rc;

	for (k = 0; k < 2; k++)
		if (dv[ix(d)].sps[k].n)
			sps_emit(d, k);
	rc = f_close(d, F_SPSD);
	dev_nm(dn, d);
	sfmt(path, sizeof(path), f_fmt[F_SPSD], btt_opt.sps, dn);
	if (sps_made[ix(d)] && !stat(path, &st) && !st.st_size)
		unlink(path);
	return rc | f_close(d, F_SPSQ);
}

TEXT(bttopt_i_os_one, "%llu I/Os one D or C met past %d (BTT_OPT_QS), left out of -p -P's files")
/* after the run: the last lines, the files btt writes at its end */
int btt_opt_end(void)
{
	u32 i, k;
	int rc = 0;

	if (btt_opt.pio) {
		rc |= ob_close(&pio);
		if (!pio_any)
			unlink(btt_opt.pio);
	}
	for (i = 0; i < btt_ndevs; i++) {
		const struct btt_dev *d = &btt_devs[i];

		if (btt_opt.sps)
			rc |= sps_end(d);
		for (k = 0; k < 3 && btt_opt.plat > 0; k++)
			if (dv[i].plat[k].nl)
				f_printf(d, F_PQ2D + (int)k, "%f %f\n", dv[i].plat[k].first +
					 (dv[i].plat[k].last - dv[i].plat[k].first) / 2, dv[i].plat[k].tl / (double)dv[i].plat[k].nl);
		if (btt_opt.pit)
			f_get(d, F_PIT);	/* btt's is made, kept empty */
		if (btt_opt.unplug)
			rc |= unplug_file(d);
	}
	if (btt_opt.live)
		live_end();
	for (k = 0; k < nof; k++)
		if (of[k].fd >= 0)
			rc |= ob_close(&of[k]);
	if (btt_opt_lost)
		warn_text(U_bttopt_i_os_one,
			 btt_opt_lost, BTT_OPT_QS);
	return rc;
}

/* after each record (the driver's, with an option): what btt's options
 * write of it, from what stats/bttstat.c kept of it and its figures */
void btt_opt_after(const struct rec *r)
{
	const struct btt_dev *d = btt_opt_dev;
	u32 act = btt_opt_act;

	if (btt_opt.unplug && !(ACT32(r) & (TC(TC_NOTIFY) | TC(TC_PC))) && (ACT32(r) & 0xffff) == TA_UNPLUG_IO &&
	    (d = btt_dev_get(r->dev)))	/* -u: each unplug of a known device */
		ev(d, r, TA_UNPLUG_IO);
	if (!(d = btt_opt_dev))
		return;
	btt_opt_dev = NULL;
	if (btt_opt.bno || btt_opt.seek || btt_opt.sps || btt_opt.aqd)
		ev(d, r, act);
	if (btt_opt_qs && (act == TA_ISSUE || act == TA_COMPLETE))
		q_seen(d, r, act);
	btt_nqseen = 0;
}

/* before the run: what stats keeps for the options; 1 when -p's file cannot be made */
int btt_opt_start(void)
{
	int fd;

	if (btt_opt.pio) {
		if ((fd = open_out(btt_opt.pio, 0644)) < 0)
			return 1;
		ob_init(&pio, fd, btt_opt.pio, NULL, 0);
		btt_pool_use(&pio);
	}
	btt_opt_qs = btt_opt.pio || btt_opt.pit;
	btt_opt_on = btt_opt.bno || btt_opt.seek || btt_opt.sps || btt_opt.aqd || btt_opt_qs;
	pit_d = ~0ull;
	if (btt_opt.live)
		btt_fold_out = live_fold;
	return 0;
}
