/* output/lat.c: driver: biolatency: I/O latency as log2 histograms, live or from a trace */
//applet: biolatency lat lat_main
//sources: capture/merge.c match/inflight.c
//readme: BCC's biolatency, without BPF; percentiles (-P) | biolatency.8
/* lat: biolatency's histograms from block traces.  A request's latency is
 * issue (D) to completion (C), or with -Q queue (Q) to completion, matched
 * by (device, sector) in a fixed in-flight table.  Buckets as BCC's
 * bpf_log2l: slot 1 holds 0 and 1, slot i (i > 1) holds 2^(i-1)..2^i-1.
 * -P adds percentiles from log-linear buckets (64 a power of two; the
 * middle of a bucket is within 1/128 of any value in it), max exact.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "output/output.h"
#include "match/match.h"

USAGE(lat,
"usage: iomon lat [-T] [-Q] [-m] [-D | -F] [-e] [-P] [-d DISK] [-t DEV]...\n"
"                 [-i NAME] [interval [count]]\n"
"\n"
"Block I/O latency as biolatency's log2 histograms.\n"
"\n"
" -T            include a timestamp (HH:MM:SS) on each table\n"
" -Q            include OS queued time: queue (Q) to completion, not\n"
"               issue (D) to completion\n"
" -m            milliseconds, not microseconds\n"
" -D            a histogram per disk\n"
" -F            a histogram per set of I/O flags\n"
" -e            extended: average latency, total and count\n"
" -P            percentiles p50 p90 p99 p99.9 and max per disk and\n"
"               direction (R W, F flush, D discard; within 1 %, max exact)\n"
" -d DISK       only DISK (its name, as sda)\n"
" -t DEV        trace DEV (repeatable); default: every whole disk, as top\n"
" -i NAME       replay NAME.blktrace.N files (or - for a stream) in trace time\n"
" interval      seconds between tables (default: one table at the end)\n"
" count         tables before it stops\n")

#define NSLOT 64
#define PSUB 64			/* log-linear sub-buckets a power of two */
#define PBUCKETS (2 * PSUB + 42 * PSUB)

struct lreq {
	struct ift_hdr h;
	u64 t;
	u32 flags;
};
IFT_POOL(lreqs, struct lreq, LAT_REQS, LAT_HASH, IFT_AGE_NEAR);

static struct hist {
	u32 key;		/* dev (-D) or flags (-F); 0 */
	u64 slot[NSLOT];
} H[LAT_HISTS];
static u32 nhist;

static struct pser {
	u32 dev, w;	/* w: the F_OP, R W F D */
	u64 n, max;
	u32 b[PBUCKETS];
} PS[LAT_PSERIES];
static u32 npser;

static struct {
	int ts, queued, ms, disks, flags, ext, pct, interval, count, live, done;
	const char *disk, *in, *replay;
	char *devs[CAP_DEVS];
	int ndevs;
	u64 total, n, start, next, filt_dev;
	int filt_known;
	unsigned long long lost;
	char outbuf[LAT_OUT_BUF];
	struct obuf out;
} L;
static volatile sig_atomic_t lat_stop;
static s64 wall0;

/* flags as BCC's -F names them, from the issue's RWBS bits */
#define F_OP(f) ((f) & 3)	/* 0 Read 1 Write 2 Flush 3 Discard */
#define F_SYNC 4
#define F_META 8
#define F_FUA 16
#define F_PREFLUSH 32
#define F_AHEAD 64
static u32 flags_of(u32 a, u32 bytes)
{
	u32 f;

	if (a & TC(TC_DISCARD))
		f = 3;
	else if (a & TC(TC_WRITE))
		f = 1;
	else if ((a & TC(TC_FLUSH)) && !bytes)
		f = 2;
	else
		f = 0;
	if (a & TC(TC_SYNC))
		f |= F_SYNC;
	if (a & TC(TC_META))
		f |= F_META;
	if (a & TC(TC_FUA))
		f |= F_FUA;
	if ((a & TC(TC_FLUSH)) && F_OP(f) != 2)
		f |= F_PREFLUSH;
	if (a & TC(TC_AHEAD))
		f |= F_AHEAD;
	return f;
}

static void flags_name(u32 f, char *out, size_t len)
{
	static const char *const op[] = { "Read", "Write", "Flush", "Discard" };
	static const char *const pre[] = { "ReadAhead-", "PreFlush-", "ForcedUnitAccess-", "Metadata-", "Sync-" };
	static const u32 bit[] = { F_AHEAD, F_PREFLUSH, F_FUA, F_META, F_SYNC };
	u32 i, n = 0;

	out[0] = 0;
	for (i = 0; i < 5; i++)	/* BCC prefixes each flag in turn: the last one first */
		if (f & bit[i])
			n += (u32)sfmt(out + n, len - n, "%s", pre[i]);
	sfmt(out + n, len - n, "%s", op[F_OP(f)]);
}

static void disk_name(u32 dev, char *out, size_t len)
{
	static u32 first, seen;

	if (L.replay && strcmp(L.replay, "-") && (!seen || dev == first)) {	/* the files' name: the first device's; a stream has none */
		seen = 1, first = dev;
		sfmt(out, len, "%s", L.replay);
	} else if (L.replay)
		sfmt(out, len, "%u,%u", DEV_MAJOR(dev), DEV_MINOR(dev));
	else if (sys_devname(dev, out, len))
		sfmt(out, len, "%u,%u", DEV_MAJOR(dev), DEV_MINOR(dev));
}

static int slot_of(u64 v)
{
	return v < 2 ? 1 : 64 - __builtin_clzll(v);
}

static u32 pbucket(u64 v)
{
	u32 e;

	if (v < 2 * PSUB)
		return (u32)v;
	e = 63 - (u32)__builtin_clzll(v);	/* >= 7 */
	if (e > 47)
		return PBUCKETS - 1;
	return 2 * PSUB + (e - 7) * PSUB + (u32)((v >> (e - 6)) & (PSUB - 1));
}

/* the middle of bucket i, in ns */
static u64 pvalue(u32 i)
{
	u32 e;
	u64 lo, w;

	if (i < 2 * PSUB)
		return i;
	e = (i - 2 * PSUB) / PSUB + 7;
	w = (u64)1 << (e - 6);
	lo = ((u64)1 << e) + (u64)((i - 2 * PSUB) % PSUB) * w;
	return lo + w / 2;
}

static void account(u32 dev, u32 flags, u64 ns)
{
	u64 v = ns / (L.ms ? 1000000u : 1000u);
	u32 key = L.disks ? dev : L.flags ? flags : 0, i;

	for (i = 0; i < nhist && H[i].key != key; i++)
		;
	if (i == nhist) {
		if (nhist == LAT_HISTS) {
			L.lost++;
			return;
		}
		memset(&H[nhist], 0, sizeof(H[0]));
		H[nhist++].key = key;
	}
	H[i].slot[slot_of(v)]++;
	L.total += ns;
	L.n++;
	if (!L.pct)
		return;
	for (i = 0; i < npser && !(PS[i].dev == dev && PS[i].w == F_OP(flags)); i++)
		;
	if (i == npser) {
		if (npser == LAT_PSERIES) {
			L.lost++;
			return;
		}
		memset(&PS[npser], 0, sizeof(PS[0]));
		PS[npser].dev = dev;
		PS[npser++].w = F_OP(flags);
	}
	PS[i].n++;
	if (ns > PS[i].max)
		PS[i].max = ns;
	PS[i].b[pbucket(ns)]++;
}

/* ---- the tables ---- */

static void stars(struct obuf *o, u64 val, u64 vmax, u32 width)
{
	u32 n = vmax ? (u32)(width * val / vmax) : 0, i;

	if (n > width)
		n = width;
	for (i = 0; i < width; i++)
		ob_puts(o, i < n ? "*" : " ");
}

static void log2_hist(struct obuf *o, const u64 *v, const char *label)
{
	int i, imax = -1;
	u64 vmax = 0;

	for (i = 0; i < NSLOT; i++) {
		if (v[i])
			imax = i;
		if (v[i] > vmax)
			vmax = v[i];
	}
	if (imax <= 0)
		return;
	if (imax <= 32)
		ob_printf(o, "     %-19s : count     distribution\n", label);
	else
		ob_printf(o, "               %-29s : count     distribution\n", label);
	for (i = 1; i <= imax; i++) {
		unsigned long long lo = (1ull << i) >> 1, hi = (1ull << i) - 1;

		if (lo == hi)
			lo--;
		if (imax <= 32)
			ob_printf(o, "%10llu -> %-10llu : %-8llu |", lo, hi, (unsigned long long)v[i]);
		else
			ob_printf(o, "%20llu -> %-20llu : %-8llu |", lo, hi, (unsigned long long)v[i]);
		stars(o, v[i], vmax, imax <= 32 ? 40 : 20);
		ob_puts(o, "|\n");
	}
}

/* ns in the table's unit: 12.345 usecs, 0.012345 msecs */
static void put_unit(struct obuf *o, u64 ns)
{
	u64 div = L.ms ? 1000000u : 1000u;
	char s[32];

	/* every digit down to the nanosecond */
	sfmt(s, sizeof(s), L.ms ? "%llu.%06llu" : "%llu.%03llu", (unsigned long long)(ns / div),
	     (unsigned long long)(ns % div));
	ob_printf(o, " %10s", s);
}

static void percentiles(struct obuf *o)
{
	static const u32 per[] = { 500, 900, 990, 999 };	/* per mille */
	u32 i, k, b;

	if (!npser)
		return;
	ob_printf(o, "\npercentiles, %s:\n%-12s %-3s %10s %10s %10s %10s %10s %10s\n", L.ms ? "msecs" : "usecs",
		  "disk", "dir", "count", "p50", "p90", "p99", "p99.9", "max");
	for (i = 0; i < npser; i++) {
		char name[32];

		disk_name(PS[i].dev, name, sizeof(name));
		ob_printf(o, "%-12s %-3s %10llu", name, (const char *[]){ "R", "W", "F", "D" }[PS[i].w & 3], (unsigned long long)PS[i].n);
		for (k = 0; k < 4; k++) {
			/* nearest rank: the ceil(p n)-th smallest */
			u64 rank = (PS[i].n * per[k] + 999) / 1000, c = 0, v = 0;

			if (!rank)
				rank = 1;
			for (b = 0; b < PBUCKETS; b++)
				if ((c += PS[i].b[b]) >= rank) {
					v = pvalue(b);
					break;
				}
			put_unit(o, v > PS[i].max ? PS[i].max : v);
		}
		put_unit(o, PS[i].max);
		ob_puts(o, "\n");
	}
}

static int by_key(const void *ctx, u16 a, u16 b)
{
	char x[32], y[32];

	(void)ctx;
	if (!L.disks)
		return H[a].key > H[b].key;
	disk_name(H[a].key, x, sizeof(x));
	disk_name(H[b].key, y, sizeof(y));
	return strcmp(x, y) > 0;
}

static void print_tables(s64 wall)
{
	struct obuf *o = &L.out;
	const char *label = L.ms ? "msecs" : "usecs";
	static u16 idx[LAT_HISTS];
	u32 i;

	ob_puts(o, "\n");
	if (L.ts) {
		struct tm tm;
		char hms[16];

		if (!local_tm(wall, &tm))
			memset(&tm, 0, sizeof(tm));
		fmt_hms(hms, &tm);
		ob_printf(o, "%-8s\n", hms);
	}
	for (i = 0; i < nhist; i++)
		idx[i] = (u16)i;
	isort16(idx, nhist, by_key, NULL);
	for (i = 0; i < nhist; i++) {
		char name[48];

		if (L.disks || L.flags) {
			if (L.disks)
				disk_name(H[idx[i]].key, name, sizeof(name));
			else
				flags_name(H[idx[i]].key, name, sizeof(name));
			ob_printf(o, "\n%s = %s\n", L.disks ? "disk" : "flags", name);
		}
		log2_hist(o, H[idx[i]].slot, label);
	}
	if (L.ext && L.n) {
		u64 div = L.ms ? 1000000u : 1000u;

		ob_printf(o, "\navg = %llu %s, total: %llu %s, count: %llu\n\n",
			  (unsigned long long)(L.total / div / L.n), label,
			  (unsigned long long)(L.total / div), label, (unsigned long long)L.n);
	}
	if (L.pct)
		percentiles(o);
	ob_flush(o);
	nhist = npser = 0;
	L.total = L.n = 0;
}

/* ---- records ---- */

static int want_dev(u32 dev)
{
	char name[48];

	if (!L.disk)
		return 1;
	if (L.filt_known)
		return dev == L.filt_dev;
	disk_name(dev, name, sizeof(name));
	if (strcmp(name, L.disk))
		return 0;
	L.filt_dev = dev;
	L.filt_known = 1;
	return 1;
}

static int tick(const struct rec *r)
{
	if (L.live || !L.interval)
		return 0;
	if (!L.start) {
		L.start = r->time;
		L.next = r->time + (u64)L.interval * 1000000000u;
		return 0;
	}
	while (r->time >= L.next) {
		print_tables(wall0 + (s64)((L.next - L.start) / 1000000000u));
		L.next += (u64)L.interval * 1000000000u;
		if (L.count && !--L.count) {
			L.done = lat_stop = 1;
			return 1;
		}
	}
	return 0;
}

static void lat_record(const struct rec *r)
{
	u32 a = ACT32(r), op = a & 0xffff;
	struct lreq *q;

	if (L.done)
		return;
	if (a == TN_TIMESTAMP && r->pdu_len == 8) {
		wall0 = ne32_load(r->pdu, r->swapped);
		return;
	}
	if (REC_IS_NOTE(r) || (a & TC(TC_NOTIFY)))
		return;
	if (tick(r) || !want_dev(r->dev))
		return;
	if (op == (L.queued ? TA_QUEUE : TA_ISSUE)) {
		if ((q = ift_get(&lreqs, r->dev, r->sector, 0, r->time))) {
			q->t = r->time;
			q->flags = flags_of(a, r->bytes);
		}
	} else if (op == TA_ISSUE && L.queued) {
		if ((q = ift_find(&lreqs, r->dev, r->sector, 0)))
			q->flags = flags_of(a, r->bytes);	/* the request's own flags */
	} else if (op == TA_BACKMERGE && L.queued) {
		if ((q = ift_find(&lreqs, r->dev, r->sector, 0)))
			ift_del(&lreqs, q);
	} else if (op == TA_FRONTMERGE && L.queued) {
		/* the request now starts at this bio's sector, its time stays */
		struct lreq *old = ift_find(&lreqs, r->dev, r->sector + (r->bytes >> 9), 0), keep;

		if (old && (q = ift_find(&lreqs, r->dev, r->sector, 0))) {
			keep = *old;
			ift_del(&lreqs, old);
			q->t = keep.t;
		} else if (old)
			ift_move(&lreqs, old, r->dev, r->sector);
	} else if (op == TA_REQUEUE && !L.queued) {
		if ((q = ift_find(&lreqs, r->dev, r->sector, 0)))
			ift_del(&lreqs, q);
	} else if (op == TA_COMPLETE) {
		if ((q = ift_find(&lreqs, r->dev, r->sector, 0))) {
			account(r->dev, q->flags, r->time > q->t ? r->time - q->t : 0);
			ift_del(&lreqs, q);
		}
	}
}

static u8 latbuf[STREAM_BUF];

static int replay(const char *name)
{
	int rc = 0;

	if (!strcmp(name, "-")) {
		struct src in;
		struct rec r;

		src_init(&in, 0, "(stdin)", latbuf, STREAM_BUF);
		while (!lat_stop && (rc = src_record(&in, &r)) > 0)
			lat_record(&r);
		rc = !lat_stop && rc < 0;
		src_zero_report();
	} else
		rc = merge_replay(name, lat_record, &lat_stop);
	if (!L.done)
		print_tables(wall0 + (L.interval && L.start ? (s64)((L.next - L.start) / 1000000000u) : 0));
	return rc;
}

/* ---- live: as top's, records in time order to lat_record ---- */

static struct src LS;
static u64 live_next;
static unsigned long long live_bad;

static void live_one(void *ctx, const struct rec *r)
{
	(void)ctx;
	lat_record(r);
}

static void live_round_records(void)
{
	u32 end = LS.len, at;
	struct rec r;
	int n = 0;

	while (LS.pos < end) {
		u64 t = 0;
		int sorted = 1;

		for (at = LS.pos; end - at >= REC_V7_LEN; at += (u32)n) {
			if (rec_unfilled(LS.buf + at))
				n = REC_V7_LEN;
			else if ((n = rec_decode(LS.buf + at, end - at, &r)) <= 0)
				break;
			else if (r.time < t)
				sorted = 0;
			else
				t = r.time;
		}
		LS.len = at;
		if (!sorted)
			runs_merge(&LS, live_one, NULL);
		else
			while (src_record(&LS, &r) > 0)
				lat_record(&r);
		LS.len = end;
		LS.pos = at;
		if (end - at < REC_V7_LEN || !n)
			break;
		while (++at < end && end - at >= REC_V7_LEN && rec_decode(LS.buf + at, end - at, &r) < 0)
			;
		live_bad += at - LS.pos;
		LS.pos = at;
	}
}

static int live_push(const void *p, size_t n)
{
	return src_feed(&LS, p, n, live_round_records);
}

static void live_round(void)
{
	u64 now, iv = (u64)L.interval * 1000;

	live_round_records();
	if (!L.interval)
		return;
	now = mono_ms();
	if (!live_next)
		live_next = now + iv;
	else if (now >= live_next && !L.done) {
		print_tables(wall_sec());
		live_next = live_next + iv > now ? live_next + iv : now + iv;
		if (L.count && !--L.count) {
			L.done = 1;
			kill(getpid(), SIGTERM);
		}
	}
}

static long add_disk(const char *dir, const char *name, void *arg)
{
	static char names[CAP_DEVS][48];
	u64 size;

	(void)arg;
	if (name[0] == '.' || !strncmp(name, "loop", 4) || !strncmp(name, "ram", 3) || !strncmp(name, "zram", 4) ||
	    (!sys_u64f(&size, "%s/%s/size", dir, name) && !size))
		return 0;
	if (L.ndevs == CAP_DEVS)
		return 1;
	sfmt(names[L.ndevs], sizeof(names[0]), "/dev/%s", name);
	L.devs[L.ndevs] = names[L.ndevs];
	L.ndevs++;
	return 0;
}

static int run_live(void)
{
	struct cap_cfg c;
	int i, every = !L.ndevs, rc;

	if (every)
		dir_each("/sys/block", add_disk, NULL);
	cap_defaults(&c);
	c.skip_bad = every;
	for (i = 0; i < L.ndevs; i++)
		if (cap_add_device(L.devs[i]) && !every)
			return -1;
	if (!cap_ndev()) {
		warn_msg("no disks to trace (give -t DEV)");
		return -1;
	}
	src_init_push(&LS, latbuf, STREAM_BUF);
	L.live = 1;
	ob_puts(&L.out, "Tracing block device I/O... Hit Ctrl-C to end.\n");
	ob_flush(&L.out);
	rc = cap_run_plain(&c, live_push, live_round);
	if (live_bad)
		warn_msg("%llu bytes of the capture were not whole records; skipped", live_bad);
	if (!L.done)
		print_tables(wall_sec());
	return rc || live_bad;
}

static int options(int argc, char **argv)
{
	int c;

	while ((c = opt_get(argc, argv, "TQmDFePd:t:i:", NULL)) != -1) {
		switch (c) {
		case 'T': L.ts = 1; break;
		case 'Q': L.queued = 1; break;
		case 'm': L.ms = 1; break;
		case 'D': L.disks = 1; break;
		case 'F': L.flags = 1; break;
		case 'e': L.ext = 1; break;
		case 'P': L.pct = 1; break;
		case 'd': L.disk = opt_arg; break;
		case 'i': L.in = opt_arg; break;
		case 't':
			if (L.ndevs == CAP_DEVS) {
				warn_msg("more than %d devices (CAP_DEVS)", CAP_DEVS);
				return 1;
			}
			L.devs[L.ndevs++] = opt_arg;
			break;
		default:
			usage_put(2, U_lat);
			return 1;
		}
	}
	if (L.disks && L.flags) {
		warn_msg("can only use -D or -F");
		return 1;
	}
	if (opt_ind < argc && (L.interval = atoi(argv[opt_ind++])) <= 0) {
		warn_msg("interval must be above 0");
		return 1;
	}
	if (opt_ind < argc)
		L.count = atoi(argv[opt_ind++]);
	if (opt_ind < argc) {
		usage_put(2, U_lat);
		return 1;
	}
	return -1;
}

int lat_main(int argc, char **argv)
{
	int c = options(argc, argv);

	if (c >= 0)
		return c;
	ob_init(&L.out, 1, "stdout", L.outbuf, sizeof(L.outbuf));
	if (L.in) {
		static char base[64];
		const char *b = strrchr(L.in, '/');
		char *x;

		sfmt(base, sizeof(base), "%s", b ? b + 1 : L.in);
		if ((x = str_find(base, ".blktrace.")))
			*x = 0;
		L.replay = strcmp(L.in, "-") ? base : "-";
		/* biolatency says it before its first table */
		ob_puts(&L.out, "Tracing block device I/O... Hit Ctrl-C to end.\n");
		c = replay(L.in);
	} else if ((c = run_live()) < 0)
		return 1;
	if (lreqs.aged || L.lost)
		warn_msg("%llu requests aged out of LAT_REQS %d; %llu latencies found no room (LAT_HISTS %d, LAT_PSERIES %d)",
			 lreqs.aged, LAT_REQS, L.lost, LAT_HISTS, LAT_PSERIES);
	return ob_close(&L.out) || c ? 1 : 0;
}
