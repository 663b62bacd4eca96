/* Output: our own buffer over a raw fd (no stdio streams, no hidden
 * allocation), and the few number formats blkparse's printf calls need,
 * done by hand because formatting is most of the time parse spends. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "iomon.h"

void ob_init(struct obuf *o, int fd, const char *name, char *buf, u32 cap)
{
	o->fd = fd;
	o->failed = 0;
	o->name = name;
	o->buf = buf;
	o->len = 0;
	o->cap = cap;
}

void ob_flush(struct obuf *o)
{
	u32 off = 0;

	while (off < o->len && !o->failed) {
		ssize_t n = write(o->fd, o->buf + off, o->len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* A reader that went away is not worth a message. */
			if (errno != EPIPE)
				warn_msg("write %s: %s", o->name, n ? strerror(errno) : "no progress");
			o->failed = errno ? errno : EIO;
			break;
		}
		off += (u32)n;
	}
	o->len = 0;
}

void ob_write(struct obuf *o, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		u32 k;

		if (o->len == o->cap)
			ob_flush(o);
		k = o->cap - o->len;
		if (k > n)
			k = (u32)n;
		memcpy(o->buf + o->len, c, k);
		o->len += k;
		c += k;
		n -= k;
	}
}

void ob_puts(struct obuf *o, const char *s) { ob_write(o, s, strlen(s)); }

void ob_printf(struct obuf *o, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(tmp) - 1)
		n = sizeof(tmp) - 1;
	if (n > 0)
		ob_write(o, tmp, (size_t)n);
}

int ob_close(struct obuf *o)
{
	ob_flush(o);
	if (o->fd > 2 && close(o->fd) && !o->failed) {
		warn_msg("close %s: %s", o->name, strerror(errno));
		o->failed = errno;
	}
	return o->failed ? -1 : 0;
}

static const char digits2[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static int ndigits(u64 v)
{
	int n = 1;

	while (v >= 10000) {
		v /= 10000;
		n += 4;
	}
	return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/* Right to left, two digits per step: this runs several times per line. */
static void put_digits(char *end, u64 v)
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
			end[0] = digits2[2 * d], end[1] = digits2[2 * d + 1];
		}
	}
	w = (u32)v;
	while (w >= 100) {
		u32 d = w % 100;

		w /= 100;
		end -= 2;
		end[0] = digits2[2 * d], end[1] = digits2[2 * d + 1];
	}
	if (w >= 10) {
		end -= 2;
		end[0] = digits2[2 * w], end[1] = digits2[2 * w + 1];
	} else
		*--end = (char)('0' + w);
}

char *fmt_u64(char *p, u64 v)
{
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

char *fmt_num(char *p, u64 v, int neg, int width, int left)
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

char *fmt_zpad(char *p, u64 v, int width)
{
	int n = ndigits(v);

	for (; n < width; width--)
		*p++ = '0';
	put_digits(p + n, v);
	return p + n;
}
