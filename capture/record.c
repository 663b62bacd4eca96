/* capture/record.c: capture: records in and out: decoding (v7/v8, either byte order), unfilled test, the v7 encoder, big-endian stores, -a names */
/* Records in and out.  Byte order and version are decided from each record's
 * own magic, so a folder may mix a big-endian v7 trace of one device with
 * a little-endian v8 trace of another, on any host.  Loads go byte by byte:
 * the compiler turns them into one (byte-swapping) load where it can, and
 * nothing here cares about alignment or the host's order. */
#include <strings.h>
#include "capture/capture.h"

/* inline always: GCC sizes them before it merges the bytes into one load,
 * so le64 stayed a call per field */
#define LOAD static inline __attribute__((always_inline))
LOAD u16 le16(const u8 *p) { return (u16)(p[0] | p[1] << 8); }
LOAD u32 le32(const u8 *p) { return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24; }
LOAD u64 le64(const u8 *p) { return le32(p) | (u64)le32(p + 4) << 32; }
static u16 be16(const u8 *p) { return (u16)(p[0] << 8 | p[1]); }
u32 be32_load(const u8 *p) { return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3]; }
u64 be64_load(const u8 *p) { return (u64)be32_load(p) << 32 | be32_load(p + 4); }
u32 ne32_load(const u8 *p, int swapped) { return swapped ? be32_load(p) : le32(p); }

/* Field offsets: v7 is struct blk_io_trace, v8 struct blk_io_trace2. */
int rec_decode(const u8 *p, size_t avail, struct rec *r)
{
	u32 m;
	int be;

	if (avail < REC_V7_LEN)
		return DEC_MORE;
	m = le32(p);
	be = 0;
	if ((m & 0xffffff00u) != TRACE_MAGIC) {
		m = be32_load(p);
		be = 1;
		if ((m & 0xffffff00u) != TRACE_MAGIC)
			return DEC_BADMAGIC;
	}
	r->version = (u8)m;
	r->swapped = (u8)be;
	if (r->version == 7) {
		r->hdr_len = REC_V7_LEN;
		if (be) {
			r->seq = be32_load(p + 4);
			r->time = be64_load(p + 8);
			r->sector = be64_load(p + 16);
			r->bytes = be32_load(p + 24);
			r->action = be32_load(p + 28);
			r->pid = be32_load(p + 32);
			r->dev = be32_load(p + 36);
			r->cpu = be32_load(p + 40);
			r->error = be16(p + 44);
			r->pdu_len = be16(p + 46);
		} else {
			r->seq = le32(p + 4);
			r->time = le64(p + 8);
			r->sector = le64(p + 16);
			r->bytes = le32(p + 24);
			r->action = le32(p + 28);
			r->pid = le32(p + 32);
			r->dev = le32(p + 36);
			r->cpu = le32(p + 40);
			r->error = le16(p + 44);
			r->pdu_len = le16(p + 46);
		}
	} else if (r->version == 8) {
		r->hdr_len = REC_V8_LEN;
		r->pdu_len = 0;		/* so a caller asks for the whole header */
		if (avail < REC_V8_LEN)
			return DEC_MORE;
		if (be) {
			r->seq = be32_load(p + 4);
			r->time = be64_load(p + 8);
			r->sector = be64_load(p + 16);
			r->bytes = be32_load(p + 24);
			r->pid = be32_load(p + 28);
			r->action = be64_load(p + 32);
			r->dev = be32_load(p + 40);
			r->cpu = be32_load(p + 44);
			r->error = be16(p + 48);
			r->pdu_len = be16(p + 50);
		} else {
			r->seq = le32(p + 4);
			r->time = le64(p + 8);
			r->sector = le64(p + 16);
			r->bytes = le32(p + 24);
			r->pid = le32(p + 28);
			r->action = le64(p + 32);
			r->dev = le32(p + 40);
			r->cpu = le32(p + 44);
			r->error = le16(p + 48);
			r->pdu_len = le16(p + 50);
		}
	} else
		return DEC_BADVERSION;
	if (avail < (size_t)r->hdr_len + r->pdu_len)
		return DEC_MORE;
	r->pdu = p + r->hdr_len;
	return r->hdr_len + r->pdu_len;
}

/* 48 zero bytes: space a relay buffer reserved and never filled. */
int rec_unfilled(const u8 *p)
{
	u64 acc = 0;
	int i;

	if (p[0] | p[1] | p[2] | p[3])	/* a magic: the common case, at once */
		return 0;
	for (i = 4; i < REC_V7_LEN; i++)
		acc |= p[i];
	return !acc;
}

/* Host-order version-7 header, as blkparse -d writes it for btt. */
static void rec_encode_v7(u8 *out, const struct rec *r)
{
	struct {
		u32 magic, seq;
		u64 time, sector;
		u32 bytes, action, pid, dev, cpu;
		u16 error, pdu_len;
	} h = { TRACE_MAGIC | 7, r->seq, r->time, r->sector, r->bytes,
		(u32)r->action, r->pid, r->dev, r->cpu, r->error, r->pdu_len };
	_Static_assert(sizeof(h) == REC_V7_LEN, "blk_io_trace is 48 bytes");
	__builtin_memcpy(out, &h, REC_V7_LEN);
}

u32 rec_encode(u8 *out, u32 room, const struct rec *r)
{
	rec_encode_v7(out, r);
	if (REC_V7_LEN + (u32)r->pdu_len > room)
		return REC_V7_LEN;
	if (r->pdu_len)
		__builtin_memcpy(out + REC_V7_LEN, r->pdu, r->pdu_len);
	return REC_V7_LEN + r->pdu_len;
}

void rec_write(struct obuf *o, const struct rec *r)
{
	char *p = ob_room(o, REC_V7_LEN);

	rec_encode_v7((u8 *)p, r);
	ob_done(o, p + REC_V7_LEN);
	ob_write(o, r->pdu, r->pdu_len);
}

void be_store(u8 *p, u64 v, int n)
{
	while (n--) {
		p[n] = (u8)v;
		v >>= 8;
	}
}

/* v as n bytes in a record's own order (big-endian when be) */
void ne_store(u8 *p, u64 v, int n, int be)
{
	if (be)
		be_store(p, v, n);
	else
		for (; n--; v >>= 8)
			*p++ = (u8)v;
}

/* Category names for -a, in bit order; blktrace and blkparse also take the
 * kernel's BLK_TC_ spelling.  Returns the bit, or -1. */
int mask_bit(const char *s)
{
	static const char *const names[] = {
		"read", "write", "flush", "sync", "queue", "requeue", "issue", "complete",
		"fs", "pc", "notify", "ahead", "meta", "discard", "drv_data", "fua",
	};
	int i;

	if (!strncasecmp(s, "BLK_TC_", 7))
		s += 7;
	for (i = 0; i < 16; i++)
		if (!strcasecmp(s, names[i]))
			return 1 << i;
	return -1;
}
