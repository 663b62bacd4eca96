/* output/plot.c: driver: plot: options, the inputs (btt's, capture/input.c), the SVG */
//applet: plot plot_main
//sources: @trace capture/input.c capture/merge.c capture/window.c match/procs.c
//sources: output/plotsvg.c stats/plotstat.c
//readme: iowatcher's SVG graphs | iomon-plot.1
/* usage: iomon plot [-i INPUT]... | -t DEV... [-w SECS] [-o FILE.svg]
 * iowatcher's graphs and options where they fit (-T -l -O -N -x -P),
 * from the records stats/plotstat.c bins as they come. */
#include <string.h>
#include <unistd.h>
#include "output/output.h"

USAGE(plot,
"usage: plot -i INPUT... | -t DEV... [-w SECS] [-o FILE.svg|-] [-T TITLE] [-l LABEL]...\n"
"  [-O GRAPH]... [-N GRAPH]... [-x MIN:MAX] [-P]   INPUT: a dump, a trace's NAME, or -\n"
"  GRAPH: io tput iops latency queue_depth heatmap (all by default)\n")

static const char graph_names[][12] = { "io", "tput", "iops", "latency", "queue_depth", "heatmap" };

TEXT(plot_not_a_graph, "%s: not a graph (io tput iops latency queue_depth heatmap)")
/* a graph's bit, or 0 said */
static int graph(const char *s)
{
	int i;

	for (i = 0; i < 6; i++)
		if (!strcmp(s, graph_names[i]))
			return 1 << i;
	warn_text(U_plot_not_a_graph, s);
	return 0;
}

/* -x MIN:MAX in seconds (either may be left out) */
static int xrange(const char *s)
{
	const char *e;
	double a = scan_double(s, &e), b;

	if (e == s)
		a = 0;
	if (*e++ != ':' || (b = scan_double(e, &e), *e) || b < a) {
		warn_msg("-x %s: MIN:MAX in seconds", s);
		return -1;
	}
	plot_from = (u64)(a * 1e9);
	if (b > 0)
		plot_to = (u64)(b * 1e9);
	return 0;
}

static char plot_buf[16384];

TEXT(plot_events_of_devices, "%llu events of devices past the first %d (PLOT_SERIES) not drawn")
TEXT(plot_requests_still_in, "%llu requests still in flight when %d (PLOT_REQS) newer ones "
	"were: given up, not drawn")
COLD int plot_main(int argc, char **argv)
{
	static char *in[IN_NAMES], *labels[PLOT_SERIES];
	const char *out = "trace.svg", *title = "iomon plot";
	int c, nin = 0, nl = 0, only = 0, no = 0, fd, rc;
	struct cap_cfg cfg;
	struct obuf o;

	cap_defaults(&cfg);
	while ((c = opt_get(argc, argv, "i:t:w:o:T:l:O:N:x:P", NULL)) != -1) {
		switch (c) {
		case 'i':
			if (nin == IN_NAMES) {
				warn_msg("%s: more than %d inputs", opt_arg, IN_NAMES);
				return 1;
			}
			in[nin++] = opt_arg;
			break;
		case 't': if (cap_add_device(opt_arg)) return 1; break;
		case 'w': if (cap_opt(&cfg, c, opt_arg)) return 1; break;
		case 'o': out = opt_arg; break;
		case 'T': title = opt_arg; break;
		case 'l': if (nl < PLOT_SERIES) labels[nl++] = opt_arg; break;
		case 'O': if (!(c = graph(opt_arg))) return 1; only |= c; break;
		case 'N': if (!(c = graph(opt_arg))) return 1; no |= c; break;
		case 'x': if (xrange(opt_arg)) return 1; break;
		case 'P': plot_by_proc = 1; break;
		default: usage_put(2, U_plot); return 1;
		}
	}
	if ((!nin && !cap_ndev()) || opt_ind < argc) {
		warn_msg("%s", opt_ind < argc ? "unexpected argument" : "-i INPUT or -t DEV is needed");
		return 1;
	}
	rc = in_run(&(struct input){ in, nin, &cfg, plot_event, NULL, NULL, NULL });
	if (plot_dropped_devs)
		warn_text(U_plot_events_of_devices, plot_dropped_devs, PLOT_SERIES);
	if (plot_given_up())
		warn_text(U_plot_requests_still_in,
			 plot_given_up(), PLOT_REQS);
	if (!plot_ndevs)
		warn_msg("no I/O to draw");
	if (plot_to != ~(u64)0)
		plot_cover(plot_to - plot_from);
	if ((fd = strcmp(out, "-") ? open_out(out, 0644) : 1) < 0)	/* -o -: stdout */
		return 1;
	ob_init(&o, fd, out, plot_buf, sizeof(plot_buf));
	plot_svg(&o, title, labels, (only ? only : 63) & ~no);
	return ob_close(&o) || rc;
}
