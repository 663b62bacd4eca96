/* capture/addr.c: capture: network addresses: IPv4 and IPv6 numbers, /etc/hosts, one DNS question, their text and sockets */
/* trace -h takes what blktrace -h takes (a dotted quad, or a name looked
 * up as gethostbyname does), and IPv6 besides, without musl's resolver
 * (getaddrinfo would be most of a small build).  A name is looked up as a plain resolver
 * configuration does it ("files dns"): /etc/hosts, then one question
 * over UDP to /etc/resolv.conf's first nameserver, A then AAAA, each
 * asked twice at most.  Addresses are kept as 16 bytes and a length: 4
 * for IPv4, 16 for IPv6. */
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "capture/backend.h"

/* One number of base b, its first character a digit of it, at most max
 * and k digits; *s moves past it.  1: taken. */
static int num(const char **s, int b, u64 max, int k, u32 *v)
{
	char *e;
	u64 x;

	if (!((**s >= '0' && **s <= '9') || (b == 16 && ((**s | 32) >= 'a' && (**s | 32) <= 'f'))))
		return 0;
	x = scan_u64(*s, &e, b);
	if (x > max || e - *s > k)
		return 0;
	*s = e, *v = (u32)x;
	return 1;
}

static int v4(const char *s, u8 *ip)
{
	u32 i, v;

	for (i = 0; i < 4; i++, s++) {
		if (!num(&s, 10, 255, 3, &v) || *s != (i < 3 ? '.' : 0))
			return 0;
		ip[i] = (u8)v;
	}
	return 4;
}

/* x:x:...:x with one :: at most (no dotted quad at the end) */
static int v6(const char *s, u8 *ip)
{
	u32 w[8], v;
	int n = 0, gap = -1, i;

	if (s[0] == ':' && s[1] == ':')
		gap = 0, s += 2;
	while (*s && n < 8) {
		if (!num(&s, 16, 0xffff, 4, &v))
			return 0;
		w[n++] = v;
		if (*s && *s++ != ':')
			return 0;
		if (*s == ':' && gap < 0)
			gap = n, s++;
		else if (!*s && s[-1] == ':')
			return 0;
	}
	if (*s || (gap < 0 ? n != 8 : n > 7))
		return 0;
	memset(ip, 0, 16);
	for (i = 0; i < n; i++) {
		int k = gap >= 0 && i >= gap ? i + 8 - n : i;

		ip[2 * k] = (u8)(w[i] >> 8), ip[2 * k + 1] = (u8)w[i];
	}
	return 16;
}

int addr_num(const char *s, u8 ip[16])
{
	return v4(s, ip) ? 4 : v6(s, ip);
}

/* The next word of *p: blanks before it; a newline, a # (the rest of
 * the line is a comment) or the end ends its line, which *eol says.
 * *p moves past it.  NULL: none before the line's end. */
static char *word(char **p, int *eol)
{
	char *w = *p, *e, c;

	while (*w == ' ' || *w == '\t' || *w == '\r')
		w++;
	for (e = w; *e && *e != '\n' && *e != '#' && *e != ' ' && *e != '\t' && *e != '\r'; e++)
		;
	c = *e;
	for (*p = e; c == '#' && **p && **p != '\n'; (*p)++)
		;
	*p += !!**p;
	*eol = c != ' ' && c != '\t' && c != '\r';
	*e = 0;
	return e > w ? w : NULL;
}

/* /etc/hosts: "ADDR NAME..." lines, # comments; the first line naming it */
static int hosts(const char *name, u8 ip[16])
{
	char *p = (char *)C.buf, *addr = NULL, *w;
	int eol = 1, n = 0;

	if (sys_read("/etc/hosts", p, CAP_BUF) < 0)
		return 0;
	while (*p && !n) {
		int first = eol;

		w = word(&p, &eol);
		if (first)
			addr = w;
		else if (w && addr && !strcasecmp(w, name))
			n = addr_num(addr, ip);
	}
	return n;
}

/* A socket of the address's family, non-blocking, and the sockaddr for
 * ip:port (the raw system call: musl's socket() carries a fallback for
 * kernels before 2.6.27).  port is the host's number. */
int net_socket(union naddr *a, const u8 *ip, int len, u32 port, int type)
{
	memset(a, 0, sizeof(*a));
	a->v4.sin_family = len == 16 ? AF_INET6 : AF_INET;
	((u8 *)&a->v4.sin_port)[0] = (u8)(port >> 8);	/* network order on either host */
	((u8 *)&a->v4.sin_port)[1] = (u8)port;
	if (len == 16)
		memcpy(&a->v6.sin6_addr, ip, 16);
	else
		memcpy(&a->v4.sin_addr, ip, 4);
	return (int)syscall(SYS_socket, a->sa.sa_family, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
}

/* The question for name's type t (1 A, 28 AAAA), at q; its length. */
static u32 question(u8 *q, const char *name, int t)
{
	u32 n = 12, k;

	memset(q, 0, 12);
	q[0] = 0x10, q[2] = 1, q[5] = 1;	/* id, recursion desired, one question */
	for (; *name; name += k + !!name[k]) {
		for (k = 0; name[k] && name[k] != '.'; k++)
			;
		if (!k || k > 63 || n + k > 260)
			return 0;
		q[n++] = (u8)k;
		memcpy(q + n, name, k);
		n += k;
	}
	q[n++] = 0, q[n++] = 0, q[n++] = (u8)t, q[n++] = 0, q[n++] = 1;
	return n;
}

/* Past a name in a message (labels, or a pointer that ends it). */
static u32 skip_name(const u8 *m, u32 i, u32 n)
{
	while (i < n && m[i] && (m[i] & 0xc0) != 0xc0)
		i += m[i] + 1u;
	return i + (i < n && m[i] ? 2 : 1);
}

/* The first answer of type t in the reply of n bytes; its length or 0. */
static int answer(const u8 *m, u32 n, int t, u8 ip[16])
{
	u32 i, an = (u32)m[6] << 8 | m[7];

	if (n < 12 || m[0] != 0x10 || !(m[2] & 0x80) || (m[3] & 15))
		return 0;
	i = skip_name(m, 12, n) + 4;	/* the question, its type and class */
	for (; an-- && (i = skip_name(m, i, n)) + 10 <= n; i += 10 + (u32)(m[i + 8] << 8 | m[i + 9])) {
		u32 len = (u32)(m[i + 8] << 8 | m[i + 9]);

		if (m[i + 1] == t && !m[i] && len == (t == 1 ? 4u : 16u) && i + 10 + len <= n) {
			memcpy(ip, m + i + 10, len);
			return (int)len;
		}
	}
	return 0;
}

static int dns(const char *name, u8 ip[16])
{
	char *b = (char *)C.buf, *p, *w;
	u8 ns[16], *q = C.buf + 4096, *r = q + 512;
	union naddr a;
	int len = 0, t, try, fd;

	if (sys_read("/etc/resolv.conf", b, 4096) < 0)
		return 0;
	for (p = b; (p = str_find(p, "nameserver")) && p > b && p[-1] != '\n'; p++)
		;
	if (!p || (p += 10, !(w = word(&p, &t))) || !(len = addr_num(w, ns)) ||
	    (fd = net_socket(&a, ns, len, 53, SOCK_DGRAM)) < 0)
		return 0;
	len = 0;
	for (t = 1; t <= 28 && !len; t += 27)
		for (try = 0; try < 2 && !len; try++) {
			struct pollfd pf = { fd, POLLIN, 0 };
			u32 n = question(q, name, t);
			ssize_t k;

			if (!n || sendto(fd, q, n, 0, &a.sa, sizeof(a)) < 0)
				break;
			if (poll(&pf, 1, NET_DNS_MS) > 0 && (k = recv(fd, r, 512, 0)) > 0)
				len = answer(r, (u32)k, t, ip);
		}
	close(fd);
	return len;
}

int addr_lookup(const char *name, u8 ip[16])
{
	int n = addr_num(name, ip);

	if (!n)
		n = hosts(name, ip);
	return n ? n : dns(name, ip);
}

/* ip as text: a dotted quad (IPv4, or IPv4 mapped into IPv6), else IPv6's
 * words with the longest run of two or more zero words as "::" */
void addr_text(const u8 *ip, int len, char *out, u32 cap)
{
	int i, best = -1, bl = 1, run;
	u32 n = 0;

	if (len == 16 && !memcmp(ip, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12))
		ip += 12, len = 4;
	if (len == 4) {
		sfmt(out, cap, "%u.%u.%u.%u", ip[0], ip[1], ip[2], ip[3]);
		return;
	}
	for (i = 0; i < 8; i += run ? run : 1) {
		for (run = 0; i + run < 8 && !ip[2 * (i + run)] && !ip[2 * (i + run) + 1]; run++)
			;
		if (run > bl)
			best = i, bl = run;
	}
	for (i = 0; i < 8; i++) {
		if (i == best) {
			n += (u32)sfmt(out + n, cap - n, "::");
			i += bl - 1;
			continue;
		}
		n += (u32)sfmt(out + n, cap - n, "%s%x", i && i != best + bl ? ":" : "", ip[2 * i] << 8 | ip[2 * i + 1]);
	}
}
