/* output/bttrep.c: output: btt's report text (NAME.avg), the sections done so far */
/* Byte for byte as btt 1.2.0 prints them; a section that is not done is
 * left out whole, never printed with wrong figures. */
#include "output/output.h"


static void section(struct obuf *o, const char *title)
{
	ob_printf(o, "==================== %s ====================\n\n", title);
}

static void dev_name(char *buf, u32 dev)
{
	sfmt(buf, 16, "(%3u,%3u)", DEV_MAJOR(dev), DEV_MINOR(dev));
}

static const char merge_hdr[] = "       DEV |       #Q       #D   Ratio |   BLKmin   BLKavg   BLKmax    Total\n";
static const char merge_dash[] = "---------- | -------- -------- ------- | -------- -------- -------- --------\n";

/* a device counts once it has Qs and Ds; fewer Qs than Ds reads as
 * equal; the per-device average truncates a double, the total's divides
 * integers, and its ratio is computed in float */
static void merge_info(struct obuf *o)
{
	u64 nq = 0, nd = 0, bmin = 0, bmax = 0, tot = 0;
	u32 i, n = 0;
	char name[16];

	section(o, "Device Merge Information");
	ob_puts(o, merge_hdr);
	ob_puts(o, merge_dash);
	for (i = 0; i < btt_ndevs; i++) {
		const struct btt_dev *d = &btt_devs[i];
		u64 q = d->n_qs < d->n_ds ? d->n_ds : d->n_qs;

		if (!d->n_qs || !d->n_ds)
			continue;
		dev_name(name, d->dev);
		ob_printf(o, "%10s | %8llu %8llu %7.1f | %8llu %8llu %8llu %8llu\n", name,
			  (unsigned long long)q, (unsigned long long)d->n_ds, (double)q / (double)d->n_ds,
			  (unsigned long long)d->blk_min,
			  (unsigned long long)((double)d->blk_total / (double)d->n_ds),
			  (unsigned long long)d->blk_max, (unsigned long long)d->blk_total);
		if (!n++ || d->blk_min < bmin)
			bmin = d->blk_min;
		if (n == 1 || d->blk_max > bmax)
			bmax = d->blk_max;
		nq += q;
		nd += d->n_ds;
		tot += d->blk_total;
	}
	if (n > 1) {
		ob_puts(o, merge_dash);
		ob_puts(o, merge_hdr);
		ob_printf(o, "%10s | %8llu %8llu %7.1f | %8llu %8llu %8llu %8llu\n", "TOTAL",
			  (unsigned long long)nq, (unsigned long long)nd, (double)((float)nq / (float)nd),
			  (unsigned long long)bmin, (unsigned long long)(tot / nd),
			  (unsigned long long)bmax, (unsigned long long)tot);
	}
	ob_puts(o, "\n");
}

void btt_report(struct obuf *o)
{
	merge_info(o);
}
