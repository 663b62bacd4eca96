/* output/lattable.c: output: biolatency's tables: BCC's log2 histograms, -e's average, -P's percentiles */
#include <string.h>
#include <time.h>
#include "output/output.h"

static const char *replay_of;	/* this table's, for the sort */

static void flags_name(u32 f, char *out, size_t len)
{
	static const char *const op[] = { "Read", "Write", "Flush", "Discard" };
	static const char *const pre[] = { "ReadAhead-", "PreFlush-", "ForcedUnitAccess-", "Metadata-", "Sync-" };
	static const u32 bit[] = { LATF_AHEAD, LATF_PREFLUSH, LATF_FUA, LATF_META, LATF_SYNC };
	u32 i, n = 0;

	out[0] = 0;
	for (i = 0; i < 5; i++)	/* BCC prefixes each flag in turn: the last one first */
		if (f & bit[i])
			n += (u32)sfmt(out + n, len - n, "%s", pre[i]);
	sfmt(out + n, len - n, "%s", op[LAT_OP(f)]);
}

static void stars(struct obuf *o, u64 val, u64 vmax, u32 width)
{
	u32 n = vmax ? (u32)(width * val / vmax) : 0, i;

	if (n > width)
		n = width;
	for (i = 0; i < width; i++)
		ob_puts(o, i < n ? "*" : " ");
}

TEXT(lattable_head, "     %-19s : count     distribution\n")
TEXT(lattable_head_wide, "               %-29s : count     distribution\n")
/* BCC's print_log2_hist: nothing when every slot is empty */
void log2_hist(struct obuf *o, const u64 *v, const char *label)
{
	int i, imax = -1;
	u64 vmax = 0;

	for (i = 0; i < LAT_SLOTS; i++) {
		if (v[i])
			imax = i;
		if (v[i] > vmax)
			vmax = v[i];
	}
	if (imax <= 0)
		return;
	ob_printf(o, imax <= 32 ? TX(lattable_head) : TX(lattable_head_wide), label);
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
	u64 div = lats.ms ? 1000000u : 1000u;
	char s[32];

	/* every digit down to the nanosecond */
	sfmt(s, sizeof(s), lats.ms ? "%llu.%06llu" : "%llu.%03llu", (unsigned long long)(ns / div),
	     (unsigned long long)(ns % div));
	ob_printf(o, " %10s", s);
}

TEXT(lattable_percentiles, "\npercentiles, %s:\ndisk         dir      count        p50        p90        "
	"p99      p99.9        max\n")
static void percentiles(struct obuf *o, const char *replay)
{
	static const u32 per[] = { 500, 900, 990, 999 };	/* per mille */
	u32 i, k, b;

	if (!lats.npser)
		return;
	ob_printf(o, TX(lattable_percentiles), lats.ms ? "msecs" : "usecs");
	for (i = 0; i < lats.npser; i++) {
		char name[32];

		blk_disk_name(lats.ps[i].dev, replay, name, sizeof(name));
		ob_printf(o, "%-12s %-3s %10llu", name, (const char *[]){ "R", "W", "F", "D" }[lats.ps[i].op & 3], (unsigned long long)lats.ps[i].n);
		for (k = 0; k < 4; k++) {
			/* nearest rank: the ceil(p n)-th smallest */
			u64 rank = (lats.ps[i].n * per[k] + 999) / 1000, c = 0, v = 0;

			if (!rank)
				rank = 1;
			for (b = 0; b < LAT_PBUCKETS; b++)
				if ((c += lats.ps[i].b[b]) >= rank) {
					v = lat_pvalue(b);
					break;
				}
			put_unit(o, v > lats.ps[i].max ? lats.ps[i].max : v);
		}
		put_unit(o, lats.ps[i].max);
		ob_puts(o, "\n");
	}
}

static int by_key(const void *ctx, u16 a, u16 b)
{
	char x[32], y[32];

	(void)ctx;
	if (!lats.disks)
		return lats.hist[a].key > lats.hist[b].key;
	blk_disk_name(lats.hist[a].key, replay_of, x, sizeof(x));
	blk_disk_name(lats.hist[b].key, replay_of, y, sizeof(y));
	return strcmp(x, y) > 0;
}

TEXT(lattable_avg, "\navg = %llu %s, total: %llu %s, count: %llu\n\n")
void lat_tables(struct obuf *o, s64 wall, int ts, int ext, const char *replay)
{
	const char *label = lats.ms ? "msecs" : "usecs";
	static u16 idx[LAT_HISTS];
	u32 i;

	replay_of = replay;
	ob_puts(o, "\n");
	if (ts) {
		struct tm tm;
		char hms[16];

		if (!local_tm(wall, &tm))
			memset(&tm, 0, sizeof(tm));
		*fmt_hms(hms, &tm) = 0;	/* it returns the end, unterminated */
		ob_printf(o, "%-8s\n", hms);
	}
	for (i = 0; i < lats.nhist; i++)
		idx[i] = (u16)i;
	isort16(idx, lats.nhist, by_key, NULL);
	for (i = 0; i < lats.nhist; i++) {
		char name[48];

		if (lats.disks || lats.flags) {
			if (lats.disks)
				blk_disk_name(lats.hist[idx[i]].key, replay, name, sizeof(name));
			else
				flags_name(lats.hist[idx[i]].key, name, sizeof(name));
			ob_printf(o, "\n%s = %s\n", lats.disks ? "disk" : "flags", name);
		}
		log2_hist(o, lats.hist[idx[i]].slot, label);
	}
	if (ext && lats.n) {
		u64 div = lats.ms ? 1000000u : 1000u;

		ob_printf(o, TX(lattable_avg), (unsigned long long)(lats.total / div / lats.n), label,
			  (unsigned long long)(lats.total / div), label, (unsigned long long)lats.n);
	}
	if (lats.pct)
		percentiles(o, replay);
	ob_flush(o);
	lat_clear();
}
