/* capture/backend.h: capture: private to capture/: devices, capture state, the relay and tracefs backends */
/* Shared state of the capture applets (trace, btrace). */
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

enum { BK_AUTO, BK_RELAY, BK_TRACEFS };
enum { RUN_FALLBACK = 2 };	/* relay refused: try tracefs */

struct cap {
	struct tdev dev[CAP_DEVS];
	u32 ndev, ncpu, mask, buf_size, buf_nr, stopwatch;
	const char *debugfs, *oname, *dir;
	int to_stdout, kill, verbose, backend, write_failed;
	u8 *buf;		/* CAP_BUF bytes */
	int (*sink)(const void *, size_t);	/* btrace: records to the parser */
	void (*round)(void);			/* btrace: after each round of reads */
};
extern struct cap C;

int cap_write(struct tdev *d, u32 cpu, const void *p, size_t n);
int cap_stopping(void);
int cap_wait(void);	/* poll timeout in ms; -1: -w is over */
int relay_run(void);		/* 0, 1 (failed), RUN_FALLBACK */
int relay_kill(void);
int tracefs_run(void);
#endif
