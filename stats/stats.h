/* stats/stats.h: stats: the public API of stats/: blkparse's counters, per-process statistics */
#ifndef IOMON_STATS_H
#define IOMON_STATS_H
#include "match/match.h"

/* stats/iostats.c: blkparse's struct io_stats as an array.  Read/write
 * pairs sit side by side so that index + w picks the direction. */
enum {
	ST_Q, ST_Q_W, ST_Q_KB, ST_Q_KB_W, ST_Q_B, ST_Q_B_W,
	ST_I, ST_I_W, ST_I_KB, ST_I_KB_W, ST_I_B, ST_I_B_W,
	ST_C, ST_C_W, ST_C_KB, ST_C_KB_W, ST_C_B, ST_C_B_W,
	ST_M, ST_M_W, ST_M_KB, ST_M_KB_W, ST_M_B, ST_M_B_W,
	ST_RQ, ST_RQ_W,
	ST_QPC, ST_QPC_W, ST_QPC_KB, ST_QPC_KB_W, ST_QPC_B, ST_QPC_B_W,
	ST_IPC, ST_IPC_W, ST_IPC_KB, ST_IPC_KB_W, ST_IPC_B, ST_IPC_B_W,
	ST_CPC, ST_CPC_W, ST_RQPC, ST_RQPC_W,
	ST_UNPLUG_IO, ST_UNPLUG_TIMER,
	ST_N
};
typedef u64 iostats[ST_N];
void iostats_add(iostats into, const iostats from);
void iostats_print(struct obuf *o, const iostats s, const char *title, const u32 *depth);

/* stats/iostats.c: blkparse -s, per process (or per name with -h) */
struct ppi {
	iostats st;
	u64 wait_alloc[2], wait_dispatch[2], wait_complete[2];
	u32 pid, chain;
	u8 more_than_one;
};
struct ppi *ppi_find(u32 pid);		/* lookup only */
struct ppi *ppi_get(u32 pid);		/* lookup or create; NULL: pool full */
void ppi_print_all(struct obuf *o, int sort_key);
extern int ppi_by_name;
extern unsigned long long ppi_dropped;
/* stats/exact.c: a sum of squares in 160 bits, and the variance from it,
 * exact ("%.Nf" of (num*squares - sum^2) / num^2, ties to even) */
struct sq160 { u64 lo, hi; u32 top; };
static inline void sq_add(struct sq160 *q, u64 v)
{
	u64 a = v >> 32, b = (u32)v, m = a * b, ml = m << 33;
	u64 lo = b * b + ml, hi = a * a + (m >> 31) + (lo < ml);

	/* v*v < 2^128, so hi <= 2^64 - 2: hi plus a carry cannot wrap */
	q->lo += lo;
	hi += q->lo < lo;
	q->hi += hi;
	q->top += q->hi < hi;
}
char *fmt_variance(char *p, u64 num, u64 sum, const struct sq160 *q, int decimals);

/* stats/monstat.c: blkiomon's interval statistics, per device and
 * direction; totals since start when asked (Prometheus) */
struct minmax { u64 min, max, sum, sos, num; struct sq160 sq; };	/* sos wraps as blkiomon's; sq is exact */
struct dstat {
	u32 device, next;	/* next: output list, newest first (as blkiomon) */
	u32 size_hist[SIZE_BUCKETS], d2c_hist[D2C_BUCKETS];
	struct minmax size[2], d2c[2], thr[2];
	u64 bidir;
};
struct total {
	u32 device;
	u64 num[2], bytes[2], bidir;
	u64 size_hist[SIZE_BUCKETS], d2c_hist[D2C_BUCKETS];
	u64 size_sum, d2c_sum_us;
};
/* a failed completion's row: this interval's count (JSON) and the run's
 * (Prometheus); dir 0 read, 1 write */
struct monfail { u32 device, err, dir; u64 n, total; };
struct monstat {
	struct dstat dev[MON_DEVS];
	u32 ndev, list;		/* list head: index + 1 */
	struct total tot[MON_DEVS];
	u32 ntot;
	int totals;		/* keep tot[] */
	unsigned long long dev_overflow;
#ifndef IOMON_NO_EXPORT
	struct monfail fail[MON_FAILS];
	u32 nfail;
	unsigned long long fail_overflow;	/* failures with no row left */
#endif
};
extern struct monstat mon;
void mon_fail(const struct rec *r);	/* a C: counted when it failed (--json, --prom) */
void mon_account(const struct dc_rec *d, const struct dc_rec *c);
void mon_restart(void);
char *mm_var(char *p, const struct minmax *m, int decimals);	/* at most 80 bytes */
/* histogram bucket i holds values up to hist_bound(i); the last, the rest */
static inline u64 hist_bound(int i, u64 delta) { return i ? delta << (i - 1) : 0; }
/* the first i with v <= hist_bound(i): from the bit length of ceil(v /
 * delta) - 1, not a walk up the buckets (btt counts three per request) */
static inline int hist_idx(u64 v, int n, u64 delta)
{
	u64 w;
	int i;

	if (!v)
		return 0;
	w = (v + delta - 1) / delta;
	i = w == 1 ? 1 : 65 - __builtin_clzll(w - 1);
	return i < n - 1 ? i : n - 1;
}

/* stats/topstat.c: biotop's rows, per (process or tag, device, direction) */
struct top_row {
	u32 pid, dev;		/* pid, or the tag with a helper */
	char comm[TOP_LABEL];
	u8 w;
	u64 io, bytes, ns, err;	/* err: completions that failed */
};
struct topstat {
	struct top_row rows[TOP_ROWS];
	u32 nrows;
	unsigned long long row_dropped;
	s64 only_pid;		/* -p: -1 = every pid */
	int replay;		/* no /proc lookups: the trace is from elsewhere */
	int tags;		/* rows per tag-helper tag */
	int errors;		/* -e: failures also to stats/failstat.c */
};
extern struct topstat tops;
void top_event(const struct rec *r, u32 tag, int tagged);	/* Q M F D C */
unsigned long long top_aged(void);	/* requests aged out of TOP_REQS */


/* stats/bttstat.c: btt's figures per device and overall, from a dump in
 * time order; times in ns, as btt's struct avg_info */
enum { BTT_Q2Q_DM, BTT_Q2A_DM, BTT_Q2C_DM, BTT_Q2Q, BTT_Q2A, BTT_Q2G, BTT_S2G, BTT_G2I,
       BTT_Q2M, BTT_I2D, BTT_M2D, BTT_D2C, BTT_Q2C, BTT_NAVG };
struct btt_avg { u64 min, max, total; u32 n; };
enum { BTT_H_Q2D, BTT_H_D2C, BTT_H_Q2C, BTT_NHIST };
/* the times a device was busy (a D to its C), as btt keeps them: a
 * red-black tree of spans (stats/bttrb.c, tree id), n nodes in it, folded
 * the ones the full pool let go of; len: all their lengths; end: the
 * last end */
struct btt_live {
	u32 id, n;
	u64 folded, len, end, fold_end;	/* fold_end: the latest end let go of */
};
#define BTT_LIVE_DEV BTT_DEVS	/* device i's tree: BTT_LIVE_DEV + i */
#define BTT_LIVE_ALL (2 * BTT_DEVS)
/* stats/bttseek.c: seek distances as btt keeps them */
struct btt_seek {
	s64 last_start, last_end;
	u64 n;
	double sum;
	u64 key;		/* the last distance's, until btt_seek_count */
	u32 chain;		/* and its hash chain */
	u16 id;			/* device << 1 | 0 (Q2Q) or 1 (D2D): bttseek.c's */
};
struct btt_mode { s64 *val; u32 cap, n, most; };
void btt_seek_add(struct btt_seek *k, u64 sector, u32 bytes);
void btt_seek_count(struct btt_seek *k);	/* the one btt_seek_add took, after the event's other work */
s64 btt_seek_median(const struct btt_seek *k);
/* memory idle at the report (p: NULL, none) where the trees MEDIAN and MODE walk go, if they fit */
void btt_seek_room(void *p, size_t n);
void btt_seek_modes(const struct btt_seek *k, struct btt_mode *m);
extern unsigned long long btt_seek_dropped;
struct btt_dev {
	u32 dev;
	u8 culling;		/* no Q or A seen yet: btt ignores the device's events */
	u8 dm;			/* btt_remapper's */
	u32 rtail[2];		/* its Q and C ranges' btt_rtail (kept from the second device on) */
	u64 n_qs, n_ds, last_q;
	u64 n_act_q, t_act_q;	/* Qs not yet issued or merged; their sum at each Q */
	u64 start, end;		/* first event, last one counted */
	u64 nios_up, nios_upt;	/* requests the unplugs (by timer: upt) let go */
	u64 q2g_done;		/* Q2G of the Qs that completed (Device Overhead's right share) */
	u32 nplugs, nplugs_t;
	u8 plugged;
	double last_plug, plugged_time;	/* as btt sums them, in seconds */
	struct btt_avg avg[BTT_NAVG], blks;
	struct btt_live live;
	struct btt_seek q2q, d2d;
	/* beyond btt: Q2D, D2C, Q2C in log2 buckets of microseconds
	 * (hist_idx, delta 1) and their sums in ns, since the start; and the
	 * figures and buckets since the last interval (the exports') */
	u32 hist[BTT_NHIST][BTT_HIST];
	u64 hist_ns[BTT_NHIST];
	struct { struct btt_avg avg[BTT_NAVG]; u32 hist[BTT_NHIST][BTT_HIST]; } iv;
	u32 q2d[10];		/* btt -A's Q2D histogram: < 5 ms ... >= 1 s */
};
extern int btt_more;	/* the driver's: hist and iv wanted (a tenth of the time) */
extern struct btt_dev btt_devs[];
extern u32 btt_ndevs;
extern struct btt_avg btt_all[BTT_NAVG];
extern struct btt_live btt_live_all;
extern unsigned long long btt_live_folds;	/* spans the full pool let go of that a later one might have joined */
/* -Z's: each span the full pool lets go of, as it goes (NULL: not wanted) */
extern void (*btt_fold_out)(const struct btt_live *l, u64 dt, u64 ct);
extern const struct btt_live *btt_live_adding;	/* the tree a span goes into (it has spans from then on) */
void btt_live_add(struct btt_live *l, u64 dt, u64 ct);
void btt_live_split(void);	/* a second device: all devices' tree from the first's */
u32 btt_live_next(const struct btt_live *l, u32 n, u64 *dt, u64 *ct);	/* in order: after node n (0: the first) */
int btt_d_after(u64 t);	/* bttstat.c: every D waiting for its C came after t */
int btt_d_after_lazy(u64 t);	/* the same, or 0 without looking (63 calls after a look said no) */
extern int btt_unordered;	/* a record came earlier than the one before */
extern unsigned long long btt_live_early;	/* spans that reached one let go of early */
u32 btt_live_hwm(void);	/* build/periods, build/pool (BTT_PERIODS_SAY) */
u32 btt_live_most(void);
#ifdef BTT_PERIODS_SAY
void btt_live_rec(void);	/* a record begins */
#else
#define btt_live_rec() ((void)0)
#endif
extern unsigned long long btt_dev_dropped, btt_req_dropped;
void btt_event(const struct rec *r);
void btt_all_fold(void);	/* btt_all from the devices': once, at the end */
int btt_remapper(u32 dev);
double btt_time(u64 t);	/* btt's BIT_TIME: whole seconds plus the rest */
double btt_sec(u64 t);	/* btt's TO_SEC: unsigned ns / 1e9 */
void btt_unplug(struct btt_dev *d, u64 t, u64 nios, int timer);	/* majors 9, 253, 254: btt's "dm" figures */
/* stats/plotstat.c: plot's columns of time (PLOT_BINS, widening as the
 * trace goes on: plot_bin_ns each) per device, and its rows of offset
 * (sector >> shift); a figure per direction (+0 reads, +1 writes); a
 * cell: reads issued (bits 0-3, at most 15), writes (4-7), -P's process
 * + 1 (8-15) */
enum { PB_B = 0, PB_N = 2, PB_D2C = 4, PB_D2CN = 6, PB_Q2C = 8, PB_Q2CN = 10, PB_QD = 12, PB_HEAT = 14,
       PB_ALL = PB_HEAT + PLOT_LAT };
struct plot_dev {
	u32 dev, in, shift;	/* in: plot_in when it came: traces of one device overlay */
	u64 t0, last_t, depth[2];
	u64 bin[PLOT_BINS][PB_ALL];
	u16 cell[PLOT_BINS][PLOT_ROWS];
};
extern struct plot_dev plot_devs[];
extern u32 plot_ndevs, plot_nprocs, plot_used, plot_act, plot_in;	/* plot_act: the offsets' action (TA_ISSUE) */
extern u64 plot_bin_ns, plot_from, plot_to, plot_ylo, plot_yhi;	/* -x: ns from each device's start; -y: sectors */
extern int plot_by_proc;
extern char plot_procs[][16];
extern unsigned long long plot_dropped_devs;
unsigned long long plot_given_up(void);	/* requests given up in flight (PLOT_REQS) */
void plot_event(const struct rec *r);
/* the CPUs' time from /proc/stat: plot_cpu_sample(t) once a round, t in
 * ns of the plot's time; plot_cpu[k][f]: sample k's share of field f
 * (user sys iowait irq soft) in per mille, at plot_cpu_t[k] */
#define PLOT_CPU_SAMPLES PLOT_BINS
extern u16 plot_cpu[PLOT_CPU_SAMPLES][5];
extern u64 plot_cpu_t[PLOT_CPU_SAMPLES];
extern u32 plot_ncpu;
void plot_cpu_sample(u64 t);
u32 plot_cover(u64 span);	/* columns reaching span ns (-x: MAX - MIN); the column */
/* stats/bttproc.c: btt's processes (btt_per_proc: -A's tables, set by the driver) */
struct btt_proc { char name[16]; u64 last_q; struct btt_avg avg[BTT_NAVG]; u32 rtail[2]; };
extern struct btt_proc btt_procs[];
extern u32 btt_nprocs;
extern int btt_per_proc;
extern unsigned long long btt_proc_dropped;
u32 btt_proc_of(u32 pid);
/* btt_proc_of's cache inline: pids alternate at random, so a test of the
 * last pid mispredicted at nearly every other event */
extern u32 btt_seen_pid[64], btt_seen_p[64];
static inline u32 btt_proc_at(u32 pid)
{
	return btt_seen_pid[pid & 63] == pid + 1 ? btt_seen_p[pid & 63] : btt_proc_of(pid);
}
u32 btt_proc_order(u16 *ix);	/* by name; with -e (btt_exes: NAME,NAME...) those, in that order */
extern const char *btt_exes;
u32 btt_proc_rank(const char *name, int *known);	/* its block's place in btt's range data */
/* stats/bttrb.c: a device's (r: its index) Qs by start, as btt's tree */
u32 btt_rb_ins(u32 r, u32 slot, u64 start, u64 end);	/* the slot it replaced, or 0 */
void btt_rb_del(u32 r, u32 slot);
u32 btt_rb_at(u32 r, u64 s);	/* the slot holding sector s: btt's search */
u32 btt_rb_within(u32 r, u64 start, u64 end, u32 *slots);
u64 btt_rb_start(u32 slot);	/* its Q's start sector */
/* stats/bttios.c: btt's -I figures, kept when btt_ios_on (the driver's:
 * -I asked for).  A record that ends an interval leaves its rows (each
 * device's btt_ios_row at btt_ios_stamp) in btt_ios_rows for the driver
 * to print (btt_pending): btt_ios_ready is then the devices then + 1 */
#define BTT_IOS_COLS 13
#define BTT_IOS_QG BTT_IOS_COLS	/* past btt's columns: the queue of the Gs' requests only */
#define BTT_IOS_VALS (BTT_IOS_COLS + 1)
extern int btt_ios_on;
extern u32 btt_ios_ready;
extern u64 btt_ios_every, btt_ios_last, btt_ios_stamp;	/* ns */
extern double btt_ios_rows[][BTT_IOS_VALS];
void btt_ios_time(u64 t);
void btt_ios_event(u32 dev_index, const struct rec *r, u32 act);
void btt_ios_done(u32 dev_index, u64 im, u64 qt, u64 ct, int got);	/* got: its Q had a G */
void btt_ios_row(u32 dev_index, u64 stamp, int all, double *v);
enum { BTT_LQ2D, BTT_LD2C, BTT_LQ2C, BTT_NLAT };
/* What one record's figures give the driver to print, never a call into
 * it: btt_pending is set when lines are waiting, and the driver empties
 * them before the next btt_event.  Each I/O's Q2D, D2C and Q2C (btt's -z, -l, -q
 * lines, when btt_lat_on: a record meets BTT_REQS Qs at most, a C two
 * lines each); a second's Cs for *_fp.dat (slot 0 all, i + 1 device i:
 * two at most); a message (btt's NAME.msg) on its device, to print at
 * once. */
struct btt_lat { u32 dev, kind; u64 t, lat; };
struct btt_rline { u32 slot; s64 sec; u64 ios, blks; };
extern int btt_lat_on, btt_pending;
extern struct btt_lat btt_lats[2 * BTT_REQS];
extern struct btt_rline btt_rlines[2];
extern u32 btt_nlats, btt_nrlines;
extern const struct btt_dev *btt_msg_dev;
/* btt's range data (NAME.dat): the times Qs (list l) and Cs (l + 1) came,
 * gaps under btt_range_gap ns joined; l is 0 for all, 2 + 2 * i for device
 * i, BTT_RL_PROC + 2 * i for process i.  A list's last range (+ 1, 0 when
 * it has none): btt_rtail[] for all's, else in its device or process */
struct btt_range { u64 start, end; u32 list; };
#define BTT_RL_PROC (2 + 2 * BTT_DEVS)
extern struct btt_range btt_ranges[];
extern u32 btt_nranges, btt_rtail[2];
extern u64 btt_range_gap;
extern unsigned long long btt_range_dropped;
extern u32 btt_szhist[1025][2];	/* btt's NAME_qhist.dat, NAME_dhist.dat: Qs [0], Ds [1] by 512-byte size (side by side: a page) */
/* btt's *_fp.dat: the Cs and blocks of the second sec, in slot 0 for
 * all, i + 1 for device i; next: the second after sec (0: no C yet) */
struct btt_rate { s64 next, sec; u64 ios, blks; };
extern struct btt_rate btt_rates[];
void btt_ranges_add(struct btt_dev *d, u32 proc, int c, u64 t);	/* a Q (c 0) or C (c 1) of proc (+ 1, or 0) */
void btt_ranges_split(void);	/* (stats/bttrange.c) */
/* btt's option files (output/bttopt.c), read by the driver after each
 * record, never called from here.  btt_ev_more (the driver's: -I or
 * btt_opt_on) is checked once a linked record.  btt_opt_on (-B -s -m -Q
 * -p -P): btt_opt_dev is the record's device once btt links it (NULL:
 * not linked), btt_opt_act its kind.  btt_opt_qs (-p -P): btt_qseen holds
 * each Q the D or C met, as it was before it was stamped or dropped
 * (slot: its node in stats/bttrb.c, start: its sector), BTT_OPT_QS of
 * them, the rest counted.  -u's unplugs and -Z's busy spans the driver
 * reads from the devices (btt_dev_get) around the record. */
struct btt_qview { u64 time, g, s, i, m, d; u32 len; };
struct btt_qseen { u32 slot; u64 start; struct btt_qview q; };
extern int btt_ev_more, btt_opt_on, btt_opt_qs;
extern const struct btt_dev *btt_opt_dev;
extern u32 btt_opt_act, btt_nqseen;
extern struct btt_qseen btt_qseen[BTT_OPT_QS];
extern unsigned long long btt_opt_lost;	/* Qs past those kept (BTT_OPT_QS) */
const struct btt_dev *btt_dev_get(u32 dev);	/* the device's figures, or NULL */
extern int btt_seek_abs;	/* -a */
/* stats/latstat.c: biolatency's histograms (per interval; lat_clear).
 * Keys: 0, or the device (-D), or the flags (-F); -P's series per device
 * and direction, log-linear buckets: LAT_PSUB to a power of two. */
#define LAT_SLOTS 64
#define LAT_PSUB 64
#define LAT_PBUCKETS (44 * LAT_PSUB)
#define LAT_OP(f) ((f) & 3)	/* 0 Read 1 Write 2 Flush 3 Discard */
#define LATF_SYNC 4
#define LATF_META 8
#define LATF_FUA 16
#define LATF_PREFLUSH 32
#define LATF_AHEAD 64
struct lat_hist { u32 key; u64 slot[LAT_SLOTS]; };
struct lat_pser { u32 dev, op; u64 n, max; u32 b[LAT_PBUCKETS]; };
struct latstat {
	int queued, ms, disks, flags, pct;
	u32 nhist, npser;
	u64 total, n;		/* ns, latencies */
	unsigned long long lost;	/* no room in hist or ps */
	struct lat_hist hist[LAT_HISTS];
	struct lat_pser ps[LAT_PSERIES];
};
extern struct latstat lats;
void lat_event(const struct rec *r);	/* Q M F D R C */
u64 lat_pvalue(u32 bucket);	/* the middle of a -P bucket, ns */
unsigned long long lat_aged(void);	/* requests aged out of LAT_REQS */
void lat_clear(void);	/* a new interval */

/* stats/failstat.c: failed completions (a C carrying an error), by
 * errno, the first FAIL_LIST sectors of each in completion order */
struct fail_errno { u32 err; u64 n; u64 sector[FAIL_LIST]; };
struct failstat {
	u64 n, other;		/* every failure; those past FAIL_ERRNOS */
	u32 nerr;
	struct fail_errno e[FAIL_ERRNOS];
};
extern struct failstat fails;
u32 rec_errno(const struct rec *r);	/* a C's errno, positive; 0: none */
void fail_note(const struct rec *r);	/* a C: counted when it failed */
/* stats/snoopstat.c: biosnoop's requests, Q (owner, queue time) and D
 * (issue time, size, direction) to C; one struct snoop_io a completion */
struct snoop_io {
	u64 done, que, lat, sector;	/* ns; que: D - Q (0 with no Q seen) */
	u32 dev, bytes, pid, err;
	u8 w, owned;		/* owned: its Q was seen (pid is the submitter's) */
	char pattern;		/* -P: 'S' sequential, 'R' random, '?' first */
};
int snoop_event(const struct rec *r, struct snoop_io *io);	/* 1: a completion, *io its line's facts */
/* failed completions with no issue seen (bio-based devices: device-mapper,
 * md, brd have no D) make a line too, LAT from their Q (0 with none) */
extern int snoop_unissued_fails;
unsigned long long snoop_aged(void);	/* requests aged out of SNOOP_REQS */
extern unsigned long long snoop_nodev;	/* -P: disks past SNOOP_DEVS */

/* stats/iopattern.c: bitesize's issue sizes (log2 of KiB, slots as
 * biolatency's) per process name, and biopattern's per-disk counts of
 * sequential and random completions (per interval: pat_clear) */
struct bite_hist { char name[16]; u64 slot[LAT_SLOTS]; };
struct pat_dev { u32 dev; u64 last, bytes, seq, rnd; };
struct iopattern {
	u32 nbite, npat;
	unsigned long long bite_lost, pat_lost;	/* no room: BITE_NAMES, PAT_DEVS */
	struct bite_hist bite[BITE_NAMES];
	struct pat_dev pat[PAT_DEVS];
};
extern struct iopattern iop;
void bite_issue(const char *name, u32 bytes);	/* a D */
void pat_complete(u32 dev, u64 sector, u32 bytes);	/* a C */
void pat_clear(void);	/* a new interval: every disk starts afresh */

/* stats/extset.c: written sectors as sorted extents [start, end) in
 * units of chunk sectors (a power of two), in a pool of cap; a full pool
 * doubles the chunk (coarsened counts it), never losing a sector.
 * unknown: why a write may have been missed (NULL: none known). */
struct ext { u64 start, end; };
struct extset {
	struct ext *e;
	u32 n, cap, coarsened;
	u64 chunk;
	const char *unknown;
};
void ext_init(struct extset *x, struct ext *pool, u32 cap, u64 chunk);
void ext_add(struct extset *x, u64 sector, u64 n);
u64 ext_sectors(const struct extset *x);
int ext_kind(const struct rec *r, u32 at, u32 at2);	/* 1 writes, -1 unbounded, 0 no */
#endif
