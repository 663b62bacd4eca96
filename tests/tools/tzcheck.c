/* tzcheck: tz.c's local_tm against glibc's localtime_r, every field
 * (seconds to year, weekday, day of year, tm_isdst, tm_gmtoff) and whether
 * it fails.  Built by tests/t-tz.sh with the host cc against glibc; tz.c
 * is compiled in, so its cache can be dropped between zones.
 * usage: tzcheck zones DIR   every TZif file under DIR (right/, whose leap
 *                            seconds glibc applies and musl does not, and
 *                            links apart) by its name as TZ, and the one
 *                            DIR/Europe/Paris as ":/path"
 *        tzcheck strings     POSIX TZ strings (TZDIR is pointed nowhere,
 *                            so glibc does not use its posixrules file)
 *        tzcheck env         TZ as this process got it
 * Instants: a grid from 1890 to 2110 (13 days and an hour apart), each
 * change glibc shows between two grid points found to the second, every
 * transition in the zone's table, samples to the year 3000 and far ones.
 * Prints "ok N checks, Z zones" or the first differences; exit 1 on any. */
#define _GNU_SOURCE
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tz.c"

static long checks, bad, zones;
static const char *zone;

static void show(const char *who, const struct tm *t)
{
	if (!t) {
		printf("  %-5s failed\n", who);
		return;
	}
	printf("  %-5s %d-%02d-%02d %02d:%02d:%02d wday %d yday %d isdst %d gmtoff %ld\n", who, t->tm_year + 1900,
	       t->tm_mon + 1, t->tm_mday, t->tm_hour, t->tm_min, t->tm_sec, t->tm_wday, t->tm_yday, t->tm_isdst,
	       (long)t->tm_gmtoff);
}

static void cmp(s64 t)
{
	time_t tt = (time_t)t;
	struct tm a, b, *pa, *pb;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	pa = localtime_r(&tt, &a);
	pb = local_tm(t, &b);
	checks++;
	if (!pa != !pb || (pa && (a.tm_sec != b.tm_sec || a.tm_min != b.tm_min || a.tm_hour != b.tm_hour ||
				 a.tm_mday != b.tm_mday || a.tm_mon != b.tm_mon || a.tm_year != b.tm_year ||
				 a.tm_wday != b.tm_wday || a.tm_yday != b.tm_yday || a.tm_isdst != b.tm_isdst ||
				 a.tm_gmtoff != b.tm_gmtoff))) {
		if (bad++ < (getenv("TZCHECK_SHOW") ? atol(getenv("TZCHECK_SHOW")) : 20)) {
			printf("TZ=%s t=%lld\n", zone, (long long)t);
			show("glibc", pa);
			show("tz.c", pb);
		}
	}
}

/* glibc's offset and DST flag at t, as one number */
static long state(s64 t)
{
	time_t tt = (time_t)t;
	struct tm a;

	if (!localtime_r(&tt, &a))
		return -1;
	return a.tm_gmtoff * 2 + a.tm_isdst;
}

static void around(s64 t)
{
	cmp(t - 1);
	cmp(t);
	cmp(t + 1);
}

/* TZ=name (NULL: unset) through every instant */
static void run(const char *name)
{
	static const s64 far[] = { 0, -1, 2147483647LL, 2147483648LL, -2147483648LL, -2147483649LL,
				   4102444800LL, 10000000000LL, 32503680000LL, 100000000000LL, 253402300799LL,
				   1000000000000LL, -100000000000LL, -1000000000000LL, 100000000000000LL,
				   -100000000000000LL, 100000000000000000LL, -100000000000000000LL,
				   9223372036854775807LL, -9223372036854775807LL - 1 };
	const s64 from = -2524521600LL, to = 4417977600LL;	/* 1890, 2110 */
	s64 t, prev = from, lo, hi;
	long s0, s1;
	u32 i;

	zone = name ? name : "(unset)";
	if (name)
		setenv("TZ", name, 1);
	else
		unsetenv("TZ");
	tzset();
	memset(&tz, 0, sizeof(tz));
	zones++;
	cmp(1700000000);	/* first, a time in the table: the call that reads the zone */
	s0 = state(from);
	for (t = from; t < to; t += 13 * 86400 + 3671) {
		cmp(t);
		s1 = state(t);
		if (s1 != s0) {
			for (lo = prev, hi = t; hi - lo > 1;) {
				s64 mid = lo + (hi - lo) / 2;

				if (state(mid) == s0)
					lo = mid;
				else
					hi = mid;
			}
			around(hi);
			s0 = s1;
		}
		prev = t;
	}
	for (i = 0; tz.ntypes && i < tz.ntrans; i++)
		around(trans_at(i));
	for (t = to; t < 32503680000LL; t += 29 * 86400 + 7211)
		cmp(t);
	for (i = 0; i < sizeof(far) / sizeof(far[0]); i++)
		cmp(far[i]);
}

static int one(const char *path, const struct stat *st, int type, struct FTW *f)
{
	static size_t top;	/* (nftw reuses the buffer path points to) */
	char magic[5] = "";
	FILE *fp;

	(void)st;
	if (!f->level)
		top = strlen(path);
	if (type != FTW_F || !strncmp(path + top, "/right/", 7))
		return 0;
	fp = fopen(path, "rb");
	if (fp && fread(magic, 1, 4, fp) == 4 && !strcmp(magic, "TZif"))
		run(strdup(path + top + 1));
	if (fp)
		fclose(fp);
	return 0;
}

int main(int argc, char **argv)
{
	static const char *strings[] = {
		"EST5EDT,M3.2.0,M11.1.0", "CET-1CEST,M3.5.0,M10.5.0/3", "<+0330>-3:30", "<-03>3",
		"AEST-10AEDT,M10.1.0,M4.1.0/3", "NZST-12NZDT,M9.5.0,M4.1.0/3", "IST-1GMT0,M10.5.0,M3.5.0/1",
		"<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", "<-02>2<-01>,M3.5.0/-1,M10.5.0/0",
		"XST5XDT", "XST5XDT,", "XST5XDT,M3.2.0", "XST5XDT4,J60/1:30,J300/25", "XST5XDT,59/2,300",
		"XST5XDT,J1/0,J365/24", "XST5XDT,0,365", "XST5XDT,M3.2.0/-1,M11.1.0/167", "XST-14:59:59",
		"XST+25", "XST5:60:99", "XST-5:30XDT-6:30,J365/25,J1", "XST5XDT,M2.5.0,M10.5.6",
		"XST5XDT,M3.5.0/0:30:15,M10.5.0/-0:30", "XST5XDT+3,M1.1.0,M12.5.6", "XST5XDT-3,M4.1.1,M9.5.5",
		"EST5EDT4,M3.2.0/2:00:00,M11.1.0/2:00:00", "<+0545>-5:45", "<-0930>9:30", "<+14>-14",
		"UTC0", "GMT0", "XYZ", "", ":", ":XST5XDT,M3.2.0,M11.1.0", "XST", "XST-", "XST5XDT,J0,J365",
		"XST5XDT,M13.1.0,M11.1.0", "XST5XDT,M3.6.0,M11.1.0", "XST5XDT,M3.2.7,M11.1.0", "XST5,M3.2.0,M11.1.0",
		"XST5XDT,M3.2.0,M11.1.0junk", "XST5XDT,366,10", "ab5", "<AB>5", "<A_B>5", "<XYZ5", "XST5XDT,x",
		"XST5XDT,M3.2.0/", "XST5XDT,M3.2.0/x,M11.1.0", "XST5XDT,M3..0,M11.1.0", "XST5XDT:,M3.2.0",
		"XST5XDT+,M3.2.0,M11.1.0", "XST5XDT1:2:3:4,M3.2.0,M11.1.0", "XST99999XDT,J5,J6",
	};
	unsigned i;

	if (argc == 3 && !strcmp(argv[1], "zones")) {
		char path[4096];

		if (nftw(argv[2], one, 16, FTW_PHYS))
			return perror(argv[2]), 2;
		snprintf(path, sizeof(path), ":%s/Europe/Paris", argv[2]);
		run(path);
	} else if (argc == 2 && !strcmp(argv[1], "strings")) {
		setenv("TZDIR", "/nonexistent", 1);
		for (i = 0; i < sizeof(strings) / sizeof(strings[0]); i++)
			run(strings[i]);
	} else if (argc == 2 && !strcmp(argv[1], "env")) {
		const char *e = getenv("TZ");

		run(e ? strdup(e) : NULL);
	} else {
		fprintf(stderr, "usage: tzcheck zones DIR | strings | env\n");
		return 2;
	}
	if (bad)
		printf("%ld of %ld checks differ\n", bad, checks);
	else
		printf("ok %ld checks, %ld zones\n", checks, zones);
	return bad != 0;
}
