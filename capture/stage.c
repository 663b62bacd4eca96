/* capture/stage.c: capture: one stream in time order across CPUs (the stage, the CPUs' marks, the merge) */
/* Each CPU's buffer holds its records in time order, but a round reads
 * the CPUs one after another: written as read, a stream goes back in time
 * at each CPU (blkparse then prints wrapped times).  So a stream's records
 * wait in the stage until every CPU has been read past them: a backend
 * marks each CPU with the clock taken before it read that CPU dry (every
 * record stamped earlier is then in hand), and the records older than the
 * oldest mark go out merged by time.  Whole records only. */
#include <string.h>
#include "capture/backend.h"

/* a relay chunk (half of CAP_BUF, and the rest of its last record) fits */
_Static_assert(CAP_STAGE >= CAP_BUF, "CAP_STAGE holds a read of CAP_BUF");
static u8 stage[CAP_STAGE], stage_o[STAGE_OUT];
static u32 stage_len, stage_olen;
static u64 mark[CAP_CPUS];
static u64 stage_full;	/* times the stage filled before every CPU was read */
static u64 stage_bad;	/* bytes that were no whole record: dropped */

void cap_mark(u32 cpu, u64 t)
{
	if (cpu < CAP_CPUS)
		mark[cpu] = t;
}

static u64 watermark(void)
{
	u64 w = ~0ull;
	u32 c;

	for (c = 0; c < C.ncpu; c++)
		if (mark[c] < w)
			w = mark[c];
	return w;
}

static void stage_flush(void)
{
	if (stage_olen && !C.write_failed) {
		if (C.cfg.sink) {
			if (C.cfg.sink(C.cfg.ctx, stage_o, stage_olen))
				cap_fail();
		} else {
			/* one output for the merged stream: device 0's CPU 0 */
			u64 b = C.dev[0].bytes[0];

			out_write(&C.dev[0], 0, stage_o, stage_olen);
			C.dev[0].bytes[0] = b;	/* counted where it was read */
		}
	}
	stage_olen = 0;
}

static u64 rec_time(const u8 *p)
{
	u64 t;

	memcpy(&t, p + 8, 8);	/* v7 and v8 alike, in the kernel's order */
	return t;
}

/* The stage's records older than until, merged by time and written; the
 * rest kept, each run's in its order. */
static void emit(u64 until)
{
	static struct { u32 at, end; u64 t; } run[STAGE_RUNS];
	u32 n = 0, o = 0, keep = 0, i;
	u64 last = 0;

	while (o < stage_len) {
		int l = rec_span(stage + o, stage_len - o);
		u64 t;

		if (l <= 0 || o + (u32)l > stage_len)
			break;	/* no whole record: cannot be, counted below if it is */
		t = rec_time(stage + o);
		if (!n || (t < last && n < STAGE_RUNS)) {
			run[n].at = o;
			run[n++].t = t;
		}
		run[n - 1].end = o + (u32)l;
		last = t;
		o += (u32)l;
	}
	if (o < stage_len) {
		stage_bad += stage_len - o;
		stage_len = o;
	}
	for (;;) {
		u32 b = n, l;

		for (i = 0; i < n; i++)
			if (run[i].at < run[i].end && run[i].t < until && (b == n || run[i].t < run[b].t))
				b = i;
		if (b == n)
			break;
		l = (u32)rec_span(stage + run[b].at, run[b].end - run[b].at);
		if (stage_olen + l > STAGE_OUT)
			stage_flush();
		memcpy(stage_o + stage_olen, stage + run[b].at, l);
		stage_olen += l;
		run[b].at += l;
		if (run[b].at < run[b].end)
			run[b].t = rec_time(stage + run[b].at);
	}
	stage_flush();
	for (i = 0; i < n; i++) {
		memmove(stage + keep, stage + run[i].at, run[i].end - run[i].at);
		keep += run[i].end - run[i].at;
	}
	stage_len = keep;
}

int stage_put(const void *p, size_t n)
{
	if (n > CAP_STAGE - stage_len) {
		emit(watermark());
		if (n > CAP_STAGE - stage_len) {
			stage_full++;
			emit(~0ull);
		}
	}
	memcpy(stage + stage_len, p, n);
	stage_len += (u32)n;
	return C.write_failed ? -1 : 0;
}

/* After each round: what every CPU has been read past; last: after the
 * drain, when every record is in hand, the whole stage. */
void stage_round(int last)
{
	emit(last ? ~0ull : watermark());
}

/* half full: the backend should read every CPU now */
int cap_stage_high(void)
{
	return stage_len > CAP_STAGE / 2;
}

TEXT(stage_the_stream_s, "the stream's order buffer met %llu bytes that were no whole "
	"record: dropped")
TEXT(stage_the_stream_s2, "the stream's order buffer (CAP_STAGE, %u KiB) filled %llu times "
	"before every CPU had been read: records there may be out of "
	"time order")
void stage_report(void)
{
	if (stage_bad)
		warn_text(U_stage_the_stream_s,
			 (unsigned long long)stage_bad);
	if (stage_full)
		warn_text(U_stage_the_stream_s2, CAP_STAGE >> 10,
			 (unsigned long long)stage_full);
}
