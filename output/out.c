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

char *fmt_u64(char *p, u64 v)
{
	char t[20];
	int n = 0;

	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = t[--n];
	return p;
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
	char t[24];
	char *e = t;
	int n;

	if (neg)
		*e++ = '-';
	e = fmt_u64(e, v);
	n = (int)(e - t);
	if (!left)
		for (; n < width; width--)
			*p++ = ' ';
	memcpy(p, t, (size_t)(e - t));
	p += e - t;
	if (left)
		for (; n < width; width--)
			*p++ = ' ';
	return p;
}

char *fmt_str(char *p, const char *s, int width, int left)
{
	int n = (int)strlen(s);

	if (!left)
		for (; n < width; width--)
			*p++ = ' ';
	memcpy(p, s, (size_t)n);
	p += n;
	if (left)
		for (; n < width; width--)
			*p++ = ' ';
	return p;
}

char *fmt_zpad(char *p, u64 v, int width)
{
	char t[20];
	char *e = fmt_u64(t, v);
	int n = (int)(e - t);

	for (; n < width; width--)
		*p++ = '0';
	memcpy(p, t, (size_t)(e - t));
	return p + (e - t);
}
