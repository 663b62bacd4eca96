/* output/bploop.c: output: blkparse's loops: files merged by time, a stream's sorted batches (read by capture/input.c) printed; start and end */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "output/bp.h"

struct parse_state P;

volatile sig_atomic_t stop_now;

static void on_signal(int sig)
{
	(void)sig;
	stop_now = 1;
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

/* ---- file mode: per-CPU files merged by time, the way blkparse does it
 * (capture/merge.c, MERGE_BLKPARSE): each file is read ahead in batches
 * (-b, 512) and notes act when read. ---- */

COLD static void file_added(const char *path)
{
	char line[PATH_LEN + 32];

	sfmt(line, sizeof(line), "Input file %s added\n", path);
	notice(line);
}

int bp_files(void)
{
	struct merge_in *m;
	u32 i;

	merge_begin(MERGE_BLKPARSE, P.batch_n, handle_note, &stop_now);
	for (i = 0; i < P.ndevs; i++)
		if (!(P.devs[i].name = in_open_name(P.devs[i].name, (u16)i, &P.input_dir, file_added)))
			return -1;
	merge_start();
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

/* Times made relative to genesis (the first batch's earliest record);
 * returns blkparse's "youngest", which ends the stream past -w's end. */
static u64 batch_times(u32 n, int gen)
{
	u64 youngest = 0;
	u32 i;

	if (gen) {
		P.genesis = ~(u64)0;
		for (i = 0; i < n; i++)
			if (window_rec[i].time < P.genesis)
				P.genesis = window_rec[i].time;
		pipe_wallclock();
	}
	/* blkparse walks its list newest first; youngest keeps its quirk */
	for (i = n; i-- > 0;) {
		struct rec *r = &window_rec[i];

		r->time -= P.genesis;
		if (r->time < youngest || !youngest)
			youngest = r->time;
	}
	return youngest;
}

/* devices are numbered in the order records are read */
static void seen(const struct rec *r)
{
	dev_get(r->dev);
}

/* One batch as read (input.c's window_rec), printed.  -1: the stream
 * ends here (past -w's end, or a capture whose output failed). */
static int pipe_batch(u32 n, int live)
{
	u64 youngest = batch_times(n, !P.genesis);
	u32 i;

	window_sort(n);
	for (i = 0; i < n; i++) {
		struct rec *r = &window_rec[window_order[i]];
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
		 * e.g. its time lies before the first batch's), or a newer
		 * one than the next while the next is in this batch (sorted
		 * after it, so never shown before it): blkparse stalls on it
		 * until EOF and prints it last, with every record of any
		 * device behind it; so do we.  (A next record not read yet
		 * may be lost: the gap is counted and output goes on.) */
		if (window_hold(r, ACT32(r) != TN_MESSAGE && c->seen && r->seq != c->last_seq + 1 &&
				(r->seq <= c->last_seq || window_has(n, r, c->last_seq + 1))))
			continue;
		emit(d, c, r);
	}
	/* Live input: show each batch now (blkparse line-buffers). */
	if (live && P.text)
		ob_flush(&P.out);
	if (live > 1 && P.text && P.out.failed)
		stop_now = 1;	/* the capture stops */
	return youngest > P.sw_end ? -1 : 0;
}

/* What blkparse held back, in its order, as its final pass does. */
static void emit_held(struct rec *r)
{
	struct devinfo *d = dev_get(r->dev);

	if (d)
		emit(d, cpu_get(d, r->cpu), r);
	else
		P.dev_overflow++;
}

static struct in_stream bp_stream = { { 0, handle_note, seen, &stop_now }, pipe_batch, emit_held };

/* P.pipe_name's stream, or (c) a live capture or trace -l's clients into
 * the parser, as btrace pipes blktrace into blkparse */
COLD int bp_stream_run(struct cap_cfg *c)
{
	bp_stream.wc.batch = P.batch_n;
	return in_stream(&bp_stream, c ? NULL : P.pipe_name, c);
}

TEXT(bploop_skipped_unfilled_all, "skipped %llu unfilled (all-zero) records, the first in %s at "
	"byte %llu")
TEXT(bploop_process_table_full, "process table full: %llu names dropped (PROC_MAX %d)")
TEXT(bploop_process_statistics_fu, "process statistics full: %llu events unattributed (PPI_MAX %d)")
TEXT(bploop_cpu_table_full, "cpu table full: %llu events uncounted (CPUS_MAX %d)")
TEXT(bploop_device_table_full, "device table full: %llu events dropped (DEVS_MAX %d)")
TEXT(bploop_cg_msgs, "%llu messages with a cgroup id not shown (as blkparse)")
TEXT(bploop_late_record_table, "late-record table full: %llu records printed early (HOLD_MAX "
	"%d, HOLD_BYTES %d)")
TEXT(bploop_gap_table_full, "gap table full: %llu gaps uncounted (SKIPS_MAX %d)")
TEXT(bploop_discarded_traces, "\ndiscarded traces containing low-level device driver specific "
	"data (only available in binary output)\n")
TEXT(bploop_requests_forgotten, "-t: requests forgotten (TRACK_MAX %d): %llu lines may differ")
/* The last records, the summaries, the exit status. */
COLD int bp_end(int rc)
{
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
		notice(TX(bploop_discarded_traces));
	if (P.notelen && write(1, P.notebuf, P.notelen) < 0)
		rc = -1;
	if (src_zero_records)
		warn_text(U_bploop_skipped_unfilled_all,
			 src_zero_records, src_zero_first, src_zero_first_off);
	if (proc_dropped)
		warn_text(U_bploop_process_table_full, proc_dropped, PROC_MAX);
	/* forgotten requests that never came up again change nothing */
	if (track_met)
		warn_text(U_bploop_requests_forgotten, TRACK_MAX, track_met);
	if (ppi_dropped)
		warn_text(U_bploop_process_statistics_fu, ppi_dropped, PPI_MAX);
	if (P.cpu_overflow)
		warn_text(U_bploop_cpu_table_full, (unsigned long long)P.cpu_overflow, CPUS_MAX);
	if (P.dev_overflow)
		warn_text(U_bploop_device_table_full, (unsigned long long)P.dev_overflow, DEVS_MAX);
	if (P.cg_msgs)
		warn_text(U_bploop_cg_msgs, (unsigned long long)P.cg_msgs);
	if (window_hold_overflow)
		warn_text(U_bploop_late_record_table,
			 (unsigned long long)window_hold_overflow, HOLD_MAX, HOLD_BYTES);
	if (P.skip_overflow)
		warn_text(U_bploop_gap_table_full, (unsigned long long)P.skip_overflow, SKIPS_MAX);
	return rc || src_errors ? 1 : 0;
}


/* P starts zeroed in bss; clearing it again would touch every page. */
COLD void bp_defaults(void)
{
	P.act_mask = ~0u;
	P.batch_n = BATCH_DEFAULT;
	P.text = P.bin_msgs = P.show_stats = 1;
	P.sort_key = 'N';
	P.sw_end = ~(u64)0;
	fmt_set_fatal(parse_fatal);
}

COLD int bp_start(void)
{
	int fd;

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
