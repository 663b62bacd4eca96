/* capture/kdefs.h: capture: kernel ABI and record facts (ioctls, structs, TC/TA/TN, record lengths) */
/* Kernel interfaces for capture, carried here so no kernel headers are
 * needed (musl's compiler sees none) and every architecture agrees.
 * Layouts from include/uapi/linux/blktrace_api.h and fs.h. */
#ifndef IOMON_KDEFS_H
#define IOMON_KDEFS_H
#include "iomon.h"

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

/* _IOC below is the generic layout; these ABIs put the direction bits
 * elsewhere and would send the kernel wrong ioctl numbers. */
#if defined(__powerpc__) || defined(__mips__) || defined(__sparc__) || defined(__alpha__)
#error "kdefs.h: this architecture's _IOC layout is not the generic one"
#endif

/* The one place the ABIs differ: a u64 is 8-aligned on 64-bit ABIs and on
 * 32-bit ARM (EABI), 4-aligned on i386.  The kernel's struct follows the
 * same rule, so its size (and with it the ioctl number) does too. */
struct k_u64_probe { char c; u64 x; };	/* _Alignof would say 8 on i386 */
#define K_U64_ALIGN __builtin_offsetof(struct k_u64_probe, x)
_Static_assert(K_U64_ALIGN == 8 || K_U64_ALIGN == 4, "u64 alignment");
#if defined(__arm__) || defined(__aarch64__) || defined(__s390x__) || defined(__x86_64__)
_Static_assert(K_U64_ALIGN == 8, "u64 is 8-aligned on EABI ARM, arm64, s390x and x86_64");
#endif

/* struct blk_user_trace_setup: natural alignment, so 72 bytes on 64-bit
 * ABIs and on 32-bit ARM, 64 on i386 (u64 aligned to 4). */
struct buts {
	char name[32];
	u16 act_mask;
	u32 buf_size;
	u32 buf_nr;
	u64 start_lba;
	u64 end_lba;
	u32 pid;
};
_Static_assert(sizeof(struct buts) == (K_U64_ALIGN == 8 ? 72 : 64), "blk_user_trace_setup size");
_Static_assert(__builtin_offsetof(struct buts, act_mask) == 32, "buts.act_mask");
_Static_assert(__builtin_offsetof(struct buts, buf_size) == 36, "buts.buf_size");
_Static_assert(__builtin_offsetof(struct buts, buf_nr) == 40, "buts.buf_nr");
_Static_assert(__builtin_offsetof(struct buts, start_lba) == (K_U64_ALIGN == 8 ? 48 : 44), "buts.start_lba");
_Static_assert(__builtin_offsetof(struct buts, end_lba) == (K_U64_ALIGN == 8 ? 56 : 52), "buts.end_lba");
_Static_assert(__builtin_offsetof(struct buts, pid) == (K_U64_ALIGN == 8 ? 64 : 60), "buts.pid");

/* struct blk_user_trace_setup2 (kernel 6.19+): version-8 records.  Every
 * u64 sits on an 8-byte offset, so it is 192 bytes on every ABI. */
struct buts2 {
	char name[64];
	u64 act_mask;
	u32 buf_size;
	u32 buf_nr;
	u64 start_lba;
	u64 end_lba;
	u32 pid;
	u32 flags;
	u64 reserved[11];
};
_Static_assert(sizeof(struct buts2) == 192, "blk_user_trace_setup2 is 192 bytes");
_Static_assert(__builtin_offsetof(struct buts2, act_mask) == 64, "buts2.act_mask");
_Static_assert(__builtin_offsetof(struct buts2, buf_size) == 72, "buts2.buf_size");
_Static_assert(__builtin_offsetof(struct buts2, buf_nr) == 76, "buts2.buf_nr");
_Static_assert(__builtin_offsetof(struct buts2, start_lba) == 80, "buts2.start_lba");
_Static_assert(__builtin_offsetof(struct buts2, end_lba) == 88, "buts2.end_lba");
_Static_assert(__builtin_offsetof(struct buts2, pid) == 96, "buts2.pid");
_Static_assert(__builtin_offsetof(struct buts2, flags) == 100, "buts2.flags");

/* _IOC for the generic layout (x86, arm, s390).  dir: 3 = read|write. */
#define K_IOC(dir, type, nr, size) (((unsigned long)(dir) << 30) | ((unsigned long)(size) << 16) | ((type) << 8) | (nr))
#define K_BLKTRACESETUP K_IOC(3, 0x12, 115, sizeof(struct buts))
#define K_BLKTRACESTART K_IOC(0, 0x12, 116, 0)
#define K_BLKTRACESTOP K_IOC(0, 0x12, 117, 0)
#define K_BLKTRACETEARDOWN K_IOC(0, 0x12, 118, 0)
#define K_BLKTRACESETUP2 K_IOC(3, 0x12, 142, sizeof(struct buts2))
/* copy: a device's bytes and logical block size; a file system frozen */
#define K_BLKGETSIZE64 K_IOC(2, 0x12, 114, sizeof(size_t))
#define K_BLKSSZGET K_IOC(0, 0x12, 104, 0)
#define K_FIFREEZE K_IOC(3, 'X', 119, sizeof(int))
#define K_FITHAW K_IOC(3, 'X', 120, sizeof(int))
/* The numbers blktrace's strace shows on x86_64 (i386: 0xc0401273). */
_Static_assert(K_BLKTRACESETUP == (K_U64_ALIGN == 8 ? 0xc0481273ul : 0xc0401273ul), "BLKTRACESETUP");
_Static_assert(K_BLKTRACESTART == 0x1274, "BLKTRACESTART");
_Static_assert(K_BLKTRACESTOP == 0x1275, "BLKTRACESTOP");
_Static_assert(K_BLKTRACETEARDOWN == 0x1276, "BLKTRACETEARDOWN");
_Static_assert(K_BLKTRACESETUP2 == 0xc0c0128eul, "BLKTRACESETUP2");

/* btreplay's: a block device's logical block size and bytes; Linux AIO's
 * struct iocb and struct io_event (linux/aio_abi.h) */
#define K_BLKSSZGET K_IOC(0, 0x12, 104, 0)
#define K_BLKGETSIZE64 K_IOC(2, 0x12, 114, sizeof(size_t))
_Static_assert(K_BLKSSZGET == 0x1268, "BLKSSZGET");
struct k_iocb {
	u64 data;
	u32 key, rw_flags;	/* both 0 here: the order endianness gives them is moot */
	u16 opcode;		/* 0 read, 1 write */
	u16 prio;
	u32 fd;
	u64 buf, nbytes, offset, reserved2;
	u32 flags, resfd;
};
_Static_assert(sizeof(struct k_iocb) == 64, "struct iocb is 64 bytes");
struct k_event { u64 data, obj; int64_t res, res2; };

/* Record facts.  A version-7 header is 48 bytes, a version-8 one 64; a
 * payload is at most 65535 bytes (a u16).  REC_ROOM is the room parse's
 * batch reader keeps free for one more record (blkparse's guard, which
 * decides when names become known: it stays 65600, not 64 + 65535).
 * blkiomon's binary record is 424 bytes with 16 size and 25 latency
 * buckets. */
#define REC_V7_LEN 48
#define REC_V8_LEN 64
#define REC_PDU_MAX 65535
#define REC_ROOM 65600
#define BLKIOMON_STAT_LEN 424
#define SIZE_BUCKETS 16
#define D2C_BUCKETS 25
_Static_assert(REC_ROOM >= REC_V8_LEN + REC_PDU_MAX, "REC_ROOM holds the largest record");

/* On-disk records.  record.c reads them byte by byte at fixed offsets and
 * output/export.c writes blkiomon's record the same way, so no C struct of
 * theirs depends on the ABI; these are the writers' own structs (the
 * kernel's, blkiomon's), and the asserts prove on every architecture that
 * their natural layout is exactly those offsets, i.e. that files written
 * by a kernel or a blkiomon of any architecture are what we read. */
struct k_io_trace {		/* version 7, 48 bytes */
	u32 magic, sequence;
	u64 time, sector;
	u32 bytes, action, pid, device, cpu;
	u16 error, pdu_len;
};
#define K_OFF(t, f, o) _Static_assert(__builtin_offsetof(struct t, f) == (o), #t "." #f " at " #o)
_Static_assert(sizeof(struct k_io_trace) == REC_V7_LEN, "blk_io_trace is 48 bytes");
K_OFF(k_io_trace, sequence, 4); K_OFF(k_io_trace, time, 8); K_OFF(k_io_trace, sector, 16);
K_OFF(k_io_trace, bytes, 24); K_OFF(k_io_trace, action, 28); K_OFF(k_io_trace, pid, 32);
K_OFF(k_io_trace, device, 36); K_OFF(k_io_trace, cpu, 40); K_OFF(k_io_trace, error, 44);
K_OFF(k_io_trace, pdu_len, 46);

struct k_io_trace2 {		/* version 8, 64 bytes */
	u32 magic, sequence;
	u64 time, sector;
	u32 bytes, pid;
	u64 action;
	u32 device, cpu;
	u16 error, pdu_len;
	u8 pad[12];
};
_Static_assert(sizeof(struct k_io_trace2) == REC_V8_LEN, "blk_io_trace2 is 64 bytes");
K_OFF(k_io_trace2, sequence, 4); K_OFF(k_io_trace2, time, 8); K_OFF(k_io_trace2, sector, 16);
K_OFF(k_io_trace2, bytes, 24); K_OFF(k_io_trace2, pid, 28); K_OFF(k_io_trace2, action, 32);
K_OFF(k_io_trace2, device, 40); K_OFF(k_io_trace2, cpu, 44); K_OFF(k_io_trace2, error, 48);
K_OFF(k_io_trace2, pdu_len, 50);

struct k_io_trace_remap {	/* the remap payload, big-endian (fmt.c) */
	u32 device_from, device_to;
	u64 sector_from;
};
_Static_assert(sizeof(struct k_io_trace_remap) == 16, "blk_io_trace_remap is 16 bytes");
K_OFF(k_io_trace_remap, device_to, 4); K_OFF(k_io_trace_remap, sector_from, 8);

/* blkiomon's struct blkiomon_stat, big-endian on disk and in the message
 * queue; SIZE_BUCKETS and D2C_BUCKETS buckets as stats/monstat.c's. */
struct k_minmax { u64 min, max, sum, sos, num; };
struct k_blkiomon_stat {
	u64 time;
	u32 size_hist[SIZE_BUCKETS];
	u32 d2c_hist[D2C_BUCKETS];
	u32 device;
	struct k_minmax size_r, size_w, d2c_r, d2c_w, thrput_r, thrput_w;
	u64 bidir;
};
_Static_assert(sizeof(struct k_minmax) == 40, "blkiomon minmax is 40 bytes");
_Static_assert(sizeof(struct k_blkiomon_stat) == BLKIOMON_STAT_LEN, "blkiomon_stat is 424 bytes");
K_OFF(k_blkiomon_stat, size_hist, 8); K_OFF(k_blkiomon_stat, d2c_hist, 72);
K_OFF(k_blkiomon_stat, device, 172); K_OFF(k_blkiomon_stat, size_r, 176);
K_OFF(k_blkiomon_stat, thrput_w, 376); K_OFF(k_blkiomon_stat, bidir, 416);

#endif
