/* capture/capture.h: capture: the public API of capture/: struct rec, decoding, byte sources, live capture */
#ifndef IOMON_CAPTURE_H
#define IOMON_CAPTURE_H
#include <signal.h>
#include "capture/kdefs.h"

struct tdev;

/* One decoded record, in host order whatever the file's order/version. */
struct rec {
	u64 time, sector, action;
	u32 seq, bytes, pid, dev, cpu;
	u16 error, pdu_len;
	u8 version, swapped;
	u16 hdr_len;		/* 48 (v7) or 64 (v8) */
	const u8 *pdu;		/* pdu_len bytes, inside the reader's buffer */
};
/* rec_v7_host copies v7's time to sector and pid to pdu_len whole */
_Static_assert(offsetof(struct rec, sector) == 8 && offsetof(struct rec, pdu_len) - offsetof(struct rec, pid) == 14,
	       "struct rec: time, sector and pid to pdu_len as a v7 record's");
/* The action as blkparse classifies it: 32 bits, cgroup flag aside. */
#define ACT32(r) ((u32)(r)->action & ~TA_CGROUP)
#define REC_IS_NOTE(r) ((ACT32(r) & TC(TC_NOTIFY)) && ACT32(r) != TN_MESSAGE)
/* A note as blkparse 1.2.0's readers take one: a message carrying a
 * cgroup id (bfq's, several an I/O) is one too, so it acts (is dropped)
 * as read, takes no room in a batch and decides nothing in the merge;
 * parse counts and says how many (blkparse.1). */
#define REC_IS_BP_NOTE(r) (((u32)(r)->action & TC(TC_NOTIFY)) && (u32)(r)->action != TN_MESSAGE)

/* capture/record.c: records in and out */
enum { DEC_MORE = 0, DEC_BADMAGIC = -1, DEC_BADVERSION = -2 };
int rec_decode(const u8 *p, size_t avail, struct rec *r);
int rec_unfilled(const u8 *p);	/* needs 48 bytes */
u64 be64_load(const u8 *p);
u32 be32_load(const u8 *p);
u32 ne32_load(const u8 *p, int swapped);
void be_store(u8 *p, u64 v, int n);	/* v as n big-endian bytes */
void ne_store(u8 *p, u64 v, int n, int be);	/* ... or little-endian */
/* Encoding: r as a host-order version-7 record, what blkparse -d writes
 * for btt (r->pdu_len goes in the header whatever r->version was).
 * rec_encode: the 48-byte header and, when both fit in room, the payload
 * r->pdu: REC_V7_LEN + r->pdu_len bytes, else REC_V7_LEN (the payload is
 * then the caller's to send).
 * rec_write: both into o. */
u32 rec_encode(u8 *out, u32 room, const struct rec *r);
void rec_write(struct obuf *o, const struct rec *r);
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
	int z;			/* zstd decoder + 1 (capture/zsrc.c); 0: plain */
};
#define NO_KEEP 0xffffffffu
void src_init(struct src *s, int fd, const char *name, u8 *buf, u32 cap);
/* Make at least want bytes available at s->pos; returns bytes available. */
u32 src_need(struct src *s, u32 want);
/* Decode the record at s->pos.  1: r filled; 0: clean end; -1: damaged input
 * (message printed, naming the file and byte offset). */
int src_record(struct src *s, struct rec *r);
int src_slow(struct src *s, struct rec *r);	/* src_record's all cases */
/* A whole little-endian v7 record on a little-endian host (a dump, as
 * blkparse -d writes it there) decoded inline: its length, else 0 (then
 * rec_decode, the one that knows every case, decides).  Two block copies
 * where struct rec lies as the record does. */
static inline int rec_v7_host(const u8 *p, size_t avail, struct rec *r)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	u32 w[2];
	u16 pl;

	__builtin_memcpy(w, p, 4);
	__builtin_memcpy(&pl, p + 46, 2);
	if (w[0] != (TRACE_MAGIC | 7) || avail < (size_t)REC_V7_LEN + pl)
		return 0;
	r->version = 7;
	r->swapped = 0;
	r->hdr_len = REC_V7_LEN;
	__builtin_memcpy(&r->seq, p + 4, 4);
	__builtin_memcpy(&r->time, p + 8, 16);
	__builtin_memcpy(w, p + 24, 8);
	r->bytes = w[0];
	r->action = w[1];
	__builtin_memcpy(&r->pid, p + 32, 16);
	r->pdu = p + REC_V7_LEN;
	return REC_V7_LEN + pl;
#else
	(void)p, (void)avail, (void)r;
	return 0;
#endif
}

/* src_record inline (its body, and a dump's read loop): a whole record
 * with a magic at pos is decoded here, the rest goes to src_slow */
static inline int src_next(struct src *s, struct rec *r)
{
	u32 have = s->len - s->pos;
	int n;

	if (have >= REC_V7_LEN && ((n = rec_v7_host(s->buf + s->pos, have, r)) ||
				   (s->buf[s->pos] && (n = rec_decode(s->buf + s->pos, have, r)) > 0))) {
		s->pos += (u32)n;
		return 1;
	}
	return src_slow(s, r);
}
size_t src_push(struct src *s, const void *p, size_t n);	/* bytes taken */
void src_init_push(struct src *s, u8 *buf, u32 cap);
int src_feed(struct src *s, const void *p, size_t n, void (*drain)(void));
void src_zero_report(void);	/* warns once if unfilled records were skipped */
/* capture/zsrc.c: zstd-compressed input, found by its magic at byte 0.
 * zsrc_start takes the n bytes just read at s->buf + s->len as the start
 * of the compressed stream; both return bytes decompressed there (at most
 * ask), 0 at the end, -1 with errno, -2 when they said what went wrong. */
int zsrc_is(const u8 *p, u32 n);
u64 zframe_size(const u8 *p, u32 n);	/* a frame header's content size; 0: none here */
long zsrc_start(struct src *s, u32 n, u32 ask);
long zsrc_read(struct src *s, u32 ask);
extern unsigned long long src_errors, src_zero_records, src_zero_first_off;
extern const char *src_zero_first;

/* capture/merge.c: per-CPU trace files merged by time; see its head for
 * the two orders.  The caller adds inputs (merge_files), calls
 * merge_start, then takes merge_head(), uses it and calls merge_pop()
 * until merge_head() is NULL. */
enum { MERGE_BLKPARSE, MERGE_TIME };
struct merge_in {		/* one NAME.blktrace.CPU file */
	struct src s;
	struct rec head;	/* its next record */
	u32 cons, pp, more;	/* MERGE_BLKPARSE: head, end and rest of the primed batch */
	int next;		/* MERGE_BLKPARSE: the list by head time */
	u16 tag;		/* the caller's (parse: its device) */
	u32 cpu;
	char path[PATH_LEN];
};
#define MERGE_INPUTS STREAMS_MAX
/* the inputs' pool: STREAM_BUF each for up to 64 of them (blkparse's
 * batch of large records, and room for one more), and for MERGE_INPUTS
 * at least room for one more each, in whole pages (17 MiB for 256: a
 * batch that does not fit is read in parts, its notes further on acting
 * later, which moves them in a dump); a stream read without a merge
 * takes it all */
#define MERGE_SLOT_MIN ((REC_ROOM + 4095) / 4096 * 4096)
#define MERGE_POOL (MERGE_INPUTS * MERGE_SLOT_MIN > 64 * STREAM_BUF ? MERGE_INPUTS * MERGE_SLOT_MIN : 64 * STREAM_BUF)
extern struct merge_in merge_in[MERGE_INPUTS];
extern int merge_first;		/* the input whose head is next; -1: all ended */
extern u32 merge_n;
static inline struct merge_in *merge_head(void) { return merge_first < 0 ? 0 : &merge_in[merge_first]; }
void merge_begin(int mode, u32 batch, void (*note)(const struct rec *r), volatile sig_atomic_t *stop);
void merge_start(void);		/* every input added: read each one's first records */
void merge_pop(void);
int merge_end(void);		/* closes the inputs; 1 if one was damaged */
u8 *merge_mem(void);		/* the pool (MERGE_POOL), for a stream read without a merge */
int trace_there(const char *name);	/* NAME.blktrace.0 (or .zst) is there */
u32 merge_files(const char *dir, const char *name, u16 tag, u32 max, const char *lim, u32 cap,
		 int skip_empty, void (*added)(const char *path));

/* capture/window.c: a stream of every CPU's records merged by time in a
 * bounded window, blkparse's way: fill a batch, sort it, hold the late */
struct window_cfg {
	u32 batch;				/* counted records per batch (-b) */
	void (*note)(const struct rec *r);	/* notes, as read */
	void (*seen)(const struct rec *r);	/* every other record, as read */
	volatile sig_atomic_t *stop;
};
extern struct rec window_rec[PIPE_WINDOW];	/* the batch, in read order */
extern u16 window_order[PIPE_WINDOW];		/* after window_sort */
extern u64 window_hold_overflow;
u32 window_fill(struct src *s, const struct window_cfg *c, int *end);
void window_sort(u32 n);		/* (time, device, sequence); ties: later read first */
int window_has(u32 n, const struct rec *r, u32 seq);	/* r's CPU's seq is in the batch or held */
int window_hold(const struct rec *r, int late);	/* late, or behind the first held: to the end; 0: printed now */
void window_release(void (*fn)(struct rec *r));	/* the held, stably ordered */

/* capture/input.c: one input for the drivers.  names (n of them): a
 * dump, "-" or trace names; none: a live capture of cap's devices (or
 * its server).  Each record to rec in time order; round (or NULL) after
 * each live round; stop (or NULL) ends a replay.  0, or 1 said.
 * in_run: blkparse -d's order and times (btt, plot): one dump, one "-"
 * (a dump or a raw stream), or trace names; times from blkparse's
 * genesis, notes as read with the kernel's.
 * in_trace: the kernel's (top, biolatency, biosnoop,
 * bitesize, biopattern, monitor): names (their files
 * all merged by time) or "-" read as it comes; live, each round's CPUs
 * merged.  in_arrive: so, but live records as they arrive, not merged
 * (monitor).  due (or NULL): the driver's clock: "-" is read with due()'s
 * deadline (on the monotonic clock; 0: none now) looked at before each
 * read that would wait, round() called once it has passed. */
/* The kernel's notes in a driver's records: the trace's wall-clock
 * second from its timestamp into *wall0; 1 for any note or notify (the
 * driver skips it), 0 for an I/O record. */
static inline int in_note(const struct rec *r, s64 *wall0)
{
	u32 a = ACT32(r);

	if (a == TN_TIMESTAMP && r->pdu_len == 8) {
		*wall0 = ne32_load(r->pdu, r->swapped);
		return 1;
	}
	return (a & TC(TC_NOTIFY)) != 0;
}
struct input {
	char *const *names;
	int n;
	struct cap_cfg *cap;
	void (*rec)(const struct rec *r);
	void (*round)(void);
	volatile sig_atomic_t *stop;
	u64 (*due)(void);
};
#define IN_NAMES (DEVS_MAX < MERGE_INPUTS ? DEVS_MAX : MERGE_INPUTS)
int in_run(const struct input *in);
int in_trace(const struct input *in);
int in_arrive(const struct input *in);
int in_one(char **in, char *name);	/* an applet's one -i; -1: a second (said) */
int in_kind(const char *name);	/* 0 a dump, 1 a trace's name, 2 stdin */
/* a trace's name (NAME[.blktrace.N], a folder in it moved to *dir, as
 * blkparse does) opened into MERGE_BLKPARSE's merge as tag; its NAME, or
 * NULL (said) */
char *in_open_name(char *name, u16 tag, const char **dir, void (*added)(const char *path));
/* in_stream: blkparse's own stream (parse, btrace), by name ("-": stdin)
 * or, NULL, live from cap: read in batches of wc.batch (notes and each
 * record as read to wc's note and seen), each batch to batch(n, live)
 * in window_rec (times as read; live: 1 a pipe, 2 pushed by a capture)
 * to sort and print (-1 ends the stream), until *wc.stop; the records
 * held (window_hold) to held at the end.  -1: no such file (said). */
struct in_stream {
	struct window_cfg wc;
	int (*batch)(u32 n, int live);
	void (*held)(struct rec *r);
};
int in_stream(const struct in_stream *st, const char *name, struct cap_cfg *cap);

/* capture/runs.c: live records as a round left them in a pushed source:
 * all whole records in s, cut into per-CPU runs and merged by time into
 * fn (ties to the earlier run), TOP_RUNS runs at a time */
void runs_merge(struct src *s, void (*fn)(void *ctx, const struct rec *r), void *ctx);
/* ... and a live round's bytes: whole records to fn in time order (merged
 * only when they are not), what is no record stepped over and counted */
void runs_take(struct src *s, void (*fn)(void *ctx, const struct rec *r), void *ctx, unsigned long long *bad);

/* capture/sys.c: small sysfs, procfs and tracefs files.  Reads return the
 * bytes read, NUL-terminated (buf[0] = 0 on failure); -1: cannot open
 * (errno says why), -2: a read failed. */
int sys_read(const char *path, char *buf, size_t len);
long proc_holding(char *want);	/* a pid with such a file open, else 0 */
int sys_readf(char *buf, size_t len, const char *pathfmt, ...) __attribute__((format(printf, 3, 4)));
int sys_u64f(u64 *v, const char *pathfmt, ...) __attribute__((format(printf, 2, 3)));	/* 0, -1 */
int sys_write(const char *path, const char *val);	/* 0: all written, -1 */
int sys_devname(u32 dev, char *out, size_t len);	/* uevent DEVNAME; -1: none */
int sys_partition(u32 dev, u32 *disk);	/* 1: a partition (of *disk), 0: not */
int sys_comm(u32 pid, char out[16]);	/* /proc/PID/comm, no newline; -1: gone */
int sys_cpus(const char *which);		/* CPUs the kernel may number ("possible", "present") */
void sys_fd_room(u64 n);		/* open files: the limit raised to n */

/* capture/cap.c: live capture.  A driver fills a cap_cfg (cap_defaults,
 * then cap_opt for the options trace and btrace share), adds devices and
 * runs it; records go to NAME.blktrace.CPU files, one stream on stdout,
 * or the sink. */
enum { BK_AUTO, BK_RELAY, BK_TRACEFS };
struct cap_cfg {
	u32 mask, buf_size, buf_nr, stopwatch;
	const char *debugfs, *oname, *dir;
	int to_stdout;		/* one stream: stdout, or the sink */
	int watch_stdout;	/* stop when whoever reads stdout has gone */
	int kill, verbose, backend;
	int zlevel;		/* -z: outputs compressed (capture/zout.c) */
	const char *host;	/* -h: send to blktrace's server (capture/net.c) */
	u32 port;		/* -p */
	int one_conn;		/* -s: one connection per CPU, not per CPU and device */
	int listen;		/* -l: be blktrace's server (capture/netsrv.c) */
	int skip_bad;		/* a device that cannot be opened is skipped with one note (top's every disk) */
	int (*sink)(void *ctx, const void *p, size_t n);	/* non-zero: stop */
	void (*round)(void *ctx);	/* after each round of reads */
	void *ctx;
};
void cap_defaults(struct cap_cfg *c);	/* and no devices yet */
int cap_opt(struct cap_cfg *c, int opt, const char *arg);
/* a live applet's -t DEV: kept in devs (CAP_DEVS of them); -1 said it is full */
int cap_dev_arg(char **devs, int *n, char *arg);	/* -a -A -b -n -w -r -B -z -l -p; -1: said why */
/* capture/zout.c: -z, per-output frames of ZSTD_CHUNK bytes, compressed
 * by a child process that creates the files with create() */
int zout_level(const char *arg);	/* 0, or -1 said why */
int zout_open(const char *path, int (*create)(const char *path));	/* slot; -1 said */
int zout_write(int slot, const void *p, size_t n);	/* -1 with errno */
int zout_finish(void);		/* -1: a byte did not reach its file */
void zout_close(int slot);	/* its last frame and its file closed (trace -l -z) */
u32 zout_frame(const void *p, u32 n, const u8 **out);	/* trace -h -z: one frame here; 0 failed */
/* capture/net.c: blktrace's network protocol.  Client: net_connect
 * opens every connection before tracing starts, net_put stages records,
 * net_round sends what is staged, net_close sends the drops and closes. */
#define NET_PORT 8462
#define NET_HDR 64
struct pollfd;
#ifdef IOMON_NO_NET
/* a build without the network mode (NO=NET: trace.c's //option: NET,
 * make PROFILE=capture): -h and -l say so */
static inline int net_connect(void) { warn_msg("network mode (-h) not built in"); return -1; }
static inline int net_put(struct tdev *d, u32 cpu, const void *p, size_t n) { return -1; }
static inline void net_round(void) {}
static inline void net_close(void) {}
static inline int net_serve(void) { warn_msg("network mode (-l) not built in"); return 1; }
static inline int net_room(u32 c) { return 1; }
static inline u32 net_pollout(struct pollfd *p) { return 0; }
#define HAVE_NET 0
#else
#define HAVE_NET 1
int net_room(u32 c);		/* 0: CPU c's queue to the server has no room for a read */
u32 net_pollout(struct pollfd *p);	/* the sockets with messages waiting, POLLOUT */
int net_connect(void);		/* -1: said why */
int net_put(struct tdev *d, u32 cpu, const void *p, size_t n);
void net_cpu_end(u32 c, u64 *lost);	/* CPU c's reader: its queue sent, its losses */
void net_lost_add(const u64 *lost);
void net_round(void);
void net_close(void);
int net_serve(void);
#endif
void net_hdr(u8 *h, const char *name, u32 cpu, u32 len);	/* a header of ours */
void net_say(int fd, const char *fmt, const char *a, const char *b);
/* capture/addr.c: addresses as 16 bytes and a length (4: IPv4, 16:
 * IPv6); 0: not one.  addr_lookup: a number, /etc/hosts, DNS. */
#include <netinet/in.h>
union naddr { struct sockaddr sa; struct sockaddr_in v4; struct sockaddr_in6 v6; };
int addr_num(const char *s, u8 ip[16]);
int addr_lookup(const char *name, u8 ip[16]);
void addr_text(const u8 *ip, int len, char *out, u32 cap);	/* INET6_ADDRSTRLEN */
int net_socket(union naddr *a, const u8 *ip, int len, u32 port, int type);	/* SOCK_STREAM... */
int cap_add_device(const char *path);	/* -1: said why */
int cap_add_devices_from(const char *file);	/* one per line or word */
/* Every whole disk: /dev/NAME for each /sys/block entry with media, but
 * loop, ram and zram; one with no driver skipped (said); CAP_DEVS at most */
int cap_all_disks(char **devs);
int cap_live_devices(struct cap_cfg *c, char **devs, int n, const char *opt);	/* -1: said */
int cap_interval_due(u64 *next, u32 secs);	/* a live table's interval has ended */
u32 cap_ndev(void);
u64 cap_dropped(void);	/* events lost so far, every device (live, in a round) */
int cap_run(const struct cap_cfg *c);	/* 0 on success; prints the summary */
/* cap_run with its records as one stream to sink, round (or NULL) after
 * each round of reads. */
int cap_run_plain(struct cap_cfg *c, int (*sink)(const void *, size_t), void (*round)(void));
#endif
