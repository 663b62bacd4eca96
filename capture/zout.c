/* capture/zout.c: capture: zstd-compressed trace output (-z), frames of ZSTD_CHUNK bytes, no heap */
/*
 * Each output (a per-CPU file, or the one stream; ZSTD_FILES at once)
 * gathers ZSTD_CHUNK bytes in a buffer from a fixed table (ZSTD_OUTS) and
 * writes them as one zstd frame; the end of the run writes what is left.
 * With every buffer held, the fullest one's bytes go out as a frame of
 * their own and the buffer changes hands, so outputs past ZSTD_OUTS (more
 * CPUs, more devices) cost compression ratio, never their records.  So a
 * file is a sequence of frames that `zstd -d` restores to the very bytes an
 * uncompressed capture writes, each frame's window no larger than a chunk,
 * and one compression context on a static workspace serves every output.
 * The compressing runs in a child process, fed through a pipe: the capture
 * loop only copies, so the kernel's buffers are read as fast as without
 * -z while another CPU compresses.  The child creates the files (with the
 * capture's own rules, create()) when the capture first names them.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "capture/capture.h"

#ifndef IOMON_ZSTD

TEXT(zout_z_this_iomon, "-z: this iomon was built without zstd (make ZSTD=1)")
int zout_level(const char *arg)
{
	(void)arg;
	warn_text(U_zout_z_this_iomon);
	return -1;
}
int zout_open(const char *path, int (*create)(const char *path)) { (void)path, (void)create; return -1; }
void zout_close(int slot) { (void)slot; }
u32 zout_frame(const void *p, u32 n, const u8 **out) { (void)p, (void)n, (void)out; return 0; }
int zout_write(int fd, const void *p, size_t n) { (void)fd, (void)p, (void)n; return -1; }
int zout_finish(void) { return 0; }

#else

#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

static struct zfile { int fd; u32 frames; u16 b; u8 live; } zf[ZSTD_FILES];	/* b: its buffer + 1, 0: none */
static struct zbuf { u32 len, f; u8 data[ZSTD_CHUNK]; } zb[ZSTD_OUTS];		/* f: its output + 1, 0: free */
static u32 nzf;		/* outputs up to the highest used */
static int level, zin = -1, behind;	/* zin: the child's pipe; behind: its backlog limit */
static unsigned long long stored, chunks;	/* frames stored to keep up, frames in all */
static ZSTD_CCtx *cc;
static u8 cwork[ZSTD_CWORK] __attribute__((aligned(64)));
static u8 frame[ZSTD_COMPRESSBOUND(ZSTD_CHUNK)];
_Static_assert(ZSTD_CHUNK <= 131072 && ZSTD_OUTS < 65536, "ZSTD_CHUNK: a stored frame is one block of at most 128 KiB");

TEXT(zout_z_a_level, "-z%s: a level from 0 (stored) to %d")
TEXT(zout_z_its_workspace, "-z%d: its workspace is larger than ZSTD_CWORK")
/* -z[LEVEL]: 0 (frames stored, not compressed) to ZSTD_LEVEL_MAX,
 * ZSTD_LEVEL_DEFAULT when none is given; 0 ok, -1 said */
int zout_level(const char *arg)
{
	char *e;
	u64 v = arg ? scan_u64(arg, &e, 10) : ZSTD_LEVEL_DEFAULT;

	if (arg && (e == arg || *e || v > ZSTD_LEVEL_MAX)) {
		warn_text(U_zout_z_a_level, arg, ZSTD_LEVEL_MAX);
		return -1;
	}
	level = (int)v;
	if (ZSTD_estimateCCtxSize_usingCParams(ZSTD_getCParams(level, ZSTD_CHUNK, 0)) > sizeof(cwork) ||
	    !(cc = ZSTD_initStaticCCtx(cwork, sizeof(cwork)))) {
		warn_text(U_zout_z_its_workspace, level);
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

/* A frame of one raw block, written from z's buffer as it is: a
 * single-segment header with the size, then the bytes (zstd's format,
 * RFC 8878); no copy, since this runs when the CPU is short */
static int stored_frame(int fd, const u8 *p, u32 n)
{
	u32 b = n << 3 | 1;	/* the last block, raw */
	u8 h[12] = { 0x28, 0xb5, 0x2f, 0xfd, 0xa0, (u8)n, (u8)(n >> 8), (u8)(n >> 16), (u8)(n >> 24),
		     (u8)b, (u8)(b >> 8), (u8)(b >> 16) };

	return put(fd, h, sizeof(h)) || put(fd, p, n) ? -1 : 0;
}

/* A frame of what output s holds; at the end (last) an empty one for an output
 * that has none, so even a CPU without events gives a file zstd -d takes.
 * Stored, not compressed, at level 0 and while the capture is ahead of
 * the child by more than half the pipe: a slow CPU costs ratio, never
 * events. */
static int emit(u32 s, int last)
{
	struct zfile *f = &zf[s];
	const u8 *p = f->b ? zb[f->b - 1].data : (const u8 *)"";
	u32 n = f->b ? zb[f->b - 1].len : 0;
	size_t r;
	int q = 0;

	if (!n && !(last && !f->frames))
		return 0;
	f->frames++;
	chunks++;
	if (f->b)
		zb[f->b - 1].len = 0;
	if (!level || (zin >= 0 && !ioctl(zin, FIONREAD, &q) && q > behind)) {
		stored += level != 0;
		return stored_frame(f->fd, p, n);
	}
	r = ZSTD_compressCCtx(cc, frame, sizeof(frame), p, n, level);
	if (ZSTD_isError(r)) {
		warn_msg("zstd: %s", ZSTD_getErrorName(r));
		errno = EIO;
		return -1;
	}
	return put(f->fd, frame, r);
}

/* One frame of the n bytes at p (at most ZSTD_CHUNK), made in this
 * process at -z's level (0: stored), for the network client: its length,
 * the bytes at *out; 0 when it could not be made. */
u32 zout_frame(const void *p, u32 n, const u8 **out)
{
	size_t r;

	*out = frame;
	if (!level) {
		u32 b = n << 3 | 1;
		u8 h[12] = { 0x28, 0xb5, 0x2f, 0xfd, 0xa0, (u8)n, (u8)(n >> 8), (u8)(n >> 16), (u8)(n >> 24),
			     (u8)b, (u8)(b >> 8), (u8)(b >> 16) };

		memcpy(frame, h, sizeof(h));
		memcpy(frame + sizeof(h), p, n);
		return n + (u32)sizeof(h);
	}
	r = ZSTD_compressCCtx(cc, frame, sizeof(frame), p, n, level);
	return ZSTD_isError(r) ? 0 : (u32)r;
}

/* Output s's buffer: its own, a free or empty one, or the fullest one's
 * once that output's bytes went out as a frame; NULL: that frame failed */
static struct zbuf *zbuf_of(u32 s)
{
	u32 i, w = 0;

	if (zf[s].b)
		return &zb[zf[s].b - 1];
	for (i = 0; i < ZSTD_OUTS && zb[i].f && zb[i].len; i++)
		if (zb[i].len > zb[w].len)
			w = i;
	if (i < ZSTD_OUTS)
		w = i;	/* free, or held empty (a chunk just written): no frame */
	else if (emit(zb[w].f - 1, 0))
		return NULL;
	if (zb[w].f)
		zf[zb[w].f - 1].b = 0;
	zb[w].f = s + 1, zb[w].len = 0;
	zf[s].b = (u16)(w + 1);
	return &zb[w];
}

/* n bytes for output s, compressed; -1 with errno when they cannot be */
static int zput(u32 s, const void *p, size_t n)
{
	const u8 *b = p;
	struct zbuf *z;

	while (n) {
		u32 k;

		if (!(z = zbuf_of(s)))
			return -1;
		k = ZSTD_CHUNK - z->len < n ? ZSTD_CHUNK - z->len : (u32)n;
		memcpy(z->data + z->len, b, k);
		z->len += k, b += k, n -= k;
		if (z->len == ZSTD_CHUNK && emit(s, 0))
			return -1;
	}
	return 0;
}

/* One output's last frame, its file closed, its buffer free; 0 or -1. */
static int zclose(u32 s)
{
	int rc = emit(s, 1);	/* (before the close: | leaves the order open) */

	rc |= close(zf[s].fd);

	if (zf[s].b)
		zb[zf[s].b - 1].f = 0;
	zf[s].b = 0, zf[s].live = 0;
	return rc;
}

/* What every output holds, as a last frame each; -1 if one failed. */
static int flush_all(void)
{
	int rc = 0;
	u32 i;

	for (i = 0; i < nzf; i++)
		if (zf[i].live)
			rc |= emit(i, 1);
	return rc ? -1 : 0;
}

/* ---- the capture's side and the child's, over one pipe ---- */

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

/* a message: slot and length, then the bytes; ZOPEN|slot: the bytes are
 * a path (empty: stdout) for that slot; ZCLOSE|slot: its last frame, its
 * file closed, the slot free again (the server's hosts come and go) */
struct zmsg { u32 slot, len; };
#define ZOPEN 0x80000000u
#define ZCLOSE 0x40000000u

static int zpipe = -1;
static u8 taken[ZSTD_FILES];
static pid_t zchild;

static int get(int fd, void *p, size_t n)
{
	u8 *b = p;

	while (n) {
		ssize_t k = read(fd, b, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		b += k;
		n -= (size_t)k;
	}
	return 0;
}

TEXT(zout_z_of_frames, "-z: %llu of %llu frames stored uncompressed: compressing fell "
	"behind the capture")
TEXT(zout_z_writing_a, "-z: writing a compressed file: %s")
/* The child: files opened and data compressed as the messages say; its
 * exit status says whether every byte reached its file. */
static void child(int in, int (*create)(const char *path))
{
	static u8 data[ZSTD_CHUNK];
	struct zmsg m;
	struct rlimit r;
	int n = 0, top;
	u32 s;

	/* only the pipe and the outputs: a tracefs file held open here would
	 * keep the capture from removing its instance (every descriptor the
	 * limit allows, which the capture raised: sys_fd_room) */
	top = syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, &r) || r.rlim_cur > 1u << 20 ? 1 << 20 : (int)r.rlim_cur;
#ifdef SYS_close_range
	/* (a limit of a million, as containers set, is that many closes) */
	if (!syscall(SYS_close_range, 3u, (unsigned)in - 1, 0u) && !syscall(SYS_close_range, (unsigned)in + 1, ~0u, 0u))
		top = 0;
#endif
	for (n = 3; n < top; n++)
		if (n != in)
			close(n);
	n = 0;
	signal(SIGINT, SIG_IGN);	/* Ctrl-C stops the capture; we finish */
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	zin = in;
	behind = fcntl(in, F_GETPIPE_SZ) / 2;
	while (!get(in, &m, sizeof(m))) {
		if (m.len > sizeof(data) - 1 || get(in, data, m.len) || (s = m.slot & ~(ZOPEN | ZCLOSE)) >= ZSTD_FILES)
			_exit(1);
		if (m.slot & ZOPEN) {
			data[m.len] = 0;
			/* known from the start: an output without events gets its empty frame */
			if ((zf[s].fd = m.len ? create((char *)data) : 1) < 0)
				_exit(1);
			zf[s].frames = 0, zf[s].b = 0, zf[s].live = 1;
			if (s >= nzf)
				nzf = s + 1;
		} else if (m.slot & ZCLOSE) {
			if (zclose(s))
				_exit(1);
		} else if (zput(s, data, m.len)) {
			if (errno != EPIPE)
				warn_text(U_zout_z_writing_a, strerror(errno));
			_exit(1);
		}
	}
	n = flush_all();
	if (stored)
		warn_text(U_zout_z_of_frames,
			 stored, chunks);
	_exit(n ? 1 : 0);
}

static int zsend(u32 slot, const void *p, u32 n)
{
	struct zmsg m = { slot, n };

	return put(zpipe, (const u8 *)&m, sizeof(m)) || put(zpipe, p, n) ? -1 : 0;
}

TEXT(zout_z_more_than, "-z: more than %d compressed outputs (ZSTD_FILES)")
/* An output named path (NULL: stdout, once for every CPU); its slot, or
 * -1 said.  The first starts the child. */
int zout_open(const char *path, int (*create)(const char *path))
{
	static int out_slot = -1;
	int p[2], slot;

	if (!path && out_slot >= 0)
		return out_slot;
	for (slot = 0; slot < ZSTD_FILES && taken[slot]; slot++)
		;
	if (slot == ZSTD_FILES) {
		warn_text(U_zout_z_more_than, ZSTD_FILES);
		return -1;
	}
	if (zpipe < 0) {
		if (pipe2(p, O_CLOEXEC) < 0 ||
		    (fcntl(p[1], F_SETPIPE_SZ, ZSTD_PIPE), (zchild = fork()) < 0)) {	/* room for a burst; a smaller pipe still works */
			err_sys("-z: starting the compressor");
			return -1;
		}
		if (!zchild) {
			close(p[1]);
			child(p[0], create);
		}
		close(p[0]);
		zpipe = p[1];
	}
	if (zsend(ZOPEN | (u32)slot, path ? path : "", path ? (u32)strlen(path) : 0))
		return -1;
	if (!path)
		out_slot = slot;
	taken[slot] = 1;
	return slot;
}

/* Output slot's last frame and its file closed; the slot free again. */
void zout_close(int slot)
{
	if (zpipe >= 0 && !zsend(ZCLOSE | (u32)slot, "", 0))
		taken[slot] = 0;
}

/* n bytes for output slot, to the compressor; -1 with errno */
int zout_write(int slot, const void *p, size_t n)
{
	const u8 *b = p;

	while (n) {
		u32 k = n < ZSTD_CHUNK - 1 ? (u32)n : ZSTD_CHUNK - 1;

		if (zsend((u32)slot, b, k))
			return -1;
		b += k;
		n -= k;
	}
	return 0;
}

/* The end: the child writes what is left and says how it went. */
int zout_finish(void)
{
	int st;

	if (zpipe < 0)
		return 0;
	close(zpipe);
	zpipe = -1;
	while (waitpid(zchild, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -1;
}

#endif
