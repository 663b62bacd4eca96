/* output/bp.h: output: private to output/: blkparse's state and functions, shared by bpevent.c, bploop.c, summary.c and the parse and btrace drivers */
#ifndef OUTPUT_BP_H
#define OUTPUT_BP_H
#include <signal.h>
#include "output/output.h"

/* ---- state: blkparse's per_dev_info and per_cpu_info, in fixed tables ---- */

struct cpuinfo {
	iostats st;
	u32 cpu, nelems, last_seq, next;	/* next: the device's list, by cpu */
	u8 seen;				/* last_seq valid (pipe mode) */
};

struct devinfo {
	u32 dev, idx;		/* idx: its place in P.devs, -t's key */
	char *name;		/* from -i; NULL: shown as MAJ,MIN */
	u64 events, first_time, last_time;
	u32 cur_depth[2], max_depth[2];
	u32 cpus;		/* first cpuinfo + 1, sorted by cpu */
	u16 direct[CPU_DIRECT];	/* cpuinfo + 1 for cpus below CPU_DIRECT */
};

struct skip { u64 start, end; u32 cpu; u8 live; };

struct parse_state {
	struct devinfo devs[DEVS_MAX];
	struct cpuinfo cpus[CPUS_MAX];
	struct skip skips[SKIPS_MAX];
	char outbuf[OUT_BUF], dumpbuf[DUMP_BUF], notebuf[NOTICE_BUF];
	struct obuf out, dump;
	u32 ndevs, ncpus, nskips, notelen;
	u64 genesis, start_ts, sw_start, sw_end;
	u64 skip_overflow;
	u32 act_mask, batch_n;
	const char *input_dir, *pipe_name, *out_name, *dump_name;
	int text, dumping, bin_msgs, track, per_proc, sort_key, show_stats;
	int verbose, have_drv_data, notes_direct;
	u64 cpu_overflow, dev_overflow, cg_msgs;
};
extern struct parse_state P;


extern volatile sig_atomic_t stop_now;

/* output/summary.c: blkparse's notices and end-of-run blocks */
void notice(const char *s);
void show_summary(void);
/* output/bpevent.c: one record through blkparse's dump_trace */
struct devinfo *dev_add(char *name, u32 dev);
struct devinfo *dev_get(u32 dev);
struct cpuinfo *cpu_get(struct devinfo *d, u32 cpu);
void handle_note(const struct rec *r);
void dump_trace(struct devinfo *d, struct cpuinfo *c, const struct rec *r, u64 time);
/* output/bploop.c: the file and stream loops, the start and the end */
void bp_defaults(void);		/* P's defaults, before the options */
int bp_start(void);		/* signals and outputs, after them; 0 or 1 */
int bp_files(void);		/* P.devs' files merged by time */
int bp_stream_run(struct cap_cfg *c);	/* P.pipe_name's stream, or c's capture or server */
int bp_end(int rc);		/* last records, summaries; the exit status */
#endif
