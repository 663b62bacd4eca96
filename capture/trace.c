/* capture/trace.c: capture: blktrace and btrace: options, devices, signals, capture core */
/* trace: blktrace, capture from the kernel.
 *
 * Two ways in.  relay: the blktrace ioctls and debugfs trace<cpu> files, as
 * blktrace does (BLKTRACESETUP2 for version-8 records where the kernel has
 * it).  tracefs: the block tracepoints in a private tracefs instance, turned
 * into the same records; used when the relay files are refused (kernel
 * lockdown) or debugfs is missing.  Either way the files are
 * [DIR/]NAME.blktrace.CPU, which blkparse and iomon parse read alike.
 */
const char trace_usage[] =
"usage: blktrace -d DEV [-d DEV]... [OPTIONS]\n"
"       iomon trace [OPTIONS] DEV...\n"
"\n"
"Trace block I/O on the devices until interrupted (or -w) and write\n"
"NAME.blktrace.CPU files, or one stream to stdout with -o -.\n"
"\n"
" -d, --dev=DEV               device to trace (repeatable; bare DEVs too)\n"
" -I, --input-devs=FILE       devices listed in FILE, one per line\n"
" -a, --act-mask=NAME         trace only these categories (repeatable): read\n"
"                             write flush sync queue requeue issue complete\n"
"                             fs pc notify ahead meta discard drv_data fua\n"
" -A, --set-mask=HEX          the category mask as one hex number\n"
" -r, --relay=PATH            debugfs mount point (default /sys/kernel/debug)\n"
" -o, --output=NAME           file name prefix, '-' for a stream on stdout\n"
" -D, --output-dir=DIR        folder for the files\n"
" -w, --stopwatch=SECS        stop after SECS seconds\n"
" -b, --buffer-size=KIB       kernel sub-buffer size (default 512)\n"
" -n, --num-sub-buffers=N     kernel sub-buffers per CPU (default 4)\n"
" -k, --kill                  stop and remove a trace left running, then exit\n"
"     --backend=NAME          relay, tracefs or auto (default)\n"
" -v, --verbose               notices too: the backend, fallbacks (named blktrace, -v is\n"
"                             -V as in blktrace: say --verbose)\n"
" -V, --version               print the version\n";

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include "capture/backend.h"
#include "output/output.h"

struct cap C;
static u8 cap_buf[CAP_BUF];
static volatile sig_atomic_t cap_stop;

static void on_stop(int sig)
{
	(void)sig;
	cap_stop = 1;
}

/* Stop on a signal, or when the reader of our stream (or of btrace's
 * text) has gone away even if nothing is being written: poll reports
 * POLLERR on a widowed pipe, and an idle disk would keep us forever. */
int cap_stopping(void)
{
	if (!cap_stop && ((C.to_stdout && !C.sink) || C.sink == parse_push)) {
		struct pollfd p = { 1, 0, 0 };

		if (poll(&p, 1, 0) > 0 && (p.revents & (POLLERR | POLLHUP)))
			cap_stop = 1;
	}
	return cap_stop;
}

static u64 now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (u64)t.tv_sec * 1000 + (u64)t.tv_nsec / 1000000;
}

/* How long the capture loop may sleep in poll(); -1 when -w has run out.
 * The clock starts at the first call, when tracing starts. */
int cap_wait(void)
{
	static u64 end;
	u64 t;

	if (!C.stopwatch)
		return CAP_POLL_MS;
	t = now_ms();
	if (!end)
		end = t + (u64)C.stopwatch * 1000;
	if (t >= end)
		return -1;
	return end - t < CAP_POLL_MS ? (int)(end - t) : CAP_POLL_MS;
}

/* ---- output: per-CPU files or the stream ---- */

/* A trace shows who did what to which blocks, and we run as root in
 * directories others can write: a fresh file, mode 0600 whatever the
 * umask, never through a symlink (not even our own) and never into a
 * FIFO or device someone left at the path.  An old regular file, a
 * previous run's, is replaced. */
static int create_trace(const char *path)
{
	struct stat st;
	int fd, tries;

	for (tries = 0; tries < 2; tries++) {
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0) {
			if (fchmod(fd, 0600) < 0) {
				err_sys(path);
				close(fd);
				return -1;
			}
			return fd;
		}
		if (errno != EEXIST || lstat(path, &st) < 0)
			break;
		if (S_ISLNK(st.st_mode)) {
			warn_msg("%s: a symbolic link (owned by uid %u); trace files are never written through one",
				 path, (unsigned)st.st_uid);
			return -1;
		}
		if (!S_ISREG(st.st_mode)) {
			warn_msg("%s: exists and is not a regular file; not writing a trace there", path);
			return -1;
		}
		if (unlink(path) < 0)
			break;
	}
	err_sys(path);
	return -1;
}

static int out_open(struct tdev *d, u32 cpu)
{
	char path[PATH_LEN];

	if (C.to_stdout) {
		d->out[cpu] = 1;
		return 0;
	}
	if ((size_t)sfmt(path, sizeof(path), "%s%s%s.blktrace.%u", C.dir ? C.dir : "",
			     C.dir ? "/" : "", C.oname ? C.oname : d->name, cpu) >= sizeof(path)) {
		warn_msg("%s: output path too long", d->name);
		return -1;
	}
	d->out[cpu] = create_trace(path);
	return d->out[cpu] < 0 ? -1 : 0;
}

/* Every byte reaches the file or the capture stops: a full disk or a
 * reader that went away ends the run cleanly, kernel state torn down. */
int cap_write(struct tdev *d, u32 cpu, const void *p, size_t n)
{
	const u8 *b = p;

	if (cpu >= CAP_CPUS)
		return -1;
	if (C.sink) {
		d->bytes[cpu] += n;
		if (n && C.sink(p, n))
			goto fail;
		return 0;
	}
	if (d->out[cpu] < 0 && out_open(d, cpu))
		goto fail;
	d->bytes[cpu] += n;
	while (n) {
		ssize_t k = write(d->out[cpu], b, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (errno != EPIPE)
				warn_msg("write %s.blktrace.%u: %s", C.oname ? C.oname : d->name, cpu,
					 k ? strerror(errno) : "no progress");
			goto fail;
		}
		b += k;
		n -= (size_t)k;
	}
	return 0;
fail:
	C.write_failed = 1;
	cap_stop = 1;
	return -1;
}

/* ---- devices ---- */

/* The kernel's name for a device: /sys/dev/block/MAJ:MIN/uevent DEVNAME. */
static void kernel_name(u32 maj, u32 min, const char *path, char *name, size_t len)
{
	char p[96], buf[512];
	const char *b;
	int fd;
	ssize_t n;

	sfmt(p, sizeof(p), "/sys/dev/block/%u:%u/uevent", maj, min);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			char *s, *e;

			buf[n] = 0;
			if ((s = str_find(buf, "DEVNAME=")) && (e = strchr(s, '\n'))) {
				*e = 0;
				sfmt(name, len, "%s", s + 8);
				return;
			}
		}
	}
	b = strrchr(path, '/');
	sfmt(name, len, "%s", b ? b + 1 : path);
}

static int add_device(const char *path)
{
	struct tdev *d;
	struct stat st;
	u32 i;

	if (C.ndev == CAP_DEVS) {
		warn_msg("%s: more than %d devices (CAP_DEVS)", path, CAP_DEVS);
		return -1;
	}
	if (stat(path, &st)) {
		warn_msg("%s: no such device (%s)", path, strerror(errno));
		return -1;
	}
	if (!S_ISBLK(st.st_mode)) {
		warn_msg("%s: not a block device", path);
		return -1;
	}
	d = &C.dev[C.ndev];
	memset(d, 0, sizeof(*d));
	d->path = path;
	d->kdev = major(st.st_rdev) << 20 | minor(st.st_rdev);
	d->fd = -1;
	for (i = 0; i < CAP_CPUS; i++)
		d->out[i] = d->relay[i] = -1;
	kernel_name(major(st.st_rdev), minor(st.st_rdev), path, d->name, sizeof(d->name));
	for (i = 0; i < C.ndev; i++)
		if (C.dev[i].kdev == d->kdev) {
			warn_msg("%s: given twice", path);
			return -1;
		}
	C.ndev++;
	return 0;
}

/* Partitions share their disk's queue: one trace per queue, so a disk and
 * its partition cannot be traced together. */
static int check_overlap(void)
{
	u32 i, j;

	for (i = 0; i < C.ndev; i++) {
		char p[96], buf[32];
		int fd;
		ssize_t n;

		sfmt(p, sizeof(p), "/sys/dev/block/%u:%u/partition", DEV_MAJOR(C.dev[i].kdev),
			 DEV_MINOR(C.dev[i].kdev));
		C.dev[i].is_part = (fd = open(p, O_RDONLY | O_CLOEXEC)) >= 0;
		if (fd >= 0)
			close(fd);
		if (!C.dev[i].is_part)
			continue;
		/* ../sda/sda1: the parent directory names the disk */
		sfmt(p, sizeof(p), "/sys/dev/block/%u:%u/../dev", DEV_MAJOR(C.dev[i].kdev),
			 DEV_MINOR(C.dev[i].kdev));
		if ((fd = open(p, O_RDONLY | O_CLOEXEC)) < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = 0;
		C.dev[i].disk = (u32)scan_u64(buf, NULL, 10) << 20 | (u32)scan_u64(strchr(buf, ':') ? strchr(buf, ':') + 1 : "0", NULL, 10);
		for (j = 0; j < C.ndev; j++)
			if (C.dev[j].kdev == C.dev[i].disk) {
				warn_msg("%s and %s: a disk and its partition cannot be traced together "
					 "(they share one request queue)", C.dev[j].path, C.dev[i].path);
				return -1;
			}
	}
	return 0;
}

static int read_dev_list(const char *file)
{
	static char list[DEVLIST_BUF];
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	char *p, *e;

	if (fd < 0) {
		warn_msg("Invalid file for devices %s: %s", file, strerror(errno));
		return -1;
	}
	n = read(fd, list, sizeof(list) - 1);
	close(fd);
	if (n < 0 || n == sizeof(list) - 1) {
		warn_msg("%s: unreadable or longer than %zu bytes", file, sizeof(list) - 2);
		return -1;
	}
	list[n] = 0;
	for (p = list; *p; p = e) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		for (e = p; *e && *e != '\n' && *e != ' ' && *e != '\t'; e++)
			;
		if (*e)
			*e++ = 0;
		if (*p && add_device(p))
			return -1;
	}
	return 0;
}

/* ---- the end-of-run summary, in blktrace's layout ---- */

static void summary(void)
{
	char line[160];
	int fd = C.to_stdout ? 2 : 1;
	u64 all = 0, lost = 0;
	u32 i, c;

	for (i = 0; i < C.ndev; i++) {
		struct tdev *d = &C.dev[i];
		u64 ev = 0, sum = 0;
		int n;

		/* blktrace -o - prints no summary (only its drop warning) */
		if (C.to_stdout && quiet_notes) {
			for (c = 0; c < C.ncpu; c++)
				all += d->bytes[c] / 48;
			lost += d->dropped;
			continue;
		}
		n = sfmt(line, sizeof(line), "=== %s ===\n", d->name);
		if (write(fd, line, (size_t)n) < 0)
			return;
		for (c = 0; c < C.ncpu; c++) {
			/* blktrace estimates events as bytes / 48 (REC_V7_LEN) */
			u64 e = d->bytes[c] / REC_V7_LEN, k = (d->bytes[c] + 1023) >> 10;

			if (d->out[c] < 0 && !d->bytes[c])
				continue;
			n = sfmt(line, sizeof(line), "  CPU%3u: %20llu events, %8llu KiB data\n", c,
				     (unsigned long long)e, (unsigned long long)k);
			if (write(fd, line, (size_t)n) < 0)
				return;
			ev += e;
			sum += d->bytes[c];
		}
		/* and rounds the total with 1024, not 1023, as blktrace does */
		n = sfmt(line, sizeof(line), "  Total:  %20llu events (dropped %llu), %8llu KiB data\n",
			     (unsigned long long)ev, (unsigned long long)d->dropped,
			     (unsigned long long)((sum + 1024) >> 10));
		if (write(fd, line, (size_t)n) < 0)
			return;
		all += ev;
		lost += d->dropped;
	}
	if (lost) {
		int n = sfmt(line, sizeof(line), "\nYou have %llu (%5.1f%%) dropped events\n"
				 "Consider using a larger buffer size (-b) and/or more buffers (-n)\n",
				 (unsigned long long)lost, 100.0 * (double)lost / (double)(all + lost));

		if (write(2, line, (size_t)n) < 0)
			return;
	}
}

/* ---- options and main ---- */

static const struct option longopts[] = {
	{ "dev", 1, 0, 'd' }, { "input-devs", 1, 0, 'I' }, { "act-mask", 1, 0, 'a' },
	{ "set-mask", 1, 0, 'A' }, { "relay", 1, 0, 'r' }, { "output", 1, 0, 'o' },
	{ "output-dir", 1, 0, 'D' }, { "stopwatch", 1, 0, 'w' }, { "buffer-size", 1, 0, 'b' },
	{ "num-sub-buffers", 1, 0, 'n' }, { "kill", 0, 0, 'k' }, { "verbose", 0, 0, 'v' | 256 },
	{ "version", 0, 0, 'V' }, { "backend", 1, 0, 'B' }, { "help", 0, 0, 'H' }, { 0, 0, 0, 0 },
};

static int options(int argc, char **argv)
{
	int c;
	char *e;
	u64 v;

	while ((c = opt_get(argc, argv, "d:I:a:A:r:o:D:w:b:n:kvV", longopts)) != -1) {
		switch (c) {
		case 'd':
			if (add_device(opt_arg))
				return 1;
			break;
		case 'I':
			if (read_dev_list(opt_arg))
				return 1;
			break;
		case 'a':
			if (mask_bit(opt_arg) < 0) {
				warn_msg("Invalid action mask %s (names: read write flush sync queue requeue "
					 "issue complete fs pc notify ahead meta discard drv_data fua)", opt_arg);
				return 1;
			}
			C.mask |= (u32)mask_bit(opt_arg);
			break;
		case 'A':
			v = scan_u64(opt_arg, &e, 16);
			if (e == opt_arg || *e || !v || v > 0xffff) {
				warn_msg("Invalid set action mask %s", opt_arg);
				return 1;
			}
			C.mask = (u32)v;
			break;
		case 'r': C.debugfs = opt_arg; break;
		case 'o': C.oname = opt_arg; break;
		case 'D': C.dir = opt_arg; break;
		case 'w':
			v = scan_u64(opt_arg, &e, 10);
			if (e == opt_arg || *e || !v) {
				warn_msg("Invalid stopwatch value (%s secs)", opt_arg);
				return 1;
			}
			C.stopwatch = (u32)v;
			break;
		case 'b':
			v = scan_u64(opt_arg, &e, 10);
			if (e == opt_arg || *e || !v || v > 16 * 1024) {
				warn_msg("Invalid buffer size (%s): 1 to 16384 KiB", opt_arg);
				return 1;
			}
			C.buf_size = (u32)v << 10;
			break;
		case 'n':
			v = scan_u64(opt_arg, &e, 10);
			if (e == opt_arg || *e || !v || v > 4096) {
				warn_msg("Invalid buffer nr (%s)", opt_arg);
				return 1;
			}
			C.buf_nr = (u32)v;
			break;
		case 'k': C.kill = 1; break;
		case 'v':	/* blktrace's -v is its version; ours says more */
			if (quiet_notes)
				goto version;
			/* fall through */
		case 'v' | 256:
			C.verbose++;
			quiet_notes = 0;
			break;
		case 'V':
		version: {
			char line[128];
			int n = sfmt(line, sizeof(line), "%s version 2.0.0\n", argv[0]);

			return write(1, line, (size_t)n) == n ? -2 : 1;
		}
		case 'B':
			if (!strcmp(opt_arg, "relay"))
				C.backend = BK_RELAY;
			else if (!strcmp(opt_arg, "tracefs"))
				C.backend = BK_TRACEFS;
			else if (!strcmp(opt_arg, "auto"))
				C.backend = BK_AUTO;
			else {
				warn_msg("unknown backend '%s' (relay, tracefs or auto)", opt_arg);
				return 1;
			}
			break;
		case 'H':
			return write(1, trace_usage, sizeof(trace_usage) - 1) < 0 ? 1 : -2;
		default:
			if (write(2, trace_usage, sizeof(trace_usage) - 1) < 0)
				return 1;
			return 1;
		}
	}
	for (; opt_ind < argc; opt_ind++)
		if (add_device(argv[opt_ind]))
			return 1;
	if (!C.ndev) {
		warn_msg("no device given (try: %s -d /dev/sda)", argv[0]);
		return 1;
	}
	if (C.oname && !strcmp(C.oname, "-"))
		C.to_stdout = 1;
	else if (C.oname && C.ndev > 1) {
		warn_msg("-o not supported with multiple devices");
		return 1;
	}
	return 0;
}

static int count_cpus(void)
{
	char buf[64], *p = buf;
	int fd = open("/sys/devices/system/cpu/possible", O_RDONLY | O_CLOEXEC);
	ssize_t n;
	u64 hi = 0;

	if (fd < 0) {
		/* what musl's sysconf(_SC_NPROCESSORS_CONF) answers (1 KiB
		 * of code): the CPUs this process may run on */
		u8 set[128] = { 1 };
		int i, cnt = 0;

		syscall(SYS_sched_getaffinity, 0, sizeof(set), set);
		for (i = 0; i < (int)sizeof(set); i++)
			for (; set[i]; set[i] &= (u8)(set[i] - 1))
				cnt++;
		return cnt;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 1;
	buf[n] = 0;
	/* "0-3" or "0,2-5": the highest number plus one */
	while (*p) {
		u64 v = scan_u64(p, &p, 10);

		if (v > hi)
			hi = v;
		if (*p)
			p++;
	}
	return (int)hi + 1;
}

static void defaults(void)
{
	memset(&C, 0, sizeof(C));
	C.buf_size = 512 << 10;
	C.buf_nr = 4;
	C.debugfs = "/sys/kernel/debug";
	C.buf = cap_buf;
}

static int run(void)
{
	int rc;
	struct sigaction sa;

	if (check_overlap())
		return 1;
	C.ncpu = (u32)count_cpus();
	if (C.ncpu > CAP_CPUS) {
		warn_msg("%u CPUs; this build handles %d (CAP_CPUS)", C.ncpu, CAP_CPUS);
		return 1;
	}
	if (geteuid() != 0) {
		warn_msg("tracing needs root (the kernel refuses BLKTRACESETUP and tracefs to others)");
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (C.kill)
		return relay_kill();
	if (C.dir && mkdir(C.dir, 0755) && errno != EEXIST) {
		warn_msg("Destination dir %s can't be made: %s", C.dir, strerror(errno));
		return 1;
	}
	rc = -1;
	if (C.backend != BK_TRACEFS) {
		rc = relay_run();
		if (rc == RUN_FALLBACK && C.backend == BK_AUTO)
			rc = -1;
		else if (rc == RUN_FALLBACK)
			return 1;
	}
	if (rc < 0)
		rc = tracefs_run();
	if (rc == RUN_FALLBACK)
		rc = 1;
	if (!C.kill)
		summary();
	return rc || C.write_failed;
}

int trace_main(int argc, char **argv)
{
	int rc;

	defaults();
	rc = options(argc, argv);
	if (rc)
		return rc == -2 ? 0 : rc;
	return run();
}

/* Live capture for another applet (monitor): records go to sink, round
 * is called after each round of reads; 0 on success. */
int trace_devices(char **devs, int n, u32 mask, int (*sink)(const void *, size_t), void (*round)(void))
{
	int i;

	defaults();
	for (i = 0; i < n; i++)
		if (add_device(devs[i]))
			return 1;
	C.mask = mask;
	C.to_stdout = 1;
	C.sink = sink;
	C.round = round;
	return run();
}

/* btrace: blktrace -o - ... | blkparse -i - in one process.  The capture
 * hands its records to the parser directly; nothing queues in between. */
const char btrace_usage[] =
"usage: btrace [-s] [-t] [-w N] [-n N] [-b N] [-a <trace>...] [-r <dbg mnt>] <dev>...\n"
"\n"
"Trace the devices and print blkparse's text live, until interrupted.\n"
" -s  per-process statistics      -t  queue/dispatch/complete times\n"
" -w N  stop after N seconds      -n N, -b N  kernel buffers (blktrace -n, -b)\n"
" -a NAME  trace only this category (repeatable)   -r PATH  debugfs mount\n";

int btrace_main(int argc, char **argv)
{
	char *pargv[12] = { "btrace", "-b100000", "-i", "-" };
	int pargc = 4, c, rc, r2;
	char *e;
	u64 v;

	defaults();
	while ((c = opt_get(argc, argv, "a:w:n:b:r:sthv", NULL)) != -1) {
		switch (c) {
		case 'a':
			if (mask_bit(opt_arg) < 0) {
				warn_msg("Invalid action mask %s", opt_arg);
				return 2;
			}
			C.mask |= (u32)mask_bit(opt_arg);
			break;
		case 'w': case 'n': case 'b':
			v = scan_u64(opt_arg, &e, 10);
			if (e == opt_arg || *e || !v || (c == 'b' && v > 16384)) {
				warn_msg("bad -%c value '%s'", c, opt_arg);
				return 2;
			}
			if (c == 'w')
				C.stopwatch = (u32)v;
			else if (c == 'n')
				C.buf_nr = (u32)v;
			else
				C.buf_size = (u32)v << 10;
			break;
		case 'r': C.debugfs = opt_arg; break;
		case 's': pargv[pargc++] = "-s"; break;
		case 't': pargv[pargc++] = "-t"; break;
		case 'h': pargv[pargc++] = "-h"; break;
		case 'v': pargv[pargc++] = "-v"; break;
		default:
			if (write(2, btrace_usage, sizeof(btrace_usage) - 1) < 0)
				return 2;
			return 2;
		}
	}
	for (; opt_ind < argc; opt_ind++)
		if (add_device(argv[opt_ind]))
			return 1;
	if (!C.ndev) {
		if (write(2, btrace_usage, sizeof(btrace_usage) - 1) < 0)
			return 2;
		return 2;
	}
	pargv[pargc] = NULL;
	opt_ind = 1;
	rc = parse_begin(pargc, pargv);
	if (rc)
		return rc == -2 ? 0 : rc;
	parse_begin_push();
	C.to_stdout = 1;
	C.sink = parse_push;
	C.round = parse_pump;
	rc = run();
	r2 = parse_end(0);
	return rc ? rc : r2;
}
