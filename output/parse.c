/* output/parse.c: driver: blkparse: options, merge, per-record accounting, summaries */
//applet: blkparse parse parse_main
//sources: @trace capture/input.c capture/merge.c capture/window.c match/inflight.c
//sources: match/procs.c match/track.c output/bpevent.c output/bploop.c
//sources: output/fmt.c output/summary.c stats/iostats.c
//readme: blkparse 1.2.0: every option, byte-identical text | blkparse.1
/* parse: blkparse, byte for byte.
 *
 * usage: iomon parse [-i NAME]... [-D DIR] [-o FILE] [-d FILE] [OPTIONS] [NAME]...
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "output/bp.h"

USAGE(parse,
"usage: blkparse -i NAME [-i NAME]... [OPTIONS]\n"
"       iomon parse -i NAME [OPTIONS]\n"
"\n"
"Print block trace records (NAME.blktrace.CPU files, or '-' for a stream on\n"
"stdin) as text, merged by time, with per-CPU and per-device summaries.\n"
"\n"
" -i, --input=NAME            trace name or '-' (repeatable; bare NAMEs too)\n"
" -D, --input-directory=DIR   folder holding the trace files\n"
" -a, --act-mask=NAME         only these categories (repeatable): read write\n"
"                             flush sync queue requeue issue complete fs pc\n"
"                             notify ahead meta discard drv_data fua\n"
" -A, --set-mask=HEX          the category mask as one hex number\n"
" -o, --output=FILE           text to FILE instead of stdout\n"
" -O, --no-text-output        no text (with -d: only the binary dump)\n"
" -d, --dump-binary=FILE      merged records as binary, for btt ('-' stdout)\n"
" -M, --no-msgs               leave messages out of the binary dump\n"
" -f, --format=FMT            line format for every action\n"
" -F, --format-spec=A,FMT     line format for action A\n"
" -q, --quiet                 no summary\n"
" -s, --per-program-stats     per-process summary\n"
" -S, --sort-program-stats=K  ... sorted by N Q q R r W w C c\n"
" -h, --hash-by-name          per-process summary by name, not pid\n"
" -t, --track-ios             queue/dispatch/complete times per request\n"
" -w, --stopwatch=[START:]END only events between these seconds\n"
" -b, --batch=N               records read per batch (default 512)\n"
" -l, --listen[=PORT]         take trace -h's and blktrace -h's clients and\n"
"                             print their records (port 8462; -p PORT)\n"
" -v, --verbose               say more about marginal errors\n"
" -V, --version               print the version\n")

/* ---- options ---- */

static struct cap_cfg net;	/* -l: trace's server, its clients parsed */

/* Seconds to ns as Debian's x86-64 blkparse converts them: past 2^64 ns
 * or inf gives 0, nan and below -2^63 give 2^63, negatives wrap.  C leaves that
 * undefined and s390x saturates instead: spelled out, every arch agrees. */
static u64 to_ns(double sec)
{
	double v = sec * 1000000000;

	if (!(v >= 9223372036854775808.0))
		return v > -9223372036854775808.0 ? (u64)(s64)v : (u64)1 << 63;
	return v < 18446744073709551616.0 ? (u64)v : 0;
}

TEXT(parse_invalid_stopwatch_dura, "Invalid stopwatch duration time: %s")
TEXT(parse_invalid_stopwatch_star, "Invalid stopwatch start timer: %s")
TEXT(parse_invalid_stopwatch_inte, "Invalid stopwatch interval: %llu -> %llu")
/* "[start:]end" in seconds, as blkparse's -w */
static int stopwatch(const char *arg)
{
	const char *e;
	double v = scan_double(arg, &e);

	if (e == arg) {
		warn_msg("Invalid stopwatch timer: %s", arg);
		return -1;
	}
	if (*e == ':') {
		const char *d = e + 1;

		P.sw_start = to_ns(v);
		v = scan_double(d, &e);
		if (e == d || *e) {
			warn_text(U_parse_invalid_stopwatch_dura, d);
			return -1;
		}
	} else if (*e) {
		warn_text(U_parse_invalid_stopwatch_star, arg);
		return -1;
	}
	P.sw_end = to_ns(v);
	if (P.sw_end <= P.sw_start) {
		warn_text(U_parse_invalid_stopwatch_inte,
			 (unsigned long long)P.sw_start, (unsigned long long)P.sw_end);
		return -1;
	}
	return 0;
}

static int is_pipe(const char *s)
{
	struct stat st;

	return !strcmp(s, "-") || (!stat(s, &st) && S_ISFIFO(st.st_mode));
}

TEXT(parse_more_than_inputs, "%s: more than %d inputs (DEVS_MAX)")
static int add_input(char *name)
{
	if (is_pipe(name) && !P.pipe_name) {
		P.pipe_name = name;
		return 0;
	}
	if (!dev_add(name, 0)) {
		warn_text(U_parse_more_than_inputs, name, DEVS_MAX);
		return -1;
	}
	return 0;
}

static const struct lopt longopts[] = {
	{ "act-mask", 1, 0, 'a' }, { "set-mask", 1, 0, 'A' }, { "batch", 1, 0, 'b' },
	{ "input-directory", 1, 0, 'D' }, { "dump-binary", 1, 0, 'd' },
	{ "format", 1, 0, 'f' }, { "format-spec", 1, 0, 'F' },
	{ "hash-by-name", 0, 0, 'h' }, { "input", 1, 0, 'i' }, { "no-msgs", 0, 0, 'M' },
	{ "output", 1, 0, 'o' }, { "no-text-output", 0, 0, 'O' }, { "quiet", 0, 0, 'q' },
	{ "per-program-stats", 0, 0, 's' }, { "sort-program-stats", 1, 0, 'S' },
	{ "track-ios", 0, 0, 't' }, { "stopwatch", 1, 0, 'w' }, { "verbose", 0, 0, 'v' },
	{ "version", 0, 0, 'V' }, { "listen", 2, 0, 'l' }, { "port", 1, 0, 'p' }, { "help", 0, 0, 'H' },
	{ 0, 0, 0, 0 },
};

TEXT(parse_invalid_set_action, "Invalid set action mask %s/0x%x")
/* -a NAME (added to the mask) and -A HEX (the whole mask); 1: refused */
static int opt_mask(int c, u32 *mask)
{
	char *e;
	int v;

	if (c == 'a') {
		if ((v = mask_bit(opt_arg)) < 0) {
			warn_msg("Invalid action mask %s", opt_arg);
			return 1;
		}
		*mask |= (u32)v;
		return 0;
	}
	v = (int)scan_u64(opt_arg, &e, 16);
	if (e == opt_arg || v < 1 || v >= 1 << 16) {
		warn_text(U_parse_invalid_set_action, opt_arg, v);
		return 1;
	}
	*mask = (u32)v;
	return 0;
}

/* -V, --help and a bad option: -2 (done, exit 0) or 1 */
static int opt_exit(int c, const char *prog)
{
	switch (c) {
	case 'V':
		return version_put(prog, "1.2.0") ? 1 : -2;
	case 'H':
		return usage_put(1, U_parse) ? 1 : -2;
	default:
		usage_put(2, U_parse);
		return 1;
	}
}

/* One option; 0 to go on, else what options() returns */
static int option(int c, char **argv, u32 *mask)
{
	int v;

	switch (c) {
	case 'a':
	case 'A': return opt_mask(c, mask);
	case 'b':
		v = atoi(opt_arg);
		P.batch_n = v <= 0 ? BATCH_DEFAULT : (u32)v;
		return 0;
	case 'D': P.input_dir = opt_arg; return 0;
	case 'l': case 'p': return cap_opt(&net, c, opt_arg) ? 1 : 0;
	case 'd': P.dump_name = opt_arg; return 0;
	case 'f': return fmt_set_all(opt_arg) ? 1 : 0;
	case 'F': return fmt_set_one(opt_arg) ? 1 : 0;
	case 'h': ppi_by_name = 1; return 0;
	case 'i': return add_input(opt_arg) ? 1 : 0;
	case 'M': P.bin_msgs = 0; return 0;
	case 'o': P.out_name = opt_arg; return 0;
	case 'O': P.text = 0; return 0;
	case 'q': P.show_stats = 0; return 0;
	case 's': P.per_proc = 1; return 0;
	case 'S':
		P.per_proc = 1;
		if (!strchr("NQqRrWwCc", opt_arg[0]) || !opt_arg[0])
			return 1;
		P.sort_key = opt_arg[0];
		return 0;
	case 't': P.track = 1; return 0;
	case 'w': return stopwatch(opt_arg) ? 1 : 0;
	case 'v': P.verbose++; return 0;
	default: return opt_exit(c, argv[0]);
	}
}

static int options(int argc, char **argv)
{
	u32 mask = 0;
	int c, rc;

	while ((c = opt_get(argc, argv, "a:A:b:D:d:f:F:hi:o:OqsS:tw:vVMlp:", longopts)) != -1)
		if ((rc = option(c, argv, &mask)))
			return rc;
	for (; opt_ind < argc; opt_ind++)
		if (add_input(argv[opt_ind]))
			return 1;
	if (net.listen == !!(P.pipe_name || P.ndevs)) {	/* inputs, or -l: one */
		usage_put(2, U_parse);
		return 1;
	}
	if (mask)
		P.act_mask = mask;
	return 0;
}

/* Options, outputs: everything before the input is read. */
static COLD int parse_begin(int argc, char **argv)
{
	int rc;

	bp_defaults();
	cap_defaults(&net);
	rc = options(argc, argv);
	return rc ? rc : bp_start();
}

COLD int parse_main(int argc, char **argv)
{
	int rc = parse_begin(argc, argv);

	if (rc)
		return rc == -2 ? 0 : rc;
	if (net.listen)
		return bp_end(bp_stream_run(&net));
	return bp_end(P.pipe_name ? bp_stream_run(NULL) : bp_files());
}

