/* output/output.h: output: the public API of output/: event lines; the drivers' entry points */
#ifndef IOMON_OUTPUT_H
#define IOMON_OUTPUT_H
#include "stats/stats.h"

/* output/fmt.c: one event line, default layout or -f/-F */
struct ev {
	const struct rec *r;
	u64 time;		/* relative to the trace's first event */
	const char *act;	/* "Q", "UT", ... */
	u32 cpu;		/* the column blkparse prints (file's CPU in file mode) */
	u64 elapsed;		/* -t timing, or ~0 */
	const u8 *pdu;		/* only PC issue/insert/complete pass their CDB */
	u32 pdu_len;
	u32 dev;		/* device column (A prints the remap target) */
};
#define NO_ELAPSED (~(u64)0)
int fmt_set_all(const char *f);
int fmt_set_one(const char *spec);
int fmt_overridden(int act);
void fmt_event(struct obuf *o, const struct ev *e);
/* blkparse exits on these mid-run, inside fmt_event; the applet's
 * function flushes what it has first, then exits (it must not return) */
void fmt_set_fatal(void (*fatal)(const char *why));
void fmt_message(struct obuf *o, const struct rec *r, u64 time, u32 shown_cpu);
extern s64 abs_start_sec, abs_start_nsec;	/* from the TIMESTAMP note, for %z */

/* output/export.c: monitor's reports of an interval (stats/monstat.c) */
struct mon_out {
	struct obuf *human, *bin, *json;	/* NULL: not asked for */
	const char *prom;	/* Prometheus file, or NULL */
	int msq, interval;	/* msq: -1 none */
	long msg_id;
	volatile int *stop;	/* set by a signal: the queue is no longer waited on */
	unsigned long long unsent;
};
void export_interval(struct mon_out *o, s64 t);
/* output/monexp.c: an interval as JSON, the totals as Prometheus text */
#ifdef IOMON_NO_EXPORT
static inline void mon_json_write(struct obuf *o, const struct dstat *s, s64 t, int interval) {}
static inline void mon_prom_write(const char *path) {}
static inline void mon_json_end(struct obuf *o, s64 t, int interval) {}
#else
void mon_json_write(struct obuf *o, const struct dstat *s, s64 t, int interval);
void mon_json_end(struct obuf *o, s64 t, int interval);	/* failures' own lines; counts restart */
void mon_prom_write(const char *path);
#endif
int export_queue(struct mon_out *o, const char *path, long qid);	/* o->msq; -1 said why */
/* the writers monitor and btt share: a Prometheus file written whole
 * (prom_open: -1 said why; tmp is PATH_LEN), a histogram in it, a JSON
 * array of counts (key brings its quote and any comma before it), a
 * histogram as text */
int prom_open(struct obuf *o, const char *path, char *tmp, char *buf, u32 cap);
void prom_commit(struct obuf *o, const char *tmp, const char *path);
void prom_hist(struct obuf *o, const char *name, u32 dev, const u64 *b, int n, u64 delta, int e, u64 sum);
void json_u32s(struct obuf *o, const char *key, const u32 *b, int n);
void hist_print(struct obuf *o, const char *what, const u32 *b, int n, u64 delta);	/* blkiomon's text */

/* output/toptable.c: biotop's table of stats/topstat.c's rows, which it
 * spends; clear: the screen first; replay: the trace's name, no /proc, /sys */
void top_table(struct obuf *o, s64 wall, int clear, int maxrows, const char *replay);

/* the drivers (applet.c dispatches to them) */
int parse_main(int, char **);
int trace_main(int, char **);
int btrace_main(int, char **);
int monitor_main(int, char **);
int top_main(int, char **);
/* output/bttrep.c: btt's report (NAME.avg); output/btt.c: its driver */
void btt_report(struct obuf *o, int all_data);	/* all_data: -A's tables */
/* output/bttopt.c: btt's option files (NULL or 0: not asked for) */
struct bttopt_cfg {
	const char *bno, *seek, *sps, *aqd, *unplug, *pio, *pit;	/* -B -s -m -Q -u -p -P */
	double plat;	/* -L */
	int live;	/* -Z */
};
extern struct bttopt_cfg btt_opt;
extern struct obuf *btt_xvg;	/* output/bttrep.c: -X's NAME.xvg */
int btt_opt_start(void);
int btt_opt_end(void);
void btt_opt_after(const struct rec *r);	/* after each record, with an option file */
void btt_plat(const struct btt_dev *d, int kind, u64 ts, u64 lat);	/* -L: each latency line's figures */
void btt_interval_report(struct obuf *o, u64 secs);
/* output/bttdm.c: btt's -D (the devices reported, in its order) and -M
 * (their names) */
struct btt_dit { const char *p; u32 k; };
extern const char *btt_dlist;	/* -D's text, or NULL: every device */
extern int btt_dmissing;	/* -D named a device the trace has not */
u32 btt_dnext(struct btt_dit *it);	/* the next device's index, or ~0u */
#define BTT_FOR_OUT(i) for (struct btt_dit it_ = { btt_dlist, 0 }; ((i) = btt_dnext(&it_)) != ~0u;)
int btt_map_read(const char *file);
void btt_dev_hdr(char *buf, u32 len, u32 dev, int parens);	/* btt's make_dev_hdr */
void btt_dev_file(char *buf, u32 dev);	/* in file names: -M's name or MAJ,MIN (BTT_MAPNAME bytes) */
/* output/bttfiles.c: btt's -z, -l, -q, -I files */
int btt_files_opt(int c, const char *arg);
int btt_files_end(void);
void btt_pool_use(struct obuf *o);	/* o, just made, writes through the files' pool */
void *btt_pool_idle(size_t *n);
void btt_pool_flush(void);
void btt_range_data(struct obuf *o);	/* NAME.dat's */
void btt_size_hist(struct obuf *o, int k);	/* NAME_qhist.dat (0), NAME_dhist.dat (1) */
void btt_files_after(void);	/* the lines a record's figures left: -z -l -q, -I, *_fp.dat */
int btt_main(int, char **);
/* output/plotsvg.c: the SVG of stats/plotstat.c's figures; graphs: PG_ bits */
enum { PG_IO = 1, PG_TPUT = 2, PG_IOPS = 4, PG_LAT = 8, PG_QD = 16, PG_HEAT = 32, PG_CPU = 64, PG_ALL = 2047 };
/* a graph's width and plot height, graphs a row, -m's animation, -r's rolling average (ns) */
struct plot_look { int w, h, cols, movie; u64 roll; };
extern struct plot_look plot_look;
void plot_svg(struct obuf *o, const char *title, char **names, int graphs);
int plot_main(int, char **);
/* output/bttexp.c: beyond btt: the histograms after the report (--hist);
 * JSON lines (the interval's figures) and a Prometheus file (the run's)
 * at wall time t; the interval's figures start again */
void btt_hist_report(struct obuf *o);
void btt_export(struct obuf *json, const char *prom, s64 t, int interval);
/* output/lattable.c: biolatency's tables (and a new interval) */
void lat_tables(struct obuf *o, s64 wall, int ts, int ext, const char *replay);
void log2_hist(struct obuf *o, const u64 *slots, const char *label);	/* LAT_SLOTS of them */
/* output/iolines.c: what biolatency, biosnoop, biotop and biopattern do alike */
void blk_disk_name(u32 dev, const char *replay, char *out, size_t len);
const char *replay_label(const char *in);	/* -i NAME's files' name, or "-" */
int in_devs(char *in, char **devs, int n, void (*rec)(const struct rec *r), void (*round)(void));
/* -d DISK: whether a record's device is that disk (by its name, as
 * blk_disk_name gives it); the first match is kept, so the name is
 * looked at until then only.  disk NULL: every device. */
struct disk_filter { const char *disk; u32 dev; int known; };
int disk_wanted(struct disk_filter *f, u32 dev, const char *replay);
const char *errno_name(u32 e, char buf[12]);	/* EIO; another as its number */
void fail_line(struct obuf *o);	/* "N I/Os failed (...)" when any did */
/* the interval clock of biolatency, biotop and biopattern: out() every
 * interval seconds (0: never), count times (0: no end).  A replay's in
 * trace time, from each record (tick: 1 once the count is done, the
 * record and the replay stop); live on the monotonic clock, after each
 * round (tick_live: the capture stops once the count is done); tick_end:
 * the last output, of a partial interval, unless the count was done. */
struct ticks {
	int interval, count, done, live;
	u64 start, next;	/* a replay's: the first record's time, the next output's */
	u64 live_next;		/* live: mono_ms of the next output */
	s64 wall0;		/* a replay's: the trace's wall-clock second (in_note) */
	void (*out)(s64 wall);
	volatile sig_atomic_t stop;	/* the replay's input stops */
};
int tick(struct ticks *k, const struct rec *r);
void tick_live(struct ticks *k);
void tick_end(struct ticks *k);

#endif
