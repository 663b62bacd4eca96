/* output/plotsvg.c: output: plot's picture: one self-contained SVG of stats/plotstat.c's columns (offsets, throughput, IOPS, latency, depth, heatmap) */
/* No scripts, fonts or files of its own: shapes and text in SVG 1.1, so
 * a browser, an image viewer or a converter shows it alike.  Graphs
 * overlay the devices (a colour each, the labels in a legend); the offset
 * map and the latency heatmap get a panel per device. */
#include <string.h>
#include "output/output.h"

#define W 960
#define L 72			/* the y axis' labels */
#define PW (W - L - 24)		/* the plotting width */
#define PH 150			/* a panel's plotting height */
#define STEP (PH + 56)		/* a panel with its title and x labels */

static const char *const dev_col[4] = { "blue", "red", "green", "orange" };
static const char *const proc_col[PLOT_PROCS + 2] = { "", "gray", "blue", "red", "green",
	"orange", "purple", "brown", "magenta", "teal" };
static int ptop;				/* the panel's top */
static double ymax;
static char dev_name[PLOT_SERIES][48];		/* -l's label, or MAJ,MIN */

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

static int px(u32 c) { return L + (int)((u64)c * PW / (plot_used ? plot_used : 1)); }
static int py(double v) { return ptop + PH - (int)(v / ymax * PH + 0.5); }

/* a step of 1, 2 or 5 times a power of ten, about a quarter of v; its decimals */
static double nice(double v, int *dec)
{
	double s = 1e-6;

	*dec = 6;
	while (s * 10 <= v / 4) {
		s *= 10;
		*dec -= *dec > 0;
	}
	return s * 5 <= v / 4 ? s * 5 : s * 2 <= v / 4 ? s * 2 : s;
}

/* a panel: its frame, title, the y axis up to v (rounded up to a step,
 * unless exact) in unit, the x axis in seconds */
static void panel(struct obuf *o, const char *title, double v, const char *unit, int exact)
{
	double s, x, span = (double)plot_bin_ns * plot_used / 1e9;
	int dec;

	ptop += STEP;
	s = nice(v > 0 ? v : 1, &dec);
	for (ymax = s; ymax < v; ymax += s)
		;
	if (exact)
		ymax = v;
	ob_printf(o, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">", L, ptop - 8);
	esc(o, title);
	ob_printf(o, "</text>\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444\"/>\n",
		  L, ptop, PW, PH);
	for (x = 0; x <= ymax * 1.0001; x += s)
		ob_printf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.*f</text><path d=\"M%d %dh%d\" stroke=\"#ddd\"/>\n",
			  L - 4, py(x) + 4, dec, x, L + 1, py(x), PW - 2);
	ob_printf(o, "<text x=\"8\" y=\"%d\">%s</text>\n", ptop + PH / 2, unit);
	s = nice(span > 0 ? span : 1, &dec);
	for (x = 0; x <= span * 1.0001 && span > 0; x += s)
		ob_printf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%.*f</text>\n",
			  L + (int)(x / span * PW), ptop + PH + 16, dec, x);
	ob_printf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">seconds</text>\n", L + PW, ptop + PH + 32);
}

/* the legend, under the time axis: a swatch and a name per device, or
 * per process (-P) */
static void legend(struct obuf *o, int procs)
{
	u32 i, n = procs ? plot_nprocs + 1 : plot_ndevs;

	for (i = 0; i < n; i++) {
		const char *t = !procs ? dev_name[i] : i ? plot_procs[i - 1] : "others";

		ob_printf(o, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">",
			  L + 95 * (int)i, ptop + PH + 24, procs ? proc_col[i + 1] : dev_col[i & 3],
			  L + 95 * (int)i + 14, ptop + PH + 33);
		esc(o, t);
		ob_puts(o, "</text>\n");
	}
}

/* figure k of column c, per second or averaged as the graph wants */
static double fig(const u64 *b, int g)
{
	double sec = (double)plot_bin_ns / 1e9;

	switch (g) {
	case 1: return (double)(b[PB_RB] + b[PB_WB]) / sec / 1e6;	/* MB/s */
	case 2: return (double)(b[PB_RN] + b[PB_WN]) / sec;		/* IOPS */
	case 3: return b[PB_D2CN] ? (double)b[PB_D2C] / (double)b[PB_D2CN] / 1e6 : 0;	/* ms */
	case 4: return b[PB_Q2CN] ? (double)b[PB_Q2C] / (double)b[PB_Q2CN] / 1e6 : 0;
	default: return (double)b[PB_QD] / (double)plot_bin_ns;	/* requests */
	}
}

/* graph g (1 throughput, 2 IOPS, 3 latency (D2C, and Q2C dashed), 5
 * depth): a line per device */
static void lines(struct obuf *o, const char *title, const char *unit, int g)
{
	double m = 0, v;
	u32 i, c;
	int k, last = g == 3 ? 4 : g;

	for (i = 0; i < plot_ndevs; i++)
		for (c = 0; c < plot_used; c++)
			for (k = g; k <= last; k++)
				if ((v = fig(plot_devs[i].bin[c], k)) > m)
					m = v;
	panel(o, title, m, unit, 0);
	legend(o, 0);
	for (i = 0; i < plot_ndevs; i++)
		for (k = g; k <= last; k++) {
			ob_printf(o, "<polyline fill=\"none\" stroke=\"%s\"%s points=\"", dev_col[i & 3],
				  k == 4 ? " stroke-dasharray=\"4 3\"" : "");
			for (c = 0; c < plot_used; c++)
				ob_printf(o, "%d,%d ", (px(c) + px(c + 1)) / 2, py(fig(plot_devs[i].bin[c], k)));
			ob_puts(o, "\"/>\n");
		}
}

/* cells of one class each (0: none), drawn as a path per class: fill
 * col[k], or for a heatmap one red whose opacity grows with k; rows of
 * rowh axis units */
static u8 cls[PLOT_BINS][PLOT_ROWS > PLOT_LAT ? PLOT_ROWS : PLOT_LAT];

static void grid(struct obuf *o, u32 rows, double rowh, u32 nk, const char *const *col)
{
	u32 k, c, r;
	int w;

	for (k = 1; k <= nk; k++) {
		ob_printf(o, "<path fill=\"%s\" fill-opacity=\"%.2f\" d=\"", col ? col[k] : "#b30000",
			  col ? 1.0 : (double)k / nk);
		for (c = 0; c < plot_used; c++)
			for (r = 0; r < rows; r++)
				if (cls[c][r] == k) {
					w = px(c + 1) - px(c) > 1 ? px(c + 1) - px(c) : 2;
					ob_printf(o, "M%d %dh%dV%dh-%dz", px(c), py((r + 1) * rowh), w, py(r * rowh), w);
				}
		ob_puts(o, "\"/>\n");
	}
}

/* the offset map of device i: a mark where a request was issued, by
 * direction (reads blue, writes red, both purple) or by process (-P) */
static void offsets(struct obuf *o, u32 i, int procs)
{
	const struct plot_dev *d = &plot_devs[i];
	static const char *const dir_col[4] = { "", "blue", "red", "purple" };
	double top = (double)((u64)PLOT_ROWS << d->shift) * 512;
	int gb = top >= 4e9;
	char title[96];
	u32 c, r;

	sfmt(title, sizeof(title), "Offsets: %s", dev_name[i]);
	panel(o, title, top / (gb ? 1e9 : 1e6), gb ? "GB" : "MB", 1);
	if (procs)
		legend(o, 1);
	for (c = 0; c < PLOT_BINS; c++)
		for (r = 0; r < PLOT_ROWS; r++)
			cls[c][r] = !d->cell[c][r] ? 0 : procs ? (u8)((d->cell[c][r] >> 2) + 1) : d->cell[c][r] & 3;
	grid(o, PLOT_ROWS, ymax / PLOT_ROWS, procs ? plot_nprocs + 1 : 3, procs ? proc_col : dir_col);
}

/* device i's D2C times as a heatmap: columns of time, rows of log2
 * microseconds, the darker the more requests (by the count's bit length) */
static void heatmap(struct obuf *o, u32 i)
{
	const struct plot_dev *d = &plot_devs[i];
	char title[96];
	u32 c, k, q = 1;

	for (c = 0; c < PLOT_BINS; c++)
		for (k = 0; k < PLOT_LAT; k++) {
			u64 n = d->bin[c][PB_HEAT + k];

			cls[c][k] = (u8)(n ? 64 - __builtin_clzll(n) : 0);
			if (cls[c][k] > q)
				q = cls[c][k];
		}
	sfmt(title, sizeof(title), "D2C heatmap: %s (rows: log2 of us)", dev_name[i]);
	panel(o, title, PLOT_LAT, "2^n us", 1);
	grid(o, PLOT_LAT, 1, q, NULL);
}

/* graphs: PG_* bits; labels: a name per device or NULL */
void plot_svg(struct obuf *o, const char *title, char **labels, int graphs)
{
	int n = 0, per = (graphs & PG_IO ? 1 : 0) + (graphs & PG_HEAT ? 1 : 0), g;
	u32 i;

	for (g = PG_TPUT; g <= PG_QD; g <<= 1)
		n += (graphs & g) != 0;
	n += per * (int)plot_ndevs;
	for (i = 0; i < plot_ndevs; i++)
		if (labels[i])
			sfmt(dev_name[i], sizeof(dev_name[i]), "%s", labels[i]);
		else
			sfmt(dev_name[i], sizeof(dev_name[i]), "%u,%u", DEV_MAJOR(plot_devs[i].dev), DEV_MINOR(plot_devs[i].dev));
	ob_printf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		  "version=\"1.1\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n"
		  "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n<text x=\"%d\" y=\"24\" font-size=\"18\">",
		  W, 40 + n * STEP, L);
	esc(o, title);
	ob_puts(o, "</text>\n");
	ptop = 40 - STEP + 28;
	if (graphs & PG_IO)
		for (i = 0; i < plot_ndevs; i++)
			offsets(o, i, plot_by_proc);
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
	ob_puts(o, "</svg>\n");
}
