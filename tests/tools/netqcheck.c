/* netqcheck A B: the network client's per-CPU queues (capture/net.c,
 * issue 33) against two socketpairs, one per CPU, each CPU fed its file's
 * records in relay-sized pieces as the capture loop would (only while
 * net_room says it may be read).  CPU 0's server stops reading while CPU
 * 1's reads: CPU 1 must be fed to its end meanwhile and CPU 0 must stop
 * being readable, not drop; then both read, and each socket must carry
 * the file byte for byte in messages with blktrace's headers, one close,
 * 0 drops.  With a third argument CPU 0's server never reads again: the
 * connection is given up after NET_WAIT_MS and its records counted as
 * dropped.  Exit 0 when all of that holds.  Built from iomon's own
 * objects (make tests/tools/netqcheck). */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "capture/backend.h"

static u8 src[2][1 << 20], got[2][4 << 20], cat[1 << 20];
static u32 slen[2], glen[2], fed[2];

static u32 reclen(const u8 *p) { return 48 + (p[46] | p[47] << 8); }	/* v7, little-endian */

static void feed(int c)	/* whole records, about 20 KiB, if CPU c may be read */
{
	u32 o = fed[c];

	if (!net_room((u32)c))
		return;
	while (o < slen[c] && o - fed[c] < 20000)
		o += reclen(src[c] + o);
	if (o > fed[c])
		net_put(&C.dev[0], (u32)c, src[c] + fed[c], o - fed[c]);
	fed[c] = o;
}

static void rd(int fd, int c)
{
	ssize_t k;

	while ((k = read(fd, got[c] + glen[c], sizeof(got[c]) - glen[c])) > 0)
		glen[c] += (u32)k;
}

/* CPU c's stream: messages of its records, then one close of 0 drops */
static int stream_ok(int c)
{
	u32 o = 0, n = 0, msgs = 0, closes = 0, v[7], magic;
	int ok = 1;

	while (ok && o + 64 <= glen[c]) {
		memcpy(v, got[c] + o + 36, sizeof(v));
		memcpy(&magic, got[c] + o, 4);
		ok = magic == TRACE_MAGIC && !memcmp(got[c] + o + 4, "nullb0", 7) && v[1] == 2;
		if (v[2] == 1) {
			closes++, ok &= v[0] == 0, o += 64;
			continue;
		}
		ok &= v[0] == (u32)c && o + 64 + v[2] <= glen[c];
		if (ok)
			memcpy(cat + n, got[c] + o + 64, v[2]), n += v[2], o += 64 + v[2], msgs++;
	}
	ok &= o == glen[c] && closes == 1 && n == slen[c] && !memcmp(cat, src[c], n);
	printf("CPU %d: %u messages, %u of %u bytes, %u close: %s\n", c, msgs, n, slen[c], closes,
	       ok ? "the file, byte for byte" : "DIFFERS");
	return ok;
}

int main(int argc, char **argv)
{
	int sv[2][2], c, stall = argc > 3, blocked = 0, ok;
	struct pollfd pf[CAP_CPUS];

	C.ncpu = 2, C.ndev = 1, C.cfg.host = "netqcheck", C.cfg.buf_size = 512 * 1024, C.cfg.buf_nr = 4;
	strcpy(C.dev[0].name, "nullb0");
	for (c = 0; c < 2; c++) {
		FILE *f = fopen(argv[1 + c], "rb");
		int sz = 8192;

		if (!f)
			return 2;
		slen[c] = (u32)fread(src[c], 1, sizeof(src[c]), f);
		fclose(f);
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv[c]))
			return 2;
		setsockopt(sv[c][0], SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
		fcntl(sv[c][0], F_SETFL, O_NONBLOCK);
		fcntl(sv[c][1], F_SETFL, O_NONBLOCK);
		C.dev[0].out[c] = sv[c][0];
	}
	/* CPU 0's server reads nothing: CPU 1 goes on to its end */
	while ((fed[1] < slen[1] || !blocked) && fed[0] < slen[0]) {
		blocked |= !net_room(0);
		feed(0), feed(1), rd(sv[1][1], 1), net_round();
	}
	ok = blocked && fed[1] == slen[1] && fed[0] < slen[0];
	printf("CPU 0 unread: it stopped being read after %u of %u bytes; CPU 1 fed %u of %u meanwhile: %s\n",
	       fed[0], slen[0], fed[1], slen[1], ok ? "ok" : "FAIL");
	while (fed[0] < slen[0]) {
		feed(0);
		if (!stall)
			rd(sv[0][1], 0);
		rd(sv[1][1], 1), net_round();
	}
	if (stall) {	/* never read again: given up, every record it did not get counted */
		u32 recs = 0, o, l;

		if (write(sv[1][1], cat, 64) != 64)
			return 2;
		net_close();
		rd(sv[0][1], 0);
		for (o = 0; o < slen[0]; o += reclen(src[0] + o))
			recs++;
		for (o = 0; o + 64 <= glen[0] && (memcpy(&l, got[0] + o + 44, 4), o + 64 + l <= glen[0]); o += 64 + l)
			for (c = 0; (u32)c < l; c += (int)reclen(got[0] + o + 64 + c))
				recs--;
		printf("CPU 0 never read: %llu records counted as dropped, %u it did not get whole\n",
		       (unsigned long long)C.dev[0].dropped, recs);
		return ok && C.dev[0].dropped == recs ? 0 : 1;
	}
	while (net_pollout(pf))	/* what the queues hold, as the sockets take it */
		rd(sv[0][1], 0), rd(sv[1][1], 1), net_round();
	for (c = 0; c < 2; c++)	/* the server's answers to the closes, ahead */
		if (write(sv[c][1], cat, 64) != 64)
			return 2;
	net_close();
	printf("dropped: %llu\n", (unsigned long long)C.dev[0].dropped);
	for (c = 0; c < 2; c++)
		rd(sv[c][1], c), ok &= stream_ok(c);
	return ok && !C.dev[0].dropped ? 0 : 1;
}
