/* output/summary.c: output: blkparse's notices and its end-of-run blocks (per CPU, per device, totals) */
#include <string.h>
#include <unistd.h>
#include "output/bp.h"

/* ---- "Input file X added": blkparse prints these with stdio on stdout,
 * where they wait in a 4 KiB buffer and so land after all the text. ---- */

void notice(const char *s)
{
	size_t n = strlen(s);

	if (P.notes_direct) {
		if (write(1, s, n) < 0)
			return;
		return;
	}
	while (n) {
		size_t k = NOTICE_BUF - P.notelen;

		if (k > n)
			k = n;
		memcpy(P.notebuf + P.notelen, s, k);
		P.notelen += (u32)k;
		s += k;
		n -= k;
		if (P.notelen == NOTICE_BUF) {
			if (write(1, P.notebuf, NOTICE_BUF) < 0)
				P.notes_direct = 1;
			P.notelen = 0;
		}
	}
}

/* ---- the summary ---- */

static void dev_label(char *buf, size_t len, const struct devinfo *d)
{
	if (d->name)
		sfmt(buf, len, "%s", d->name);
	else
		sfmt(buf, len, "%u,%u", DEV_MAJOR(d->dev), DEV_MINOR(d->dev));
}

TEXT(summary_throughput, "\nThroughput (R/W): %lluKiB/s / %lluKiB/s\nEvents (%s): %llu entries\n"
	"Skips: %llu forward (%llu - %5.1f%%)\n")
COLD void show_summary(void)
{
	u32 i;

	for (i = 0; i < P.ndevs; i++) {
		struct devinfo *d = &P.devs[i];
		iostats total;
		char name[32], line[48];
		int shown = 0;
		u64 msec, rrate = 0, wrate = 0, nskip = 0, seqskip = 0;
		double ratio;
		u32 ci;

		memset(total, 0, sizeof(total));
		if (i)
			ob_write(&P.out, "\n", 1);
		dev_label(name, sizeof(name), d);
		for (ci = d->cpus; ci; ci = P.cpus[ci - 1].next) {
			struct cpuinfo *c = &P.cpus[ci - 1];
			u32 k;

			for (k = 0; k < P.nskips; k++)
				if (P.skips[k].live && P.skips[k].cpu == ci - 1) {
					nskip++;
					seqskip += P.skips[k].end - P.skips[k].start + 1;
					if (P.verbose)
						warn_msg(WARN_BARE "(%u,%u): skipping %llu -> %llu", DEV_MAJOR(d->dev),
							 DEV_MINOR(d->dev), (unsigned long long)P.skips[k].start,
							 (unsigned long long)P.skips[k].end);
				}
			if (!c->nelems)
				continue;
			iostats_add(total, c->st);
			sfmt(line, sizeof(line) - 1, "CPU%u (%s):", c->cpu, name);
			iostats_print(&P.out, c->st, line, d->max_depth);
			shown++;
		}
		if (shown > 1) {
			ob_write(&P.out, "\n", 1);
			sfmt(line, sizeof(line) - 1, "Total (%s):", name);
			iostats_print(&P.out, total, line, NULL);
		}
		msec = (d->last_time - d->first_time) / 1000000;
		if (msec) {
			rrate = (1000 * total[ST_C_KB] + total[ST_C_B]) / msec;
			wrate = (1000 * total[ST_C_KB_W] + total[ST_C_B_W]) / msec;
		}
		dev_label(line, sizeof(line), d);
		ratio = (!nskip && !d->events) ? 0.0
			: 100.0 * ((double)seqskip / (double)(d->events + seqskip));
		ob_printf(&P.out, TX(summary_throughput), (unsigned long long)rrate, (unsigned long long)wrate, line,
			  (unsigned long long)d->events, (unsigned long long)nskip,
			  (unsigned long long)seqskip, ratio);
	}
}

