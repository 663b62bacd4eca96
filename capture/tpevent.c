/* capture/tpevent.c: capture: tracefs events -> records: ring-buffer pages, tracepoint events, task names, notes */
/* What tracefs.c reads from the ring buffer, rewritten as blktrace records.
 *
 * Records carry the ring buffer's timestamps (trace_clock "mono", the
 * clock relay uses); sequence numbers, PROCESS and TIMESTAMP notes are
 * made here; plug/unplug tracepoints name no device, so each is given to
 * the device its task last queued to on that CPU; passthrough (PC)
 * requests are recognised by their CDB. */
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "capture/backend.h"

const char *const tp_fname[NF] = { "dev", "sector", "nr_sector", "bytes", "error", "rwbs",
				   "comm", "new_sector", "old_dev", "old_sector", "nr_rq", "cmd" };

/* The tracepoints and their actions, constant: tp_ev, which the formats
 * fill, is then bss, not data in the file (tp_init copies). */
static const struct { const char *name; u32 act; } tp_names[TP_NEV] = {
	{ "block_bio_queue", TA_QUEUE | TC(TC_QUEUE) },
	{ "block_getrq", TA_GETRQ | TC(TC_QUEUE) },
	{ "block_sleeprq", TA_SLEEPRQ | TC(TC_QUEUE) },
	{ "block_rq_insert", TA_INSERT | TC(TC_QUEUE) },
	{ "block_rq_issue", TA_ISSUE | TC(TC_ISSUE) },
	{ "block_rq_complete", TA_COMPLETE | TC(TC_COMPLETE) },
	{ "block_bio_complete", TA_COMPLETE | TC(TC_COMPLETE) },
	{ "block_rq_requeue", TA_REQUEUE | TC(TC_REQUEUE) },
	{ "block_bio_backmerge", TA_BACKMERGE | TC(TC_QUEUE) },
	{ "block_bio_frontmerge", TA_FRONTMERGE | TC(TC_QUEUE) },
	{ "block_bio_bounce", TA_BOUNCE | TC(TC_QUEUE) },
	{ "block_split", TA_SPLIT },
	{ "block_bio_remap", TA_REMAP | TC(TC_QUEUE) },
	{ "block_rq_remap", TA_REMAP | TC(TC_QUEUE) },
	{ "block_plug", TA_PLUG | TC(TC_QUEUE) },
	{ "block_unplug", TA_UNPLUG_IO | TC(TC_QUEUE) },
};
struct tev tp_ev[TP_NEV];

void tp_init(void)
{
	u32 i;

	for (i = 0; i < TP_NEV; i++) {
		tp_ev[i].name = tp_names[i].name;
		tp_ev[i].act = tp_names[i].act;
	}
}
u32 tp_commit_size = 8, tp_data_off = 16;

/* pid -> name and last device queued to, to name tasks and place plugs */
static struct task { u32 pid; u16 dev; u8 named[CAP_DEVS / 8 + 1]; char comm[16]; u64 noted; } tasks[CAP_TASKS];
static u16 last_dev[CAP_CPUS];

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
	/* blktrace files every op that is not a write as a read: a flush too */
	case 'F': a |= TC(TC_FLUSH) | TC(TC_READ); s++; break;
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

/* The tracepoint's comm, else /proc's, else pid 0's name. */
static void comm_of(struct task *t, const char *c)
{
	if (c && *c) {
		if (strncmp(t->comm, c, 15))
			sfmt(t->comm, sizeof(t->comm), "%.15s", c);
		return;
	}
	if (t->comm[0] || !sys_comm(t->pid, t->comm))
		return;
	if (!t->pid)
		sfmt(t->comm, sizeof(t->comm), "swapper");
}

static void emit(struct tdev *d, u32 cpu, u64 time, u32 pid, u32 action, u64 sector, u32 bytes,
		 u16 error, const u8 *pdu, u16 pdu_len)
{
	u8 b[REC_V7_LEN + 64];
	struct rec r = { .time = time, .sector = sector, .action = action, .bytes = bytes,
			 .pid = pid, .dev = d->kdev, .cpu = cpu, .error = error,
			 .pdu_len = pdu_len, .pdu = pdu };

	r.seq = (action & TC(TC_NOTIFY)) ? 0 : ++d->seq[cpu];
	cap_write(d, cpu, b, rec_encode(b, sizeof(b), &r));
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
			/* sector 0 (a flush) passes, as the kernel's act_log_check lets it */
			if (d->disk == kdev && (!sector || (sector >= d->start_lba && sector <= d->end_lba)))
				return d;
		} else if (d->kdev == kdev)
			return d;
	}
	return NULL;
}

static int hexval(int c) { return c <= '9' ? c - '0' : (c | 32) - 'a' + 10; }

/* An event on its way to a record: what event() fills in */
struct evrec {
	struct tdev *d;
	u64 sector;
	u32 action, bytes;
	u16 error, pdu_len;
	u8 pdu[64];
};

/* Plug and unplug name no device: the one this task last queued to on
 * this CPU, from its first queue there on.  An older one (CPUs' pages
 * come one after another) is the task's work elsewhere, such as exec
 * reading its binary from another disk. */
static int ev_plug(u32 cpu, u64 time, const u8 *data, const struct tev *e, const struct task *t,
		   struct evrec *o)
{
	if (t->dev >= C.ndev || last_dev[cpu] != t->dev || time < t->noted)
		return -1;
	o->d = &C.dev[t->dev];
	o->action |= TC(TC_READ);
	if ((o->action & 0xffff) == TA_UNPLUG_IO) {
		be_store(o->pdu, field(data, e, F_NRRQ), 8);
		o->pdu_len = 8;
	}
	return 0;
}

/* __data_loc cmd: offset | len << 16; a CDB in hex marks PC */
static void pdu_cmd(const u8 *data, u32 len, const struct tev *e, struct evrec *o)
{
	u32 loc = (u32)field(data, e, F_CMD), off = loc & 0xffff, n = loc >> 16, k;

	if (e->off[F_CMD] >= 0 && n > 1 && off + n <= len) {
		const char *h = (const char *)data + off;

		o->action |= TC(TC_PC);
		for (k = 0; k + 1 < n && o->pdu_len < sizeof(o->pdu); k++) {
			if (h[k] == ' ' || !h[k])
				continue;
			o->pdu[o->pdu_len++] = (u8)(hexval(h[k]) << 4 | hexval(h[k + 1]));
			k++;
		}
	} else
		o->action |= TC(TC_FS);
}

/* An event naming its device and sector. */
static int ev_io(u32 cpu, const u8 *data, u32 len, const struct tev *e, struct task *t, struct evrec *o)
{
	char rwbs[16];

	o->sector = field(data, e, F_SECTOR);
	/* a flush has no sector: the tracepoint says -1, blktrace 0 */
	if (o->sector == ~0ull)
		o->sector = 0;
	if (!(o->d = dev_of((u32)field(data, e, F_DEV), o->sector)))
		return -1;
	text(data, e, F_RWBS, rwbs, sizeof(rwbs));
	o->action |= rwbs_bits(rwbs);
	o->bytes = e->off[F_BYTES] >= 0 ? (u32)field(data, e, F_BYTES) : (u32)field(data, e, F_NR) << 9;
	if ((o->action & 0xffff) == TA_QUEUE || (o->action & 0xffff) == TA_GETRQ) {
		t->dev = (u16)(o->d - C.dev);
		last_dev[cpu] = t->dev;
	}
	if (e->off[F_ERROR] >= 0)
		o->error = (u16)field(data, e, F_ERROR);
	switch (o->action & 0xffff) {
	case TA_INSERT: case TA_ISSUE: case TA_COMPLETE: case TA_REQUEUE:
		pdu_cmd(data, len, e, o);
		break;
	case TA_SPLIT:
		be_store(o->pdu, field(data, e, F_NEW), 8);
		o->pdu_len = 8;
		break;
	case TA_REMAP:
		be_store(o->pdu, (u32)field(data, e, F_OLDDEV), 4);
		be_store(o->pdu + 4, (u32)field(data, e, F_DEV), 4);
		be_store(o->pdu + 8, field(data, e, F_OLDSEC), 8);
		o->pdu_len = 16;
		break;
	}
	return 0;
}

/* One tracepoint event -> one blktrace record (plus its PROCESS note). */
static void event(u32 cpu, u64 time, const u8 *data, u32 len)
{
	u16 type;
	u32 pid, i;
	const struct tev *e = NULL;
	struct task *t;
	struct evrec o;
	char comm[20];

	if (len < 8)
		return;
	memcpy(&type, data, 2);
	memcpy(&pid, data + 4, 4);
	for (i = 0; i < TP_NEV; i++)
		if (tp_ev[i].id == type) {
			e = &tp_ev[i];
			break;
		}
	if (!e || len < e->min_len)
		return;
	t = task(pid);
	text(data, e, F_COMM, comm, sizeof(comm));
	comm_of(t, comm);
	memset(&o, 0, offsetof(struct evrec, pdu));
	o.action = e->act;
	if ((o.action & 0xffff) == TA_PLUG || (o.action & 0xffff) == TA_UNPLUG_IO) {
		if (ev_plug(cpu, time, data, e, t, &o))
			return;
	} else if (ev_io(cpu, data, len, e, t, &o))
		return;
	if (C.cfg.mask && !((o.action >> TC_SHIFT) & C.cfg.mask))
		return;
	process_note(o.d, cpu, time, t);
	emit(o.d, cpu, time, pid, o.action, o.sector, o.bytes, o.error, o.pdu, o.pdu_len);
}

/* One ring-buffer page: header, then events with 27-bit time deltas. */
u64 tp_page(u32 cpu, const u8 *p, u32 n)
{
	u64 ts, commit = 0, missed = 0;
	u32 off, size;
	int le = 1;

	if (n < tp_data_off)
		return 0;
	memcpy(&ts, p, 8);
	memcpy(&commit, p + 8, tp_commit_size);
	if (*(const u8 *)&le == 0 && tp_commit_size == 4)
		commit >>= 32;
	size = (u32)(commit & ((1u << 27) - 1));
	if (commit & (1ull << 31)) {	/* RB_MISSED_EVENTS; count stored after the data */
		missed = 1;
		if ((commit & (1ull << 30)) && tp_data_off + size + tp_commit_size <= n) {
			u64 m = 0;

			memcpy(&m, p + tp_data_off + size, tp_commit_size);
			missed = m;
		}
	}
	if (size > n - tp_data_off)
		size = n - tp_data_off;
	for (off = tp_data_off; off + 4 <= tp_data_off + size;) {
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
		if (off + 8 <= tp_data_off + size)
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
			if (arr < 4 || off + 4 + arr > tp_data_off + size)
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

/* TIMESTAMP note: wall clock at a known trace time, as relay writes. */
void tp_timestamp_note(void)
{
	struct timespec mono, real;
	u32 pdu[2];
	u32 i;

	clock_now(CLOCK_MONOTONIC, &mono);
	clock_now(CLOCK_REALTIME, &real);
	pdu[0] = (u32)real.tv_sec;
	pdu[1] = (u32)real.tv_nsec;
	for (i = 0; i < C.ndev; i++)
		emit(&C.dev[i], 0, (u64)mono.tv_sec * 1000000000u + (u64)mono.tv_nsec, 0, TN_TIMESTAMP,
		     0, 0, 0, (const u8 *)pdu, 8);
}
