/* output/reqlog.c: driver: reqlog: a line per physical read and write (reqlog's 1999 kernel log), live or from a trace */
//applet: reqlog reqlog reqlog_main
//sources: @trace capture/input.c capture/merge.c capture/window.c
//readme: reqlog (1999 kernel patch), from block traces | reqlog.8
/* reqlog: each read and write a device is asked for, one line
 * "device MAJ/MIN sector N read|write COUNT" (COUNT in 512-byte
 * sectors), as reqlog's patch wrote them, from the queue (Q) events, or
 * the issue (D) events with -D.  Live through iomon trace's backends,
 * or replayed from trace files (-i).
 */
#include "output/output.h"

USAGE(reqlog,
"usage: reqlog [-D] [-i NAME] [DEV...]\n"
"\n"
"A line per block read or write: device MAJ/MIN sector N read|write COUNT\n"
"(COUNT in 512-byte sectors), as reqlog logged them.\n"
"\n"
" -D            at issue to the driver (D), not when queued (Q)\n"
" -i NAME       replay NAME.blktrace.N files (or - for a stream)\n"
" DEV           trace DEV (several may be given); default: every whole disk\n")

static struct {
	u32 act;
	char outbuf[LAT_OUT_BUF];
	struct obuf out;
} R;

static void reqlog_record(const struct rec *r)
{
	u32 a = ACT32(r);

	if ((a & 0xffff) != R.act || (a & (TC(TC_NOTIFY) | TC(TC_PC) | TC(TC_DISCARD))) || !r->bytes)
		return;
	ob_printf(&R.out, "device %u/%u sector %llu %s %u\n", DEV_MAJOR(r->dev), DEV_MINOR(r->dev),
		  (unsigned long long)r->sector, a & TC(TC_WRITE) ? "write" : "read", r->bytes >> 9);
}

static void round_flush(void)
{
	ob_flush(&R.out);
}

int reqlog_main(int argc, char **argv)
{
	struct cap_cfg c;
	static char *devs[CAP_DEVS];
	char *in = NULL;
	int rc, n = 0;

	R.act = TA_QUEUE;
	while ((rc = opt_get(argc, argv, "Di:", NULL)) != -1) {
		if (rc == 'D')
			R.act = TA_ISSUE;
		else if (rc == 'i')
			in = opt_arg;
		else {
			usage_put(2, U_reqlog);
			return 1;
		}
	}
	if (in && opt_ind < argc) {
		usage_put(2, U_reqlog);
		return 1;
	}
	while (opt_ind < argc)
		if (cap_dev_arg(devs, &n, argv[opt_ind++]))
			return 1;
	ob_init(&R.out, 1, "stdout", R.outbuf, sizeof(R.outbuf));
	if (!in && cap_live_devices(&c, devs, n, "a"))
		return 1;
	rc = in_trace(&(struct input){ &in, !!in, &c, reqlog_record, round_flush, NULL, NULL });
	return ob_close(&R.out) || rc ? 1 : 0;
}
