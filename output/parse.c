/* output/parse.c: driver: blkparse: options, merge, per-record accounting, summaries */
/* parse: blkparse, byte for byte.
 *
 * usage: iomon parse [-i NAME]... [-D DIR] [-o FILE] [-d FILE] [OPTIONS] [NAME]...
 */
const char parse_usage[] =
"usage: blkparse -i NAME [-i NAME]... [OPTIONS]\n"
"       iomon parse -i NAME [OPTIONS]\n"
"\n"
"Print block trace records (NAME.blktrace.CPU files, or '-' for a stream on\n"
"stdin) as text, merged by time, with per-CPU and per-device summaries.\n"
"\n"
" -i, --input=NAME            trace name or '-' (repeatable; bare NAMEs too)\n"
" -D, --input-directory=DIR   folder holding the trace files\n"
" -a, --act-mask=NAME         only these categories (repeatable): read write\n"
"                             flush sync queue requeue issue complete fs pc\n"
"                             notify ahead meta discard drv_data fua\n"
" -A, --set-mask=HEX          the category mask as one hex number\n"
" -o, --output=FILE           text to FILE instead of stdout\n"
" -O, --no-text-output        no text (with -d: only the binary dump)\n"
" -d, --dump-binary=FILE      merged records as binary, for btt ('-' stdout)\n"
" -M, --no-msgs               leave messages out of the binary dump\n"
" -f, --format=FMT            line format for every action\n"
" -F, --format-spec=A,FMT     line format for action A\n"
" -q, --quiet                 no summary\n"
" -s, --per-program-stats     per-process summary\n"
" -S, --sort-program-stats=K  ... sorted by N Q q R r W w C c\n"
" -h, --hash-by-name          per-process summary by name, not pid\n"
" -t, --track-ios             queue/dispatch/complete times per request\n"
" -w, --stopwatch=[START:]END only events between these seconds\n"
" -b, --batch=N               records read per batch (default 512)\n"
" -v, --verbose               say more about marginal errors\n"
" -V, --version               print the version\n";

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "output/output.h"

/* ---- state: blkparse's per_dev_info and per_cpu_info, in fixed tables ---- */

struct cpuinfo {
	iostats st;
	u32 cpu, nelems, last_seq, next;	/* next: the device's list, by cpu */
	u8 seen;				/* last_seq valid (pipe mode) */
};

struct devinfo {
	u32 dev;
	char *name;		/* from -i; NULL: shown as MAJ,MIN */
	u64 events, first_time, last_time;
	u32 cur_depth[2], max_depth[2];
	u32 cpus;		/* first cpuinfo + 1, sorted by cpu */
	u16 direct[CPU_DIRECT];	/* cpuinfo + 1 for cpus below CPU_DIRECT */
};

struct skip { u64 start, end; u32 cpu; u8 live; };

static struct parse_state {
	struct devinfo devs[DEVS_MAX];
	struct cpuinfo cpus[CPUS_MAX];
	struct skip skips[SKIPS_MAX];
	u16 order[PIPE_WINDOW], tmp[PIPE_WINDOW];
	struct rec batch[PIPE_WINDOW];
	struct rec held[HOLD_MAX];
	u8 held_pdu[HOLD_BYTES];
	u32 nheld, held_used;
	u64 hold_overflow;
	char outbuf[OUT_BUF], dumpbuf[DUMP_BUF], notebuf[NOTICE_BUF];
	struct obuf out, dump;
	u32 ndevs, ncpus, nskips, notelen;
	u64 genesis, start_ts, sw_start, sw_end;
	u64 skip_overflow;
	u32 act_mask, batch_n;
	const char *input_dir, *pipe_name, *out_name, *dump_name;
	int text, dumping, bin_msgs, track, per_proc, sort_key, show_stats;
	int verbose, have_drv_data, notes_direct;
	u64 cpu_overflow, dev_overflow;
} P;

_Static_assert(HOLD_MAX <= PIPE_WINDOW, "held records are ordered in P.order");
_Static_assert(PIPE_WINDOW <= 65536, "batch indices are u16");

static volatile sig_atomic_t stop_now;

static void on_signal(int sig)
{
	(void)sig;
	stop_now = 1;
}

/* ---- "Input file X added": blkparse prints these with stdio on stdout,
 * where they wait in a 4 KiB buffer and so land after all the text. ---- */

static void notice(const char *s)
{
	size_t n = strlen(s);

	if (P.notes_direct) {
		if (write(1, s, n) < 0)
			return;
		return;
	}
	while (n) {
		size_t k = NOTICE_BUF - P.notelen;

		if (k > n)
			k = n;
		memcpy(P.notebuf + P.notelen, s, k);
		P.notelen += (u32)k;
		s += k;
		n -= k;
		if (P.notelen == NOTICE_BUF) {
			if (write(1, P.notebuf, NOTICE_BUF) < 0)
				P.notes_direct = 1;
			P.notelen = 0;
		}
	}
}

/* blkparse exit()s on a bad -f field mid-run: stdio still flushes what
 * was printed, and the notices after it. */
__attribute__((noreturn)) static void parse_fatal(const char *why)
{
	warn_msg("%s", why);
	if (P.text)
		ob_close(&P.out);
	if (P.dumping)
		ob_close(&P.dump);
	if (P.notelen && write(1, P.notebuf, P.notelen) < 0)
		_exit(1);
	_exit(1);
}

/* ---- devices and cpus ---- */

static struct devinfo *dev_add(char *name, u32 dev)
{
	struct devinfo *d;

	if (P.ndevs == DEVS_MAX)
		return NULL;	/* counted where a record is dropped for it */
	d = &P.devs[P.ndevs++];
	memset(d, 0, sizeof(*d));
	d->name = name;
	d->dev = dev;
	return d;
}

/* blkparse's get_dev_info: an entry named by -i but not yet bound to a
 * device number takes the first device it is asked about. */
static struct devinfo *dev_get(u32 dev)
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

static struct cpuinfo *cpu_get(struct devinfo *d, u32 cpu)
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
	char *p;

	if (!P.dumping)
		return;
	h = *r;
	/* Zone operations have no version-7 form; btt would misread them. */
	if ((r->action >> 32) || (ACT32(r) & 0xff) >= TA_ZONE_PLUG)
		if (!(ACT32(r) & TC(TC_NOTIFY)))
			return;
	h.time = time;
	h.dev = dev;
	p = ob_room(&P.dump, REC_V7_LEN);
	rec_encode_v7((u8 *)p, &h);
	ob_done(&P.dump, p + REC_V7_LEN);
	ob_write(&P.dump, r->pdu, r->pdu_len);
}

/* PROCESS and TIMESTAMP notes act when they are read, as in blkparse,
 * which is why names can show up on lines printed before them. */
static void handle_note(const struct rec *r)
{
	u32 a = ACT32(r);

	if (a == TN_PROCESS)
		proc_add(r->pid, r->pdu, r->pdu_len);
	else if (a == TN_TIMESTAMP && r->pdu_len == 8) {
		P.start_ts = r->time;
		abs_start_sec = ne32_load(r->pdu, r->swapped);
		abs_start_nsec = ne32_load(r->pdu + 4, r->swapped);
	}
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

/* blkparse's find_track: a new entry names an unnamed pid "unknown" (and
 * first names stick); an existing one is left alone. */
static struct track *track_new(struct devinfo *d, const struct rec *r, u64 sector)
{
	struct track *t = track_find((u32)(d - P.devs), sector);

	if (t)
		return t;
	t = track_get((u32)(d - P.devs), sector, r->pid);
	if (t && !proc_name(r->pid))
		proc_add(r->pid, (const u8 *)"unknown", 8);
	return t;
}

static void wait_max(u64 *slot, u64 v)
{
	if (v > *slot)
		*slot = v;
}

static void verbose_miss(const char *what, const struct rec *r, u64 sector)
{
	if (P.verbose)
		warn_msg("%s not found for (%u,%u): %llu", what, DEV_MAJOR(r->dev),
			 DEV_MINOR(r->dev), (unsigned long long)sector);
}

static u64 track_insert(struct devinfo *d, const struct rec *r, u64 time, int w)
{
	struct track *t;
	struct ppi *p;
	u64 el;

	if (!P.track || !(t = track_new(d, r, r->sector)))
		return NO_ELAPSED;
	t->queue = time;
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
	if (!(t = track_find((u32)(d - P.devs), r->sector))) {
		verbose_miss("issue", r, r->sector);
		return NO_ELAPSED;
	}
	t->dispatch = time;
	/* blkparse subtracts an unset (uninitialised) queue time here and
	 * prints garbage; blk-mq requests often skip I.  No I, no figure. */
	if (!t->queue)
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
	if (!(t = track_find((u32)(d - P.devs), r->sector))) {
		verbose_miss("complete", r, r->sector);
		return NO_ELAPSED;
	}
	if (!t->dispatch) {
		track_del(t);
		return NO_ELAPSED;
	}
	el = time - t->dispatch;
	if (P.per_proc && (p = ppi_find(t->pid)))
		wait_max(&p->wait_complete[w], el);
	track_del(t);
	return el;
}

static void track_frontmerge(struct devinfo *d, const struct rec *r)
{
	u64 sector = r->sector + (r->bytes >> 9);
	struct track *t;

	if (!P.track)
		return;
	if (!(t = track_find((u32)(d - P.devs), sector))) {
		verbose_miss("merge", r, sector);
		return;
	}
	if (track_rekey(t, r->sector))
		warn_msg("sector alias (%llu) on device %u,%u!", (unsigned long long)r->sector,
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

static void show(struct cpuinfo *c, const struct rec *r, u64 time, const char *act,
		 u64 el, int with_pdu)
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
		if (P.track && is_remapper(d) && (t = track_new(d, r, r->sector)))
			t->dispatch = time;
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
	case TA_SLEEPRQ:
		show(c, r, time, "S", NO_ELAPSED, 0);
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

static void dump_trace(struct devinfo *d, struct cpuinfo *c, const struct rec *r, u64 time)
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

/* ---- file mode: per-CPU files merged by time, the way blkparse does it
 * (capture/merge.c, MERGE_BLKPARSE): each file is read ahead in batches
 * (-b, 512) and notes act when read. ---- */

/* blkparse moves a folder given in the -i name into its input folder
 * (POSIX dirname/basename); "./x" has dirname "." and is left alone. */
static char *split_dir(char *name)
{
	char *base = strrchr(name, '/'), *end;

	if (!base || !base[1])
		return name;
	end = base;
	while (end > name && end[-1] == '/')
		end--;
	if (end == name) {
		P.input_dir = "/";
		return base + 1;
	}
	if (end - name == 1 && name[0] == '.')
		return name;
	*end = 0;
	P.input_dir = name;
	return base + 1;
}

COLD static int open_device_files(struct devinfo *d, u16 di)
{
	char *b = str_find(d->name, ".blktrace.");
	u32 cpu;

	if (b)
		*b = 0;
	for (cpu = 0;; cpu++) {
		struct stat st;
		char path[PATH_LEN];
		int fd;

		d->name = split_dir(d->name);
		if ((size_t)sfmt(path, sizeof(path), "%s%s%s.blktrace.%u",
				     P.input_dir ? P.input_dir : "", P.input_dir ? "/" : "",
				     d->name, cpu) >= sizeof(path)) {
			warn_msg("%s: path too long", d->name);
			break;
		}
		if (stat(path, &st) < 0)
			break;
		if (!st.st_size)
			continue;
		if (S_ISDIR(st.st_mode)) {
			warn_msg("%s: is a directory", path);
			src_errors++;
			break;
		}
		if (merge_n == STREAMS_MAX) {
			warn_msg("%s: more than %d trace files, ignored (STREAMS_MAX)", path, STREAMS_MAX);
			src_errors++;
			break;
		}
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			err_sys(path);
			src_errors++;
			break;
		}
		{
			char line[PATH_LEN + 32];

			sfmt(line, sizeof(line), "Input file %s added\n", path);
			notice(line);
		}
		merge_add(fd, path, cpu, di, STREAM_BUF);
	}
	if (!cpu) {
		warn_msg("No input files found for %s", d->name);
		return -1;
	}
	return 0;
}

static int do_files(void)
{
	struct merge_in *m;
	u32 i;

	merge_begin(MERGE_BLKPARSE, P.batch_n, handle_note, &stop_now);
	for (i = 0; i < P.ndevs; i++)
		if (open_device_files(&P.devs[i], (u16)i))
			return -1;
	if ((m = merge_head()))
		P.genesis = m->head.time;
	while ((m = merge_head()) && !stop_now) {
		struct devinfo *d = &P.devs[m->tag];
		struct cpuinfo *c = cpu_get(d, m->cpu);
		u64 t = m->head.time - P.genesis;

		c->nelems++;
		if (t > P.sw_end)
			break;
		d->last_time = t;
		if ((ACT32(&m->head) & (P.act_mask << TC_SHIFT)) && t >= P.sw_start)
			dump_trace(d, c, &m->head, t);
		merge_pop();
	}
	return 0;
}

/* ---- pipe mode: a stream of all CPUs' records.  blkparse reads a batch,
 * sorts it by (time, device, sequence) and prints it.  After a lost record
 * it holds everything back until EOF; we count the gap and go on. ---- */

static void skip_insert(u32 cpu, u64 start, u64 end)
{
	u32 i;

	for (i = P.nskips; i-- > 0;) {
		struct skip *k = &P.skips[i];

		if (!k->live || k->cpu != cpu)
			continue;
		if (end == k->start - 1) {
			k->start = start;
			return;
		}
		if (start == k->end + 1) {
			k->end = end;
			return;
		}
	}
	if (P.nskips == SKIPS_MAX) {
		P.skip_overflow++;
		return;
	}
	P.skips[P.nskips++] = (struct skip){ start, end, cpu, 1 };
}

static int skip_claim(u32 cpu, u64 seq)
{
	u32 i;

	for (i = P.nskips; i-- > 0;) {
		struct skip *k = &P.skips[i];

		if (!k->live || k->cpu != cpu || seq < k->start || seq > k->end)
			continue;
		if (k->start == seq && k->end == seq)
			k->live = 0;
		else if (k->start == seq)
			k->start++;
		else if (k->end == seq)
			k->end--;
		else {
			u64 hi = k->end;

			k->end = seq - 1;
			skip_insert(cpu, seq + 1, hi);
		}
		return 1;
	}
	return 0;
}

static void check_sequence(struct cpuinfo *c, u32 cpu_key, const struct rec *r)
{
	u64 expected = c->seen ? (u64)c->last_seq + 1 : 0;

	if (!c->seen || r->seq == expected)
		return;
	if (skip_claim(cpu_key, r->seq))
		return;
	if (expected < r->seq)
		skip_insert(cpu_key, expected, (u64)r->seq - 1);
}

static int batch_cmp(u16 a, u16 b)
{
	const struct rec *x = &P.batch[a], *y = &P.batch[b];

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return a > b ? -1 : 1;	/* exact ties: later read first, as blkparse */
}

static void batch_sort(u32 n)
{
	u32 w, i, j, k, lo, mid, hi;

	for (i = 0; i < n; i++)
		P.order[i] = (u16)i;
	for (w = 1; w < n; w *= 2) {
		for (lo = 0; lo < n; lo += 2 * w) {
			mid = lo + w < n ? lo + w : n;
			hi = lo + 2 * w < n ? lo + 2 * w : n;
			for (i = lo, j = mid, k = lo; k < hi; k++)
				P.tmp[k] = (j >= hi || (i < mid && batch_cmp(P.order[i], P.order[j]) < 0))
					? P.order[i++] : P.order[j++];
		}
		memcpy(P.order, P.tmp, n * sizeof(P.order[0]));
	}
}

static void emit(struct devinfo *d, struct cpuinfo *c, const struct rec *r)
{
	if (ACT32(r) != TN_MESSAGE) {
		check_sequence(c, (u32)(c - P.cpus), r);
		c->last_seq = r->seq;
		c->seen = 1;
	}
	d->last_time = r->time;
	c->nelems++;
	if (ACT32(r) & (P.act_mask << TC_SHIFT))
		dump_trace(d, c, r, r->time);
}

/* Keep a record (and its payload) until EOF; 0 when there is no room. */
static int hold(const struct rec *r)
{
	if (P.nheld == HOLD_MAX || HOLD_BYTES - P.held_used < r->pdu_len) {
		P.hold_overflow++;
		return 0;
	}
	P.held[P.nheld] = *r;
	memcpy(P.held_pdu + P.held_used, r->pdu, r->pdu_len);
	P.held[P.nheld++].pdu = P.held_pdu + P.held_used;
	P.held_used += r->pdu_len;
	return 1;
}

static int held_cmp(u16 a, u16 b)
{
	const struct rec *x = &P.held[a], *y = &P.held[b];

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int ready(int fd)
{
	struct pollfd p = { fd, POLLIN, 0 };

	return poll(&p, 1, 0) > 0;
}

/* Pipe mode only (blkparse 1.2.0's find_genesis; its file mode does not):
 * move the TIMESTAMP note's wall clock to the first event, with its
 * signed arithmetic and lopsided normalisation. */
static void pipe_wallclock(void)
{
	s64 delta = (s64)(P.genesis - P.start_ts);

	if (!P.start_ts || P.start_ts == P.genesis)
		return;
	abs_start_sec += (s64)((u64)delta / 1000000000u);
	abs_start_nsec += (s64)((u64)delta % 1000000000u);
	if (abs_start_nsec < 0) {
		abs_start_nsec += 1000000000;
		abs_start_sec--;
	} else if (abs_start_nsec > 1000000000) {
		abs_start_nsec -= 1000000000;
		abs_start_sec++;
	}
}

/* The stream being parsed: an fd, or bytes pushed in by btrace's capture. */
static struct src PS;
static int ps_live;

/* Read one batch and print it.  0: nothing was waiting (push mode, or a
 * live pipe that is empty); 1: a batch went out; -1: the stream ended. */
/* Read one batch into P.batch: -b counted records at most, or what the
 * buffer and the window hold; notes act as read.  n read; *end at EOF. */
static u32 batch_fill(struct src *s, int *end)
{
	u64 base;
	u32 n = 0, counted = 0, i;

	s->keep = s->pos;
	while (counted < P.batch_n && n < PIPE_WINDOW && !stop_now) {
		struct rec *r = &P.batch[n];
		int rc;

		if (s->pos - s->keep + REC_ROOM > s->cap)
			break;
		/* Like blkparse, a live pipe ends the batch when nothing more
		 * is waiting, so text follows the I/O instead of lagging by
		 * up to a batch. */
		if (s->fd >= 0 && n && s->len - s->pos < 64 && !ready(s->fd))
			break;
		base = s->base;
		rc = src_record(s, r);
		if (s->base != base)	/* the buffer slid down under the batch */
			for (i = 0; i < n; i++)
				P.batch[i].pdu -= s->base - base;
		if (rc == 0 && s->push)
			break;		/* the rest has not been pushed yet */
		if (rc <= 0) {
			*end = 1;
			break;
		}
		if (REC_IS_NOTE(r)) {
			handle_note(r);
			continue;
		}
		/* devices are numbered in the order records are read */
		dev_get(r->dev);
		counted += !REC_IS_CG_MSG(r);
		n++;
	}
	s->keep = NO_KEEP;	/* the batch's bytes stay until the next read */
	return n;
}

/* Times made relative to genesis (the first batch's earliest record);
 * returns blkparse's "youngest", which ends the stream past -w's end. */
static u64 batch_times(u32 n, int gen)
{
	u64 youngest = 0;
	u32 i;

	if (gen) {
		P.genesis = ~(u64)0;
		for (i = 0; i < n; i++)
			if (P.batch[i].time < P.genesis)
				P.genesis = P.batch[i].time;
		pipe_wallclock();
	}
	/* blkparse walks its list newest first; youngest keeps its quirk */
	for (i = n; i-- > 0;) {
		struct rec *r = &P.batch[i];

		r->time -= P.genesis;
		if (r->time < youngest || !youngest)
			youngest = r->time;
	}
	return youngest;
}

static int pipe_batch(void)
{
	int gen = !P.genesis, end = 0;
	u32 n = batch_fill(&PS, &end), i;
	u64 youngest;

	if (!n)
		return end || stop_now ? -1 : 0;
	youngest = batch_times(n, gen);
	batch_sort(n);
	for (i = 0; i < n; i++) {
		struct rec *r = &P.batch[P.order[i]];
		struct devinfo *d;
		struct cpuinfo *c;

		if (!(d = dev_get(r->dev))) {
			P.dev_overflow++;
			continue;
		}
		c = cpu_get(d, r->cpu);
		if (r->time >= P.sw_end || r->time < P.sw_start)
			continue;
		/* An older record than its CPU has shown (it sorted late,
		 * e.g. its time lies before the first batch's): blkparse
		 * stalls on it until EOF and prints it last; so do we. */
		if (ACT32(r) != TN_MESSAGE && c->seen && r->seq <= c->last_seq && hold(r))
			continue;
		emit(d, c, r);
	}
	/* Live input: show each batch now (blkparse line-buffers). */
	if (ps_live && P.text)
		ob_flush(&P.out);
	return end || youngest > P.sw_end ? -1 : 1;
}

/* What blkparse held back, in its order, as its final pass does. */
static void pipe_finish(void)
{
	u32 i;

	for (i = 0; i < P.nheld; i++)
		P.order[i] = (u16)i;
	for (i = 1; i < P.nheld; i++) {
		u16 v = P.order[i];
		u32 j;

		for (j = i; j && held_cmp(P.order[j - 1], v) > 0; j--)
			P.order[j] = P.order[j - 1];
		P.order[j] = v;
	}
	for (i = 0; i < P.nheld; i++) {
		struct rec *r = &P.held[P.order[i]];
		struct devinfo *d = dev_get(r->dev);

		if (d)
			emit(d, cpu_get(d, r->cpu), r);
		else
			P.dev_overflow++;
	}
	P.nheld = 0;
}

static int do_pipe(void)
{
	int fd = strcmp(P.pipe_name, "-") ? open(P.pipe_name, O_RDONLY | O_CLOEXEC) : 0;
	struct stat st;

	if (fd < 0) {
		err_sys(P.pipe_name);
		return -1;
	}
	ps_live = fstat(fd, &st) || !S_ISREG(st.st_mode);
	src_init(&PS, fd, strcmp(P.pipe_name, "-") ? P.pipe_name : "(stdin)", merge_mem(0), STREAM_BUF);
	while (!stop_now && pipe_batch() >= 0)
		;
	pipe_finish();
	if (fd > 0)
		close(fd);
	return 0;
}

/* btrace: the capture hands its records straight to the parser. */
int parse_push(const void *p, size_t n)
{
	const u8 *b = p;

	while (n) {
		u32 room;

		if (PS.pos && (PS.cap - PS.len < n || PS.len - PS.pos <= PS.pos)) {
			memmove(PS.buf, PS.buf + PS.pos, PS.len - PS.pos);
			PS.base += PS.pos;
			PS.len -= PS.pos;
			PS.pos = 0;
		}
		room = PS.cap - PS.len;
		if (!room) {
			if (pipe_batch() <= 0)
				return -1;	/* no progress: cannot happen with whole records */
			continue;
		}
		if (room > n)
			room = (u32)n;
		memcpy(PS.buf + PS.len, b, room);
		PS.len += room;
		b += room;
		n -= room;
	}
	return P.text && P.out.failed ? -1 : 0;
}

/* After each round of reads from every CPU: print what has come.  Taking
 * all CPUs' records together keeps the first batch's start (genesis) the
 * earliest of them. */
void parse_pump(void)
{
	while (pipe_batch() > 0)
		;
}

/* ---- the summary ---- */

static void dev_label(char *buf, size_t len, const struct devinfo *d)
{
	if (d->name)
		sfmt(buf, len, "%s", d->name);
	else
		sfmt(buf, len, "%u,%u", DEV_MAJOR(d->dev), DEV_MINOR(d->dev));
}

COLD static void show_summary(void)
{
	u32 i;

	for (i = 0; i < P.ndevs; i++) {
		struct devinfo *d = &P.devs[i];
		iostats total;
		char name[32], line[48];
		int shown = 0;
		u64 msec, rrate = 0, wrate = 0, nskip = 0, seqskip = 0;
		double ratio;
		u32 ci;

		memset(total, 0, sizeof(total));
		if (i)
			ob_write(&P.out, "\n", 1);
		dev_label(name, sizeof(name), d);
		for (ci = d->cpus; ci; ci = P.cpus[ci - 1].next) {
			struct cpuinfo *c = &P.cpus[ci - 1];
			u32 k;

			for (k = 0; k < P.nskips; k++)
				if (P.skips[k].live && P.skips[k].cpu == ci - 1) {
					nskip++;
					seqskip += P.skips[k].end - P.skips[k].start + 1;
					if (P.verbose)
						warn_msg("(%u,%u): skipping %llu -> %llu", DEV_MAJOR(d->dev),
							 DEV_MINOR(d->dev), (unsigned long long)P.skips[k].start,
							 (unsigned long long)P.skips[k].end);
				}
			if (!c->nelems)
				continue;
			iostats_add(total, c->st);
			sfmt(line, sizeof(line) - 1, "CPU%u (%s):", c->cpu, name);
			iostats_print(&P.out, c->st, line, d->max_depth);
			shown++;
		}
		if (shown > 1) {
			ob_write(&P.out, "\n", 1);
			sfmt(line, sizeof(line) - 1, "Total (%s):", name);
			iostats_print(&P.out, total, line, NULL);
		}
		msec = (d->last_time - d->first_time) / 1000000;
		if (msec) {
			rrate = (1000 * total[ST_C_KB] + total[ST_C_B]) / msec;
			wrate = (1000 * total[ST_C_KB_W] + total[ST_C_B_W]) / msec;
		}
		dev_label(line, sizeof(line), d);
		ratio = (!nskip && !d->events) ? 0.0
			: 100.0 * ((double)seqskip / (double)(d->events + seqskip));
		ob_printf(&P.out, "\nThroughput (R/W): %lluKiB/s / %lluKiB/s\n"
			  "Events (%s): %llu entries\nSkips: %llu forward (%llu - %5.1f%%)\n",
			  (unsigned long long)rrate, (unsigned long long)wrate, line,
			  (unsigned long long)d->events, (unsigned long long)nskip,
			  (unsigned long long)seqskip, ratio);
	}
}

/* ---- options ---- */

/* Seconds to ns as Debian's x86-64 blkparse converts them: past 2^64 ns
 * or inf gives 0, nan and below -2^63 give 2^63, negatives wrap.  C leaves that
 * undefined and s390x saturates instead: spelled out, every arch agrees. */
static u64 to_ns(double sec)
{
	double v = sec * 1000000000;

	if (!(v >= 9223372036854775808.0))
		return v > -9223372036854775808.0 ? (u64)(s64)v : (u64)1 << 63;
	return v < 18446744073709551616.0 ? (u64)v : 0;
}

/* "[start:]end" in seconds, as blkparse's -w */
static int stopwatch(const char *arg)
{
	const char *e;
	double v = scan_double(arg, &e);

	if (e == arg) {
		warn_msg("Invalid stopwatch timer: %s", arg);
		return -1;
	}
	if (*e == ':') {
		const char *d = e + 1;

		P.sw_start = to_ns(v);
		v = scan_double(d, &e);
		if (e == d || *e) {
			warn_msg("Invalid stopwatch duration time: %s", d);
			return -1;
		}
	} else if (*e) {
		warn_msg("Invalid stopwatch start timer: %s", arg);
		return -1;
	}
	P.sw_end = to_ns(v);
	if (P.sw_end <= P.sw_start) {
		warn_msg("Invalid stopwatch interval: %llu -> %llu",
			 (unsigned long long)P.sw_start, (unsigned long long)P.sw_end);
		return -1;
	}
	return 0;
}

static int is_pipe(const char *s)
{
	struct stat st;

	return !strcmp(s, "-") || (!stat(s, &st) && S_ISFIFO(st.st_mode));
}

static int add_input(char *name)
{
	if (is_pipe(name) && !P.pipe_name) {
		P.pipe_name = name;
		return 0;
	}
	if (!dev_add(name, 0)) {
		warn_msg("%s: more than %d inputs (DEVS_MAX)", name, DEVS_MAX);
		return -1;
	}
	return 0;
}

static const struct option longopts[] = {
	{ "act-mask", 1, 0, 'a' }, { "set-mask", 1, 0, 'A' }, { "batch", 1, 0, 'b' },
	{ "input-directory", 1, 0, 'D' }, { "dump-binary", 1, 0, 'd' },
	{ "format", 1, 0, 'f' }, { "format-spec", 1, 0, 'F' },
	{ "hash-by-name", 0, 0, 'h' }, { "input", 1, 0, 'i' }, { "no-msgs", 0, 0, 'M' },
	{ "output", 1, 0, 'o' }, { "no-text-output", 0, 0, 'O' }, { "quiet", 0, 0, 'q' },
	{ "per-program-stats", 0, 0, 's' }, { "sort-program-stats", 1, 0, 'S' },
	{ "track-ios", 0, 0, 't' }, { "stopwatch", 1, 0, 'w' }, { "verbose", 0, 0, 'v' },
	{ "version", 0, 0, 'V' }, { "help", 0, 0, 'H' }, { 0, 0, 0, 0 },
};

/* -a NAME (added to the mask) and -A HEX (the whole mask); 1: refused */
static int opt_mask(int c, u32 *mask)
{
	char *e;
	int v;

	if (c == 'a') {
		if ((v = mask_bit(opt_arg)) < 0) {
			warn_msg("Invalid action mask %s", opt_arg);
			return 1;
		}
		*mask |= (u32)v;
		return 0;
	}
	v = (int)scan_u64(opt_arg, &e, 16);
	if (e == opt_arg || v < 1 || v >= 1 << 16) {
		warn_msg("Invalid set action mask %s/0x%x", opt_arg, v);
		return 1;
	}
	*mask = (u32)v;
	return 0;
}

/* -V, --help and a bad option: -2 (done, exit 0) or 1 */
static int opt_exit(int c, const char *prog)
{
	char line[128];
	int n;

	switch (c) {
	case 'V':
		n = sfmt(line, sizeof(line), "%s version 1.2.0\n", prog);
		return write(1, line, (size_t)n) == n ? -2 : 1;
	case 'H':
		return write(1, parse_usage, sizeof(parse_usage) - 1) < 0 ? 1 : -2;
	default:
		if (write(2, parse_usage, sizeof(parse_usage) - 1) < 0)
			return 1;
		return 1;
	}
}

/* One option; 0 to go on, else what options() returns */
static int option(int c, char **argv, u32 *mask)
{
	int v;

	switch (c) {
	case 'a':
	case 'A': return opt_mask(c, mask);
	case 'b':
		v = atoi(opt_arg);
		P.batch_n = v <= 0 ? BATCH_DEFAULT : (u32)v;
		return 0;
	case 'D': P.input_dir = opt_arg; return 0;
	case 'd': P.dump_name = opt_arg; return 0;
	case 'f': return fmt_set_all(opt_arg) ? 1 : 0;
	case 'F': return fmt_set_one(opt_arg) ? 1 : 0;
	case 'h': ppi_by_name = 1; return 0;
	case 'i': return add_input(opt_arg) ? 1 : 0;
	case 'M': P.bin_msgs = 0; return 0;
	case 'o': P.out_name = opt_arg; return 0;
	case 'O': P.text = 0; return 0;
	case 'q': P.show_stats = 0; return 0;
	case 's': P.per_proc = 1; return 0;
	case 'S':
		P.per_proc = 1;
		if (!strchr("NQqRrWwCc", opt_arg[0]) || !opt_arg[0])
			return 1;
		P.sort_key = opt_arg[0];
		return 0;
	case 't': P.track = 1; return 0;
	case 'w': return stopwatch(opt_arg) ? 1 : 0;
	case 'v': P.verbose++; return 0;
	default: return opt_exit(c, argv[0]);
	}
}

static int options(int argc, char **argv)
{
	u32 mask = 0;
	int c, rc;

	while ((c = opt_get(argc, argv, "a:A:b:D:d:f:F:hi:o:OqsS:tw:vVM", longopts)) != -1)
		if ((rc = option(c, argv, &mask)))
			return rc;
	for (; opt_ind < argc; opt_ind++)
		if (add_input(argv[opt_ind]))
			return 1;
	if (!P.pipe_name && !P.ndevs) {
		if (write(2, parse_usage, sizeof(parse_usage) - 1) < 0)
			return 1;
		return 1;
	}
	if (mask)
		P.act_mask = mask;
	return 0;
}

/* Options, outputs: everything before the input is read. */
COLD int parse_begin(int argc, char **argv)
{
	int rc, fd;

	/* P starts zeroed in bss; clearing it again would touch every page. */
	P.act_mask = ~0u;
	P.batch_n = BATCH_DEFAULT;
	P.text = P.bin_msgs = P.show_stats = 1;
	P.sort_key = 'N';
	P.sw_end = ~(u64)0;
	fmt_set_fatal(parse_fatal);
	rc = options(argc, argv);
	if (rc)
		return rc;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	P.notes_direct = isatty(1);
	if (P.text) {
		fd = 1;
		if (P.out_name && strcmp(P.out_name, "-") && (fd = open_out(P.out_name, 0644)) < 0)
			return 1;
		ob_init(&P.out, fd, P.out_name ? P.out_name : "stdout", P.outbuf, OUT_BUF);
	}
	if (P.dump_name) {
		fd = 1;
		if (strcmp(P.dump_name, "-") && (fd = open_out(P.dump_name, 0644)) < 0)
			return 1;
		ob_init(&P.dump, fd, P.dump_name, P.dumpbuf, DUMP_BUF);
		P.dumping = 1;
	}
	return 0;
}

/* For btrace: a stream fed by parse_push instead of an fd. */
void parse_begin_push(void)
{
	src_init(&PS, -1, "(capture)", merge_mem(0), STREAM_BUF);
	PS.eof = 0;
	PS.push = 1;
	ps_live = 1;
}

/* The last records, the summaries, the exit status. */
COLD int parse_end(int rc)
{
	if (PS.push) {
		while (pipe_batch() > 0)
			;
		pipe_finish();
	}
	if (!rc && P.text) {
		if (P.per_proc)
			ppi_print_all(&P.out, P.sort_key);
		if (P.show_stats)
			show_summary();
	}
	if (P.text && ob_close(&P.out))
		rc = -1;
	if (P.dumping && ob_close(&P.dump))
		rc = -1;
	if (P.have_drv_data && !P.dump_name)
		notice("\ndiscarded traces containing low-level device driver specific data (only available in binary output)\n");
	if (P.notelen && write(1, P.notebuf, P.notelen) < 0)
		rc = -1;
	if (src_zero_records)
		warn_msg("skipped %llu unfilled (all-zero) records, the first in %s at byte %llu",
			 src_zero_records, src_zero_first, src_zero_first_off);
	if (proc_dropped)
		warn_msg("process table full: %llu names dropped (PROC_MAX %d)", proc_dropped, PROC_MAX);
	if (track_dropped)
		warn_msg("request table full: %llu requests untracked (TRACK_MAX %d)", track_dropped, TRACK_MAX);
	if (ppi_dropped)
		warn_msg("process statistics full: %llu events unattributed (PPI_MAX %d)", ppi_dropped, PPI_MAX);
	if (P.cpu_overflow)
		warn_msg("cpu table full: %llu events uncounted (CPUS_MAX %d)", (unsigned long long)P.cpu_overflow, CPUS_MAX);
	if (P.dev_overflow)
		warn_msg("device table full: %llu events dropped (DEVS_MAX %d)", (unsigned long long)P.dev_overflow, DEVS_MAX);
	if (P.hold_overflow)
		warn_msg("late-record table full: %llu records printed early (HOLD_MAX %d, HOLD_BYTES %d)",
			 (unsigned long long)P.hold_overflow, HOLD_MAX, HOLD_BYTES);
	if (P.skip_overflow)
		warn_msg("gap table full: %llu gaps uncounted (SKIPS_MAX %d)", (unsigned long long)P.skip_overflow, SKIPS_MAX);
	return rc || src_errors ? 1 : 0;
}

COLD int parse_main(int argc, char **argv)
{
	int rc = parse_begin(argc, argv);

	if (rc)
		return rc == -2 ? 0 : rc;
	return parse_end(P.pipe_name ? do_pipe() : do_files());
}
