/* output/bpin.c: output: btt's and plot's inputs (a dump, trace files by name, a stream, a live capture), records in time order to a function */
/* A dump (blkparse -d, iomon parse -d) is read with the shared decoder
 * (capture/source.c).  Trace files, a raw stream and a live capture go
 * through blkparse's own engine (output/bploop.c) with its -d records
 * handed over instead of written: the same records, times from the same
 * genesis, as `blkparse -d DUMP -O` and then a tool on DUMP. */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "output/bp.h"

static struct {
	char **in;
	int nin;
	void (*fn)(const struct rec *);
	void (*round)(void);
} I;

/* the dump (stdin's: its first record already taken) in its order, read
 * straight (one input: the merge's heads and picks cost a tenth of btt's
 * time).  One: a dump's notes keep the kernel's times, its records
 * blkparse's, so two would not merge by time. */
static int read_dump(int from_stdin)
{
	struct src s;
	struct rec r;
	int fd = from_stdin ? 0 : open(I.in[0], O_RDONLY | O_CLOEXEC), n;

	if (fd < 0) {
		err_sys(I.in[0]);
		return 1;
	}
	src_init(&s, fd, fd ? I.in[0] : "(stdin)", merge_mem(0), STREAM_BUF);
	while ((n = src_next(&s, &r)) > 0)
		I.fn(&r);
	close(fd);
	src_zero_report();
	return n < 0;
}

/* blkparse -O -d, its records to the caller */
static void engine(void)
{
	bp_defaults();
	P.text = 0;
	P.dumping = 1;
	P.dump_to = I.fn;
}

static COLD int read_traces(void)
{
	int i;

	engine();
	for (i = 0; i < I.nin; i++)
		dev_add(I.in[i], 0);	/* BP_INPUTS: there is room */
	return bp_files() < 0 ? 1 : bp_end(0);
}

/* Stdin up to its first record that is not a note, read exactly: a dump's
 * times start at 0 (blkparse's genesis), a raw trace's at the kernel
 * clock's (seconds since boot at least).  Notes do not count for btt. */
static u8 peek[REC_V8_LEN + 65536];

static COLD int read_stdin(void)
{
	struct rec r;
	u32 n = 0, want = REC_V7_LEN;
	ssize_t k;

	for (;;) {
		for (; n < want; n += (u32)k)
			if ((k = read(0, peek + n, want - n)) <= 0) {
				if (!k && !n)
					return 0;	/* empty */
				goto bad;
			}
		if ((k = rec_decode(peek, n, &r)) == DEC_MORE) {
			want = (u32)r.hdr_len + r.pdu_len;
			continue;
		}
		if (k < 0)
			goto bad;
		if (!REC_IS_NOTE(&r))
			break;
		I.fn(&r);	/* a process's name (btt -A) */
		n = 0;
		want = REC_V7_LEN;
	}
	if (r.time < 1000000000) {
		I.fn(&r);
		return read_dump(1);
	}
	engine();
	bp_push_begin();
	while (!bp_push(peek, n) && (k = read(0, peek, sizeof(peek))) > 0)
		n = (u32)k;
	return bp_end(0);
bad:
	warn_msg("(stdin): not a dump or a trace");
	return 1;
}

/* blktrace -o - | blkparse -i - -d, as btrace runs it */
static COLD int read_live(struct cap_cfg *c)
{
	int rc;

	engine();
	P.batch_n = 100000;
	rc = bp_live(c, I.round);
	return bp_end(0) || rc;
}

/* 0: a dump (a regular file), 1: a trace's name, 2: stdin */
int bp_in_kind(const char *s)
{
	struct stat st;

	if (!strcmp(s, "-"))
		return 2;
	return str_find(s, ".blktrace.") || stat(s, &st) || !S_ISREG(st.st_mode);
}

COLD int bp_read_in(char **in, int nin, struct cap_cfg *c, void (*fn)(const struct rec *), void (*round)(void))
{
	int i, k = nin ? bp_in_kind(in[0]) : 3;

	I.in = in, I.nin = nin, I.fn = fn, I.round = round;
	for (i = 1; i < nin; i++)
		if (bp_in_kind(in[i]) != k || k != 1)
			k = 4;
	if (k == 4 || (nin && cap_ndev())) {
		warn_msg("one dump, one -, trace names, or -t");
		return 1;
	}
	return k == 3 ? read_live(c) : k == 2 ? read_stdin() : k ? read_traces() : read_dump(0);
}

