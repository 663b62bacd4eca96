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
 * The client never waits for the server while the kernel traces: a
 * message the socket cannot take at once is dropped and counted, one the
 * server stalls for NET_WAIT_MS ends that connection. */
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

/* n bytes (a header and what follows it) on a non-blocking socket:
 * 0 sent, 1 not begun (soon: the socket had no room for NET_ROOM_MS), -1
 * the connection failed (errno). */
static int send_msg(int fd, const u8 *p, u32 n, int soon)
{
	u64 end = soon ? mono_ms() + NET_ROOM_MS : 0;

	while (n) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EAGAIN) {
			if (net_wait(fd, POLLOUT, &end))
				return soon ? 1 : -1;
			continue;
		}
		if (k < 0 && errno != EINTR)
			return -1;
		if (k > 0 && soon)	/* begun: the rest may take NET_WAIT_MS */
			end = mono_ms() + NET_WAIT_MS, soon = 0;
		if (k > 0)
			p += k, n -= (u32)k;
	}
	return 0;
}

/* Open or close (len 0, 1) and the server's answer; -1: failed (errno). */
static int ask(int fd, const char *name, u32 cpu, u32 len)
{
	u8 h[NET_HDR];
	u32 got = 0;
	u64 end = 0;

	net_hdr(h, name, cpu, len);
	if (send_msg(fd, h, NET_HDR, 0))
		return -1;
	while (got < NET_HDR) {
		ssize_t k;

		if (net_wait(fd, POLLIN, &end))
			return -1;
		k = read(fd, h + got, NET_HDR - got);
		if (k == 0)
			errno = ECONNRESET;
		if (k <= 0 && errno != EINTR && errno != EAGAIN)
			return -1;
		got += k > 0 ? (u32)k : 0;
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

static void lost(u32 i, u32 cpu, const char *why)
{
	int *fd = conn(i, cpu);

	warn_msg("%s: connection for %s CPU %u lost (%s); its records are counted as dropped",
		 C.cfg.host, C.dev[i].name, cpu, why);
	close(*fd);
	*fd = -2;
}

/* One message: its header, then its records (with -z one zstd frame of
 * them).  The records are dropped (and counted) when the socket cannot
 * take the header at once; once the header is in, the rest may wait
 * NET_WAIT_MS. */
static void send1(u32 i, u32 cpu, const u8 *p, u32 n)
{
	int *fd = conn(i, cpu), rc = -2;
	const u8 *b = p;
	u32 k = C.cfg.zlevel ? zout_frame(p, n, &b) : n;
	u8 h[NET_HDR];

	if (*fd >= 0 && k) {
		net_hdr(h, C.dev[i].name, cpu, k);
		rc = send_msg(*fd, h, NET_HDR, 1);
		if (!rc)
			rc = send_msg(*fd, b, k, 0);
		if (rc < 0)
			lost(i, cpu, strerror(errno));
	}
	if (rc)
		net_lost[i] += count_records(p, n);
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

void net_round(void)
{
	u32 i;

	for (i = 0; i < C.ndev; i++)
		flush(i);
}

/* fmt with two strings, on fd, unbuffered (as blktrace's lines come) */
void net_say(int fd, const char *fmt, const char *a, const char *b)
{
	char line[200];
	int n = sfmt(line, sizeof(line), fmt, a, b);

	if (write(fd, line, (size_t)n) < 0)
		return;
}

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
		warn_msg("Connection to %s refused, perhaps the server is not started?", C.cfg.host);
	else
		err_sys(C.cfg.host);
	close(fd);
	return -1;
}

/* Every connection, and every device opened on each, before tracing. */
int net_connect(void)
{
	u8 ip[16];
	int len = addr_lookup(C.cfg.host, ip);
	u32 i, c;

	if (!len) {
		warn_msg("%s: no such host (not a number, not in /etc/hosts, not in DNS)", C.cfg.host);
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
			if (ask(*fd, C.dev[i].name, c, 0)) {
				err_sys(C.cfg.host);
				return -1;
			}
		}
	net_say(1, "blktrace: connected!\n", "", "");
	return 0;
}

/* After the trace: what is staged, then each device's close with its
 * drops (the kernel's and ours), answered, on every connection. */
void net_close(void)
{
	u32 i, c;

	net_round();
	for (i = 0; i < C.ndev; i++) {
		C.dev[i].dropped += net_lost[i];
		for (c = 0; c < C.ncpu; c++) {
			int *fd = conn(i, c);

			if (*fd >= 0 && ask(*fd, C.dev[i].name, (u32)C.dev[i].dropped, 1))
				lost(i, c, strerror(errno));
		}
	}
	for (i = 0; i < C.ndev; i++)
		for (c = 0; c < C.ncpu; c++)
			if (*conn(i, c) >= 0 && (!C.cfg.one_conn || !i))
				close(*conn(i, c));
}
