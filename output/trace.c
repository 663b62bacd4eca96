/* output/trace.c: driver: blktrace (iomon trace): usage, options, wiring */
//applet: blktrace trace trace_main
//sources: capture/addr.c capture/cap.c capture/capopt.c capture/net.c capture/netsrv.c
//sources: capture/record.c capture/relay.c capture/runs.c capture/source.c
//sources: capture/stage.c capture/sys.c capture/tpevent.c capture/tracefs.c
//sources: capture/zout.c capture/zsrc.c
//option: NET capture/addr.c capture/net.c capture/netsrv.c
//readme: blktrace 1.2.0: relay and tracefs capture, files, `-o -`, network mode | blktrace.8
/* trace: blktrace, capture from the kernel into NAME.blktrace.CPU files or
 * one stream on stdout (the capture itself is capture/cap.c). */
#include <string.h>
#include <unistd.h>
#include "output/output.h"

USAGE(trace,
"usage: blktrace -d DEV [-d DEV]... [OPTIONS]\n"
"       iomon trace [OPTIONS] DEV...\n"
"\n"
"Trace block I/O on the devices until interrupted (or -w) and write\n"
"NAME.blktrace.CPU files, or one stream to stdout with -o -.\n"
"\n"
" -d, --dev=DEV               device to trace (repeatable; bare DEVs too)\n"
" -I, --input-devs=FILE       devices listed in FILE, one per line\n"
" -a, --act-mask=NAME         trace only these categories (repeatable): read\n"
"                             write flush sync queue requeue issue complete\n"
"                             fs pc notify ahead meta discard drv_data fua\n"
" -A, --set-mask=HEX          the category mask as one hex number\n"
" -r, --relay=PATH            debugfs mount point (default /sys/kernel/debug)\n"
" -o, --output=NAME           file name prefix, '-' for a stream on stdout\n"
" -D, --output-dir=DIR        folder for the files\n"
" -w, --stopwatch=SECS        stop after SECS seconds\n"
" -b, --buffer-size=KIB       kernel sub-buffer size (default 512)\n"
" -n, --num-sub-buffers=N     kernel sub-buffers per CPU (default 4)\n"
" -l, --listen                be blktrace's server (into DIR/ADDR-DATE-TIME/)\n"
" -h, --host=HOST             send to the server at HOST (IPv4, IPv6, a name)\n"
" -p, --port=N                the server's port (8462)\n"
" -s, --no-sendfile           one connection per CPU, not per CPU and device\n"
" -k, --kill                  stop and remove a trace left running, then exit\n"
" -z[LEVEL]                   write zstd frames (NAME.blktrace.CPU.zst; level 1-19,\n"
"                             default 1; make ZSTD=1 builds it in)\n"
"     --backend=NAME          relay, tracefs or auto (default)\n"
" -v, --verbose               notices too: the backend, fallbacks (named blktrace, -v is\n"
"                             -V as in blktrace: say --verbose)\n"
" -V, --version               print the version\n")

static const struct lopt longopts[] = {
	{ "dev", 1, 0, 'd' }, { "input-devs", 1, 0, 'I' }, { "act-mask", 1, 0, 'a' },
	{ "set-mask", 1, 0, 'A' }, { "relay", 1, 0, 'r' }, { "output", 1, 0, 'o' },
	{ "output-dir", 1, 0, 'D' }, { "stopwatch", 1, 0, 'w' }, { "buffer-size", 1, 0, 'b' },
	{ "num-sub-buffers", 1, 0, 'n' }, { "kill", 0, 0, 'k' }, { "verbose", 0, 0, 'v' | 256 },
	{ "version", 0, 0, 'V' }, { "backend", 1, 0, 'B' }, { "zstd", 2, 0, 'z' },
	{ "host", 1, 0, 'h' }, { "port", 1, 0, 'p' }, { "no-sendfile", 0, 0, 's' }, { "listen", 0, 0, 'l' }, { "help", 0, 0, 'H' }, { 0, 0, 0, 0 },
};

static int version(const char *prog)
{
	return version_put(prog, "2.0.0") ? 1 : -2;
}

/* One option: 0 to go on, 1 failed, -2 done (help, version). */
static int option(struct cap_cfg *c, int opt, const char *prog)
{
	switch (opt) {
	case 'd': return cap_add_device(opt_arg) ? 1 : 0;
	case 'I': return cap_add_devices_from(opt_arg) ? 1 : 0;
	case 'a': case 'A': case 'r': case 'w': case 'b': case 'n': case 'B': case 'z': case 'l': case 'p':
		return cap_opt(c, opt, opt_arg) ? 1 : 0;
	case 'o': c->oname = opt_arg; return 0;
	case 'D': c->dir = opt_arg; return 0;
	case 'k': c->kill = 1; return 0;
	case 'h': c->host = opt_arg; return 0;
	case 's': c->one_conn = 1; return 0;
	case 'v':	/* blktrace's -v is its version; ours says more */
		if (quiet_notes)
			return version(prog);
		/* fall through */
	case 'v' | 256:
		c->verbose++;
		quiet_notes = 0;
		return 0;
	case 'V': return version(prog);
	case 'H': return usage_put(1, U_trace) ? 1 : -2;
	}
	usage_put(2, U_trace);
	return 1;
}

TEXT(trace_no_device_given, "no device given (try: %s -d /dev/sda)")
TEXT(trace_o_not_supported, "-o not supported with multiple devices")
static int options(struct cap_cfg *c, int argc, char **argv)
{
	int opt, rc;

	while ((opt = opt_get(argc, argv, "d:I:a:A:r:o:D:w:b:n:kvVz::h:p:sl", longopts)) != -1)
		if ((rc = option(c, opt, argv[0])))
			return rc;
	for (; opt_ind < argc; opt_ind++)
		if (cap_add_device(argv[opt_ind]))
			return 1;
	if (c->listen)
		return 0;
	if (!cap_ndev()) {
		warn_text(U_trace_no_device_given, argv[0]);
		return 1;
	}
	if (c->oname && !strcmp(c->oname, "-"))
		c->to_stdout = c->watch_stdout = 1;
	else if (c->oname && cap_ndev() > 1) {
		warn_text(U_trace_o_not_supported);
		return 1;
	}
	return 0;
}

int trace_main(int argc, char **argv)
{
	struct cap_cfg c;
	int rc;

	cap_defaults(&c);
	rc = options(&c, argc, argv);
	if (rc)
		return rc == -2 ? 0 : rc;
	return cap_run(&c);
}
