/* output/btreplay.c: driver: btreplay: btrecord's timed bunches issued again on the devices, O_DIRECT through Linux AIO */
//applet: btreplay btreplay replay_main
//sources: capture/sys.c
//readme: btreplay 1.2.0: Linux AIO without libaio or a heap; any block size, true flushes, set write data | btreplay.8
/* btreplay: DEV.BASE.N for N = 0 up to the first missing, either byte
 * order, each read through first (damage, block size, device end), then
 * one process per file, pinned to CPU N modulo -c, submits each bunch at
 * its time through its own Linux AIO context (raw system calls) on the
 * device opened O_DIRECT.  A 0-byte I/O is a flush: fdatasync.  No heap:
 * fixed iocbs; reads share one buffer, writes (-W) another, patterned. */
#define _GNU_SOURCE	/* O_DIRECT, for glibc's headers too */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "capture/capture.h"

USAGE(replay,
"usage: btreplay [-c CPUS] [-d DIR] [-F] [-i BASE] [-I N] [-M FILE] [-N] [-v] [-V] [-W] [-x N] DEV...\n"
"\n"
"Issues the I/Os of btrecord's DEV.BASE.N files again on /dev/DEV, timed.\n"
"\n"
" -c, --cpus CPUS              file N's I/Os from CPU N modulo CPUS (default: all)\n"
" -d, --input-directory DIR    where the files are (default .)\n"
" -F, --find-records           every DEV with a .BASE. file in -d's folder\n"
" -h, --help                   this text\n"
" -i, --input-base BASE        the files' middle name (default replay)\n"
" -I, --iterations N           replay N times (default 1)\n"
" -M, --map-devs FILE          lines \"FROM TO\": replay FROM's I/Os on /dev/TO\n"
" -N, --no-stalls              no waiting between bunches\n"
" -v, --verbose                the files, the iterations, a summary per file\n"
" -V, --version                the version\n"
" -W, --write-enable           write where the trace wrote (else read there)\n"
" -x, --acc-factor N           N times as fast (default 1)\n")

#define BT_VERSION 0x010000
#define BT_MAX_PKTS 512
#define PKT_LEN 24		/* u64 sector, u64 bytes, u32 rw, 4 bytes padding */
struct rfile { u16 dev, cpu; u8 empty; };
struct rd {			/* one file being read */
	int fd, sw;
	u64 off, n, time;	/* the bunch's byte offset, I/Os, time */
	const char *name;
};

static struct {
	const char *idir, *ibase;
	u64 acc, genesis, rgenesis, wmax;
	int cpus, iters, verbose, write, nostall, find;
	u16 ndevs, nfiles, names_len, map_len;
	struct { const char *to; int fd; u32 lbs; u64 size; u16 name; } dev[BTREPLAY_DEVS];
	struct rfile file[BTREPLAY_FILES];
	char names[BTREPLAY_NAMES], map[BTREPLAY_MAP];
	/* the replaying process's */
	char fname[PATH_LEN];
	unsigned long ctx;
	u32 nfree, nlist, out;
	u64 reads, writes, flushes, fails, late;
	u16 freel[BTREPLAY_AIOS];
	u64 at[BTREPLAY_AIOS];	/* each iocb's packet's byte offset in the file */
	struct k_iocb iocb[BTREPLAY_AIOS], *list[BTREPLAY_AIOS];
	struct k_event ev[BTREPLAY_AIOS];
	u8 raw[16 + BT_MAX_PKTS * PKT_LEN];
} P;
/* reads all land in one buffer, writes all come from the other */
static _Alignas(4096) u8 rbuf[BTREPLAY_IO_MAX], wbuf[BTREPLAY_IO_MAX];

static u64 ld64(const u8 *p, int sw) { u64 v; memcpy(&v, p, 8); return sw ? __builtin_bswap64(v) : v; }
static u32 ld32(const u8 *p, int sw) { u32 v; memcpy(&v, p, 4); return sw ? __builtin_bswap32(v) : v; }

/* read n bytes, fewer only at the end: the count, or -1 */
static long read_full(int fd, u8 *p, u64 n)
{
	long got = 0, r = 1;

	while ((u64)got < n && (r = read(fd, p + got, n - (u64)got)) > 0)
		got += r;
	return r < 0 ? -1 : got;
}

static const char *dev_name(u16 d) { return P.names + P.dev[d].name; }

static void file_name(char *buf, const struct rfile *f)
{
	sfmt(buf, PATH_LEN, "%s/%s.%s.%u", P.idir, dev_name(f->dev), P.ibase, f->cpu);
}

TEXT(btreplay_a_bunch_of, "%s: a bunch of %llu I/Os at byte %llu")
TEXT(btreplay_truncated_bunch_at, "%s: truncated bunch at byte %llu")
/* The next bunch into P.raw: 1, 0 at the file's end, -1 damaged (said) */
static int next_bunch(struct rd *r)
{
	long n = read_full(r->fd, P.raw, 16);
	u64 len;

	if (!n)
		return 0;
	if (n == 16) {
		r->n = ld64(P.raw, r->sw);
		r->time = ld64(P.raw + 8, r->sw);
		if (r->n < 1 || r->n > BT_MAX_PKTS)
			return warn_text(U_btreplay_a_bunch_of, r->name,
					(unsigned long long)r->n, (unsigned long long)r->off), -1;
		len = r->n * PKT_LEN;
		n = read_full(r->fd, P.raw + 16, len);
		if (n == (long)len) {
			r->off += 16 + len;
			return 1;
		}
	}
	return (n < 0 ? err_sys(r->name) : warn_text(U_btreplay_truncated_bunch_at, r->name, (unsigned long long)r->off)), -1;
}

TEXT(btreplay_version_x_at, "%s: version 0x%llx at byte 0, not btrecord's 0x10000")
TEXT(btreplay_truncated_header_at, "%s: truncated header at byte 0 (%ld of 32 bytes)")
/* open f and check its header: the fd (r->fd), 0 for an empty file, -1 */
static int open_file(struct rd *r, struct rfile *f, char *name)
{
	u8 h[32];
	long n;
	u64 v;

	file_name(name, f);
	r->name = name;
	r->off = 32;
	r->fd = open(name, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0)
		return err_sys(name), -1;
	n = read_full(r->fd, h, 32);
	if (n == 32) {
		v = ld64(h, 0);
		r->sw = v != BT_VERSION;
		if (v == BT_VERSION || __builtin_bswap64(v) == BT_VERSION)
			return 1;
		if (__builtin_bswap64(v) < v)	/* the same number on every host */
			v = __builtin_bswap64(v);
		warn_text(U_btreplay_version_x_at, name, (unsigned long long)v);
	} else if (n > 0)
		warn_text(U_btreplay_truncated_header_at, name, n);
	else if (!n)
		return 0;
	else
		err_sys(name);
	close(r->fd);
	return -1;
}

TEXT(btreplay_the_i_o, "%s: the I/O at byte %llu (sector %llu, %llu bytes): %s /dev/%s "
	"(%u-byte blocks, %llu bytes)")
/* One packet checked against its device: 0, or -1 (said) */
static int check_pkt(struct rd *r, const u8 *p, u64 at, u16 d)
{
	u64 sector = ld64(p, r->sw), nb = ld64(p + 8, r->sw), size = P.dev[d].size;
	u32 rw = ld32(p + 16, r->sw), lbs = P.dev[d].lbs;
	const char *why = 0;

	if (rw > 1)
		why = "a direction not 0 (write) or 1 (read) for";
	else if (nb > BTREPLAY_IO_MAX)
		why = "larger than BTREPLAY_IO_MAX for";
	else if (sector > size / 512 || nb > size - sector * 512)
		why = "past the end of";
	else if ((sector * 512 | nb) % lbs)
		why = "not in whole logical blocks of";
	if (why)
		return warn_text(U_btreplay_the_i_o,
				r->name, (unsigned long long)at, (unsigned long long)sector, (unsigned long long)nb,
				why, P.dev[d].to, lbs, (unsigned long long)size), -1;
	if (!rw && nb > P.wmax)
		P.wmax = nb;
	return 0;
}

/* The first pass over a file: its header, every bunch and I/O */
static COLD int scan_file(struct rfile *f)
{
	char name[PATH_LEN];
	struct rd r;
	int rc = open_file(&r, f, name);
	u64 first = 0, i;

	if (rc <= 0) {
		f->empty = 1;
		if (!rc && P.verbose)
			warn_msg("%s empty", name);
		return rc;
	}
	while ((rc = next_bunch(&r)) > 0) {
		u64 at = r.off - r.n * PKT_LEN;

		if (!first++ && r.time < P.genesis)
			P.genesis = r.time;
		for (rc = 0, i = 0; i < r.n && !rc; i++)
			rc = check_pkt(&r, P.raw + 16 + i * PKT_LEN, at + i * PKT_LEN, f->dev);
		if (rc)
			break;
	}
	close(r.fd);
	f->empty = !first;
	if (!rc && P.verbose)
		warn_msg("Added %s %llu bunches", name, (unsigned long long)first);
	return rc;
}

TEXT(btreplay_the_i_o2, "%s: the I/O at byte %llu (sector %llu, %llu bytes, %s) failed: "
	"%s")
static void io_failed(u32 slot, long err)
{
	struct k_iocb *io = &P.iocb[slot];

	if (!P.fails++)
		warn_text(U_btreplay_the_i_o2, P.fname,
			 (unsigned long long)P.at[slot], (unsigned long long)(io->offset / 512),
			 (unsigned long long)io->nbytes, io->opcode ? "write" : "read",
			 err ? strerror((int)err) : "short");
}

/* completions: at least min of them (no more than are out) */
static void reap(u32 min)
{
	long n, i;

	if (!P.out)
		return;
	if (min > P.out)
		min = P.out;
	do
		n = syscall(SYS_io_getevents, P.ctx, (long)min, (long)BTREPLAY_AIOS, P.ev, (void *)0);
	while (n < 0 && errno == EINTR);
	if (n < 0)	/* what is out is lost: said, and not waited for again */
		err_sys("io_getevents"), P.fails += P.out, P.out = 0;
	for (i = 0; i < n; i++) {
		u32 slot = (u32)P.ev[i].data;

		if (P.ev[i].res != (s64)P.iocb[slot].nbytes)
			io_failed(slot, P.ev[i].res < 0 ? -P.ev[i].res : 0);
		P.freel[P.nfree++] = (u16)slot;
		P.out--;
	}
}

/* the iocbs prepared, submitted in their order */
static void submit(void)
{
	u32 done = 0;

	while (done < P.nlist) {
		long n = syscall(SYS_io_submit, P.ctx, (long)(P.nlist - done), P.list + done);

		if (n > 0) {
			done += (u32)n;
			P.out += (u32)n;
		} else if (n < 0 && (errno == EAGAIN || errno == EINTR) && P.out) {
			reap(1);
		} else {	/* the first one refused: it fails, the rest go on */
			u32 slot = (u32)P.list[done]->data;

			io_failed(slot, n < 0 ? errno : EIO);
			P.freel[P.nfree++] = (u16)slot;
			done++;
		}
	}
	P.nlist = 0;
}

TEXT(btreplay_the_flush_at, "%s: the flush at byte %llu: %s")
/* One packet: an iocb prepared, or a flush done (after what came before) */
static void issue(const u8 *p, int sw, u64 at, int fd)
{
	u64 nb = ld64(p + 8, sw);
	u32 rw = ld32(p + 16, sw), slot;
	struct k_iocb *io;

	if (!nb) {
		if (!P.write)
			return;
		submit();
		if (fdatasync(fd))
			warn_text(U_btreplay_the_flush_at, P.fname, (unsigned long long)at, strerror(errno)), P.fails++;
		P.flushes++;
		return;
	}
	if (!P.nfree) {
		submit();
		reap(1);
	}
	slot = P.freel[--P.nfree];
	io = &P.iocb[slot];
	memset(io, 0, sizeof(*io));
	io->data = slot;
	io->opcode = !rw && P.write;
	io->fd = (u32)fd;
	io->buf = (u64)(uintptr_t)(io->opcode ? wbuf : rbuf);
	io->nbytes = nb;
	io->offset = ld64(p, sw) * 512;
	P.at[slot] = at;
	*(io->opcode ? &P.writes : &P.reads) += 1;
	if (!P.ctx) {	/* no AIO in this kernel: the I/O now */
		long n = io->opcode ? pwrite(fd, wbuf, nb, (off_t)io->offset) : pread(fd, rbuf, nb, (off_t)io->offset);

		if (n != (long)nb)
			io_failed(slot, n < 0 ? errno : 0);
		P.freel[P.nfree++] = (u16)slot;
		return;
	}
	P.list[P.nlist++] = io;
}

/* Wait for the bunch's time; how late it is counted */
static void stall(u64 t)
{
	u64 due = P.rgenesis + (t > P.genesis ? t - P.genesis : 0) / P.acc, now = mono_ns();
	struct timespec ts = { (time_t)(due / 1000000000), (long)(due % 1000000000) };

	if (now >= due && now - due > P.late)
		P.late = now - due;
	while (now < due && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, 0) == EINTR)
		;
}

static void pin(int cpu)
{
	u64 set[16] = { 0 };	/* the kernel's cpumask: longs, a u64 two on 32-bit LE */

	set[cpu / 64 % 16] = 1ull << cpu % 64;
	if (syscall(SYS_sched_setaffinity, 0, sizeof(set), set))
		warn_msg("%s: CPU %d: %s; not pinned", P.fname, cpu, strerror(errno));
}

TEXT(btreplay_reads_writes_flushe, "%s: %llu reads, %llu writes, %llu flushes; at most %llu us late")
/* One file's iteration: its exit status */
static int replay_file(struct rfile *f)
{
	struct rd r;
	int rc, fd = P.dev[f->dev].fd;
	u64 i;

	if (open_file(&r, f, P.fname) <= 0)
		return 1;
	pin(f->cpu % P.cpus);
	if (syscall(SYS_io_setup, (long)BTREPLAY_AIOS, &P.ctx)) {
		if (errno != ENOSYS)
			return err_sys("io_setup"), 2;
		P.ctx = 0;	/* a kernel without AIO (CONFIG_AIO=n, qemu-user) */
		note_msg("%s: no Linux AIO: one I/O at a time", P.fname);
	}
	for (i = 0; i < BTREPLAY_AIOS; i++)
		P.freel[i] = (u16)i;
	P.nfree = BTREPLAY_AIOS;
	while ((rc = next_bunch(&r)) > 0) {
		u64 at = r.off - r.n * PKT_LEN;

		if (!P.nostall)
			stall(r.time);
		for (i = 0; i < r.n; i++)
			issue(P.raw + 16 + i * PKT_LEN, r.sw, at + i * PKT_LEN, fd);
		submit();
		reap(0);
	}
	while (P.out)
		reap(P.out);
	if (P.ctx)
		syscall(SYS_io_destroy, P.ctx);
	if (P.fails > 1)
		warn_msg("%s: %llu I/Os failed", P.fname, (unsigned long long)P.fails);
	if (P.verbose)
		warn_text(U_btreplay_reads_writes_flushe, P.fname,
			 (unsigned long long)P.reads, (unsigned long long)P.writes,
			 (unsigned long long)P.flushes, (unsigned long long)(P.late / 1000));
	return rc < 0 ? 1 : P.fails ? 2 : 0;
}

/* Every iteration: a process per file, all from one start time */
static COLD int replay_all(void)
{
	int it, rc = 0, st;
	u16 i;

	for (it = 0; it < P.iters && !rc; it++) {
		P.rgenesis = mono_ns();
		if (P.verbose && write(2, "I", 1) < 0)
			rc = 2;
		for (i = 0; i < P.nfiles && !rc; i++) {
			pid_t pid = P.file[i].empty ? 1 : fork();

			if (!pid)
				_exit(replay_file(&P.file[i]));
			if (pid < 0)
				err_sys("fork"), rc = 2;
		}
		while (wait(&st) > 0) {	/* the worst status */
			int s = WIFEXITED(st) ? WEXITSTATUS(st) : 2;

			if (s > rc)
				rc = s;
		}
	}
	if (P.verbose && write(2, "\n", 1) < 0)
		rc = 2;
	return rc;
}

TEXT(btreplay_without_the_device, "%s: \"%s\" without the device to map it to at byte %ld")
TEXT(btreplay_more_maps_than, "%s: more maps than BTREPLAY_MAP keeps")
/* -M FILE: its words, after any earlier file's, each ended by a NUL;
 * they pair up, FROM TO */
static COLD int read_map(const char *file)
{
	char *m = P.map + P.map_len;
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	long n = fd < 0 ? -1 : read_full(fd, (u8 *)m, BTREPLAY_MAP - 1u - P.map_len), i, last = 0, w = 0;

	if (fd >= 0)
		close(fd);
	if (n < 0)
		return err_sys(file), -1;
	if (n == BTREPLAY_MAP - 1 - P.map_len)
		return warn_text(U_btreplay_more_maps_than, file), -1;
	for (i = 0; i < n; i++)
		if ((u8)m[i] <= ' ')
			m[i] = 0;
		else if (!i || !m[i - 1])
			w++, last = i;
	if (w & 1)
		return warn_text(U_btreplay_without_the_device, file, m + last, last), -1;
	P.map_len = (u16)(P.map_len + n + 1);
	return 0;
}

/* The device a recorded one is replayed on: /dev/NAME, NAME mapped by -M
 * (the first map of it wins) and each _ in it a / */
static COLD int open_dev(u16 d)
{
	const char *nm = dev_name(d), *w, *from = 0;
	char path[PATH_LEN], *p;
	int lbs = 0, fd;

	for (w = P.map; w < P.map + P.map_len; w++) {
		if (!*w || (w > P.map && w[-1]))
			continue;	/* not a word's start */
		if (!from)
			from = w;
		else if (!strcmp(from, nm)) {
			nm = w;
			break;
		} else
			from = 0;
	}
	sfmt(path, sizeof(path), "/dev/%s", nm);
	for (p = path + 5; *p; p++)
		if (*p == '_')
			*p = '/';
	fd = open(path, (P.write ? O_RDWR : O_RDONLY) | O_DIRECT);
	if (fd < 0 || ioctl(fd, K_BLKSSZGET, &lbs) || ioctl(fd, K_BLKGETSIZE64, &P.dev[d].size) || lbs < 512)
		return err_sys(path), -1;
	P.dev[d].fd = fd, P.dev[d].to = nm, P.dev[d].lbs = (u32)lbs;
	return 0;
}

TEXT(btreplay_more_devices_than, "more devices than BTREPLAY_DEVS or their names than "
	"BTREPLAY_NAMES keep")
static COLD int add_dev(const char *name, size_t len)
{
	u16 i;

	for (i = 0; i < P.ndevs; i++)
		if (!strncmp(dev_name(i), name, len) && !dev_name(i)[len])
			return 0;
	if (P.ndevs == BTREPLAY_DEVS || P.names_len + len + 1 > BTREPLAY_NAMES)
		return warn_text(U_btreplay_more_devices_than), -1;
	memcpy(P.names + P.names_len, name, len);
	P.names[P.names_len + len] = 0;
	P.dev[P.ndevs++].name = P.names_len;
	P.names_len = (u16)(P.names_len + len + 1);
	return 0;
}

/* -F: a name with .BASE. in it names a device: up to its first dot */
static COLD long found(const char *dir, const char *name, void *arg)
{
	char mid[PATH_LEN];

	(void)dir, (void)arg;
	sfmt(mid, sizeof(mid), ".%s.", P.ibase);
	if (!str_find(name, mid))
		return 0;
	return add_dev(name, (size_t)(strchr(name, '.') - name)) ? 1 : 0;
}

TEXT(btreplay_more_files_than, "%s: more files than BTREPLAY_FILES")
/* A device's files, N = 0 up to the first missing, each checked */
static COLD int add_files(u16 d)
{
	struct rfile *f;
	char name[PATH_LEN];
	u16 cpu;

	for (cpu = 0;; cpu++) {
		f = &P.file[P.nfiles];
		f->dev = d;
		f->cpu = cpu;
		file_name(name, f);
		if (access(name, F_OK))
			break;
		if (P.nfiles == BTREPLAY_FILES)
			return warn_text(U_btreplay_more_files_than, name), -1;
		if ((!cpu && open_dev(d)) || scan_file(f))
			return -1;
		P.nfiles++;
	}
	if (!cpu)
		warn_msg("No traces found for %s", dev_name(d));
	return cpu ? 0 : -1;
}

static const struct lopt lo[] = {
	{ "cpus", 1, 0, 'c' }, { "input-directory", 1, 0, 'd' },
	{ "find-records", 0, 0, 'F' }, { "help", 0, 0, 'h' },
	{ "input-base", 1, 0, 'i' }, { "iterations", 1, 0, 'I' },
	{ "map-devs", 1, 0, 'M' }, { "no-stalls", 0, 0, 'N' },
	{ "acc-factor", 1, 0, 'x' }, { "verbose", 0, 0, 'v' },
	{ "version", 0, 0, 'V' }, { "write-enable", 0, 0, 'W' }, { 0, 0, 0, 0 }
};

/* a number from lo to hi, else said: -1 */
static COLD long num(const char *arg, long lo_, long hi, const char *what)
{
	char *e;
	u64 v = scan_u64(arg, &e, 10);

	if (*e || e == arg || v < (u64)lo_ || v > (u64)hi)
		return warn_msg("Invalid %s %s (%ld to %ld)", what, arg, lo_, hi), -1;
	return (long)v;
}

TEXT(btreplay_invalid_input_direc, "%s: %s: Invalid input directory specified")
/* 0 go on, else exit with status - 1 */
static COLD int option(int c, const char *arg)
{
	long v = 0;

	switch (c) {
	case 'c': v = P.cpus = (int)num(arg, 1, P.cpus, "number of cpus"); break;
	case 'd':
		if (access(arg, R_OK | X_OK))
			return warn_text(U_btreplay_invalid_input_direc, arg, strerror(errno)), 2;
		P.idir = arg;
		break;
	case 'F': P.find = 1; break;
	case 'h': usage_put(2, U_replay); return 1;
	case 'i': P.ibase = arg; break;
	case 'I': v = P.iters = (int)num(arg, 1, 1 << 30, "number of iterations"); break;
	case 'M': v = read_map(arg); break;
	case 'N': P.nostall = 1; break;
	case 'x': v = (long)(P.acc = (u64)num(arg, 1, 1 << 30, "acceleration factor")); break;
	case 'v': P.verbose++; break;
	case 'V': {	/* on stderr, as Debian's */
		char b[64];
		int n = sfmt(b, sizeof(b), "btreplay -- version 1.0.0, %s", iomon_version);

		return write(2, b, (size_t)n) < 0 ? 2 : 1;
	}
	case 'W': P.write = 1; break;
	default: usage_put(2, U_replay); return 2;
	}
	return v < 0 ? 2 : 0;
}

TEXT(btreplay_missing_required_in, "Missing required input dev name(s)")
int replay_main(int argc, char **argv)
{
	int c, rc;
	u16 d;

	P.idir = ".";
	P.ibase = "replay";
	P.iters = 1;
	P.acc = 1;
	P.cpus = sys_cpus("possible");
	P.genesis = ~0ull;
	while ((c = opt_get(argc, argv, "c:d:Fhi:I:M:Nx:vVW", lo)) != -1)
		if ((rc = option(c, opt_arg)))
			return rc - 1;
	for (; opt_ind < argc; opt_ind++)
		if (add_dev(argv[opt_ind], strlen(argv[opt_ind])))
			return 1;
	if (P.find && dir_each(P.idir, found, 0))
		return 1;
	if (!P.ndevs)
		return warn_text(U_btreplay_missing_required_in), 1;
	for (d = 0; d < P.ndevs; d++)
		if (add_files(d))
			return 1;
	for (c = 0; (u64)c < P.wmax; c++)	/* what every write carries */
		wbuf[c] = (u8)"btreplay (iomon)"[c & 15];
	return replay_all();
}
