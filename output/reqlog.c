/* output/reqlog.c: driver: reqlog: a line per physical read and write (reqlog's 1999 kernel log), live or from a trace */
//applet: reqlog reqlog reqlog_main
//sources: @trace capture/input.c capture/merge.c capture/window.c output/iolines.c
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
"A line per read and write queued: device MAJ/MIN sector N read|write SECTORS\n"
"\n"
" -D            at issue (D), not when queued (Q)\n"
" -i NAME       replay NAME.blktrace.N files (or - for a stream)\n"
" DEV           trace DEV; default: every whole disk\n")

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
	char *in = NULL;
	int rc;

	R.act = TA_QUEUE;
	while ((rc = opt_get(argc, argv, "Di:", NULL)) != -1) {
		if (rc == 'D')
			R.act = TA_ISSUE;
		else if (rc == 'i')
			in = opt_arg;
		else
			return usage_put(2, U_reqlog), 1;
	}
	ob_init(&R.out, 1, "stdout", R.outbuf, sizeof(R.outbuf));
	if ((rc = in_devs(in, argv + opt_ind, argc - opt_ind, reqlog_record, round_flush)) < 0)
		return usage_put(2, U_reqlog), 1;
	return ob_close(&R.out) || rc ? 1 : 0;
}
