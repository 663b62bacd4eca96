/* capture/netsrv.c: capture: blktrace's server (trace -l): connections, hosts, devices, files, summaries, hostile clients */
/* What blktrace -l does, on fixed tables and without trusting the wire.
 * Connections from one address make one client machine (a "host"); the
 * host's first connection names its folder, ADDR-YYYY-MM-DD-HH:MM:SS (UTC),
 * and a device's files NAME.blktrace.CPU, one per CPU the client has, go
 * there.  A host's run ends when every open it sent has been closed (or its
 * last connection has gone): its files are closed and its summary printed.
 *
 * Unlike blktrace, each header's byte order is its own (a fleet may mix
 * them), a client never blocks the others (every socket is non-blocking,
 * each message is taken as it comes), and a header that lies drops its
 * connection only.  Records are followed as they are written, so a client
 * that vanishes inside one leaves its files ending on a whole record.
 *
 * With a sink (parse, monitor, btt --listen) there are no files: the
 * whole records a round of reads brought, from every connection, go to
 * the sink merged by time (capture/runs.c), as a local capture's round
 * does; a record arriving in a later round than a younger one of another
 * CPU comes after it, as in blkparse's pipe mode.  Hosts booted at different times have clocks far
 * apart, so each host's times are moved onto ours at its first record
 * (their differences kept); a device number a host shares with another
 * host's device is given a free minor, and stderr says so. */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "capture/backend.h"

/* a read: C.buf's first half, behind the carry of a record cut short */
#define NET_READ (CAP_BUF / 2 - NET_CARRY)

struct nfile {
	int fd, z;		/* z: zstd frames (trace -h -z), stored as they come */
	u64 bytes, good;	/* received; the end of the last whole record (frame) */
	u64 raw, pend;		/* z: whole frames' content sizes (the summary's); this one's */
};
struct ndev {
	char name[32];
	int host;		/* -1: a free slot */
	u32 ncpu, cl_id, seq;	/* seq: its place in the opens, as blktrace lists them */
	u64 drops;
	time_t t;		/* names the folder */
	u32 kdev, shown;	/* streams: its records' device, shown as */
	struct nfile f[CAP_CPUS];
};
struct nhost {
	u8 ip[16];		/* IPv6, IPv4 mapped into it */
	int used, conns, opens;
	char addr[46];
	s64 shift;		/* streams: added to its times; 0: not yet known */
};
struct nconn {
	int fd, host;
	u32 ncpu;		/* the first header's max_cpus */
	time_t t;
	u32 got, left, len;	/* header bytes in; data bytes to come, of len */
	int dev, swapped;
	u32 cpu;
	u8 h[NET_HDR];
	u32 carry;		/* streams: bytes of a record cut between messages */
	u8 cut[NET_CARRY];
};
static struct ndev dev[NET_DEVS];
static struct nhost host[NET_HOSTS];
static struct nconn conn[NET_CONNS];
static struct pollfd pfd[NET_CONNS + 1];
static u32 opened;

/* ---- a device's files ---- */

/* Follow the records written so far from the last whole one: its header
 * gives its length.  The header is read from the k bytes just written
 * (at p) or, when it came in pieces, back from the file.  -1: these are
 * not blktrace records. */
static int follow(struct nfile *f, const u8 *p, u32 k)
{
	while (f->bytes - f->good >= REC_V7_LEN) {
		u8 h[REC_V8_LEN];
		u32 n = f->bytes - f->good < REC_V8_LEN ? (u32)(f->bytes - f->good) : REC_V8_LEN;
		u64 at = f->bytes - k;	/* the file offset of p[0] */
		const u8 *q = p + (f->good - at);
		struct rec r;
		int l;

		if (f->good < at) {
			if (pread(f->fd, h, n, (off_t)f->good) != (ssize_t)n)
				return -1;
			q = h;
		}
		l = rec_decode(q, n, &r);
		if (l == DEC_MORE && n >= r.hdr_len)
			l = r.hdr_len + r.pdu_len;
		if (l < 0)
			return -1;
		if (l == DEC_MORE || f->good + (u32)l > f->bytes)
			return 0;
		f->good += (u32)l;
	}
	return 0;
}

/* A device's folder, DIR/ADDR-YYYY-MM-DD-HH:MM:SS, into path; its length */
static int folder(const struct ndev *d, char *path)
{
	struct tm tm;
	int n;

	utc_tm(d->t, &tm);
	n = sfmt(path, PATH_LEN, "%s%s%s-%04d-%02d-%02d-", C.cfg.dir ? C.cfg.dir : "", C.cfg.dir ? "/" : "",
		 host[d->host].addr, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
	n = (int)(fmt_hms(path + n, &tm) - path);
	path[n] = 0;
	return n;
}

/* A new device's folder and files (blktrace's: one a CPU, written or not); -1: said */
static int dev_files(struct ndev *d)
{
	char path[PATH_LEN];
	struct stat st;
	int n = folder(d, path);
	u32 c;

	/* the folder: ours, never a link someone planted at its name */
	if ((mkdir(path, 0755) && errno != EEXIST) || lstat(path, &st) || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid()) {
		net_say(2, "server: %s: not a folder of ours%s\n", path, "");
		return -1;
	}
	for (c = 0; c < d->ncpu; c++) {
		sfmt(path + n, sizeof(path) - (size_t)n, "/%s.blktrace.%u%s", d->name, c, C.cfg.zlevel ? ".zst" : "");
		if ((d->f[c].fd = C.cfg.zlevel ? zout_open(path, cap_create) : cap_create(path)) < 0)
			return -1;
	}
	return 0;
}

TEXT(netsrv_cut_short_removed, "server: %s: %s of a record cut short removed\n")
/* Close a device's files, each ending on a whole record. */
static void dev_close(struct ndev *d)
{
	u32 c;

	for (c = 0; c < d->ncpu; c++) {
		struct nfile *f = &d->f[c];
		char what[80];

		if (f->fd < 0)
			continue;
		if (C.cfg.zlevel) {	/* whole records only went in (the carry) */
			zout_close(f->fd);
			f->fd = -1;
			continue;
		}
		if (f->good < f->bytes) {
			sfmt(what, sizeof(what), "%s.blktrace.%u: %llu bytes", d->name, c,
			     (unsigned long long)(f->bytes - f->good));
			net_say(2, TX(netsrv_cut_short_removed), host[d->host].addr, what);
			if (ftruncate(f->fd, (off_t)f->good) < 0)
				err_sys(d->name);
		}
		close(f->fd);
		f->fd = -1;
	}
}

/* ---- hosts ---- */

/* The end of a host's run: blktrace's summary for each of its devices. */
static void host_end(int h)
{
	u64 all = 0, lost = 0;
	u64 bytes[CAP_CPUS];
	u32 i, c;
	int out = C.cfg.sink ? 2 : 1;	/* stdout is the sink's */

	for (;;) {		/* in the order opened: slots freed by others are reused */
		struct ndev *d = NULL;
		u32 lo = ~0u;

		for (i = 0; i < NET_DEVS; i++)
			if (dev[i].host == h && dev[i].seq < lo)
				d = &dev[i], lo = d->seq;
		if (!d)
			break;
		dev_close(d);
		for (c = 0; c < d->ncpu; c++)
			bytes[c] = d->f[c].z ? d->f[c].raw : d->f[c].bytes;
		net_say(out, "server: end of run for %s:%s\n", host[h].addr, d->name);
		all += cap_sum_dev(out, d->name, bytes, NULL, d->ncpu, d->drops);
		lost += d->drops;
		d->host = -1;
	}
	cap_sum_drops(all, lost);
	for (i = 0; i < NET_CONNS; i++)
		if (conn[i].fd >= 0 && conn[i].host == h) {
			close(conn[i].fd);
			conn[i].fd = -1;
		}
	host[h].used = 0;
}

TEXT(netsrv_cut_short_dropped, "server: %s: %s of a record cut short dropped\n")
/* Streams: the start of a record whose rest never came, let go. */
static void uncarry(struct nconn *nc)
{
	char what[64];

	if (!nc->carry)
		return;
	sfmt(what, sizeof(what), "%u bytes", nc->carry);
	net_say(2, TX(netsrv_cut_short_dropped), host[nc->host].addr, what);
	nc->carry = 0;
}

TEXT(netsrv_gone_before_closing, "server: %s: gone before closing what it opened; its files "
	"end here\n")
static void conn_drop(struct nconn *nc, const char *why)
{
	struct nhost *h = &host[nc->host];

	uncarry(nc);
	if (why)
		net_say(2, "server: %s: %s; connection dropped\n", h->addr, why);
	close(nc->fd);
	nc->fd = -1;
	if (!--h->conns) {
		if (h->opens)
			net_say(2, TX(netsrv_gone_before_closing), h->addr, "");
		host_end(nc->host);
	}
}

/* ---- messages ---- */

static u32 hdr_u32(const struct nconn *nc, int i)
{
	return ne32_load(nc->h + 36 + 4 * i, nc->swapped);
}

TEXT(netsrv_not_a_plain_name, "a device name that is not a plain file name")
TEXT(netsrv_more_devices, "more devices than this server takes (NET_DEVS)")
/* The device a header names, made on first sight; NULL: said why. */
static struct ndev *dev_of(struct nconn *nc, const char **why)
{
	const char *name = (const char *)nc->h + 4;
	struct ndev *d, *fr = NULL;
	time_t t = nc->t;
	u32 i;

	/* a file name inside our folder: printable, no '/', not "." or ".." */
	for (i = 0; i < 32 && name[i] > ' ' && name[i] < 127 && name[i] != '/'; i++)
		;
	if (i == 32 || name[i] || !i || !strcmp(name, ".") || !strcmp(name, "..")) {
		*why = TX(netsrv_not_a_plain_name);
		return NULL;
	}
	for (i = 0; i < NET_DEVS; i++) {
		d = &dev[i];
		if (d->host == nc->host && !strcmp(d->name, name))
			return d;
		if (d->host == nc->host && d->cl_id == hdr_u32(nc, 3))
			t = d->t;	/* the same client run: the same folder */
		if (d->host < 0 && !fr)
			fr = d;
	}
	if (!fr) {
		*why = TX(netsrv_more_devices);
		return NULL;
	}
	memset(fr, 0, sizeof(*fr));
	memcpy(fr->name, name, 32);
	fr->host = nc->host, fr->ncpu = nc->ncpu, fr->cl_id = hdr_u32(nc, 3), fr->t = t;
	fr->seq = ++opened;
	for (i = 0; i < CAP_CPUS; i++)
		fr->f[i].fd = -1;
	if (!C.cfg.sink && dev_files(fr)) {
		dev_close(fr);
		fr->host = -1;
		*why = "its files cannot be made";
		return NULL;
	}
	return fr;
}

TEXT(netsrv_cpu_count_beyond, "a CPU count beyond this server's (CAP_CPUS)")
/* A whole header: act on it.  NULL: go on; else why to drop. */
static const char *header(struct nconn *nc)
{
	u32 m = ne32_load(nc->h, 0), cpu, max, len;
	struct ndev *d;
	const char *why = NULL;

	nc->swapped = (m & 0xffffff00u) != TRACE_MAGIC;
	if (nc->swapped && (be32_load(nc->h) & 0xffffff00u) != TRACE_MAGIC)
		return "not a blktrace header (bad magic)";
	cpu = hdr_u32(nc, 0), max = hdr_u32(nc, 1), len = hdr_u32(nc, 2);
	if (!nc->ncpu)
		nc->ncpu = max;
	if (!nc->ncpu || nc->ncpu > CAP_CPUS)
		return TX(netsrv_cpu_count_beyond);
	if ((len != 1 && cpu >= nc->ncpu) || len > NET_MSG_MAX)
		return "a CPU or length that cannot be";
	if (!(d = dev_of(nc, &why)))
		return why;
	if (nc->dev != (int)(d - dev) || nc->cpu != cpu)
		uncarry(nc);	/* another stream's message: the cut one ends */
	nc->dev = (int)(d - dev), nc->cpu = cpu, nc->got = 0;
	if (len > 2 && cpu >= d->ncpu)
		return "a CPU that cannot be";
	if (len > 2) {
		nc->left = nc->len = len;
		return NULL;
	}
	if (len == 2)
		return "an answer where a request belongs";
	if (len == 1)
		d->drops = cpu;	/* a close carries the drops */
	host[nc->host].opens += len ? -1 : 1;
	/* the answer: a header of ours, len 2 (blktrace's client waits for it) */
	net_hdr(nc->h, d->name, 0, 2);
	if (write(nc->fd, nc->h, NET_HDR) != NET_HDR)
		return "the answer could not be sent";
	if (len && !host[nc->host].opens)
		host_end(nc->host);
	return NULL;
}

/* ---- streams ---- */

/* The number a device's records show: the one it showed before from this
 * machine; else its own, unless a device of another machine has shown
 * that (in this server's life), then the next free one 4096 minors on.
 * Past NET_DEVS such pairs a device keeps its own number. */
static struct { u8 ip[16]; u32 kdev, shown; } seen[NET_DEVS];
static u32 nseen;

static u32 shown_as(struct ndev *d, u32 kdev)
{
	const u8 *ip = host[d->host].ip;
	u32 i, v = kdev;

	d->kdev = kdev;
	for (i = 0; i < nseen; i++)
		if (seen[i].kdev == kdev && !memcmp(seen[i].ip, ip, 16))
			return d->shown = seen[i].shown;
	for (i = 0; i < nseen; i++)
		if (seen[i].shown == v) {
			v += 1u << 12;
			i = ~0u;	/* again from the start */
		}
	if (nseen == NET_DEVS)
		v = kdev;
	else {
		memcpy(seen[nseen].ip, ip, 16);
		seen[nseen].kdev = kdev;
		seen[nseen++].shown = v;
	}
	if (v != kdev) {
		char what[96];

		sfmt(what, sizeof(what), "%s (%u,%u) shown as %u,%u", d->name, kdev >> 20, kdev & 0xfffff,
		     v >> 20, v & 0xfffff);
		net_say(2, "server: %s: %s\n", host[d->host].addr, what);
	}
	return d->shown = v;
}

static struct src stage;	/* the round's records, in the second half of C.buf */

static void to_sink(void *ctx, const struct rec *r)
{
	(void)ctx;
	if (C.cfg.sink(C.cfg.ctx, r->pdu - r->hdr_len, r->hdr_len + (size_t)r->pdu_len))
		cap_fail();
}

static void stage_flush(void)
{
	runs_merge(&stage, to_sink, NULL);
}

TEXT(netsrv_record_longer, "a record longer than this server takes (NET_CARRY)")
/* The whole records of the n bytes at p to the sink, as they came but
 * for their time and device (rewritten in place, in their own order and
 * version); the rest, a record cut short, waits in the connection's
 * carry.  NULL, or why to drop. */
static const char *stream(struct nconn *nc, u8 *p, u32 n)
{
	struct ndev *d = &dev[nc->dev];
	struct nhost *h = &host[nc->host];
	u8 *whole = p;
	struct rec r;
	int l;

	for (; n >= REC_V7_LEN; p += l, n -= (u32)l) {
		if (rec_unfilled(p)) {	/* relay space never written: the reader skips it */
			l = REC_V7_LEN;
			continue;
		}
		if ((l = rec_decode(p, n, &r)) == DEC_MORE)
			break;
		if (l < 0)
			return "data that are not blktrace records";
		if (!C.cfg.sink)	/* -z's files: the records as they came */
			continue;
		if (!h->shift) {
			struct timespec t;

			clock_now(CLOCK_MONOTONIC, &t);
			h->shift = (s64)t.tv_sec * 1000000000 + t.tv_nsec - (s64)r.time;
		}
		ne_store(p + 8, r.time + (u64)h->shift, 8, r.swapped);
		ne_store(p + (r.version == 8 ? 40 : 36), r.dev == d->kdev ? d->shown : shown_as(d, r.dev), 4, r.swapped);
	}
	if (!C.cfg.sink) {
		if (zout_write(dev[nc->dev].f[nc->cpu].fd, whole, (size_t)(p - whole)))
			return "its file cannot be written";
	} else
		src_feed(&stage, whole, (size_t)(p - whole), stage_flush);	/* fits in an empty stage */
	if (n > sizeof(nc->cut))
		return TX(netsrv_record_longer);
	memmove(nc->cut, p, n);
	nc->carry = n;
	return NULL;
}

/* A stream that begins with zstd's magic: a client's -z frames, stored
 * as they come in NAME.blktrace.CPU.zst (the file is renamed).  1: not. */
static int zfile(struct nconn *nc)
{
	struct ndev *d = &dev[nc->dev];
	char a[PATH_LEN], b[PATH_LEN];
	int n = folder(d, a);

	sfmt(a + n, sizeof(a) - (size_t)n, "/%s.blktrace.%u", d->name, nc->cpu);
	sfmt(b, sizeof(b), "%s.zst", a);
	d->f[nc->cpu].z = 1;
	return rename(a, b) != 0;
}

TEXT(netsrv_zstd_frames, "zstd frames (its -z), which only trace -l without -z takes")
/* Data: as much as has come, straight to its file (or to the sink). */
static const char *data(struct nconn *nc, ssize_t k)
{
	struct nfile *f = &dev[nc->dev].f[nc->cpu];
	const u8 *p = C.buf + NET_CARRY;
	u32 n = (u32)k;

	if (!f->bytes && zsrc_is(p, n) && (C.cfg.sink || C.cfg.zlevel || zfile(nc)))
		return C.cfg.sink || C.cfg.zlevel ? TX(netsrv_zstd_frames) : "its file cannot be renamed";
	if (f->z && nc->left == nc->len)	/* a frame's start: its content size */
		f->pend = zframe_size(p, n);
	nc->left -= n;
	f->bytes += n;
	if (C.cfg.sink || C.cfg.zlevel) {	/* whole records only, the rest carried */
		memcpy(C.buf + NET_CARRY - nc->carry, nc->cut, nc->carry);
		return stream(nc, C.buf + NET_CARRY - nc->carry, n + nc->carry);
	}
	while (k > 0) {
		ssize_t w = write(f->fd, p, (size_t)k);

		if (w <= 0 && errno != EINTR)
			return "its file cannot be written";
		if (w > 0)
			p += w, k -= w;
	}
	if (f->z && !nc->left)	/* a whole frame */
		f->good = f->bytes, f->raw += f->pend;
	if (f->z)
		return NULL;
	return follow(f, C.buf + NET_CARRY, n) ? "data that are not blktrace records" : NULL;
}

/* Whatever came on a connection; 0, or it was dropped. */
static void readable(struct nconn *nc)
{
	const char *why = NULL;
	ssize_t k;

	if (nc->left)
		k = read(nc->fd, C.buf + NET_CARRY, nc->left < NET_READ ? nc->left : NET_READ);
	else
		k = read(nc->fd, nc->h + nc->got, NET_HDR - nc->got);
	if (k < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (k <= 0) {
		conn_drop(nc, k ? strerror(errno) : nc->got || nc->left ? "gone inside a message" : NULL);
		return;
	}
	if (nc->left)
		why = data(nc, k);
	else if ((nc->got += (u32)k) == NET_HDR)
		why = header(nc);
	if (why)
		conn_drop(nc, why);
}

/* ---- the server ---- */

static void accept_one(int lfd)
{
	union naddr a;
	socklen_t al = sizeof(a);
	int fd = (int)syscall(SYS_accept4, lfd, &a, &al, SOCK_NONBLOCK | SOCK_CLOEXEC);
	int i, h = -1, fr = -1;
	u8 ip[16] = { [10] = 0xff, [11] = 0xff };	/* IPv4 as IPv6 maps it */
	char addr[46];

	if (fd < 0)
		return;
	if (a.sa.sa_family == AF_INET6)
		memcpy(ip, &a.v6.sin6_addr, 16);
	else
		memcpy(ip + 12, &a.v4.sin_addr, 4);
	addr_text(ip, 16, addr, sizeof(addr));
	for (i = NET_HOSTS - 1; i >= 0; i--)
		if (host[i].used && !memcmp(host[i].ip, ip, 16))
			h = i;
		else if (!host[i].used)
			fr = i;
	for (i = 0; i < NET_CONNS && conn[i].fd >= 0; i++)
		;
	if (i == NET_CONNS || (h < 0 && fr < 0)) {
		net_say(2, "server: %s refused: %s\n", addr, i == NET_CONNS ? "all connections taken (NET_CONNS)"
									 : "all client slots taken (NET_HOSTS)");
		close(fd);
		return;
	}
	if (h < 0) {
		h = fr;
		host[h].used = 1, host[h].opens = host[h].conns = 0;
		memcpy(host[h].ip, ip, 16);
		memcpy(host[h].addr, addr, sizeof(addr));
		net_say(C.cfg.sink ? 2 : 1, "server: connection from %s\n", addr, "");
	}
	host[h].conns++;
	memset(&conn[i], 0, sizeof(conn[i]));
	conn[i].fd = fd, conn[i].host = h, conn[i].t = wall_sec();
}

/* IPv6 and IPv4 on one socket; IPv4 alone on a kernel without IPv6 */
static int listener(void)
{
	union naddr a;
	const u8 any[16] = { 0 };
	int one = 1, zero = 0, fd = net_socket(&a, any, 16, C.cfg.port, SOCK_STREAM);

	if (fd < 0)
		fd = net_socket(&a, any, 4, C.cfg.port, SOCK_STREAM);
	else
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, &a.sa, sizeof(a)) || listen(fd, 64)) {
		err_sys("server");
		return -1;
	}
	return fd;
}

int net_serve(void)
{
	int lfd = listener(), i;

	if (lfd < 0)
		return 1;
	if (C.cfg.oname)
		net_say(2, "-o ignored in server mode\n", "", "");
	if (C.cfg.dir && !C.cfg.sink && mkdir(C.cfg.dir, 0755) && errno != EEXIST) {
		net_say(2, "Destination dir %s can't be made: %s\n", C.cfg.dir, strerror(errno));
		return 1;
	}
	for (i = 0; i < NET_CONNS; i++)
		conn[i].fd = -1;
	src_init_push(&stage, C.buf + CAP_BUF / 2, CAP_BUF / 2);
	for (i = 0; i < NET_DEVS; i++)
		dev[i].host = -1;
	net_say(C.cfg.sink ? 2 : 1, "server: waiting for connections...\n", "", "");
	while (!cap_stopping()) {
		int n = 1;

		pfd[0] = (struct pollfd){ lfd, POLLIN, 0 };
		for (i = 0; i < NET_CONNS; i++)	/* to the last connection: poll refuses entries past the fd limit */
			if ((pfd[i + 1] = (struct pollfd){ conn[i].fd, POLLIN, 0 }).fd >= 0)
				n = i + 2;
		if (poll(pfd, (nfds_t)n, CAP_POLL_MS) > 0) {
			for (i = 0; i + 1 < n; i++)
				if (conn[i].fd >= 0 && pfd[i + 1].revents)
					readable(&conn[i]);
			if (pfd[0].revents & POLLIN)
				accept_one(lfd);
		}
		stage_flush();
		cap_round();	/* a stream's reader: live intervals, its batch */
	}
	/* interrupted: every host's files closed whole, its summary printed */
	for (i = 0; i < NET_HOSTS; i++)
		if (host[i].used)
			host_end(i);
	stage_flush();
	close(lfd);
	return 0;
}
