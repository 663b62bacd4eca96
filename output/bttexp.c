/* output/bttexp.c: output: beyond btt: Q2D, D2C and Q2C histograms (--hist), btt's figures as JSON, the histograms for Prometheus */
/* Nothing here is in btt's .avg, which stays btt's byte for byte: the
 * histograms print after it only when asked, the exports go elsewhere,
 * through the writers monitor's exports use (export.c). */
#include <string.h>
#include "output/output.h"

static const char hist_names[BTT_NHIST][4] = { "Q2D", "D2C", "Q2C" };

TEXT(bttexp_latency_head, "==================== Latency Histograms ====================\n")
/* per device, blkiomon's text of each histogram (bucket: at most its
 * bound in whole microseconds; the last: above the one before) */
void btt_hist_report(struct obuf *o)
{
	char what[40];
	u32 i;
	int k;

	ob_puts(o, TX(bttexp_latency_head));
	for (i = 0; i < btt_ndevs; i++)
		for (k = 0; k < BTT_NHIST; k++) {
			sfmt(what, sizeof(what), "\n(%3u,%3u) %s (usec)", DEV_MAJOR(btt_devs[i].dev),
			     DEV_MINOR(btt_devs[i].dev), hist_names[k]);
			hist_print(o, what, btt_devs[i].hist[k], BTT_HIST, 1);
		}
	ob_puts(o, "\n");
}

static const u8 figs[5] = { BTT_Q2G, BTT_G2I, BTT_I2D, BTT_D2C, BTT_Q2C };
static const char fig_names[5][4] = { "q2g", "g2i", "i2d", "d2c", "q2c" };
static const char *const hist_keys[BTT_NHIST] = { ",\"q2d_hist_usec", ",\"d2c_hist_usec", ",\"q2c_hist_usec" };

/* a remapper's (md, dm) Q2C is btt's Q2Cdm */
static const struct btt_avg *fig(const struct btt_avg *a, u32 dev, int i)
{
	return &a[figs[i] == BTT_Q2C && btt_remapper(dev) ? BTT_Q2C_DM : figs[i]];
}

TEXT(bttexp_json_line, "{\"time\":%lld,\"interval\":%d,\"device\":\"%u,%u\"")
/* one line per device: the interval's figures in ns, its buckets */
static void json_dev(struct obuf *o, const struct btt_dev *d, s64 t, int interval)
{
	int i;

	ob_printf(o, TX(bttexp_json_line), (long long)t, interval,
		  DEV_MAJOR(d->dev), DEV_MINOR(d->dev));
	for (i = 0; i < 5; i++) {
		const struct btt_avg *a = fig(d->iv.avg, d->dev, i);

		ob_printf(o, ",\"%s_ns\":{\"num\":%u,\"min\":%llu,\"max\":%llu,\"mean\":%.1f}", fig_names[i], a->n,
			  (unsigned long long)a->min, (unsigned long long)a->max,
			  a->n ? (double)a->total / (double)a->n : 0.0);
	}
	for (i = 0; i < BTT_NHIST; i++)
		json_u32s(o, hist_keys[i], d->iv.hist[i], BTT_HIST);
	ob_puts(o, "}\n");
}

/* the run so far: the three histograms (their _count and _sum give the
 * count and mean; the other stages are in the JSON) */
static COLD void prom_btt(const char *path)
{
	char tmp[PATH_LEN], buf[4096], name[32];
	struct obuf o;
	u64 b[BTT_HIST];
	u32 i;
	int k, j;

	if (prom_open(&o, path, tmp, buf, sizeof(buf)))
		return;
	for (k = 0; k < BTT_NHIST; k++) {
		sfmt(name, sizeof(name), "iomon_btt_%.3s_seconds", hist_keys[k] + 2);
		ob_printf(&o, "# TYPE %s histogram\n", name);
		for (i = 0; i < btt_ndevs; i++) {
			for (j = 0; j < BTT_HIST; j++)
				b[j] = btt_devs[i].hist[k][j];
			prom_hist(&o, name, btt_devs[i].dev, b, BTT_HIST, 1, -6, btt_devs[i].hist_ns[k] / 1000);
		}
	}
	prom_commit(&o, tmp, path);
}

COLD void btt_export(struct obuf *json, const char *prom, s64 t, int interval)
{
	u32 i;

	for (i = 0; i < btt_ndevs; i++) {
		if (json)
			json_dev(json, &btt_devs[i], t, interval);
		memset(&btt_devs[i].iv, 0, sizeof(btt_devs[i].iv));
	}
	if (json)
		ob_flush(json);
	if (prom)
		prom_btt(prom);
}
