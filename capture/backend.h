/* capture/backend.h: capture: private to capture/: devices, capture state, the relay and tracefs backends */
/* The capture's state, shared by cap.c and the two backends. */
#ifndef IOMON_BACKEND_H
#define IOMON_BACKEND_H
#include "capture/capture.h"

struct tdev {
	const char *path;
	char name[64];		/* the kernel's name: sda, nvme0n1, dm-0 */
	u32 kdev, disk;		/* kernel dev_t; for a partition, its disk's */
	int fd, is_part, setup, version;
	u64 start_lba, end_lba;
	int relay[CAP_CPUS];	/* debugfs trace<cpu> */
	int out[CAP_CPUS];	/* NAME.blktrace.CPU, or 1 for the stream */
	u64 bytes[CAP_CPUS];
	u32 seq[CAP_CPUS];	/* tracefs: records numbered per CPU */
	u64 dropped;
};

enum { RUN_FALLBACK = 2 };	/* relay refused: try tracefs */

struct cap {
	struct cap_cfg cfg;	/* as the driver set it */
	struct tdev dev[CAP_DEVS];
	u32 ndev, ncpu;
	int write_failed;
	u8 *buf;		/* CAP_BUF bytes */
};
extern struct cap C;

u64 cap_sum_dev(int fd, const char *name, const u64 *bytes, const int *out, u32 ncpu, u64 dropped);
void cap_sum_drops(u64 all, u64 lost);	/* blktrace's warning, if lost */
int cap_create(const char *path);	/* a fresh 0600 trace file, never through a link */
int cap_write(struct tdev *d, u32 cpu, const void *p, size_t n);
int cap_stopping(void);
void cap_fail(void);	/* an output failed: stop, exit 1 */
void cap_round(void);	/* the stream's ordered records out, the driver's round callback */
void cap_last_round(void);	/* the same once the buffers are drained: the stream out whole */
/* A backend marks each CPU with the clock (mono_ns) read before it read
 * that CPU's buffers dry: every record stamped earlier is in hand.  A CPU
 * with nothing to read is marked ~0. */
void cap_mark(u32 cpu, u64 t);
int cap_stage_high(void);	/* the stream's stage half full: read every CPU now */
/* A live record's length from its header, in the kernel's byte order
 * (relay's, and tracefs's records as tpevent.c encodes them): 0 while the
 * header is not all there, -1 when it is no header.  relay's reads and
 * the stage walk records with it. */
static inline int rec_span(const u8 *p, u32 have)
{
	u32 m;
	u16 pl;

	if (have < 4)
		return 0;
	__builtin_memcpy(&m, p, 4);
	if ((m & 0xffffff00u) != TRACE_MAGIC)
		return -1;
	if (have < REC_V7_LEN || ((m & 0xff) == 8 && have < REC_V8_LEN))
		return 0;
	__builtin_memcpy(&pl, p + ((m & 0xff) == 8 ? 50 : 46), 2);
	return ((m & 0xff) == 8 ? REC_V8_LEN : REC_V7_LEN) + pl;
}

/* capture/stage.c: a stream's records held until every CPU is read past
 * them, then merged by time into out_write (device 0, CPU 0) or the sink */
int stage_put(const void *p, size_t n);
void stage_round(int last);
void stage_report(void);	/* what it had to drop or let out of order, said */
int out_write(struct tdev *d, u32 cpu, const void *p, size_t n);	/* to a file or stdout */
int cap_wait(void);	/* poll timeout in ms; -1: -w is over */
int cap_period(void);	/* ms between reads of every CPU */
int relay_run(void);
u64 relay_dropped(const struct tdev *d);	/* relay's dropped file now */		/* 0, 1 (failed), RUN_FALLBACK */
int relay_kill(void);
int tracefs_run(void);

/* capture/tpevent.c: the block tracepoints, their fields as each
 * tracepoint's format file places them (tracefs.c reads those) */
enum { F_DEV, F_SECTOR, F_NR, F_BYTES, F_ERROR, F_RWBS, F_COMM, F_NEW, F_OLDDEV, F_OLDSEC, F_NRRQ, F_CMD, NF };
extern const char *const tp_fname[NF];
struct tev {
	const char *name;
	u32 act;		/* blktrace action with its category */
	u32 id;			/* 0: not in this kernel */
	short off[NF], size[NF];	/* -1: no such field */
	u16 min_len;
};
#define TP_NEV 16
extern struct tev tp_ev[TP_NEV];
void tp_init(void);	/* names and actions into tp_ev, before the formats */
extern u32 tp_commit_size, tp_data_off;	/* from events/header_page */
u64 tp_page(u32 cpu, const u8 *p, u32 n);	/* one ring-buffer page: events missed */
void tp_timestamp_note(void);	/* wall clock at trace time, for every device */
#endif
