/* capture/source.c: capture: byte sources (fd or pushed), damage messages, zero-record report */
/* Input sources: a trace file or stdin read in large chunks into a fixed
 * buffer owned by the caller.  A record is always decoded from contiguous
 * bytes: when one straddles the end we slide the tail to the front. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <string.h>
#include "capture/capture.h"

unsigned long long src_errors, src_zero_records;
const char *src_zero_first;
unsigned long long src_zero_first_off;

COLD void src_init(struct src *s, int fd, const char *name, u8 *buf, u32 cap)
{
	s->fd = fd;
	s->eof = fd < 0;
	s->name = name;
	s->buf = buf;
	s->cap = cap;
	s->pos = s->len = 0;
	s->keep = NO_KEEP;
	s->base = 0;
	s->push = 0;
	s->z = 0;
}

/* A read, through the decompressor when the input is zstd's. */
static long src_read(struct src *s, u32 ask)
{
	long n;

	if (s->z)
		return zsrc_read(s, ask);
	n = read(s->fd, s->buf + s->len, ask);
	if (n <= 0 || s->base || s->len)
		return n;
	/* the magic can come in pieces down a pipe: 4 bytes before deciding */
	while (n < 4 && (u32)n < ask) {
		long k = read(s->fd, s->buf + n, ask - (u32)n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		n += k;
	}
	return zsrc_is(s->buf, (u32)n) ? zsrc_start(s, (u32)n, ask) : n;
}

TEXT(source_read_error_at, "%s: read error at byte %llu: %s")
u32 src_need(struct src *s, u32 want)
{
	while (s->len - s->pos < want && !s->eof && !s->push) {
		long n;
		u32 ask;

		u32 from = s->keep < s->pos ? s->keep : s->pos;

		/* Slide down as soon as that is cheaper than what it saves:
		 * the same low pages get reused, which keeps RSS small. */
		if (from && (s->cap - s->len < STREAM_READ || s->len - from <= from)) {
			memmove(s->buf, s->buf + from, s->len - from);
			s->base += from;
			s->len -= from;
			s->pos -= from;
			if (s->keep != NO_KEEP)
				s->keep -= from;
		}
		ask = s->cap - s->len;
		if (ask > STREAM_READ && want <= STREAM_READ)
			ask = STREAM_READ;
		if (!ask)
			break;
		n = src_read(s, ask);
		if (n == -2) {
			src_errors++;
			s->eof = 1;
		} else if (n < 0) {
			if (errno == EINTR)
				continue;
			warn_text(U_source_read_error_at, s->name,
				 (unsigned long long)(s->base + s->len), strerror(errno));
			src_errors++;
			s->eof = 1;
		} else if (n == 0)
			s->eof = 1;
		else
			s->len += (u32)n;
	}
	return s->len - s->pos;
}

TEXT(source_truncated_record_at, "%s: truncated record at byte %llu (%u bytes left, record needs "
	"%u)")
TEXT(source_bad_trace_magic, "%s: bad trace magic %08x at byte %llu")
TEXT(source_unsupported_trace_ver, "%s: unsupported trace version %u at byte %llu")
int src_slow(struct src *s, struct rec *r)
{
	u32 have = s->len - s->pos;
	int n;

	if (have < REC_V7_LEN)	/* a v7 record can be complete at 48 */
		have = src_need(s, REC_V7_LEN);
	/* A relay read while tracing can return space the kernel reserved but
	 * has not filled yet: 48 zero bytes where no real record can be zero.
	 * blkparse stops the file there and loses the rest; we step over it.
	 * (A first byte not zero is a record: no call for the common case.) */
	while (have >= REC_V7_LEN && !s->buf[s->pos] && rec_unfilled(s->buf + s->pos)) {
		if (!src_zero_records++) {
			src_zero_first = s->name;
			src_zero_first_off = s->base + s->pos;
		}
		s->pos += REC_V7_LEN;
		have = src_need(s, REC_V8_LEN);
	}
	if (!have)
		return 0;
	if (s->push && have < REC_V7_LEN)
		return 0;
	n = rec_decode(s->buf + s->pos, have, r);
	/* A version-8 record can take two rounds: its header's 64 bytes
	 * first, then the payload the header names. */
	while (n == DEC_MORE) {
		u32 want = have < REC_V7_LEN ? REC_V7_LEN : (u32)r->hdr_len + r->pdu_len, had = have;

		have = src_need(s, want);
		if (have == had)
			break;		/* end of input, or nothing pushed yet */
		n = rec_decode(s->buf + s->pos, have, r);
	}
	if (n > 0) {
		s->pos += (u32)n;
		return 1;
	}
	if (n == DEC_MORE && s->push)
		return 0;	/* the rest is still to come */
	src_errors++;
	if (n == DEC_MORE)
		warn_text(U_source_truncated_record_at,
			 s->name, (unsigned long long)(s->base + s->pos), have,
			 have < REC_V7_LEN ? REC_V7_LEN : (unsigned)r->hdr_len + r->pdu_len);
	else if (n == DEC_BADMAGIC)
		warn_text(U_source_bad_trace_magic, s->name,
			 be32_load(s->buf + s->pos), (unsigned long long)(s->base + s->pos));
	else
		warn_text(U_source_unsupported_trace_ver, s->name,
			 r->version, (unsigned long long)(s->base + s->pos));
	s->eof = 1;
	s->pos = s->len;
	return -1;
}

/* The common case inline (src_next), the rest a call: with it all in one
 * function, its register saves and checks were a third of a dump's
 * decoding (cachegrind). */
HOTFN int src_record(struct src *s, struct rec *r)
{
	return src_next(s, r);
}

TEXT(source_skipped_unfilled_all, "skipped %llu unfilled (all-zero) records, the first in %s at "
	"byte %llu")
/* Unfilled records stepped over are damage too: say where the first was. */
COLD void src_zero_report(void)
{
	if (src_zero_records)
		warn_text(U_source_skipped_unfilled_all,
			 src_zero_records, src_zero_first, src_zero_first_off);
}

/* Append bytes to a pushed source (fd -1, push set), sliding consumed
 * bytes out first.  Returns how many bytes fit. */
size_t src_push(struct src *s, const void *p, size_t n)
{
	u32 room;

	if (s->pos) {
		memmove(s->buf, s->buf + s->pos, s->len - s->pos);
		s->base += s->pos;
		s->len -= s->pos;
		s->pos = 0;
	}
	room = s->cap - s->len;
	if (room > n)
		room = (u32)n;
	memcpy(s->buf + s->len, p, room);
	s->len += room;
	return room;
}

/* A source fed by a live capture rather than read from a file. */
COLD void src_init_push(struct src *s, u8 *buf, u32 cap)
{
	src_init(s, -1, "(capture)", buf, cap);
	s->eof = 0;
	s->push = 1;
}

/* All n bytes into a pushed source; when it is full, drain() takes the whole
 * records there first.  -1 when a full buffer gives up none (no room even
 * for one record). */
int src_feed(struct src *s, const void *p, size_t n, void (*drain)(void))
{
	const u8 *b = p;

	while (n) {
		size_t k = src_push(s, b, n);

		if (!k) {
			u32 before = s->pos;

			drain();
			if (s->pos == before)
				return -1;
		}
		b += k;
		n -= k;
	}
	return 0;
}
