/* stats/exact.c: stats: exact sums of squares and the variance printed from them.
 *
 * blkiomon prints var = (sum of squares - sum*sum/num) / num.  In doubles
 * the squares lose bits past 2^53 and the subtraction cancels what is
 * left, so the last digit printed was often wrong.  Here the sum of
 * squares is a 160-bit integer (sq_add, in iomon.h, inline for the
 * per-record path) and the variance the exact fraction
 * (num*squares - sum^2) / num^2, rounded to nearest, ties to even, as
 * printf rounds the value it is given.  Integers are 32-bit limbs, built by
 * hand, so every architecture (armhf has no __int128) computes the same. */
#include "stats/stats.h"

/* 256 bits, least significant limb first: num*squares needs 224, and
 * a factor 10^3 for three decimals 10 more. */
#define WL 8
struct wide { u32 w[WL]; };

static void w_set(struct wide *x, u64 lo, u64 hi, u32 top)
{
	for (int i = 0; i < WL; i++)
		x->w[i] = 0;
	x->w[0] = (u32)lo, x->w[1] = (u32)(lo >> 32);
	x->w[2] = (u32)hi, x->w[3] = (u32)(hi >> 32);
	x->w[4] = top;
}

static void w_mul(struct wide *x, u64 f)	/* x *= f; no overflow in our use */
{
	u64 fl = (u32)f, fh = f >> 32, c = 0;
	struct wide y;
	int i;

	for (i = 0; i < WL; i++) {	/* y = x * low half of f */
		c += x->w[i] * fl;
		y.w[i] = (u32)c;
		c >>= 32;
	}
	for (c = 0, i = 1; i < WL; i++) {	/* y += (x * high half) << 32 */
		c += y.w[i] + x->w[i - 1] * fh;	/* < 2^64: c < 2^32 here */
		y.w[i] = (u32)c;
		c >>= 32;
	}
	*x = y;
}

static void w_add(struct wide *x, u64 v)
{
	for (int i = 0; i < WL && v; i++) {
		v += x->w[i];
		x->w[i] = (u32)v;
		v >>= 32;
	}
}

static void w_sub(struct wide *x, const struct wide *y)	/* x -= y, x >= y */
{
	s64 c = 0;

	for (int i = 0; i < WL; i++) {
		c += (s64)x->w[i] - y->w[i];
		x->w[i] = (u32)c;
		c >>= 32;	/* arithmetic: -1 on borrow */
	}
}

/* x /= d (d > 0), bit by bit: this runs a few times per interval, not
 * per record.  Returns the remainder. */
static u64 w_div(struct wide *x, u64 d)
{
	u64 r = 0;

	for (int i = WL * 32 - 1; i >= 0; i--) {
		u64 top = r >> 63;
		u32 *w = &x->w[i / 32];

		r = r << 1 | (*w >> (i % 32) & 1);
		*w &= ~(1u << (i % 32));
		if (top || r >= d) {
			r -= d;
			*w |= 1u << (i % 32);
		}
	}
	return r;
}

static int w_zero(const struct wide *x)
{
	for (int i = 0; i < WL; i++)
		if (x->w[i])
			return 0;
	return 1;
}

/* (num * squares - sum^2) * scale / num^2, rounded to nearest, ties to
 * even: floor division by num twice, then the fraction left,
 * (r2 * num + r1) / num^2, compared with one half. */
static struct wide var_scaled(u64 num, u64 sum, const struct sq160 *q, u64 scale)
{
	struct wide x, s2, f, all;
	u64 r1, r2;
	int i;

	w_set(&x, q->lo, q->hi, q->top);
	w_mul(&x, num);
	w_set(&s2, sum, 0, 0);
	w_mul(&s2, sum);
	w_sub(&x, &s2);
	w_mul(&x, scale);
	r1 = w_div(&x, num);
	r2 = w_div(&x, num);
	w_set(&f, r2, 0, 0);	/* twice the fraction's numerator */
	w_mul(&f, num);
	w_add(&f, r1);
	w_mul(&f, 2);
	w_set(&all, num, 0, 0);	/* its denominator */
	w_mul(&all, num);
	for (i = WL - 1; i >= 0 && f.w[i] == all.w[i]; i--)
		;
	/* above one half, or exactly one half and x odd: round up */
	if (i >= 0 ? f.w[i] > all.w[i] : (x.w[0] & 1))
		w_add(&x, 1);
	return x;
}

/* The variance of num values with this sum and sum of squares, written
 * with `decimals` (at most 3) digits after the point: "%.Nf" of the exact
 * value.  Returns the end of what was written (at most 80 bytes). */
char *fmt_variance(char *p, u64 num, u64 sum, const struct sq160 *q, int decimals)
{
	struct wide x;
	char digits[80];
	int n = 0, i;
	u64 scale = 1;

	for (i = 0; i < decimals; i++)
		scale *= 10;
	w_set(&x, 0, 0, 0);
	if (num)
		x = var_scaled(num, sum, q, scale);
	do
		digits[n++] = (char)('0' + w_div(&x, 10));
	while (!w_zero(&x) || n <= decimals);
	for (i = n - 1; i >= 0; i--) {
		*p++ = digits[i];
		if (i == decimals && decimals)
			*p++ = '.';
	}
	return p;
}
