/* libFuzzer target: the record decoder and the stream reader.
 *
 * Input: one selector byte, then trace bytes.  Three readings of the same
 * bytes must agree record for record (a differential check, not only a
 * crash hunt): rec_decode over the flat buffer; src_record over an fd
 * whose reads return selector-chosen short counts, so records straddle
 * reads and the buffer slides; src_record over a pushed source (btrace's
 * and monitor -t's path) fed in pieces.  A buffer too small for a record
 * (selector) is allowed to stop early, never to misread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "output/output.h"
#include "fuzz.h"

#define MAXREC 4096
static struct rec want[MAXREC];
static u8 big[STREAM_BUF];
static u32 nwant;

static void mismatch(const char *how, u32 i)
{
	fprintf(stderr, "fuzz_decode: %s disagrees with the flat decode at record %u\n", how, i);
	abort();
}

static int same(const struct rec *a, const struct rec *b)
{
	return a->time == b->time && a->sector == b->sector && a->action == b->action &&
	       a->seq == b->seq && a->bytes == b->bytes && a->pid == b->pid && a->dev == b->dev &&
	       a->cpu == b->cpu && a->error == b->error && a->pdu_len == b->pdu_len &&
	       a->version == b->version && a->swapped == b->swapped && a->hdr_len == b->hdr_len &&
	       !memcmp(a->pdu, b->pdu, a->pdu_len);
}

/* What src_record should yield: records, stepping over 48 zero bytes. */
static void flat(const u8 *p, size_t n)
{
	size_t off = 0;

	nwant = 0;
	while (nwant < MAXREC) {
		struct rec *r = &want[nwant];
		int k;

		while (n - off >= 48 && rec_unfilled(p + off))
			off += 48;
		if (off == n)
			break;
		k = rec_decode(p + off, n - off, r);
		if (k <= 0)
			break;
		if ((size_t)k != (size_t)r->hdr_len + r->pdu_len || (size_t)k > n - off ||
		    r->pdu != p + off + r->hdr_len || (r->hdr_len != 48 && r->hdr_len != 64))
			mismatch("rec_decode's own length", nwant);
		off += (size_t)k;
		nwant++;
	}
}

static void by_fd(const u8 *p, size_t n, u32 cap, int exact)
{
	struct src s;
	struct rec r;
	u32 i = 0;

	fuzz_stdin(p, n);
	src_init(&s, 0, "(fuzz)", big, cap);
	while (i < nwant && src_record(&s, &r) > 0) {
		if (r.pdu < s.buf || r.pdu + r.pdu_len > s.buf + s.len)
			mismatch("the fd reader's payload bounds", i);
		if (!same(&r, &want[i]))
			mismatch("the fd reader", i);
		i++;
	}
	if (exact && i < nwant)
		mismatch("the fd reader (ended early)", i);
}

/* The pushed reader through src_feed, as monitor -t and top -d drive it:
 * pieces in, whole records taken after each and whenever it is full. */
static struct src ps;
static u32 pi;

static void push_drain(void)
{
	struct rec r;

	for (; pi < nwant && src_record(&ps, &r) > 0; pi++)
		if (!same(&r, &want[pi]))
			mismatch("the pushed reader", pi);
}

static void by_push(const u8 *p, size_t n, size_t piece)
{
	size_t off, k;

	src_init_push(&ps, big, STREAM_BUF);
	pi = 0;
	for (off = 0; off < n; off += k) {
		k = n - off < piece ? n - off : piece;
		if (src_feed(&ps, p + off, k, push_drain))
			break;	/* full of what is not a whole record: past the expected ones */
		push_drain();
	}
	if (pi < nwant)
		mismatch("the pushed reader (ended early)", pi);
}

static int run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const u32 caps[4] = { STREAM_BUF, STREAM_BUF, 65599 + 64, 4096 };
	char *argv[] = { "decode", NULL };
	unsigned sel;

	if (!size)
		return 0;
	sel = data[0];
	data++, size--;
	fuzz_run(run, argv);	/* fresh globals (src_errors and friends) */
	flat(data, size);
	fuzz_chunk = fuzz_chunk_pick(sel);
	by_fd(data, size, caps[(sel >> 2) & 3], caps[(sel >> 2) & 3] >= 65599);
	fuzz_chunk = 0;
	by_push(data, size, sel >> 4 ? (sel >> 4) * 37 : size + 1);
	return 0;
}
