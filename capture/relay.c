/* capture/relay.c: capture: the relay backend (BLKTRACESETUP, debugfs per-CPU files) */
/* The relay backend: blktrace's own interface.  BLKTRACESETUP2 (version-8
 * records, kernel 6.19+) or BLKTRACESETUP, START, read debugfs
 * block/NAME/trace<cpu> while tracing, STOP, drain, TEARDOWN.
 *
 * Live: the sub-buffer the kernel is filling is read too, at once when
 * poll() says one is done and every cap_period() otherwise, so a quiet
 * device shows within that.  The kernel reserves a record's room and then
 * fills it with interrupts off on the CPU it runs on; a reader elsewhere
 * can read room reserved and not yet written (old bytes after the buffer
 * wrapped).  So the reader moves to the CPU whose buffers it reads, as
 * blktrace's threads each stay on theirs: while it runs there, no record
 * of that CPU is half written.  STOP flushes the last sub-buffers. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "capture/backend.h"

static int trace_path(char *p, size_t n, const struct tdev *d, const char *file)
{
	return (size_t)sfmt(p, n, "%s/block/%s/%s", C.cfg.debugfs, d->name, file) >= n ? -1 : 0;
}

/* Which live process has this device's relay files open, if any. */
static long holder(const struct tdev *d)
{
	char want[PATH_LEN];

	if (trace_path(want, sizeof(want), d, "trace"))
		return 0;
	return proc_holding(want);
}

static int sysfs_flag(const struct tdev *d, const char *file)
{
	char buf[8];

	return sys_readf(buf, sizeof(buf), "/sys/dev/block/%u:%u/trace/%s", DEV_MAJOR(d->kdev),
			 DEV_MINOR(d->kdev), file) > 0 && buf[0] == '1';
}

/* d's trace's relay files: 0 none (the tracefs blk tracer's trace), 1,
 * or refused (lockdown): -errno */
static int relay_files(const struct tdev *d)
{
	char p[PATH_LEN];
	int fd;

	trace_path(p, sizeof(p), d, "trace0");	/* cut short: no such file */
	if ((fd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) >= 0)
		return close(fd), 1;
	return errno == EPERM || errno == EACCES ? -errno : 0;
}

static int setup_once(struct tdev *d)
{
	struct buts2 b2;
	struct buts b;

	memset(&b2, 0, sizeof(b2));
	b2.act_mask = C.cfg.mask;	/* 0: everything */
	b2.buf_size = C.cfg.buf_size;
	b2.buf_nr = C.cfg.buf_nr;
	if (!ioctl(d->fd, K_BLKTRACESETUP2, &b2)) {
		sfmt(d->name, sizeof(d->name), "%.63s", b2.name);
		d->version = 8;
		return 0;
	}
	if (errno != ENOTTY && errno != EINVAL)
		return -1;
	memset(&b, 0, sizeof(b));
	b.act_mask = C.cfg.mask ? (u16)C.cfg.mask : 0xffff;
	b.buf_size = C.cfg.buf_size;
	b.buf_nr = C.cfg.buf_nr;
	if (ioctl(d->fd, K_BLKTRACESETUP, &b))
		return -1;
	sfmt(d->name, sizeof(d->name), "%.31s", b.name);
	d->version = 7;
	return 0;
}

TEXT(relay_this_kernel_has, "%s: this kernel has no blktrace ioctls (CONFIG_BLK_DEV_IO_TRACE "
	"is off)")
TEXT(relay_the_tracefs_blk, "%s: the tracefs blk tracer is on for this device; not touching "
	"it (echo 0 > /sys/block/%s/trace/enable frees it)")
TEXT(relay_already_being_traced, "%s: already being traced by pid %ld; not touching it")
TEXT(relay_blktracesetup_failed, "BLKTRACESETUP(2) %s failed: %s")
TEXT(relay_trying_tracefs, "%s: %s; trying tracefs, which needs no device node")
TEXT(relay_files_refused, "%s: relay files refused (%s; kernel lockdown?)")
TEXT(relay_cleared_a_trace, "%s: cleared a trace left behind by a capture that is gone")
/* SETUP, clearing a trace that a dead capture left behind. */
static int setup(struct tdev *d)
{
	long pid;
	int f;

	d->fd = open(d->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (d->fd < 0) {
		/* tracefs needs no device node: refused here, it may do */
		if ((errno == EPERM || errno == EACCES) && C.cfg.backend == BK_AUTO) {
			note_msg(TX(relay_trying_tracefs), d->path, strerror(errno));
			return RUN_FALLBACK;
		}
		if (C.cfg.skip_bad) {
			note_msg("%s: %s; skipped", d->path, strerror(errno));
			return 0;
		}
		warn_msg("%s: %s", d->path, strerror(errno));
		return -1;
	}
	if (!setup_once(d))
		return 0;
	if (errno == ENOTTY) {
		warn_text(U_relay_this_kernel_has, d->path);
		return RUN_FALLBACK;
	}
	if (errno == EACCES || errno == EPERM) {
		warn_msg("%s: BLKTRACESETUP refused: %s", d->path, strerror(errno));
		return -1;
	}
	if (errno != EBUSY) {
		warn_text(U_relay_blktracesetup_failed, d->path, strerror(errno));
		return -1;
	}
	/* sysfs trace/enable reads 1 for any trace; only an ioctl trace has
	 * relay files, so without them it is the tracefs blk tracer. */
	if (!(f = relay_files(d)) && sysfs_flag(d, "enable")) {
		warn_text(U_relay_the_tracefs_blk, d->path, d->name);
		return -1;
	}
	/* Refused relay files: a live capture's setup holds none on its way
	 * to tracefs, so it looks gone; ours could not read them either.
	 * Left alone: tracefs instances do not collide. */
	if (f < 0) {
		note_msg(TX(relay_files_refused), d->path, strerror(-f));
		return RUN_FALLBACK;
	}
	if ((pid = holder(d))) {
		warn_text(U_relay_already_being_traced, d->path, pid);
		return -1;
	}
	ioctl(d->fd, K_BLKTRACESTOP);
	ioctl(d->fd, K_BLKTRACETEARDOWN);
	note_msg(TX(relay_cleared_a_trace), d->path);
	if (!setup_once(d))
		return 0;
	warn_text(U_relay_blktracesetup_failed, d->path, strerror(errno));
	/* busy again: another capture set up in between; tracefs
	 * instances do not collide */
	return errno == EBUSY ? RUN_FALLBACK : -1;
}

TEXT(relay_blktraceteardown_faile, "BLKTRACETEARDOWN %s failed: %s")
static void teardown(struct tdev *d)
{
	u32 c;

	for (c = 0; c < C.ncpu; c++)
		if (d->relay[c] >= 0) {
			close(d->relay[c]);
			d->relay[c] = -1;
		}
	if (d->setup) {
		ioctl(d->fd, K_BLKTRACESTOP);
		if (ioctl(d->fd, K_BLKTRACETEARDOWN))
			warn_text(U_relay_blktraceteardown_faile, d->path, strerror(errno));
		d->setup = 0;
	}
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

static void teardown_all(void)
{
	u32 i;

	for (i = 0; i < C.ndev; i++)
		teardown(&C.dev[i]);
}

/* debugfs must be mounted for the relay files; mount it if it is not. */
static int have_debugfs(void)
{
	char p[PATH_LEN];
	struct stat st;

	sfmt(p, sizeof(p), "%s/block", C.cfg.debugfs);
	if (!stat(p, &st))
		return 1;
	if (mount("debugfs", C.cfg.debugfs, "debugfs", 0, NULL) == 0 && !stat(p, &st)) {
		if (C.cfg.verbose)
			note_msg("mounted debugfs on %s", C.cfg.debugfs);
		return 1;
	}
	return 0;
}

static int open_relay(struct tdev *d)
{
	char p[PATH_LEN];
	u32 c;

	for (c = 0; c < C.ncpu; c++) {
		sfmt(p, sizeof(p), "%s/block/%s/trace%u", C.cfg.debugfs, d->name, c);
		d->relay[c] = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (d->relay[c] >= 0)
			continue;
		if (errno == ENOENT)
			continue;	/* no such CPU */
		if (errno == EPERM || errno == EACCES) {
			note_msg(TX(relay_files_refused), p, strerror(errno));
			return RUN_FALLBACK;
		}
		warn_msg("Could not open %s: %s", p, strerror(errno));
		return -1;
	}
	return 0;
}

static u64 read_dropped(const struct tdev *d)
{
	u64 v = 0;

	sys_u64f(&v, "%s/block/%s/dropped", C.cfg.debugfs, d->name);
	return v;
}

/* the same for cap_dropped (a live round), a function of its own so the
 * capture's end keeps its inlined copy */
u64 relay_dropped(const struct tdev *d)
{
	return read_dropped(d);
}

/* A read ends where max does, perhaps inside a record.  Every chunk
 * passed on holds whole records (a stream's are merged by time, the
 * network's may be dropped whole, a file cut short by a full disk ends at
 * one): the rest of a cut one, written since the reader is on its CPU, is
 * read at once into the room pump leaves at C.buf's end. */
static ssize_t whole(int fd, ssize_t n)
{
	u32 o = 0;
	int l = 0;

	while (n > 0) {
		ssize_t k;

		while ((l = rec_span(C.buf + o, (u32)n - o)) > 0 && o + (u32)l <= (u32)n)
			o += (u32)l;
		if (o == (u32)n || l < 0)
			break;
		/* a cut header first (v7's length, then v8's), then the
		 * record's rest: never into the next record */
		l = l ? (int)(o + (u32)l - (u32)n)
		      : ((u32)n - o < REC_V7_LEN ? REC_V7_LEN : REC_V8_LEN) - (int)((u32)n - o);
		if ((size_t)n + (size_t)l > CAP_BUF)
			break;	/* cannot be: a chunk is half of it */
		k = read(fd, C.buf + n, (size_t)l);
		if (k <= 0)
			break;
		n += k;
	}
	return n;
}

/* Move what one relay file has to its output; 0 when it had nothing. */
static ssize_t pump(struct tdev *d, u32 cpu, size_t max)
{
	ssize_t n = whole(d->relay[cpu], read(d->relay[cpu], C.buf, max));

	if (n > 0 && cap_write(d, cpu, C.buf, (size_t)n))
		return -1;
	return n;
}

/* The reader onto one CPU (0), or back where it may run (cpu = -1). */
static int on_cpu(int cpu)
{
	/* as many CPUs as the kernel may have (getaffinity refuses fewer) */
	static unsigned long home[(CAP_CPUS > 1024 ? CAP_CPUS : 1024) / (8 * sizeof(long))], one[sizeof(home) / sizeof(long)];
	static int saved, at = -1;

	if (!saved)
		saved = syscall(SYS_sched_getaffinity, 0, sizeof(home), home) > 0 ? 1 : -1;
	if (cpu == at)
		return 0;
	if (cpu < 0) {
		at = -1;
		return saved > 0 ? (int)syscall(SYS_sched_setaffinity, 0, sizeof(home), home) : 0;
	}
	memset(one, 0, sizeof(one));
	one[cpu / (8 * sizeof(long))] = 1ul << (cpu % (8 * sizeof(long)));
	if (syscall(SYS_sched_setaffinity, 0, sizeof(one), one))
		return -1;
	at = cpu;
	return 0;
}

TEXT(relay_cannot_run_on_cpu, "cannot run on CPU %u (%s): its records are read from another CPU")
/* Read every device's buffer of one CPU dry, from that CPU.  One the
 * reader may not run on (a cpuset) is read from where it is (said once):
 * a record being written there as it reads can come out unfinished. */
static void visit(u32 cpu, size_t chunk)
{
	static u8 warned;
	u64 t;
	u32 i;

	t = mono_ns();
	if (on_cpu((int)cpu)) {
		if (!warned++)
			note_msg(TX(relay_cannot_run_on_cpu), cpu, strerror(errno));
		t -= TRACEFS_SLACK_NS;
	}
	/* dry: a read short of chunk; a buffer's worth at most, so a CPU
	 * the load keeps filling cannot hold the others up (then no mark) */
	for (i = 0; i < C.ndev && !C.write_failed; i++) {
		u32 k = C.cfg.buf_nr * (C.cfg.buf_size / (u32)chunk) + 1;
		ssize_t got;

		if (C.dev[i].relay[cpu] < 0)
			continue;
		while ((got = net_room(cpu) ? pump(&C.dev[i], cpu, chunk) : -1) >= (ssize_t)chunk && --k)
			;
		if (!k || got < 0)
			t = 0;
	}
	if (t)
		cap_mark(cpu, t);
}

static struct pollfd pfd[CAP_DEVS * CAP_CPUS + HAVE_NET * CAP_CPUS];	/* + the sockets (-h) */
static u16 who[CAP_DEVS * CAP_CPUS][2];	/* pfd's device and CPU */

/* After STOP: the files of CPU cpu (~0u: every CPU) read to their end */
static void drain(u32 n, size_t chunk, u32 cpu)
{
	u32 i;

	for (i = 0; i < n && !C.write_failed; i++)
		while ((cpu == ~0u || who[i][1] == cpu) && pump(&C.dev[who[i][0]], who[i][1], chunk) > 0)
			;
}

/* Until stopped: the CPUs whose sub-buffers poll says are done, at once;
 * every CPU each cap_period(), and when the stream's stage is half full
 * (its oldest records wait for the CPUs not yet read).  With -h a CPU
 * whose queue to the server is full is not polled, its sockets are. */
static void loop(u32 n, size_t chunk)
{
	static u8 full[CAP_CPUS];
	u64 swept = 0;
	u32 i, c;

	while (!cap_stopping()) {
		int wait = cap_wait(), all;
		u64 now;

		if (wait < 0)
			break;
		memset(full, 0, C.ncpu);
		for (i = 0; HAVE_NET && i < n; i++)
			pfd[i].events = net_room(who[i][1]) ? POLLIN : 0;
		if (poll(pfd, n + net_pollout(pfd + n), wait) > 0)
			for (i = 0; i < n; i++)
				if (pfd[i].revents & POLLIN)
					full[who[i][1]] = 1;
		now = mono_ms();
		all = now - swept >= (u64)cap_period() || cap_stage_high();
		for (c = 0; c < C.ncpu && !C.write_failed; c++)
			if (all || full[c])
				visit(c, chunk);
		if (all)
			swept = now;
		cap_round();
	}
	on_cpu(-1);
	/* STOP flushes the sub-buffers being filled; then drain them all. */
	for (i = 0; i < C.ndev; i++)
		if (C.dev[i].setup)
			ioctl(C.dev[i].fd, K_BLKTRACESTOP);
	drain(n, chunk, ~0u);
	cap_last_round();
}

#if HAVE_NET
/* -h on more than one CPU: a reader process for each CPU, as blktrace has
 * a thread on each, so that the scheduler gives every CPU's reading and
 * sending a share of its own (one process for all, behind busy CPUs,
 * dropped 2 % of a loaded run).  Child c reads c's relay files on CPU c
 * and sends on c's sockets; it ends when the parent, after STOP, closes
 * a pipe (a signal stops the parent alone), drains what STOP flushed,
 * sends the last of it and writes its counts to another pipe, whole; the
 * parent then closes the connections as before. */
struct percpu {
	u32 cpu;
	int failed;
	u64 bytes[CAP_DEVS], lost[CAP_DEVS];
};
_Static_assert(sizeof(struct percpu) <= PIPE_BUF, "struct percpu: one write to a pipe, whole (PIPE_BUF)");

static __attribute__((noreturn)) void reader(u32 c, u32 n, size_t chunk, int stop, int out)
{
	struct pollfd p[CAP_DEVS + 1 + CAP_CPUS];
	struct percpu r = { c, 0, { 0 }, { 0 } };
	u64 swept = 0;
	u32 i, k = 0;

	signal(SIGINT, SIG_IGN), signal(SIGTERM, SIG_IGN), signal(SIGHUP, SIG_IGN);
	on_cpu((int)c);
	for (i = 0; i < n; i++)
		if (who[i][1] == c)
			p[k++] = pfd[i];
	p[k] = (struct pollfd){ stop, POLLIN, 0 };
	for (;;) {
		int full = 0;

		for (i = 0; i < k; i++)
			p[i].events = net_room(c) ? POLLIN : 0;
		if (poll(p, k + 1 + net_pollout(p + k + 1), CAP_POLL_MS) > 0 && p[k].revents)
			break;
		for (i = 0; i < k; i++)
			full |= p[i].revents & POLLIN;
		if (full || mono_ms() - swept >= CAP_POLL_MS) {
			visit(c, chunk);
			swept = mono_ms();
		}
		cap_round();
	}
	drain(n, chunk, c);
	cap_last_round();
	net_cpu_end(c, r.lost);
	for (i = 0; i < C.ndev; i++)
		r.bytes[i] = C.dev[i].bytes[c];
	r.failed = C.write_failed;
	_exit(write(out, &r, sizeof(r)) != sizeof(r));
}

TEXT(relay_a_reader_for, "a reader for CPU %u: %s; one process reads them all")
/* The readers, until stopped; 0, or -1 when they could not all start
 * (said; those that did have ended, the caller's loop reads on). */
static int readers(u32 n, size_t chunk)
{
	static pid_t pid[CAP_CPUS];
	struct percpu r;
	ssize_t g;
	int sp[2], rp[2], w, rc = 0;
	u32 c, i, k;

	if (pipe(sp))
		return -1;
	if (pipe(rp)) {
		close(sp[0]), close(sp[1]);
		return -1;
	}
	for (k = 0; k < C.ncpu && (pid[k] = fork()) > 0; k++)
		;
	if (k < C.ncpu && !pid[k]) {
		close(sp[1]), close(rp[0]);
		reader(k, n, chunk, sp[0], rp[1]);
	}
	close(sp[0]), close(rp[1]);
	if (k < C.ncpu) {
		warn_text(U_relay_a_reader_for, k, strerror(errno));
		rc = -1;
	}
	while (!rc && !cap_stopping() && (w = cap_wait()) >= 0)
		poll(NULL, 0, w);
	for (i = 0; !rc && i < C.ndev; i++)
		if (C.dev[i].setup)
			ioctl(C.dev[i].fd, K_BLKTRACESTOP);
	close(sp[1]);
	while ((g = read(rp[0], &r, sizeof(r))) == sizeof(r) || (g < 0 && errno == EINTR)) {
		if (g < 0 || r.cpu >= k)
			continue;
		for (i = 0; i < C.ndev; i++)
			C.dev[i].bytes[r.cpu] = r.bytes[i];
		net_lost_add(r.lost);
		C.write_failed |= r.failed;
	}
	close(rp[0]);
	for (c = 0; c < k; c++)
		while (waitpid(pid[c], NULL, 0) < 0 && errno == EINTR)
			;
	return rc;
}
#endif

/* Every device set up (or skipped), its relay files open and polled,
 * tracing started; the number of files, else -1 (torn down) with *rc. */
static int start(int *rc)
{
	u32 i, c, n = 0;

	for (i = 0; i < C.ndev; i++) {
		if ((*rc = setup(&C.dev[i]))) {
			*rc = *rc == RUN_FALLBACK ? *rc : 1;	/* said why: not tracefs's to try */
			goto fail;
		}
		C.dev[i].setup = C.dev[i].fd >= 0;	/* else skipped (skip_bad) */
	}
	for (i = 0; i < C.ndev; i++)
		if (C.dev[i].setup && (*rc = open_relay(&C.dev[i])))
			goto fail;
	*rc = 1;
	for (i = 0; i < C.ndev; i++)
		for (c = 0; c < C.ncpu; c++)
			if (C.dev[i].relay[c] >= 0) {
				if (!C.cfg.to_stdout && cap_write(&C.dev[i], c, "", 0))
					goto fail;
				pfd[n] = (struct pollfd){ C.dev[i].relay[c], POLLIN, 0 };
				who[n][0] = (u16)i, who[n][1] = (u16)c;
				n++;
			}
	if (!n) {
		warn_msg("no device could be traced");
		goto fail;
	}
	for (i = 0; i < C.ndev; i++)
		if (C.dev[i].setup && ioctl(C.dev[i].fd, K_BLKTRACESTART)) {
			warn_msg("BLKTRACESTART %s failed: %s", C.dev[i].path, strerror(errno));
			goto fail;
		}
	for (c = 0; c < C.ncpu; c++) {
		for (i = 0; i < C.ndev && C.dev[i].relay[c] < 0; i++)
			;
		cap_mark(c, i < C.ndev ? 0 : ~0ull);
	}
	return (int)n;
fail:
	teardown_all();
	return -1;
}

TEXT(relay_debugfs_is_not, "debugfs is not available at %s")
TEXT(relay_capturing_through, "capturing through relay (debugfs), version-%d records")
int relay_run(void)
{
	/* room behind a read for the rest of a record it cut */
	size_t chunk = C.cfg.buf_size < CAP_BUF / 2 ? C.cfg.buf_size : CAP_BUF / 2;
	int n, rc = 0;
	u32 i;

	if (!have_debugfs()) {
		warn_text(U_relay_debugfs_is_not, C.cfg.debugfs);
		return RUN_FALLBACK;
	}
	if ((n = start(&rc)) < 0)
		return rc;
	/* said once the kernel traces, so a caller can start its load on it */
	note_msg(TX(relay_capturing_through), C.dev[who[0][0]].version);
#if HAVE_NET
	if (!C.cfg.host || C.ncpu < 2 || readers((u32)n, chunk))
#endif
		loop((u32)n, chunk);
	for (i = 0; i < C.ndev; i++)
		if (C.dev[i].setup)
			C.dev[i].dropped = read_dropped(&C.dev[i]);
	teardown_all();
	return 0;
}

/* -k: stop and remove whatever trace is set up on the devices. */
int relay_kill(void)
{
	u32 i;
	int bad = 0;

	for (i = 0; i < C.ndev; i++) {
		struct tdev *d = &C.dev[i];
		int stopped;

		d->fd = open(d->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (d->fd < 0) {
			warn_msg("%s: %s", d->path, strerror(errno));
			bad = 1;
			continue;
		}
		stopped = !ioctl(d->fd, K_BLKTRACESTOP);
		if (!ioctl(d->fd, K_BLKTRACETEARDOWN) || stopped)
			warn_msg("%s: trace stopped and removed", d->path);
		else if (errno == ENOTTY)
			warn_text(U_relay_this_kernel_has, d->path);
		else if (C.cfg.verbose)
			warn_msg("%s: no trace was set up (%s)", d->path, strerror(errno));
		close(d->fd);
		d->fd = -1;
	}
	return bad;
}
