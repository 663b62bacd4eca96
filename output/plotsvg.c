/* output/plotsvg.c: output: plot's picture: one self-contained SVG of stats/plotstat.c's columns (offsets, throughput, IOPS, latency, depth, heatmap, CPU), still or animated */
/* No scripts, fonts or files of its own: shapes and text in SVG 1.1, so
 * a browser, an image viewer or a converter shows it alike; a movie (-m)
 * is the same picture with SMIL animations, a cover sweeping each graph
 * open.  Graphs overlay the devices, reads and writes in a colour each
 * (the labels in a legend under the time axis); the offset map and the
 * latency heatmap get a panel per device.  Every text's place is
 * reserved: the picture's height counts each panel's labels and legend
 * rows, the y axis' name is turned upright beside its numbers. */
#include <string.h>
#include "output/output.h"

#define L 80			/* a panel's left margin: the y axis' name and numbers */
#define TOP 28			/* a panel's title, above its plot */
#define LEG 50			/* the legend's first line, under the plot */

struct plot_look plot_look = { 960, 150, 1, 0, 0 };
/* reads, then writes: a colour per device each */
static const char *const rw_col[2][4] = { { "#1f5fd0", "#17a0b0", "#2ca02c", "#7040c0" },
	{ "#d62728", "#ff7f0e", "#c0309a", "#8c564b" } };
static const char *const proc_col[PLOT_PROCS + 2] = { "", "gray", "#1f5fd0", "#d62728", "#2ca02c",
	"#ff7f0e", "#7040c0", "#8c564b", "#c0309a", "#17a0b0" };
static const double level_op[4] = { 0.35, 0.55, 0.8, 1 };	/* 1, 2-3, 4-7, 8 or more requests */
static int ox, ptop, pw, ph, lrows, npanel, lx, ly;
static double ymax;
static char **dname;

static void esc(struct obuf *o, const char *s)
{
	for (; *s; s++)
		if (*s == '<')
			ob_puts(o, "&lt;");
		else if (*s == '&')
			ob_puts(o, "&amp;");
		else if ((u8)*s >= ' ' && *s != '"')
			ob_write(o, s, 1);
}

static double span_s(void) { return (double)plot_bin_ns * plot_used / 1e9; }
static int px(u32 c) { return ox + L + (int)((u64)c * (u32)pw / (plot_used ? plot_used : 1)); }
static int py(double v) { return ptop + ph - (int)(v / ymax * ph + 0.5); }
static int cell_h(void) { return TOP + ph + LEG + 6 + 14 * (lrows - 1); }

/* the least step of 1, 2 or 5 times a power of ten that cuts v in n or
 * fewer; its decimals */
static double nice(double v, int n, int *dec)
{
	double s = 1e-6;
	int k = 0;

	*dec = 6;
	while (v / (s * "\1\2\5"[k]) > n)
		if (++k == 3) {
			k = 0;
			s *= 10;
			*dec -= *dec > 0;
		}
	return s * "\1\2\5"[k];
}

TEXT(plotsvg_item, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\" "
	"fill-opacity=\"%.2f\"/><text x=\"%d\" y=\"%d\">")
/* a legend entry (o NULL: only its room); after legend_at, wrapping */
static void legend_at(void) { lx = ox + L; ly = ptop + ph + LEG; }
static void item(struct obuf *o, const char *col, double op, const char *t)
{
	int w = 24 + 7 * (int)strlen(t);

	if (lx > ox + L && lx + w > ox + L + pw) {
		lx = ox + L;
		ly += 14;
	}
	if (o) {
		ob_printf(o, TX(plotsvg_item), lx, ly - 10, col, op, lx + 14, ly);
		esc(o, t);
		ob_puts(o, "</text>\n");
	}
	lx += w;
}

/* legends: 0 every device's reads and writes, 1 device i's offsets (by
 * process with -P), 2 the heatmap's scale of i classes; its lines */
static int legend(struct obuf *o, int kind, u32 i)
{
	char t[64];
	u32 k, n;

	legend_at();
	if (kind == 2) {
		item(o, "white", 0, "requests:");
		for (k = 1; k <= i; k++) {
			n = 1u << (k - 1);
			sfmt(t, sizeof(t), "%u", n);
			item(o, "#b30000", (double)k / i, t);
		}
	} else if (kind && plot_by_proc)
		for (k = 0; k <= plot_nprocs; k++)
			item(o, proc_col[k + 1], 1, k ? plot_procs[k - 1] : "others");
	else
		for (k = kind ? i : 0; k < (kind ? i + 1 : plot_ndevs); k++)
			for (n = 0; n < 2; n++) {
				sfmt(t, sizeof(t), "%s %s", dname[k], n ? "writes" : "reads");
				item(o, rw_col[n][k & 3], 1, t);
			}
	return (ly - (ptop + ph + LEG)) / 14 + 1;
}

TEXT(plotsvg_cover, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"white\">"
	"<animate attributeName=\"x\" from=\"%d\" to=\"%d\" dur=\"%.1fs\" repeatCount=\"indefinite\"/>"
	"<animate attributeName=\"width\" from=\"%d\" to=\"0\" dur=\"%.1fs\" repeatCount=\"indefinite\"/></rect>\n")
/* -m: the last panel's cover, sweeping it open left to right, again and again */
static void cover(struct obuf *o)
{
	double d = span_s();

	if (!plot_look.movie || !npanel)
		return;
	d = d < 5 ? 5 : d > 60 ? 60 : d;
	ob_printf(o, TX(plotsvg_cover), ox + L + 1, ptop - 2, pw - 2, ph + 4, ox + L + 1, ox + L + pw - 1, d, pw - 2, d);
}

TEXT(plotsvg_frame, "</text>\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
	"stroke=\"#444\"/>\n<text transform=\"rotate(-90 %d %d)\" x=\"%d\" y=\"%d\" "
	"text-anchor=\"middle\">%s</text>\n")
TEXT(plotsvg_y_step, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.*f</text><path d=\"M%d %dh%d\" "
	"stroke=\"#ddd\"/>\n")
TEXT(plotsvg_x_step, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%.*f</text>\n")
TEXT(plotsvg_seconds, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">seconds</text>\n")
/* the next panel: its frame, title, the y axis up to v (rounded up to a
 * step, unless exact) in unit from base, the x axis in the trace's seconds */
static void panel(struct obuf *o, const char *title, double v, double base, const char *unit, int exact)
{
	double s, x, from = (double)plot_from / 1e9, span = span_s();
	int dec, X;

	cover(o);
	ox = npanel % plot_look.cols * plot_look.w;
	ptop = 40 + npanel++ / plot_look.cols * cell_h() + TOP;
	X = ox + L;
	s = nice(v > 0 ? v : 1, ph / 25, &dec);	/* numbers 25 pixels apart or more */
	for (ymax = s; ymax < v * 0.9999; ymax += s)
		;
	if (exact)
		ymax = v;
	ob_printf(o, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">", X, ptop - 8);
	esc(o, title);
	ob_printf(o, TX(plotsvg_frame), X, ptop, pw, ph, ox + 18, ptop + ph / 2, ox + 18, ptop + ph / 2, unit);
	for (x = 0; x <= ymax * 1.0001; x += s)
		ob_printf(o, TX(plotsvg_y_step), X - 4, py(x) + 4, dec, base + x, X + 1, py(x), pw - 2);
	s = nice(span > 0 ? span : 1, pw / 80, &dec);
	for (x = (double)(u64)(from / s + 0.9999) * s; x <= (from + span) * 1.0001 && span > 0; x += s)
		ob_printf(o, TX(plotsvg_x_step), X + (int)((x - from) / span * pw), ptop + ph + 20, dec, x);
	ob_printf(o, TX(plotsvg_seconds), X + pw, ptop + ph + 36);
}

/* figure g of a column, direction w (0 reads, 1 writes): 1 MB/s, 2 IOPS,
 * 3 D2C ms, 4 Q2C ms, 5 queue depth */
static double fig(const u64 *b, int g, int w)
{
	double sec = (double)plot_bin_ns / 1e9;

	switch (g) {
	case 1: return (double)b[PB_B + w] / sec / 1e6;
	case 2: return (double)b[PB_N + w] / sec;
	case 3: return b[PB_D2CN + w] ? (double)b[PB_D2C + w] / (double)b[PB_D2CN + w] / 1e6 : 0;
	case 4: return b[PB_Q2CN + w] ? (double)b[PB_Q2C + w] / (double)b[PB_Q2CN + w] / 1e6 : 0;
	default: return (double)b[PB_QD + w] / (double)plot_bin_ns;
	}
}

/* ... averaged over -r's seconds up to column c */
static double val(u32 i, int g, int w, u32 c)
{
	u64 k = plot_look.roll / plot_bin_ns;
	double v = 0;
	u32 n = 0;

	do
		v += fig(plot_devs[i].bin[c], g, w);
	while (++n <= k && c--);
	return v / n;
}

static double vals[PLOT_SERIES * 4 * PLOT_BINS];

TEXT(plotsvg_polyline, "<polyline fill=\"none\" stroke=\"%s\"%s points=\"")
/* graph g (1 throughput, 2 IOPS, 3 latency (D2C, and Q2C dashed), 5
 * depth): a line per device and direction that has any.  A spike past
 * four times the 98th percentile of the values is cut at the top, where
 * a triangle marks each point cut, and the title says so. */
static void lines(struct obuf *o, const char *title, const char *unit, int g)
{
	double hi = 0, top, v;
	u32 i, c, j, n = 0, cut;
	int k, w, last = g == 3 ? 4 : g;
	char t[128];

	for (i = 0; i < plot_ndevs; i++)
		for (k = g; k <= last; k++)
			for (w = 0; w < 2; w++)
				for (c = 0; c < plot_used; c++)
					if ((v = val(i, k, w, c)) > 0) {
						for (j = n++; j && vals[j - 1] > v; j--)
							vals[j] = vals[j - 1];
						vals[j] = v;
						hi = v > hi ? v : hi;
					}
	top = n ? vals[n * 49 / 50] : 0;
	cut = hi > 4 * top;
	sfmt(t, sizeof(t), cut ? "%s (peaks to %.1f %s cut, marked ^)" : "%s", title, hi, unit);
	panel(o, t, cut ? top * 1.25 : hi, 0, unit, 0);
	legend(o, 0, 0);
	for (i = 0; i < plot_ndevs; i++)
		for (k = g; k <= last; k++)
			for (w = 0; w < 2; w++) {
				for (v = 0, c = 0; c < plot_used; c++)
					v += val(i, k, w, c);
				if (v <= 0)
					continue;
				ob_printf(o, TX(plotsvg_polyline), rw_col[w][i & 3],
					  k == 4 ? " stroke-dasharray=\"4 3\"" : "");
				for (c = 0; c < plot_used; c++)
					ob_printf(o, "%d,%d ", (px(c) + px(c + 1)) / 2, py((v = val(i, k, w, c)) > ymax ? ymax : v));
				ob_printf(o, "\"/>\n<path fill=\"%s\" d=\"", rw_col[w][i & 3]);
				for (c = 0; c < plot_used; c++)
					if (val(i, k, w, c) > ymax)
						ob_printf(o, "M%d %dl-4 7h8z", (px(c) + px(c + 1)) / 2, ptop + 1);
				ob_puts(o, "\"/>\n");
			}
}

/* marks of one class each (0: none) in cls, drawn as a path per class:
 * for offsets (col) a dot in colour v >> 2 whose opacity is level v & 3;
 * for the heatmap a whole cell in one red whose opacity grows with v >> 2
 * (of nk); rows of rowh axis units */
static u8 cls[PLOT_BINS][PLOT_ROWS > PLOT_LAT ? PLOT_ROWS : PLOT_LAT];

static void marks(struct obuf *o, u32 rows, double rowh, u32 nk, const char *const *col)
{
	u32 v, c, r, n;
	int x, y, w, h;

	for (v = 4; v < (nk + 1) * 4; v++) {
		for (n = c = 0; c < plot_used; c++)
			for (r = 0; r < rows; r++) {
				if (cls[c][r] != v)
					continue;
				if (!n++)
					ob_printf(o, "<path fill=\"%s\" fill-opacity=\"%.2f\" d=\"", col ? col[v >> 2] : "#b30000",
						  col ? level_op[v & 3] : (double)(v >> 2) / nk);
				x = px(c);
				w = px(c + 1) - x;
				y = py((r + 1) * rowh);
				h = py(r * rowh) - y;
				if (col) {	/* a dot in the cell's middle */
					x += w / 2 - 1;
					y += h / 2 - 1;
					w = h = 3;
				}
				ob_printf(o, "M%d %dh%dv%dh-%dz", x, y, w ? w : 1, h ? h : 1, w ? w : 1);
			}
		if (n)
			ob_puts(o, "\"/>\n");
	}
}

static u8 level(u32 n) { return (u8)(n >= 8 ? 3 : n >= 4 ? 2 : n >= 2); }

/* the offset map of device i: a dot where requests were (its -a action),
 * reads and writes in their colours or by process (-P), the more the darker */
static void offsets(struct obuf *o, u32 i)
{
	const struct plot_dev *d = &plot_devs[i];
	double top = (double)((u64)PLOT_ROWS << d->shift) * 512;
	double u = top >= 4e9 ? 1e9 : 1e6;
	const char *cols[3] = { "", rw_col[0][i & 3], rw_col[1][i & 3] };
	char title[96];
	u32 c, r, w;

	sfmt(title, sizeof(title), "Offsets: %s", dname[i]);
	panel(o, title, top / u, (double)plot_ylo * 512 / u, u > 1e6 ? "GB" : "MB", 1);
	legend(o, 1, i);
	for (w = 0; (int)w < 2 - plot_by_proc; w++) {
		for (c = 0; c < PLOT_BINS; c++)
			for (r = 0; r < PLOT_ROWS; r++) {
				u32 x = d->cell[c][r], n = plot_by_proc ? (x & 15) + (x >> 4 & 15) : x >> 4 * w & 15;

				cls[c][r] = !n ? 0 : (u8)((plot_by_proc ? (x >> 8) + 1 : w + 1) << 2 | level(n));
			}
		marks(o, PLOT_ROWS, ymax / PLOT_ROWS, plot_by_proc ? plot_nprocs + 1 : 2, plot_by_proc ? proc_col : cols);
	}
}

/* device i's D2C times as heat classes in cls: columns of time, rows of
 * log2 microseconds, the class a count's bit length; the top class */
static u32 heat(u32 i)
{
	u32 c, k, q = 1;

	for (c = 0; c < PLOT_BINS; c++)
		for (k = 0; k < PLOT_LAT; k++) {
			u64 n = plot_devs[i].bin[c][PB_HEAT + k];

			cls[c][k] = (u8)(n ? 64 - __builtin_clzll(n) : 0);
			if (cls[c][k] > q)
				q = cls[c][k];
			cls[c][k] <<= 2;
		}
	return q;
}

static void heatmap(struct obuf *o, u32 i)
{
	char title[96];
	u32 q = heat(i);

	sfmt(title, sizeof(title), "D2C heatmap: %s (rows: log2 of us)", dname[i]);
	panel(o, title, PLOT_LAT, 0, "2^n us", 1);
	legend(o, 2, q);
	marks(o, PLOT_LAT, 1, q, NULL);
}

/* CPU field f of /proc/stat's samples (plotstat.c's order), in percent */
static void cpu(struct obuf *o, u32 f)
{
	static const char name[5][8] = { "user", "system", "iowait", "irq", "softirq" };
	double span = span_s() * 1e9, x;
	char t[48];
	u32 k;

	sfmt(t, sizeof(t), "CPU %s (all CPUs, /proc/stat)", name[f]);
	panel(o, t, 100, 0, "%", 1);
	legend_at();
	item(o, rw_col[0][0], 1, "all CPUs");
	ob_printf(o, TX(plotsvg_polyline), rw_col[0][0], "");
	for (k = 0; k < plot_ncpu; k++)
		if ((x = ((double)plot_cpu_t[k] - (double)plot_from) / span) >= 0 && x <= 1)
			ob_printf(o, "%d,%d ", ox + L + (int)(x * pw), py(plot_cpu[k][f] / 10.0));
	ob_puts(o, "\"/>\n");
}

TEXT(plotsvg_svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
	"height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" "
	"height=\"100%%\" fill=\"white\"/>\n<text x=\"%d\" y=\"24\" font-size=\"18\">")
/* graphs: PG_* bits; names: a name per device */
void plot_svg(struct obuf *o, const char *title, char **names, int graphs)
{
	int n = 0, g;
	u32 i, k;

	dname = names;
	pw = plot_look.w - L - 24;
	ph = plot_look.h;
	ox = ptop = 0;
	lrows = legend(NULL, 0, 0);
	for (i = 0; i < plot_ndevs; i++)
		for (k = 1; k < 3; k++)
			if ((g = legend(NULL, (int)k, k == 2 ? heat(i) : i)) > lrows)
				lrows = g;
	if (!plot_ncpu)
		graphs &= PG_CPU - 1;
	for (g = 1; g <= graphs; g <<= 1)
		n += (graphs & g) ? g & (PG_IO | PG_HEAT) ? (int)plot_ndevs : 1 : 0;
	ob_printf(o, TX(plotsvg_svg), plot_look.w * plot_look.cols,
		  40 + (n + plot_look.cols - 1) / plot_look.cols * cell_h(), L);
	esc(o, title);
	ob_puts(o, "</text>\n");
	npanel = 0;
	if (graphs & PG_IO)
		for (i = 0; i < plot_ndevs; i++)
			offsets(o, i);
	if (graphs & PG_TPUT)
		lines(o, "Throughput", "MB/s", 1);
	if (graphs & PG_IOPS)
		lines(o, "IOPS", "IO/s", 2);
	if (graphs & PG_LAT)
		lines(o, "Latency: D2C, Q2C dashed", "ms", 3);
	if (graphs & PG_QD)
		lines(o, "Queue depth (issued, not completed)", "requests", 5);
	if (graphs & PG_HEAT)
		for (i = 0; i < plot_ndevs; i++)
			heatmap(o, i);
	for (k = 0; k < 5; k++)
		if (graphs & PG_CPU << k)
			cpu(o, k);
	cover(o);
	ob_puts(o, "</svg>\n");
}
