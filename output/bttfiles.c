/* output/bttfiles.c: output: btt's files beside the .avg: per-I/O latencies (-z, -l, -q: NAME_MAJ,MIN_q2d.dat ...), iostat (-I), I/Os and MB a second (*_fp.dat) */
/* One file a device and kind, "seconds latency" a line as btt writes them
 * ("%lf %lf" of the ns / 1e9), in the order the stats meet the I/Os (btt's
 * tree walk).  btt removes the files left empty at its end: here a file is
 * made at its first line. */
#include <sys/uio.h>
#include "output/output.h"

/* The files' pool (config.h): a file holds the chunk it fills (buf, none
 * until it has a line to put there) and its full ones, waiting in order;
 * cnext links those, and the free ones.  Chunks are touched as first
 * used.  Out of chunks, one file's waiting chunks are written, in one
 * writev.  Where no file has a chunk waiting (more files than chunks),
 * the fullest gives up its own: every file still goes out in order. */
#define POOLED (BTT_OPT_FILES + BTT_NLAT * BTT_DEVS + 2)	/* of[], the latency files, -p, -I */
_Static_assert(BTT_POOL < 1024 && BTT_CHUNK >= 512 && BTT_CHUNK < 65536, "BTT_POOL: one writev (IOV_MAX); BTT_CHUNK: a line's room");
static char chunk[BTT_POOL][BTT_CHUNK] __attribute__((aligned(4096)));
static u16 clen[BTT_POOL], cnext[BTT_POOL];	/* a waiting chunk's bytes; the next one (index + 1, 0: none) */
static u16 cfree, cfresh;			/* the free list; chunks never used from cfresh on */
static struct obuf *pooled[POOLED];
static u64 wrote[POOLED];			/* chunks each has written */
static u32 npooled;

static void pool_free(u32 first, u32 last)
{
	cnext[last - 1] = cfree;
	cfree = (u16)first;
}

/* file i's waiting chunks written, and with cur its own chunk's bytes
 * too, that chunk back in the pool */
static void pool_out(u32 i, int cur)
{
	struct obuf *o = pooled[i];
	struct iovec v[BTT_POOL];
	u32 n = 0, c, own = o->buf ? (u32)(o->buf - chunk[0]) / BTT_CHUNK + 1 : 0;

	for (c = o->first; c; c = cnext[c - 1])
		v[n++] = (struct iovec){ chunk[c - 1], clen[c - 1] };
	if (cur && own)
		v[n++] = (struct iovec){ o->buf, o->len };
	ob_writev(o, v, (int)n);
	wrote[i] += o->held;
	if (o->first)
		pool_free(o->first, o->last);
	o->first = o->last = o->held = 0;
	if (cur && own) {
		pool_free(own, own);
		o->buf = NULL;
		o->len = o->cap = 0;
	}
}

/* Out of chunks: the file whose waiting share is the largest against
 * the square root of what it has written so far (the writes a file of
 * b bytes takes are fewest, for the pages held, with each one's write
 * in proportion to the root of its b: btt's -p takes more of the pool
 * than a file of a fifteenth of its bytes, but not fifteen times more) */
static char *pool_take(void)
{
	struct obuf *o;
	u64 most = 0, b;
	u32 i, w = 0, c;

	if (!cfree && cfresh == BTT_POOL) {
		for (i = 0; i < npooled; i++) {	/* (a file that waits before one that only fills) */
			o = pooled[i];
			b = o->held ? ((u64)o->held * o->held << 40) / (wrote[i] + 1) + (1ull << 40) : o->buf ? o->len + 1u : 0;
			if (b > most)
				most = b, w = i;
		}
		pool_out(w, !pooled[w]->held);	/* (every chunk is some file's: w holds one) */
	}
	if (cfree)
		cfree = cnext[(c = cfree - 1u)];
	else
		c = cfresh++;
	return chunk[c];
}

/* o's buffer full: its chunk waits, and it takes another (all: o's bytes
 * written, its chunks back in the pool) */
static void pool_more(struct obuf *o, int all)
{
	u32 c;

	if (all) {
		for (c = 0; pooled[c] != o; c++)
			;
		pool_out(c, 1);
		return;
	}
	if (o->buf && !o->len)
		return;
	if (o->buf) {
		c = (u32)(o->buf - chunk[0]) / BTT_CHUNK;
		clen[c] = (u16)o->len;
		cnext[c] = 0;
		if (o->last)
			cnext[o->last - 1] = (u16)(c + 1);
		else
			o->first = (u16)(c + 1);
		o->last = (u16)(c + 1);
		o->held++;
		o->buf = NULL;
		o->len = o->cap = 0;
	}
	o->buf = pool_take();
	o->cap = BTT_CHUNK;
}

/* live btt, at each interval: every file's lines so far written out */
void btt_pool_flush(void)
{
	for (u32 i = 0; i < npooled; i++)
		pool_out(i, 1);
}

/* the pool's memory while no file holds a chunk (every one closed: btt's
 * report lends it to the seek trees), n its bytes; else NULL */
void *btt_pool_idle(size_t *n)
{
	u32 c, k = 0;

	for (c = cfree; c; c = cnext[c - 1])
		k++;
	*n = sizeof(chunk);
	return k == cfresh ? chunk : NULL;
}

/* o, just made (ob_init), fills the pool's chunks */
void btt_pool_use(struct obuf *o)
{
	o->buf = NULL;
	o->len = o->cap = 0;
	o->first = o->last = o->held = 0;
	o->more = pool_more;
	pooled[npooled++] = o;
}

static const char lat_post[BTT_NLAT][4] = { "q2d", "d2c", "q2c" };
static const char *lat_name[BTT_NLAT];
static struct obuf lat_ob[BTT_DEVS][BTT_NLAT];	/* a device's three on one page */

/* o made at its first line: PRE_MAJ,MIN_POST.dat for device i (i < 0:
 * sys_POST.dat); not tried yet when o->name is NULL, a failed open stays
 * failed */
static struct obuf *file_at(struct obuf *o, char *buf, u32 cap, const char *pre, int i, const char *post)
{
	char path[PATH_LEN], dev[BTT_MAPNAME] = "sys";
	int fd = -1;

	if (!o->name) {
		if (i >= 0)
			btt_dev_file(dev, btt_devs[i].dev);
		if ((size_t)sfmt(path, sizeof(path), "%s%s%s_%s.dat", pre, *pre ? "_" : "", dev, post) < sizeof(path))
			fd = open_out(path, 0644);
		else
			warn_msg("%s: name too long", pre);
		ob_init(o, fd, *pre ? pre : post, buf, cap);
		o->failed = fd < 0;
		if (!buf)
			btt_pool_use(o);
	}
	return o;
}

static void lat_line(u32 i, u32 k, u64 t, u64 lat)
{
	if (btt_opt.plat > 0)	/* -L */
		btt_plat(&btt_devs[i], (int)k, t, lat);
	if (lat_name[k]) {	/* "%f %f\n", made where it goes (fmt_f: 63 bytes at most) */
		struct obuf *o = file_at(&lat_ob[i][k], NULL, 0, lat_name[k], (int)i, lat_post[k]);
		char *p = fmt_ns(ob_room(o, 160), t, btt_sec, 6, 0);

		*p++ = ' ';
		p = fmt_ns(p, lat, btt_sec, 6, 0);
		*p++ = '\n';
		ob_done(o, p);
	}
}

/* -I NAME: btt's iostat-like table, a block an interval and the totals */
static struct obuf ios_ob;
TEXT(bttfiles_ios_hdr, "Device:       rrqm/s   wrqm/s     r/s     w/s    rsec/s    wsec/s     "
	"rkB/s     wkB/s avgrq-sz avgqu-sz   await   svctm  %util   Stamp\n")

TEXT(bttfiles_i_avgqu_sz, "-I: %s avgqu-sz %.2f at %.2f s is below 0: completions without "
	"a G taken off too; the Gs' own: %.2f")
static void ios_cols(const char *name, const double *v, u64 stamp, int all)
{
	static const char w[BTT_IOS_COLS] = "8877999988776";
	char f[] = "%0.2f ";
	int j;

	static int said;

	if (v[9] < 0.0 && !said++)	/* btt's figure stays: scripts read it */
		warn_text(U_bttfiles_i_avgqu_sz,
			 name, v[9], btt_sec(stamp), v[BTT_IOS_QG]);
	ob_printf(&ios_ob, "%-11s ", name);
	for (j = 0; j < BTT_IOS_COLS; j++) {
		f[1] = w[j];
		f[5] = j < BTT_IOS_COLS - 1 ? ' ' : 0;
		ob_printf(&ios_ob, f, v[j]);
	}
	if (all)
		ob_printf(&ios_ob, "%8s\n", "TOTAL");
	else
		ob_printf(&ios_ob, "%8.2f\n", btt_sec(stamp));
}

/* a row a device; with two or more, btt's TOTAL row: its first eight
 * columns the sums in the other order (write before read, and the kB from
 * the sectors), those and avgqu-sz 0 in an interval (btt sums them after
 * starting the counts again), the others the devices' average */
static void ios_dump(u64 stamp, int all)
{
	double v[BTT_IOS_VALS], t[BTT_IOS_VALS] = { 0 }, *row;
	u32 i, n = all ? btt_ndevs : btt_ios_ready - 1, k = 0;
	char name[16];
	int j;

	if (all)
		ob_puts(&ios_ob, TX(bttfiles_ios_hdr));
	u8 seen[BTT_DEVS] = { 0 };
	static const double again[BTT_IOS_VALS] = { [12] = 100.0 };

	BTT_FOR_OUT(i) {	/* (-D: those the interval's end knew) */
		if (i >= n)
			continue;
		/* an interval's row, taken as it ended; -D naming a device
		 * again: btt's counts begun anew, an idle device */
		row = all ? v : seen[i] ? (double *)again : btt_ios_rows[i];
		seen[i] = 1;
		if (all)
			btt_ios_row(i, stamp, all, v);
		btt_dev_hdr(name, 11, btt_devs[i].dev, 1);
		ios_cols(name, row, stamp, all);
		for (j = all ? 0 : 8; j < BTT_IOS_VALS; j++)
			t[j] += (j == 9 || j == BTT_IOS_QG) && !all ? 0.0 : row[j];
		k++;
	}
	n = k;
	if (n >= 2) {
		for (j = 0; j < BTT_IOS_VALS; j++)
			v[j] = j < 6 ? t[j ^ 1] : j < 8 ? t[(j ^ 1) - 2] / 2.0 : t[j] / (double)n;
		ios_cols("TOTAL", v, stamp, all);
	}
	if (!all)
		ob_puts(&ios_ob, "\n");
}

/* btt's I/Os and MB a second, in the current folder: sys_iops_fp.dat and
 * sys_mbps_fp.dat for all (slot 0), MAJ,MIN_ for device i (slot i + 1).
 * A line a second that had Cs (counted in stats/bttstat.c), the last at
 * the end (-1 0 for none) */
static struct {
	struct obuf ob[2];
	char buf[2][64];
} rate[BTT_DEVS + 1];

static void btt_rate_line(u32 i, s64 sec, u64 ios, u64 blks)
{
	ob_printf(file_at(&rate[i].ob[0], rate[i].buf[0], 64, "", (int)i - 1, "iops_fp"), "%lld %llu\n",
		  (long long)sec, (unsigned long long)ios);
	ob_printf(file_at(&rate[i].ob[1], rate[i].buf[1], 64, "", (int)i - 1, "mbps_fp"), "%lld %f\n",
		  (long long)sec, (double)(s64)blks / 2048.0);
}

/* -z, -l, -q, -I NAME or -S SECONDS; 1 when -I's file cannot be made */
int btt_files_opt(int c, const char *arg)
{
	int fd;

	if (c == 'd') {		/* the ns from which btt's BIT_TIME is -d SECS or more (to 1e-15 s) */
		const char *e;
		double x = scan_double(arg, &e);
		btt_range_gap = x > 0 ? (u64)(x * 1e9 + 0.999999) : 0;
	} else if (c == 'L') {
		const char *e;

		btt_opt.plat = scan_double(arg, &e);
		if (btt_opt.plat > 0)
			btt_lat_on = 1;
	} else if (c == 'S') {
		btt_ios_every = scan_u64(arg, NULL, 10) * 1000000000;
	} else if (c == 'I') {
		if ((fd = open_out(arg, 0644)) < 0)
			return 1;
		ob_init(&ios_ob, fd, arg, NULL, 0);
		btt_pool_use(&ios_ob);
		ob_puts(&ios_ob, TX(bttfiles_ios_hdr));
		btt_ios_on = 1;
	} else {
		lat_name[c == 'z' ? BTT_LQ2D : c == 'l' ? BTT_LD2C : BTT_LQ2C] = arg;
		btt_lat_on = 1;
	}
	return 0;
}

/* after a record: the lines its figures left (stats/bttstat.c) */
void btt_files_after(void)
{
	u32 k;

	for (k = 0; k < btt_nlats; k++)
		lat_line(btt_lats[k].dev, btt_lats[k].kind, btt_lats[k].t, btt_lats[k].lat);
	for (k = 0; k < btt_nrlines; k++)
		btt_rate_line(btt_rlines[k].slot, btt_rlines[k].sec, btt_rlines[k].ios, btt_rlines[k].blks);
	btt_nlats = btt_nrlines = 0;
	if (btt_ios_ready) {	/* -I: an interval's rows */
		ios_dump(btt_ios_stamp, 0);
		btt_ios_ready = 0;
	}
}

int btt_files_end(void)
{
	int k, rc = 0;
	u32 i;

	if (btt_ios_on) {
		ob_puts(&ios_ob, "\n");
		ios_dump(btt_ios_last, 1);
		rc = ob_close(&ios_ob);
	}

	for (k = 0; k < BTT_NLAT; k++)
		for (i = 0; i < btt_ndevs; i++)
			if (lat_ob[i][k].name)
				rc |= ob_close(&lat_ob[i][k]);
	for (i = 0; i <= btt_ndevs; i++) {	/* (sys_*: -1 0 when no device came) */
		btt_rate_line(i, btt_rates[i].ios ? btt_rates[i].sec : -1, btt_rates[i].ios, btt_rates[i].blks);
		for (k = 0; k < 2; k++)
			rc |= ob_close(&rate[i].ob[k]);
	}
	return rc;
}
