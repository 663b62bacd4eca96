/* output/bttrep.c: output: btt's report text (NAME.avg): All Devices, Device Overhead, Device Merge Information; its range data (NAME.dat) and size histograms */
/* Byte for byte as btt 1.2.0 prints them; a section that is not done is
 * left out whole, never printed with wrong figures. */
#include "output/output.h"

TEXT(bttrep_section, "==================== %s ====================\n\n")
static void section(struct obuf *o, const char *title)
{
	ob_printf(o, TX(bttrep_section), title);
}

static void dev_name(char *buf, u32 dev)
{
	btt_dev_hdr(buf, 15, dev, 1);
}

#define bit_time btt_time

struct obuf *btt_xvg;	/* -X: NAME.xvg, the figures in words and numbers */

static void xdev(char *buf, u32 dev)	/* a device as -X names it */
{
	btt_dev_hdr(buf, 15, dev, 0);
}

static void avg_line(struct obuf *o, const char *name, const struct btt_avg *a)
{
	if (a->n)
		ob_printf(o, "%-15s %13.9f %13.9f %13.9f %11d\n", name, bit_time(a->min),
			  bit_time(a->total) / (double)a->n, bit_time(a->max), (int)a->n);
}

static const char *const avg_names[BTT_NAVG] = {
	"Q2Qdm", "Q2Adm", "Q2Cdm", "Q2Q", "Q2A", "Q2G", "S2G", "G2I", "Q2M", "I2D", "M2D", "D2C", "Q2C"
};

TEXT(bttrep_avg_head, "%15s           MIN           AVG           MAX           N\n"
	"--------------- ------------- ------------- ------------- -----------\n")
/* the head of a table of avg_lines */
static void avg_head(struct obuf *o, const char *what)
{
	ob_printf(o, TX(bttrep_avg_head), what);
}

/* a line per figure seen at least once; the dm ones first */
static void avg_block(struct obuf *o, const char *title, const struct btt_avg *a)
{
	int i;

	section(o, title);
	avg_head(o, "ALL");
	for (i = 0; i < BTT_NAVG; i++) {
		avg_line(o, avg_names[i], &a[i]);
		if (btt_xvg && a == btt_all && i >= BTT_Q2Q && a[i].n)
			ob_printf(btt_xvg, "%s %.9f %.9f %.9f %d\n", avg_names[i], bit_time(a[i].min),
				  bit_time(a[i].total) / (double)a[i].n, bit_time(a[i].max), (int)a[i].n);
		if (i == BTT_Q2C_DM || i == BTT_Q2C)
			ob_puts(o, "\n");
	}
}

/* live with -S: each device's figures of the interval ending at secs,
 * in All Devices' form */
void btt_interval_report(struct obuf *o, u64 secs)
{
	char title[48];
	u32 i;

	for (i = 0; i < btt_ndevs; i++) {
		sfmt(title, sizeof(title), "(%3u,%3u) at %llu s", DEV_MAJOR(btt_devs[i].dev),
		     DEV_MINOR(btt_devs[i].dev), (unsigned long long)secs);
		avg_block(o, title, btt_devs[i].iv.avg);
	}
	ob_flush(o);
}

/* -A: the figures per process (by name) and per device, as btt's
 * output_all_data; the process names cut to 14 characters */
static const u8 per_figs[] = { BTT_Q2Q_DM, BTT_Q2A_DM, BTT_Q2C_DM, BTT_NAVG, BTT_Q2Q, BTT_Q2A,
			       BTT_Q2G, BTT_S2G, BTT_G2I, BTT_Q2M, BTT_I2D, BTT_D2C, BTT_Q2C };
static u16 proc_ix[BTT_PROCS];

static void per_table(struct obuf *o, const char *title, int procs)
{
	u32 f, i, n = procs ? btt_proc_order(proc_ix) : 0;
	char name[16];

	section(o, title);
	for (f = 0; f < sizeof(per_figs); f++) {
		int k = per_figs[f];

		if (k == BTT_NAVG) {
			ob_puts(o, "\n");
			continue;
		}
		avg_head(o, avg_names[k]);
		for (i = 0; procs && i < n; i++) {
			if (proc_ix[i] == btt_nprocs)
				continue;	/* -e: a note's process, no figures */
			sfmt(name, 15, "%s", btt_procs[proc_ix[i]].name);
			avg_line(o, name, &btt_procs[proc_ix[i]].avg[k]);
		}
		if (!procs)
			BTT_FOR_OUT(i) {
				dev_name(name, btt_devs[i].dev);
				avg_line(o, name, &btt_devs[i].avg[k]);
			}
		ob_puts(o, "\n");
	}
}

TEXT(bttrep_q2d_eq, "===== ===== ===== ===== ===== ===== ===== ===== ===== ===== \n")

static void q2d_line(struct obuf *o, const char *name, const u32 *c)
{
	u32 i, n = 0;

	for (i = 0; i < 10; i++)
		n += c[i];
	ob_printf(o, "%10s | ", name);
	for (i = 0; i < 10; i++)
		ob_printf(o, "%5.1f ", 100.0 * (double)c[i] / (double)n);
	ob_puts(o, "\n");
}

TEXT(bttrep_q2d_head, "%10s | <.005 <.010 <.025 <.050 <.075 <.100 <.250 <.500 < 1.0 >=1.0\n"
	" --------- | %s")
/* -A: each device's Q2D times in btt's buckets, as shares, and their sum */
static void q2d_histo(struct obuf *o)
{
	u32 i, k, all[10] = { 0 }, n = 0;
	char name[16];

	section(o, "Q2D Histogram");
	ob_printf(o, TX(bttrep_q2d_head), "DEV", TX(bttrep_q2d_eq));
	BTT_FOR_OUT(i) {
		const u32 *c = btt_devs[i].q2d;

		for (k = 0; k < 10 && !c[k]; k++)
			;
		if (k == 10)
			continue;
		dev_name(name, btt_devs[i].dev);
		q2d_line(o, name, c);
		for (k = 0; k < 10; k++)
			all[k] += c[k];
		n++;
	}
	if (n) {
		ob_printf(o, "========== | %s", TX(bttrep_q2d_eq));
		q2d_line(o, "AVG", all);
		ob_puts(o, "\n");
	}
}

TEXT(bttrep_oh_dash, "---------- | --------- --------- --------- --------- ---------\n")
static const int oh_fig[5] = { BTT_Q2G, BTT_G2I, BTT_Q2M, BTT_I2D, BTT_D2C };

TEXT(bttrep_overhead_head, "       DEV |       Q2G       G2I       Q2M       I2D       D2C\n")
TEXT(bttrep_q_g_f, "%s: Q2G %.4f%% is over 100%%: a G taken for an older Q's; the "
	"completed I/Os' own: %.4f%%")
/* each stage's share of Q2C (the non-dm one): per device with Q2C time,
 * and overall over those devices when any of their stages was seen */
static void overhead(struct obuf *o)
{
	u64 tot[6] = { 0 }, n[6] = { 0 };
	u32 i, k, any = 0;
	char name[16];

	section(o, "Device Overhead");
	ob_puts(o, TX(bttrep_overhead_head));
	ob_puts(o, TX(bttrep_oh_dash));
	BTT_FOR_OUT(i) {
		const struct btt_dev *d = &btt_devs[i];
		double q2c = (double)d->avg[BTT_Q2C].total, pct = 100.0 * (double)d->avg[BTT_Q2G].total / q2c;
		static int said;

		if (!d->avg[BTT_Q2C].n || !d->avg[BTT_Q2C].total)
			continue;
		dev_name(name, d->dev);
		if (pct > 100.0 && !said++)	/* btt's figure stays: scripts read it */
			warn_text(U_bttrep_q_g_f,
				 name, pct, 100.0 * (double)d->q2g_done / q2c);
		ob_printf(o, "%10s |", name);
		for (k = 0; k < 5; k++) {
			ob_printf(o, " %8.4f%%", 100.0 * (double)d->avg[oh_fig[k]].total / q2c);
			tot[k] += d->avg[oh_fig[k]].total;
			n[k] += d->avg[oh_fig[k]].n;
			any |= d->avg[oh_fig[k]].n != 0;
		}
		ob_puts(o, "\n");
		tot[5] += d->avg[BTT_Q2C].total;
	}
	if (any) {
		ob_puts(o, TX(bttrep_oh_dash));
		ob_printf(o, "%10s |", "Overall");
		for (k = 0; k < 5; k++)
			ob_printf(o, " %8.4f%%", n[k] ? 100.0 * ((double)tot[k] / (double)tot[5]) : 0.0);
		ob_puts(o, "\n");
	}
	ob_puts(o, "\n");
}

TEXT(bttrep_merge_hdr, "       DEV |       #Q       #D   Ratio |   BLKmin   BLKavg   BLKmax    Total\n")
TEXT(bttrep_merge_dash, "---------- | -------- -------- ------- | -------- -------- -------- --------\n")

/* a device counts once it has Qs and Ds; fewer Qs than Ds reads as
 * equal; the per-device average truncates a double, the total's divides
 * integers, and its ratio is computed in float */
static void merge_info(struct obuf *o)
{
	u64 nq = 0, nd = 0, bmin = 0, bmax = 0, tot = 0;
	u32 i, n = 0;
	char name[16];

	section(o, "Device Merge Information");
	ob_puts(o, TX(bttrep_merge_hdr));
	ob_puts(o, TX(bttrep_merge_dash));
	BTT_FOR_OUT(i) {
		const struct btt_dev *d = &btt_devs[i];
		u64 q = d->n_qs < d->n_ds ? d->n_ds : d->n_qs;

		if (!d->n_qs || !d->n_ds)
			continue;
		dev_name(name, d->dev);
		ob_printf(o, "%10s | %8llu %8llu %7.1f | %8llu %8llu %8llu %8llu\n", name,
			  (unsigned long long)q, (unsigned long long)d->n_ds, (double)q / (double)d->n_ds,
			  (unsigned long long)d->blks.min,
			  (unsigned long long)((double)d->blks.total / (double)d->n_ds),
			  (unsigned long long)d->blks.max, (unsigned long long)d->blks.total);
		if (btt_xvg) {
			xdev(name, d->dev);
			ob_printf(btt_xvg, "DMI %s %llu %llu %.9f %llu %llu %llu %llu\n", name, (unsigned long long)q,
				  (unsigned long long)d->n_ds, (double)q / (double)d->n_ds, (unsigned long long)d->blks.min,
				  (unsigned long long)((double)d->blks.total / (double)d->n_ds),
				  (unsigned long long)d->blks.max, (unsigned long long)d->blks.total);
		}
		if (!n++ || d->blks.min < bmin)
			bmin = d->blks.min;
		if (n == 1 || d->blks.max > bmax)
			bmax = d->blks.max;
		nq += q;
		nd += d->n_ds;
		tot += d->blks.total;
	}
	if (n > 1) {
		ob_puts(o, TX(bttrep_merge_dash));
		ob_puts(o, TX(bttrep_merge_hdr));
		ob_printf(o, "%10s | %8llu %8llu %7.1f | %8llu %8llu %8llu %8llu\n", "TOTAL",
			  (unsigned long long)nq, (unsigned long long)nd, (double)((float)nq / (float)nd),
			  (unsigned long long)bmin, (unsigned long long)(tot / nd),
			  (unsigned long long)bmax, (unsigned long long)tot);
	}
	ob_puts(o, "\n");
}

static const char seek_hdr[] = "%10s | %15s %15s %15s | %-15s\n";
static const char seek_line[] = "%10s | %15lld %15.1f %15lld | %lld(%d)";
static const char seek_more[] = "\n%10s   %15s %15s %15s   ...(%d more)\n";
TEXT(bttrep_seek_dash, "---------- | --------------- --------------- --------------- | ---------------\n")
static s64 mode_buf[BTT_SEEKS];
static struct { s64 val; u32 cnt; } ov[BTT_SEEKS];	/* one array: a page touched, not two */
static u32 ov_n;
static int modes_cut;

/* the devices' modes, summed by value in the order first seen */
static void overall_add(const struct btt_mode *m)
{
	u32 i, j;

	for (i = 0; i < m->n && i < m->cap; i++) {
		for (j = 0; j < ov_n && ov[j].val != m->val[i]; j++)
			;
		if (j == ov_n) {
			if (ov_n == BTT_SEEKS) {
				modes_cut = 1;
				continue;
			}
			ov[ov_n++].val = m->val[i];
		}
		ov[j].cnt += m->most;
	}
}

static void seek_info(struct obuf *o, const char *title, int d2d)
{
	struct btt_mode m = { .val = mode_buf, .cap = BTT_SEEKS };
	u64 tn = 0, first = 0, best = 0, more = 0;
	long long tmed = 0;
	double tmean = 0;
	char name[16];
	u32 i, nd = 0;
	size_t room;
	void *p = btt_pool_idle(&room);	/* (every file closed: the seek trees go there) */

	ov_n = 0;
	btt_seek_room(p, room);
	section(o, title);
	ob_printf(o, seek_hdr, "DEV", "NSEEKS", "MEAN", "MEDIAN", "MODE");
	ob_puts(o, TX(bttrep_seek_dash));
	BTT_FOR_OUT(i) {
		const struct btt_seek *k = d2d ? &btt_devs[i].d2d : &btt_devs[i].q2q;
		double mean;
		s64 med;
		u32 j;

		if (!k->n)
			continue;
		mean = k->sum / (double)k->n;
		med = btt_seek_median(k);
		btt_seek_modes(k, &m);
		modes_cut |= m.n > m.cap;
		dev_name(name, btt_devs[i].dev);
		ob_printf(o, seek_line, name, (long long)k->n, mean, (long long)med, (long long)m.val[0], (int)m.most);
		if (m.n > 2)
			ob_printf(o, seek_more, "", "", "", "", (int)m.n - 1);
		else {
			for (j = 1; j < m.n; j++)
				ob_printf(o, " %lld", (long long)m.val[j]);
			ob_puts(o, "\n");
		}
		if (btt_xvg) {
			xdev(name, btt_devs[i].dev);
			ob_printf(btt_xvg, "%s %s %lld %.9f %lld %lld %d", d2d ? "DSK" : "QSK", name, (long long)k->n, mean,
				  (long long)med, (long long)m.val[0], (int)m.most);
			for (j = 1; j < m.n && j < m.cap; j++)
				ob_printf(btt_xvg, " %lld", (long long)m.val[j]);
			ob_puts(btt_xvg, "\n");
		}
		nd++;
		tn += k->n;
		tmean += (double)(long long)k->n * mean;
		tmed += (long long)k->n * med;
		overall_add(&m);
	}
	if (nd) {
		for (i = 0; i < ov_n; i++) {
			if (ov[i].cnt > best) {
				best = ov[i].cnt;
				first = i;
				more = 0;
			} else if (ov[i].cnt == best)
				more++;
			ov[i].cnt = 0;
		}
		ob_puts(o, TX(bttrep_seek_dash));
		ob_printf(o, seek_hdr, "Overall", "NSEEKS", "MEAN", "MEDIAN", "MODE");
		ob_printf(o, seek_line, "Average", (long long)tn, tmean / (double)(long long)tn,
			  tmed / (long long)tn, (long long)ov[first].val, (int)best);
		if (more)
			ob_printf(o, seek_more, "", "", "", "", (int)more);
		ob_puts(o, "\n");
	}
	ob_puts(o, "\n");
}

static const char plug_hdr[] = "%10s | %10s %10s  | %s\n";
static const char plug_line[] = "%10s | %10lld(%10lld) | %13.9f%%\n";
TEXT(bttrep_plug_dash, "---------- | ---------- ----------  | ----------------\n")
static const char unp_hdr[] = "%10s | %10s   %10s\n";
static const char unp_line[] = "%10s | %10.1f   %10.1f\n";
TEXT(bttrep_unp_dash, "---------- | ----------   ----------\n")

/* a device still plugged at the end is unplugged at its last event; the
 * share of time plugged is of the device's first to last event */
static void plug_info(struct obuf *o)
{
	long np = 0, nt = 0, n = 0;
	double pct_sum = 0;
	u64 tup = 0, tupt = 0, nup = 0, nupt = 0;
	char name[16];
	u32 i;

	section(o, "Plug Information");
	ob_printf(o, plug_hdr, "DEV", "# Plugs", "# Timer Us", "% Time Q Plugged");
	ob_puts(o, TX(bttrep_plug_dash));
	BTT_FOR_OUT(i) {
		struct btt_dev *d = &btt_devs[i];
		double pct;

		btt_unplug(d, d->end, 0, 0);
		if (!d->nplugs && !d->nplugs_t)
			continue;
		pct = 100.0 * (d->plugged_time / (bit_time(d->end) - bit_time(d->start)));
		dev_name(name, d->dev);
		ob_printf(o, plug_line, name, (long long)d->nplugs, (long long)d->nplugs_t, pct);
		if (btt_xvg) {
			xdev(name, d->dev);
			ob_printf(btt_xvg, "PLG %s %d %d %.9f\n", name, (int)d->nplugs, (int)d->nplugs_t, pct);
		}
		n++;
		np += d->nplugs;
		nt += d->nplugs_t;
		pct_sum += pct;
	}
	if (n > 1) {
		ob_puts(o, TX(bttrep_plug_dash));
		ob_printf(o, plug_hdr, "Overall", "# Plugs", "# Timer Us", "% Time Q Plugged");
		ob_printf(o, plug_line, "Average", (long long)(np / n), (long long)(nt / n), pct_sum / (double)n);
	}
	ob_puts(o, "\n");
	ob_printf(o, unp_hdr, "DEV", "IOs/Unp", "IOs/Unp(to)");
	ob_puts(o, TX(bttrep_unp_dash));
	BTT_FOR_OUT(i) {
		const struct btt_dev *d = &btt_devs[i];
		double a = 0, at = 0;

		if (d->nios_up && d->nplugs) {
			a = (double)d->nios_up / (double)d->nplugs;
			nup += d->nplugs;
			tup += d->nios_up;
		}
		if (d->nios_upt && d->nplugs_t) {
			at = (double)d->nios_upt / (double)d->nplugs_t;
			nupt += d->nplugs_t;
			tupt += d->nios_upt;
		}
		dev_name(name, d->dev);
		ob_printf(o, unp_line, name, a, at);
		if (btt_xvg) {
			xdev(name, d->dev);
			ob_printf(btt_xvg, "UPG %s %.9f %.9f\n", name, a, at);
		}
	}
	if (nup || nupt) {
		ob_puts(o, TX(bttrep_unp_dash));
		ob_printf(o, unp_hdr, "Overall", "IOs/Unp", "IOs/Unp(to)");
		ob_printf(o, unp_line, "Average", nup ? (double)tup / (double)nup : 0.0,
			  nupt ? (double)tupt / (double)nupt : 0.0);
	}
	ob_puts(o, "\n");
}

TEXT(bttrep_active_head, "       DEV |  Avg Reqs @ Q\n---------- | -------------\n")
/* the mean number of requests queued, not yet issued or merged, that a
 * Q finds; remappers left out; #Q as the merge table left it */
static void active_q(struct obuf *o)
{
	u64 tq = 0, ta = 0;
	u32 i, n = 0;
	char name[16];

	section(o, "Active Requests At Q Information");
	ob_puts(o, TX(bttrep_active_head));
	BTT_FOR_OUT(i) {
		const struct btt_dev *d = &btt_devs[i];
		u64 q = d->n_ds && d->n_qs < d->n_ds ? d->n_ds : d->n_qs;

		if (!d->n_qs || btt_remapper(d->dev))
			continue;
		dev_name(name, d->dev);
		ob_printf(o, "%10s | %13.1f\n", name, (double)d->t_act_q / (double)q);
		if (btt_xvg) {
			xdev(name, d->dev);
			ob_printf(btt_xvg, "ARQ %s %.9f\n", name, (double)d->t_act_q / (double)q);
		}
		n++;
		tq += q;
		ta += d->t_act_q;
	}
	if (n > 1)
		ob_printf(o, "---------- | -------------\n%10s | %13s\n%10s | %13.1f\n", "Overall",
			  "Avgs Reqs @ Q", "Average", (double)ta / (double)tq);
	ob_puts(o, "\n");
}

TEXT(bttrep_live_dash, "---------- | ---------- ------------- ------------- ------\n")

/* btt's lives: their number, mean length, mean gap and share of the
 * time from 0 (not from the first) to the last end */
static void live_line(struct obuf *o, const char *name, const struct btt_live *l)
{
	u64 n = l->n + l->folded, tot = l->len;
	double act = 0, lull = 0, pct = 0;

	if (n == 1)
		pct = 100.0;
	else if (n > 1) {
		double t = bit_time(l->end), live = bit_time(tot);

		pct = 100.0 * (live / t);
		act = live / (double)n;
		lull = (t - live) / (double)(n - 1);
	}
	ob_printf(o, "%10s | %10llu %13.9f %13.9f %6.2f\n", name, (unsigned long long)n, act, lull, pct);
}

TEXT(bttrep_live_head, "       DEV |     # Live      Avg. Act     Avg. !Act %% Live\n")
static void live_info(struct obuf *o)
{
	char name[16];
	u32 i;

	section(o, "I/O Active Period Information");
	ob_printf(o, TX(bttrep_live_head));
	ob_puts(o, TX(bttrep_live_dash));
	BTT_FOR_OUT(i) {
		dev_name(name, btt_devs[i].dev);
		live_line(o, name, &btt_devs[i].live);
	}
	ob_puts(o, TX(bttrep_live_dash));
	live_line(o, "Total Sys", &btt_live_all);
	ob_puts(o, "\n");
}

void btt_report(struct obuf *o, int all_data)
{
	if (all_data) {
		if (!btt_exes || *btt_exes)	/* btt leaves the section out for -e '' */
			per_table(o, "Per Process", 1);
		per_table(o, "Per Device", 0);
	}
	btt_all_fold();
	avg_block(o, "All Devices", btt_all);
	overhead(o);
	merge_info(o);
	seek_info(o, "Device Q2Q Seek Information", 0);
	seek_info(o, "Device D2D Seek Information", 1);
	plug_info(o);
	active_q(o);
	live_info(o);
	if (all_data)
		q2d_histo(o);
}

/* the range data: NAME.dat, or stdout after the report.  A block of Q
 * and C ranges (4 points each, at base and base + 0.4; btt's floats, so
 * "%5.1f" of them as the whole base and a digit) for all, each device
 * (with two or more, those with ranges), each process */
static u32 region(struct obuf *o, const char *name, u32 l, const u32 *tail, u32 base)
{
	u32 k, j;
	const struct btt_range *p;

	if (!tail[0] && !tail[1])
		return 0;
	for (k = 0; k < 2; k++) {
		ob_printf(o, "# %16s : %c activity\n", name, k ? 'c' : 'q');
		for (p = btt_ranges; p < btt_ranges + btt_nranges; p++)
			for (j = 0; j < 4 && p->list == l + k; j++)
				ob_printf(o, "%13.9f %3u.%c\n", btt_time(j & 2 ? p->end : p->start), base,
					  (int)(k * 5 + ((j + 1) & 2) * 2 + '0'));
		ob_puts(o, "\n");
	}
	return 1;
}

void btt_range_data(struct obuf *o)
{
	char name[24];
	u32 i, n, base;

	ob_puts(o, "# Total System\n");
	base = region(o, "Total System", 0, btt_rtail, 0);
	if (btt_ndevs > 1) {
		ob_puts(o, "# Per device\n");
		BTT_FOR_OUT(i) {
			sfmt(name, sizeof(name), "%u,%u", DEV_MAJOR(btt_devs[i].dev), DEV_MINOR(btt_devs[i].dev));
			base += region(o, name, 2 + 2 * i, btt_devs[i].rtail, base);
		}
	}
	ob_puts(o, "# Per process\n");
	for (n = btt_proc_order(proc_ix), i = 0; i < n; i++)	/* -e: numbered in its order */
		if (proc_ix[i] < btt_nprocs)
			region(o, btt_procs[proc_ix[i]].name, BTT_RL_PROC + 2 * proc_ix[i], btt_procs[proc_ix[i]].rtail,
			       base + (btt_exes ? i : btt_proc_rank(btt_procs[proc_ix[i]].name, NULL)));
}

/* NAME_qhist.dat (k 0), NAME_dhist.dat (k 1) */
void btt_size_hist(struct obuf *o, int k)
{
	int i, c = k ? 'D' : 'Q';

	ob_printf(o, "%s# %c buckets\n", k ? "" : "# BTT histogram data\n", c);
	for (i = 0; i <= 1024; i++)
		ob_printf(o, i < 1024 ? "%4d %u\n" : "\n# %c bucket for > 1024\n1024 %u\n", i < 1024 ? i + 1 : c, btt_szhist[i][k]);
}
