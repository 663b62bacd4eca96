/* capture/zsrc.c: capture: zstd-compressed input, decoded into a source's buffer without a heap */
/*
 * A source whose first bytes are zstd's frame magic is read through a
 * decoder from a fixed table (ZSTD_DECODERS at once), each on a static
 * workspace from one arena (ZSTD_ARENA), sized for its first frame's
 * window: a frame that needs a larger one, or past ZSTD_WINDOW_LOG, is
 * refused by name, never allocated for.  Damage is named by the
 * compressed file's byte offset; everything decoded before it is used.
 * Without zstd (make ZSTD=0) such an input is named and refused.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "capture/capture.h"

int zsrc_is(const u8 *p, u32 n)
{
	return n >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd;
}

/* The content size a zstd frame header gives (RFC 8878), 0 when it has
 * none or is not all here: the frames iomon's client makes carry it. */
u64 zframe_size(const u8 *p, u32 n)
{
	u32 fhd = p[4], fcs = fhd >> 6, single = fhd >> 5 & 1, at = 5 + !single + (u32)(fhd & 3 ? 1 << ((fhd & 3) - 1) : 0);
	u32 len = fcs ? 1u << fcs : single;
	u64 v = 0;

	if (!len || at + len > n)
		return 0;
	while (len--)
		v = v << 8 | p[at + len];
	return v + (fcs == 1 ? 256 : 0);
}

#ifndef IOMON_ZSTD

TEXT(zsrc_compressed_with_zstd, "%s: compressed with zstd, and this iomon was built without it "
	"(make ZSTD=1)")
long zsrc_start(struct src *s, u32 n, u32 ask)
{
	(void)n, (void)ask;
	warn_text(U_zsrc_compressed_with_zstd, s->name);
	return -2;
}

long zsrc_read(struct src *s, u32 ask)
{
	(void)s, (void)ask;
	return -2;
}

#else

#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include <zstd_errors.h>

/* The library is built with these for its malloc, calloc and free: iomon
 * has no heap, and the static workspaces below leave it nothing to ask. */
void *iomon_zmalloc(size_t n);
void *iomon_zcalloc(size_t n, size_t k);
void iomon_zfree(void *p);
void *iomon_zmalloc(size_t n) { (void)n; return 0; }
void *iomon_zcalloc(size_t n, size_t k) { (void)n, (void)k; return 0; }
void iomon_zfree(void *p) { (void)p; }

/* Each decoder's workspace and compressed reads' buffer are carved from
 * one arena as it starts: the workspace what its input's first frame
 * needs (frame_needs: a file of more frames a -z chunk's at least; the
 * largest window's where the header does not say; a later frame past it
 * is refused), the buffer its source's size up to ZSTD_IN_BUF.  So a
 * capture's many -z files (a frame a chunk, 352 KiB a workspace) fit
 * where few of the zstd CLI's 8 MiB windows do.  The arena is used from
 * its start again once no decoder is left. */
static struct zdec {
	ZSTD_DStream *d;
	struct src *s;		/* the source using it; 0: free */
	u64 zoff;		/* compressed bytes consumed */
	size_t hint;		/* 0 at the end of a frame */
	u32 ipos, ilen, isize;
	u8 *in;
} zd[ZSTD_DECODERS];
static u8 arena[ZSTD_ARENA] __attribute__((aligned(4096)));
static size_t aused;

static void release(struct src *s)
{
	zd[s->z - 1].s = 0;
	s->z = 0;
}

TEXT(zsrc_zstd_frame_at, "%s: zstd frame at compressed byte %llu needs a window over %u "
	"KiB (ZSTD_WINDOW_LOG %d): recompress with zstd --zstd=wlog=%d")
TEXT(zsrc_damaged_zstd_data, "%s: damaged zstd data at compressed byte %llu: %s")
TEXT(zsrc_frame_window_past, "%s: zstd frame at compressed byte %llu needs a larger window than "
	"the first")
static long zfail(struct src *s, size_t r)
{
	struct zdec *z = &zd[s->z - 1];

	if (ZSTD_getErrorCode(r) == ZSTD_error_frameParameter_windowTooLarge)
		warn_text(U_zsrc_zstd_frame_at, s->name, (unsigned long long)z->zoff,
			 (1u << ZSTD_WINDOW_LOG) >> 10, ZSTD_WINDOW_LOG, ZSTD_WINDOW_LOG);
	else if (ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation)
		warn_text(U_zsrc_frame_window_past, s->name, (unsigned long long)z->zoff);
	else
		warn_text(U_zsrc_damaged_zstd_data, s->name,
			 (unsigned long long)z->zoff, ZSTD_getErrorName(r));
	release(s);
	return -2;
}

TEXT(zsrc_truncated_zstd_frame, "%s: truncated zstd frame at compressed byte %llu")
long zsrc_read(struct src *s, u32 ask)
{
	struct zdec *z = &zd[s->z - 1];

	for (;;) {
		ZSTD_outBuffer o = { s->buf + s->len, ask, 0 };
		ZSTD_inBuffer i;
		size_t r;

		if (z->ipos == z->ilen) {
			ssize_t n = read(s->fd, z->in, z->isize);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				return -1;
			if (!n && z->hint) {
				warn_text(U_zsrc_truncated_zstd_frame, s->name,
					 (unsigned long long)z->zoff);
				release(s);
				return -2;
			}
			if (!n) {
				release(s);
				return 0;
			}
			z->ipos = 0, z->ilen = (u32)n;
		}
		i.src = z->in, i.size = z->ilen, i.pos = z->ipos;
		r = ZSTD_decompressStream(z->d, &o, &i);
		z->zoff += i.pos - z->ipos;
		z->ipos = (u32)i.pos;
		if (ZSTD_isError(r))
			return zfail(s, r);
		z->hint = r;
		if (o.pos)
			return (long)o.pos;
	}
}

/* What a static decoder holds for a frame of window w and content c
 * (zstd's own sum): its context, a block's input, and the window with a
 * block and a literals block, or the content where that is smaller (-z's
 * frames and the zstd CLI's files say theirs) */
static size_t frame_needs(u64 w, u64 c)
{
	return ZSTD_estimateDCtxSize() + (size_t)(w < ZSTD_BLOCKSIZE_MAX ? w : ZSTD_BLOCKSIZE_MAX) +
	       (size_t)ZSTD_decodingBufferSize_min(w, c);
}

TEXT(zsrc_no_room_for, "%s: no room for another zstd decoder (ZSTD_ARENA)")
TEXT(zsrc_first_read_of, "%s: first read of %u bytes beyond ZSTD_IN_BUF")
TEXT(zsrc_more_than_zstd, "%s: more than %d zstd inputs at once (ZSTD_DECODERS)")
long zsrc_start(struct src *s, u32 n, u32 ask)
{
	struct zdec *z = 0;
	ZSTD_frameHeader h;
	struct stat st;
	size_t need;
	int i, live = 0;

	/* a slot whose source was set up again (src_init) is free */
	for (i = 0; i < ZSTD_DECODERS; i++)
		if (zd[i].s && zd[i].s->z == i + 1)
			live = 1;
		else if (!z)
			z = &zd[i];
	if (!live)
		aused = 0;
	if (!z) {
		warn_text(U_zsrc_more_than_zstd, s->name, ZSTD_DECODERS);
		return -2;
	}
	z->isize = s->cap < ZSTD_IN_BUF ? s->cap : ZSTD_IN_BUF;
	/* the largest window's needs unless the first frame says less: a
	 * file of that one frame (an idle CPU's) needs its own only, else
	 * later frames may fill a -z chunk */
	need = ZSTD_estimateDStreamSize((size_t)1 << ZSTD_WINDOW_LOG);
	if (!ZSTD_getFrameHeader(&h, s->buf + s->len, n) && h.frameType == ZSTD_frame &&
	    h.windowSize <= (1ull << ZSTD_WINDOW_LOG)) {
		need = frame_needs(h.windowSize, h.frameContentSize);
		if (!fstat(s->fd, &st) && ZSTD_findFrameCompressedSize(s->buf + s->len, n) == (size_t)st.st_size)
			z->isize = n;
		else if (need < frame_needs(ZSTD_CHUNK, ZSTD_CHUNK))
			need = frame_needs(ZSTD_CHUNK, ZSTD_CHUNK);
	}
	if (n > z->isize) {	/* a first read is never larger than a source */
		warn_text(U_zsrc_first_read_of, s->name, n);
		return -2;
	}
	need = (need + 127) & ~(size_t)63;	/* (and room for the 4 bytes an empty frame's block asks) */
	if (aused + need + z->isize > sizeof(arena) || !(z->d = ZSTD_initStaticDStream(arena + aused, need))) {
		warn_text(U_zsrc_no_room_for, s->name);
		return -2;
	}
	z->in = arena + aused + need;
	aused += need + ((z->isize + 63) & ~63u);
	ZSTD_DCtx_setParameter(z->d, ZSTD_d_windowLogMax, ZSTD_WINDOW_LOG);
	memcpy(z->in, s->buf + s->len, n);
	z->s = s, z->zoff = 0, z->hint = 1, z->ipos = 0, z->ilen = n;
	s->z = (int)(z - zd) + 1;
	return zsrc_read(s, ask);
}

#endif
