/* capture/cap.c: capture: live capture core: devices, every whole disk, live tables' clock, signals, stop/stopwatch, trace files or sink, backend choice, summary */
/* Capture from the kernel, for trace and btrace (and live monitor, top).
 *
 * Two ways in.  relay: the blktrace ioctls and debugfs trace<cpu> files, as
 * blktrace does (BLKTRACESETUP2 for version-8 records where the kernel has
 * it).  tracefs: the block tracepoints in a private tracefs instance, turned
 * into the same records; used when the relay files are refused (kernel
 * lockdown) or debugfs is missing.  Either way the files are
 * [DIR/]NAME.blktrace.CPU, which blkparse and iomon parse read alike, or
 * the records go to a sink the driver gives. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include "capture/backend.h"

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
void cap_fail(void)
{
	C.write_failed = 1;
	cap_stop = 1;
}

int cap_stopping(void)
{
	if (!cap_stop && C.cfg.watch_stdout) {
		struct pollfd p = { 1, 0, 0 };

		if (poll(&p, 1, 0) > 0 && (p.revents & (POLLERR | POLLHUP)))
			cap_stop = 1;
	}
	return cap_stop;
}

static void round_last(int last)
{
	if (C.cfg.to_stdout && !C.cfg.host)
		stage_round(last);
	if (C.cfg.host)
		net_round();
	if (C.cfg.round)
		C.cfg.round(C.cfg.ctx);
}

void cap_round(void)
{
	round_last(0);
}

/* After the drain: every record is in hand, the stream goes out whole. */
void cap_last_round(void)
{
	round_last(1);
}

/* How long the capture loop may sleep in poll(); -1 when -w has run out.
 * The clock starts at the first call, when tracing starts. */
int cap_wait(void)
{
	static u64 end;
	u64 t;
	int p = cap_period();

	if (!C.cfg.stopwatch)
		return p;
	t = mono_ms();
	if (!end)
		end = t + (u64)C.cfg.stopwatch * 1000;
	if (t >= end)
		return -1;
	return end - t < (u64)p ? (int)(end - t) : p;
}

/* How often every CPU is read: a stream's reader (a pipe into blkparse,
 * btrace, top) sees a record within CAP_LIVE_MS, as blktrace's 50 ms poll
 * into a pipe; files can wait CAP_POLL_MS. */
int cap_period(void)
{
	return C.cfg.to_stdout && !C.cfg.host ? CAP_LIVE_MS : CAP_POLL_MS;
}

/* ---- output: per-CPU files or the stream ---- */

TEXT(cap_a_symbolic_link, "%s: a symbolic link (owned by uid %u); trace files are never "
	"written through one")
TEXT(cap_exists_and_is, "%s: exists and is not a regular file; not writing a trace there")
/* A trace shows who did what to which blocks, and we run as root in
 * directories others can write: a fresh file, mode 0600 whatever the
 * umask, never through a symlink (not even our own) and never into a
 * FIFO or device someone left at the path.  An old regular file, a
 * previous run's, is replaced. */
int cap_create(const char *path)
{
	struct stat st;
	int fd, tries;

	for (tries = 0; tries < 2; tries++) {
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
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
			warn_text(U_cap_a_symbolic_link,
				 path, (unsigned)st.st_uid);
			return -1;
		}
		if (!S_ISREG(st.st_mode)) {
			warn_text(U_cap_exists_and_is, path);
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

	if (C.cfg.to_stdout) {
		d->out[cpu] = C.cfg.zlevel ? zout_open(NULL, cap_create) : 1;
		return d->out[cpu] < 0 ? -1 : 0;
	}
	if ((size_t)sfmt(path, sizeof(path), "%s%s%s.blktrace.%u%s", C.cfg.dir ? C.cfg.dir : "",
			     C.cfg.dir ? "/" : "", C.cfg.oname ? C.cfg.oname : d->name, cpu,
			     C.cfg.zlevel ? ".zst" : "") >= sizeof(path)) {
		warn_msg("%s: output path too long", d->name);
		return -1;
	}
	/* -z: a slot of the compressor's, which creates the file (zout.c) */
	d->out[cpu] = C.cfg.zlevel ? zout_open(path, cap_create) : cap_create(path);
	return d->out[cpu] < 0 ? -1 : 0;
}

/* A write that failed part way (a full disk) leaves the file ending at
 * the last whole record of what reached it: cut there. */
static void cut_whole(int fd, const u8 *p, size_t done, u64 start)
{
	struct rec r;
	size_t o = 0;
	int l;

	while ((l = rec_decode(p + o, done - o, &r)) > 0 && o + (size_t)l <= done)
		o += (size_t)l;
	if (ftruncate(fd, (off_t)(start + o)))
		return;
}

TEXT(cap_write_stdout_capture, "write (stdout): %s; capture stopped")
TEXT(cap_write_blktrace_capture, "write %s%s%s.blktrace.%u: %s; capture stopped%s")
/* Every byte reaches the file or the capture stops: a full disk or a
 * reader that went away ends the run cleanly, kernel state torn down,
 * with one message (the writes after it are refused quietly). */
int out_write(struct tdev *d, u32 cpu, const void *p, size_t n)
{
	const u8 *b = p;
	u64 start = d->bytes[cpu];

	if (d->out[cpu] < 0 && out_open(d, cpu))
		goto fail;
	d->bytes[cpu] += n;
	while (n) {
		ssize_t k = C.cfg.zlevel ? (zout_write(d->out[cpu], b, n) ? -1 : (ssize_t)n) : write(d->out[cpu], b, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (errno == EPIPE)
				;
			else if (C.cfg.to_stdout)
				warn_text(U_cap_write_stdout_capture, k ? strerror(errno) : "no progress");
			else
				warn_text(U_cap_write_blktrace_capture, C.cfg.dir ? C.cfg.dir : "",
					 C.cfg.dir ? "/" : "", C.cfg.oname ? C.cfg.oname : d->name, cpu,
					 k ? strerror(errno) : "no progress",
					 C.cfg.zlevel ? "" : ", the file ends at its last whole record");
			if (!C.cfg.to_stdout && !C.cfg.zlevel)
				cut_whole(d->out[cpu], p, (size_t)(b - (const u8 *)p), start);
			goto fail;
		}
		b += k;
		n -= (size_t)k;
	}
	return 0;
fail:
	cap_fail();
	return -1;
}

int cap_write(struct tdev *d, u32 cpu, const void *p, size_t n)
{
	if (cpu >= CAP_CPUS || C.write_failed)
		return -1;
	if (C.cfg.host)
		return net_put(d, cpu, p, n);
	if (C.cfg.to_stdout) {
		d->bytes[cpu] += n;
		return n ? stage_put(p, n) : 0;
	}
	return out_write(d, cpu, p, n);
}

/* ---- devices ---- */

TEXT(cap_more_than_devices, "%s: more than %d devices (CAP_DEVS)")
int cap_add_device(const char *path)
{
	struct tdev *d;
	struct stat st;
	u32 i;

	if (C.ndev == CAP_DEVS) {
		warn_text(U_cap_more_than_devices, path, CAP_DEVS);
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
	if (sys_devname(d->kdev, d->name, sizeof(d->name))) {
		const char *b = strrchr(path, '/');

		sfmt(d->name, sizeof(d->name), "%s", b ? b + 1 : path);
	}
	for (i = 0; i < C.ndev; i++)
		if (C.dev[i].kdev == d->kdev) {
			warn_msg("%s: given twice", path);
			return -1;
		}
	C.ndev++;
	return 0;
}

/* Every whole disk: each /sys/block entry with media (a size above 0)
 * but loop, ram and zram devices, as /dev/NAME ('!' in the name is '/':
 * cciss!c0d0), CAP_DEVS at most.  One with no driver or media is skipped,
 * said once: a capture would fail on it and take the others down too. One
 * refused (EPERM) stays: tracefs traces it without opening it. */
struct disks { char **devs; int n; };

TEXT(cap_more_than_disks, "more than %d disks (CAP_DEVS): %s and any after it not traced")
TEXT(cap_skipped_cannot_open, "%s: skipped, cannot open it (%s)")
static long add_disk(const char *dir, const char *name, void *arg)
{
	static char names[CAP_DEVS][48];
	struct disks *d = arg;
	char *p = names[d->n % CAP_DEVS], *q;
	u64 size;
	int fd;

	if (name[0] == '.' || !strncmp(name, "loop", 4) || !strncmp(name, "ram", 3) || !strncmp(name, "zram", 4) ||
	    (!sys_u64f(&size, "%s/%s/size", dir, name) && !size))
		return 0;
	if (d->n == CAP_DEVS) {
		warn_text(U_cap_more_than_disks, CAP_DEVS, name);
		return 1;
	}
	sfmt(p, sizeof(names[0]), "/dev/%s", name);
	for (q = p; *q; q++)
		if (*q == '!')
			*q = '/';
	/* no driver, no media: skipped; refused (EPERM from a device cgroup,
	 * lockdown) stays, since tracefs traces it without opening it */
	if ((fd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0 && errno != EPERM && errno != EACCES) {
		warn_text(U_cap_skipped_cannot_open, p, strerror(errno));
		return 0;
	}
	if (fd >= 0)
		close(fd);
	d->devs[d->n++] = p;
	return 0;
}

int cap_all_disks(char **devs)
{
	struct disks d = { devs, 0 };

	dir_each("/sys/block", add_disk, &d);
	return d.n;
}

TEXT(cap_no_disks_to, "no disks to trace (give %s DEV)")
/* top's and biolatency's live input: the devices given, each of which
 * must trace, or every whole disk, of which one the capture cannot take is
 * skipped (skip_bad); -1: nothing to trace (said, naming opt) */
int cap_live_devices(struct cap_cfg *c, char **devs, int n, const char *opt)
{
	int i, every = !n;

	if (every)
		n = cap_all_disks(devs);
	cap_defaults(c);
	c->skip_bad = every;
	for (i = 0; i < n; i++)
		if (cap_add_device(devs[i]) && !every)
			return -1;
	if (!cap_ndev()) {
		warn_text(U_cap_no_disks_to, opt);
		return -1;
	}
	return 0;
}

/* A live table's clock, checked at every round (the capture calls back
 * every CAP_LIVE_MS with or without records): 1 when an interval of secs
 * has ended.  The first starts with the first round; a round late by more
 * than an interval (a stalled machine) gives one table, not a burst. */
int cap_interval_due(u64 *next, u32 secs)
{
	u64 now = mono_ms(), iv = (u64)secs * 1000;

	if (!*next) {
		*next = now + iv;
		return 0;
	}
	if (now < *next)
		return 0;
	*next = *next + iv > now ? *next + iv : now + iv;
	return 1;
}

TEXT(cap_and_a_disk, "%s and %s: a disk and its partition cannot be traced together "
	"(they share one request queue)")
/* Partitions share their disk's queue: one trace per queue, so a disk and
 * its partition cannot be traced together. */
static int check_overlap(void)
{
	u32 i, j;

	for (i = 0; i < C.ndev; i++) {
		C.dev[i].is_part = sys_partition(C.dev[i].kdev, &C.dev[i].disk);
		if (!C.dev[i].is_part || !C.dev[i].disk)
			continue;
		for (j = 0; j < C.ndev; j++)
			if (C.dev[j].kdev == C.dev[i].disk) {
				warn_text(U_cap_and_a_disk, C.dev[j].path, C.dev[i].path);
				return -1;
			}
	}
	return 0;
}

TEXT(cap_invalid_file_for, "Invalid file for devices %s: %s")
TEXT(cap_unreadable_or_longer, "%s: unreadable or longer than %zu bytes")
int cap_add_devices_from(const char *file)
{
	static char list[DEVLIST_BUF];
	int n = sys_read(file, list, sizeof(list));
	char *p, *e;

	if (n == -1) {
		warn_text(U_cap_invalid_file_for, file, strerror(errno));
		return -1;
	}
	/* a full buffer may have more behind it */
	if (n < 0 || (size_t)n == sizeof(list) - 1) {
		warn_text(U_cap_unreadable_or_longer, file, sizeof(list) - 2);
		return -1;
	}
	for (p = list; *p; p = e) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		for (e = p; *e && *e != '\n' && *e != ' ' && *e != '\t'; e++)
			;
		if (*e)
			*e++ = 0;
		if (*p && cap_add_device(p))
			return -1;
	}
	return 0;
}

/* ---- the end-of-run summary, in blktrace's layout ---- */

static void put(int fd, const char *line, int n)
{
	if (write(fd, line, (size_t)n) < 0)
		return;
}

TEXT(cap_sum_total, "  Total:  %20llu events (dropped %llu), %8llu KiB data\n")
/* One device's block on fd (out: which CPUs had an output, -1 none; NULL:
 * every CPU, as blktrace's server prints); returns its events. */
u64 cap_sum_dev(int fd, const char *name, const u64 *bytes, const int *out, u32 ncpu, u64 dropped)
{
	char line[160];
	u64 ev = 0, sum = 0;
	u32 c;

	put(fd, line, sfmt(line, sizeof(line), "=== %s ===\n", name));
	for (c = 0; c < ncpu; c++) {
		/* blktrace estimates events as bytes / 48 (REC_V7_LEN) */
		u64 e = bytes[c] / REC_V7_LEN, k = (bytes[c] + 1023) >> 10;

		if (out && out[c] == -1 && !bytes[c])	/* -2: a lost connection */
			continue;
		put(fd, line, sfmt(line, sizeof(line), "  CPU%3u: %20llu events, %8llu KiB data\n", c,
				   (unsigned long long)e, (unsigned long long)k));
		ev += e;
		sum += bytes[c];
	}
	/* and rounds the total with 1024, not 1023, as blktrace does */
	put(fd, line, sfmt(line, sizeof(line), TX(cap_sum_total),
			   (unsigned long long)ev, (unsigned long long)dropped, (unsigned long long)((sum + 1024) >> 10)));
	return ev;
}

TEXT(cap_sum_drops, "\nYou have %llu (%5.1f%%) dropped events\nConsider using a larger "
	"buffer size (-b) and/or more buffers (-n)\n")
void cap_sum_drops(u64 all, u64 lost)
{
	char line[160];

	if (lost)
		put(2, line, sfmt(line, sizeof(line), TX(cap_sum_drops), (unsigned long long)lost,
				  100.0 * (double)lost / (double)(all + lost)));
}

/* events lost so far on every device: relay's dropped files (setup:
 * a relay trace), tracefs's ring-buffer losses */
u64 cap_dropped(void)
{
	u64 t = 0;
	u32 i;

	for (i = 0; i < C.ndev; i++)
		t += C.dev[i].setup ? relay_dropped(&C.dev[i]) : C.dev[i].dropped;
	return t;
}

static void summary(void)
{
	u64 all = 0, lost = 0;
	u32 i, c;

	for (i = 0; i < C.ndev; i++) {
		struct tdev *d = &C.dev[i];

		lost += d->dropped;
		/* blktrace -o - prints no summary (only its drop warning) */
		if (C.cfg.to_stdout && quiet_notes) {
			for (c = 0; c < C.ncpu; c++)
				all += d->bytes[c] / 48;
			continue;
		}
		all += cap_sum_dev(C.cfg.to_stdout ? 2 : 1, d->name, d->bytes, d->out, C.ncpu, d->dropped);
	}
	cap_sum_drops(all, lost);
	stage_report();
}

/* ---- the run ---- */

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* relay first unless told otherwise; tracefs when relay is refused */
static int backends(void)
{
	int rc = -1;

	if (C.cfg.backend != BK_TRACEFS) {
		rc = relay_run();
		if (rc == RUN_FALLBACK && C.cfg.backend == BK_AUTO)
			rc = -1;
		else if (rc == RUN_FALLBACK)
			return 1;
	}
	if (rc < 0)
		rc = tracefs_run();
	return rc == RUN_FALLBACK ? 1 : rc;
}

/* Capture on the devices added so far, as c says; 0 on success. */
TEXT(cap_tracing_needs_root, "tracing needs root (the kernel refuses BLKTRACESETUP and "
	"tracefs to others)")
TEXT(cap_cpus_this_build, "%u CPUs; this build handles %d (CAP_CPUS)")
TEXT(cap_destination_dir_can, "Destination dir %s can't be made: %s")
int cap_run(const struct cap_cfg *c)
{
	int rc;

	C.cfg = *c;
	C.buf = cap_buf;
	C.write_failed = 0;
	C.ncpu = (u32)sys_cpus("possible");
	if (C.cfg.listen) {
		sys_fd_room(NET_CONNS + (u64)NET_DEVS * CAP_CPUS + 64);	/* clients' connections, their files */
		catch_signals();
		rc = net_serve();
		if (C.cfg.zlevel && zout_finish())	/* the compressor said why */
			C.write_failed = 1;
		return rc || C.write_failed;
	}
	if (check_overlap())
		return 1;
	/* a firmware's table may name hundreds of CPU slots a machine will
	 * never fill ("hotplug CPUs"): past CAP_CPUS, the CPUs there now (as
	 * the original counts them) */
	if (C.ncpu > CAP_CPUS)
		C.ncpu = (u32)sys_cpus("present");
	if (C.ncpu > CAP_CPUS) {
		warn_text(U_cap_cpus_this_build, C.ncpu, CAP_CPUS);
		return 1;
	}
	if (geteuid() != 0) {
		warn_text(U_cap_tracing_needs_root);
		return 1;
	}
	catch_signals();
	if (C.cfg.kill)
		return relay_kill();
	sys_fd_room((u64)cap_ndev() * C.ncpu * 2 + 64);	/* the kernel's files, the outputs */
	if (C.cfg.dir && mkdir(C.cfg.dir, 0755) && errno != EEXIST) {
		warn_text(U_cap_destination_dir_can, C.cfg.dir, strerror(errno));
		return 1;
	}
	if (C.cfg.host && net_connect()) {
		net_close();
		return 1;
	}
	rc = backends();
	if (C.cfg.host)
		net_close();
	if (C.cfg.zlevel && zout_finish())	/* the compressor said why */
		C.write_failed = 1;
	summary();
	return rc || C.write_failed;
}

/* Live capture (or trace -l's clients) for another applet: one stream
 * of records to sink, round (if any) after each round of reads; 0 on
 * success. */
static int (*plain_sink)(const void *, size_t);
static void (*plain_round)(void);

static int to_plain_sink(void *ctx, const void *p, size_t n)
{
	(void)ctx;
	return plain_sink(p, n);
}

static void to_plain_round(void *ctx)
{
	(void)ctx;
	plain_round();
}

int cap_run_plain(struct cap_cfg *c, int (*sink)(const void *, size_t), void (*round)(void))
{
	plain_sink = sink;
	plain_round = round;
	c->to_stdout = 1;
	c->sink = to_plain_sink;
	c->round = round ? to_plain_round : NULL;
	return cap_run(c);
}
