/* output/btrecord.c: driver: btrecord: each trace file's Q events as btreplay's timed bunches in DEV.replay.CPU */
//applet: btrecord btrecord record_main
//sources: capture/record.c capture/source.c capture/zsrc.c
//readme: btrecord 1.2.0: byte-identical .replay files, true header counts, version 8 | btrecord.8
/* btrecord: for every DEV named (or found with -F), each DEV.blktrace.N
 * from N = 0 up to the first missing one becomes DEV.replay.N: a 32-byte
 * header (version, the first Q's time, bunches, I/Os), then bunches: their
 * I/O count and start time, then per I/O its sector, bytes and direction.
 * A bunch closes at -M I/Os or when the next Q comes more than -m ns
 * after its first.  All in host byte order, as Debian's btrecord writes
 * them, whatever the trace's order or version (the shared decoder).
 * Debian's header counts leave out the last bunch; ours count it.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "capture/capture.h"

USAGE(record,
"usage: btrecord [-d DIR] [-D DIR] [-F] [-m NSEC] [-M PKTS] [-o BASE] [-v] [-V] DEV...\n"
"\n"
"Turns the Q events of DEV.blktrace.N into btreplay's DEV.BASE.N files.\n"
"\n"
" -d, --input-directory DIR    where the traces are (default .)\n"
" -D, --output-directory DIR   where the replay files go (default .)\n"
" -F, --find-traces            every DEV with a .blktrace. file in -d's folder\n"
" -h, --help                   this text\n"
" -m, --max-bunch-time NSEC    a bunch spans at most NSEC ns (default 10 ms)\n"
" -M, --max-pkts PKTS          at most PKTS I/Os a bunch, 1 to 512 (default 8)\n"
" -o, --output-base BASE       the files' middle name (default replay)\n"
" -v, --verbose                a DEV.BASE.N.rec text file too; twice: each Q\n"
" -V, --version                the version\n")

#define BT_MAX_PKTS 512		/* btreplay's limit on a bunch */
#define BT_VERSION 0x010000	/* 1.0.0, in the file header */

struct pkt {			/* struct io_pkt as x86_64 lays it out */
	u64 sector, nbytes;
	u32 rw, pad;
};
_Static_assert(sizeof(struct pkt) == 24, "a replay packet is 24 bytes");

static struct {
	const char *idir, *odir, *obase;
	u64 max_tm, max_pkts;
	int verbose, find, bad;
	u16 ndevs, names_len;
	u16 dev[BTREC_DEVS];	/* offsets into names */
	char names[BTREC_NAMES];
	/* the file being written */
	u64 genesis, last, start, bunches, pkts, tpkts;
	u32 nb;
	int cpu;
	const char *devnm;
	char oname[PATH_LEN];
	struct obuf out, rec;
	struct pkt bunch[BT_MAX_PKTS];
	char outbuf[BTREC_OUT_BUF], recbuf[BTREC_REC_BUF];
	u8 inbuf[BTREC_IN_BUF];
} R;

/* Debian's stderr lines (-v), each written at once as its stderr is */
static COLD void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static COLD void say(const char *fmt, ...)
{
	char b[PATH_LEN + 128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfmt(b, sizeof(b), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(b) - 1)
		n = (int)sizeof(b) - 1;
	if (write(2, b, (size_t)n) < 0)
		return;
}

/* ---- the devices ---- */

TEXT(btrecord_more_than_devices, "more than %d devices (BTREC_DEVS) or %d bytes of their names "
	"(BTREC_NAMES)")
static COLD int add_dev(const char *name, size_t len)
{
	char path[PATH_LEN];
	u16 i;

	for (i = 0; i < R.ndevs; i++)
		if (!strncmp(R.names + R.dev[i], name, len) && !R.names[R.dev[i] + len])
			return 0;
	if (R.ndevs == BTREC_DEVS || R.names_len + len + 1 > BTREC_NAMES) {
		warn_text(U_btrecord_more_than_devices,
			 BTREC_DEVS, BTREC_NAMES);
		return -1;
	}
	memcpy(R.names + R.names_len, name, len);
	R.names[R.names_len + len] = 0;
	if (sfmt(path, sizeof(path), "%s/%s.blktrace.0", R.idir, R.names + R.names_len) >= (int)sizeof(path) ||
	    access(path, R_OK)) {
		warn_msg("No traces found for %s", R.names + R.names_len);
		return -1;
	}
	R.dev[R.ndevs++] = R.names_len;
	R.names_len = (u16)(R.names_len + len + 1);
	return 0;
}

/* -F: each name with ".blktrace." in it names a device: up to its first dot */
static COLD long found(const char *dir, const char *name, void *arg)
{
	const char *dot = strchr(name, '.');

	(void)dir, (void)arg;
	if (!str_find(name, ".blktrace."))
		return 0;
	return add_dev(name, (size_t)(dot - name)) ? 1 : 0;
}

/* ---- one output file ---- */

static void flush_bunch(void)
{
	u64 h[2] = { R.nb, R.start };
	u32 i;

	if (!R.nb)
		return;
	ob_write(&R.out, h, sizeof(h));
	ob_write(&R.out, R.bunch, R.nb * sizeof(struct pkt));
	if (R.verbose) {
		u64 off = R.start - R.genesis;

		ob_printf(&R.rec, "------------------\n%4llu.%09llu %3llu\n------------------\n",
			  (unsigned long long)(off / 1000000000), (unsigned long long)(off % 1000000000),
			  (unsigned long long)R.nb);
		for (i = 0; i < R.nb; i++)
			ob_printf(&R.rec, "\t%1d %10llu\t%10llu\n", (int)R.bunch[i].rw,
				  (unsigned long long)R.bunch[i].sector, (unsigned long long)(R.bunch[i].nbytes / 512));
	}
	R.bunches++;
	R.pkts += R.nb;
	R.nb = 0;
}

TEXT(btrecord_time_goes_back, "%s: time goes back at byte %llu: a Q at %llu ns after one at "
	"%llu ns")
/* A Q into the open bunch, or a new one: 0, or -1 when time goes back */
static int add_io(const struct rec *r, u64 at, const char *in)
{
	u32 act = (u32)r->action;

	if (R.verbose > 1)
		say("%2d: %10llu+%10llu (%d) @ %10llx\n", R.cpu, (unsigned long long)r->sector,
		    (unsigned long long)(r->bytes / 512), !!(act & TC(TC_READ)), (unsigned long long)r->time);
	if (!R.genesis) {
		R.genesis = r->time;
		if (R.verbose > 1)
			say("\tSetting new genesis: %llx(%d)\n", (unsigned long long)R.genesis, R.cpu);
	} else if (r->time < R.last) {
		warn_text(U_btrecord_time_goes_back,
			 in, (unsigned long long)at, (unsigned long long)r->time, (unsigned long long)R.last);
		return -1;
	}
	if (R.nb && (R.nb >= R.max_pkts || r->time - R.start > R.max_tm))
		flush_bunch();
	if (!R.nb)
		R.start = r->time;
	R.bunch[R.nb].sector = r->sector;
	R.bunch[R.nb].nbytes = r->bytes;
	R.bunch[R.nb].rw = !!(act & TC(TC_READ));
	R.bunch[R.nb].pad = 0;
	R.nb++;
	R.last = r->time;
	return 0;
}

/* The header: at the start (zeros), then at the end with the counts */
static void header(int fd, int final)
{
	u64 h[4] = { BT_VERSION, 0, 0, 0 };

	if (final) {
		h[1] = R.genesis;
		h[2] = R.bunches;
		h[3] = R.pkts;
	}
	if (R.verbose)
		say("\t%s: %llx %llx %llx %llx\n", R.oname, (unsigned long long)h[0],
		    (unsigned long long)h[1], (unsigned long long)h[2], (unsigned long long)h[3]);
	if (!final)
		ob_write(&R.out, h, sizeof(h));
	else if (pwrite(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
		R.out.failed = 1;
}

/* Read one trace file to its end: 0, 1 damaged, 2 time went back */
static int read_trace(int fd, const char *in)
{
	struct src s;
	struct rec r;
	unsigned long long zero0 = src_zero_records;
	int rc;

	src_init(&s, fd, in, R.inbuf, sizeof(R.inbuf));
	for (;;) {
		u64 at = s.base + s.pos;
		u32 act;

		rc = src_next(&s, &r);
		if (rc <= 0)
			break;
		R.tpkts++;
		act = (u32)r.action;
		/* version 8's zone operations (bits above 32) have no
		 * version-7 form: a version-7 trace has none of them */
		if (!(r.action >> 32) && (act & 0xffff) == TA_QUEUE && (act & TC(TC_QUEUE)) && add_io(&r, at, in))
			return 2;
	}
	R.tpkts += src_zero_records - zero0;
	return rc < 0;
}

static int open_file(const char *ext, int *fd, char *name)
{
	if (sfmt(name, PATH_LEN, "%s/%s.%s.%d%s", R.odir, R.devnm, R.obase, R.cpu, ext) >= PATH_LEN) {
		warn_msg("%s/%s.%s.%d%s: path too long", R.odir, R.devnm, R.obase, R.cpu, ext);
		return -1;
	}
	*fd = open_out(name, 0666);
	return *fd < 0 ? -1 : 0;
}

TEXT(btrecord_pkts, "%s:%d: %llu pkts (tot), %llu pkts (replay), %llu bunches, %.1f "
	"pkts/bunch\n")
/* DEV.blktrace.CPU to DEV.BASE.CPU: 0, or the exit status */
static COLD int record_one(const char *in)
{
	char vname[PATH_LEN];
	int ifd, ofd, vfd = -1, rc;

	ifd = open(in, O_RDONLY | O_CLOEXEC);
	if (ifd < 0) {
		err_sys(in);
		return 1;
	}
	if (open_file("", &ofd, R.oname) ||
	    (R.verbose && open_file(".rec", &vfd, vname))) {
		close(ifd);
		return 2;
	}
	ob_init(&R.out, ofd, R.oname, R.outbuf, sizeof(R.outbuf));
	ob_init(&R.rec, vfd, vname, R.recbuf, sizeof(R.recbuf));
	R.genesis = R.last = R.bunches = R.pkts = R.tpkts = 0;
	R.nb = 0;
	header(ofd, 0);
	rc = read_trace(ifd, in);
	close(ifd);
	flush_bunch();
	ob_flush(&R.out);
	header(ofd, 1);
	if (R.verbose && R.bunches)
		say(TX(btrecord_pkts), R.devnm, R.cpu, (unsigned long long)R.tpkts, (unsigned long long)R.pkts,
		    (unsigned long long)R.bunches, (double)R.pkts / (double)R.bunches);
	if (ob_close(&R.out) | (vfd >= 0 ? ob_close(&R.rec) : 0))
		return 2;
	return rc;
}

/* ---- options ---- */

static const struct lopt lo[] = {
	{ "input-directory", 1, 0, 'd' }, { "output-directory", 1, 0, 'D' },
	{ "find-traces", 0, 0, 'F' }, { "help", 0, 0, 'h' },
	{ "max-bunch-time", 1, 0, 'm' }, { "max-pkts", 1, 0, 'M' },
	{ "max_pkts", 1, 0, 'M' },	/* Debian's own spelling of it */
	{ "output-base", 1, 0, 'o' }, { "verbose", 0, 0, 'v' },
	{ "version", 0, 0, 'V' }, { 0, 0, 0, 0 }
};

TEXT(btrecord_invalid_directory_s, "%s: %s: Invalid %s directory specified")
/* 0 go on, else exit with status - 1 */
static COLD int option(int c, const char *arg)
{
	switch (c) {
	case 'd': case 'D':
		if (access(arg, R_OK | X_OK)) {
			warn_text(U_btrecord_invalid_directory_s, arg, strerror(errno),
				 c == 'd' ? "input" : "output");
			return 2;
		}
		*(c == 'd' ? &R.idir : &R.odir) = arg;
		return 0;
	case 'F': R.find = 1; return 0;
	case 'h': usage_put(2, U_record); return 1;
	case 'm': case 'M': {
		char *e;
		u64 v = scan_u64(arg, &e, 10);

		if (c == 'm' ? v < 1 : v < 1 || v > BT_MAX_PKTS) {
			warn_msg("Invalid %s %s", c == 'm' ? "bunch time" : "max pkts", arg);
			return 2;
		}
		*(c == 'm' ? &R.max_tm : &R.max_pkts) = v;
		return 0;
	}
	case 'o': R.obase = arg; return 0;
	case 'v': R.verbose++; return 0;
	case 'V': say("btrecord -- version 1.0.0 (iomon %s)\n", iomon_version); return 1;
	default: usage_put(2, U_record); return 2;
	}
}

TEXT(btrecord_missing_required_in, "Missing required input file name(s)")
int record_main(int argc, char **argv)
{
	int c, rc = 0;
	u16 d;

	R.idir = R.odir = ".";
	R.obase = "replay";
	R.max_tm = 10 * 1000 * 1000;
	R.max_pkts = 8;
	while ((c = opt_get(argc, argv, "d:D:Fhm:M:o:vV", lo)) != -1)
		if ((rc = option(c, opt_arg)))
			return rc - 1;
	for (; opt_ind < argc; opt_ind++)
		if (add_dev(argv[opt_ind], strlen(argv[opt_ind])))
			return 1;
	if (R.find && dir_each(R.idir, found, 0))
		return 1;
	if (!R.ndevs) {
		warn_text(U_btrecord_missing_required_in);
		return 1;
	}
	for (d = 0; d < R.ndevs; d++) {
		char in[PATH_LEN];

		R.devnm = R.names + R.dev[d];
		for (R.cpu = 0;; R.cpu++) {
			int r;

			if (sfmt(in, sizeof(in), "%s/%s.blktrace.%d", R.idir, R.devnm, R.cpu) >= (int)sizeof(in) ||
			    access(in, R_OK))
				break;
			r = record_one(in);
			if (r == 2)
				return 2;
			rc |= r;
		}
	}
	src_zero_report();
	return rc;
}
