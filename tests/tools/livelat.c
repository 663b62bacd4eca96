/* livelat: the guest's side of make bench VM=1's live measures (static,
 * built by tests/tools/bench-vm.sh, run by tests/vm/bench.sh).
 *
 *   livelat write DEV N MS SECTOR   N O_DIRECT 4 KiB writes, one every MS ms,
 *                                   to SECTOR, SECTOR+8, ...; prints
 *                                   "SECTOR NS" (CLOCK_MONOTONIC) as each
 *                                   write returns (its I/O is complete then)
 *   livelat stamp [CMD ARG...]      prints "NS LINE" for each line of stdin
 *                                   (or of CMD's stdout, a pty: CMD sees a
 *                                   terminal and its stdio line-buffers), NS
 *                                   read as the read() that brought the
 *                                   line's newline returned
 *   livelat now                     prints the clock (NS)
 *   livelat randw DEV SECS THREADS  4 KiB O_DIRECT writes to random blocks
 *                                   from THREADS threads for SECS seconds
 *                                   (iogen has no write-only random mode) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static uint64_t now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + t.tv_nsec;
}

static int writes(const char *dev, int n, int ms, uint64_t sector)
{
	int fd = open(dev, O_WRONLY | O_DIRECT), i;
	struct timespec at;
	void *buf;

	if (fd < 0 || posix_memalign(&buf, 4096, 4096)) {
		perror(dev);
		return 1;
	}
	memset(buf, 0x5a, 4096);
	clock_gettime(CLOCK_MONOTONIC, &at);
	for (i = 0; i < n; i++) {
		uint64_t s = sector + 8 * (uint64_t)i, t;

		if (pwrite(fd, buf, 4096, s * 512) != 4096) {
			perror("pwrite");
			return 1;
		}
		t = now();
		printf("%llu %llu\n", (unsigned long long)s, (unsigned long long)t);
		fflush(stdout);
		at.tv_nsec += ms * 1000000L;	/* paced from the start, not from each return */
		while (at.tv_nsec >= 1000000000L) {
			at.tv_nsec -= 1000000000L;
			at.tv_sec++;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, 0) == EINTR)
			;
	}
	return 0;
}

static int stamp(char **cmd)
{
	static char buf[1 << 16], line[1 << 12];
	size_t len = 0;
	int fd = 0, pid = -1, st;
	ssize_t n;

	if (cmd[0]) {	/* CMD's stdout on a raw pty (no \r added), stdin ours */
		struct termios tio;
		int s;

		if ((fd = posix_openpt(O_RDWR | O_NOCTTY)) < 0 || grantpt(fd) || unlockpt(fd) ||
		    (s = open(ptsname(fd), O_RDWR | O_NOCTTY)) < 0) {
			perror("pty (is devpts mounted on /dev/pts?)");
			return 1;
		}
		tcgetattr(s, &tio);
		cfmakeraw(&tio);
		tcsetattr(s, TCSANOW, &tio);
		if ((pid = fork()) == 0) {
			dup2(s, 1);
			close(s);
			close(fd);
			execvp(cmd[0], cmd);
			perror(cmd[0]);
			_exit(127);
		}
		close(s);
	}
	/* (a pty's master reads EIO once the slave's last holder is gone) */
	while ((n = read(fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)) {
		uint64_t t = now();
		ssize_t i;

		for (i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (len < sizeof line - 1)
					line[len++] = buf[i];
				continue;
			}
			line[len] = 0;
			printf("%llu %s\n", (unsigned long long)t, line);
			len = 0;
		}
	}
	if (len) {
		line[len] = 0;
		printf("%llu %s\n", (unsigned long long)now(), line);
	}
	if (pid > 0)
		waitpid(pid, &st, 0);
	return fflush(stdout) != 0;
}

static const char *rdev;
static int rsecs;
static uint64_t rblocks;

static void *randw(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg * 2654435761u;
	int fd = open(rdev, O_WRONLY | O_DIRECT);
	uint64_t end = now() + (uint64_t)rsecs * 1000000000u;
	void *buf;

	if (fd < 0 || posix_memalign(&buf, 4096, 4096)) {
		perror(rdev);
		return 0;
	}
	memset(buf, 0xab, 4096);
	while (now() < end) {
		uint64_t r = ((uint64_t)rand_r(&seed) << 31 | rand_r(&seed)) % rblocks;

		pwrite(fd, buf, 4096, r * 4096);
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "write"))
		return writes(argv[2], atoi(argv[3]), atoi(argv[4]), strtoull(argv[5], 0, 10));
	if (argc == 2 && !strcmp(argv[1], "now"))
		return printf("%llu\n", (unsigned long long)now()) < 0;
	if (argc >= 2 && !strcmp(argv[1], "stamp"))
		return stamp(argv + 2);
	if (argc == 5 && !strcmp(argv[1], "randw")) {
		pthread_t th[64];
		uint64_t size;
		int n = atoi(argv[4]), i, fd;

		rdev = argv[2];
		rsecs = atoi(argv[3]);
		fd = open(rdev, O_RDONLY);
		if (fd < 0 || ioctl(fd, BLKGETSIZE64, &size)) {
			perror(rdev);
			return 1;
		}
		close(fd);
		rblocks = size / 4096;
		for (i = 0; i < n && i < 64; i++)
			pthread_create(&th[i], 0, randw, (void *)(uintptr_t)(i + 1));
		for (i = 0; i < n && i < 64; i++)
			pthread_join(th[i], 0);
		return 0;
	}
	fprintf(stderr, "usage: livelat write DEV N MS SECTOR | stamp [CMD ARG...] | now | randw DEV SECS THREADS\n");
	return 2;
}
