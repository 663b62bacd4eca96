/* output/bitesize.c: driver: bitesize: issue sizes per process name as log2 histograms, live or from a trace */
//applet: bitesize bitesize bitesize_main
//sources: @trace capture/input.c capture/merge.c capture/window.c match/procs.c stats/iopattern.c
//sources: output/lattable.c output/iolines.c
//readme: BCC's bitesize, without BPF | bitesize.8
/* bitesize: a histogram of request sizes (KiB) per process name, counted
 * at issue (D), printed when the run ends (the counting:
 * stats/iopattern.c, the table: output/lattable.c's).
 */
#include <string.h>
#include "output/output.h"

USAGE(bitesize,
"usage: iomon bitesize [-t DEV]... [-i NAME]\n"
"\n"
"Block I/O sizes per process name as bitesize's log2 histograms (Kbytes),\n"
"counted at issue, printed at the end (Ctrl-C, or a replay's end).\n"
"\n"
" -t DEV        trace DEV (repeatable); default: every whole disk, as top\n"
" -i NAME       replay NAME.blktrace.N files (or - for a stream)\n")

static struct {
	char *replay;
	char *devs[CAP_DEVS];
	int ndevs;
	char outbuf[LAT_OUT_BUF];
	struct obuf out;
} B;

static void bite_record(const struct rec *r)
{
	u32 a = ACT32(r);
	const char *n;
	char comm[16];

	if (a == TN_PROCESS) {
		proc_add(r->pid, r->pdu, r->pdu_len);
		return;
	}
	if ((a & TC(TC_NOTIFY)) || (a & 0xffff) != TA_ISSUE)
		return;
	if (!(n = proc_name(r->pid)) && (B.replay || sys_comm(r->pid, comm)))
		n = "?";
	bite_issue(n ? n : comm, r->bytes);
}

static int by_name(const void *ctx, u16 a, u16 b)
{
	(void)ctx;
	return strcmp(iop.bite[a].name, iop.bite[b].name) > 0;
}

static void tables(void)
{
	static u16 idx[BITE_NAMES];
	u32 i;

	for (i = 0; i < iop.nbite; i++)
		idx[i] = (u16)i;
	isort16(idx, iop.nbite, by_name, NULL);
	for (i = 0; i < iop.nbite; i++) {
		ob_printf(&B.out, "\nProcess Name = %s\n", iop.bite[idx[i]].name);
		log2_hist(&B.out, iop.bite[idx[i]].slot, "Kbytes");
	}
}

TEXT(bitesize_issues_of_processes, "%llu issues of processes past BITE_NAMES %d not counted")
int bitesize_main(int argc, char **argv)
{
	struct cap_cfg c;
	int rc;

	while ((rc = opt_get(argc, argv, "t:i:", NULL)) != -1) {
		if (rc == 'i') {
			if (in_one(&B.replay, opt_arg))
				return 1;
		} else if (rc == 't') {
			if (cap_dev_arg(B.devs, &B.ndevs, opt_arg))
				return 1;
		} else {
			usage_put(2, U_bitesize);
			return 1;
		}
	}
	if (opt_ind < argc) {
		usage_put(2, U_bitesize);
		return 1;
	}
	ob_init(&B.out, 1, "stdout", B.outbuf, sizeof(B.outbuf));
	ob_puts(&B.out, "Tracing block I/O... Hit Ctrl-C to end.\n");
	/* live (records in time order, capture/input.c) or the one name given */
	if (!B.replay) {
		if (cap_live_devices(&c, B.devs, B.ndevs, "-t"))
			return 1;
		ob_flush(&B.out);
	}
	rc = in_trace(&(struct input){ &B.replay, !!B.replay, &c, bite_record, NULL, NULL, NULL });
	tables();
	if (iop.bite_lost)
		warn_text(U_bitesize_issues_of_processes, iop.bite_lost, BITE_NAMES);
	return ob_close(&B.out) || rc ? 1 : 0;
}
