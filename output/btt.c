/* output/btt.c: driver: btt: options, reading the dump, the report file */
/* usage: iomon btt -i DUMP [-o NAME]
 * The dump (blkparse -d, iomon parse -d) is read through the shared merge
 * (capture/merge.c); the figures are stats/bttstat.c's. */
#include <fcntl.h>
#include <getopt.h>
#include <string.h>
#include <unistd.h>
#include "output/output.h"

const char btt_usage[] =
"usage: btt -i DUMP|- [-o NAME] [-l|-q|-z|-I NAME] [-S SECS]\n"
"btt 1.2.0's report (NAME.avg, else stdout) from a blkparse -d dump\n";

static char btt_out[8192];
static volatile sig_atomic_t btt_stop;	/* never set: btt reads to the end */

/* The dump (-i DUMP, or - for stdin) through the merge, one input for now:
 * trace files by name need blkparse's time origin first (a dump's times
 * start at its first record; btt's active periods count from 0). */
static COLD int read_input(const char *name)
{
	struct merge_in *m;
	int fd = strcmp(name, "-") ? open(name, O_RDONLY | O_CLOEXEC) : 0;

	if (fd < 0) {
		err_sys(name);
		return 1;
	}
	merge_begin(MERGE_TIME, 1, NULL, &btt_stop);
	merge_add(fd, fd ? name : "(stdin)", 0, 0, STREAM_BUF);
	while ((m = merge_head())) {
		btt_event(&m->head);
		merge_pop();
	}
	fd = merge_end();
	src_zero_report();
	return fd;
}

/* a pool that ran out makes the figures approximate: said, never silent */
static COLD void pools_report(void)
{
	if (btt_dev_dropped)
		warn_msg("%llu events of devices beyond the first %d (BTT_DEVS) left out", btt_dev_dropped, BTT_DEVS);
	if (btt_req_dropped)
		warn_msg("%llu requests found %d (BTT_REQS) in flight: not tracked, so the figures are approximate",
			 btt_req_dropped, BTT_REQS);
	if (btt_live_folds)
		warn_msg("%llu busy periods reached back past the %d (BTT_LIVES) kept: the I/O Active Period figures are approximate",
			 btt_live_folds, BTT_LIVES);
	if (btt_seek_dropped)
		warn_msg("%llu seeks of new distances past the %d (BTT_SEEKS) kept: their MEDIAN and MODE are approximate",
			 btt_seek_dropped, BTT_SEEKS);
}

static const struct option longopts[] = {
	{ "input-file", 1, 0, 'i' },
	{ "output-file", 1, 0, 'o' },
	{ 0, 0, 0, 0 },
};

COLD int btt_main(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	char path[PATH_LEN];
	struct obuf o;
	int c, fd = 1, rc;

	while ((c = opt_get(argc, argv, "i:o:l:q:z:I:S:", longopts)) != -1) {
		switch (c) {
		case 'i': in = opt_arg; break;
		case 'o': out = opt_arg; break;
		case 'l': case 'q': case 'z': case 'I': case 'S':
			if (btt_files_opt(c, opt_arg))
				return 1;
			break;
		default:
			ob_init(&o, 2, "(stderr)", btt_out, sizeof(btt_out));
			ob_puts(&o, btt_usage);
			ob_close(&o);
			return 1;
		}
	}
	if (!in || opt_ind < argc) {
		warn_msg("%s", !in ? "-i DUMP is needed" : "unexpected argument");
		return 1;
	}
	rc = read_input(in);
	rc |= btt_files_end();
	pools_report();
	if (out) {
		if ((size_t)sfmt(path, sizeof(path), "%s.avg", out) >= sizeof(path)) {
			warn_msg("%s: name too long", out);
			return 1;
		}
		if ((fd = open_out(path, 0644)) < 0)
			return 1;
	}
	ob_init(&o, fd, out ? path : "(stdout)", btt_out, sizeof(btt_out));
	btt_report(&o);
	return ob_close(&o) || rc;
}
