/* capture/zout.c: capture: zstd-compressed trace output (-z), frames of ZSTD_CHUNK bytes, no heap */
/*
 * Each output (a per-CPU file, or the one stream) gathers ZSTD_CHUNK bytes
 * in a buffer from a fixed table (ZSTD_OUTS), keyed by its fd, and writes
 * them as one zstd frame; the end of the run writes what is left.  So a
 * file is a sequence of frames that `zstd -d` restores to the very bytes an
 * uncompressed capture writes, each frame's window no larger than a chunk,
 * and one compression context on a static workspace serves every output.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "capture/capture.h"

#ifndef IOMON_ZSTD

int zout_level(const char *arg)
{
	(void)arg;
	warn_msg("-z: this iomon was built without zstd (make ZSTD=1)");
	return -1;
}
int zout_write(int fd, const void *p, size_t n) { (void)fd, (void)p, (void)n; return -1; }
int zout_flush(void) { return 0; }

#else

#define ZSTD_STATIC_LINKING_ONLY
#include "zstd.h"

static struct zout { int fd; u32 len; u8 buf[ZSTD_CHUNK]; } zo[ZSTD_OUTS];
static u32 nzo;
static int level;
static ZSTD_CCtx *cc;
static u8 cwork[ZSTD_CWORK] __attribute__((aligned(64)));
static u8 frame[ZSTD_COMPRESSBOUND(ZSTD_CHUNK)];

/* -z[LEVEL]: 1 to ZSTD_LEVEL_MAX, 3 when none is given; 0 ok, -1 said */
int zout_level(const char *arg)
{
	char *e;
	u64 v = arg ? scan_u64(arg, &e, 10) : 3;

	if (arg && (e == arg || *e || !v || v > ZSTD_LEVEL_MAX)) {
		warn_msg("-z%s: a level from 1 to %d", arg, ZSTD_LEVEL_MAX);
		return -1;
	}
	level = (int)v;
	if (ZSTD_estimateCCtxSize_usingCParams(ZSTD_getCParams(level, ZSTD_CHUNK, 0)) > sizeof(cwork) ||
	    !(cc = ZSTD_initStaticCCtx(cwork, sizeof(cwork)))) {
		warn_msg("-z%d: its workspace is larger than ZSTD_CWORK", level);
		return -1;
	}
	return 0;
}

static int put(int fd, const u8 *b, size_t n)
{
	while (n) {
		ssize_t k = write(fd, b, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		b += k;
		n -= (size_t)k;
	}
	return 0;
}

static int emit(struct zout *z)
{
	size_t r;

	if (!z->len)
		return 0;
	r = ZSTD_compressCCtx(cc, frame, sizeof(frame), z->buf, z->len, level);
	z->len = 0;
	if (ZSTD_isError(r)) {
		warn_msg("zstd: %s", ZSTD_getErrorName(r));
		errno = EIO;
		return -1;
	}
	return put(z->fd, frame, r);
}

/* n bytes for fd, compressed; -1 with errno (or said) when they cannot be */
int zout_write(int fd, const void *p, size_t n)
{
	const u8 *b = p;
	struct zout *z = 0;
	u32 i;

	for (i = 0; i < nzo && !z; i++)
		if (zo[i].fd == fd)
			z = &zo[i];
	if (!z) {
		if (nzo == ZSTD_OUTS) {
			warn_msg("-z: more than %d compressed outputs (ZSTD_OUTS)", ZSTD_OUTS);
			errno = ENOSPC;
			return -1;
		}
		z = &zo[nzo++];
		z->fd = fd, z->len = 0;
	}
	while (n) {
		u32 k = ZSTD_CHUNK - z->len < n ? ZSTD_CHUNK - z->len : (u32)n;

		memcpy(z->buf + z->len, b, k);
		z->len += k, b += k, n -= k;
		if (z->len == ZSTD_CHUNK && emit(z))
			return -1;
	}
	return 0;
}

/* What every output holds, as a last frame each; -1 if one failed. */
int zout_flush(void)
{
	int rc = 0;
	u32 i;

	for (i = 0; i < nzo; i++)
		rc |= emit(&zo[i]);
	return rc ? -1 : 0;
}

#endif
