/* base.c: bottom: messages, output files, directory listing, number scanning, the option parser */
/* what every applet shares: messages (warn_msg, err_sys), output
 * files that never follow a planted link, directory listing, number
 * scanning without libc's scanners, and the option parser. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "iomon.h"

const char *applet_name = "iomon";

static void vwarn(const char *fmt, va_list ap)
{
	char buf[768];
	int n = 0;

	if (*fmt == *WARN_BARE)
		fmt++;
	else
		n = sfmt(buf, sizeof(buf) - 1, "%s: ", applet_name);

	n += vfmt(buf + n, sizeof(buf) - (size_t)n - 1, fmt, ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(2, buf, (size_t)n) < 0)
		return;		/* nowhere left to complain */
}

void warn_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

/* Notices (the backend chosen, the lockdown fallback, a stale trace
 * cleared) are not errors.  Called by the original tools' names they stay
 * quiet, as the originals are: scripts such as IBM's ziomon abort on any
 * line their blktrace writes to stderr.  --verbose turns them on. */
int quiet_notes;

void note_msg(const char *fmt, ...)
{
	va_list ap;

	if (quiet_notes)
		return;
	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

extern const unsigned char usage_lz[], usage_lit[], usage_dist[];
extern char usage_buf[];

/* The code is packtext.c's: copies and letters in two Huffman codes.
 * The stream is unpacked once, as far as the furthest text asked for
 * (copies reach into earlier texts), so a text asked for again costs
 * nothing. */
static size_t lz_bit, lz_done;

static unsigned lz_bits(unsigned n)	/* low bit first */
{
	unsigned v = 0, i;

	for (i = 0; i < n; i++, lz_bit++)
		v |= (usage_lz[lz_bit >> 3] >> (lz_bit & 7) & 1u) << i;
	return v;
}

/* one symbol: t holds the count of codes of each length 1 to 15, then
 * the symbols in code order (canonical codes, first bit highest) */
static unsigned lz_sym(const unsigned char *t)
{
	unsigned code = 0, first = 0, at = 15, l;

	for (l = 0; l < 15; l++) {
		code |= lz_bits(1);
		if (code - first < t[l])
			break;
		at += t[l];
		first = (first + t[l]) << 1;
		code <<= 1;
	}
	return t[at + code - first];
}

static unsigned lz_val(unsigned k)
{
	return k < 4 ? k : ((2 | (k & 1)) << (k / 2 - 1)) + lz_bits(k / 2 - 1);
}

const char *usage_text(const unsigned short *id, size_t *n)
{
	char *o = usage_buf + lz_done;
	size_t back;
	unsigned c;

	*n = (size_t)(id[1] - id[0]);
	while (o < usage_buf + id[1]) {
		c = lz_sym(usage_lit);
		if (c < 128) {
			*o++ = (char)c;
			continue;
		}
		c = lz_val(c - 128) + 3;
		back = lz_val(lz_sym(usage_dist)) + 1;
		for (; c--; o++)
			*o = *(o - back);	/* (o[-back] would add a size_t past the address space: UBSan) */
	}
	lz_done = (size_t)(o - usage_buf);
	return usage_buf + id[0];
}

const char *text_of(const unsigned short *id)
{
	size_t n;

	return usage_text(id, &n);
}

#ifndef TEXT_CHECK
void warn_text(const unsigned short *id, ...)
{
	va_list ap;

	va_start(ap, id);
	vwarn(text_of(id), ap);
	va_end(ap);
}
#endif

int usage_put(int fd, const unsigned short *id)
{
	size_t n;
	const char *t = usage_text(id, &n);

	return write(fd, t, n) == (ssize_t)n ? 0 : -1;
}

/* -V: "PROG version VER" on stdout; 0, or -1 where it could not be written */
int version_put(const char *prog, const char *ver)
{
	char line[128];
	int n = sfmt(line, sizeof(line), "%s version %s\n", prog, ver);

	return write(1, line, (size_t)n) == n ? 0 : -1;
}

void err_sys(const char *what)
{
	warn_msg("%s: %s", what, strerror(errno));
}

TEXT(base_a_symbolic_link, "%s: a symbolic link owned by uid %u; not writing through it")
/* Outputs are never written through a symlink someone else planted: iomon
 * runs as root in directories other users can write.  A link we own (such
 * as /dev/stdout, or one our user made) is followed, as the kernel's
 * protected_symlinks rule would. */
int open_out(const char *path, int mode)
{
	struct stat st;
	int fd, nofollow = O_NOFOLLOW;

	if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
		if (st.st_uid != geteuid()) {
			warn_text(U_base_a_symbolic_link,
				 path, (unsigned)st.st_uid);
			return -1;
		}
		nofollow = 0;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | nofollow | O_CLOEXEC, mode);
	if (fd < 0)
		err_sys(path);
	return fd;
}

/* Directory entries without opendir(), which allocates: getdents64 into
 * a buffer on the stack.  fn returns non-zero to stop; that is returned. */
long dir_each(const char *dir, long (*fn)(const char *dir, const char *name, void *arg), void *arg)
{
	char buf[2048];
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long n, r = 0;

	if (fd < 0)
		return 0;
	while (!r && (n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		long off = 0;

		while (!r && off < n) {
			unsigned short reclen;

			memcpy(&reclen, buf + off + 16, 2);
			r = fn(dir, buf + off + 19, arg);
			off += reclen;
		}
	}
	close(fd);
	return r;
}

/* strtoull for bases 10 and 16, without libc's general scanner:
 * leading space, a sign (a minus wraps), 0x before hex digits; too large
 * saturates.  end, when given, is where the number stopped (s if none). */
u64 scan_u64(const char *s, char **end, int base)
{
	const char *p = s;
	u64 v = 0;
	int neg = 0, d, any = 0, over = 0;

	while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
		p++;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (base == 16 && *p == '0' && (p[1] | 32) == 'x' && isxdigit((unsigned char)p[2]))
		p += 2;
	for (;; p++, any = 1) {
		d = *p >= '0' && *p <= '9' ? *p - '0' : base == 16 && isxdigit((unsigned char)*p) ? (*p | 32) - 'a' + 10 : -1;
		if (d < 0)
			break;
		over |= v > (~(u64)0 - (u64)d) / (u64)base;
		v = v * (u64)base + (u64)d;
	}
	if (end)
		*end = (char *)(any ? p : s);
	return over ? ~(u64)0 : neg ? -v : v;
}

/* strstr for our short needles in short texts, without musl's two-way
 * search. */
char *str_find(const char *h, const char *n)
{
	size_t k = strlen(n);

	for (; *h; h++)
		if (!strncmp(h, n, k))
			return (char *)h;
	return *n ? NULL : (char *)h;
}

/* A stable insertion sort of n indices, in their order as given: a
 * moves past b only when after(a, b).  The tables sorted are small (rows
 * of a report), and the given order is part of the output where keys tie
 * (glibc's qsort, which the originals used, is a stable merge sort). */
void isort16(u16 *idx, u32 n, int (*after)(const void *ctx, u16 a, u16 b), const void *ctx)
{
	u32 i, j;

	for (i = 1; i < n; i++) {
		u16 v = idx[i];

		for (j = i; j && after(ctx, idx[j - 1], v); j--)
			idx[j] = idx[j - 1];
		idx[j] = v;
	}
}

/* ---- options: musl's getopt (opts NULL) and getopt_long (words permuted,
 * operands last; unique prefixes of long names), with its messages but
 * through warn_msg: libc's print through stdio, which iomon has none of.
 * The long table's flag fields must be NULL. ---- */
char *opt_arg;
int opt_ind = 1;
static int opt_pos;	/* inside a cluster of short options */

TEXT(base_option_requires_an, "option requires an argument: %c")
static int opt_short(int nw, char **words, const char *optstring)
{
	char *a = words[opt_ind];
	int c;
	const char *o;

	if (!opt_pos)
		opt_pos = 1;
	c = (unsigned char)a[opt_pos++];
	o = c == ':' ? NULL : strchr(optstring, c);
	if (!a[opt_pos]) {
		opt_ind++;
		opt_pos = 0;
	}
	if (!o) {
		warn_msg("unrecognized option: %c", c);
		return '?';
	}
	opt_arg = NULL;
	if (o[1] == ':' && (o[2] != ':' || opt_pos)) {
		if (opt_ind >= nw) {
			warn_text(U_base_option_requires_an, c);
			return optstring[0] == ':' ? ':' : '?';
		}
		opt_arg = words[opt_ind++] + opt_pos;
		opt_pos = 0;
	}
	return c;
}

TEXT(base_option_does_not, "option does not take an argument: %s")
TEXT(base_option_requires_an2, "option requires an argument: %s")
static int opt_long(int nw, char **words, const char *optstring, const struct lopt *opts)
{
	const char *start = words[opt_ind] + 2, *arg = NULL, *o, *name;
	int i, n = 0, match = 0;

	for (i = 0; opts[i].name; i++) {
		for (o = start, name = opts[i].name; *o && *o != '=' && *o == *name; o++)
			name++;
		if (*o && *o != '=')
			continue;
		arg = o;
		match = i;
		if (!*name) {	/* the whole name: no ambiguity */
			n = 1;
			break;
		}
		n++;
	}
	opt_ind++;
	if (n != 1) {
		if (optstring[0] != ':')
			warn_msg("%s: %s", n ? "option is ambiguous" : "unrecognized option", start);
		return '?';
	}
	opts += match;
	opt_arg = NULL;
	if (*arg == '=') {
		if (!opts->has_arg) {
			if (optstring[0] != ':')
				warn_text(U_base_option_does_not, opts->name);
			return '?';
		}
		opt_arg = (char *)arg + 1;
	} else if (opts->has_arg == 1) {
		if (opt_ind >= nw) {
			if (optstring[0] == ':')
				return ':';
			warn_text(U_base_option_requires_an2, opts->name);
			return '?';
		}
		opt_arg = words[opt_ind++];
	}
	return opts->val;
}

int opt_get(int nw, char **words, const char *optstring, const struct lopt *opts)
{
	int first = opt_ind, found, c, i;
	char *a;

	if (opt_ind >= nw || !words[opt_ind])
		return -1;
	found = opt_ind;
	if (opts)	/* getopt_long: step over operands (back to a cluster begun) */
		for (; words[found][0] != '-' || !words[found][1]; found++)
			if (found + 1 >= nw || !words[found + 1])
				return -1;
	opt_ind = found;
	a = words[opt_ind];
	if (!opt_pos && (a[0] != '-' || !a[1]))
		return -1;
	if (!opt_pos && a[1] == '-' && !a[2])
		c = (opt_ind++, -1);
	else if (!opt_pos && opts && a[1] == '-')
		c = opt_long(nw, words, optstring, opts);
	else
		c = opt_short(nw, words, optstring);
	/* the words taken move in front of the operands stepped over */
	for (i = found; i < opt_ind && found > first; i++) {
		char *w = words[i];
		int j;

		for (j = i; j > first + (i - found); j--)
			words[j] = words[j - 1];
		words[first + (i - found)] = w;
	}
	if (found > first)
		opt_ind = first + (opt_ind - found);
	return c;
}

/* strtod's grammar, without its exact big-number scanning: leading space,
 * a sign, then decimal with an exponent, hexadecimal with a binary one,
 * inf, infinity or nan(...).  Up to 15 significant digits and 10^+-22 the
 * value is the correctly rounded one strtod gives (one exact operation on
 * exact operands); beyond that it may be an ulp off. */
static int digit(int c, int base)
{
	int d = c >= '0' && c <= '9' ? c - '0' : (c | 32) >= 'a' && (c | 32) <= 'f' ? (c | 32) - 'a' + 10 : 99;

	return d < base ? d : -1;
}

static int word(const char *s, const char *w)
{
	size_t n = strlen(w);

	return !strncasecmp(s, w, n) ? (int)n : 0;
}

COLD double scan_double(const char *arg, const char **end)
{
	const char *s = arg, *q;
	int neg = 0, base = 10, n = 0, d, e = 0, point = 0;
	u64 m = 0;
	double v;

	while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
		s++;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	*end = arg;
	if ((n = word(s, "infinity")) || (n = word(s, "inf"))) {
		*end = s + n;
		return neg ? -__builtin_inf() : __builtin_inf();
	}
	if (word(s, "nan")) {
		*end = s += 3;
		if (*s == '(') {
			for (q = s + 1; (unsigned)((*q | 32) - 'a') < 26 || digit(*q, 10) >= 0 || *q == '_'; q++)
				;
			if (*q == ')')
				*end = q + 1;
		}
		return neg ? -__builtin_nan("") : __builtin_nan("");
	}
	if (*s == '0' && (s[1] | 32) == 'x' && (digit(s[2], 16) >= 0 || (s[2] == '.' && digit(s[3], 16) >= 0)))
		s += 2, base = 16;
	for (n = 0;; s++) {
		if (*s == '.' && !point) {
			point = 1;
			continue;
		}
		if ((d = digit(*s, base)) < 0)
			break;
		n++;
		if (m < (base == 16 ? (u64)1 << 59 : 1000000000000000000u))
			m = m * (u64)base + (u64)d, e -= point;
		else
			e += !point;	/* a digit past what m holds */
	}
	if (!n)
		return 0;
	*end = s;
	if (base == 16)
		e *= 4;		/* hex digits count four bits */
	if ((*s | 32) == (base == 16 ? 'p' : 'e')) {
		int x = 0, xneg = s[1] == '-';

		q = s + 1 + (s[1] == '-' || s[1] == '+');
		if (digit(*q, 10) >= 0) {
			for (; (d = digit(*q, 10)) >= 0; q++)
				if (x < 100000)
					x = x * 10 + d;
			e += xneg ? -x : x;
			*end = q;
		}
	}
	v = (double)m;
	if (base == 16) {	/* 2^e in exact steps */
		for (; e > 0 && v < __builtin_inf(); e--)
			v *= 2;
		for (; e < 0 && v > 0; e++)
			v *= 0.5;
	} else {
		for (; e > 22; e -= 22)
			v *= 1e22;
		for (; e < -22; e += 22)
			v /= 1e22;
		v = e < 0 ? v / dec_pow[-e] : v * dec_pow[e];
	}
	return neg ? -v : v;
}

/* The clocks by system call, without clock_gettime's vDSO lookup: iomon
 * reads a clock per poll round or interval, or (monitor's stream) once a
 * read at most, so the system call's cost does not show.  32-bit hosts
 * with a 64-bit time_t ask for it, and fall back on kernels older than
 * 5.1, as musl does. */
#if defined(SYS_clock_gettime64) && !defined(SYS_clock_gettime)
#define SYS_clock_gettime SYS_clock_gettime32	/* musl's name on time64 arches (armhf) */
#endif
void clock_now(int clk, struct timespec *t)
{
#if defined(SYS_clock_gettime64) && SYS_clock_gettime64 != SYS_clock_gettime
	long t32[2];

	if (!syscall(SYS_clock_gettime64, clk, t))
		return;
	syscall(SYS_clock_gettime, clk, t32);
	t->tv_sec = t32[0];
	t->tv_nsec = t32[1];
#else
	syscall(SYS_clock_gettime, clk, t);
#endif
}

/* whole seconds of wall time (intervals, time stamps) and milliseconds of
 * a clock that never steps (stopwatches) */
s64 wall_sec(void)
{
	struct timespec t;

	clock_now(CLOCK_REALTIME, &t);
	return t.tv_sec;
}

u64 mono_ns(void)
{
	struct timespec t;

	clock_now(CLOCK_MONOTONIC, &t);
	return (u64)t.tv_sec * 1000000000 + (u64)t.tv_nsec;
}

u64 mono_ms(void)
{
	return mono_ns() / 1000000;
}
