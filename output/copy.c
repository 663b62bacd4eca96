/* output/copy.c: driver: copy: a block device copied while in use: a full pass, passes over its writes since, a last one once quiet */
//applet: copy copy_main
//sources: @trace capture/input.c capture/merge.c capture/window.c stats/extset.c output/iolines.c
//readme: bmigrate's live copy: a device in use, then its writes since | iomon-copy.1
/* copy: SRC to DST while SRC is written.  A child traces SRC (the live
 * capture, capture/input.c) and sends each write's sectors, at queue and
 * at completion, through a pipe; the parent copies with O_DIRECT: the
 * whole device once, then what was written meanwhile (stats/extset.c),
 * until a pass is small; then, SRC quiet (FIFREEZE, or the user's word),
 * passes until two read markers of its own have come through the trace
 * with nothing written before them.  Anything that could hide a write
 * (the tracer's end, events lost) costs a full pass again.
 */
#define _GNU_SOURCE	/* O_DIRECT, F_SETPIPE_SZ */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "output/output.h"

USAGE(copy,
"usage: iomon copy [--freeze MOUNTPOINT] SRC DST\n"
"\n"
"Copy SRC to DST while SRC is written: a full pass, passes over its writes\n"
"since, a last one when it is quiet: frozen, or Enter (SIGUSR1) once its\n"
"writers are stopped.\n"
"\n"
" --freeze MOUNTPOINT  freeze SRC's file system for the last pass\n")

enum { M_READY, M_LOST, M_MARK };	/* a message of no sectors: what happened */
#define SMALL (8 * (u64)COPY_BUF)	/* a pass this small: time to quiesce */
static struct ext pool[2][EXT_MAX];
static u8 buf[COPY_BUF] __attribute__((aligned(4096)));
static struct {
	int sfd, dfd, pfd, frz, enter;
	const char *src, *dst, *freeze;
	pid_t tracer;
	u32 kdev, lbs, got, marks, ready;
	u64 c0;		/* the extents' first chunk: two logical blocks */
	u64 size, start, passes, later;	/* later: bytes after the first pass */
	const char *broken;
	struct extset dirty, pass;
	u8 msg[16];
	char outbuf[1024];
	struct obuf out;
} K;
static volatile sig_atomic_t quiet;

static void on_usr1(int sig)
{
	(void)sig;
	quiet = 1;
}

/* ---- the tracer (the child): SRC's writes as (sector, count) ---- */

static int tpipe;

static void tsend(u64 s, u64 n)
{
	u64 m[2] = { s, n };

	if (write(tpipe, m, sizeof(m)) != sizeof(m))
		_exit(1);
}

static void trec(const struct rec *r)
{
	u32 a = ACT32(r);
	int k;

	if (r->dev != K.kdev)
		return;
	if ((k = ext_kind(r, TA_QUEUE, TA_COMPLETE)) < 0)
		tsend(M_LOST, 0);
	else if (k && r->sector + (r->bytes >> 9) > K.start)
		tsend(r->sector > K.start ? r->sector - K.start : 0, (r->bytes + 511) >> 9);
	else if (!k && (a & 0xffff) == TA_QUEUE && !(a & TC(TC_WRITE)) && r->sector == K.start &&
		 r->bytes == 3 * K.lbs && r->pid == (u32)getppid())
		tsend(M_MARK, 0);
}

static void tround(void)
{
	static u64 lost;
	u64 d = cap_dropped();

	if (!K.ready++)
		tsend(M_READY, 0);
	if (d != lost)
		lost = d, tsend(M_LOST, 0);
}

/* copy --tracer SRC: the tracer, its messages on stdout (a pipe) */
static int tracer_main(void)
{
	char *dev[1] = { (char *)K.src };

	tpipe = 1;
	syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGTERM);
	signal(SIGUSR1, SIG_IGN);
	return in_devs(NULL, dev, 1, trec, tround);
}

/* the tracer started: this binary again (vfork: no fork machinery) */
static void tracer(void)
{
	char *av[] = { "iomon", "copy", "--tracer", (char *)K.src, NULL };
	int p[2], one = 1;

	if (pipe(p) || (K.tracer = vfork()) < 0) {
		warn_msg("cannot start the tracer: %s", strerror(errno));
		return;
	}
	if (!K.tracer) {
		dup2(p[1], 1);
		close(p[0]);
		execv("/proc/self/exe", av);
		_exit(127);
	}
	close(p[1]);
	syscall(SYS_fcntl, p[0], F_SETPIPE_SZ, 1 << 20);
	ioctl(p[0], FIONBIO, &one);
	K.pfd = p[0], K.got = 0, K.marks = 0;
}

/* ---- the copier: the tracer's messages ---- */

static void msg(const u64 *m)
{
	if (m[1])
		ext_add(&K.dirty, m[0], m[1]);
	else if (m[0] == M_READY)
		K.ready = 1;
	else if (m[0] == M_MARK)
		K.marks++;
	else if (!K.broken)
		K.broken = "the tracer lost events";
}

/* what the pipe holds; wait_ms: first wait that long for a byte */
static void drain(int wait_ms)
{
	struct pollfd pf = { K.pfd, POLLIN, 0 };
	ssize_t n;

	if (K.pfd < 0 || (wait_ms && poll(&pf, 1, wait_ms) <= 0))
		return;
	while ((n = read(K.pfd, K.msg + K.got, sizeof(K.msg) - K.got)) > 0)
		if ((K.got += (u32)n) == sizeof(K.msg)) {
			u64 m[2];

			memcpy(m, K.msg, sizeof(m));
			msg(m);
			K.got = 0;
		}
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {	/* it ended */
		close(K.pfd);
		K.pfd = -1;
		waitpid(K.tracer, NULL, 0);
		K.tracer = 0;
		if (!K.broken)
			K.broken = "the tracer ended";
	}
}

/* the tracer (again) and its first round; -1: it never came */
static int start_tracer(void)
{
	u64 until = mono_ms() + 30000;

	K.ready = 0;
	tracer();
	while (!K.ready && K.pfd >= 0 && mono_ms() < until)
		drain(100);
	if (K.ready)
		return 0;
	warn_msg("%s: the tracer did not start", K.src);
	return -1;
}

/* ---- passes ---- */

static int copy_range(u64 s, u64 e)
{
	while (s < e) {
		size_t n = e - s < COPY_BUF ? (size_t)(e - s) : COPY_BUF;

		if (pread(K.sfd, buf, n, (off_t)s) != (ssize_t)n) {
			warn_msg("%s: read at byte %llu: %s", K.src, (unsigned long long)s, strerror(errno));
			return -1;
		}
		if (pwrite(K.dfd, buf, n, (off_t)s) != (ssize_t)n) {
			warn_msg("%s: write at byte %llu: %s", K.dst, (unsigned long long)s, strerror(errno));
			return -1;
		}
		s += n;
		drain(0);
	}
	return 0;
}

TEXT(copy_pass, "pass %llu %s: %llu bytes in %llu.%03llu s\n")
/* one pass: the whole device (full) or what was written since the last;
 * the writes from here on land in the other pool */
static int pass(int full, const char *what)
{
	u64 t = mono_ns(), bytes = 0;
	u32 i;

	drain(0);
	K.pass = K.dirty;
	ext_init(&K.dirty, pool[K.pass.e == pool[0]], EXT_MAX, K.c0);
	if (full) {
		K.broken = NULL;
		ext_init(&K.pass, K.pass.e, EXT_MAX, K.c0);
		ext_add(&K.pass, 0, (K.size + 511) >> 9);
	}
	for (i = 0; i < K.pass.n; i++) {
		u64 s = K.pass.e[i].start << 9, e = K.pass.e[i].end << 9;

		e = e < K.size ? e : K.size;
		if (s < e && copy_range(s, e))
			return -1;
		bytes += s < e ? e - s : 0;
	}
	if (K.passes++)
		K.later += bytes;
	t = (mono_ns() - t) / 1000000;
	ob_printf(&K.out, TX(copy_pass), (unsigned long long)K.passes, what,
		  (unsigned long long)bytes, (unsigned long long)(t / 1000), (unsigned long long)(t % 1000));
	ob_flush(&K.out);
	return 0;
}

TEXT(copy_dst_is_not, "%s: %s: DST is not SRC's copy until a full pass has run")
/* a full pass if the log broke (the tracer started again if it ended),
 * else one over what was written, if anything was */
static int catch_up(const char *what)
{
	if (K.broken) {
		warn_text(U_copy_dst_is_not, K.src, K.broken);
		if (K.pfd < 0 && start_tracer())
			return -1;
		return pass(1, "full");
	}
	return K.dirty.n ? pass(0, what) : 0;
}

/* a read only the copier makes (3 blocks at SRC's start) seen through
 * the trace: every write done before it has been seen too */
static void marker(void)
{
	u32 m = K.marks;
	u64 until = mono_ms() + 10000;

	if (pread(K.sfd, buf, 3 * K.lbs, 0) < 0)
		K.broken = "SRC unreadable";
	while (K.marks == m && !K.broken && mono_ms() < until)
		drain(100);
	if (K.marks == m && !K.broken)
		K.broken = "the tracer did not answer";
}

static void on_stop(int sig)
{
	(void)sig;
	if (K.frz >= 0)
		ioctl(K.frz, K_FITHAW, 0);
	_exit(1);
}

TEXT(copy_the_passes_are_small, "%s: the passes are small: stop its writers, then press Enter "
	"(or send SIGUSR1)")
/* SRC quiet: frozen, or the user's word (Enter, SIGUSR1), meanwhile
 * passes over its writes as they come */
static int quiesce(void)
{
	char c[64];

	if (K.freeze) {
		signal(SIGINT, on_stop);
		signal(SIGTERM, on_stop);
		if ((K.frz = open(K.freeze, O_RDONLY)) < 0 || ioctl(K.frz, K_FIFREEZE, 0)) {
			warn_msg("%s: cannot freeze it: %s", K.freeze, strerror(errno));
			close(K.frz);
			return K.frz = -1;
		}
		note_msg("%s: frozen", K.freeze);
		return 0;
	}
	note_msg(TX(copy_the_passes_are_small), K.src);
	while (!quiet) {
		struct pollfd pf = { K.enter ? -1 : 0, POLLIN, 0 };
		ssize_t n;

		if (poll(&pf, 1, 200) > 0) {
			if ((n = read(0, c, sizeof(c))) <= 0)
				K.enter = 1;	/* no Enter will come: SIGUSR1 */
			else if (memchr(c, '\n', (size_t)n))
				quiet = 1;
		}
		drain(0);
		if (catch_up("catching up"))
			return -1;
	}
	return 0;
}

static int copy_run(void)
{
	u32 n;

	if (start_tracer() || pass(1, "full"))
		return -1;
	for (n = 0; K.broken || (ext_sectors(&K.dirty) << 9 > SMALL && n < 16); n++)
		if (catch_up("writes since"))
			return -1;
	if (quiesce())
		return -1;
	for (;;) {	/* SRC quiet: until two markers found nothing written */
		if (K.broken)	/* a full pass is then the copy */
			return catch_up(NULL);
		marker();
		marker();
		if (!K.broken && !K.dirty.n)
			return 0;
		if (!K.broken && pass(0, "last"))
			return -1;
	}
}

/* ---- the devices, refused before a byte is written ---- */

static u32 kdev_of(const struct stat *st)
{
	return (u32)(major(st->st_rdev) << 20 | minor(st->st_rdev));
}

/* a device's disk and first sector on it */
static u64 span(u32 dev, u32 *disk)
{
	u64 s = 0;

	*disk = dev;
	if (sys_partition(dev, disk) == 1)
		sys_u64f(&s, "/sys/dev/block/%u:%u/start", DEV_MAJOR(dev), DEV_MINOR(dev));
	return s;
}

static int refuse(const char *why, const char *dev)
{
	warn_msg("%s: %s; nothing written", dev, why);
	return -1;
}

/* SRC opened, its device, first sector on its disk, bytes, block size */
static int src_open(struct stat *a, u32 *disk)
{
	int l = 512;

	if ((K.sfd = open(K.src, O_RDONLY | O_DIRECT)) < 0 || fstat(K.sfd, a) || !S_ISBLK(a->st_mode))
		return refuse(K.sfd < 0 ? strerror(errno) : "not a block device", K.src);
	K.kdev = kdev_of(a);
	K.start = span(K.kdev, disk);
	ioctl(K.sfd, K_BLKGETSIZE64, &K.size);
	ioctl(K.sfd, K_BLKSSZGET, &l);
	K.lbs = (u32)l;
	return 0;
}

static int open_devs(void)
{
	struct stat a, b;
	u64 dsize = 0, ds;
	u32 sd, dd;
	int l = 512;

	if (src_open(&a, &sd))
		return -1;
	if (stat(K.dst, &b) || !S_ISBLK(b.st_mode))
		return refuse("not a block device", K.dst);
	if (a.st_rdev == b.st_rdev)
		return refuse("SRC and DST are the same device", K.dst);
	if ((K.dfd = open(K.dst, O_RDWR | O_DIRECT | O_EXCL)) < 0)
		return refuse(errno == EBUSY ? "in use (mounted?)" : strerror(errno), K.dst);
	ioctl(K.dfd, K_BLKGETSIZE64, &dsize);
	if (dsize < K.size)
		return refuse("smaller than SRC", K.dst);
	ds = span(kdev_of(&b), &dd);
	if (sd == dd && K.start < ds + (dsize >> 9) && ds < K.start + (K.size >> 9))
		return refuse("SRC and DST overlap on one disk", K.dst);
	ioctl(K.dfd, K_BLKSSZGET, &l);
	/* copies in pairs of blocks, so the marker's three are its own */
	K.c0 = 2 * ((u32)l > K.lbs ? (u32)l : K.lbs) >> 9;
	return 0;
}

TEXT(copy_equals, "%s equals %s after %llu passes: %llu bytes copied after the first, "
	"against %llu for a second full pass\n")
int copy_main(int argc, char **argv)
{
	static const struct lopt lo[] = { { "freeze", 1, 0, 'f' }, { "tracer", 1, 0, 't' }, { NULL, 0, 0, 0 } };
	struct stat st;
	u32 d;
	int c;

	while ((c = opt_get(argc, argv, "", lo)) != -1) {
		if (c == 't') {	/* the tracer copy runs */
			K.src = opt_arg;
			return src_open(&st, &d) ? 1 : tracer_main();
		}
		if (c != 'f')
			return usage_put(2, U_copy), 1;
		K.freeze = opt_arg;
	}
	if (argc - opt_ind != 2)
		return usage_put(2, U_copy), 1;
	K.src = argv[opt_ind], K.dst = argv[opt_ind + 1];
	K.frz = K.pfd = -1;
	ob_init(&K.out, 1, "stdout", K.outbuf, sizeof(K.outbuf));
	if (open_devs())
		return 1;
	ext_init(&K.dirty, pool[0], EXT_MAX, K.c0);
	signal(SIGUSR1, on_usr1);
	c = copy_run();
	if (K.frz >= 0 && ioctl(K.frz, K_FITHAW, 0))
		warn_msg("%s: cannot thaw it: %s", K.freeze, strerror(errno));
	if (K.tracer)
		kill(K.tracer, SIGTERM), waitpid(K.tracer, NULL, 0);
	if (!c && fsync(K.dfd))
		c = -1, warn_msg("%s: %s", K.dst, strerror(errno));
	if (!c)
		ob_printf(&K.out, TX(copy_equals), K.dst, K.src, (unsigned long long)K.passes, (unsigned long long)K.later,
			  (unsigned long long)K.size);
	return ob_close(&K.out) || c ? 1 : 0;
}
