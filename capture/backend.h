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

int cap_write(struct tdev *d, u32 cpu, const void *p, size_t n);
int cap_stopping(void);
void cap_round(void);	/* the driver's round callback, if any */
int cap_wait(void);	/* poll timeout in ms; -1: -w is over */
int relay_run(void);		/* 0, 1 (failed), RUN_FALLBACK */
int relay_kill(void);
int tracefs_run(void);
#endif
