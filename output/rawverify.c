/* output/rawverify.c: driver: blkrawverify: per-CPU trace files checked record by record, blkrawverify's report */
//applet: blkrawverify rawverify rawverify_main
//sources: @trace
//readme: blkrawverify 1.2.0: the same report; version 8 verified | blkrawverify.1
/* rawverify: for each DEV, DEV.blktrace.0, .1, ... in turn: every record's
 * magic, its CPU against the file's, then (notes aside) sequence numbers
 * rising, time strictly rising and one device; each bad record dumped
 * with the one before it into DEV.verify.out, as blkrawverify 1.2.0 does
 * it.  The byte order is the first good magic's, for every file after it
 * too (so a file of the other order is all bad traces, as the original's).
 * Version 8 records are checked as version 7 ones (the original stops
 * at them); a bad record is also named on stderr with its byte offset.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>
#include "output/output.h"

USAGE(rawverify,
"usage: iomon rawverify DEV...\n"
"\n"
"Checks DEV.blktrace.0, DEV.blktrace.1, ... in the current folder: magic,\n"
"version (7 or 8), CPU, rising sequence numbers, rising time, one device.\n"
"Bad records go to DEV.verify.out with the record before each.\n")

static struct {
	int order;		/* files' byte order: 0 not known yet, 1 little, 2 big */
	int have_save;
	struct rec save;
	u32 save_magic;
	struct obuf out, vo;
	char outbuf[OUT_BUF], vbuf[OUT_BUF];
	u8 in[STREAM_BUF];
} V;

struct counts {
	u32 good, bad, cpu, seq, dev, time;
	u32 last_seq, last_dev;	/* the last good record's */
	u64 last_time;
	int damaged;		/* stopped at a cut record or an unknown version */
	u64 first_off;
	const char *first;
};

static const char *const ta_names[] = {
	"QUEUE", "QUEUE", "BACKMERGE", "FRONTMERGE", "GETRQ", "SLEEPRQ", "REQUEUE",
	"ISSUE", "COMPLETE", "PLUG", "UNPLUG_IO", "UNPLUG_TIMER", "INSERT",
	"SPLIT", "BOUNCE", "REMAP" };
/* the original's table: bit 10 (notify) has no name, so bits 10-13 take
 * the names of the categories after it */
static const char *const tc_names[] = {
	"READ", "WRITE", "FLUSH", "SYNC", "QUEUE", "REQUEUE", "ISSUE",
	"COMPLETE", "FS", "PC", "AHEAD", "META", "DISCARD", "FUA" };

static void dump(const char *what, const struct rec *r, u32 magic)
{
	struct obuf *o = &V.vo;
	u32 a = (u32)r->action, i;

	ob_printf(o, "    Dump %s\n        %8s: %08x\n        %8s: %u\n", what, "magic", magic,
		  "sequence", r->seq);
	ob_printf(o, "        %8s: %llu\n        %8s: %llu\n        %8s: %u\n", "time",
		  (unsigned long long)r->time, "sector", (unsigned long long)r->sector,
		  "bytes", r->bytes);
	ob_printf(o, "        %8s: ", "action");
	if ((a & 0xffff) < 16) {
		ob_printf(o, "__BLK_TA_%s ", ta_names[a & 0xffff]);
		for (i = 0; i < 14; i++)
			if (a >> 16 & 1u << i)
				ob_printf(o, "| BLK_TC_%s ", tc_names[i]);
	} else
		ob_printf(o, "Invalid action=%08x", a);
	ob_printf(o, "\n        %8s: %u\n        %8s: %u\n        %8s: %u\n", "bytes", r->bytes,
		  "cpu", r->cpu, "error", r->error);
	ob_printf(o, "        %8s: %u\n        %8s: (%u,%u)\n\n", "pdu_len", r->pdu_len, "device",
		  DEV_MAJOR(r->dev), DEV_MINOR(r->dev));
}

static void bad(struct counts *c, const char *what, const struct rec *r, u32 magic, u64 off)
{
	c->bad++;
	if (!c->first) {
		c->first = what;
		c->first_off = off;
	}
	ob_puts(&V.vo, "    ----------------\n");
	if (V.have_save)
		dump("seq-1", &V.save, V.save_magic);
	dump(what, r, magic);
	V.save = *r;
	V.save_magic = magic;
	V.have_save = 1;
}

/* The original's own messages, as it writes them: no applet name */
static void say(const char *fmt, ...)
{
	char buf[PATH_MAX + 128];
	va_list ap;
	int n;

	ob_flush(&V.out);
	va_start(ap, fmt);
	n = vfmt(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(2, buf, (size_t)n) < 0)
		return;
}

TEXT(rawverify_byte_truncated_rec, "%s: byte %llu: truncated record (%u bytes)")
/* A header cut short at the end: the original says nothing */
static void cut(const struct src *s, struct counts *c, u64 off, u32 have)
{
	ob_flush(&V.out);
	warn_text(U_rawverify_byte_truncated_rec, s->name, (unsigned long long)off, have);
	c->damaged = 1;
}

/* A version-7 header as the original reads it: in the files' order once
 * known, until then in the host's. */
static void raw7(const u8 *p, struct rec *r, u32 *magic)
{
	int be = !V.order ? __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ : V.order - 1;
	u32 hi = ne32_load(p + 8, be), lo = ne32_load(p + 12, be);

	*magic = ne32_load(p, be);
	r->seq = ne32_load(p + 4, be);
	r->time = be ? (u64)hi << 32 | lo : (u64)lo << 32 | hi;
	hi = ne32_load(p + 16, be), lo = ne32_load(p + 20, be);
	r->sector = be ? (u64)hi << 32 | lo : (u64)lo << 32 | hi;
	r->bytes = ne32_load(p + 24, be);
	r->action = ne32_load(p + 28, be);
	r->pid = ne32_load(p + 32, be);
	r->dev = ne32_load(p + 36, be);
	r->cpu = ne32_load(p + 40, be);
	hi = ne32_load(p + 44, be);
	r->error = (u16)(be ? hi >> 16 : hi);
	r->pdu_len = (u16)(be ? hi : hi >> 16);
}

TEXT(rawverify_byte_unsupported_t, "%s: byte %llu: unsupported trace version %u")
/* One record's checks; 1 to go on, 0 at the end (or where the original stops). */
static int check(struct src *s, struct counts *c, u32 cpu)
{
	u32 have = src_need(s, REC_V7_LEN), magic;
	u64 off = s->base + s->pos;
	struct rec r;
	int n;

	if (have < REC_V7_LEN) {
		if (have)
			cut(s, c, off, have);
		return 0;
	}
	if (!V.order && rec_decode(s->buf + s->pos, have, &r) != DEC_BADMAGIC)
		V.order = 1 + r.swapped;
	raw7(s->buf + s->pos, &r, &magic);
	if ((magic & 0xffffff00u) != TRACE_MAGIC) {
		bad(c, "bad trace", &r, magic, off);
		s->pos += REC_V7_LEN;
		return 1;
	}
	if ((magic & 0xff) != 7 && (magic & 0xff) != 8) {
		say("unsupported trace version");
		warn_text(U_rawverify_byte_unsupported_t, s->name,
			 (unsigned long long)off, magic & 0xff);
		c->damaged = 1;
		return 0;
	}
	have = src_need(s, (magic & 0xff) == 8 ? REC_V8_LEN : REC_V7_LEN);
	n = rec_decode(s->buf + s->pos, have, &r);
	if (n == DEC_MORE && have >= r.hdr_len) {
		/* (src_need may slide the buffer: the pointer after it) */
		have = src_need(s, (u32)r.hdr_len + r.pdu_len);
		n = rec_decode(s->buf + s->pos, have, &r);
	}
	if (n <= 0) {
		if (have < r.hdr_len) {
			cut(s, c, off, have);
			return 0;
		}
		bad(c, "bad pdu", &r, magic, off);
		c->seq++;
		return 0;
	}
	s->pos += (u32)n;
	if (r.cpu != cpu) {
		bad(c, "bad cpu", &r, magic, off);
		c->cpu++;
	} else if ((u32)r.action & TC(TC_NOTIFY))
		;	/* notes have no sequence of their own */
	else if (c->good && r.seq <= c->last_seq) {
		bad(c, "bad seq", &r, magic, off);
		c->seq++;
	} else if (c->good && r.time <= c->last_time) {
		bad(c, "time regression", &r, magic, off);
		c->time++;
	} else if (c->good && r.dev != c->last_dev) {
		bad(c, "bad dev", &r, magic, off);
		c->dev++;
	} else {
		c->good++;
		c->last_seq = r.seq;
		c->last_time = r.time;
		c->last_dev = r.dev;
		V.save = r;
		V.save_magic = magic;
		V.have_save = 1;
	}
	return 1;
}

TEXT(rawverify_byte_the_first, "%s: byte %llu: %s (the first of %u bad records)")
TEXT(rawverify_summary, "    ---------------------\n    Summary for cpu %u:\n"
	"    %10u valid + %10u invalid (%5.1f%%) processed\n\n")
/* One CPU's file: its records checked, its summary into DEV.verify.out
 * (opened with the first file that opens).  Returns its bad records, -1
 * when it could not be read. */
static int process(const char *dev, const char *file, u32 cpu)
{
	struct counts c;
	struct src s;
	char name[PATH_MAX];
	int fd = open(file, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		ob_flush(&V.out);
		warn_msg("%s: %s", file, strerror(errno));
		return -1;
	}
	if (V.vo.fd < 0) {
		sfmt(name, sizeof(name), "%s.verify.out", dev);
		if ((V.vo.fd = open_out(name, 0666)) < 0) {
			say("Failed to open %s (%s), skipping", name, strerror(errno));
			close(fd);
			return 0;
		}
		ob_printf(&V.vo, "\n---------------\nVerifying %s\n", dev);
	}
	memset(&c, 0, sizeof(c));
	V.have_save = 0;
	src_init(&s, fd, file, V.in, sizeof(V.in));
	while (check(&s, &c, cpu))
		;
	close(fd);
	ob_printf(&V.vo, TX(rawverify_summary), cpu, c.good, c.bad,
		  c.good ? 100.0 * (float)c.good / (float)(c.good + c.bad) : 0.0);
	if (c.bad) {
		static const char *const what[] = { "cpu", "seq", "dev", "time" };
		u32 n[] = { c.cpu, c.seq, c.dev, c.time }, i;

		for (i = 0; i < 4; i++)
			if (n[i])
				ob_printf(&V.vo, "%8s %u %s\n", "", n[i], what[i]);
		ob_puts(&V.vo, "\n");
		ob_flush(&V.out);
		warn_text(U_rawverify_byte_the_first, file,
			 (unsigned long long)c.first_off, c.first, c.bad);
	}
	return c.bad ? (int)c.bad : -c.damaged;
}

int rawverify_main(int argc, char **argv)
{
	char file[PATH_MAX];
	int i, rc = 0;

	ob_init(&V.out, 1, "stdout", V.outbuf, sizeof(V.outbuf));
	if (argc > 1 && !strcmp(argv[1], "--")) {
		argv++;
		argc--;
	}
	if (argc < 2) {
		say("FATAL: Need device name(s)\nUsage: blkrawverify <dev> [<dev>...]");
		return 1;
	}
	for (i = 1; i < argc; i++) {
		u32 cpu;

		ob_init(&V.vo, -1, "verify.out", V.vbuf, sizeof(V.vbuf));
		ob_printf(&V.out, "Verifying %s\n", argv[i]);
		for (cpu = 0;; cpu++) {
			struct stat st;
			int n;

			if (sfmt(file, sizeof(file), "%s.blktrace.%u", argv[i], cpu) >= (int)sizeof(file) ||
			    stat(file, &st) < 0) {
				if (!cpu) {
					say("No tracefiles found for %s", argv[i]);
					rc = 1;
				}
				break;
			}
			ob_printf(&V.out, "    CPU %u ", cpu);
			n = process(argv[i], file, cpu);
			if (n > 0)
				ob_printf(&V.out, "-- %d bad", n);
			if (n)
				rc = 1;
			ob_puts(&V.out, "\n");
		}
		if (V.vo.fd >= 0) {
			if (ob_close(&V.vo))
				rc = 1;
			ob_printf(&V.out, "Wrote output to %s.verify.out\n", argv[i]);
		}
	}
	return ob_close(&V.out) ? 1 : rc;
}
