/* capture/sys.c: capture: small sysfs, procfs and tracefs reads and writes: device names, partitions, CPUs, task names */
/* Every small kernel file iomon reads or writes goes through here: a file
 * of a few bytes to a few KiB, read whole into a caller's buffer.  Reads
 * loop until EOF or a full buffer (a tracefs format file may come in
 * pieces; sysfs and procfs give everything at once, so for them this is
 * one read). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "capture/capture.h"

int sys_read(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int t = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	buf[0] = 0;
	if (fd < 0)
		return -1;
	while ((size_t)t < len - 1 && (n = read(fd, buf + t, len - 1 - (size_t)t)) != 0) {
		if (n < 0) {
			t = -2;
			break;
		}
		t += (int)n;
	}
	close(fd);
	buf[t > 0 ? t : 0] = 0;
	return t;
}

/* A path longer than PATH_LEN is not there (ENAMETOOLONG), never cut. */
static int sys_path(char *p, const char *fmt, va_list ap)
{
	if ((size_t)vfmt(p, PATH_LEN, fmt, ap) < PATH_LEN)
		return 0;
	errno = ENAMETOOLONG;
	return -1;
}

int sys_readf(char *buf, size_t len, const char *fmt, ...)
{
	char p[PATH_LEN];
	va_list ap;
	int bad;

	va_start(ap, fmt);
	bad = sys_path(p, fmt, ap);
	va_end(ap);
	if (bad) {
		buf[0] = 0;
		return -1;
	}
	return sys_read(p, buf, len);
}

/* A decimal number from the file; -1 (v untouched) when there is none. */
int sys_u64f(u64 *v, const char *fmt, ...)
{
	char p[PATH_LEN], buf[32];
	va_list ap;
	int bad;

	va_start(ap, fmt);
	bad = sys_path(p, fmt, ap);
	va_end(ap);
	if (bad || sys_read(p, buf, sizeof(buf)) <= 0)
		return -1;
	*v = scan_u64(buf, NULL, 10);
	return 0;
}

int sys_write(const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t n;
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = write(fd, val, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

/* The kernel's name for a device: /sys/dev/block/MAJ:MIN/uevent DEVNAME. */
int sys_devname(u32 dev, char *out, size_t len)
{
	char buf[512], *s, *e;

	if (sys_readf(buf, sizeof(buf), "/sys/dev/block/%u:%u/uevent", DEV_MAJOR(dev), DEV_MINOR(dev)) <= 0 ||
	    !(s = str_find(buf, "DEVNAME=")) || !(e = strchr(s, '\n')))
		return -1;
	*e = 0;
	sfmt(out, len, "%s", s + 8);
	return 0;
}

/* 1 when dev is a partition, its disk in *disk (left alone when sysfs
 * does not say); 0 when it is not. */
int sys_partition(u32 dev, u32 *disk)
{
	char buf[32], *colon;

	if (sys_readf(buf, sizeof(buf), "/sys/dev/block/%u:%u/partition", DEV_MAJOR(dev), DEV_MINOR(dev)) == -1)
		return 0;
	/* ../sda/sda1: the parent directory names the disk */
	if (sys_readf(buf, sizeof(buf), "/sys/dev/block/%u:%u/../dev", DEV_MAJOR(dev), DEV_MINOR(dev)) <= 0)
		return 1;
	colon = strchr(buf, ':');
	*disk = (u32)scan_u64(buf, NULL, 10) << 20 | (u32)scan_u64(colon ? colon + 1 : "0", NULL, 10);
	return 1;
}

/* A task's name as /proc has it now, without the newline; -1: gone. */
int sys_comm(u32 pid, char out[16])
{
	char buf[32];
	int n = sys_readf(buf, sizeof(buf), "/proc/%u/comm", pid);

	if (n <= 0)
		return -1;
	buf[n - (buf[n - 1] == '\n')] = 0;
	sfmt(out, 16, "%.15s", buf);
	return 0;
}

/* CPUs the kernel may number (WHICH "possible"; "present": those there
 * now): "0-3" or "0,2-5" in cpu/WHICH, the highest plus one. */
int sys_cpus(const char *which)
{
	char buf[64], *p = buf;
	int n = sys_readf(buf, sizeof(buf), "/sys/devices/system/cpu/%s", which);
	u64 hi = 0;

	if (n == -1) {
		/* what musl's sysconf(_SC_NPROCESSORS_CONF) answers, without
		 * sysconf's table: the CPUs this process may run on */
		u8 set[128] = { 1 };
		int i, cnt = 0;

		syscall(SYS_sched_getaffinity, 0, sizeof(set), set);
		for (i = 0; i < (int)sizeof(set); i++)
			for (; set[i]; set[i] &= (u8)(set[i] - 1))
				cnt++;
		return cnt;
	}
	if (n <= 0)
		return 1;
	while (*p) {
		u64 v = scan_u64(p, &p, 10);

		if (v > hi)
			hi = v;
		if (*p)
			p++;
	}
	return (int)hi + 1;
}

/* Files open at once: the limit raised to n where it is lower, the hard
 * one too where the process may (root: blktrace raises both when an open
 * fails), else the soft one as far as the hard one goes.  A capture keeps
 * a file of the kernel's and an output for every device and CPU: 16
 * devices on 64 CPUs pass the usual 1024.  (The system call: musl's
 * setrlimit brings its every-thread machinery.) */
void sys_fd_room(u64 n)
{
	struct rlimit r;
	u64 hard;

	if (!syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, &r) && r.rlim_cur < n) {
		hard = r.rlim_max;
		r.rlim_cur = n;
		if (hard < n)
			r.rlim_max = n;
		if (syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, &r, NULL) && hard < n) {
			r.rlim_cur = r.rlim_max = hard;
			syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, &r, NULL);
		}
	}
}

static long fd_points_at(const char *dir, const char *name, void *want)
{
	char p[96], link[PATH_LEN];
	ssize_t n;

	sfmt(p, sizeof(p), "%s/%s", dir, name);
	n = readlink(p, link, sizeof(link) - 1);
	if (n <= 0)
		return 0;
	link[n] = 0;
	return !strncmp(link, want, strlen(want));
}

static long pid_holds(const char *dir, const char *name, void *want)
{
	char p[64];

	(void)dir;
	if (name[0] < '1' || name[0] > '9' || atol(name) == (long)getpid())
		return 0;
	sfmt(p, sizeof(p), "/proc/%s/fd", name);
	return dir_each(p, fd_points_at, want) ? atol(name) : 0;
}

/* The pid of a live process other than this one with a file open whose
 * path starts with want (a device's relay files), else 0. */
long proc_holding(char *want)
{
	return dir_each("/proc", pid_holds, want);
}
