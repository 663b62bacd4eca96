/* capture/tracefs.c: capture: the tracefs backend: tracepoint events rewritten as records */
/* The tracefs backend: the block tracepoints in a private tracefs instance,
 * read as raw ring-buffer pages and rewritten as blktrace records.
 *
 * Why not the `blk` tracer's bin output: it needs the global tracer (one
 * per system) and on 7.x kernels it writes broken records (a v7 head on a
 * cut v8 body).  The tracepoints' format files have been stable for years,
 * work in an instance of our own (no global state touched) and under
 * kernel lockdown, and carry pid and comm.  We read every field's offset
 * from its format file and check each event's size against it.
 *
 * What differs from relay: records carry the ring buffer's timestamps
 * (trace_clock "mono", the clock relay uses); sequence numbers, PROCESS
 * and TIMESTAMP notes are made here; plug/unplug tracepoints name no
 * device, so each is given to the device its task last queued to on that
 * CPU; passthrough (PC) requests are recognised by their CDB. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mount.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "capture/backend.h"

enum { F_DEV, F_SECTOR, F_NR, F_BYTES, F_ERROR, F_RWBS, F_COMM, F_NEW, F_OLDDEV, F_OLDSEC, F_NRRQ, F_CMD, NF };
static const char *const fname[NF] = { "dev", "sector", "nr_sector", "bytes", "error", "rwbs",
				       "comm", "new_sector", "old_dev", "old_sector", "nr_rq", "cmd" };

static struct tev {
	const char *name;
	u32 act;		/* blktrace action with its category */
	u32 id;
	short off[NF], size[NF];
	u16 min_len;
} ev[] = {
	{ .name = "block_bio_queue", .act = TA_QUEUE | TC(TC_QUEUE) },
	{ .name = "block_getrq", .act = TA_GETRQ | TC(TC_QUEUE) },
	{ .name = "block_sleeprq", .act = TA_SLEEPRQ | TC(TC_QUEUE) },
	{ .name = "block_rq_insert", .act = TA_INSERT | TC(TC_QUEUE) },
	{ .name = "block_rq_issue", .act = TA_ISSUE | TC(TC_ISSUE) },
	{ .name = "block_rq_complete", .act = TA_COMPLETE | TC(TC_COMPLETE) },
	{ .name = "block_bio_complete", .act = TA_COMPLETE | TC(TC_COMPLETE) },
	{ .name = "block_rq_requeue", .act = TA_REQUEUE | TC(TC_REQUEUE) },
	{ .name = "block_bio_backmerge", .act = TA_BACKMERGE | TC(TC_QUEUE) },
	{ .name = "block_bio_frontmerge", .act = TA_FRONTMERGE | TC(TC_QUEUE) },
	{ .name = "block_bio_bounce", .act = TA_BOUNCE | TC(TC_QUEUE) },
	{ .name = "block_split", .act = TA_SPLIT },
	{ .name = "block_bio_remap", .act = TA_REMAP | TC(TC_QUEUE) },
	{ .name = "block_rq_remap", .act = TA_REMAP | TC(TC_QUEUE) },
	{ .name = "block_plug", .act = TA_PLUG | TC(TC_QUEUE) },
	{ .name = "block_unplug", .act = TA_UNPLUG_IO | TC(TC_QUEUE) },
};
#define NEV (sizeof(ev) / sizeof(ev[0]))

static char root[64], inst[128];
static int pipes[CAP_CPUS];
static u32 page_size = 4096, commit_size = 8, data_off = 16;

/* pid -> name and last device queued to, to name tasks and place plugs */
static struct task { u32 pid; u16 dev; u8 named[CAP_DEVS / 8 + 1]; char comm[16]; u64 noted; } tasks[CAP_TASKS];
static u16 last_dev[CAP_CPUS];

static int put(const char *dir, const char *file, const char *val)
{
	char p[PATH_LEN];
	int fd;
	ssize_t n;

	sfmt(p, sizeof(p), "%s/%s", dir, file);
	if ((fd = open(p, O_WRONLY | O_TRUNC | O_CLOEXEC)) < 0)
		return -1;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

static ssize_t get(const char *dir, const char *file, char *buf, size_t len)
{
	char p[PATH_LEN];
	int fd;
	ssize_t n, t = 0;

	sfmt(p, sizeof(p), "%s/%s", dir, file);
	if ((fd = open(p, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	while ((size_t)t < len - 1 && (n = read(fd, buf + t, len - 1 - (size_t)t)) > 0)
		t += n;
	close(fd);
	buf[t] = 0;
	return t;
}

static int find_root(void)
{
	static const char *const cand[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	struct stat st;
	char p[PATH_LEN];
	size_t i;

	for (i = 0; i < 2; i++) {
		sfmt(p, sizeof(p), "%s/instances", cand[i]);
		if (!stat(p, &st)) {
			sfmt(root, sizeof(root), "%s", cand[i]);
			return 0;
		}
	}
	if (!mount("tracefs", cand[0], "tracefs", 0, NULL)) {
		sfmt(root, sizeof(root), "%s", cand[0]);
		return 0;
	}
	warn_msg("tracefs is not available (no /sys/kernel/tracing, and mounting it failed: %s)",
		 strerror(errno));
	return -1;
}

/* "field:unsigned int nr_sector;	offset:24;	size:4;	signed:0;" */
static int parse_format(struct tev *e)
{
	static char buf[TRACEFS_FORMAT_BUF];
	char dir[PATH_LEN], *p;
	int i;

	sfmt(dir, sizeof(dir), "%s/events/block/%s", root, e->name);
	if (get(dir, "format", buf, sizeof(buf)) <= 0)
		return -1;
	if (!(p = str_find(buf, "ID: ")))
		return -1;
	e->id = (u32)scan_u64(p + 4, NULL, 10);
	for (i = 0; i < NF; i++)
		e->off[i] = -1;
	for (p = buf; (p = str_find(p, "field:")); p++) {
		char *semi = strchr(p, ';'), *name = semi, *o, *s;

		if (!semi)
			break;
		while (name > p && name[-1] != ' ' && name[-1] != '*')
			name--;
		o = str_find(semi, "offset:");
		s = str_find(semi, "size:");
		if (!o || !s)
			break;
		if (name[0] == '[' || !strncmp(name, "common_", 7))
			continue;
		for (i = 0; i < NF; i++) {
			size_t n = strlen(fname[i]);

			if (!strncmp(name, fname[i], n) && (name[n] == ';' || name[n] == '[')) {
				e->off[i] = (short)atoi(o + 7);
				e->size[i] = (short)atoi(s + 5);
				if (e->off[i] + e->size[i] > e->min_len)
					e->min_len = (u16)(e->off[i] + e->size[i]);
			}
		}
	}
	return 0;
}

static void header_page(void)
{
	char buf[1024], *p;

	if (get(root, "events/header_page", buf, sizeof(buf)) <= 0)
		return;
	if ((p = str_find(buf, "commit;")) && (p = str_find(p, "size:")))
		commit_size = (u32)atoi(p + 5);
	if ((p = str_find(buf, "data;")) && (p = str_find(p, "offset:")))
		data_off = (u32)atoi(p + 7);
	page_size = (u32)getauxval(AT_PAGESZ);	/* sysconf's table costs 1 KiB */
	/* newer kernels can make sub-buffers larger than a page */
	if (get(inst[0] ? inst : root, "buffer_subbuf_size_kb", buf, sizeof(buf)) > 0 && atoi(buf) > 0)
		page_size = (u32)atoi(buf) << 10;
	if (page_size > CAP_BUF)
		page_size = CAP_BUF;
}

static u64 field(const u8 *d, const struct tev *e, int f)
{
	u64 v = 0;

	if (e->off[f] < 0)
		return 0;
	switch (e->size[f]) {
	case 8: memcpy(&v, d + e->off[f], 8); return v;
	case 4: { u32 x; memcpy(&x, d + e->off[f], 4); return x; }
	case 2: { u16 x; memcpy(&x, d + e->off[f], 2); return x; }
	}
	return d[e->off[f]];
}

static void text(const u8 *d, const struct tev *e, int f, char *out, size_t len)
{
	size_t n;

	out[0] = 0;
	if (e->off[f] < 0)
		return;
	n = (size_t)e->size[f] < len - 1 ? (size_t)e->size[f] : len - 1;
	memcpy(out, d + e->off[f], n);
	out[n] = 0;
}

/* RWBS text (blk_fill_rwbs) back to blktrace's category bits. */
static u32 rwbs_bits(const char *s)
{
	u32 a = 0;

	if (s[0] == 'F' && s[1] && strchr("WRDNFE", s[1]))
		a |= TC(TC_FLUSH), s++;
	switch (*s) {
	case 'W': a |= TC(TC_WRITE); s++; break;
	case 'D': a |= TC(TC_WRITE) | TC(TC_DISCARD); s++; if (*s == 'E') s++; break;
	case 'F': a |= TC(TC_FLUSH); s++; break;
	case 'R': a |= TC(TC_READ); s++; break;
	case 'N': s++; break;
	}
	for (; *s; s++)
		a |= *s == 'F' ? TC(TC_FUA) : *s == 'A' ? TC(TC_AHEAD) : *s == 'S' ? TC(TC_SYNC)
			: *s == 'M' ? TC(TC_META) : 0;
	return a;
}

static struct task *task(u32 pid)
{
	struct task *t = &tasks[(pid * 2654435761u) % CAP_TASKS];

	if (t->pid != pid) {
		memset(t, 0, sizeof(*t));
		t->pid = pid;
		t->dev = 0xffff;
	}
	return t;
}

static void comm_of(struct task *t, const char *c)
{
	char p[64], buf[32];
	int fd;
	ssize_t n;

	if (c && *c) {
		if (strncmp(t->comm, c, 15))
			sfmt(t->comm, sizeof(t->comm), "%.15s", c);
		return;
	}
	if (t->comm[0])
		return;
	sfmt(p, sizeof(p), "/proc/%u/comm", t->pid);
	if ((fd = open(p, O_RDONLY | O_CLOEXEC)) >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			buf[n - (buf[n - 1] == '\n')] = 0;
			sfmt(t->comm, sizeof(t->comm), "%.15s", buf);
			return;
		}
	}
	if (!t->pid)
		sfmt(t->comm, sizeof(t->comm), "swapper");
}

static void emit(struct tdev *d, u32 cpu, u64 time, u32 pid, u32 action, u64 sector, u32 bytes,
		 u16 error, const u8 *pdu, u16 pdu_len)
{
	u8 b[REC_V7_LEN + 64];
	struct rec r = { .time = time, .sector = sector, .action = action, .bytes = bytes,
			 .pid = pid, .dev = d->kdev, .cpu = cpu, .error = error,
			 .pdu_len = pdu_len };

	r.seq = (action & TC(TC_NOTIFY)) ? 0 : ++d->seq[cpu];
	rec_encode_v7(b, &r);
	memcpy(b + REC_V7_LEN, pdu, pdu_len);
	cap_write(d, cpu, b, 48u + pdu_len);
}

static void process_note(struct tdev *d, u32 cpu, u64 time, struct task *t)
{
	u32 i = (u32)(d - C.dev);
	u8 comm[16] = { 0 };

	/* CPUs' pages are read one after another, so an earlier event of
	 * this task can come after its note: note it again, earlier (first
	 * names win, so a repeat is harmless) */
	if ((t->named[i / 8] & (1 << (i % 8))) && time >= t->noted)
		return;
	t->named[i / 8] |= (u8)(1 << (i % 8));
	t->noted = time;
	memcpy(comm, t->comm, strlen(t->comm));
	emit(d, cpu, time, t->pid, TN_PROCESS, 0, 0, 0, comm, 16);
}

static struct tdev *dev_of(u32 kdev, u64 sector)
{
	u32 i;

	for (i = 0; i < C.ndev; i++) {
		struct tdev *d = &C.dev[i];

		if (d->is_part) {
			if (d->disk == kdev && sector >= d->start_lba && sector <= d->end_lba)
				return d;
		} else if (d->kdev == kdev)
			return d;
	}
	return NULL;
}

static int hexval(int c) { return c <= '9' ? c - '0' : (c | 32) - 'a' + 10; }

/* One tracepoint event -> one blktrace record (plus its PROCESS note). */
static void event(u32 cpu, u64 time, const u8 *data, u32 len)
{
	u16 type;
	u32 pid, action, bytes, i;
	u64 sector;
	const struct tev *e = NULL;
	struct tdev *d;
	struct task *t;
	char rwbs[16], comm[20];
	u8 pdu[64];
	u16 pdu_len = 0, error = 0;

	if (len < 8)
		return;
	memcpy(&type, data, 2);
	memcpy(&pid, data + 4, 4);
	for (i = 0; i < NEV; i++)
		if (ev[i].id == type) {
			e = &ev[i];
			break;
		}
	if (!e || len < e->min_len)
		return;
	t = task(pid);
	text(data, e, F_COMM, comm, sizeof(comm));
	comm_of(t, comm);
	action = e->act;
	if ((action & 0xffff) == TA_PLUG || (action & 0xffff) == TA_UNPLUG_IO) {
		/* no device in these: the one this task last queued to here */
		if (t->dev >= C.ndev || last_dev[cpu] != t->dev)
			return;
		d = &C.dev[t->dev];
		action |= TC(TC_READ);
		sector = 0;
		bytes = 0;
		if ((action & 0xffff) == TA_UNPLUG_IO) {
			u64 depth = field(data, e, F_NRRQ);

			for (i = 0; i < 8; i++)
				pdu[i] = (u8)(depth >> (56 - 8 * i));
			pdu_len = 8;
		}
	} else {
		sector = field(data, e, F_SECTOR);
		if (!(d = dev_of((u32)field(data, e, F_DEV), sector)))
			return;
		text(data, e, F_RWBS, rwbs, sizeof(rwbs));
		action |= rwbs_bits(rwbs);
		bytes = e->off[F_BYTES] >= 0 ? (u32)field(data, e, F_BYTES) : (u32)field(data, e, F_NR) << 9;
		if ((action & 0xffff) == TA_QUEUE || (action & 0xffff) == TA_GETRQ) {
			t->dev = (u16)(d - C.dev);
			last_dev[cpu] = t->dev;
		}
		if (e->off[F_ERROR] >= 0)
			error = (u16)field(data, e, F_ERROR);
		switch (action & 0xffff) {
		case TA_INSERT: case TA_ISSUE: case TA_COMPLETE: case TA_REQUEUE: {
			/* __data_loc cmd: offset | len << 16; a CDB in hex marks PC */
			u32 loc = (u32)field(data, e, F_CMD), off = loc & 0xffff, n = loc >> 16, k;

			if (e->off[F_CMD] >= 0 && n > 1 && off + n <= len) {
				const char *h = (const char *)data + off;

				action |= TC(TC_PC);
				for (k = 0; k + 1 < n && pdu_len < sizeof(pdu); k++) {
					if (h[k] == ' ' || !h[k])
						continue;
					pdu[pdu_len++] = (u8)(hexval(h[k]) << 4 | hexval(h[k + 1]));
					k++;
				}
			} else
				action |= TC(TC_FS);
			break;
		}
		case TA_SPLIT: {
			u64 v = field(data, e, F_NEW);

			for (i = 0; i < 8; i++)
				pdu[i] = (u8)(v >> (56 - 8 * i));
			pdu_len = 8;
			break;
		}
		case TA_REMAP: {
			u32 from = (u32)field(data, e, F_OLDDEV), to = (u32)field(data, e, F_DEV);
			u64 s = field(data, e, F_OLDSEC);

			for (i = 0; i < 4; i++) {
				pdu[i] = (u8)(from >> (24 - 8 * i));
				pdu[4 + i] = (u8)(to >> (24 - 8 * i));
			}
			for (i = 0; i < 8; i++)
				pdu[8 + i] = (u8)(s >> (56 - 8 * i));
			pdu_len = 16;
			break;
		}
		}
	}
	if (C.cfg.mask && !((action >> TC_SHIFT) & C.cfg.mask))
		return;
	process_note(d, cpu, time, t);
	emit(d, cpu, time, pid, action, sector, bytes, error, pdu, pdu_len);
}

/* One ring-buffer page: header, then events with 27-bit time deltas. */
static u64 page(u32 cpu, const u8 *p, u32 n)
{
	u64 ts, commit = 0, missed = 0;
	u32 off, size;
	int le = 1;

	if (n < data_off)
		return 0;
	memcpy(&ts, p, 8);
	memcpy(&commit, p + 8, commit_size);
	if (*(const u8 *)&le == 0 && commit_size == 4)
		commit >>= 32;
	size = (u32)(commit & ((1u << 27) - 1));
	if (commit & (1ull << 31)) {	/* RB_MISSED_EVENTS; count stored after the data */
		missed = 1;
		if ((commit & (1ull << 30)) && data_off + size + commit_size <= n) {
			u64 m = 0;

			memcpy(&m, p + data_off + size, commit_size);
			missed = m;
		}
	}
	if (size > n - data_off)
		size = n - data_off;
	for (off = data_off; off + 4 <= data_off + size;) {
		u32 h, type_len, delta, arr = 0;
		u16 one = 1;

		memcpy(&h, p + off, 4);
		if (*(const u8 *)&one) {
			type_len = h & 31;
			delta = h >> 5;
		} else {
			type_len = h >> 27;
			delta = h & ((1u << 27) - 1);
		}
		if (off + 8 <= data_off + size)
			memcpy(&arr, p + off + 4, 4);
		if (type_len == 29) {		/* padding */
			if (!delta)
				break;
			off += 4 + arr;
		} else if (type_len == 30) {	/* time extend */
			ts += (u64)arr << 27 | delta;
			off += 8;
		} else if (type_len == 31) {	/* absolute time stamp */
			ts = (ts & ~((1ull << 59) - 1)) | ((u64)arr << 27 | delta);
			off += 8;
		} else if (type_len == 0) {	/* long event: length in array[0] */
			ts += delta;
			if (arr < 4 || off + 4 + arr > data_off + size)
				break;
			event(cpu, ts, p + off + 8, arr - 4);
			off += 4 + arr;
		} else {
			ts += delta;
			event(cpu, ts, p + off + 4, type_len * 4);
			off += 4 + type_len * 4;
		}
	}
	return missed;
}

static void pump(u32 cpu)
{
	ssize_t n;

	while ((n = read(pipes[cpu], C.buf, page_size)) > 0 && !C.write_failed) {
		u64 m = page(cpu, C.buf, (u32)n);
		u32 i;

		for (i = 0; m && i < C.ndev; i++)
			C.dev[i].dropped += m;	/* the ring buffer cannot say whose */
	}
}

static int set_filters(void)
{
	char f[1024];
	size_t n = 0;
	u32 i, k;

	for (i = 0; i < C.ndev; i++)
		n += (size_t)sfmt(f + n, sizeof(f) - n, "%sdev == %u", i ? " || " : "",
				      C.dev[i].disk ? C.dev[i].disk : C.dev[i].kdev);
	for (k = 0; k < NEV; k++) {
		char dir[PATH_LEN];

		if (!ev[k].id || ev[k].off[F_DEV] < 0)
			continue;
		sfmt(dir, sizeof(dir), "%s/events/block/%s", inst, ev[k].name);
		if (put(dir, "filter", f) && C.cfg.verbose)
			note_msg("%s: filter refused; filtering here instead", ev[k].name);
	}
	return 0;
}

static void remove_instance(void)
{
	if (inst[0]) {
		put(inst, "tracing_on", "0");
		if (rmdir(inst) && errno != ENOENT)
			warn_msg("%s: could not remove the tracefs instance: %s", inst, strerror(errno));
		inst[0] = 0;
	}
}

/* A capture killed with SIGKILL leaves its instance iomon-PID behind, its
 * tracepoints on and its buffers held.  Remove those whose process is
 * gone; a live one is another capture's. */
static long clear_stale_one(const char *dir, const char *name, void *unused)
{
	char p[PATH_LEN];
	long pid;

	(void)unused;
	if (strncmp(name, "iomon-", 6) || (pid = atol(name + 6)) <= 0 || !kill((pid_t)pid, 0) || errno != ESRCH)
		return 0;
	sfmt(p, sizeof(p), "%s/%s", dir, name);
	put(p, "tracing_on", "0");
	if (rmdir(p))
		warn_msg("%s: left by a capture that died (pid %ld), cannot remove it: %s", p, pid, strerror(errno));
	else
		note_msg("%s: removed, left by a capture that died (pid %ld)", p, pid);
	return 0;
}

static void clear_stale(void)
{
	char dir[96];

	sfmt(dir, sizeof(dir), "%s/instances", root);
	dir_each(dir, clear_stale_one, NULL);
}

/* TIMESTAMP note: wall clock at a known trace time, as relay writes. */
static void timestamp_note(void)
{
	struct timespec mono, real;
	u32 pdu[2];
	u32 i;

	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	pdu[0] = (u32)real.tv_sec;
	pdu[1] = (u32)real.tv_nsec;
	for (i = 0; i < C.ndev; i++)
		emit(&C.dev[i], 0, (u64)mono.tv_sec * 1000000000u + (u64)mono.tv_nsec, 0, TN_TIMESTAMP,
		     0, 0, 0, (const u8 *)pdu, 8);
}

int tracefs_run(void)
{
	char dir[PATH_LEN], kb[32];
	struct pollfd pfd[CAP_CPUS];
	u32 i, c, enabled = 0;
	int rc = 1;

	if (find_root())
		return 1;
	header_page();
	for (i = 0; i < NEV; i++)
		if (parse_format(&ev[i]))
			ev[i].id = 0;	/* not in this kernel */
	for (i = 0; i < C.ndev; i++) {
		struct tdev *d = &C.dev[i];

		if (d->is_part) {
			char v[64];

			sfmt(dir, sizeof(dir), "/sys/dev/block/%u:%u", DEV_MAJOR(d->kdev), DEV_MINOR(d->kdev));
			if (get(dir, "start", v, sizeof(v)) > 0)
				d->start_lba = scan_u64(v, NULL, 10);
			if (get(dir, "size", v, sizeof(v)) > 0)
				d->end_lba = d->start_lba + scan_u64(v, NULL, 10) - 1;
		}
	}
	clear_stale();
	for (c = 0; c < CAP_CPUS; c++)
		pipes[c] = -1;
	sfmt(inst, sizeof(inst), "%s/instances/iomon-%d", root, (int)getpid());
	if (mkdir(inst, 0700)) {
		warn_msg("%s: cannot make a tracefs instance: %s", inst, strerror(errno));
		inst[0] = 0;
		return 1;
	}
	if (put(inst, "trace_clock", "mono"))
		note_msg("trace_clock mono refused; times are the kernel's local clock");
	sfmt(kb, sizeof(kb), "%u", (C.cfg.buf_size >> 10) * C.cfg.buf_nr);
	put(inst, "buffer_size_kb", kb);
	for (i = 0; i < NEV; i++) {
		if (!ev[i].id)
			continue;
		sfmt(dir, sizeof(dir), "%s/events/block/%s", inst, ev[i].name);
		if (!put(dir, "enable", "1"))
			enabled++;
	}
	if (!enabled) {
		warn_msg("no block tracepoints could be enabled under %s", inst);
		goto out;
	}
	set_filters();
	for (c = 0; c < C.ncpu; c++) {
		char p[PATH_LEN];

		sfmt(p, sizeof(p), "%s/per_cpu/cpu%u/trace_pipe_raw", inst, c);
		pipes[c] = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		pfd[c] = (struct pollfd){ pipes[c], POLLIN, 0 };
		for (i = 0; i < C.ndev && pipes[c] >= 0 && !C.cfg.to_stdout; i++)
			if (cap_write(&C.dev[i], c, "", 0))
				goto out;
	}
	timestamp_note();
	put(inst, "tracing_on", "1");
	note_msg("capturing through tracefs (block tracepoints in %s)", inst);
	while (!cap_stopping()) {
		int wait = cap_wait();

		if (wait < 0)
			break;
		if (poll(pfd, C.ncpu, wait) < 0)
			continue;
		/* a page is handed over only when full: take partial ones too */
		for (c = 0; c < C.ncpu; c++)
			if (pipes[c] >= 0)
				pump(c);
		cap_round();
	}
	put(inst, "tracing_on", "0");
	for (c = 0; c < C.ncpu; c++)
		if (pipes[c] >= 0) {
			pump(c);
			close(pipes[c]);
			pipes[c] = -1;
		}
	/* what the drain brought is a round too (relay's loop does the same):
	 * top's last table and btrace's last lines count it */
	cap_round();
	rc = C.write_failed;
out:
	/* an open trace_pipe_raw keeps the instance busy: rmdir fails */
	for (c = 0; c < C.ncpu; c++)
		if (pipes[c] >= 0) {
			close(pipes[c]);
			pipes[c] = -1;
		}
	remove_instance();
	return rc;
}
