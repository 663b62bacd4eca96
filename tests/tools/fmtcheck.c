/* fmtcheck: text.c's vfmt against the host libc's vsnprintf, on
 * every conversion iomon uses, over edge values and random ones (random
 * flags, widths, precisions, truncating capacities).  Built by
 * tests/t-fmt.sh with the host cc against glibc.
 * usage: fmtcheck [SEED [ROUNDS]]; prints the seed, "ok N" or the first
 * differences, and exits 1 on any. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "iomon.h"

void warn_msg(const char *fmt, ...) { (void)fmt; }

static unsigned long long rng;
static long checks, bad;

static u64 rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* one format, both ways, with a full buffer and a cut one */
static void cmp(const char *f, ...)
{
	char want[2048], got[2048];
	va_list ap, aq;
	int n, m;
	size_t cap;

	va_start(ap, f);
	va_copy(aq, ap);
	n = vsnprintf(want, sizeof(want), f, ap);
	memset(got, 'X', sizeof(got));
	m = vfmt(got, sizeof(got), f, aq);
	va_end(aq);
	va_end(ap);
	checks++;
	if (n != m || strcmp(want, got)) {
		if (bad++ < 20)
			printf("DIFF [%s]: libc %d \"%s\", vfmt %d \"%s\"\n", f, n, want, m, got);
		return;
	}
	/* truncated: snprintf keeps cap-1 bytes and a NUL, still returns n */
	cap = n > 0 ? (size_t)(rnd() % (unsigned)(n + 2)) : 0;
	memset(got, 'X', sizeof(got));
	va_start(ap, f);
	m = vfmt(got, cap, f, ap);
	va_end(ap);
	checks++;
	if (m != n || (cap && (strncmp(got, want, cap - 1) || got[cap - 1])) || got[cap] != 'X') {
		if (bad++ < 20)
			printf("DIFF [%s] cap %zu: vfmt %d \"%.*s\"\n", f, cap, m, (int)cap, got);
	}
}

/* "%" + flags + width (+ precision) + conversion */
static const char *spec(char *b, const char *len, char conv, int flags, int prec)
{
	char *p = b;

	*p++ = '%';
	if (flags & 1)
		*p++ = '-';
	if (flags & 2)
		*p++ = '0';
	if (rnd() % 3)
		p += sprintf(p, "%d", (int)(rnd() % 26));
	if (prec >= 0)
		p += sprintf(p, ".%d", prec);
	p += sprintf(p, "%s%c", len, conv);
	*p = 0;
	return b;
}

static double some_double(void)
{
	static const double edge[] = {
		0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, -0.125, 2.675, 1.005, 0.05, 0.15, 0.25, 0.35,
		9.995, 99.95, 999.5, 0.0005, 1e15, 1e15 + 0.5, 1e16, 1e17, 1e22, 1e23, 9007199254740993.0,
		18446744073709551615.0, 9.2233720368547758e18, 123456.789, 4503599627370495.5,
		1e-300, 5e-324, 2.2250738585072014e-308, DBL_MAX, 1e308, -1e308, 0.1, 0.2, 0.3, 1.0 / 3,
		2.0 / 3, 1e-7, 0.00049999999999999999, 0.95, 0.995, 0.9995, 99.995,
	};
	u64 b;
	double x;

	switch (rnd() % 8) {
	case 0:
		return edge[rnd() % (sizeof(edge) / sizeof(edge[0]))];
	case 6:		/* btt's times: nanoseconds in seconds (vfmt's short way) */
		return (double)(rnd() % 100000000000000ull) / 1e9;
	case 7:		/* a half past a whole number of the last place printed */
		return ((double)(rnd() % 10000000) + 0.5) / (double)(rnd() % 2 ? 1 : 1000);
	case 1:		/* exact binary fractions: many exact ties */
		return (double)(s64)(rnd() % 2000001 - 1000000) / (double)(1u << (rnd() % 21));
	case 2:		/* averages and variances of counters */
		return (double)(rnd() >> (rnd() % 64)) / (double)(1 + rnd() % 1000);
	case 3:		/* any finite bit pattern */
		do {
			b = rnd();
			memcpy(&x, &b, sizeof(x));
		} while (!isfinite(x));
		return x;
	case 4:		/* moderate magnitudes, any mantissa */
		b = (rnd() & 0x800fffffffffffffull) | (u64)(1023 - 30 + rnd() % 80) << 52;
		memcpy(&x, &b, sizeof(x));
		return x;
	default:
		return (double)(s64)rnd() * 1e-6;
	}
}

static const char *some_str(char *b)
{
	static const char *const s[] = { "", "a", "sda", "nvme0n1p12", "blkparse", "with space", "0123456789abcdefghij" };
	size_t i, n;

	if (rnd() % 3)
		return s[rnd() % 7];
	n = rnd() % 40;
	for (i = 0; i < n; i++)
		b[i] = (char)(' ' + rnd() % 95);
	b[n] = 0;
	return b;
}

static u64 some_u64(void)
{
	static const u64 edge[] = { 0, 1, 9, 10, 99, 100, 4294967295u, 4294967296u, 0x7fffffffffffffffull,
				    0x8000000000000000ull, ~0ull, 1000000000, 999999999, 10000000000000000000ull };

	if (rnd() % 4 == 0)
		return edge[rnd() % (sizeof(edge) / sizeof(edge[0]))];
	return rnd() >> (rnd() % 64);
}

static void round_ints(void)
{
	char f[64], s[64];
	u64 v = some_u64();
	int fl = (int)(rnd() % 4);

	cmp(spec(f, "", 'd', fl, -1), (int)v);
	cmp(spec(f, "", 'i', fl, -1), (int)v);
	cmp(spec(f, "", 'u', fl, -1), (unsigned)v);
	cmp(spec(f, "", 'x', fl, -1), (unsigned)v);
	cmp(spec(f, "l", 'd', fl, -1), (long)v);
	cmp(spec(f, "l", 'u', fl, -1), (unsigned long)v);
	cmp(spec(f, "l", 'x', fl, -1), (unsigned long)v);
	cmp(spec(f, "ll", 'd', fl, -1), (long long)v);
	cmp(spec(f, "ll", 'u', fl, -1), (unsigned long long)v);
	cmp(spec(f, "ll", 'x', fl, -1), (unsigned long long)v);
	cmp(spec(f, "z", 'u', fl, -1), (size_t)v);
	cmp(spec(f, "", 'c', fl & 1, -1), (int)(' ' + v % 95));
	cmp(spec(f, "", 's', fl & 1, rnd() % 3 ? -1 : (int)(rnd() % 20)), some_str(s));
}

/* fmt_f (btt's per-I/O files: "%15.9f", "%f", "%.9f") against "%*.*f" */
static void fmt_f_check(double x)
{
	char want[512], got[512];
	int w = (int)(rnd() % 3) * 15 / 2, prec = (int)(rnd() % 17), n;

	n = snprintf(want, sizeof(want), "%*.*f", w, prec, x);
	if (n >= 64 - 1)	/* (fmt_f's room: a time or latency in seconds) */
		return;
	*fmt_f(got, x, prec, w) = 0;
	checks++;
	if (strcmp(want, got) && bad++ < 20)
		printf("DIFF fmt_f(%.17g, %d, %d): libc \"%s\", fmt_f \"%s\"\n", x, prec, w, want, got);
}

/* fmt_ns (btt's times and latencies from their nanoseconds) against
 * "%15.9f", "%.9f" and "%f" of btt's two doubles of them, BIT_TIME and TO_SEC:
 * ns of every size up to past 2^50 (its own way from there), a third of
 * them 6-place halves (ns % 1000 == 500) */
static double bit_time(u64 t) { return (double)(t / 1000000000) + (double)(t % 1000000000) / 1.0e9; }
static double to_sec(u64 t) { return (double)t / 1.0e9; }

static void fmt_ns_check(void)
{
	char want[512], got[512];
	u64 ns = rnd() >> (rnd() % 64);
	int k;

	if (rnd() % 3 == 0)
		ns = ns / 1000 * 1000 + 500;
	for (k = 0; k < 6; k++) {
		double (*x)(u64) = k & 1 ? to_sec : bit_time;
		int prec = k < 2 ? 6 : 9, w = k < 4 ? 0 : 15;

		snprintf(want, sizeof(want), "%*.*f", w, prec, x(ns));
		if (strlen(want) >= 63)	/* (fmt_f's room) */
			continue;
		*fmt_ns(got, ns, x, prec, w) = 0;
		checks++;
		if (strcmp(want, got) && bad++ < 20)
			printf("DIFF fmt_ns(%llu, %s, %d, %d): libc \"%s\", fmt_ns \"%s\"\n", (unsigned long long)ns,
			       k & 1 ? "TO_SEC" : "BIT_TIME", prec, w, want, got);
	}
}

static void round_doubles(void)
{
	char f[64];
	double x = some_double();

	cmp(spec(f, "", 'f', (int)(rnd() % 4), (int)(rnd() % (FMT_PREC_MAX + 1))), x);
	cmp("%f", x);
	cmp("%.1f|%.2f|%.3f|%5.1f%%|%6.2f|%-9.3f|", x, x, x, x, x, x);
	fmt_f_check(x);
	fmt_ns_check();
}

/* The formats as iomon's sources write them, whole. */
static void round_iomon(void)
{
	char s[64];
	u64 a = some_u64(), b = some_u64();
	double x = some_double();

	cmp("%s: bad trace magic %08x at byte %llu", some_str(s), (unsigned)a, (unsigned long long)b);
	cmp("  CPU%3u: %20llu events, %8llu KiB data\n", (unsigned)a, (unsigned long long)a, (unsigned long long)b);
	cmp("\nYou have %llu (%5.1f%%) dropped events\n", (unsigned long long)a, x);
	cmp("%s: num %llu, min %lld, max %llu, sum %llu, squ %llu, avg %.1f, var %.1f\n", "d2c", (unsigned long long)a,
	    (long long)b, (unsigned long long)a, (unsigned long long)b, (unsigned long long)a, x, x * 3);
	cmp("   %10llu:%6u", (unsigned long long)a, (unsigned)b);
	cmp("    >%8llu:%6u\n", (unsigned long long)a, (unsigned)b);
	cmp("\"avg\":%.3f,\"var\":%.3f}%s", x, -x, "");
	cmp("action   %16x\ndevice   %16u\n", (unsigned)a, (unsigned)b);
	cmp("%-7u %-16s %1s %-3u %-3u %-8s %5llu %7llu %6.2f\n", (unsigned)a, some_str(s), "R", 8u, 0u, "sda",
	    (unsigned long long)a, (unsigned long long)b, x);
	cmp("%.15s|%.31s|%.63s|%zu|%ld|%c", some_str(s), "x", "", (size_t)a, (long)b, 'c');
	cmp("%d%%%s%5d%-5d|%05d|%-05d|", (int)a, "", (int)b, (int)a, (int)b, (int)a);
}

/* fmt_g9 against %.9g where the double holds the value exactly enough to
 * agree: any count below 2^53 unscaled, nine digits or fewer at 10^-6. */
static void round_g9(void)
{
	char want[64], got[64];
	u64 k = rnd() >> (11 + rnd() % 53);
	int e = rnd() % 2 ? 0 : -6;

	if (e && k >= 1000000000)
		k %= 1000000000;
	if (!e && rnd() % 4 == 1)	/* exact ties at the ninth digit */
		k = (rnd() % 1000000000 * 10 + 5) * (rnd() % 2 ? 1 : 100);
	if (rnd() % 4 == 0)	/* monitor's bucket bounds */
		k = (rnd() % 2 ? 1024ull : 8ull) << (rnd() % 24);
	snprintf(want, sizeof(want), "%.9g", e ? (double)k * 1e-6 : (double)k);
	*fmt_g9(got, k, e) = 0;
	checks++;
	if (strcmp(want, got) && bad++ < 20)
		printf("DIFF %%.9g of %llu * 10^%d: libc \"%s\", fmt_g9 \"%s\"\n", (unsigned long long)k, e, want, got);
}

/* fmt_date and fmt_hms against strftime, 1970 to 2369 */
static void round_time(void)
{
	char want[64], got[64], *p;
	time_t t = (time_t)(rnd() % 12622780800ull);
	struct tm tm;

	if (!gmtime_r(&t, &tm))
		return;
	strftime(want, sizeof(want), "%a %b %e %H:%M:%S %Y|%H:%M:%S", &tm);
	p = fmt_date(got, &tm);
	*p++ = '|';
	*fmt_hms(p, &tm) = 0;
	checks++;
	if (strcmp(want, got) && bad++ < 20)
		printf("DIFF time %lld: strftime \"%s\", ours \"%s\"\n", (long long)t, want, got);
}

int main(int argc, char **argv)
{
	unsigned long long seed = argc > 1 ? strtoull(argv[1], NULL, 0) : (unsigned long long)time(NULL);
	long rounds = argc > 2 ? atol(argv[2]) : 20000, i;
	static const double special[] = { INFINITY, -INFINITY, NAN, -NAN };

	printf("seed %llu\n", seed);
	rng = seed * 2654435761u + 88172645463325252ull;
	for (i = 0; i < 4; i++) {
		cmp("%f|%.1f|%8.2f|%-8.3f|%08.1f|", special[i], special[i], special[i], special[i], special[i]);
	}
	cmp("");
	cmp("plain");
	cmp("%s", (char *)NULL);
	for (i = 0; i < rounds; i++) {
		round_ints();
		round_doubles();
		round_iomon();
		round_g9();
		round_time();
	}
	printf("%s %ld checks, %ld differences\n", bad ? "FAIL" : "ok", checks, bad);
	return bad != 0;
}
