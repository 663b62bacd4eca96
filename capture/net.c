/* capture/net.c: capture: blktrace's network protocol: the client's connections, staging, non-blocking sends, drops */
/* blktrace 1.2.0 talks TCP.  Every message starts with a 64-byte header in
 * the sender's byte order: u32 magic, char name[32], u32 cpu, max_cpus,
 * len, cl_id, buf_size, buf_nr, page_size.  len 0 opens a device on a CPU,
 * len 1 closes it (cpu then carries the drop count); both are answered
 * with a header whose len is 2.  Any other len is that many bytes of the
 * CPU's records.  The server counts opens per client address and ends the
 * run when as many closes came, so every open is sent before tracing
 * starts and every close after it ends.
 *
 * The client never waits for the server while the kernel traces: each
 * CPU's messages queue (NET_QUEUE) and go out as its sockets take them,
 * from the capture loop's poll; a CPU whose queue has no room for a read
 * is not read, so its records wait in the kernel's buffers (which drop only when
 * full, as behind blktrace's blocking send on that CPU's thread) while the
 * other CPUs are read on.  A connection that takes nothing for
 * NET_WAIT_MS is given up, its records counted as dropped. */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <unistd.h>
#include "capture/backend.h"

static u8 stage[CAP_DEVS][NET_STAGE];
static u32 staged[CAP_DEVS], stage_cpu[CAP_DEVS];
static u64 net_lost[CAP_DEVS];
/* a CPU's messages, each { device, records or ~0: count them, length }
 * then its header and bytes; h..t waiting, off of h's sent; end: when a
 * socket that took nothing is given up */
static struct netq {
	u32 h, t, off;
	u64 end;
	u8 b[NET_QUEUE];
} nq[CAP_CPUS];

void net_hdr(u8 *h, const char *name, u32 cpu, u32 len)
{
	u32 v[8] = { TRACE_MAGIC, 0, 0, 0, 0, 0, 0, 0 };

	size_t l = strlen(name);

	memset(h, 0, NET_HDR);
	memcpy(h, v, 4);
	memcpy(h + 4, name, l < 31 ? l : 31);
	v[0] = cpu, v[1] = C.ncpu, v[2] = len, v[3] = (u32)getpid();
	v[4] = C.cfg.buf_size, v[5] = C.cfg.buf_nr, v[6] = (u32)getpagesize();
	memcpy(h + 36, v, 28);
}

/* Wait up to NET_WAIT_MS (from the first call for *end) for fd to be
 * ready for ev; 0: ready. */
static int net_wait(int fd, short ev, u64 *end)
{
	struct pollfd p = { fd, ev, 0 };
	u64 t = mono_ms();

	if (!*end)
		*end = t + NET_WAIT_MS;
	if (t >= *end || poll(&p, 1, (int)(*end - t)) == 0) {
		errno = ETIMEDOUT;
		return -1;
	}
	return 0;
}

static u64 count_records(const u8 *p, u32 n)
{
	struct rec r;
	u64 k = 0;
	int l;

	while ((l = rec_decode(p, n, &r)) > 0)
		p += l, n -= (u32)l, k++;
	return k;
}

/* The connection of device i on cpu: its own, or with -s CPU's shared one. */
static int *conn(u32 i, u32 cpu)
{
	return &C.dev[C.cfg.one_conn ? 0 : i].out[cpu];
}

TEXT(net_connection_for_cpu, "%s: connection for %s CPU %u lost (%s); its records are counted "
	"as dropped")
static void lost(u32 i, u32 cpu, const char *why)
{
	int *fd = conn(i, cpu);

	warn_text(U_net_connection_for_cpu,
		 C.cfg.host, C.dev[i].name, cpu, why);
	close(*fd);
	*fd = -2;
}

/* Send what CPU c's queue holds as far as its sockets take it, waiting
 * only until it has room for need bytes (NET_QUEUE: all sent).  A message
 * a lost connection cannot take is counted as dropped. */
static void qpump(u32 c, u32 need)
{
	struct netq *q = &nq[c];

	while (q->h < q->t) {
		u8 *e = q->b + q->h;
		u32 m[3];
		int *fd;
		ssize_t k;

		memcpy(m, e, sizeof(m));
		fd = conn(m[0], c);
		k = *fd >= 0 ? write(*fd, e + 12 + q->off, m[2] - q->off) : 0;
		if (k > 0) {
			q->off += (u32)k, q->end = 0;
			if (q->off < m[2])
				continue;
		} else if (*fd >= 0 && errno == EINTR) {
			continue;
		} else if (*fd >= 0 && errno == EAGAIN) {
			if (!q->end)
				q->end = mono_ms() + NET_WAIT_MS;
			if (NET_QUEUE - q->t + q->h >= need && mono_ms() < q->end)
				return;	/* room enough: the capture loop's poll comes back */
			if (!net_wait(*fd, POLLOUT, &q->end))
				continue;
			lost(m[0], c, strerror(errno));
		} else if (*fd >= 0) {
			lost(m[0], c, strerror(errno));
		}
		if (q->off < m[2])
			net_lost[m[0]] += m[1] != ~0u ? m[1] : count_records(e + 12 + NET_HDR, m[2] - NET_HDR);
		q->h += 12 + m[2], q->off = 0, q->end = 0;
	}
	q->h = q->t = 0;
}

/* a relay read: CAP_BUF / 2 and the rest of a record it cut (relay.c) */
_Static_assert(NET_QUEUE >= CAP_BUF / 2 + NET_ROOM && NET_QUEUE >= CAP_BUF / 2 + REC_V8_LEN + 65535 + 12 + NET_HDR,
	       "NET_QUEUE: a relay read and its header");

/* A message of device i on CPU c, header h and n bytes at p (records, or
 * nrec records as a zstd frame), queued behind the CPU's others: room
 * made by sending, waited for if it must be. */
static void enq(u32 i, u32 c, const u8 *h, const u8 *p, u32 n, u32 nrec)
{
	struct netq *q = &nq[c];
	u32 m[3] = { i, nrec, NET_HDR + n };

	qpump(c, 12 + m[2]);
	if (q->t + 12 + m[2] > NET_QUEUE) {
		memmove(q->b, q->b + q->h, q->t - q->h);
		q->t -= q->h, q->h = 0;
	}
	memcpy(q->b + q->t, m, 12);
	memcpy(q->b + q->t + 12, h, NET_HDR);
	memcpy(q->b + q->t + 12 + NET_HDR, p, n);
	q->t += 12 + m[2];
	qpump(c, 0);
}

/* Whether CPU c may be read: its queue has room for a read (CAP_BUF / 2
 * and a record's rest, with their headers), once its sockets took what
 * they would.  Always, but with -h. */
int net_room(u32 c)
{
	qpump(c, 0);
	return NET_QUEUE - nq[c].t + nq[c].h >= CAP_BUF / 2 + NET_ROOM;
}

/* The sockets with messages waiting, to poll for POLLOUT: their number. */
u32 net_pollout(struct pollfd *p)
{
	u32 c, n = 0;

	for (c = 0; c < C.ncpu; c++)
		if (nq[c].h < nq[c].t) {
			u32 i;

			memcpy(&i, nq[c].b + nq[c].h, 4);
			p[n++] = (struct pollfd){ *conn(i, c), POLLOUT, 0 };
		}
	return n;
}

/* Open or close (len 0, 1; v the CPU or the drops) of device i on CPU
 * c, behind what c's queue holds, and the server's answer; -1: failed
 * (the connection lost and said, or errno). */
static int ask(u32 i, u32 c, u32 v, u32 len)
{
	int *fd = conn(i, c);
	u8 h[NET_HDR];
	u32 got = 0;
	u64 end = 0;

	net_hdr(h, C.dev[i].name, v, len);
	enq(i, c, h, h, 0, 0);
	qpump(c, NET_QUEUE);
	while (got < NET_HDR) {
		ssize_t k;

		if (*fd < 0 || net_wait(*fd, POLLIN, &end))
			return -1;
		k = read(*fd, h + got, NET_HDR - got);
		if (k == 0)
			errno = ECONNRESET;
		if (k <= 0 && errno != EINTR && errno != EAGAIN)
			return -1;
		got += k > 0 ? (u32)k : 0;
	}
	return 0;
}

/* One message: its header, then its records (with -z one zstd frame of
 * them), queued; on a lost connection the records are counted as dropped. */
static void send1(u32 i, u32 cpu, const u8 *p, u32 n)
{
	const u8 *b = p;
	u32 k = C.cfg.zlevel ? zout_frame(p, n, &b) : n;
	u8 h[NET_HDR];

	if (*conn(i, cpu) < 0 || !k) {
		net_lost[i] += count_records(p, n);
		return;
	}
	net_hdr(h, C.dev[i].name, cpu, k);
	enq(i, cpu, h, b, k, C.cfg.zlevel ? (u32)count_records(p, n) : ~0u);
}

/* -z: frames of whole records, ZSTD_CHUNK at most each, so a frame
 * dropped takes whole records with it and the rest still decode */
static void sendout(u32 i, u32 cpu, const u8 *p, u32 n)
{
	while (n) {
		struct rec r;
		u32 k = 0;
		int l;

		while (C.cfg.zlevel && n - k >= REC_V7_LEN &&
		       (l = rec_unfilled(p + k) ? REC_V7_LEN : rec_decode(p + k, n - k, &r)) > 0 && k + (u32)l <= ZSTD_CHUNK)
			k += (u32)l;
		if (!k)
			k = n < ZSTD_CHUNK || !C.cfg.zlevel ? n : ZSTD_CHUNK;
		send1(i, cpu, p, k);
		p += k, n -= k;
	}
}

static void flush(u32 i)
{
	u32 n = staged[i];

	staged[i] = 0;
	if (n)
		sendout(i, stage_cpu[i], stage[i], n);
}

/* Records of device d on cpu: a relay read (whole records, see relay.c's
 * pump) goes as one message; tracefs's record by record are staged. */
int net_put(struct tdev *d, u32 cpu, const void *p, size_t n)
{
	u32 i = (u32)(d - C.dev);

	d->bytes[cpu] += n;
	if (staged[i] && (stage_cpu[i] != cpu || staged[i] + n > NET_STAGE))
		flush(i);
	if (n > NET_STAGE / 2) {
		sendout(i, cpu, p, (u32)n);
		return 0;
	}
	stage_cpu[i] = cpu;
	memcpy(stage[i] + staged[i], p, n);
	staged[i] += (u32)n;
	return 0;
}

/* Each round: what is staged to its queue, and every queue to its sockets. */
void net_round(void)
{
	u32 i;

	for (i = 0; i < C.ndev; i++)
		flush(i);
	for (i = 0; i < C.ncpu; i++)
		qpump(i, 0);
}

/* fmt with two strings, on fd, unbuffered (as blktrace's lines come) */
void net_say(int fd, const char *fmt, const char *a, const char *b)
{
	char line[200];
	int n = sfmt(line, sizeof(line), fmt, a, b);

	if (write(fd, line, (size_t)n) < 0)
		return;
}

TEXT(net_connection_to_refused, "Connection to %s refused, perhaps the server is not started?")
/* A connected non-blocking socket: nothing waits unless it means to.
 * The second connect() says how the first one ended. */
static int dial(const u8 *ip, int len)
{
	union naddr a;
	int fd = net_socket(&a, ip, len, C.cfg.port, SOCK_STREAM);
	u64 end = 0;

	if (fd < 0)
		return fd;
	for (;;) {
		if (!connect(fd, &a.sa, sizeof(a)) || errno == EISCONN)
			return fd;
		if ((errno != EINPROGRESS && errno != EALREADY && errno != EINTR) || net_wait(fd, POLLOUT, &end))
			break;
	}
	if (errno == ECONNREFUSED)
		warn_text(U_net_connection_to_refused, C.cfg.host);
	else
		err_sys(C.cfg.host);
	close(fd);
	return -1;
}

TEXT(net_no_such_host, "%s: no such host (not a number, not in /etc/hosts, not in DNS)")
/* Every connection, and every device opened on each, before tracing. */
int net_connect(void)
{
	u8 ip[16];
	int len = addr_lookup(C.cfg.host, ip);
	u32 i, c;

	if (!len) {
		warn_text(U_net_no_such_host, C.cfg.host);
		return -1;
	}
	net_say(1, "blktrace: connecting to %s\n", C.cfg.host, "");
	for (c = 0; c < C.ncpu; c++)
		for (i = 0; i < C.ndev; i++) {
			int *fd = conn(i, c);

			if (!C.cfg.one_conn || !i)
				*fd = dial(ip, len);
			if (*fd < 0)
				return -1;
			if (ask(i, c, c, 0)) {
				if (*fd >= 0)
					err_sys(C.cfg.host);
				return -1;
			}
		}
	net_say(1, "blktrace: connected!\n", "", "");
	return 0;
}

/* A reader of CPU c alone (relay.c) at its end: what it staged and
 * queued sent, and what it lost, by device, into lost */
void net_cpu_end(u32 c, u64 *lost)
{
	net_round();
	qpump(c, NET_QUEUE);
	memcpy(lost, net_lost, sizeof(net_lost));
}

/* what a reader lost, by device, counted with ours */
void net_lost_add(const u64 *lost)
{
	u32 i;

	for (i = 0; i < C.ndev; i++)
		net_lost[i] += lost[i];
}

/* After the trace: what is staged and queued, then each device's close
 * with its drops (the kernel's and ours), answered, on every connection. */
void net_close(void)
{
	u32 i, c;

	net_round();
	for (c = 0; c < C.ncpu; c++)
		qpump(c, NET_QUEUE);
	for (i = 0; i < C.ndev; i++) {
		C.dev[i].dropped += net_lost[i];
		for (c = 0; c < C.ncpu; c++) {
			int *fd = conn(i, c);

			if (*fd >= 0 && ask(i, c, (u32)C.dev[i].dropped, 1) && *fd >= 0)
				lost(i, c, strerror(errno));
		}
	}
	for (i = 0; i < C.ndev; i++)
		for (c = 0; c < C.ncpu; c++)
			if (*conn(i, c) >= 0 && (!C.cfg.one_conn || !i))
				close(*conn(i, c));
}
