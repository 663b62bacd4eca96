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

#include <string.h>
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

/* parse's -s -t -h -v, each once: they are flags there, and a repeat
 * must not run past pargv */
static void parse_flag(char **pargv, int *pargc, char *flag)
{
	int i;

	for (i = 0; i < *pargc; i++)
		if (!strcmp(pargv[i], flag))
			return;
	pargv[(*pargc)++] = flag;
}

static int usage(void)
{
	if (write(2, btrace_usage, sizeof(btrace_usage) - 1) < 0)
		return 2;
	return 2;
}

int btrace_main(int argc, char **argv)
{
	char *pargv[12] = { "btrace", "-b100000", "-i", "-" };
	int pargc = 4, c, rc, r2;
	struct cap_cfg cfg;

	cap_defaults(&cfg);
	while ((c = opt_get(argc, argv, "a:w:n:b:r:sthv", NULL)) != -1) {
		switch (c) {
		case 'a': case 'w': case 'n': case 'b': case 'r':
			if (cap_opt(&cfg, c, opt_arg))
				return 2;
			break;
		case 's': parse_flag(pargv, &pargc, "-s"); break;
		case 't': parse_flag(pargv, &pargc, "-t"); break;
		case 'h': parse_flag(pargv, &pargc, "-h"); break;
		case 'v': parse_flag(pargv, &pargc, "-v"); break;
		default:
			return usage();
		}
	}
	for (; opt_ind < argc; opt_ind++)
		if (cap_add_device(argv[opt_ind]))
			return 1;
	if (!cap_ndev())
		return usage();
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
