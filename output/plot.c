/* output/plot.c: driver: plot and iowatcher: options, the inputs (btt's, capture/input.c, one at a time), a program run under a live capture, the SVG */
//applet: iowatcher plot plot_main
//sources: @trace capture/input.c capture/merge.c capture/window.c match/procs.c
//sources: output/plotsvg.c stats/plotstat.c
//readme: iowatcher: its SVG graphs, CPU from /proc/stat, movies as animated SVG | iomon-plot.1
/* usage: iomon plot [-i INPUT]... | -t DEV... [-w SECS] [-o FILE.svg]
 * iowatcher's graphs and options.  Called iowatcher, its own letters:
 * -t is a trace, -d a device, -w a graph's width.  Each input is read
 * on its own, so its devices take its name or -l's label. */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "output/output.h"

USAGE(plot,
"usage: plot -i INPUT... | -t DEV... [-w SECS] [options]\n"
"       iowatcher -t INPUT... | -d DEV... [-p PROG ARGS...] [-w WIDTH] [options]\n"
"  -o FILE.svg|-  -T TITLE  -l LABEL...  -O GRAPH...  -N GRAPH...  -x MIN:MAX (s)\n"
"  -y MIN:MAX (MB)  -a Q|D|C  -r SECS  -h HEIGHT  -c COLUMNS  -m (animated)  -P\n"
"  INPUT: a dump, a trace's NAME, or -.  GRAPH: io tput iops latency\n"
"  queue-depth heatmap cpu-user cpu-sys cpu-io cpu-irq cpu-soft\n")

static const char graph_names[][12] = { "io", "tput", "iops", "latency", "queue-depth", "heatmap",
	"cpu-user", "cpu-sys", "cpu-io", "cpu-irq", "cpu-soft" };

TEXT(plot_not_a_graph, "%s: not a graph (io tput iops latency queue-depth heatmap cpu-user "
	"cpu-sys cpu-io cpu-irq cpu-soft)")
/* a graph's bit (queue_depth as iowatcher's man page spells it too), or 0 said */
static int graph(const char *s)
{
	char n[12];
	int i;

	sfmt(n, sizeof(n), "%s", s);
	if (!strcmp(n, "queue_depth"))
		n[5] = '-';
	for (i = 0; i < 11; i++)
		if (!strcmp(n, graph_names[i]))
			return 1 << i;
	warn_text(U_plot_not_a_graph, s);
	return 0;
}

/* -x or -y MIN:MAX (either may be left out) in units; -1 said */
static int range(int c, const char *s, double unit, u64 *lo, u64 *hi)
{
	const char *e;
	double a = scan_double(s, &e), b;

	if (e == s)
		a = 0;
	if (*e++ != ':' || (b = scan_double(e, &e), *e) || b < a || a < 0) {
		warn_msg("-%c %s: MIN:MAX", c, s);
		return -1;
	}
	*lo = (u64)(a * unit);
	if (b > 0)
		*hi = (u64)(b * unit);
	return 0;
}

static char plot_buf[16384], dump_buf[16384];
static struct obuf dump;	/* iowatcher -d DEV -t NAME: the capture kept as NAME.dump */

static void rec_fn(const struct rec *r)
{
	if (dump.name)
		rec_write(&dump, r);
	plot_event(r);
}
static char **prog;		/* -p's program and arguments */
static pid_t child;
static u64 started;

/* execvp's search of PATH, without its cost in size */
static void run(char **av)
{
	extern char **environ;
	char path[4096], **v = environ, *p, *e;

	while (*v && memcmp(*v, "PATH=", 5))	/* getenv would bring strchrnul */
		v++;
	p = *v ? *v + 5 : NULL;
	if (strchr(av[0], '/'))
		execv(av[0], av);
	for (; p; p = e ? e + 1 : NULL) {
		e = strchr(p, ':');
		sfmt(path, sizeof(path), "%.*s/%s", (int)(e ? e - p : (long)strlen(p)), p, av[0]);
		execv(path, av);
	}
}

/* each live round: /proc/stat sampled; -p's program started in the
 * first (the kernel traces by then), and once it has ended, the capture stops */
static void round_fn(void)
{
	int st;

	if (!started) {
		started = mono_ns();
		if (prog) {
			if (!(child = vfork())) {
				run(prog);
				_exit(127);
			}
			if (child < 0)
				err_sys("vfork");
		}
	}
	plot_cpu_sample(mono_ns() - started);
	if (child > 0 && waitpid(child, &st, WNOHANG) == child) {
		child = 0;
		if (st)
			warn_msg("%s: exit status %d", prog[0], WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
		kill(getpid(), SIGINT);
	}
}

/* the devices input k added (from first on) take its label, its trace's
 * name, the kernel's name (live) or MAJ,MIN */
static char names[PLOT_SERIES][48], *name_of[PLOT_SERIES];

static void name_devs(u32 first, const char *label, const char *in, int kind)
{
	const char *b;

	for (; first < plot_ndevs; first++, label = NULL) {
		char *n = name_of[first] = names[first];
		u32 dev = plot_devs[first].dev;

		if (label || kind == 1) {
			b = label ? label : strrchr(in, '/') ? strrchr(in, '/') + 1 : in;
			sfmt(n, sizeof(names[0]), "%s", b);
			if ((n = str_find(n, ".blktrace.")))
				*n = 0;
		} else if (kind != 3 || sys_devname(dev, n, sizeof(names[0])))
			sfmt(n, sizeof(names[0]), "%u,%u", DEV_MAJOR(dev), DEV_MINOR(dev));
	}
}

struct plot_opts {
	char *in[IN_NAMES], *labels[IN_NAMES];
	const char *out, *title;
	int nin, nl, only, no;
	struct cap_cfg cfg;
};

/* iowatcher -t DIR: each NAME.blktrace.0 in it an input DIR/NAME */
static char found[IN_NAMES][256];
static u32 nfound;

static long each(const char *dir, const char *name, void *arg)
{
	struct plot_opts *p = arg;
	size_t n = strlen(name);

	if (n > 11 && !strcmp(name + n - 11, ".blktrace.0") && p->nin < IN_NAMES) {
		sfmt(found[nfound], sizeof(found[0]), "%s/%.*s", dir, (int)(n - 11), name);
		p->in[p->nin++] = found[nfound++];
	}
	return 0;
}

/* one option; 0, or 1 said */
static int plot_opt(struct plot_opts *p, int c, int iw)
{
	const char *e;

	switch (c) {
	case 't':
		if (!iw)
			return cap_add_device(opt_arg) != 0;
		c = p->nin;
		if (dir_each(opt_arg, each, p) || p->nin > c)
			return 0;
		/* fall through */
	case 'i':
		if (p->nin == IN_NAMES) {
			warn_msg("%s: more than %d inputs", opt_arg, IN_NAMES);
			return 1;
		}
		p->in[p->nin++] = opt_arg;
		return 0;
	case 'd': return cap_add_device(opt_arg) != 0;
	case 'w':
		if (!iw)
			return cap_opt(&p->cfg, c, opt_arg) != 0;
		plot_look.w = (int)scan_u64(opt_arg, NULL, 10);
		return plot_look.w < 200 && (warn_msg("-w %s: a width of 200 or more", opt_arg), 1);
	case 'h':
		plot_look.h = (int)scan_u64(opt_arg, NULL, 10);
		return plot_look.h < 40 && (warn_msg("-h %s: a height of 40 or more", opt_arg), 1);
	case 'c':
		plot_look.cols = (int)scan_u64(opt_arg, NULL, 10);
		return plot_look.cols < 1 && (warn_msg("-c %s: 1 or more columns", opt_arg), 1);
	case 'o': p->out = opt_arg; return 0;
	case 'T': p->title = opt_arg; return 0;
	case 'D': p->cfg.dir = opt_arg; return 0;
	case 'l': if (p->nl < IN_NAMES) p->labels[p->nl++] = opt_arg; return 0;
	case 'O': return !(c = graph(opt_arg)) || (p->only |= c, 0);
	case 'N': return !(c = graph(opt_arg)) || (p->no |= c, 0);
	case 'x': return range(c, opt_arg, 1e9, &plot_from, &plot_to) != 0;
	case 'y': return range(c, opt_arg, 1e6 / 512, &plot_ylo, &plot_yhi) != 0;
	case 'r':
		plot_look.roll = (u64)(scan_double(opt_arg, &e) * 1e9);
		return (*e || e == opt_arg) && (warn_msg("-r %s: seconds", opt_arg), 1);
	case 'a':
		plot_act = *opt_arg == 'Q' ? TA_QUEUE : *opt_arg == 'C' ? TA_COMPLETE : TA_ISSUE;
		return (!strchr("QDC", *opt_arg) || opt_arg[1]) && (warn_msg("-a %s: Q, D or C", opt_arg), 1);
	case 'm': plot_look.movie = 1; return 0;
	case 'p': prog = (char **)1; return 0;
	case 'P': plot_by_proc = 1; return 0;
	default: usage_put(2, U_plot); return 1;
	}
}

TEXT(plot_events_of_devices, "%llu events of devices past the first %d (PLOT_SERIES) not drawn")
TEXT(plot_requests_still_in, "%llu requests still in flight when %d (PLOT_REQS) newer ones "
	"were: given up, not drawn")
TEXT(plot_inputs_or_devices, "inputs or devices to trace, not both")
COLD int plot_main(int argc, char **argv)
{
	static struct plot_opts p;
	const char *a0 = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	int c, i, fd, rc = 0, iw = !strcmp(a0, "iowatcher");
	u32 first;
	struct obuf o;

	cap_defaults(&p.cfg);
	p.out = "trace.svg";
	p.title = "iomon plot";
	if (iw)
		plot_act = TA_QUEUE;	/* iowatcher's offsets: where requests were queued */
	while ((c = opt_get(argc, argv, "i:t:d:D:w:h:c:o:T:l:O:N:x:y:r:a:m::pP", NULL)) != -1)
		if (plot_opt(&p, c, iw))
			return 1;
	if (prog)
		prog = argv + opt_ind;
	if ((!p.nin && !cap_ndev()) || (!prog && opt_ind < argc) || (prog && (!*prog || !cap_ndev()))) {
		warn_msg("%s", prog ? "-p PROG ARGS... with a device to trace" : opt_ind < argc ? "unexpected argument" :
			 iw ? "-t TRACE or -d DEV is needed" : "-i INPUT or -t DEV is needed");
		return 1;
	}
	if (cap_ndev()) {	/* live */
		static char dn[512];

		if (p.nin > iw) {
			warn_text(U_plot_inputs_or_devices);
			return 1;
		}
		if (p.nin) {	/* iowatcher's -t: where the capture is kept */
			sfmt(dn, sizeof(dn), "%s%s%s%s", p.cfg.dir ? p.cfg.dir : "", p.cfg.dir ? "/" : "", p.in[0],
			     str_find(p.in[0], ".dump") ? "" : ".dump");
			if ((fd = open_out(dn, 0644)) < 0)
				return 1;
			ob_init(&dump, fd, dn, dump_buf, sizeof(dump_buf));
			p.nin = 0;
		}
		rc = in_run(&(struct input){ NULL, 0, &p.cfg, rec_fn, round_fn, NULL, NULL });
		for (i = 0; i < (int)plot_ndevs; i++)
			name_devs((u32)i, i < p.nl ? p.labels[i] : NULL, "", 3);
		if (dump.name)
			rc |= ob_close(&dump);
	}
	for (i = 0; i < p.nin; i++) {
		char in[256], alt[256];

		/* iowatcher -t NAME: NAME.dump where NAME has no trace files */
		sfmt(in, sizeof(in), "%s.blktrace.0", p.in[i]);
		sfmt(alt, sizeof(alt), "%s.dump", p.in[i]);
		if (iw && in_kind(p.in[i]) == 1 && access(in, F_OK) && !access(alt, F_OK))
			p.in[i] = alt;
		sfmt(in, sizeof(in), "%s", p.in[i]);	/* in_run cuts the name it reads */
		first = plot_ndevs;
		plot_in = (u32)i;
		rc |= in_run(&(struct input){ &p.in[i], 1, &p.cfg, plot_event, NULL, NULL, NULL });
		name_devs(first, i < p.nl ? p.labels[i] : NULL, in, in_kind(in));
	}
	if (plot_dropped_devs)
		warn_text(U_plot_events_of_devices, plot_dropped_devs, PLOT_SERIES);
	if (plot_given_up())
		warn_text(U_plot_requests_still_in,
			 plot_given_up(), PLOT_REQS);
	if (!plot_ndevs)
		warn_msg("no I/O to draw");
	if (plot_to != ~(u64)0)
		plot_cover(plot_to - plot_from);
	else if (plot_ncpu && plot_cpu_t[plot_ncpu - 1] > plot_from)	/* the time axis reaches the last CPU sample */
		plot_cover(plot_cpu_t[plot_ncpu - 1] - plot_from);
	if ((fd = strcmp(p.out, "-") ? open_out(p.out, 0644) : 1) < 0)	/* -o -: stdout */
		return 1;
	ob_init(&o, fd, p.out, plot_buf, sizeof(plot_buf));
	plot_svg(&o, p.title, name_of, (p.only ? p.only : PG_ALL) & ~p.no);
	return ob_close(&o) || rc;
}
