/* text.c: bottom: number formatting, vfmt/sfmt */
/* The few number formats blkparse's printf calls need, done by hand
 * because formatting is most of the time parse spends (the output
 * buffer they go to: obuf.c). */
#include <stdarg.h>
#include <string.h>
#include "iomon.h"

const double dec_pow[23] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
			     1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

static const char digits2[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

HOTFN static int ndigits(u64 v)
{
	int n = 1;

	while (v >= 10000) {
		v /= 10000;
		n += 4;
	}
	return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/* Right to left, two digits per step: this runs several times per line. */
HOTFN static void put_digits(char *end, u64 v)
{
	u32 w;

	while (v >= 100000000) {
		u64 q = v / 100000000;

		w = (u32)(v - q * 100000000);
		v = q;
		for (int i = 0; i < 4; i++) {
			u32 d = w % 100;

			w /= 100;
			end -= 2;
			memcpy(end, digits2 + 2 * d, 2);
		}
	}
	w = (u32)v;
	while (w >= 100) {
		u32 d = w % 100;

		w /= 100;
		end -= 2;
		memcpy(end, digits2 + 2 * d, 2);
	}
	if (w >= 10) {
		end -= 2;
		memcpy(end, digits2 + 2 * w, 2);
	} else
		*--end = (char)('0' + w);
}

HOTFN char *fmt_u64(char *p, u64 v)
{
	if (v < 100) {	/* depths, lengths, counts: most are small */
		if (v < 10) {
			*p = (char)('0' + v);
			return p + 1;
		}
		memcpy(p, digits2 + 2 * v, 2);
		return p + 2;
	}
	int n = ndigits(v);

	put_digits(p + n, v);
	return p + n;
}

char *fmt_s64(char *p, s64 v)
{
	if (v < 0) {
		*p++ = '-';
		return fmt_u64(p, -(u64)v);
	}
	return fmt_u64(p, (u64)v);
}

HOTFN char *fmt_num(char *p, u64 v, int neg, int width, int left)
{
	int n = ndigits(v) + !!neg;

	if (!left)
		for (; n < width; width--)
			*p++ = ' ';
	if (neg)
		*p++ = '-';
	p += n - !!neg;
	put_digits(p, v);
	if (left)
		for (; n < width; width--)
			*p++ = ' ';
	return p;
}

/* Strings here are short (actions, RWBS, command names): a byte loop beats
 * a call to memcpy and strlen. */
char *fmt_str(char *p, const char *s, int width, int left)
{
	char *start = p;
	int n;

	if (!left && width) {
		const char *e = s;

		while (*e)
			e++;
		for (n = (int)(e - s); n < width; width--)
			*p++ = ' ';
		width = 0;
	}
	while (*s)
		*p++ = *s++;
	for (n = (int)(p - start); n < width; n++)
		*p++ = ' ';
	return p;
}

/* A whole part and its point, kept from the last number made: lines in
 * time order mostly share their second (blkparse's, btt's per-I/O files),
 * so it is copied, one 8-byte move (what follows is written over the
 * rest), not made again.  w: its width as "%*llu". */
struct lead { u64 v, b; u32 n; };

static char *lead(char *p, struct lead *c, u64 v, int w)
{
	if (v != c->v || !c->n) {
		char b[8], *e = fmt_num(b, v, 0, w, 0);

		*e++ = '.';
		memcpy(&c->b, b, 8);
		c->v = v, c->n = (u32)(e - b);
	}
	memcpy(p, &c->b, 8);
	return p + c->n;
}

/* blkparse's "%5d.%09lu" of t ns (the seconds as an int; w 5, or 0 for
 * "%d.%09lu"), here where the divisions are multiplies (-O2), so its
 * callers can be built -Os */
HOTFN char *fmt_secs_w(char *p, u64 t, int w)
{
	static struct lead c[2];
	int32_t s = (int32_t)(t / 1000000000u);

	if (s >= 0 && s < 1000000)
		p = lead(p, &c[!w], (u64)s, w);
	else {
		p = fmt_num(p, s < 0 ? -(u64)s : (u64)s, s < 0, w, 0);
		*p++ = '.';
	}
	return fmt_zpad(p, t % 1000000000u, 9);
}

char *fmt_secs(char *p, u64 t) { return fmt_secs_w(p, t, 5); }

HOTFN char *fmt_zpad(char *p, u64 v, int width)
{
	/* the common case, v no wider than width: width digits right to left,
	 * two a step, the zeros among them (btt's and blkparse's nanoseconds) */
	if (v >> 32 == 0 && width <= 10) {
		u32 w = (u32)v, d;
		char *e = p + width;

		for (; e - p >= 2; w /= 100) {
			d = w % 100;
			e -= 2;
			memcpy(e, digits2 + 2 * d, 2);
		}
		if (e > p)
			*p = (char)('0' + w % 10), w /= 10;
		if (!w)
			return p + width;
	}
	int n = ndigits(v);

	for (; n < width; width--)
		*p++ = '0';
	put_digits(p + n, v);
	return p + n;
}

/* ---- vfmt: the part of printf iomon's messages and reports use ----
 * Flags - and 0, a width, a precision for s and f (or .*), lengths l, ll and z,
 * conversions d i u x c s f and %%.  libc's printf costs a quarter of the
 * binary (float formatting, wide characters, positional arguments); this
 * is what is left once those go.  tests/t-fmt.sh holds it to glibc's. */

/* %f from the double's exact binary value, as glibc and musl round it
 * (half to even on the exact value): x * 10^prec as a big integer in
 * 32-bit limbs, so no 128-bit type is needed (armhf has none).  The most
 * is 2^1024 * 10^FMT_PREC_MAX: 1081 bits. */
#define FP_LIMBS 35
#define FP_BUF (9 * 38 + 2)	/* 2^1120 has 338 digits; the point */

static u32 limb(const u32 *a, int i) { return i >= 0 && i < FP_LIMBS ? a[i] : 0; }

/* a <<= sh (or >>= -sh) */
COLD static void fp_shift(u32 *a, int sh)
{
	u32 t[FP_LIMBS];
	int i;

	memcpy(t, a, sizeof(t));
	for (i = 0; i < FP_LIMBS; i++) {
		int p = i * 32 - sh, lo = p >> 5, off = p & 31;

		a[i] = limb(t, lo) >> off | (off ? limb(t, lo + 1) << (32 - off) : 0);
	}
}

/* Digits of a finite x >= 0 with prec decimals, ending at end. */
/* fp_digits' common case without the big number: x * 10^prec (10^prec
 * is exact) below 2^53, its double within half a unit of its last place
 * of the exact product; when that leaves the product's fraction clearly
 * on one side of a half, it rounds as the exact one does.  btt's per-I/O
 * files print millions of such times.  NULL: the exact way is needed. */
static char *fp_short(char *p, double x, int prec)
{
	double t = dec_pow[prec < 16 ? prec : 16], f, e;
	int cnt;
	u64 m;

	if (prec > 16 || !(x * t < 9007199254740992.0))
		return NULL;
	f = x * t;
	m = (u64)f;
	f -= (double)m;
	e = (double)(m + 1) * 4.4408920985006262e-16;	/* two units of the last place, or more */
	if (!(f < 0.5 - e || f > 0.5 + e))
		return NULL;
	m += f > 0.5;
	if (prec) {	/* two digits a step (put_digits), not a division a digit */
		u64 q = (u64)x, r = m - q * (u64)t;	/* (x * t rounded up to the next whole: one more) */

		if (r >= (u64)t)
			q++, r -= (u64)t;
		p -= prec;
		fmt_zpad(p, r, prec);
		*--p = '.';
		m = q;
	}
	cnt = ndigits(m);
	put_digits(p, m);
	return p - cnt;
}

/* printf's "%W.Pf" of x at p, without a format to read: btt's per-I/O
 * files print tens of millions of these.  The end. */
char *fmt_f(char *p, double x, int prec, int width)
{
	char t[64], *b = t + sizeof(t), *e = b;
	u64 bits;
	int n;

	memcpy(&bits, &x, sizeof(bits));
	if (!(!(bits >> 63) && prec <= 16 && (b = fp_short(e, x, prec)))) {	/* (not -0 either) */
		n = sfmt(t, sizeof(t), "%.*f", prec, x);	/* the rest, as vfmt has it */
		b = t, e = t + (n < (int)sizeof(t) ? n : (int)sizeof(t) - 1);
	}
	for (n = (int)(e - b); n < width; width--)
		*p++ = ' ';
	while (b < e)
		*p++ = *b++;
	return p;
}

/* fmt_f of x(ns) as "%15.9f" or "%.9f" (prec 9, width 15 or 0) or "%f"
 * (6, 0), x being btt's seconds of ns nanoseconds (BIT_TIME or TO_SEC):
 * made from ns, with no double made or taken apart, where that is
 * printf's text.  Below 2^50 ns (13 days) x is within 10^-15 s of ns /
 * 10^9, far nearer than the 10^-9 s between a 6-place rounding's sides
 * or the half of a 9-place one; a 6-place half (ns % 1000 is 500) goes
 * by x's binary value through fmt_f, as printf's does (t-fmt holds
 * fmt_ns to glibc's).  "%15.9f" is
 * blkparse's "%5d.%09lu" there, "%.9f" its "%d.%09lu". */
char *fmt_ns(char *p, u64 ns, double (*x)(u64), int prec, int width)
{
	if (ns >> 50 || (prec == 6 && ns % 1000 == 500))
		return fmt_f(p, x(ns), prec, width);
	if (prec == 9)
		return fmt_secs_w(p, ns, width ? 5 : 0);
	static struct lead c;

	ns = (ns + 500) / 1000;
	p = lead(p, &c, ns / 1000000, 0);	/* (below 2^50 ns: 7 digits at most) */
	return fmt_zpad(p, ns % 1000000, 6);
}

/* x's digits (x >= 0, finite), prec of them after the point, correctly
 * rounded (to even at an exact half), written backwards before end.
 * (Not inlined: its big number's zeroing was a sixth of btt's time with
 * every output, paid for each %f, though fp_short answers nearly all.) */
COLD __attribute__((noinline)) static char *fp_digits(char *end, double x, int prec)
{
	u32 a[FP_LIMBS] = { 0 };
	u64 bits, m;
	int e, i, cnt = 0, nz;
	char *p = end;

	memcpy(&bits, &x, sizeof(bits));
	e = (int)(bits >> 52 & 0x7ff);
	m = bits & (((u64)1 << 52) - 1);
	if (e)
		m |= (u64)1 << 52;
	else
		e = 1;		/* subnormal */
	e -= 1075;		/* x = m * 2^e */
	a[0] = (u32)m;
	a[1] = (u32)(m >> 32);
	for (i = 0; i < prec; i++) {
		u64 c = 0;

		for (int j = 0; j < FP_LIMBS; j++) {
			c += (u64)a[j] * 10;
			a[j] = (u32)c;
			c >>= 32;
		}
	}
	if (e < 0) {
		int h = -e - 1;		/* the bit worth one half */
		int up = limb(a, h >> 5) >> (h & 31) & 1, sticky = 0;

		for (i = 0; i < FP_LIMBS && i < h >> 5; i++)
			sticky |= a[i] != 0;
		sticky |= (limb(a, h >> 5) & ((1u << (h & 31)) - 1)) != 0;
		fp_shift(a, e);
		if (up && (sticky || (a[0] & 1)))
			for (i = 0; i < FP_LIMBS && !++a[i]; i++)
				;
	} else
		fp_shift(a, e);
	/* nine digits per division by 10^9, the point after prec of them */
	do {
		u64 r = 0;

		nz = 0;
		for (i = FP_LIMBS - 1; i >= 0; i--) {
			r = r << 32 | a[i];
			a[i] = (u32)(r / 1000000000u);
			r %= 1000000000u;
			nz |= a[i] != 0;
		}
		for (i = 0; i < 9; i++) {
			if (cnt++ == prec && prec)
				*--p = '.';
			*--p = (char)('0' + r % 10);
			r /= 10;
		}
	} while (nz || cnt <= prec);
	while (*p == '0' && p + 1 < end && p[1] != '.')
		p++;
	return p;
}

struct sink {
	char *buf;
	size_t cap, n;
};

static void put_n(struct sink *k, const char *s, size_t n)
{
	size_t i = k->n, e = i + n < k->cap ? i + n : k->cap ? k->cap - 1 : 0;

	for (k->n += n; i < e; i++)
		k->buf[i] = *s++;
}

static void pad(struct sink *k, char c, int n)
{
	for (; n > 0; n--, k->n++)
		if (k->n + 1 < k->cap)
			k->buf[k->n] = c;
}

/* snprintf's contract: the full length is returned, and buf always ends
 * in a NUL when cap > 0. */
COLD int vfmt(char *buf, size_t cap, const char *fmt, va_list ap)
{
	struct sink k = { buf, cap, 0 };
	char tmp[FP_BUF];

	for (; *fmt; fmt++) {
		const char *start = fmt, *body = tmp;
		int left = 0, zero = 0, width = 0, prec = -1, lng = 0, len;
		char sign = 0;
		u64 u;

		if (*fmt != '%') {	/* the run of text up to the next % */
			while (fmt[1] && fmt[1] != '%')
				fmt++;
			put_n(&k, start, (size_t)(fmt - start + 1));
			continue;
		}
		for (;; fmt++)
			if (fmt[1] == '-')
				left = 1;
			else if (fmt[1] == '0')
				zero = 1;
			else
				break;
		while (fmt[1] >= '0' && fmt[1] <= '9')
			width = width * 10 + *++fmt - '0';
		if (fmt[1] == '.' && fmt[2] == '*')	/* the precision as an argument */
			fmt += 2, prec = va_arg(ap, int);
		else if (fmt[1] == '.')
			for (fmt++, prec = 0; fmt[1] >= '0' && fmt[1] <= '9';)
				prec = prec * 10 + *++fmt - '0';
		while (fmt[1] == 'l' || fmt[1] == 'z')
			lng = *++fmt == 'z' ? 3 : lng + 1;
		switch (*++fmt) {
		case 'd':
		case 'i': {
			s64 v = lng == 2 ? va_arg(ap, long long) : lng ? va_arg(ap, long) : va_arg(ap, int);

			if (v < 0)
				sign = '-';
			u = v < 0 ? -(u64)v : (u64)v;
			len = (int)(fmt_u64(tmp, u) - tmp);
			break;
		}
		case 'u':
		case 'x':
			u = lng == 2 ? va_arg(ap, unsigned long long) : lng == 3 ? va_arg(ap, size_t)
				: lng ? va_arg(ap, unsigned long) : va_arg(ap, unsigned);
			if (*fmt == 'u') {
				len = (int)(fmt_u64(tmp, u) - tmp);
				break;
			}
			body = tmp + 16;
			do
				*(char *)--body = "0123456789abcdef"[u & 15];
			while (u >>= 4);
			len = (int)(tmp + 16 - body);
			break;
		case 'c':
			tmp[0] = (char)va_arg(ap, int);
			len = 1;
			zero = 0;
			break;
		case 's':
			body = va_arg(ap, const char *);
			if (!body)
				body = "(null)";
			for (len = 0; (prec < 0 || len < prec) && body[len]; len++)
				;
			zero = 0;
			break;
		case 'f': {
			double x = va_arg(ap, double);
			u64 bits;

			memcpy(&bits, &x, sizeof(bits));
			if (bits >> 63)
				sign = '-', x = -x;
			if ((bits >> 52 & 0x7ff) == 0x7ff) {
				body = bits << 12 ? "nan" : "inf";
				len = 3;
				zero = 0;
				break;
			}
			prec = prec < 0 ? 6 : prec > FMT_PREC_MAX ? FMT_PREC_MAX : prec;
			if (!(body = fp_short(tmp + FP_BUF, x, prec)))
				body = fp_digits(tmp + FP_BUF, x, prec);
			len = (int)(tmp + FP_BUF - body);
			break;
		}
		case '%':
			put_n(&k, "%", 1);
			continue;
		default:	/* not ours: shown as written */
			put_n(&k, start, (size_t)(fmt - start + !!*fmt));
			if (!*fmt)
				fmt--;
			continue;
		}
		width -= len + !!sign;
		if (!left && !zero)
			pad(&k, ' ', width);
		if (sign)
			put_n(&k, &sign, 1);
		if (!left && zero)
			pad(&k, '0', width);
		put_n(&k, body, (size_t)len);
		if (left)
			pad(&k, ' ', width);
	}
	if (cap)
		buf[k.n < cap ? k.n : cap - 1] = 0;
	return (int)k.n;
}

COLD int sfmt(char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfmt(buf, cap, fmt, ap);
	va_end(ap);
	return n;
}
