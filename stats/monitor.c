/* stats/monitor.c: stats: blkiomon: options, D/C pairing, interval statistics, exports */
/* monitor: blkiomon, per-device interval statistics of request sizes and
 * device (D to C) latency, in fixed pools.
 *
 * Repairs over blkiomon 0.3: a 0 us D-to-C time counts as 1 us for the
 * throughput figure (blkiomon divides by zero and dies); variance is
 * computed without wrapping sum*sum at 64 bits; throughput is computed in
 * 64 bits (blkiomon wraps size*1000 at 32 bits past 4 MiB requests); the
 * last partial interval is printed at end of input; the message queue is
 * awaited with a bounded backoff.  Unmatched requests age out of a fixed
 * pool and are counted (-D), instead of living forever.
 */
const char monitor_usage[] =
"usage: blkiomon -I SECS [-h FILE] [-b FILE] [-d FILE] [-D FILE] [-Q PATH -q ID -m MSGID]\n"
"       iomon monitor -I SECS [OPTIONS] [-i NAME]\n"
"\n"
"Per-device statistics of request sizes and device latency (D to C) each\n"
"interval, from a blktrace stream on stdin (blktrace -a issue -a complete\n"
"-o - sda | blkiomon -I 10 -h -) or from trace files.\n"
"\n"
" -I, --interval=SECS         interval length (required)\n"
" -h, --human-readable=FILE   text statistics ('-' for stdout)\n"
" -b, --binary=FILE           424-byte big-endian struct blkiomon_stat records\n"
" -d, --dump-lldd=FILE        pass driver-data records through to FILE\n"
" -D, --debug=FILE            matching details and counters\n"
" -Q, --msg-queue=PATH        System V message queue: ftok(PATH, -q ID),\n"
" -q, --msg-queue-id=ID       messages of type -m MSGID\n"
" -m, --msg-id=MSGID\n"
  " -i, --input=NAME            read NAME.blktrace.N files instead of stdin\n"
" -t, --trace=DEV             trace DEV live (repeatable), as iomon trace does\n"
"     --prom=FILE             Prometheus text (node_exporter textfile), each interval\n"
"     --json=FILE             one JSON object per device and interval ('-' stdout)\n"
"     --clock=wall|trace      interval clock (wall for stdin, trace for -i)\n"
" -V, --version               print the version\n";

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>		/* rename */
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "stats/stats.h"


struct minmax { u64 min, max, sum, sos, num; struct sq160 sq; };	/* sos wraps as blkiomon's; sq is exact */

struct dstat {
	u32 device, next;	/* next: output list, newest first (as blkiomon) */
	u32 size_hist[SIZE_BUCKETS], d2c_hist[D2C_BUCKETS];
	struct minmax size[2], d2c[2], thr[2];
	u64 bidir;
};

struct total {			/* since start, for Prometheus counters */
	u32 device;
	u64 num[2], bytes[2], bidir;
	u64 size_hist[SIZE_BUCKETS], d2c_hist[D2C_BUCKETS];
	u64 size_sum, d2c_sum_us;
};

static struct mon {
	struct dstat dev[MON_DEVS];
	u32 ndev, list;		/* list head: index + 1 */
	u64 drvdata, overall, dev_overflow, unsent;
	int interval, trace_clock, msq;
	long msg_id, msg_q_id;
	const char *msg_q_name, *in_name;
	struct obuf human, bin, drv, dbg;
	char hbuf[MON_TEXT_BUF], bbuf[MON_BIN_BUF], dbuf[MON_BIN_BUF], gbuf[MON_BIN_BUF];
	int have_h, have_b, have_d, have_g;
	struct total tot[MON_DEVS];
	u32 ntot;
	const char *prom, *json;
	struct obuf js;
	char jbuf[MON_JSON_BUF];
	u64 start;		/* trace clock: first event */
	s64 wall0;		/* trace clock: wall seconds at start */
} M;

static volatile int mon_stop;
static void on_sig(int s) { (void)s; mon_stop = 1; }

/* ---- statistics (stats.h of blktrace, with the repairs) ---- */

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

/* upper limit of bucket i: first + (i ? delta << (i - 1) : 0) */
static void hist_add(u32 *b, int n, u64 delta, u64 v)
{
	int i;

	for (i = 0; i < n - 1 && v > (i ? delta << (i - 1) : 0); i++)
		;
	b[i]++;
}

static struct dstat *dstat_get(u32 device)
{
	u32 i;

	for (i = 0; i < M.ndev; i++)
		if (M.dev[i].device == device)
			return &M.dev[i];
	if (M.ndev == MON_DEVS) {
		M.dev_overflow++;
		return NULL;
	}
	memset(&M.dev[i], 0, sizeof(M.dev[i]));
	M.dev[i].device = device;
	for (int k = 0; k < 2; k++) {
		mm_init(&M.dev[i].size[k]);
		mm_init(&M.dev[i].d2c[k]);
		mm_init(&M.dev[i].thr[k]);
	}
	M.dev[i].next = M.list;
	M.list = ++M.ndev;
	return &M.dev[i];
}

static struct total *total_get(u32 device)
{
	u32 i;

	for (i = 0; i < M.ntot; i++)
		if (M.tot[i].device == device)
			return &M.tot[i];
	if (M.ntot == MON_DEVS) {
		M.dev_overflow++;
		return NULL;
	}
	M.tot[M.ntot].device = device;
	return &M.tot[M.ntot++];
}

static void hist_add64(u64 *b, int n, u64 delta, u64 v)
{
	int i;

	for (i = 0; i < n - 1 && v > (i ? delta << (i - 1) : 0); i++)
		;
	b[i]++;
}

static void account(const struct dc_rec *d, const struct dc_rec *c)
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
	hist_add(s->size_hist, SIZE_BUCKETS, 1024, size);
	hist_add(s->d2c_hist, D2C_BUCKETS, 8, d2c);
	if (M.prom) {
		struct total *t = total_get(d->dev);

		if (t) {
			if (dir < 0)
				t->bidir++;
			else
				t->num[dir]++, t->bytes[dir] += size;
			t->size_sum += size;
			t->d2c_sum_us += d2c;
			hist_add64(t->size_hist, SIZE_BUCKETS, 1024, size);
			hist_add64(t->d2c_hist, D2C_BUCKETS, 8, d2c);
		}
	}
}

/* ---- exports: Prometheus text for node_exporter's textfile collector,
 * JSON lines ---- */

/* Bounds and sums are counts of unit 10^e (bytes, microseconds); they
 * print as %.9g printed them. */
static void prom_hist(struct obuf *o, const char *name, const struct total *t, const u64 *b, int n,
		      u64 delta, int e, u64 sum)
{
	char g[16];
	u64 cum = 0;
	int i;

	for (i = 0; i < n - 1; i++) {
		cum += b[i];
		*fmt_g9(g, i ? delta << (i - 1) : 0, e) = 0;
		ob_printf(o, "%s_bucket{device=\"%u,%u\",le=\"%s\"} %llu\n", name, DEV_MAJOR(t->device),
			  DEV_MINOR(t->device), g, (unsigned long long)cum);
	}
	cum += b[n - 1];
	ob_printf(o, "%s_bucket{device=\"%u,%u\",le=\"+Inf\"} %llu\n", name, DEV_MAJOR(t->device),
		  DEV_MINOR(t->device), (unsigned long long)cum);
	*fmt_g9(g, sum, e) = 0;
	ob_printf(o, "%s_sum{device=\"%u,%u\"} %s\n", name, DEV_MAJOR(t->device), DEV_MINOR(t->device), g);
	ob_printf(o, "%s_count{device=\"%u,%u\"} %llu\n", name, DEV_MAJOR(t->device), DEV_MINOR(t->device),
		  (unsigned long long)cum);
}

/* Written to FILE.tmp and renamed, so the collector never sees half. */
COLD static void prom_write(void)
{
	static const char *const dirs[2] = { "read", "write" };
	char tmp[PATH_LEN], buf[4096];
	struct obuf o;
	int fd, d;
	u32 i;

	sfmt(tmp, sizeof(tmp), "%s.tmp", M.prom);
	if ((fd = open_out(tmp, 0644)) < 0)
		return;
	ob_init(&o, fd, tmp, buf, sizeof(buf));
	ob_puts(&o, "# HELP iomon_requests_total Requests matched from issue (D) to completion (C).\n"
		    "# TYPE iomon_requests_total counter\n");
	for (i = 0; i < M.ntot; i++)
		for (d = 0; d < 2; d++)
			ob_printf(&o, "iomon_requests_total{device=\"%u,%u\",direction=\"%s\"} %llu\n",
				  DEV_MAJOR(M.tot[i].device), DEV_MINOR(M.tot[i].device), dirs[d],
				  (unsigned long long)M.tot[i].num[d]);
	ob_puts(&o, "# HELP iomon_bytes_total Bytes in matched requests.\n# TYPE iomon_bytes_total counter\n");
	for (i = 0; i < M.ntot; i++)
		for (d = 0; d < 2; d++)
			ob_printf(&o, "iomon_bytes_total{device=\"%u,%u\",direction=\"%s\"} %llu\n",
				  DEV_MAJOR(M.tot[i].device), DEV_MINOR(M.tot[i].device), dirs[d],
				  (unsigned long long)M.tot[i].bytes[d]);
	ob_puts(&o, "# HELP iomon_bidirectional_requests_total Matched requests neither read nor write.\n"
		    "# TYPE iomon_bidirectional_requests_total counter\n");
	for (i = 0; i < M.ntot; i++)
		ob_printf(&o, "iomon_bidirectional_requests_total{device=\"%u,%u\"} %llu\n",
			  DEV_MAJOR(M.tot[i].device), DEV_MINOR(M.tot[i].device), (unsigned long long)M.tot[i].bidir);
	ob_puts(&o, "# HELP iomon_request_size_bytes Request sizes.\n# TYPE iomon_request_size_bytes histogram\n");
	for (i = 0; i < M.ntot; i++)
		prom_hist(&o, "iomon_request_size_bytes", &M.tot[i], M.tot[i].size_hist, SIZE_BUCKETS, 1024, 0,
			  M.tot[i].size_sum);
	ob_puts(&o, "# HELP iomon_device_latency_seconds Issue (D) to completion (C) time.\n"
		    "# TYPE iomon_device_latency_seconds histogram\n");
	for (i = 0; i < M.ntot; i++)
		prom_hist(&o, "iomon_device_latency_seconds", &M.tot[i], M.tot[i].d2c_hist, D2C_BUCKETS, 8, -6,
			  M.tot[i].d2c_sum_us);
	if (!ob_close(&o) && rename(tmp, M.prom))
		warn_msg("rename %s: %s", tmp, strerror(errno));
}

static void json_mm(struct obuf *o, const char *k, const struct minmax *m, int last)
{
	double avg = m->num ? (double)m->sum / (double)m->num : 0.0;
	char var[80];

	*fmt_variance(var, m->num, m->sum, &m->sq, 3) = 0;
	if (!m->num)
		ob_printf(o, "\"%s\":{\"num\":0}%s", k, last ? "" : ",");
	else
		ob_printf(o, "\"%s\":{\"num\":%llu,\"min\":%llu,\"max\":%llu,\"sum\":%llu,\"avg\":%.3f,\"var\":%s}%s",
			  k, (unsigned long long)m->num, (unsigned long long)m->min, (unsigned long long)m->max,
			  (unsigned long long)m->sum, avg, var, last ? "" : ",");
}

static void json_write(const struct dstat *s, s64 t)
{
	struct obuf *o = &M.js;
	int i;

	ob_printf(o, "{\"time\":%lld,\"interval\":%d,\"device\":\"%u,%u\",", (long long)t, M.interval,
		  DEV_MAJOR(s->device), DEV_MINOR(s->device));
	for (i = 0; i < 2; i++) {
		ob_printf(o, "\"%s\":{", i ? "write" : "read");
		json_mm(o, "size_bytes", &s->size[i], 0);
		json_mm(o, "d2c_usec", &s->d2c[i], 0);
		json_mm(o, "throughput_bytes_per_msec", &s->thr[i], 1);
		ob_puts(o, "},");
	}
	ob_puts(o, "\"size_hist_bytes\":[");
	for (i = 0; i < SIZE_BUCKETS; i++)
		ob_printf(o, "%s%u", i ? "," : "", s->size_hist[i]);
	ob_puts(o, "],\"d2c_hist_usec\":[");
	for (i = 0; i < D2C_BUCKETS; i++)
		ob_printf(o, "%s%u", i ? "," : "", s->d2c_hist[i]);
	ob_printf(o, "],\"bidirectional\":%llu}\n", (unsigned long long)s->bidir);
}

/* ---- output ---- */

static void mm_print(struct obuf *o, const char *what, const struct minmax *m)
{
	double avg = m->num ? (double)m->sum / (double)m->num : 0.0;
	char var[80];

	/* exact: blkiomon's sum*sum wraps, and doubles lose the last digit */
	*fmt_variance(var, m->num, m->sum, &m->sq, 1) = 0;
	ob_printf(o, "%s: num %llu, min %lld, max %llu, sum %llu, squ %llu, avg %.1f, var %s\n", what,
		  (unsigned long long)m->num, (long long)m->min, (unsigned long long)m->max,
		  (unsigned long long)m->sum, (unsigned long long)m->sos, avg, var);
}

static void hist_print(struct obuf *o, const char *what, const u32 *b, int n, u64 delta)
{
	int i;

	ob_printf(o, "%s:\n", what);
	for (i = 0; i < n - 1; i++) {
		ob_printf(o, "   %10llu:%6u", (unsigned long long)(i ? delta << (i - 1) : 0), b[i]);
		if (!((i + 1) % 4))
			ob_write(o, "\n", 1);
	}
	ob_printf(o, "    >%8llu:%6u\n", (unsigned long long)(i - 1 ? delta << (i - 2) : 0), b[i]);
}

static void put_be(u8 *p, u64 v, int n)
{
	while (n--) {
		p[n] = (u8)v;
		v >>= 8;
	}
}

static void emit_binary(const struct dstat *s, s64 t, u8 *out)
{
	const struct minmax *mm[6] = { &s->size[0], &s->size[1], &s->d2c[0], &s->d2c[1], &s->thr[0], &s->thr[1] };
	int i;

	put_be(out, (u64)t, 8);
	for (i = 0; i < SIZE_BUCKETS; i++)
		put_be(out + 8 + 4 * i, s->size_hist[i], 4);
	for (i = 0; i < D2C_BUCKETS; i++)
		put_be(out + 72 + 4 * i, s->d2c_hist[i], 4);
	put_be(out + 172, s->device, 4);
	for (i = 0; i < 6; i++) {
		put_be(out + 176 + 40 * i, mm[i]->min, 8);
		put_be(out + 184 + 40 * i, mm[i]->max, 8);
		put_be(out + 192 + 40 * i, mm[i]->sum, 8);
		put_be(out + 200 + 40 * i, mm[i]->sos, 8);
		put_be(out + 208 + 40 * i, mm[i]->num, 8);
	}
	put_be(out + 416, s->bidir, 8);
}

/* blkiomon blocks while the queue is full, and so do we: the reader
 * (ziomon_mgr) may pause, and a record dropped then is gone.  A signal
 * interrupts the wait (msgsnd is never restarted); after it, room is
 * awaited MON_QUEUE_WAIT_MS at most in all, and what is still left is
 * counted (-D) and said. */
static void queue_send(const u8 *stat)
{
	static u32 waited;
	struct { long mtype; u8 stat[BLKIOMON_STAT_LEN]; } msg;

	if (M.msq < 0)
		return;
	msg.mtype = M.msg_id;
	memcpy(msg.stat, stat, BLKIOMON_STAT_LEN);
	while (msgsnd(M.msq, &msg, BLKIOMON_STAT_LEN, mon_stop ? IPC_NOWAIT : 0)) {
		struct timespec ts = { 0, 10000000 };

		if (errno == EINTR)
			continue;
		if (errno != EAGAIN) {
			warn_msg("message queue: %s", strerror(errno));
			M.unsent++;
			return;
		}
		if (waited >= MON_QUEUE_WAIT_MS) {
			M.unsent++;
			return;
		}
		nanosleep(&ts, NULL);
		waited += 10;
	}
}

/* One interval: every device seen, newest first, as blkiomon lists them. */
COLD static void flush_interval(s64 t)
{
	u32 i;

	for (i = M.list; i; i = M.dev[i - 1].next) {
		const struct dstat *s = &M.dev[i - 1];
		u8 bin[BLKIOMON_STAT_LEN];

		if (M.have_h) {
			char ct[64];
			time_t tt = (time_t)t;
			struct tm tm;

			if (localtime_r(&tt, &tm))
				*fmt_date(ct, &tm) = 0;
			else
				sfmt(ct, sizeof(ct), "%lld", (long long)t);
			ob_printf(&M.human, "\ntime: %s\ndevice: %u,%u\n", ct, DEV_MAJOR(s->device), DEV_MINOR(s->device));
			mm_print(&M.human, "sizes read (bytes)", &s->size[0]);
			mm_print(&M.human, "sizes write (bytes)", &s->size[1]);
			mm_print(&M.human, "d2c read (usec)", &s->d2c[0]);
			mm_print(&M.human, "d2c write (usec)", &s->d2c[1]);
			mm_print(&M.human, "throughput read (bytes/msec)", &s->thr[0]);
			mm_print(&M.human, "throughput write (bytes/msec)", &s->thr[1]);
			hist_print(&M.human, "sizes histogram (bytes)", s->size_hist, SIZE_BUCKETS, 1024);
			hist_print(&M.human, "d2c histogram (usec)", s->d2c_hist, D2C_BUCKETS, 8);
			ob_printf(&M.human, "bidirectional requests: %llu\n", (unsigned long long)s->bidir);
		}
		if (M.json)
			json_write(s, t);
		emit_binary(s, t, bin);
		if (M.have_b)
			ob_write(&M.bin, bin, sizeof(bin));
		queue_send(bin);
	}
	M.ndev = 0;
	M.list = 0;
	if (M.prom)
		prom_write();
	if (M.json)
		ob_flush(&M.js);
	if (M.have_h)
		ob_flush(&M.human);
	if (M.have_b)
		ob_flush(&M.bin);
	if (M.have_d)
		ob_flush(&M.drv);
}

/* ---- D/C matching in a fixed pool (blkiomon_do_trace): match/dcpair.c ---- */

static void debug_rec(const char *what, const struct dc_rec *p)
{
	if (M.have_g)
		ob_printf(&M.dbg, "--- %s ---\ntime     %16llu\nsector   %16llu\nbytes    %16u\naction   %16x\ndevice   %16u\n",
			  what, (unsigned long long)p->time, (unsigned long long)p->sector, p->bytes,
			  p->action, p->dev);
}

static void debug_note(void *ctx, const char *what, const struct dc_rec *r)
{
	(void)ctx;
	debug_rec(what, r);
}

/* when the pool is full the oldest waiting record ages out (-D says so);
 * slots above hwm were never used (untouched pages) */
IFT_POOL(pend, struct dc_ent, MON_PENDING, MON_HASH, IFT_AGE_FIFO);
static struct dcpair DC = { .t = &pend, .note = debug_note };

/* ---- input ---- */

static s64 wall_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return t.tv_sec;
}

static void record(const struct rec *r)
{
	u32 a = ACT32(r);
	struct dc_rec t, d, c;

	M.overall++;
	if (a & TC(TC_DRV_DATA)) {
		M.drvdata++;
		if (M.have_d) {
			u8 h[REC_V7_LEN];

			rec_encode_v7(h, r);
			ob_write(&M.drv, h, REC_V7_LEN);
			ob_write(&M.drv, r->pdu, r->pdu_len);
		}
		return;
	}
	if (a == TN_TIMESTAMP && r->pdu_len == 8 && !M.start) {
		M.wall0 = ne32_load(r->pdu, r->swapped);	/* intervals in wall time */
		return;
	}
	if (!(a & (TC(TC_ISSUE) | TC(TC_COMPLETE))) || REC_IS_NOTE(r))
		return;
	if (M.trace_clock) {
		u64 iv = (u64)M.interval * 1000000000u, k;

		if (!M.start)
			M.start = r->time;
		/* Intervals after the first one passed are empty and print
		 * nothing: step over them at once (a jump in a damaged trace's
		 * clock would otherwise mean billions of them). */
		if (r->time >= M.start + iv) {
			k = (r->time - M.start) / iv;
			flush_interval(M.wall0 + M.interval);
			M.start += k * iv;
			M.wall0 += (s64)k * M.interval;
		}
	}
	t = (struct dc_rec){ .time = r->time, .sector = r->sector, .dev = r->dev, .action = a, .bytes = r->bytes };
	if (dc_pair(&DC, &t, &d, &c))
		account(&d, &c);
}

static u8 inbuf[STREAM_BUF];

static int buffered_record(const struct src *s)
{
	struct rec r;
	u32 have = s->len - s->pos;

	return have >= REC_V7_LEN && (rec_decode(s->buf + s->pos, have, &r) > 0 || rec_unfilled(s->buf + s->pos));
}

static int run_stdin(void)
{
	struct src s;
	s64 next = wall_now() + M.interval;
	int rc = 0;
	u32 polls = 0;

	src_init(&s, 0, "(stdin)", inbuf, STREAM_BUF);
	while (!mon_stop) {
		struct rec r;
		int got;

		/* the clock is read when the stream would make us wait, and
		 * every few thousand records of a busy one: a read per record
		 * was a third of the time */
		if (!M.trace_clock && ((s.len - s.pos < 4096 && !buffered_record(&s)) || !(++polls & 4095))) {
			s64 now = wall_now();
			struct pollfd p = { 0, POLLIN, 0 };

			if (now >= next) {
				flush_interval(next);
				next += M.interval;
				continue;
			}
			/* wake for the interval even when the stream is quiet;
			 * driver data is passed on before waiting: ziomon_zfcpdd
			 * books it by the time it arrives */
			if (!buffered_record(&s)) {
				if (M.have_d)
					ob_flush(&M.drv);
				if (poll(&p, 1, (int)(next - now) * 1000) == 0)
					continue;
			}
		}
		got = src_record(&s, &r);
		if (got < 0)
			rc = 1;
		if (got <= 0)
			break;
		record(&r);
	}
	/* blkiomon drops the last partial interval; we print it */
	flush_interval(M.trace_clock ? M.wall0 + M.interval : wall_now());
	src_zero_report();
	return rc;
}

/* Live: iomon trace's backends hand records over as they are read. */
static struct src LS;
static s64 live_next;

static void live_drain(void)
{
	struct rec r;

	while (src_record(&LS, &r) > 0)
		record(&r);
}

static int live_push(const void *p, size_t n)
{
	return src_feed(&LS, p, n, live_drain);
}

static void live_round(void)
{
	s64 now;

	live_drain();
	now = wall_now();
	while (now >= live_next) {
		flush_interval(live_next);
		live_next += M.interval;
	}
}

static int run_live(char **devs, int n)
{
	int rc;

	src_init_push(&LS, inbuf, STREAM_BUF);
	live_next = wall_now() + M.interval;
	rc = trace_devices(devs, n, (1u << TC_ISSUE) | (1u << TC_COMPLETE) | (1u << TC_DRV_DATA),
			   live_push, live_round);
	live_round();
	flush_interval(wall_now());
	return rc;
}

static int run_files(void)
{
	int rc = src_replay(M.in_name, record, &mon_stop);

	flush_interval(M.wall0 + M.interval);
	return rc;
}

/* ---- options, main ---- */

static int open_output(struct obuf *o, const char *name, char *buf, u32 len)
{
	int fd = strcmp(name, "-") ? open_out(name, 0644) : 1;

	if (fd < 0)
		return -1;
	ob_init(o, fd, name, buf, len);
	return 0;
}

/* blkiomon spins on msgget until the queue exists; we wait with a bounded
 * backoff (10 ms doubling to 1 s) and give up after a minute. */
static int open_queue(void)
{
	key_t key;
	long waited = 0, step = 10;

	M.msq = -1;
	if (!M.msg_q_name)
		return 0;
	if (M.msg_q_id <= 0 || M.msg_id <= 0) {
		warn_msg("-Q needs -q ID and -m MSGID, both above 0");
		return -1;
	}
	key = ftok(M.msg_q_name, (int)M.msg_q_id);
	if (key == -1) {
		warn_msg("%s: ftok: %s", M.msg_q_name, strerror(errno));
		return -1;
	}
	while ((M.msq = msgget(key, S_IRWXU)) < 0 && !mon_stop) {
		struct timespec ts = { step / 1000, (step % 1000) * 1000000 };

		if (waited >= 60000) {
			warn_msg("%s: no message queue (id %ld) appeared in 60 s", M.msg_q_name, M.msg_q_id);
			return -1;
		}
		nanosleep(&ts, NULL);
		waited += step;
		step = step * 2 > 1000 ? 1000 : step * 2;
	}
	return M.msq < 0 ? -1 : 0;
}

static const struct option longopts[] = {
	{ "human-readable", 1, 0, 'h' }, { "binary", 1, 0, 'b' }, { "dump-lldd", 1, 0, 'd' },
	{ "debug", 1, 0, 'D' }, { "interval", 1, 0, 'I' }, { "msg-queue", 1, 0, 'Q' },
	{ "msg-queue-id", 1, 0, 'q' }, { "msg-id", 1, 0, 'm' }, { "version", 0, 0, 'V' },
	{ "input", 1, 0, 'i' }, { "trace", 1, 0, 't' }, { "clock", 1, 0, 'C' }, { "prom", 1, 0, 'P' }, { "json", 1, 0, 'J' }, { "help", 0, 0, 'H' }, { 0, 0, 0, 0 },
};

COLD int monitor_main(int argc, char **argv)
{
	const char *hn = NULL, *bn = NULL, *dn = NULL, *gn = NULL;
	int c, rc, clock = -1;
	u32 i;

	static char *devs[CAP_DEVS];
	int ndevs = 0;

	while ((c = opt_get(argc, argv, "b:d:D:h:I:Q:q:m:Vi:t:", longopts)) != -1) {
		switch (c) {
		case 'h': hn = opt_arg; break;
		case 'b': bn = opt_arg; break;
		case 'd': dn = opt_arg; break;
		case 'D': gn = opt_arg; break;
		case 'I': M.interval = atoi(opt_arg); break;
		case 'Q': M.msg_q_name = opt_arg; break;
		case 'q': M.msg_q_id = atol(opt_arg); break;
		case 'm': M.msg_id = atol(opt_arg); break;
		case 'i': M.in_name = opt_arg; break;
		case 't':
			if (ndevs == CAP_DEVS) {
				warn_msg("more than %d devices (CAP_DEVS)", CAP_DEVS);
				return 1;
			}
			devs[ndevs++] = opt_arg;
			break;
		case 'P': M.prom = opt_arg; break;
		case 'J': M.json = opt_arg; break;
		case 'C':
			if (strcmp(opt_arg, "wall") && strcmp(opt_arg, "trace")) {
				warn_msg("--clock=wall or --clock=trace, not '%s'", opt_arg);
				return 1;
			}
			clock = !strcmp(opt_arg, "trace");
			break;
		case 'V': {
			char line[96];
			int n = sfmt(line, sizeof(line), "%s version 0.3\n", argv[0]);

			return write(1, line, (size_t)n) == n ? 0 : 1;
		}
		case 'H':
			return write(1, monitor_usage, sizeof(monitor_usage) - 1) < 0;
		default:
			if (write(2, monitor_usage, sizeof(monitor_usage) - 1) < 0)
				return 1;
			return 1;
		}
	}
	if (M.interval <= 0) {
		warn_msg("-I SECS is required and must be above 0");
		return 1;
	}
	dc_init(&DC);
	M.trace_clock = clock >= 0 ? clock : M.in_name != NULL;
	if (M.in_name) {
		char *b = str_find((char *)M.in_name, ".blktrace.");

		if (b)
			*b = 0;
	}
	if ((hn && open_output(&M.human, hn, M.hbuf, sizeof(M.hbuf))) ||
	    (bn && open_output(&M.bin, bn, M.bbuf, sizeof(M.bbuf))) ||
	    (dn && open_output(&M.drv, dn, M.dbuf, sizeof(M.dbuf))) ||
	    (gn && open_output(&M.dbg, gn, M.gbuf, sizeof(M.gbuf))))
		return 1;
	M.have_h = !!hn, M.have_b = !!bn, M.have_d = !!dn, M.have_g = !!gn;
	if (M.json && open_output(&M.js, M.json, M.jbuf, sizeof(M.jbuf)))
		return 1;
	signal(SIGINT, on_sig);
	signal(SIGTERM, on_sig);
	signal(SIGQUIT, on_sig);
	signal(SIGALRM, on_sig);
	if (open_queue())
		return 1;
	if (ndevs) {
		/* the capture takes over these signals to stop cleanly */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
	}
	rc = ndevs ? run_live(devs, ndevs) : M.in_name ? run_files() : run_stdin();
	if (M.have_g) {
		u64 left = 0;
		struct dc_ent *e;
		struct dc_rec t;

		for (i = 1; i <= pend.hwm; i++)	/* in slot order */
			if ((e = ift_slot(&pend, i))) {
				dc_rec_of(e, &t);
				debug_rec("leftover", &t);
				left++;
			}
		ob_printf(&M.dbg, "%llu leftover, %llu match, %llu mismatch, %llu driverdata, %llu overall\n",
			  (unsigned long long)left, DC.match, DC.mismatch,
			  (unsigned long long)M.drvdata, (unsigned long long)M.overall);
		ob_printf(&M.dbg, "%llu aged out of the pool (MON_PENDING %d), %llu devices over MON_DEVS %d\n",
			  pend.aged, MON_PENDING, (unsigned long long)M.dev_overflow, MON_DEVS);
		if (M.msq >= 0)
			ob_printf(&M.dbg, "%llu records not sent: the message queue stayed full (MON_QUEUE_WAIT_MS %d)\n",
				  (unsigned long long)M.unsent, MON_QUEUE_WAIT_MS);
		rc |= ob_close(&M.dbg);
	}
	if (M.unsent) {
		warn_msg("%llu records not sent: the message queue stayed full %d ms after the signal",
			 (unsigned long long)M.unsent, MON_QUEUE_WAIT_MS);
		rc = 1;
	}
	/* pools that ran out, said where it is seen without -D */
	if (pend.aged)
		warn_msg("pending pool full: %llu unmatched records aged out (MON_PENDING %d)",
			 pend.aged, MON_PENDING);
	if (M.dev_overflow)
		warn_msg("device table full: %llu requests unreported (MON_DEVS %d)",
			 (unsigned long long)M.dev_overflow, MON_DEVS);
	if (M.have_h)
		rc |= ob_close(&M.human);
	if (M.json)
		rc |= ob_close(&M.js);
	if (M.have_b)
		rc |= ob_close(&M.bin);
	if (M.have_d)
		rc |= ob_close(&M.drv);
	return rc || src_errors ? 1 : 0;
}
