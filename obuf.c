/* obuf.c: bottom: obuf, buffered writes to a raw fd, ob_printf */
/* our own output buffer over a raw fd: no stdio streams, no hidden
 * allocation; a buffer of its own, or chunks of a pool (btt's files) */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <sys/uio.h>
#include "iomon.h"

void ob_init(struct obuf *o, int fd, const char *name, char *buf, u32 cap)
{
	o->fd = fd;
	o->failed = 0;
	o->name = name;
	o->buf = buf;
	o->len = 0;
	o->cap = cap;
	o->more = NULL;
}

void ob_writev(struct obuf *o, struct iovec *v, int n)
{
	ssize_t k;

	for (;;) {
		while (n && !v->iov_len)
			v++, n--;
		if (!n || o->failed)
			break;
		k = writev(o->fd, v, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			/* A reader that went away is not worth a message. */
			if (errno != EPIPE)
				warn_msg("write %s: %s", o->name, k ? strerror(errno) : "no progress");
			o->failed = errno ? errno : EIO;
			break;
		}
		for (; n && (size_t)k >= v->iov_len; v++, n--)
			k -= (ssize_t)v->iov_len;
		if (n) {
			v->iov_base = (char *)v->iov_base + k;
			v->iov_len -= (size_t)k;
		}
	}
}

void ob_flush(struct obuf *o)
{
	struct iovec v = { o->buf, o->len };

	if (o->more) {
		o->more(o, 1);
		return;
	}
	ob_writev(o, &v, 1);
	o->len = 0;
}

void ob_full(struct obuf *o)
{
	if (o->more)
		o->more(o, 0);
	else
		ob_flush(o);
}

void ob_write(struct obuf *o, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		u32 k;

		if (o->len == o->cap)
			ob_full(o);
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

COLD void ob_printf(struct obuf *o, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfmt(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(tmp) - 1)
		n = sizeof(tmp) - 1;
	if (n > 0)
		ob_write(o, tmp, (size_t)n);
}

COLD int ob_close(struct obuf *o)
{
	ob_flush(o);
	if (o->fd > 2 && close(o->fd) && !o->failed) {
		warn_msg("close %s: %s", o->name, strerror(errno));
		o->failed = errno;
	}
	return o->failed ? -1 : 0;
}
