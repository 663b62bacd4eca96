/* output/bpevent.c: output: one record through blkparse's dump_trace: devices, CPUs, notes, accounting, -t timing, its line, -d */
#include <string.h>
#include <unistd.h>
#include "output/bp.h"

/* ---- devices and cpus ---- */

struct devinfo *dev_add(char *name, u32 dev)
{
	struct devinfo *d;

	if (P.ndevs == DEVS_MAX)
		return NULL;	/* counted where a record is dropped for it */
	d = &P.devs[P.ndevs];
	memset(d, 0, sizeof(*d));
	d->name = name;
	d->dev = dev;
	d->idx = P.ndevs++;
	return d;
}

/* blkparse's get_dev_info: an entry named by -i but not yet bound to a
 * device number takes the first device it is asked about. */
struct devinfo *dev_get(u32 dev)
{
	u32 i;

	for (i = 0; i < P.ndevs; i++) {
		if (!P.devs[i].dev)
			P.devs[i].dev = dev;
		if (P.devs[i].dev == dev)
			return &P.devs[i];
	}
	return dev_add(NULL, dev);
}

static struct cpuinfo overflow_cpu;

struct cpuinfo *cpu_get(struct devinfo *d, u32 cpu)
{
	u32 *link, i;
	struct cpuinfo *c;

	if (cpu < CPU_DIRECT && d->direct[cpu])
		return &P.cpus[d->direct[cpu] - 1];
	for (link = &d->cpus; *link; link = &P.cpus[*link - 1].next) {
		c = &P.cpus[*link - 1];
		if (c->cpu == cpu)
			return c;
		if (c->cpu > cpu)
			break;
	}
	if (P.ncpus == CPUS_MAX) {
		P.cpu_overflow++;
		memset(&overflow_cpu, 0, sizeof(overflow_cpu));
		overflow_cpu.cpu = cpu;
		return &overflow_cpu;
	}
	i = P.ncpus++;
	c = &P.cpus[i];
	c->cpu = cpu;
	c->next = *link;
	*link = i + 1;
	if (cpu < CPU_DIRECT)
		d->direct[cpu] = (u16)(i + 1);
	return c;
}

/* ---- notes, the binary dump ---- */

static void dump_rec(const struct rec *r, u64 time, u32 dev)
{
	struct rec h;

	if (!P.dumping)
		return;
	h = *r;
	/* Zone operations have no version-7 form; btt would misread them. */
	if ((r->action >> 32) || (ACT32(r) & 0xff) >= TA_ZONE_PLUG)
		if (!(ACT32(r) & TC(TC_NOTIFY)))
			return;
	h.time = time;
	h.dev = dev;
	rec_write(&P.dump, &h);
}

/* PROCESS and TIMESTAMP notes act when they are read, as in blkparse,
 * which is why names can show up on lines printed before them. */
void handle_note(const struct rec *r)
{
	u32 a = ACT32(r);

	if (a == TN_PROCESS)
		proc_add(r->pid, r->pdu, r->pdu_len);
	else if (a == TN_TIMESTAMP && r->pdu_len == 8) {
		P.start_ts = r->time;
		abs_start_sec = ne32_load(r->pdu, r->swapped);
		abs_start_nsec = ne32_load(r->pdu + 4, r->swapped);
	} else if (a == TN_MESSAGE)
		P.cg_msgs++;	/* a message with a cgroup id (REC_IS_BP_NOTE): not shown */
	dump_rec(r, r->time, r->dev);
}

/* ---- accounting: blkparse's account_* on the cpu and, with -s, the pid ---- */

static void account(struct cpuinfo *c, u32 pid, int base, int w, u64 n, u64 kb, u64 b)
{
	struct ppi *p;

	c->st[base + w] += n;
	c->st[base + 2 + w] += kb;
	c->st[base + 4 + w] += b;
	if (P.per_proc && (p = ppi_get(pid))) {
		p->st[base + w] += n;
		p->st[base + 2 + w] += kb;
		p->st[base + 4 + w] += b;
	}
}

static void account1(struct cpuinfo *c, u32 pid, int idx)
{
	struct ppi *p;

	c->st[idx]++;
	if (P.per_proc && (p = ppi_get(pid)))
		p->st[idx]++;
}

/* ---- -t tracking (blkparse's log_track_*) ---- */

static int is_remapper(const struct devinfo *d)
{
	return DEV_MAJOR(d->dev) == 253 || DEV_MAJOR(d->dev) == 9;
}

static struct track *track_new(struct devinfo *d, const struct rec *r, u64 sector)
{
	return track_get(d->idx, sector, r->pid);
}

/* A request made where a forgotten one may have been: blkparse's would
 * still hold that one's times and owner, so a figure from a time this one
 * never set, and any -s maximum (with another owner), may differ (a G or I time only where the
 * forgotten one had one: else blkparse's figure is the one from memory
 * never set that iomon leaves out anyway) */
static void reborn(const struct track *t, int unset)
{
	if (t->reborn && (unset || (P.per_proc && t->reborn > 3)))
		track_met++;
}

static void wait_max(u64 *slot, u64 v)
{
	if (v > *slot)
		*slot = v;
}

/* blkparse's words, without "applet: " (WARN_BARE), and its device's
 * number, which only a stream binds (0,0 reading files) */
static void verbose_miss(const char *what, const struct devinfo *d, u64 sector)
{
	if (P.verbose)
		warn_msg(WARN_BARE "%s not found for (%u,%u): %llu", what, DEV_MAJOR(d->dev),
			 DEV_MINOR(d->dev), (unsigned long long)sector);
}

static u64 track_insert(struct devinfo *d, const struct rec *r, u64 time, int w)
{
	struct track *t;
	struct ppi *p;
	u64 el;

	if (!P.track || !(t = track_new(d, r, r->sector)))
		return NO_ELAPSED;
	t->queue = time;
	t->queued = 1;
	reborn(t, !t->alloc && t->reborn > 1);
	/* blkparse's own test: a G at time 0 gives no figure here */
	if (!t->alloc)
		return NO_ELAPSED;
	el = t->queue - t->alloc;
	if (P.per_proc && (p = ppi_find(t->pid)))
		wait_max(&p->wait_alloc[w], el);
	return el;
}

static u64 track_issue(struct devinfo *d, const struct rec *r, u64 time, int w)
{
	struct track *t;
	struct ppi *p;
	u64 el;

	if (!P.track || !(ACT32(r) & TC(TC_FS)))
		return NO_ELAPSED;
	if (!(t = track_find(d->idx, r->sector))) {
		verbose_miss("issue", d, r->sector);
		return NO_ELAPSED;
	}
	t->dispatch = time;
	t->dispatched = 1;
	reborn(t, !t->queued && t->reborn > 1);
	/* blkparse subtracts an unset (uninitialised) queue time here and
	 * prints garbage; blk-mq requests often skip I.  No I, no figure.
	 * An I at time 0 was seen: its figure is printed. */
	if (!t->queued)
		return NO_ELAPSED;
	el = time - t->queue;
	if (P.per_proc && (p = ppi_find(t->pid)))
		wait_max(&p->wait_dispatch[w], el);
	return el;
}

static u64 track_complete(struct devinfo *d, const struct rec *r, u64 time, int w)
{
	struct track *t;
	struct ppi *p;
	u64 el;

	if (!P.track)
		return NO_ELAPSED;
	if (!(t = track_find(d->idx, r->sector))) {
		verbose_miss("complete", d, r->sector);
		return NO_ELAPSED;
	}
	reborn(t, !t->dispatched);
	el = NO_ELAPSED;
	if (t->dispatched) {
		el = time - t->dispatch;
		if (P.per_proc && (p = ppi_find(t->pid)))
			wait_max(&p->wait_complete[w], el);
	}
	track_del(t);
	return el;
}

static void track_frontmerge(struct devinfo *d, const struct rec *r)
{
	u64 sector = r->sector + (r->bytes >> 9);
	struct track *t;

	if (!P.track)
		return;
	if (!(t = track_find(d->idx, sector))) {
		verbose_miss("merge", d, sector);
		return;
	}
	if (track_rekey(t, r->sector))
		warn_msg(WARN_BARE "sector alias (%llu) on device %u,%u!", (unsigned long long)r->sector,
			 DEV_MAJOR(d->dev), DEV_MINOR(d->dev));
}

/* ---- one record through blkparse's dump_trace ---- */

/* blkparse prints a remap under its target device (the payload's second
 * word) and leaves the record rewritten so for -d; -F A turns that off. */
static void remap_dev(const struct rec *r, u32 *dev)
{
	u8 b[8] = { 0 };

	if (fmt_overridden('A'))
		return;
	memcpy(b, r->pdu, r->pdu_len < 8 ? r->pdu_len : 8);
	*dev = be32_load(b + 4);
}

static void show(struct cpuinfo *c, const struct rec *r, u64 time, const char *act, u64 el, int with_pdu)
{
	struct ev e = { r, time, act, c->cpu, el, NULL, 0, r->dev };

	if (with_pdu) {
		e.pdu = r->pdu;
		e.pdu_len = r->pdu_len;
	}
	if (act[0] == 'A')
		remap_dev(r, &e.dev);
	fmt_event(&P.out, &e);
}

static void depth_down(struct devinfo *d, int w)
{
	if (d->cur_depth[w])
		d->cur_depth[w]--;
}

static void depth_up(struct devinfo *d, int w)
{
	if (++d->cur_depth[w] > d->max_depth[w])
		d->max_depth[w] = d->cur_depth[w];
}

static void trace_pc(struct devinfo *d, struct cpuinfo *c, const struct rec *r, u64 time)
{
	int w = (ACT32(r) & TC(TC_WRITE)) != 0;
	u32 kb = r->bytes >> 10, b = r->bytes & 1023;

	switch (ACT32(r) & 0xffff) {
	case TA_QUEUE:
		show(c, r, time, "Q", NO_ELAPSED, 0);
		/* blkparse books PC read kilobytes as plain queued reads */
		if (w)
			account(c, r->pid, ST_QPC, 1, 1, kb, b);
		else {
			account(c, r->pid, ST_QPC, 0, 1, 0, b);
			c->st[ST_Q_KB] += kb;
			if (P.per_proc) {
				struct ppi *p = ppi_get(r->pid);

				if (p)
					p->st[ST_Q_KB] += kb;
			}
		}
		break;
	case TA_GETRQ:
		show(c, r, time, "G", NO_ELAPSED, 0);
		break;
	case TA_SLEEPRQ:
		show(c, r, time, "S", NO_ELAPSED, 0);
		break;
	case TA_REQUEUE:
		depth_down(d, w);
		account1(c, r->pid, ST_RQPC + w);
		account(c, r->pid, ST_IPC, w, 0, -(u64)kb, -(u64)b);
		show(c, r, time, "R", NO_ELAPSED, 0);
		break;
	case TA_ISSUE:
		account(c, r->pid, ST_IPC, w, 1, kb, b);
		depth_up(d, w);
		show(c, r, time, "D", NO_ELAPSED, 1);
		break;
	case TA_COMPLETE:
		depth_down(d, w);
		show(c, r, time, "C", NO_ELAPSED, 1);
		account1(c, r->pid, ST_CPC + w);
		break;
	case TA_INSERT:
		show(c, r, time, "I", NO_ELAPSED, 1);
		break;
	default:
		warn_msg("Bad pc action %x", ACT32(r) & 0xffff);
	}
}

/* The FS actions that are only shown, never counted: their letters */
static const char *shown_only(u32 a)
{
	switch (a) {
	case TA_SLEEPRQ: return "S";
	case TA_PLUG: return "P";
	case TA_SPLIT: return "X";
	case TA_BOUNCE: return "B";
	case TA_REMAP: return "A";
	case TA_ZONE_PLUG: return "ZP";
	case TA_ZONE_UNPLUG: return "ZU";
	}
	return NULL;
}

static void trace_fs(struct devinfo *d, struct cpuinfo *c, const struct rec *r, u64 time)
{
	int w = (ACT32(r) & TC(TC_WRITE)) != 0;
	u32 kb = r->bytes >> 10, b = r->bytes & 1023;
	const char *act;
	struct track *t;

	switch (ACT32(r) & 0xffff) {
	case TA_QUEUE:
		if (P.track && is_remapper(d) && (t = track_new(d, r, r->sector))) {
			t->dispatch = time;
			t->dispatched = 1;
		}
		account(c, r->pid, ST_Q, w, 1, kb, b);
		show(c, r, time, "Q", NO_ELAPSED, 0);
		break;
	case TA_INSERT:
		show(c, r, time, "I", track_insert(d, r, time, w), 0);
		break;
	case TA_BACKMERGE:
		account(c, r->pid, ST_M, w, 1, kb, b);
		show(c, r, time, "M", NO_ELAPSED, 0);
		break;
	case TA_FRONTMERGE:
		account(c, r->pid, ST_M, w, 1, kb, b);
		track_frontmerge(d, r);
		show(c, r, time, "F", NO_ELAPSED, 0);
		break;
	case TA_GETRQ:
		if (P.track && (t = track_new(d, r, r->sector)))
			t->alloc = time;
		show(c, r, time, "G", NO_ELAPSED, 0);
		break;
	case TA_REQUEUE:
		depth_down(d, w);
		account1(c, r->pid, ST_RQ + w);
		account(c, r->pid, ST_I, w, 0, -(u64)kb, -(u64)b);
		show(c, r, time, "R", NO_ELAPSED, 0);
		break;
	case TA_ISSUE:
		account(c, r->pid, ST_I, w, 1, kb, b);
		depth_up(d, w);
		show(c, r, time, "D", track_issue(d, r, time, w), 0);
		break;
	case TA_COMPLETE:
		depth_down(d, w);
		/* blkparse passes the size as a signed int here */
		account(c, r->pid, ST_C, w, 1, (u64)(s64)((int32_t)r->bytes >> 10),
			(u64)(s64)((int32_t)r->bytes & 1023));
		show(c, r, time, "C", track_complete(d, r, time, w), 0);
		break;
	case TA_UNPLUG_IO:
		account1(c, r->pid, ST_UNPLUG_IO);
		show(c, r, time, "U", NO_ELAPSED, 0);
		break;
	case TA_UNPLUG_TIMER:
		account1(c, r->pid, ST_UNPLUG_TIMER);
		show(c, r, time, "UT", NO_ELAPSED, 0);
		break;
	case TA_DRV_DATA:
		P.have_drv_data = 1;	/* binary dump only */
		break;
	default:
		if ((act = shown_only(ACT32(r) & 0xffff)))
			show(c, r, time, act, NO_ELAPSED, 0);
		else
			warn_msg("Bad fs action %x", (u32)r->action);
	}
}

void dump_trace(struct devinfo *d, struct cpuinfo *c, const struct rec *r, u64 time)
{
	u32 shown_dev = r->dev;

	if (P.text) {
		if (ACT32(r) == TN_MESSAGE)
			fmt_message(&P.out, r, time, r->cpu);
		else if (ACT32(r) & TC(TC_PC))
			trace_pc(d, c, r, time);
		else
			trace_fs(d, c, r, time);
		if ((ACT32(r) & 0xffff) == TA_REMAP && !(ACT32(r) & TC(TC_PC)) && r->pdu_len >= 8)
			remap_dev(r, &shown_dev);
	}
	if (!d->events)
		d->first_time = time;
	d->events++;
	if (P.bin_msgs || ACT32(r) != TN_MESSAGE)
		dump_rec(r, time, shown_dev);
}

