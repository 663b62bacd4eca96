/*
 * gentrace.c: write synthetic but realistic blktrace traces, deterministic
 * from a seed, for iomon's tests.  cc -O2 -Wall -Wextra -o tests/tools/gentrace ...
 *
 * Why: the captures in tests/fixtures show what one kernel did on one day;
 * the parser must survive anything a kernel may write, at any size, in all
 * four forms (version 7 or 8 records, little- or big-endian).  The same seed
 * and options give the same logical records whatever -B, -8, -P or -S say, so
 * a test feeds the v7 little-endian form to Debian's blkparse (the oracle) and
 * the other forms to iomon, and expects the same text.
 *
 * What a trace holds: request lifecycles, randomly interleaved, each file's
 * records in time order, sequence numbers per CPU from 1 (notes carry 0):
 *  - Q (A remap, B bounce, X split, S sleeprq) G (M/F merges) I D C, plugging
 *    P and unplug U/UT with the depth, requeue R then a new D, DRV_DATA after
 *    D, completion errors (-5, -28, ... as u16), empty flushes;
 *  - every RWBS combination: F(flush) x D/W/R/N x F(FUA) x A x S x M (128),
 *    sizes of any byte count (also not multiples of 512 or 1024), sectors up
 *    to 2^40 (but X splits below 2^31: blkparse prints the split point as a
 *    u32), pids up to 4,000,000;
 *  - SCSI passthrough (PC) requests carrying a CDB through Q G I D R C;
 *  - notes: a TIMESTAMP first in each device's CPU 0 file, a PROCESS note
 *    before a task's first record in each file (two tasks are never named:
 *    blkparse prints "(null)"; one task, pinned to CPU 0 of the first device,
 *    is renamed halfway: blkparse keeps the first name), MESSAGE notes with
 *    and without a cgroup id (blkparse 1.2.0 ignores the latter silently).
 * Category bits follow what the 6.1 and 7.2 kernels wrote in the fixtures:
 * bio events (Q M F G S B A) carry QUEUE + the request flags, X only the
 * flags, request events I D C R add FS (or PC), P U UT are QUEUE|READ,
 * DRV_DATA is DRV_DATA|READ, zone (un)plug records QUEUE|READ.
 * No ABORT: blkparse 1.2.0 calls it "Bad fs action".
 *
 * Options: -s SEED (1), -n EVENTS (about 2000), -c CPUS (2), -o NAME (gen:
 * DIR/NAME.blktrace.CPU, or NAME-0 and NAME-1 with two devices), -D DIR (.),
 * -d MAJ,MIN (8,0; twice for two devices), -B big-endian, -8 version 8
 * records (-P: zero their pad bytes, as tools/traceconv.py does), -S one piped
 * stream on stdout (per-CPU chunks, as blktrace -o -), -g drop some records
 * (sequence gaps; only blkparse's pipe mode notices), -T exact time ties
 * across CPUs (otherwise every file has its own ns offset), and, off unless
 * asked because blkparse 1.2.0 cannot show them:
 *  -G  cgroup ids (action bit 0x100, 8 native-order bytes leading the pdu) on
 *      ordinary events: blkparse prints "Bad fs action" ("Bad pc action"),
 *      drops the line and counts it.  tools/traceconv.py does not swap these.
 *  -z  zone operations (action bits 32-37 on Q G D C, actions 18 and 19):
 *      version 8 only.  Version 7 output leaves those records out and their
 *      sequence numbers unused, as tools/traceconv.py does.
 *
 * Summary on stderr: "gentrace: seed S, N records, M notes".  N is what
 * blkparse counts as events (every record that is not a note, and MESSAGE
 * notes without cgroup id); M is the other notes.  N + M records were written.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* actions (low 16 bits) and categories (bit n of action >> 16) */
enum { A_Q = 1, A_M, A_F, A_G, A_S, A_R, A_D, A_C, A_P, A_U, A_UT, A_I, A_X,
       A_B, A_A, A_ABORT, A_DRV, A_ZPLUG, A_ZUNPLUG };
enum { T_READ, T_WRITE, T_FLUSH, T_SYNC, T_QUEUE, T_REQUEUE, T_ISSUE,
       T_COMPLETE, T_FS, T_PC, T_NOTIFY, T_AHEAD, T_META, T_DISCARD, T_DRV,
       T_FUA, T_ZAPPEND, T_ZRESET, T_ZRESETALL, T_ZFINISH, T_ZOPEN, T_ZCLOSE };
#define TC(b)	((uint64_t)1 << (16 + (b)))
#define CGROUP	0x100
enum { N_PROCESS, N_TIMESTAMP, N_MESSAGE };

#define MAXCPU	64
#define NAPP	8			/* tasks 0..7; kworker of CPU c is NAPP + c */
#define NTASK	(NAPP + MAXCPU)
#define KW(c)	(NAPP + (c))
#define MAXEV	128
#define MAXACT	6

struct rec {				/* one record, in no particular byte order */
	uint64_t time, sector, action, nat;	/* nat: cgroup id or sec<<32|nsec */
	uint32_t seq, bytes, pid, dev, cpu;
	int task;			/* whose PROCESS note it needs; -1: none */
	uint16_t err, blen;		/* blen: pdu bytes after the native part */
	uint8_t natkind, v8only, drop;	/* natkind: 0, 1 u64 cgroup id, 2 two u32 */
	unsigned char pdu[64];
};
struct lane {				/* one device's records on one CPU */
	struct rec *r;
	size_t n, cap;
	uint64_t lastg;			/* clock tick of the last record */
	uint32_t seq;
	unsigned char noted[NTASK];	/* PROCESS note written, per task */
};
struct task { uint32_t pid; char name[16]; int cpu, named; };
struct job { struct rec e[MAXEV]; int n, i, dev; };	/* records to come */
struct req {				/* a request being built; fl: flags */
	uint64_t sec, fl;
	uint32_t bytes;
	int cpu, task, pc, clen;
	unsigned char cdb[16];
};

static int ncpu = 2, ndev, opt_be, opt_v8, opt_stream, opt_zone, opt_gaps;
static int opt_ties, opt_zeropad, opt_cgroup;
static uint32_t devs[2];
static struct lane *lanes;
static struct task tasks[NTASK];
static uint64_t rs[4];			/* generator, stream chunks, pad, drops */
static uint64_t g, t0, made, cursor[NTASK];
static int lastlane = -1, ncombo, nmerge, nerr, nplug;
static unsigned long nrec, nnote;

static uint64_t rnext(int k)		/* splitmix64: same on every platform */
{
	uint64_t z = (rs[k] += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}
static uint64_t rnd(uint64_t n) { return rnext(0) % n; }

static void die(const char *what) { perror(what); exit(1); }
static void be(unsigned char *p, uint64_t v, int n)	/* big-endian pdu data */
{
	for (; n--; v >>= 8)
		p[n] = (unsigned char)v;
}

/* ---- timing and files: every record goes through put() ---- */

static void put(int dev, int cpu, struct rec *r)
{
	int li = dev * ncpu + cpu;
	struct lane *l = &lanes[li];

	/* -T: now and then keep the clock so that another CPU ties exactly */
	if (!(opt_ties && li != lastlane && l->lastg < g && rnd(3) == 0))
		g += 1 + rnd(3000);
	l->lastg = g;
	lastlane = li;
	/* no -T: distinct ns offsets, so no two files ever share a time */
	r->time = t0 + g * (uint64_t)(ndev * ncpu) + (opt_ties ? 0 : (uint64_t)li);
	r->dev = devs[dev];
	r->cpu = (uint32_t)cpu;
	if (!(r->action & TC(T_NOTIFY))) {
		r->seq = ++l->seq;
		r->v8only = (r->action >> 32) || (r->action & 0xff) >= A_ZPLUG;
		if (opt_gaps && r->seq > 2 && rnext(3) % 40 == 0)
			r->drop = 1;
	}
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		if (!(l->r = realloc(l->r, l->cap * sizeof *l->r)))
			die("gentrace");
	}
	l->r[l->n++] = *r;
}

static void note_process(int dev, int cpu, int t)
{
	struct rec r = { .action = TC(T_NOTIFY) | N_PROCESS, .pid = tasks[t].pid,
			 .blen = 16 };

	strncpy((char *)r.pdu, tasks[t].name, 16);	/* NUL padded */
	lanes[dev * ncpu + cpu].noted[t] = 1;
	put(dev, cpu, &r);
}

static void step(struct job *j)		/* time and write a job's next record */
{
	struct rec *r = &j->e[j->i++];
	int cpu = (int)r->cpu;

	if (r->task >= 0 && tasks[r->task].named &&
	    !lanes[j->dev * ncpu + cpu].noted[r->task])
		note_process(j->dev, cpu, r->task);
	put(j->dev, cpu, r);
	if (!(r->action & TC(T_NOTIFY)))
		made++;
}

/* ---- building jobs: each is a list of steps in lifecycle order ---- */

static struct rec *add(struct job *j, int act, uint64_t cat, uint64_t sec,
		       uint32_t bytes, int cpu, int task)
{
	struct rec *e = &j->e[j->n < MAXEV - 1 ? j->n++ : j->n];

	*e = (struct rec){ .action = (uint64_t)act | cat, .sector = sec,
			   .bytes = bytes, .cpu = (uint32_t)cpu, .task = task,
			   .pid = task >= 0 ? tasks[task].pid : 0 };	/* -1: irq */
	return e;
}

static struct rec *cdb(struct rec *e, const struct req *r)
{
	memcpy(e->pdu, r->cdb, (size_t)r->clen);
	e->blen = (uint16_t)r->clen;
	return e;
}

static uint32_t pick_size(void)
{
	switch (rnd(20)) {
	case 0: return 1 + (uint32_t)rnd(8191);		/* any byte count */
	case 1: case 2: return 512 * (2 * (uint32_t)rnd(64) + 1); /* odd sectors */
	case 3: return (1 + (uint32_t)rnd(16)) << 20;
	default: return 4096 * (1 + (uint32_t)rnd(32));
	}
}

static void make_req(struct req *r, int task, int cpu)
{
	static const uint64_t common[] = {
		TC(T_READ), TC(T_READ) | TC(T_SYNC), TC(T_WRITE),
		TC(T_WRITE) | TC(T_SYNC), TC(T_READ) | TC(T_AHEAD),
		TC(T_READ) | TC(T_META), TC(T_WRITE) | TC(T_SYNC) | TC(T_META),
		TC(T_WRITE) | TC(T_SYNC) | TC(T_FLUSH) | TC(T_FUA) | TC(T_META),
		TC(T_WRITE) | TC(T_DISCARD) | TC(T_SYNC),
	};
	int dir;

	*r = (struct req){ .task = task, .cpu = cpu };
	if (ncombo < 128 && rnd(3)) {		/* walk all 128 RWBS combinations */
		int c = ncombo++;
		dir = c & 3;			/* R W D(iscard) N */
		r->fl = TC(dir == 1 || dir == 2 ? T_WRITE : T_READ) |
			(dir == 2 ? TC(T_DISCARD) : 0) |
			(c & 4 ? TC(T_FLUSH) : 0) | (c & 8 ? TC(T_FUA) : 0) |
			(c & 16 ? TC(T_AHEAD) : 0) | (c & 32 ? TC(T_SYNC) : 0) |
			(c & 64 ? TC(T_META) : 0);
	} else {
		r->fl = common[rnd(sizeof common / sizeof common[0])];
		dir = r->fl & TC(T_DISCARD) ? 2 : 0;
	}
	r->bytes = dir == 3 ? 0 : dir == 2 ? (1 + (uint32_t)rnd(64)) << 20 : pick_size();
	if (rnd(2)) {
		r->sec = rnd((1ULL << 40) - (1ULL << 16));
	} else {
		r->sec = cursor[task];
		cursor[task] += r->bytes / 512 + 8;
	}
}

static void make_pc(struct req *r, int task, int cpu)
{
	static const unsigned char cdbs[][17] = {	/* len, then the CDB */
		{ 10, 0x28, 0, 0, 0, 0x10, 0, 0, 0, 8, 0 },	/* READ(10) */
		{ 10, 0x2a, 0, 0, 1, 0, 0, 0, 0, 16, 0 },	/* WRITE(10) */
		{ 6, 0x12, 0, 0, 0, 36, 0 },			/* INQUIRY */
		{ 6, 0, 0, 0, 0, 0, 0 },			/* TEST UNIT READY */
		{ 6, 0x1a, 0, 0x3f, 0, 0xc0, 0 },		/* MODE SENSE(6) */
		{ 16, 0x88, 0, 0, 0, 0, 1, 0x23, 0x45, 0x67, 0x89, 0, 0, 0, 0x40, 0, 0 },
		{ 10, 0x35, 0, 0, 0, 0, 0, 0, 0, 0, 0 },	/* SYNCHRONIZE CACHE */
		{ 16, 0x85, 0x08, 0x0e, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xa0, 0xec, 0 },
	};
	static const uint32_t bytes[] = { 4096, 8192, 36, 0, 192, 32768, 0, 512 };
	int k = (int)rnd(8);

	*r = (struct req){ .task = task, .cpu = cpu, .pc = 1, .bytes = bytes[k],
			   .fl = TC(k == 1 ? T_WRITE : T_READ), .clen = cdbs[k][0] };
	memcpy(r->cdb, cdbs[k] + 1, (size_t)r->clen);
	if (rnd(3) == 0)
		r->clen = 16;			/* whole cmd buffer: trailing zeros */
}

enum { O_SPLIT = 1, O_REMAP = 2, O_BOUNCE = 4, O_SLEEP = 8, O_MERGE = 16,
       O_INSERT = 32, O_REQUEUE = 64, O_DRV = 128, O_ERR = 256 };

/* bio side: A Q B X S G M/F; returns the request(s) left, 2 after a split */
static int pre(struct job *j, const struct req *r, struct req *part, int o)
{
	uint64_t q = TC(T_QUEUE) | r->fl | (r->pc ? TC(T_PC) : 0);
	int c = r->cpu, t = r->task, n = 1;

	part[0] = *r;
	if (r->pc) {
		cdb(add(j, A_Q, q, r->sec, r->bytes, c, t), r);
		cdb(add(j, A_G, q, r->sec, r->bytes, c, t), r);
		return 1;
	}
	if (o & O_REMAP) {			/* from a partition or a dm device */
		struct rec *e = add(j, A_A, q, r->sec, r->bytes, c, t);
		uint32_t from = rnd(2) ? devs[j->dev] + 1 + (uint32_t)rnd(7)
				       : (253u << 20) + (uint32_t)rnd(4);
		uint64_t off = rnd(2) ? 2048 : 0;
		be(e->pdu, from, 4);
		be(e->pdu + 4, devs[j->dev], 4);
		be(e->pdu + 8, r->sec >= off ? r->sec - off : r->sec, 8);
		e->blen = 16;
	}
	add(j, A_Q, q, r->sec, r->bytes, c, t);
	if (o & O_BOUNCE)
		add(j, A_B, q, r->sec, r->bytes, c, t);
	if ((o & O_SPLIT) && r->bytes >= 8192) {
		uint32_t first = r->bytes / 1024 * 512;
		struct rec *e = add(j, A_X, r->fl, r->sec, first, c, t);
		be(e->pdu, r->sec + first / 512, 8);
		e->blen = 8;
		part[0].bytes = first;
		part[1] = *r;
		part[1].sec += first / 512;
		part[1].bytes -= first;
		n = 2;
	}
	if (o & O_SLEEP)
		add(j, A_S, q, part[0].sec, part[0].bytes, c, t);
	for (int i = 0; i < n; i++)
		add(j, A_G, q, part[i].sec, part[i].bytes, c, t);
	if ((o & O_MERGE) && n == 1 && r->bytes && r->bytes % 512 == 0) {
		for (int k = 1 + (int)rnd(3); k > 0; k--) {
			uint32_t b = 4096 * (1 + (uint32_t)rnd(4));
			uint64_t s = part[0].sec + part[0].bytes / 512;
			int front = nmerge++ % 3 == 1 && part[0].sec >= b / 512;
			if (front)
				s = part[0].sec -= b / 512;
			add(j, A_Q, q, s, b, c, t);
			add(j, front ? A_F : A_M, q, s, b, c, t);
			part[0].bytes += b;
		}
	}
	return n;
}

/* request side: I D (DRV_DATA) (R D) C */
static void post(struct job *j, const struct req *r, int o)
{
	static const int errs[] = { -5, -28, -61, -110, -95, -12, -16, -121 };
	uint64_t kind = r->pc ? TC(T_PC) : TC(T_FS);
	int dc = r->task == 0 ? 0 : rnd(3) ? r->cpu : (int)rnd((uint64_t)ncpu);
	int dt = dc == r->cpu && rnd(2) ? r->task : KW(dc);
	int cc = r->task == 0 ? 0 : (int)rnd((uint64_t)ncpu);
	struct rec *e;

	if (o & O_INSERT)
		cdb(add(j, A_I, kind | TC(T_QUEUE) | r->fl, r->sec, r->bytes, r->cpu, r->task), r);
	cdb(add(j, A_D, kind | TC(T_ISSUE) | r->fl, r->sec, r->bytes, dc, dt), r);
	if (o & O_DRV) {
		e = add(j, A_DRV, TC(T_DRV) | TC(T_READ), r->sec, r->bytes, dc, dt);
		e->blen = 4 + (uint16_t)rnd(21);
		for (int i = 0; i < e->blen; i++)
			e->pdu[i] = (unsigned char)rnd(256);
	}
	if (o & O_REQUEUE) {
		cdb(add(j, A_R, kind | TC(T_REQUEUE) | r->fl, r->sec, r->bytes, dc, KW(dc)), r);
		cdb(add(j, A_D, kind | TC(T_ISSUE) | r->fl, r->sec, r->bytes, dc, KW(dc)), r);
	}
	e = cdb(add(j, A_C, kind | TC(T_COMPLETE) | r->fl, r->sec, r->bytes, cc,
		    rnd(3) ? -1 : KW(cc)), r);
	if (o & O_ERR)
		e->err = (uint16_t)errs[nerr++ % 8];
}

/* Note: never two rnd() calls in one expression, whose order C leaves open. */
static int rand_opts(void)
{
	static const int odds[][2] = { { 12, O_SPLIT }, { 12, O_REMAP },
		{ 30, O_BOUNCE }, { 20, O_SLEEP }, { 5, O_MERGE }, { 2, O_INSERT },
		{ 25, O_REQUEUE }, { 15, O_DRV }, { 12, O_ERR } };
	int o = 0;

	for (int i = 0; i < 9; i++)
		o |= rnd((uint64_t)odds[i][0]) ? 0 : odds[i][1];
	return o;
}

static void build_req(struct job *j, int t, int c, int o)
{
	struct req r, part[2];
	int n;

	make_req(&r, t, c);
	if ((o & O_SPLIT) && r.bytes) {	/* blkparse prints the split */
		r.sec %= 1ULL << 31;		/* sector as a u32: keep it small */
		r.bytes += r.bytes < 8192 ? 65536 : 0;
	}
	n = pre(j, &r, part, o);
	for (int i = 0; i < n; i++)
		post(j, &part[i], o);
}

static void build_plug(struct job *j, int t, int c)
{
	struct req r[5], part[5][2];
	int k = 2 + (int)rnd(4);
	struct rec *e;

	add(j, A_P, TC(T_QUEUE) | TC(T_READ), 0, 0, c, t);
	for (int i = 0; i < k; i++) {
		make_req(&r[i], t, c);
		pre(j, &r[i], part[i], rnd(4) ? 0 : O_MERGE);
	}
	e = add(j, nplug++ % 2 ? A_UT : A_U, TC(T_QUEUE) | TC(T_READ), 0, 0, c, t);
	be(e->pdu, (uint64_t)k, 8);
	e->blen = 8;
	for (int i = 0; i < k; i++)
		post(j, &part[i][0], (rand_opts() & ~O_SPLIT) | O_INSERT);
}

static void build_flush(struct job *j, int t, int c)
{
	uint64_t fl = TC(T_WRITE) | TC(T_SYNC) | TC(T_FLUSH);
	uint64_t dfl = TC(T_FS) | TC(T_FLUSH) | TC(T_READ);	/* "FN" */
	int dc = t == 0 ? 0 : (int)rnd((uint64_t)ncpu);

	add(j, A_Q, TC(T_QUEUE) | fl, 0, 0, c, t);
	add(j, A_G, TC(T_QUEUE) | fl, 0, 0, c, t);
	if (rnd(2))
		add(j, A_I, TC(T_FS) | TC(T_QUEUE) | fl, 0, 0, c, t);
	add(j, A_D, dfl | TC(T_ISSUE), 0, 0, dc, KW(dc));
	add(j, A_C, dfl | TC(T_COMPLETE), 0, 0, dc, KW(dc));
	add(j, A_C, TC(T_FS) | TC(T_COMPLETE) | TC(T_WRITE) | TC(T_SYNC), 0, 0, dc, -1);
}

static void build_msg(struct job *j, int t, int c, int cg)
{
	static const char *fmt[] = { "bfq%u%c   dispatch_one: %u",
		"throtl schedule timer. delay=%u jiffies=%c%u",
		"cfq%u%c slice expired t=%u", "gentrace message %u%c, %u%% done" };
	static unsigned n;
	struct rec *e = add(j, N_MESSAGE, TC(T_NOTIFY), 0, 0, c, -1);
	int len;

	n++;
	e->pid = tasks[t].pid;			/* no PROCESS note for messages */
	len = snprintf((char *)e->pdu, sizeof e->pdu, fmt[n % 4], n, "ASW"[n % 3],
		       (unsigned)rnd(100000));
	e->blen = (uint16_t)(len < (int)sizeof e->pdu ? len : (int)sizeof e->pdu - 1);
	e->nat = 1 + rnd(1u << 20);
	if (cg) {				/* cgroup id, then the text */
		e->action |= CGROUP;
		e->natkind = 1;
	}
}

static void build_zone(struct job *j, int t, int c, int kind)
{
	uint64_t zone = rnd(1024) * 524288, q = TC(T_QUEUE);	/* 256 MiB zones */
	uint64_t fl = TC(T_WRITE) | TC(T_SYNC);
	uint32_t b = kind ? 4096 * (1 + (uint32_t)rnd(16)) : 0;
	int dc = t == 0 ? 0 : (int)rnd((uint64_t)ncpu), gc = c, gt = t;

	if (kind == 0) {			/* reset, reset all, finish, open, close */
		int op = T_ZRESET + (int)rnd(5);
		fl |= TC(op);
		zone = op == T_ZRESETALL ? 0 : zone;
	}
	if (kind == 1)				/* zone append */
		fl |= TC(T_ZAPPEND);
	if (kind == 2)				/* a write held by a zone write plug */
		zone += rnd(4096) * 8;
	add(j, A_Q, q | fl, zone, b, c, t);
	if (kind == 2) {
		add(j, A_ZPLUG, q | TC(T_READ), zone, b, c, t);
		add(j, A_ZUNPLUG, q | TC(T_READ), zone, b, dc, KW(dc));
		gc = dc, gt = KW(dc);
	}
	add(j, A_G, q | fl, zone, b, gc, gt);
	add(j, A_D, TC(T_FS) | TC(T_ISSUE) | fl, zone, b, dc, KW(dc));
	add(j, A_C, TC(T_FS) | TC(T_COMPLETE) | fl,	/* append: where it landed */
	    kind == 1 ? zone + rnd(65536) * 8 : zone, b, dc, -1);
}

enum { K_REQ, K_SPLIT, K_REMAP, K_BOUNCE, K_SLEEP, K_MERGE, K_REQUEUE, K_DRV,
       K_ERR, K_PLUG, K_FLUSH, K_PC, K_PCREQ, K_MSG, K_MSGCG, K_ZMGMT,
       K_ZAPPEND, K_ZPLUG, NKIND };

static struct job *new_job(void)
{
	static const int forced[] = { 0, O_SPLIT, O_REMAP, O_BOUNCE, O_SLEEP,
		O_MERGE, O_REQUEUE, O_DRV, O_ERR };
	static unsigned long njobs;
	struct job *j = calloc(1, sizeof *j);
	int nk = opt_zone ? NKIND : K_ZMGMT, kind, t, c, o;
	struct req r, part[2];

	if (!j)
		die("gentrace");
	if (njobs < 3 * (unsigned long)nk) {	/* every kind early on */
		kind = (int)(njobs % (unsigned long)nk);
	} else {
		int x = (int)rnd(100);
		kind = x < 62 ? K_REQ : x < 74 ? K_PLUG : x < 79 ? K_FLUSH :
		       x < 87 ? (rnd(4) ? K_PC : K_PCREQ) :
		       x < 92 ? (rnd(3) ? K_MSG : K_MSGCG) :
		       opt_zone ? K_ZMGMT + (int)rnd(3) : K_REQ;
	}
	njobs++;
	t = (int)rnd(NAPP);
	if ((t == 1 || t == 2) && rnd(4))	/* the unnamed ones: now and then */
		t = 3 + (int)rnd(NAPP - 3);
	j->dev = t == 0 || ndev == 1 ? 0 : (int)rnd((uint64_t)ndev);
	c = t == 0 ? 0 : rnd(8) ? tasks[t].cpu : (int)rnd((uint64_t)ncpu);
	switch (kind) {
	case K_PLUG: build_plug(j, t, c); break;
	case K_FLUSH: build_flush(j, t, c); break;
	case K_PC: case K_PCREQ:
		make_pc(&r, t, c);
		pre(j, &r, part, 0);
		o = rnd(2) ? O_INSERT : 0;
		o |= rnd(10) ? 0 : O_ERR;
		post(j, &r, o | (kind == K_PCREQ ? O_REQUEUE : 0));
		break;
	case K_MSG: case K_MSGCG: build_msg(j, t, c, kind == K_MSGCG); break;
	case K_ZMGMT: case K_ZAPPEND: case K_ZPLUG:
		build_zone(j, t, c, kind - K_ZMGMT);
		break;
	default:
		build_req(j, t, c, kind == K_REQ ? rand_opts() : forced[kind] | rand_opts());
	}
	if (opt_cgroup && kind != K_MSG && kind != K_MSGCG && rnd(5) == 0) {
		uint64_t cgid = 1 + rnd(1u << 20);
		for (int i = 0; i < j->n; i++) {
			int a = (int)(j->e[i].action & 0xff);
			if (a != A_P && a != A_U && a != A_UT) {	/* no bio there */
				j->e[i].action |= CGROUP;
				j->e[i].natkind = 1;
				j->e[i].nat = cgid;
			}
		}
	}
	return j;
}

static void setup_tasks(void)
{
	static const char *names[NAPP] = { "postgres", "", "", "fio",
		"jbd2/nvme0n1p2-", "Web Content", "dd", "kworker/u16:3" };

	for (int i = 0; i < NAPP + ncpu; i++) {
		struct task *k = &tasks[i];
		int dup = 1;
		while (dup) {			/* a pid no other task has */
			k->pid = i == 3 ? 4000000 : i >= NAPP ? 10 + (uint32_t)rnd(2000)
						     : 2 + (uint32_t)rnd(3999998);
			dup = 0;
			for (int m = 0; m < i; m++)
				dup |= tasks[m].pid == k->pid;
		}
		if (i < NAPP)
			snprintf(k->name, sizeof k->name, "%s", names[i]);
		else
			snprintf(k->name, sizeof k->name, "kworker/%d:1H", i - NAPP);
		k->named = i != 1 && i != 2;	/* 1 and 2: "(null)" */
		k->cpu = i >= NAPP ? i - NAPP : i == 0 ? 0 : (int)rnd((uint64_t)ncpu);
		cursor[i] = rnd(1ULL << 24) * 8;
	}
}

/* ---- output ---- */

static unsigned char *wn(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[opt_be ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
	return p + n;
}

static void write_rec(FILE *f, const struct rec *r)
{
	/* struct blk_io_trace (v7, 48 bytes) and blk_io_trace2 (v8, 64 bytes) */
	static const int w7[] = { 4, 4, 8, 8, 4, 4, 4, 4, 4, 2, 2 };
	static const int w8[] = { 4, 4, 8, 8, 4, 4, 8, 4, 4, 2, 2 };
	uint64_t magic = 0x65617400u | (opt_v8 ? 8 : 7), plen = r->blen + (r->natkind ? 8u : 0u);
	uint64_t v7[] = { magic, r->seq, r->time, r->sector, r->bytes,
			  (uint32_t)r->action, r->pid, r->dev, r->cpu, r->err, plen };
	uint64_t v8[] = { magic, r->seq, r->time, r->sector, r->bytes, r->pid,
			  r->action, r->dev, r->cpu, r->err, plen };
	unsigned char buf[160], *p = buf;

	if (r->drop || (r->v8only && !opt_v8))
		return;
	for (int i = 0; i < 11; i++)
		p = wn(p, opt_v8 ? v8[i] : v7[i], opt_v8 ? w8[i] : w7[i]);
	for (int i = 0; opt_v8 && i < 12; i++)	/* pad: kernels do not zero it */
		*p++ = opt_zeropad ? 0 : (unsigned char)rnext(2);
	if (r->natkind == 1)			/* cgroup id: writer's order */
		p = wn(p, r->nat, 8);
	else if (r->natkind == 2)		/* timestamp: u32 sec, u32 nsec */
		p = wn(wn(p, r->nat >> 32, 4), r->nat & 0xffffffffu, 4);
	memcpy(p, r->pdu, r->blen);
	p += r->blen;
	if (fwrite(buf, (size_t)(p - buf), 1, f) != 1)
		die("gentrace: write");
	if (!(r->action & TC(T_NOTIFY)) || r->action == (TC(T_NOTIFY) | N_MESSAGE))
		nrec++;				/* what blkparse counts as events */
	else
		nnote++;
}

static void write_stream(void)		/* blktrace -o -: per-CPU chunks */
{
	int nl = ndev * ncpu;
	size_t *pos = calloc((size_t)nl, sizeof *pos);

	for (;;) {
		int best = -1;
		for (int i = 0; i < nl; i++)
			if (pos[i] < lanes[i].n && (best < 0 ||
			    lanes[i].r[pos[i]].time < lanes[best].r[pos[best]].time))
				best = i;
		if (best < 0)
			break;
		for (uint64_t k = 16 + rnext(1) % 48; k && pos[best] < lanes[best].n; k--)
			write_rec(stdout, &lanes[best].r[pos[best]++]);
	}
	free(pos);
}

static void usage(void)
{
	fprintf(stderr, "usage: gentrace [-s SEED] [-n EVENTS] [-c CPUS] [-o NAME] [-D DIR]\n"
		"  [-d MAJ,MIN [-d MAJ,MIN]] [-B] [-8] [-P] [-S] [-z] [-g] [-T] [-G]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long long seed = 1, target = 2000;
	const char *name = "gen", *dir = ".";
	int opt;

	static const char flags[] = "B8PSzgTG";
	int *flagvar[] = { &opt_be, &opt_v8, &opt_zeropad, &opt_stream, &opt_zone,
			   &opt_gaps, &opt_ties, &opt_cgroup };

	while ((opt = getopt(argc, argv, "s:n:c:o:D:d:B8PSzgTG")) != -1) {
		unsigned maj = 0, min = 0;
		switch (opt) {
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'n': target = strtoull(optarg, NULL, 0); break;
		case 'c': ncpu = atoi(optarg); break;
		case 'o': name = optarg; break;
		case 'D': dir = optarg; break;
		case 'd':
			if (ndev == 2 || sscanf(optarg, "%u,%u", &maj, &min) != 2 ||
			    maj >= 4096 || min >= (1u << 20))
				usage();
			devs[ndev++] = maj << 20 | min;
			break;
		default:
			if (opt == '?' || !strchr(flags, opt))
				usage();
			*flagvar[strchr(flags, opt) - flags] = 1;
		}
	}
	if (optind != argc || ncpu < 1 || ncpu > MAXCPU)
		usage();
	if (!ndev)
		devs[ndev++] = 8u << 20;
	for (int k = 0; k < 4; k++)
		rs[k] = seed * 4 + (uint64_t)k;
	lanes = calloc((size_t)(ndev * ncpu), sizeof *lanes);
	setup_tasks();
	t0 = 1000000000ULL * (2 + rnd(60));
	t0 += rnd(1000000000);

	for (int d = 0; d < ndev; d++) {	/* TIMESTAMP first, CPU 0 */
		struct rec r = { .action = TC(T_NOTIFY) | N_TIMESTAMP, .natkind = 2,
				 .nat = (1700000000 + rnd(100000000)) << 32 };
		r.nat |= rnd(1000000000);
		put(d, 0, &r);
	}
	struct job *act[MAXACT];
	int nact = 0, renamed = 0;
	while (made < target || nact) {
		if (made < target && (nact == 0 || (nact < MAXACT && rnd(4) == 0)))
			act[nact++] = new_job();
		int k = (int)rnd((uint64_t)nact);
		step(act[k]);
		if (act[k]->i == act[k]->n) {
			free(act[k]);
			act[k] = act[--nact];
		}
		if (!renamed && made >= target / 2 && lanes[0].noted[0]) {
			snprintf(tasks[0].name, sizeof tasks[0].name, "pg_walwriter");
			note_process(0, 0, 0);	/* blkparse keeps "postgres" */
			renamed = 1;
		}
	}

	if (opt_stream && (write_stream(), fflush(stdout)))
		die("gentrace: stdout");
	for (int d = 0; d < ndev && !opt_stream; d++) {
		for (int c = 0; c < ncpu; c++) {
			char path[4096], sub[16] = "";
			FILE *f;
			if (ndev > 1)
				snprintf(sub, sizeof sub, "-%d", d);
			snprintf(path, sizeof path, "%s/%s%s.blktrace.%d", dir, name, sub, c);
			if (!(f = fopen(path, "wb")))
				die(path);
			for (size_t i = 0; i < lanes[d * ncpu + c].n; i++)
				write_rec(f, &lanes[d * ncpu + c].r[i]);
			if (fclose(f))
				die(path);
		}
	}
	fprintf(stderr, "gentrace: seed %llu, %lu records, %lu notes\n", seed, nrec, nnote);
	return 0;
}
