/* output/monexp.c: output: monitor's interval as JSON lines and as Prometheus text (node_exporter's textfile collector) */
/* iomon's own exports beside blkiomon's reports (output/export.c); a
 * build may leave them out (monitor.c's //option: EXPORT, make NO=EXPORT,
 * the profiles): --json and --prom then say so. */
#include <string.h>
#include "output/output.h"

static void prom_counter(struct obuf *o, const char *name, int off)
{
	static const char *const dirs[2] = { "read", "write" };
	u32 i;
	int d;

	for (i = 0; i < mon.ntot; i++)
		for (d = 0; d < 2; d++)
			ob_printf(o, "%s{device=\"%u,%u\",direction=\"%s\"} %llu\n", name,
				  DEV_MAJOR(mon.tot[i].device), DEV_MINOR(mon.tot[i].device), dirs[d],
				  (unsigned long long)(off ? mon.tot[i].bytes[d] : mon.tot[i].num[d]));
}

static void json_mm(struct obuf *o, const char *k, const struct minmax *m, int last)
{
	double avg = m->num ? (double)m->sum / (double)m->num : 0.0;
	char var[80];

	*mm_var(var, m, 3) = 0;
	if (!m->num)
		ob_printf(o, "\"%s\":{\"num\":0}%s", k, last ? "" : ",");
	else
		ob_printf(o, "\"%s\":{\"num\":%llu,\"min\":%llu,\"max\":%llu,\"sum\":%llu,\"avg\":%.3f,\"var\":%s}%s",
			  k, (unsigned long long)m->num, (unsigned long long)m->min, (unsigned long long)m->max,
			  (unsigned long long)m->sum, avg, var, last ? "" : ",");
}

/* ,"failed":{"read":{"EIO":N,...},"write":{...}}: the device's failed
 * completions this interval, by errno (a name, else its number) */
static void json_fails(struct obuf *o, u32 dev)
{
	char b[12];
	u32 d, i, k;

	ob_puts(o, ",\"failed\":{");
	for (d = 0; d < 2; d++) {
		ob_puts(o, d ? ",\"write\":{" : "\"read\":{");
		for (i = k = 0; i < mon.nfail; i++) {
			const struct monfail *f = &mon.fail[i];

			if (f->device == dev && f->dir == d && f->n)
				ob_printf(o, "%s\"%s\":%llu", k++ ? "," : "", errno_name(f->err, b),
					  (unsigned long long)f->n);
		}
		ob_puts(o, "}");
	}
	ob_puts(o, "}");
}

void mon_json_write(struct obuf *o, const struct dstat *s, s64 t, int interval)
{
	int i;

	ob_printf(o, "{\"time\":%lld,\"interval\":%d,\"device\":\"%u,%u\",", (long long)t, interval,
		  DEV_MAJOR(s->device), DEV_MINOR(s->device));
	for (i = 0; i < 2; i++) {
		ob_printf(o, "\"%s\":{", i ? "write" : "read");
		json_mm(o, "size_bytes", &s->size[i], 0);
		json_mm(o, "d2c_usec", &s->d2c[i], 0);
		json_mm(o, "throughput_bytes_per_msec", &s->thr[i], 1);
		ob_puts(o, "},");
	}
	json_u32s(o, "\"size_hist_bytes", s->size_hist, SIZE_BUCKETS);
	json_u32s(o, ",\"d2c_hist_usec", s->d2c_hist, D2C_BUCKETS);
	ob_printf(o, ",\"bidirectional\":%llu", (unsigned long long)s->bidir);
	json_fails(o, s->device);
	ob_puts(o, "}\n");
}

/* After the interval's devices: one whose only news is failures (their
 * issues not seen, or aged out) gets its line too, its figures empty;
 * then the interval's failure counts start again. */
COLD void mon_json_end(struct obuf *o, s64 t, int interval)
{
	struct dstat z;
	u32 i, k, dev;

	for (i = 0; i < mon.nfail; i++) {
		dev = mon.fail[i].device;
		for (k = 0; k < mon.ndev && mon.dev[k].device != dev; k++)
			;
		if (!mon.fail[i].n || k < mon.ndev)
			continue;
		for (k = 0; k < i && !(mon.fail[k].device == dev && mon.fail[k].n); k++)
			;
		if (k < i)	/* an earlier row of the device wrote its line */
			continue;
		memset(&z, 0, sizeof(z));
		z.device = dev;
		mon_json_write(o, &z, t, interval);
	}
	for (i = 0; i < mon.nfail; i++)
		mon.fail[i].n = 0;
}

TEXT(monexp_help_requests, "# HELP iomon_requests_total Requests matched from issue (D) to "
	"completion (C).\n# TYPE iomon_requests_total counter\n")
TEXT(monexp_help_bytes, "# HELP iomon_bytes_total Bytes in matched requests.\n"
	"# TYPE iomon_bytes_total counter\n")
TEXT(monexp_help_bidir, "# HELP iomon_bidirectional_requests_total Matched requests "
	"neither read nor write.\n# TYPE iomon_bidirectional_requests_total counter\n")
TEXT(monexp_bidir, "iomon_bidirectional_requests_total{device=\"%u,%u\"} %llu\n")
TEXT(monexp_help_size, "# HELP iomon_request_size_bytes Request sizes.\n"
	"# TYPE iomon_request_size_bytes histogram\n")
TEXT(monexp_help_latency, "# HELP iomon_device_latency_seconds Issue (D) to completion (C) "
	"time.\n# TYPE iomon_device_latency_seconds histogram\n")
TEXT(monexp_help_failed, "# HELP iomon_failed_requests_total Completions (C) that carried "
	"an error, by errno.\n# TYPE iomon_failed_requests_total counter\n")
TEXT(monexp_failed, "iomon_failed_requests_total{device=\"%u,%u\",direction=\"%s\","
	"errno=\"%s\"} %llu\n")
COLD void mon_prom_write(const char *path)
{
	char tmp[PATH_LEN], buf[4096];
	struct obuf o;
	u32 i;

	if (prom_open(&o, path, tmp, buf, sizeof(buf)))
		return;
	ob_puts(&o, TX(monexp_help_requests));
	prom_counter(&o, "iomon_requests_total", 0);
	ob_puts(&o, TX(monexp_help_bytes));
	prom_counter(&o, "iomon_bytes_total", 1);
	ob_puts(&o, TX(monexp_help_bidir));
	for (i = 0; i < mon.ntot; i++)
		ob_printf(&o, TX(monexp_bidir), DEV_MAJOR(mon.tot[i].device), DEV_MINOR(mon.tot[i].device),
			  (unsigned long long)mon.tot[i].bidir);
	ob_puts(&o, TX(monexp_help_size));
	for (i = 0; i < mon.ntot; i++)
		prom_hist(&o, "iomon_request_size_bytes", mon.tot[i].device, mon.tot[i].size_hist, SIZE_BUCKETS, 1024, 0,
			  mon.tot[i].size_sum);
	ob_puts(&o, TX(monexp_help_latency));
	for (i = 0; i < mon.ntot; i++)
		prom_hist(&o, "iomon_device_latency_seconds", mon.tot[i].device, mon.tot[i].d2c_hist, D2C_BUCKETS, 8, -6,
			  mon.tot[i].d2c_sum_us);
	ob_puts(&o, TX(monexp_help_failed));
	for (i = 0; i < mon.nfail; i++) {
		const struct monfail *f = &mon.fail[i];
		char b[12];

		ob_printf(&o, TX(monexp_failed), DEV_MAJOR(f->device), DEV_MINOR(f->device), f->dir ? "write" : "read",
			  errno_name(f->err, b), (unsigned long long)f->total);
	}
	prom_commit(&o, tmp, path);
}

