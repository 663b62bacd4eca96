/* libc.c: bottom: the C library's functions iomon replaces by name, each smaller for what iomon asks of it */
/* Each of these takes the place of musl's by its own name, so every
 * caller keeps its call, and carries only what iomon needs: no locks
 * (one thread), no fallbacks for what iomon never does, no tables it
 * never reads.  Results are musl's wherever iomon can tell. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "iomon.h"

/* sigaction and signal straight to rt_sigaction: musl's bring its locks
 * for threads and abort(), and iomon has one thread.  The
 * handler is always called the SA_SIGINFO way, so the kernel always makes
 * an rt frame and musl's __restore_rt is always the way back (a one-int
 * handler ignores the two extra arguments on every ABI we build for).
 * The kernel's struct is the generic one on x86_64, s390x, arm and arm64.
 * (Built against glibc, as the fuzz targets are, glibc's own stay.) */
#ifndef __GLIBC__
struct ksigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	unsigned mask[2];
};
void __restore_rt(void);

int sigaction(int sig, const struct sigaction *restrict sa, struct sigaction *restrict old)
{
	struct ksigaction k, o;

	if (sa) {
		k.handler = sa->sa_handler;
		k.flags = (unsigned long)sa->sa_flags | SA_SIGINFO;
#ifdef SA_RESTORER
		k.flags |= SA_RESTORER;
#endif
		k.restorer = __restore_rt;
		memcpy(k.mask, &sa->sa_mask, sizeof(k.mask));
	}
	if (syscall(SYS_rt_sigaction, sig, sa ? &k : NULL, &o, sizeof(k.mask)))
		return -1;
	if (old) {
		memset(old, 0, sizeof(*old));
		old->sa_handler = o.handler;
		old->sa_flags = (int)o.flags;
	}
	return 0;
}

void (*signal(int sig, void (*fn)(int)))(int)
{
	struct sigaction sa = { .sa_handler = fn, .sa_flags = SA_RESTART }, old;

	return sigaction(sig, &sa, &old) ? SIG_ERR : old.sa_handler;
}

/* fork as the system call: musl's brings its atfork and lock machinery
 * (and with it the vDSO clock) for threads iomon does not have.  s390
 * takes clone's stack before its flags. */
pid_t fork(void)
{
#ifdef __s390x__
	return (pid_t)syscall(SYS_clone, 0, SIGCHLD, 0, 0, 0);
#else
	return (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
#endif
}
#endif

/* strerror for the errors iomon can meet, in musl's words: musl's own
 * carries all 130.  Each entry is the number as one byte, then
 * its text; the rest read "Unknown error N" as glibc's do.  The numbers
 * are those of x86, s390, arm and arm64 alike.  The build packs the texts
 * with the usage texts (USAGE, iomon.h). */
_Static_assert(ELOOP == 40 && EOPNOTSUPP == 95 && ETIMEDOUT == 110 && EDQUOT == 122, "errno numbering");
USAGE(errs,
	"\001" "Operation not permitted\0" "\002" "No such file or directory\0"
	"\003" "No such process\0" "\004" "Interrupted system call\0" "\005" "I/O error\0"
	"\006" "No such device or address\0" "\007" "Argument list too long\0"
	"\010" "Exec format error\0" "\011" "Bad file descriptor\0" "\012" "No child process\0"
	"\013" "Resource temporarily unavailable\0" "\014" "Out of memory\0"
	"\015" "Permission denied\0" "\016" "Bad address\0" "\017" "Block device required\0"
	"\020" "Resource busy\0" "\021" "File exists\0" "\022" "Cross-device link\0"
	"\023" "No such device\0" "\024" "Not a directory\0" "\025" "Is a directory\0"
	"\026" "Invalid argument\0" "\027" "Too many open files in system\0"
	"\030" "No file descriptors available\0" "\031" "Not a tty\0" "\032" "Text file busy\0"
	"\033" "File too large\0" "\034" "No space left on device\0" "\035" "Invalid seek\0"
	"\036" "Read-only file system\0" "\037" "Too many links\0" "\040" "Broken pipe\0"
	"\042" "Result not representable\0" "\044" "Filename too long\0"
	"\046" "Function not implemented\0" "\047" "Directory not empty\0"
	"\050" "Symbolic link loop\0" "\052" "No message of desired type\0"
	"\053" "Identifier removed\0" "\113" "Value too large for data type\0"
	"\137" "Not supported\0" "\141" "Address family not supported by protocol\0"
	"\142" "Address in use\0" "\143" "Address not available\0" "\145" "Network unreachable\0"
	"\147" "Connection aborted\0" "\150" "Connection reset by peer\0"
	"\151" "No buffer space available\0" "\153" "Socket not connected\0"
	"\156" "Operation timed out\0" "\157" "Connection refused\0" "\161" "Host is unreachable\0"
	"\172" "Quota exceeded\0")

char *strerror(int e)
{
	static char unknown[24];
	size_t n;
	const char *p = usage_text(U_errs, &n), *end = p + n;

	for (; p < end; p += strlen(p) + 1)
		if ((u8)*p == e)
			return (char *)p + 1;
	sfmt(unknown, sizeof(unknown), "Unknown error %d", e);
	return unknown;
}


/* The string functions iomon calls on short strings (names, options,
 * formats once, verify_blkparse's lines), as byte loops: musl's read a
 * word at a time and bring strchrnul, memrchr, stpcpy and tolower.  Same
 * results as musl's; they replace libc's by name. */
char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *r = NULL;

	do
		if (*s == (char)c)
			r = s;
	while (*s++);
	return (char *)r;
}

char *strcpy(char *d, const char *s)
{
	char *r = d;

	while ((*d++ = *s++))
		;
	return r;
}

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c | 32 : c;
}

static int casecmp(const unsigned char *l, const unsigned char *r, size_t n)
{
	if (!n--)
		return 0;
	for (; *l && *r && n && lower(*l) == lower(*r); l++, r++, n--)
		;
	return lower(*l) - lower(*r);
}

int strncasecmp(const char *a, const char *b, size_t n)
{
	return casecmp((const void *)a, (const void *)b, n);
}

int strcasecmp(const char *a, const char *b)
{
	return casecmp((const void *)a, (const void *)b, (size_t)-1);
}

void *memchr(const void *p, int c, size_t n)
{
	const unsigned char *s = p;

	for (; n; s++, n--)
		if (*s == (unsigned char)c)
			return (void *)s;
	return NULL;
}

/* atoi and atol as one (musl has a copy of each): options, pids,
 * tracefs's numbers; past its type a value wraps, as musl's does */
long atol(const char *s)
{
	unsigned long n = 0;
	int neg = 0;

	while (*s == ' ' || (unsigned)(*s - '\t') < 5)
		s++;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	while ((unsigned)(*s - '0') < 10)
		n = 10 * n + (unsigned)(*s++ - '0');
	return (long)(neg ? -n : n);
}

int atoi(const char *s)
{
	return (int)atol(s);
}

/* fchmod as the system call: musl's falls back to chmod on
 * /proc/self/fd/N for an O_PATH descriptor (bringing __procfdname), and
 * iomon only changes the mode of a file it has just opened for writing */
int fchmod(int fd, mode_t mode)
{
	return (int)syscall(SYS_fchmod, fd, mode);
}

#ifdef __x86_64__
/* stat, lstat and fstat as the system calls: on x86_64 the kernel's struct
 * stat is the C library's, field for field, and musl's fstatat, which the
 * three go through, converts it and carries fallbacks for old kernels.
 * Other architectures keep libc's. */
int stat(const char *path, struct stat *st)
{
	return (int)syscall(SYS_stat, path, st);
}

int lstat(const char *path, struct stat *st)
{
	return (int)syscall(SYS_lstat, path, st);
}

int fstat(int fd, struct stat *st)
{
	return (int)syscall(SYS_fstat, fd, st);
}
#endif
