/* tz.c: bottom: local time: TZ, zoneinfo (TZif) files and POSIX TZ rules */
/* libc's localtime_r brought musl's TZ parser, its file mapping, mmap
 * and an allocator hook into the binary for three clocks: blkiomon's time
 * line, top's clock and the exports' stamps.  This one reads the zone once
 * into a fixed buffer and gives what glibc's localtime_r gives (checked
 * zone by zone by tests/tools/tzcheck.c), leap seconds apart: like musl, it
 * ignores a right/ zone's leap table. */
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "iomon.h"

extern char **environ;

#define DIGIT(c) ((unsigned)((c) - '0') < 10)
#define ALPHA(c) ((unsigned)(((c) | 32) - 'a') < 26)

/* a POSIX TZ rule: when DST starts (r[0]) or ends (r[1]).  kind 0: "n",
 * day of year from 0; 1: "Jn", 1..365 without Feb 29; 2: "Mm.w.d".  v:
 * m, w, d (n: v[2]); secs: the time of day */
struct tzrule {
	int kind, v[3], secs;
};

static struct {
	int loaded, tsz;	/* tsz: bytes of a transition time, 4 (v1) or 8 */
	u32 ntrans, ntypes;	/* a file's table; no types: rules only */
	const u8 *trans, *idx, *types;
	int footer;		/* rules (a file's footer) past the table */
	int off[2];		/* UTC offsets, standard and DST */
	struct tzrule r[2];
	u8 buf[TZ_FILE_MAX];
} tz;

/* days from 1970-01-01 to the first of month m of year y (m 13: of
 * January of y + 1) */
static s64 days(s64 y, int m)
{
	s64 era;
	u32 yoe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (u32)(y - era * 400);
	return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 - 719468;
}

/* glibc's __offtime: 0 when the year does not fit tm_year */
struct tm *utc_tm(s64 t, struct tm *tm)
{
	s64 d = t / 86400, s = t % 86400, y;
	int m = 1;

	if (s < 0) {
		s += 86400;
		d--;
	}
	tm->tm_hour = (int)(s / 3600);
	tm->tm_min = (int)(s / 60 % 60);
	tm->tm_sec = (int)(s % 60);
	tm->tm_wday = (int)((d % 7 + 11) % 7);
	/* 146097 days in 400 years: within a year of it */
	y = d * 400 / 146097 + 1970;
	while (days(y, 1) > d)
		y--;
	while (days(y + 1, 1) <= d)
		y++;
	tm->tm_yday = (int)(d - days(y, 1));
	while (m < 12 && days(y, m + 1) <= d)
		m++;
	tm->tm_mon = m - 1;
	tm->tm_mday = (int)(d - days(y, m)) + 1;
	y -= 1900;
	tm->tm_year = (int)y;
	return tm->tm_year == y ? tm : 0;
}

/* digits at *s: their value, or -1 when there are none */
static int num(const char **s)
{
	int v = -1;

	while (**s >= '0' && **s <= '9' && v < 10000)
		v = (v < 0 ? 0 : v * 10) + *(*s)++ - '0';
	return v;
}

/* hh[:mm[:ss]] in seconds (capped as glibc caps offsets), -1 without hh */
static int hms(const char **s, int cap)
{
	static const int unit[3] = { 3600, 60, 1 }, most[3] = { 24, 59, 59 };
	const char *p = *s;
	int i = 0, v, sum = -1;

	while (i < 3 && (v = num(&p)) >= 0) {
		sum += (cap && v > most[i] ? most[i] : v) * unit[i] + !i;
		*s = p;
		if (*p++ != ':')
			break;
		i++;
	}
	return sum;
}

/* std or dst name: 3+ letters, or <3+ of [A-Za-z0-9+-]> */
static int zname(const char **s)
{
	const char *p = *s, *q = p;

	while (ALPHA(*q))
		q++;
	if (q - p >= 3)
		return *s = q, 1;
	if (*p++ != '<')
		return 0;
	for (q = p; ALPHA(*q) || DIGIT(*q) || *q == '+' || *q == '-'; q++)
		;
	if (*q != '>' || q - p < 3)
		return 0;
	return *s = q + 1, 1;
}

/* an offset, west of UTC positive in the string; a missing dst one is an
 * hour ahead of standard time */
static int offset(const char **s, int which)
{
	const char *p = *s;
	int sign = -1, v;

	if (!which && *p != '+' && *p != '-' && !DIGIT(*p))
		return 0;
	if (*p == '+' || *p == '-')
		sign = *p++ == '-' ? 1 : -1;
	*s = p;
	v = hms(s, 1);
	tz.off[which] = v >= 0 ? sign * v : which ? tz.off[0] + 3600 : 0;
	return v >= 0 || which;
}

/* ",start[/time]" or ",end[/time]"; none at all is the US rule, at 2:00 */
static int rule(const char **s, int which)
{
	static const u8 lo[3] = { 1, 1, 0 }, hi[3] = { 12, 5, 6 };
	struct tzrule *r = &tz.r[which];
	const char *p = *s + (**s == ',');
	int v, i;

	if (*p == 'M') {
		r->kind = 2;
		for (i = 0; i < 3; i++) {
			if (*p++ != "M.."[i])
				return 0;
			r->v[i] = v = num(&p);
			if (v < lo[i] || v > hi[i])
				return 0;
		}
	} else if (*p == 'J' || DIGIT(*p)) {
		r->kind = *p == 'J';
		p += r->kind;
		v = num(&p);
		if (v < r->kind || v > 365)
			return 0;
		r->v[2] = v;
	} else if (*p) {
		return 0;
	} else {
		r->kind = 2;
		r->v[0] = which ? 11 : 3;
		r->v[1] = 2 - which;
		r->v[2] = 0;
	}
	if (*p && *p != '/' && *p != ',')
		return 0;
	v = 7200;
	i = 0;
	if (*p == '/') {
		if (!*++p)
			return 0;
		i = *p == '-';
		p += i;
		v = hms(&p, 0);
		if (v < 0)
			v = 7200;
	}
	r->secs = i ? -v : v;
	*s = p;
	return 1;
}

/* a POSIX TZ string, as glibc reads it (what it cannot read stays 0) */
static void tz_rules(const char *s)
{
	if (!zname(&s) || !offset(&s, 0))
		return;
	if (!*s) {
		tz.off[1] = tz.off[0];
		return;
	}
	if (zname(&s))
		offset(&s, 1);
	if (rule(&s, 0))
		rule(&s, 1);
}

/* the UTC instant a rule changes in year y, as glibc computes it (years
 * up to 1970 count their days from 1970-01-01) */
static s64 change(const struct tzrule *r, s64 y, int off)
{
	s64 jan1 = days(y, 1), t = y > 1970 ? jan1 : 0, first;
	int d, i;

	if (r->kind == 2) {
		/* the n-th weekday d of month m, n 5 the last */
		first = days(y, r->v[0]);
		d = r->v[2] - (int)((first % 7 + 11) % 7);
		if (d < 0)	/* (glibc's way: an invalid d 7 can give 7) */
			d += 7;
		for (i = 1; i < r->v[1] && first + d + 7 < days(y, r->v[0] + 1); i++)
			d += 7;
		t += first - jan1 + d;
	} else {
		/* Jn skips Feb 29: from day 60 on, a leap year adds it */
		t += r->v[2] - r->kind + (r->kind && r->v[2] >= 60 && days(y, 3) - days(y, 2) > 28);
	}
	return t * 86400 - off + r->secs;
}

static u32 be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

/* transition i of the table */
static s64 trans_at(u32 i)
{
	const u8 *p = tz.trans + i * (u32)tz.tsz;

	return tz.tsz == 8 ? (s64)((u64)be32(p) << 32 | be32(p + 4)) : (int32_t)be32(p);
}

/* the TZif file read into tz.buf (n bytes): its v1 table, or a v2+ file's
 * 64-bit one and its footer; 0 when it is not one or does not fit */
static int tz_table(u32 n)
{
	u8 *p = tz.buf, *end = p + n, *q;
	u32 c[6], i, len, w = 4;

	for (;;) {
		if (end - p < 44 || be32(p) != 0x545a6966)	/* "TZif" */
			return 0;
		/* counts: UT/local and standard/wall flags, leap seconds,
		 * transitions, types, abbreviation bytes; and their sizes */
		for (len = i = 0; i < 6; i++) {
			c[i] = be32(p + 20 + 4 * i);
			if (c[i] > n)
				return 0;
			len += c[i] * (u8)(w == 4 ? "\1\1\10\5\6\1" : "\1\1\14\11\6\1")[i];
		}
		if (len > (u32)(end - p) - 44 || !c[4])
			return 0;
		p += 44;
		if (w == 8 || !p[-40])
			break;
		p += len;
		w = 8;
	}
	/* nothing is kept until the whole table checks out */
	for (i = 0; i < c[3]; i++)
		if (p[c[3] * w + i] >= c[4])
			return 0;
	/* v2+: the footer, "\nTZ string\n", rules for times past the table
	 * (glibc refuses a file without one) */
	if (w == 8) {
		q = p + len;
		if (q >= end || *q++ != '\n')
			return 0;
		for (end = q; *end != '\n'; end++)
			if (!*end)
				return 0;
		*end = 0;
		tz.footer = *q != 0;
		tz_rules((const char *)q);
	}
	tz.tsz = (int)w;
	tz.trans = p;
	tz.ntrans = c[3];
	tz.idx = p + c[3] * w;
	tz.types = tz.idx + c[3];
	tz.ntypes = c[4];
	return 1;
}

static int tz_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	u32 n = 0;
	ssize_t r;

	if (fd < 0)
		return 0;
	while (n < sizeof(tz.buf) - 1 && (r = read(fd, tz.buf + n, sizeof(tz.buf) - 1 - n)) > 0)
		n += (u32)r;
	close(fd);
	return tz_table(n);
}

/* TZ as glibc takes it: unset, /etc/localtime; empty, UTC; a leading ':'
 * dropped; a file (a NAME under /usr/share/zoneinfo, no '.' in it as musl
 * asks), else a POSIX string; what neither reads is UTC. */
static void tz_load(void)
{
	static const char dir[] = "/usr/share/zoneinfo/";
	char path[sizeof(dir) + TZ_NAME_MAX];
	const char *s = "/etc/localtime", *p;
	char **e;

	tz.loaded = 1;
	for (e = environ; *e; e++)
		if (!strncmp(*e, "TZ=", 3)) {
			s = *e + 3;
			break;
		}
	s += *s == ':';
	if (!*s)
		return;
	p = s;
	if (*s != '/') {
		p = 0;
		if (!strchr(s, '.') && strlen(s) <= TZ_NAME_MAX) {
			memcpy(path, dir, sizeof(dir) - 1);
			strcpy(path + sizeof(dir) - 1, s);
			p = path;
		}
	}
	if (!p || !tz_file(p))
		tz_rules(s);
}

/* the rules' verdict for t: DST or not (the year is t's in UTC) */
static int tz_dst(s64 t, const struct tm *utc)
{
	s64 y = utc->tm_year + 1900, c0 = change(&tz.r[0], y, tz.off[0]), c1 = change(&tz.r[1], y, tz.off[1]);

	return c0 > c1 ? t < c1 || t >= c0 : t >= c0 && t < c1;
}

/* localtime_r for a 64-bit time: 0 when its year does not fit */
struct tm *local_tm(s64 t, struct tm *tm)
{
	const u8 *ty;
	u32 lo = 0, hi, mid;
	int dst, off;

	if (!tz.loaded)
		tz_load();
	hi = tz.ntrans;
	if (!utc_tm(t, tm))
		return 0;
	if (tz.ntypes && (!hi || t < trans_at(0))) {
		/* before the table: the first standard-time type */
		for (mid = 0; mid < tz.ntypes && tz.types[6 * mid + 4]; mid++)
			;
		ty = tz.types + 6 * (mid < tz.ntypes ? mid : 0);
	} else if (tz.ntypes && (!tz.footer || t < trans_at(hi - 1))) {
		while (hi - lo > 1) {
			mid = (lo + hi) / 2;
			if (t < trans_at(mid))
				hi = mid;
			else
				lo = mid;
		}
		ty = tz.types + 6 * tz.idx[lo];
	} else {
		dst = tz_dst(t, tm);
		off = tz.off[dst];
		goto out;
	}
	off = (int32_t)be32(ty);
	dst = ty[4];
out:
	tm->tm_isdst = dst;
	tm->tm_gmtoff = off;
	return utc_tm(t + off, tm);
}
