/* The per-input reset described in fuzz.h, and the inputs' plumbing. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "output/output.h"
#include "fuzz.h"

extern char fuzz_bss_begin[], fuzz_bss_end[], fuzz_data_begin[], fuzz_data_end[];
static char *data_copy;
static size_t data_len;
static jmp_buf back;
static int active, inited;
static unsigned char fd_was_open[1024];
static int fd_max;	/* the highest fd open at start */
static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGPIPE, SIGCHLD };
static struct sigaction sig_was[sizeof(sigs) / sizeof(sigs[0])];
static char dir[64];
size_t fuzz_chunk;

/* Redzones between iomon's globals are poisoned for ASan: these stores
 * must not be checked, nor become a (checked) memset call. */
__attribute__((no_sanitize("address")))
static void reset_globals(void)
{
	volatile uint64_t *w = (volatile uint64_t *)fuzz_bss_begin;
	volatile char *p;
	size_t i;

	/* the markers are 8-aligned and 8 long: whole words, the last
	 * word the end marker's own */
	while ((char *)w < fuzz_bss_end)
		*w++ = 0;
	for (i = 0, p = fuzz_data_begin; i < data_len; i++)
		p[i] = data_copy[i];
}

__attribute__((no_sanitize("address")))
static void init(void)
{
	size_t i;
	int fd;

	data_len = (size_t)(fuzz_data_end - fuzz_data_begin);
	if ((uintptr_t)fuzz_bss_end <= (uintptr_t)fuzz_bss_begin ||
	    (uintptr_t)fuzz_data_end <= (uintptr_t)fuzz_data_begin) {
		fprintf(stderr, "fuzz: markers out of order: iomon's globals not bracketed\n");
		abort();
	}
	data_copy = mmap(NULL, data_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (data_copy == MAP_FAILED)
		abort();
	for (i = 0; i < data_len; i++)
		data_copy[i] = fuzz_data_begin[i];
	for (fd = 0; fd < (int)sizeof(fd_was_open); fd++)
		if ((fd_was_open[fd] = fcntl(fd, F_GETFD) >= 0))
			fd_max = fd;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], NULL, &sig_was[i]);
	inited = 1;
}

/* parse.c's fmt_fatal ends the applet here instead of the process. */
__attribute__((noreturn)) void fuzz_exit(int code)
{
	if (!active)
		_exit(code);
	longjmp(back, code ? code : 1);
}

ssize_t __real_read(int fd, void *buf, size_t n);
ssize_t __wrap_read(int fd, void *buf, size_t n)
{
	if (fuzz_chunk && n > fuzz_chunk)
		n = fuzz_chunk;
	return __real_read(fd, buf, n);
}

/* libFuzzer's -timeout is a SIGALRM handler; monitor takes SIGALRM to
 * stop, which would make a hang in it unseen.  It keeps libFuzzer's. */
typedef void (*sighandler_fn)(int);
sighandler_fn __real_signal(int sig, sighandler_fn fn);
sighandler_fn __wrap_signal(int sig, sighandler_fn fn)
{
	if (active && sig == SIGALRM)
		return SIG_DFL;
	return __real_signal(sig, fn);
}

size_t fuzz_chunk_pick(unsigned sel)
{
	static const size_t c[4] = { 0, 1, 48, 4097 };

	return c[sel & 3];
}

int fuzz_run(int (*main_fn)(int, char **), char **argv)
{
	volatile int rc;
	int argc = 0, fd;
	size_t i;

	if (!inited)
		init();
	while (argv[argc])
		argc++;
	reset_globals();
	active = 1;
	rc = setjmp(back);
	if (!rc)
		rc = main_fn(argc, argv);
	active = 0;
	fuzz_chunk = 0;
	for (fd = 3; fd <= fd_max; fd++)
		if (!fd_was_open[fd])
			close(fd);
	close_range((unsigned)fd_max + 1, ~0u, 0);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sig_was[i], NULL);
	return rc;
}

void fuzz_stdin(const uint8_t *p, size_t n)
{
	int fd = memfd_create("fuzz-input", 0);

	if (fd < 0 || (n && write(fd, p, n) != (ssize_t)n) || lseek(fd, 0, SEEK_SET) < 0) {
		perror("fuzz: memfd");
		abort();
	}
	if (fd != 0) {
		dup2(fd, 0);
		close(fd);
	}
}

static void cleanup(void)
{
	char path[128];
	int i;

	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/t.blktrace.%d", dir, i);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/p.prom", dir);
	unlink(path);
	rmdir(dir);
}

const char *fuzz_dir(void)
{
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "%s/iomon-fuzz-XXXXXX",
			 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
		if (!mkdtemp(dir)) {
			perror("fuzz: mkdtemp");
			abort();
		}
		atexit(cleanup);
	}
	return dir;
}

const char *fuzz_files(const uint8_t *p, size_t n, unsigned sel)
{
	static char name[96];
	int fd[4], i;
	size_t off = 0;
	struct rec r;

	snprintf(name, sizeof(name), "%s/t", fuzz_dir());
	for (i = 0; i < 4; i++) {
		char path[128];

		snprintf(path, sizeof(path), "%s.blktrace.%d", name, i);
		if ((fd[i] = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0) {
			perror(path);
			abort();
		}
	}
	for (;;) {
		int k = off < n ? rec_decode(p + off, n - off, &r) : 0;

		if (k <= 0)
			break;
		if (write(fd[r.cpu & 3], p + off, (size_t)k) != k)
			abort();
		off += (size_t)k;
	}
	if (off < n && write(fd[sel & 3], p + off, n - off) != (ssize_t)(n - off))
		abort();
	for (i = 0; i < 4; i++)
		close(fd[i]);
	return name;
}
