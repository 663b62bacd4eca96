/* output/export.c: output: blkiomon's reports: text, binary records, message queue; the JSON and Prometheus pieces btt shares */
/* One interval's statistics (stats/monstat.c) out to whichever outputs
 * the driver opened: blkiomon's text and its 424-byte big-endian struct
 * blkiomon_stat (to a file and to a System V message queue), and through
 * output/monexp.c JSON lines and Prometheus text. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>		/* rename */
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/stat.h>
#include <time.h>
#include "output/output.h"

/* Bounds and sums are counts of unit 10^e (bytes, microseconds); they
 * print as %.9g printed them.  Monitor's and btt's. */
void prom_hist(struct obuf *o, const char *name, u32 dev, const u64 *b, int n, u64 delta, int e, u64 sum)
{
	char g[16];
	u64 cum = 0;
	int i;

	for (i = 0; i < n; i++) {
		cum += b[i];
		*fmt_g9(g, hist_bound(i, delta), e) = 0;
		ob_printf(o, "%s_bucket{device=\"%u,%u\",le=\"%s\"} %llu\n", name, DEV_MAJOR(dev), DEV_MINOR(dev),
			  i < n - 1 ? g : "+Inf", (unsigned long long)cum);
	}
	*fmt_g9(g, sum, e) = 0;
	ob_printf(o, "%s_sum{device=\"%u,%u\"} %s\n", name, DEV_MAJOR(dev), DEV_MINOR(dev), g);
	ob_printf(o, "%s_count{device=\"%u,%u\"} %llu\n", name, DEV_MAJOR(dev), DEV_MINOR(dev),
		  (unsigned long long)cum);
}

/* Written to FILE.tmp (tmp, PATH_LEN) and renamed, so the collector
 * never sees half; -1: said why. */
COLD int prom_open(struct obuf *o, const char *path, char *tmp, char *buf, u32 cap)
{
	int fd;

	sfmt(tmp, PATH_LEN, "%s.tmp", path);
	if ((fd = open_out(tmp, 0644)) < 0)
		return -1;
	ob_init(o, fd, tmp, buf, cap);
	return 0;
}

COLD void prom_commit(struct obuf *o, const char *tmp, const char *path)
{
	if (!ob_close(o) && rename(tmp, path))
		warn_msg("rename %s: %s", tmp, strerror(errno));
}

/* key":[b0,b1,...]: key brings its opening quote, and a comma before it */
void json_u32s(struct obuf *o, const char *key, const u32 *b, int n)
{
	int i;

	ob_printf(o, "%s\":[", key);
	for (i = 0; i < n; i++)
		ob_printf(o, "%s%u", i ? "," : "", b[i]);
	ob_puts(o, "]");
}

TEXT(export_mm, "%s: num %llu, min %lld, max %llu, sum %llu, squ %llu, avg %.1f, var %s\n")
static void mm_print(struct obuf *o, const char *what, const struct minmax *m)
{
	double avg = m->num ? (double)m->sum / (double)m->num : 0.0;
	char var[80];

	/* exact: blkiomon's sum*sum wraps, and doubles lose the last digit */
	*mm_var(var, m, 1) = 0;
	ob_printf(o, TX(export_mm), what,
		  (unsigned long long)m->num, (long long)m->min, (unsigned long long)m->max,
		  (unsigned long long)m->sum, (unsigned long long)m->sos, avg, var);
}

void hist_print(struct obuf *o, const char *what, const u32 *b, int n, u64 delta)
{
	int i;

	ob_printf(o, "%s:\n", what);
	for (i = 0; i < n - 1; i++) {
		ob_printf(o, "   %10llu:%6u", (unsigned long long)hist_bound(i, delta), b[i]);
		if (!((i + 1) % 4))
			ob_write(o, "\n", 1);
	}
	ob_printf(o, "    >%8llu:%6u\n", (unsigned long long)hist_bound(i - 1, delta), b[i]);
}

static void text_write(struct obuf *o, const struct dstat *s, s64 t)
{
	char ct[64];
	struct tm tm;

	if (local_tm(t, &tm))
		*fmt_date(ct, &tm) = 0;
	else
		sfmt(ct, sizeof(ct), "%lld", (long long)t);
	ob_printf(o, "\ntime: %s\ndevice: %u,%u\n", ct, DEV_MAJOR(s->device), DEV_MINOR(s->device));
	mm_print(o, "sizes read (bytes)", &s->size[0]);
	mm_print(o, "sizes write (bytes)", &s->size[1]);
	mm_print(o, "d2c read (usec)", &s->d2c[0]);
	mm_print(o, "d2c write (usec)", &s->d2c[1]);
	mm_print(o, "throughput read (bytes/msec)", &s->thr[0]);
	mm_print(o, "throughput write (bytes/msec)", &s->thr[1]);
	hist_print(o, "sizes histogram (bytes)", s->size_hist, SIZE_BUCKETS, 1024);
	hist_print(o, "d2c histogram (usec)", s->d2c_hist, D2C_BUCKETS, 8);
	ob_printf(o, "bidirectional requests: %llu\n", (unsigned long long)s->bidir);
}

static void emit_binary(const struct dstat *s, s64 t, u8 *out)
{
	const struct minmax *mm[6] = { &s->size[0], &s->size[1], &s->d2c[0], &s->d2c[1], &s->thr[0], &s->thr[1] };
	int i;

	be_store(out, (u64)t, 8);
	for (i = 0; i < SIZE_BUCKETS; i++)
		be_store(out + 8 + 4 * i, s->size_hist[i], 4);
	for (i = 0; i < D2C_BUCKETS; i++)
		be_store(out + 72 + 4 * i, s->d2c_hist[i], 4);
	be_store(out + 172, s->device, 4);
	for (i = 0; i < 6; i++) {
		be_store(out + 176 + 40 * i, mm[i]->min, 8);
		be_store(out + 184 + 40 * i, mm[i]->max, 8);
		be_store(out + 192 + 40 * i, mm[i]->sum, 8);
		be_store(out + 200 + 40 * i, mm[i]->sos, 8);
		be_store(out + 208 + 40 * i, mm[i]->num, 8);
	}
	be_store(out + 416, s->bidir, 8);
}

/* blkiomon blocks while the queue is full, and so do we: the reader
 * (ziomon_mgr) may pause, and a record dropped then is gone.  A signal
 * interrupts the wait (msgsnd is never restarted); after it, room is
 * awaited MON_QUEUE_WAIT_MS at most in all, and what is still left is
 * counted (-D) and said. */
static void queue_send(struct mon_out *o, const u8 *stat)
{
	static u32 waited;
	struct { long mtype; u8 stat[BLKIOMON_STAT_LEN]; } msg;

	if (o->msq < 0)
		return;
	msg.mtype = o->msg_id;
	memcpy(msg.stat, stat, BLKIOMON_STAT_LEN);
	while (msgsnd(o->msq, &msg, BLKIOMON_STAT_LEN, *o->stop ? IPC_NOWAIT : 0)) {
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN) {
			warn_msg("message queue: %s", strerror(errno));
			o->unsent++;
			return;
		}
		if (waited >= MON_QUEUE_WAIT_MS) {
			o->unsent++;
			return;
		}
		poll(NULL, 0, 10);	/* a sleep without musl's nanosleep */
		waited += 10;
	}
}

/* One interval: every device seen, newest first, as blkiomon lists them;
 * then the next interval starts empty. */
COLD void export_interval(struct mon_out *o, s64 t)
{
	u32 i;

	for (i = mon.list; i; i = mon.dev[i - 1].next) {
		const struct dstat *s = &mon.dev[i - 1];
		u8 bin[BLKIOMON_STAT_LEN];

		if (o->human)
			text_write(o->human, s, t);
		if (o->json)
			mon_json_write(o->json, s, t, o->interval);
		emit_binary(s, t, bin);
		if (o->bin)
			ob_write(o->bin, bin, sizeof(bin));
		queue_send(o, bin);
	}
	if (o->json)
		mon_json_end(o->json, t, o->interval);
	mon_restart();
	if (o->prom)
		mon_prom_write(o->prom);
	if (o->json)
		ob_flush(o->json);
	if (o->human)
		ob_flush(o->human);
	if (o->bin)
		ob_flush(o->bin);
}

TEXT(export_q_needs_q, "-Q needs -q ID and -m MSGID, both above 0")
TEXT(export_no_message_queue, "%s: no message queue (id %ld) appeared in 60 s")
/* blkiomon spins on msgget until the queue exists; we wait with a bounded
 * backoff (10 ms doubling to 1 s) and give up after a minute. */
COLD int export_queue(struct mon_out *o, const char *path, long qid)
{
	key_t key;
	long waited = 0, step = 10;

	o->msq = -1;
	if (!path)
		return 0;
	if (qid <= 0 || o->msg_id <= 0) {
		warn_text(U_export_q_needs_q);
		return -1;
	}
	key = ftok(path, (int)qid);
	if (key == -1) {
		warn_msg("%s: ftok: %s", path, strerror(errno));
		return -1;
	}
	while ((o->msq = msgget(key, S_IRWXU)) < 0 && !*o->stop) {
		if (waited >= 60000) {
			warn_text(U_export_no_message_queue, path, qid);
			return -1;
		}
		poll(NULL, 0, (int)step);
		waited += step;
		step = step * 2 > 1000 ? 1000 : step * 2;
	}
	return o->msq < 0 ? -1 : 0;
}
