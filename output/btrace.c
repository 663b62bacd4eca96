/* output/btrace.c: driver: btrace: usage, options, capture -> blkparse in one process */
//applet: btrace btrace btrace_main
//sources: @parse
//readme: btrace: capture and text in one process | btrace.8
/* btrace: blktrace -o - ... | blkparse -i - in one process.  The capture
 * hands its records to the parser directly; nothing queues in between. */
#include <string.h>
#include <unistd.h>
#include "output/bp.h"

USAGE(btrace,
"usage: btrace [-s] [-t] [-w N] [-n N] [-b N] [-a <trace>...] [-r <dbg mnt>] <dev>...\n"
"\n"
"Trace the devices and print blkparse's text live, until interrupted.\n"
" -s  per-process statistics      -t  queue/dispatch/complete times\n"
" -w N  stop after N seconds      -n N, -b N  kernel buffers (blktrace -n, -b)\n"
" -a NAME  trace only this category (repeatable)   -r PATH  debugfs mount\n")

static int usage(void)
{
	usage_put(2, U_btrace);
	return 2;
}

int btrace_main(int argc, char **argv)
{
	int c, rc, r2;
	struct cap_cfg cfg;

	/* blkparse -b 100000 -i - [-s] [-t] [-h] [-v], set directly */
	bp_defaults();
	P.batch_n = 100000;
	P.pipe_name = "-";
	cap_defaults(&cfg);
	while ((c = opt_get(argc, argv, "a:w:n:b:r:sthv", NULL)) != -1) {
		switch (c) {
		case 'a': case 'w': case 'n': case 'b': case 'r':
			if (cap_opt(&cfg, c, opt_arg))
				return 2;
			break;
		case 's': P.per_proc = 1; break;
		case 't': P.track = 1; break;
		case 'h': ppi_by_name = 1; break;
		case 'v': P.verbose = 1; break;
		default:
			return usage();
		}
	}
	for (; opt_ind < argc; opt_ind++)
		if (cap_add_device(argv[opt_ind]))
			return 1;
	if (!cap_ndev())
		return usage();
	if ((rc = bp_start()))
		return rc;
	rc = bp_stream_run(&cfg);
	r2 = bp_end(0);
	return rc ? rc : r2;
}
