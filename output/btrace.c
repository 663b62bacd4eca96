/* output/btrace.c: driver: btrace: usage, options, capture -> blkparse in one process */
/* btrace: blktrace -o - ... | blkparse -i - in one process.  The capture
 * hands its records to the parser directly; nothing queues in between. */
const char btrace_usage[] =
"usage: btrace [-s] [-t] [-w N] [-n N] [-b N] [-a <trace>...] [-r <dbg mnt>] <dev>...\n"
"\n"
"Trace the devices and print blkparse's text live, until interrupted.\n"
" -s  per-process statistics      -t  queue/dispatch/complete times\n"
" -w N  stop after N seconds      -n N, -b N  kernel buffers (blktrace -n, -b)\n"
" -a NAME  trace only this category (repeatable)   -r PATH  debugfs mount\n";

#include <unistd.h>
#include "output/output.h"

static int to_parser(void *ctx, const void *p, size_t n)
{
	(void)ctx;
	return parse_push(p, n);
}

static void parser_round(void *ctx)
{
	(void)ctx;
	parse_pump();
}

int btrace_main(int argc, char **argv)
{
	char *pargv[12] = { "btrace", "-b100000", "-i", "-" };
	int pargc = 4, c, rc, r2;
	struct cap_cfg cfg;
	char *e;
	u64 v;

	cap_defaults(&cfg);
	while ((c = opt_get(argc, argv, "a:w:n:b:r:sthv", NULL)) != -1) {
		switch (c) {
		case 'a':
			if (mask_bit(opt_arg) < 0) {
				warn_msg("Invalid action mask %s", opt_arg);
				return 2;
			}
			cfg.mask |= (u32)mask_bit(opt_arg);
			break;
		case 'w': case 'n': case 'b':
			v = scan_u64(opt_arg, &e, 10);
			if (e == opt_arg || *e || !v || (c == 'b' && v > 16384)) {
				warn_msg("bad -%c value '%s'", c, opt_arg);
				return 2;
			}
			if (c == 'w')
				cfg.stopwatch = (u32)v;
			else if (c == 'n')
				cfg.buf_nr = (u32)v;
			else
				cfg.buf_size = (u32)v << 10;
			break;
		case 'r': cfg.debugfs = opt_arg; break;
		case 's': pargv[pargc++] = "-s"; break;
		case 't': pargv[pargc++] = "-t"; break;
		case 'h': pargv[pargc++] = "-h"; break;
		case 'v': pargv[pargc++] = "-v"; break;
		default:
			if (write(2, btrace_usage, sizeof(btrace_usage) - 1) < 0)
				return 2;
			return 2;
		}
	}
	for (; opt_ind < argc; opt_ind++)
		if (cap_add_device(argv[opt_ind]))
			return 1;
	if (!cap_ndev()) {
		if (write(2, btrace_usage, sizeof(btrace_usage) - 1) < 0)
			return 2;
		return 2;
	}
	pargv[pargc] = NULL;
	opt_ind = 1;
	rc = parse_begin(pargc, pargv);
	if (rc)
		return rc == -2 ? 0 : rc;
	parse_begin_push();
	cfg.to_stdout = cfg.watch_stdout = 1;
	cfg.sink = to_parser;
	cfg.round = parser_round;
	rc = cap_run(&cfg);
	r2 = parse_end(0);
	return rc ? rc : r2;
}
