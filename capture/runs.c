/* capture/runs.c: capture: a live round's records merged by time across its per-CPU runs */
/* A round of live capture holds each CPU's records in turn, each CPU's in
 * time order.  A request queued on one CPU can complete on another, so a
 * reader that pairs records (top) takes the round merged by time: the
 * bytes are cut into runs where the CPU changes or time steps back, and
 * the earliest head of any run goes first (ties to the earlier run).
 * Unfilled relay records are stepped over silently (src_record counted
 * them).  A round with more than TOP_RUNS runs (many CPUs, a buffer
 * drained mid-round) is merged TOP_RUNS runs at a time. */
#include "capture/capture.h"

static struct { u32 at, end; u64 t; } run[TOP_RUNS];

static u32 run_skip(const u8 *buf, u32 off, u32 end)	/* past unfilled relay records */
{
	while (end - off >= REC_V7_LEN && rec_unfilled(buf + off))
		off += REC_V7_LEN;
	return off;
}

static void merge(const u8 *buf, u32 n, void (*fn)(void *ctx, const struct rec *r), void *ctx)
{
	struct rec r;

	for (;;) {
		u32 i, b = n;

		for (i = 0; i < n; i++)
			if (run[i].at < run[i].end && (b == n || run[i].t < run[b].t))
				b = i;
		if (b == n)
			return;
		if (rec_decode(buf + run[b].at, run[b].end - run[b].at, &r) <= 0) {
			run[b].at = run[b].end;	/* src_record said it was whole */
			continue;
		}
		fn(ctx, &r);
		run[b].at = run_skip(buf, run[b].at + r.hdr_len + r.pdu_len, run[b].end);
		if (run[b].at < run[b].end && rec_decode(buf + run[b].at, run[b].end - run[b].at, &r) > 0)
			run[b].t = r.time;
	}
}

void runs_merge(struct src *s, void (*fn)(void *ctx, const struct rec *r), void *ctx)
{
	struct rec r;
	u32 n = 0, cpu = 0;
	u64 t = 0;

	for (;;) {
		u32 at = s->pos;
		int got = src_record(s, &r) > 0;
		int fresh = !n || !got || r.cpu != cpu || r.time < t;

		if (n && fresh)
			run[n - 1].end = at;
		if (!got)
			break;
		if (fresh) {
			if (n == TOP_RUNS) {
				merge(s->buf, n, fn, ctx);
				n = 0;
			}
			run[n].at = run_skip(s->buf, at, s->len);
			run[n++].t = r.time;
		}
		cpu = r.cpu;
		t = r.time;
	}
	merge(s->buf, n, fn, ctx);
}

/* A live round's bytes in s (pushed), whole records only to fn: bytes that do
 * not decode (a capture that lost its place) are stepped over to the next
 * record and counted in *bad (the caller says so once), never re-read.  A stretch in
 * time order (the capture merged it) is taken as it is, else merged by
 * time across its CPUs' runs (capture/runs.c). */
void runs_take(struct src *s, void (*fn)(void *ctx, const struct rec *r), void *ctx, unsigned long long *bad)
{
	u32 end = s->len, at;
	struct rec r;
	int n = 0;

	while (s->pos < end) {
		u64 t = 0;
		int sorted = 1;

		for (at = s->pos; end - at >= REC_V7_LEN; at += (u32)n) {
			if (rec_unfilled(s->buf + at))
				n = REC_V7_LEN;
			else if ((n = rec_decode(s->buf + at, end - at, &r)) <= 0)
				break;
			else if (r.time < t)
				sorted = 0;
			else
				t = r.time;
		}
		s->len = at;	/* whole records only, up to here */
		if (!sorted)
			runs_merge(s, fn, ctx);
		else
			while (src_record(s, &r) > 0)
				fn(ctx, &r);
		s->len = end;
		s->pos = at;
		if (end - at < REC_V7_LEN || !n)	/* the rest is to come */
			break;
		/* not a record: on to the next byte where one may start */
		while (++at < end && end - at >= REC_V7_LEN && rec_decode(s->buf + at, end - at, &r) < 0)
			;
		*bad += at - s->pos;
		s->pos = at;
	}
}
