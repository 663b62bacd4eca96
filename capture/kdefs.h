/* Kernel interfaces for capture, carried here so no kernel headers are
 * needed (musl's compiler sees none) and every architecture agrees.
 * Layouts from include/uapi/linux/blktrace_api.h and fs.h. */
#ifndef IOMON_KDEFS_H
#define IOMON_KDEFS_H
#include "iomon.h"

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

/* struct blk_user_trace_setup2 (kernel 6.19+): version-8 records. */
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
_Static_assert(__builtin_offsetof(struct buts, act_mask) == 32, "buts.act_mask");
_Static_assert(__builtin_offsetof(struct buts2, buf_size) == 72, "buts2.buf_size");
_Static_assert(__builtin_offsetof(struct buts2, pid) == 96, "buts2.pid");

/* _IOC for the generic layout (x86, arm, s390).  dir: 3 = read|write. */
#define K_IOC(dir, type, nr, size) (((unsigned long)(dir) << 30) | ((unsigned long)(size) << 16) | ((type) << 8) | (nr))
#define K_BLKTRACESETUP K_IOC(3, 0x12, 115, sizeof(struct buts))
#define K_BLKTRACESTART K_IOC(0, 0x12, 116, 0)
#define K_BLKTRACESTOP K_IOC(0, 0x12, 117, 0)
#define K_BLKTRACETEARDOWN K_IOC(0, 0x12, 118, 0)
#define K_BLKTRACESETUP2 K_IOC(3, 0x12, 142, sizeof(struct buts2))
_Static_assert(K_BLKTRACESETUP2 == 0xc0c0128eul, "BLKTRACESETUP2");

#endif
