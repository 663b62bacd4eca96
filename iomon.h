/* iomon.h: the types and entry points shared across the pipeline.
 * source (capture/) -> decode (capture/decode.c) -> merge (capture/merge.c)
 * -> match (match/) -> stats (stats/) -> output (output/). */
#ifndef IOMON_H
#define IOMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include "config.h"

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;
/* Once-a-run code (options, summaries, messages): built for size even in
 * the objects the Makefile builds -O2 for their per-record paths. */
#define COLD __attribute__((cold))

/* ---- kernel facts (struct blk_io_trace, blktrace_api.h) ---- */
#define TRACE_MAGIC 0x65617400u
#define TC_SHIFT 16
#define TC(bit) (1u << ((bit) + TC_SHIFT))
enum { TC_READ, TC_WRITE, TC_FLUSH, TC_SYNC, TC_QUEUE, TC_REQUEUE, TC_ISSUE,
       TC_COMPLETE, TC_FS, TC_PC, TC_NOTIFY, TC_AHEAD, TC_META, TC_DISCARD,
       TC_DRV_DATA, TC_FUA };
enum { TA_QUEUE = 1, TA_BACKMERGE, TA_FRONTMERGE, TA_GETRQ, TA_SLEEPRQ,
       TA_REQUEUE, TA_ISSUE, TA_COMPLETE, TA_PLUG, TA_UNPLUG_IO,
       TA_UNPLUG_TIMER, TA_INSERT, TA_SPLIT, TA_BOUNCE, TA_REMAP, TA_ABORT,
       TA_DRV_DATA, TA_ZONE_PLUG, TA_ZONE_UNPLUG };
#define TA_CGROUP 0x100u
#define TN_PROCESS (TC(TC_NOTIFY) | 0)
#define TN_TIMESTAMP (TC(TC_NOTIFY) | 1)
#define TN_MESSAGE (TC(TC_NOTIFY) | 2)
/* version 8: zone operations ride above bit 32 of the 64-bit action */
#define TC2(bit) ((u64)1 << (32 + (bit)))
enum { TC2_ZONE_APPEND, TC2_ZONE_RESET, TC2_ZONE_RESET_ALL, TC2_ZONE_FINISH,
       TC2_ZONE_OPEN, TC2_ZONE_CLOSE, TC2_WRITE_ZEROES };
#define DEV_MAJOR(d) ((u32)(d) >> 20)
#define DEV_MINOR(d) ((u32)(d) & 0xfffff)

/* One decoded record, in host order whatever the file's order/version. */
struct rec {
	u64 time, sector, action;
	u32 seq, bytes, pid, dev, cpu;
	u16 error, pdu_len;
	u8 version, swapped;
	u16 hdr_len;		/* 48 (v7) or 64 (v8) */
	const u8 *pdu;		/* pdu_len bytes, inside the reader's buffer */
};
/* The action as blkparse classifies it: 32 bits, cgroup flag aside. */
#define ACT32(r) ((u32)(r)->action & ~TA_CGROUP)
#define REC_IS_NOTE(r) ((ACT32(r) & TC(TC_NOTIFY)) && ACT32(r) != TN_MESSAGE)
/* A message carrying a cgroup id: blkparse 1.2.0 takes it for a note and
 * drops it; we print it, but let it not count in blkparse's read batches. */
#define REC_IS_CG_MSG(r) ((u32)(r)->action == (TN_MESSAGE | TA_CGROUP))

/* capture/decode.c */
enum { DEC_MORE = 0, DEC_BADMAGIC = -1, DEC_BADVERSION = -2 };
int rec_decode(const u8 *p, size_t avail, struct rec *r);
int rec_unfilled(const u8 *p);	/* needs 48 bytes */
u64 be64_load(const u8 *p);
u32 be32_load(const u8 *p);
u32 ne32_load(const u8 *p, int swapped);
void rec_encode_v7(u8 *out, const struct rec *r);
int mask_bit(const char *name);	/* -a NAME: its category bit, or -1 */

/* capture/source.c: a byte stream read in large chunks into a fixed buffer */
struct src {
	int fd, eof;
	const char *name;	/* for messages */
	u8 *buf;
	u32 cap, pos, len;
	u32 keep;		/* bytes from here on survive a refill (NO_KEEP: from pos) */
	int push;		/* fed by parse_push, not read from fd */
	u64 base;		/* file offset of buf[0] */
};
#define NO_KEEP 0xffffffffu
void src_init(struct src *s, int fd, const char *name, u8 *buf, u32 cap);
/* Make at least want bytes available at s->pos; returns bytes available. */
u32 src_need(struct src *s, u32 want);
/* Decode the record at s->pos.  1: r filled; 0: clean end; -1: damaged input
 * (message printed, naming the file and byte offset). */
int src_record(struct src *s, struct rec *r);
size_t src_push(struct src *s, const void *p, size_t n);	/* bytes taken */
void src_init_push(struct src *s, u8 *buf, u32 cap);
int src_feed(struct src *s, const void *p, size_t n, void (*drain)(void));
int src_replay(const char *name, void (*fn)(const struct rec *), volatile int *stop);
void src_zero_report(void);	/* warns once if unfilled records were skipped */
extern unsigned long long src_errors, src_zero_records, src_zero_first_off;
extern const char *src_zero_first;

/* text.c: buffered writes to a raw fd, formatting helpers */
struct obuf {
	int fd, failed;
	const char *name;
	char *buf;
	u32 len, cap;
};
void ob_init(struct obuf *o, int fd, const char *name, char *buf, u32 cap);
void ob_flush(struct obuf *o);
void ob_write(struct obuf *o, const void *p, size_t n);
void ob_puts(struct obuf *o, const char *s);
static inline char *ob_room(struct obuf *o, u32 n)
{
	if (o->cap - o->len < n)
		ob_flush(o);
	return o->buf + o->len;
}
static inline void ob_done(struct obuf *o, char *end) { o->len = (u32)(end - o->buf); }
char *fmt_u64(char *p, u64 v);
char *fmt_s64(char *p, s64 v);
/* printf-style %[-]Nd/%Nu/%Ns without printf. */
char *fmt_num(char *p, u64 v, int neg, int width, int left);
char *fmt_str(char *p, const char *s, int width, int left);
char *fmt_zpad(char *p, u64 v, int width);
char *fmt_g9(char *p, u64 k, int e);	/* %.9g of k * 10^e, exact: at most 16 bytes */
struct tm;
char *fmt_hms(char *p, const struct tm *tm);	/* strftime's "%H:%M:%S" */
char *fmt_date(char *p, const struct tm *tm);	/* "%a %b %e %H:%M:%S %Y": 24+ bytes */
/* printf's subset: flags - 0, width, precision for s and f, lengths l ll z,
 * conversions d i u x c s f %%; snprintf's return and termination.  A %f
 * precision above FMT_PREC_MAX counts as FMT_PREC_MAX. */
#define FMT_PREC_MAX 17
int vfmt(char *buf, size_t cap, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
int sfmt(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void ob_printf(struct obuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int ob_close(struct obuf *o);

/* base.c: errors go through one place; files, scanning, options */
extern const char *applet_name;
void warn_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void err_sys(const char *what);	/* "applet: what: strerror" */
int open_out(const char *path, int mode);	/* no symlink following */
long dir_each(const char *dir, long (*fn)(const char *dir, const char *name, void *arg), void *arg);
u64 scan_u64(const char *s, char **end, int base);	/* strtoull, bases 10 and 16 */
double scan_double(const char *arg, const char **end);	/* strtod */
char *str_find(const char *h, const char *n);	/* strstr, naively */
/* getopt (opts NULL) and getopt_long (opts: permutes argv) as musl's */
struct option;
extern char *opt_arg;
extern int opt_ind;
int opt_get(int nw, char **words, const char *optstring, const struct option *opts);

/* applets */
int parse_main(int argc, char **argv);
int trace_main(int argc, char **argv);
int btrace_main(int argc, char **argv);
int monitor_main(int argc, char **argv);
int top_main(int argc, char **argv);
int trace_devices(char **devs, int n, u32 mask, int (*sink)(const void *, size_t), void (*round)(void));
int parse_begin(int argc, char **argv);	/* -2: done (--help, -V) */
void parse_begin_push(void);
int parse_push(const void *p, size_t n);
void parse_pump(void);
int parse_end(int rc);

/* match/procs.c: pid -> command name, first name wins (as blkparse) */
const char *proc_name(u32 pid);
void proc_add(u32 pid, const u8 *name, u32 len);
extern unsigned long long proc_dropped;

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
/* blkparse exits on these mid-run; the applet flushes what it has first */
void fmt_fatal(const char *why) __attribute__((noreturn));
void fmt_message(struct obuf *o, const struct rec *r, u64 time, u32 shown_cpu);
extern s64 abs_start_sec, abs_start_nsec;	/* from the TIMESTAMP note, for %z */

/* match/track.c: requests in flight by (device, sector), for -t */
struct track {
	u64 sector, alloc, queue, dispatch;
	u32 pid, next;
	u16 dev;
};
struct track *track_find(u32 dev, u64 sector);
struct track *track_get(u32 dev, u64 sector, u32 pid);	/* NULL: pool full */
void track_del(struct track *t);
int track_rekey(struct track *t, u64 sector);	/* -1: alias, entry dropped */
extern unsigned long long track_dropped;

/* stats/procstats.c: blkparse -s, per process (or per name with -h) */
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

#endif
