/* top: biotop's "who is hammering the disk" from block traces, no BPF.
 *
 * A request belongs to the process that queued it (Q), named from PROCESS
 * notes, then /proc, then "?"; it counts at completion, with the time from
 * issue (D) to completion (C).  Merged bios count for the request they
 * joined.  Live (-d DEV, or every whole disk) through iomon trace's
 * backends, or replayed from trace files (-i) in trace time.
 */
const char top_usage[] =
"usage: iomon top [-C] [-r MAXROWS] [-d DEV]... [-i NAME] [interval [count]]\n"
"\n"
"Per-process block I/O, biotop's table, every interval (1 s).\n"
"\n"
" -C            don't clear the screen\n"
" -r MAXROWS    rows to print (20)\n"
" -d DEV        trace DEV (repeatable); default: every whole disk\n"
" -i NAME       replay NAME.blktrace.N files (or - for a stream) in trace time\n";

#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "iomon.h"

struct row {
	u32 pid, dev;
	char comm[16];
	u8 w, used;
	u64 io, bytes, ns;
};

struct req {			/* in flight, by (device, sector) */
	u64 sector, issue;
	u32 dev, pid, next;
	u8 w, used;
	char comm[16];
};

#define REQ_HASH 1024
static const char *replay_name;	/* set when replaying: no /proc or /sys lookups */
static struct top {
	struct row rows[TOP_ROWS];
	u32 nrows;
	struct req reqs[TOP_REQS];
	u32 bucket[REQ_HASH], freelist, hwm;
	u64 req_dropped, row_dropped;
	int clear, maxrows, interval, count, tty, interval_live;
	u64 start, next;	/* trace time of the next interval's end */
	char outbuf[8192];
	struct obuf out;
} T;

static u32 rhash(u32 dev, u64 sector) { return (u32)((sector * 0x9e3779b97f4a7c15ull) >> 40 ^ dev) % REQ_HASH; }

static struct req *req_find(u32 dev, u64 sector, u32 **link)
{
	u32 *l = &T.bucket[rhash(dev, sector)];

	for (; *l; l = &T.reqs[*l - 1].next)
		if (T.reqs[*l - 1].dev == dev && T.reqs[*l - 1].sector == sector) {
			if (link)
				*link = l;
			return &T.reqs[*l - 1];
		}
	return NULL;
}

static void req_del(struct req *q)
{
	u32 *l;

	if (req_find(q->dev, q->sector, &l)) {
		*l = q->next;
		q->used = 0;
		q->next = T.freelist;
		T.freelist = (u32)(q - T.reqs) + 1;
	}
}

static struct req *req_new(u32 dev, u64 sector)
{
	struct req *q = req_find(dev, sector, NULL);
	u32 idx, h;

	if (q)
		return q;
	if (T.freelist) {
		idx = T.freelist;
		T.freelist = T.reqs[idx - 1].next;
	} else if (T.hwm < TOP_REQS)
		idx = ++T.hwm;
	else {
		T.req_dropped++;
		return NULL;
	}
	q = &T.reqs[idx - 1];
	memset(q, 0, sizeof(*q));
	q->dev = dev;
	q->sector = sector;
	q->used = 1;
	h = rhash(dev, sector);
	q->next = T.bucket[h];
	T.bucket[h] = idx;
	return q;
}

static void name_of(u32 pid, char *out)
{
	const char *n = proc_name(pid);
	char p[48], buf[32];
	int fd;
	ssize_t k;

	if (n) {
		snprintf(out, 16, "%s", n);
		return;
	}
	snprintf(p, sizeof(p), "/proc/%u/comm", pid);
	if (replay_name || (fd = open(p, O_RDONLY | O_CLOEXEC)) < 0) {
		snprintf(out, 16, "?");
		return;
	}
	k = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (k <= 0) {
		snprintf(out, 16, "?");
		return;
	}
	buf[k - (buf[k - 1] == '\n')] = 0;
	snprintf(out, 16, "%.15s", buf);
}

static void account(const struct req *q, u64 done, u32 bytes)
{
	u32 i;
	struct row *r = NULL;

	for (i = 0; i < T.nrows; i++)
		if (T.rows[i].pid == q->pid && T.rows[i].dev == q->dev && T.rows[i].w == q->w &&
		    !strcmp(T.rows[i].comm, q->comm)) {
			r = &T.rows[i];
			break;
		}
	if (!r) {
		if (T.nrows == TOP_ROWS) {
			T.row_dropped++;
			return;
		}
		r = &T.rows[T.nrows++];
		memset(r, 0, sizeof(*r));
		r->pid = q->pid;
		r->dev = q->dev;
		r->w = q->w;
		memcpy(r->comm, q->comm, 16);
	}
	r->io++;
	r->bytes += bytes;
	r->ns += q->issue && done > q->issue ? done - q->issue : 0;
}

static void disk_name(u32 dev, char *out, size_t len)
{
	char p[64], buf[256], *s, *e;
	int fd;
	ssize_t n;

	if (replay_name) {	/* this machine's /sys knows nothing of it */
		snprintf(out, len, "%s", replay_name);
		return;
	}
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/uevent", DEV_MAJOR(dev), DEV_MINOR(dev));
	if ((fd = open(p, O_RDONLY | O_CLOEXEC)) >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			buf[n] = 0;
			if ((s = strstr(buf, "DEVNAME=")) && (e = strchr(s, '\n'))) {
				*e = 0;
				snprintf(out, len, "%s", s + 8);
				return;
			}
		}
	}
	snprintf(out, len, "%u,%u", DEV_MAJOR(dev), DEV_MINOR(dev));
}

/* biotop's table: loadavg line, then rows by bytes, most first. */
static void print_table(s64 wall)
{
	static u16 order[TOP_ROWS];
	char line[256], hms[16], load[128] = "";
	time_t t = (time_t)wall;
	struct tm tm;
	u32 i, j, n = T.nrows;
	int fd;

	if (T.clear && T.tty)
		ob_puts(&T.out, "\033[H\033[2J");
	localtime_r(&t, &tm);
	strftime(hms, sizeof(hms), "%H:%M:%S", &tm);
	if (replay_name)
		snprintf(load, sizeof(load), "(replay)\n");
	else if ((fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC)) >= 0) {
		ssize_t k = read(fd, load, sizeof(load) - 1);

		close(fd);
		load[k > 0 ? k : 0] = 0;
	}
	ob_printf(&T.out, "%-8s loadavg: %s\n", hms, load[0] ? load : "?\n");
	ob_printf(&T.out, "%-7s %-16s %1s %-3s %-3s %-8s %5s %7s %6s\n", "PID", "COMM", "D", "MAJ", "MIN",
		  "DISK", "I/O", "Kbytes", "AVGms");
	for (i = 0; i < n; i++) {
		u16 v = (u16)i;

		for (j = i; j && T.rows[order[j - 1]].bytes < T.rows[v].bytes; j--)
			order[j] = order[j - 1];
		order[j] = v;
	}
	for (i = 0; i < n && (int)i < T.maxrows; i++) {
		const struct row *r = &T.rows[order[i]];
		char disk[32];

		disk_name(r->dev, disk, sizeof(disk));
		snprintf(line, sizeof(line), "%-7u %-16s %1s %-3u %-3u %-8s %5llu %7llu %6.2f\n", r->pid, r->comm,
			 r->w ? "W" : "R", DEV_MAJOR(r->dev), DEV_MINOR(r->dev), disk, (unsigned long long)r->io,
			 (unsigned long long)(r->bytes / 1024), (double)r->ns / (double)r->io / 1e6);
		ob_puts(&T.out, line);
	}
	if (T.req_dropped || T.row_dropped)
		ob_printf(&T.out, "(untracked: %llu requests over TOP_REQS %d, %llu rows over TOP_ROWS %d)\n",
			  (unsigned long long)T.req_dropped, TOP_REQS, (unsigned long long)T.row_dropped, TOP_ROWS);
	ob_write(&T.out, "\n", 1);
	ob_flush(&T.out);
	T.nrows = 0;
}

static s64 wall0;

static void top_record(const struct rec *r)
{
	u32 a = ACT32(r), act = a & 0xffff;
	struct req *q;

	if (a == TN_PROCESS) {
		proc_add(r->pid, r->pdu, r->pdu_len);
		return;
	}
	if (a == TN_TIMESTAMP && r->pdu_len == 8) {
		wall0 = ne32_load(r->pdu, r->swapped);
		return;
	}
	if (REC_IS_NOTE(r) || (a & TC(TC_NOTIFY)))
		return;
	if (T.interval_live)
		;	/* intervals follow the wall clock (live_round) */
	else if (T.interval && T.start) {
		while (r->time >= T.next) {
			print_table(wall0 + (s64)((T.next - T.start) / 1000000000u));
			T.next += (u64)T.interval * 1000000000u;
			if (T.count && !--T.count)
				return;
		}
	} else if (!T.start) {
		T.start = r->time;
		T.next = r->time + (u64)T.interval * 1000000000u;
	}
	switch (act) {
	case TA_QUEUE:	/* the submitter: owner of whatever request this bio makes */
		if ((q = req_new(r->dev, r->sector))) {
			q->pid = r->pid;
			q->w = (a & TC(TC_WRITE)) != 0;
			q->comm[0] = 0;	/* named at completion: its note may come later */
		}
		break;
	case TA_FRONTMERGE: {	/* the request now starts at this bio's sector */
		struct req *old = req_find(r->dev, r->sector + (r->bytes >> 9), NULL);

		if (old && (q = req_new(r->dev, r->sector)) && q != old) {
			struct req keep = *old;

			req_del(old);
			q->pid = keep.pid, q->w = keep.w;
			memcpy(q->comm, keep.comm, 16);
		}
		break;
	}
	case TA_ISSUE:
		if ((q = req_find(r->dev, r->sector, NULL)))
			q->issue = r->time;
		break;
	case TA_COMPLETE:
		if ((q = req_find(r->dev, r->sector, NULL))) {
			if (!q->comm[0])
				name_of(q->pid, q->comm);
			account(q, r->time, r->bytes);
			req_del(q);
		}
		break;
	}
}

static u8 topbuf[STREAM_BUF];

static int replay(const char *name)
{
	static volatile int never;
	int rc;

	if (!strcmp(name, "-")) {
		struct src in;
		struct rec r;

		src_init(&in, 0, "(stdin)", topbuf, STREAM_BUF);
		while ((rc = src_record(&in, &r)) > 0)
			top_record(&r);
		rc = rc < 0;
	} else
		rc = src_replay(name, top_record, &never);
	/* the last partial interval too */
	if (T.start)
		print_table(wall0 + (s64)((T.next - T.start) / 1000000000u));
	return rc;
}

/* ---- live ---- */

static struct src LS;
static s64 live_next;

static s64 now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return t.tv_sec;
}

static void live_round_records(void);

static int live_push(const void *p, size_t n)
{
	const u8 *b = p;

	while (n) {
		size_t k = src_push(&LS, b, n);
		struct rec r;

		if (!k) {
			u32 before = LS.pos;

			(void)r;
			live_round_records();
			if (LS.pos == before)
				return -1;
		}
		b += k;
		n -= k;
	}
	return 0;
}

/* A round holds each CPU's records in turn; a request queued on one CPU
 * can complete on another, so the round is put in time order first. */
static struct { u64 t; u32 off; } key[TOP_LIVE], tmp[TOP_LIVE];

static void sort_keys(u32 n)
{
	u32 w, lo, i, j, k, mid, hi;

	for (w = 1; w < n; w *= 2) {
		for (lo = 0; lo < n; lo += 2 * w) {
			mid = lo + w < n ? lo + w : n;
			hi = lo + 2 * w < n ? lo + 2 * w : n;
			for (i = lo, j = mid, k = lo; k < hi; k++)
				tmp[k] = (j >= hi || (i < mid && key[i].t <= key[j].t)) ? key[i++] : key[j++];
		}
		memcpy(key, tmp, n * sizeof(key[0]));
	}
}

static void live_round_records(void)
{
	struct rec r;

	for (;;) {
		u32 n = 0, i;

		while (n < TOP_LIVE) {
			u32 at = LS.pos;

			if (src_record(&LS, &r) <= 0)
				break;
			key[n].t = r.time;
			key[n++].off = at;
		}
		if (!n)
			break;
		sort_keys(n);
		for (i = 0; i < n; i++)
			if (rec_decode(LS.buf + key[i].off, LS.len - key[i].off, &r) > 0)
				top_record(&r);
		if (n < TOP_LIVE)
			break;
	}
}

static void live_round(void)
{
	live_round_records();
	if (now_s() >= live_next) {
		print_table(live_next);
		live_next += T.interval;
		if (T.count && !--T.count)
			kill(getpid(), SIGTERM);	/* the capture stops cleanly on it */
	}
}

/* Every whole disk in /sys/block but loop, ram and zram devices. */
static int all_disks(char **devs, int max)
{
	static char names[CAP_DEVS][48];
	char buf[4096];
	int fd = open("/sys/block", O_RDONLY | O_DIRECTORY | O_CLOEXEC), n = 0;
	long k;

	if (fd < 0)
		return 0;
	while ((k = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		long off = 0;

		while (off < k && n < max) {
			unsigned short reclen;
			const char *name = buf + off + 19;

			memcpy(&reclen, buf + off + 16, 2);
			off += reclen;
			if (name[0] == '.' || !strncmp(name, "loop", 4) || !strncmp(name, "ram", 3) ||
			    !strncmp(name, "zram", 4))
				continue;
			snprintf(names[n], sizeof(names[n]), "/dev/%s", name);
			devs[n] = names[n];
			n++;
		}
	}
	close(fd);
	return n;
}

int top_main(int argc, char **argv)
{
	static char *devs[CAP_DEVS];
	int ndevs = 0;
	const char *in = NULL;
	int c;

	T.maxrows = 20;
	T.clear = 1;
	T.interval = 1;
	while ((c = getopt(argc, argv, "Cr:d:i:")) != -1) {
		switch (c) {
		case 'C': T.clear = 0; break;
		case 'r': T.maxrows = atoi(optarg); break;
		case 'i': in = optarg; break;
		case 'd':
			if (ndevs == CAP_DEVS) {
				warn_msg("more than %d devices (CAP_DEVS)", CAP_DEVS);
				return 1;
			}
			devs[ndevs++] = optarg;
			break;
		default:
			if (write(2, top_usage, sizeof(top_usage) - 1) < 0)
				return 1;
			return 1;
		}
	}
	if (optind < argc)
		T.interval = atoi(argv[optind++]);
	if (optind < argc)
		T.count = atoi(argv[optind++]);
	if (T.interval <= 0 || T.maxrows <= 0) {
		warn_msg("interval and -r must be above 0");
		return 1;
	}
	T.tty = isatty(1);
	ob_init(&T.out, 1, "stdout", T.outbuf, sizeof(T.outbuf));
	if (in) {
		static char base[64];
		const char *b = strrchr(in, '/');
		char *x;

		snprintf(base, sizeof(base), "%s", b ? b + 1 : in);
		if ((x = strstr(base, ".blktrace.")))
			*x = 0;
		replay_name = strcmp(in, "-") ? base : "-";
		c = replay(in);
	}
	else {
		if (!ndevs && !(ndevs = all_disks(devs, CAP_DEVS))) {
			warn_msg("no disks to trace (give -d DEV)");
			return 1;
		}
		src_init(&LS, -1, "(capture)", topbuf, STREAM_BUF);
		LS.eof = 0;
		LS.push = 1;
		live_next = now_s() + T.interval;
		T.start = 0;
		T.interval_live = 1;
		c = trace_devices(devs, ndevs, 0, live_push, live_round);
	}
	return ob_close(&T.out) || c ? 1 : 0;
}
