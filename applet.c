/* applet.c: one binary, many names.  `blkparse` (a symlink) runs the parser,
 * `iomon parse` does the same, and any name we do not know acts as the
 * multiplexer, so a renamed copy (iomon_unstripped, iomon-s390x) still works.
 * Errors from every applet are formatted here, in one place. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "iomon.h"

extern const char parse_usage[], trace_usage[], btrace_usage[], monitor_usage[], top_usage[];

/* generic: a name other tools own too (procps' top); --install makes its
 * link only with --all. */
static const struct applet {
	const char *name;
	int (*main)(int, char **);
	const char *usage;
	int generic;
} applets[] = {		/* sorted by name */
	{ "biotop", top_main, top_usage, 0 },
	{ "blkiomon", monitor_main, monitor_usage, 0 },
	{ "blkparse", parse_main, parse_usage, 0 },
	{ "blktrace", trace_main, trace_usage, 0 },
	{ "btrace", btrace_main, btrace_usage, 0 },
	{ "monitor", monitor_main, monitor_usage, 1 },
	{ "parse", parse_main, parse_usage, 1 },
	{ "top", top_main, top_usage, 1 },
	{ "trace", trace_main, trace_usage, 1 },
};
#define NAPPLETS (sizeof(applets) / sizeof(applets[0]))

const char *applet_name = "iomon";

static void vwarn(const char *fmt, va_list ap)
{
	char buf[768];
	int n = sfmt(buf, sizeof(buf) - 1, "%s: ", applet_name);

	n += vfmt(buf + n, sizeof(buf) - (size_t)n - 1, fmt, ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(2, buf, (size_t)n) < 0)
		return;		/* nowhere left to complain */
}

void warn_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

/* Notices (the backend chosen, the lockdown fallback, a stale trace
 * cleared) are not errors.  Under the original tools' names they stay
 * quiet, as the originals are: scripts such as IBM's ziomon abort on any
 * line their blktrace writes to stderr.  -v/--verbose turns them on. */
int quiet_notes;

void note_msg(const char *fmt, ...)
{
	va_list ap;

	if (quiet_notes)
		return;
	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

void err_sys(const char *what)
{
	warn_msg("%s: %s", what, strerror(errno));
}

/* Outputs are never written through a symlink someone else planted: iomon
 * runs as root in directories other users can write.  A link we own (such
 * as /dev/stdout, or one our user made) is followed, as the kernel's
 * protected_symlinks rule would. */
int open_out(const char *path, int mode)
{
	struct stat st;
	int fd, nofollow = O_NOFOLLOW;

	if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
		if (st.st_uid != geteuid()) {
			warn_msg("%s: a symbolic link owned by uid %u; not writing through it",
				 path, (unsigned)st.st_uid);
			return -1;
		}
		nofollow = 0;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | nofollow | O_CLOEXEC, mode);
	if (fd < 0)
		err_sys(path);
	return fd;
}

/* Directory entries without opendir(), which allocates: getdents64 into
 * a buffer on the stack.  fn returns non-zero to stop; that is returned. */
long dir_each(const char *dir, long (*fn)(const char *dir, const char *name, void *arg), void *arg)
{
	char buf[2048];
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long n, r = 0;

	if (fd < 0)
		return 0;
	while (!r && (n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		long off = 0;

		while (!r && off < n) {
			unsigned short reclen;

			memcpy(&reclen, buf + off + 16, 2);
			r = fn(dir, buf + off + 19, arg);
			off += reclen;
		}
	}
	close(fd);
	return r;
}

/* strtoull for bases 10 and 16, without libc's general scanner (2.7 KiB):
 * leading space, a sign (a minus wraps), 0x before hex digits; too large
 * saturates.  end, when given, is where the number stopped (s if none). */
u64 scan_u64(const char *s, char **end, int base)
{
	const char *p = s;
	u64 v = 0;
	int neg = 0, d, any = 0, over = 0;

	while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
		p++;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (base == 16 && *p == '0' && (p[1] | 32) == 'x' && isxdigit((unsigned char)p[2]))
		p += 2;
	for (;; p++, any = 1) {
		d = *p >= '0' && *p <= '9' ? *p - '0' : base == 16 && isxdigit((unsigned char)*p) ? (*p | 32) - 'a' + 10 : -1;
		if (d < 0)
			break;
		over |= v > (~(u64)0 - (u64)d) / (u64)base;
		v = v * (u64)base + (u64)d;
	}
	if (end)
		*end = (char *)(any ? p : s);
	return over ? ~(u64)0 : neg ? -v : v;
}

/* strstr for our short needles in short texts: musl's two-way search
 * costs 1.2 KiB. */
char *str_find(const char *h, const char *n)
{
	size_t k = strlen(n);

	for (; *h; h++)
		if (!strncmp(h, n, k))
			return (char *)h;
	return *n ? NULL : (char *)h;
}

/* ---- options: musl's getopt (opts NULL) and getopt_long (argv permuted,
 * operands last; unique prefixes of long names), with its messages but
 * through warn_msg: libc's print through stdio, 5 KiB with the parsers.
 * The long table's flag fields must be NULL. ---- */
char *opt_arg;
int opt_ind = 1;
static int opt_pos;	/* inside a cluster of short options */

static int opt_short(int argc, char **argv, const char *optstring)
{
	char *a = argv[opt_ind];
	int c;
	const char *o;

	if (!opt_pos)
		opt_pos = 1;
	c = (unsigned char)a[opt_pos++];
	o = c == ':' ? NULL : strchr(optstring, c);
	if (!a[opt_pos]) {
		opt_ind++;
		opt_pos = 0;
	}
	if (!o) {
		warn_msg("unrecognized option: %c", c);
		return '?';
	}
	opt_arg = NULL;
	if (o[1] == ':' && (o[2] != ':' || opt_pos)) {
		if (opt_ind >= argc) {
			warn_msg("option requires an argument: %c", c);
			return optstring[0] == ':' ? ':' : '?';
		}
		opt_arg = argv[opt_ind++] + opt_pos;
		opt_pos = 0;
	}
	return c;
}

static int opt_long(int argc, char **argv, const char *optstring, const struct option *opts)
{
	const char *start = argv[opt_ind] + 2, *arg = NULL, *o, *name;
	int i, n = 0, match = 0;

	for (i = 0; opts[i].name; i++) {
		for (o = start, name = opts[i].name; *o && *o != '=' && *o == *name; o++)
			name++;
		if (*o && *o != '=')
			continue;
		arg = o;
		match = i;
		if (!*name) {	/* the whole name: no ambiguity */
			n = 1;
			break;
		}
		n++;
	}
	opt_ind++;
	if (n != 1) {
		if (optstring[0] != ':')
			warn_msg("%s: %s", n ? "option is ambiguous" : "unrecognized option", start);
		return '?';
	}
	opts += match;
	opt_arg = NULL;
	if (*arg == '=') {
		if (!opts->has_arg) {
			if (optstring[0] != ':')
				warn_msg("option does not take an argument: %s", opts->name);
			return '?';
		}
		opt_arg = (char *)arg + 1;
	} else if (opts->has_arg == required_argument) {
		if (opt_ind >= argc) {
			if (optstring[0] == ':')
				return ':';
			warn_msg("option requires an argument: %s", opts->name);
			return '?';
		}
		opt_arg = argv[opt_ind++];
	}
	return opts->val;
}

int opt_get(int argc, char **argv, const char *optstring, const struct option *opts)
{
	int first = opt_ind, found, c, i;
	char *a;

	if (opt_ind >= argc || !argv[opt_ind])
		return -1;
	found = opt_ind;
	if (opts)	/* getopt_long: step over operands (back to a cluster begun) */
		for (; argv[found][0] != '-' || !argv[found][1]; found++)
			if (found + 1 >= argc || !argv[found + 1])
				return -1;
	opt_ind = found;
	a = argv[opt_ind];
	if (!opt_pos && (a[0] != '-' || !a[1]))
		return -1;
	if (!opt_pos && a[1] == '-' && !a[2])
		c = (opt_ind++, -1);
	else if (!opt_pos && opts && a[1] == '-')
		c = opt_long(argc, argv, optstring, opts);
	else
		c = opt_short(argc, argv, optstring);
	/* the words taken move in front of the operands stepped over */
	for (i = found; i < opt_ind && found > first; i++) {
		char *w = argv[i];
		int j;

		for (j = i; j > first + (i - found); j--)
			argv[j] = argv[j - 1];
		argv[first + (i - found)] = w;
	}
	if (found > first)
		opt_ind = first + (opt_ind - found);
	return c;
}

static const struct applet *find_applet(const char *name)
{
	size_t i;

	for (i = 0; i < NAPPLETS; i++)
		if (!strcmp(applets[i].name, name))
			return &applets[i];
	return NULL;
}

static void put(int fd, const char *s)
{
	if (write(fd, s, strlen(s)) < 0)
		return;
}

/* A link we may replace: one whose target is named iomon (a stale link
 * from an earlier install, dangling or not) or that leads to this very
 * binary.  Anything else at the path (Debian's blkparse, procps' top, a
 * link to another tool) is someone else's and stays. */
static int ours(const char *path, const struct stat *self)
{
	char t[PATH_LEN];
	const char *b;
	struct stat st;
	ssize_t n = readlink(path, t, sizeof(t) - 1);

	if (n <= 0)
		return 0;
	t[n] = 0;
	b = strrchr(t, '/');
	if (!strcmp(b ? b + 1 : t, "iomon"))
		return 1;
	return !stat(path, &st) && st.st_dev == self->st_dev && st.st_ino == self->st_ino;
}

static int install(const char *dir, const char *self, int all)
{
	char path[PATH_LEN];
	struct stat me, st;
	size_t i;
	int bad = 0;

	if (stat("/proc/self/exe", &me))
		memset(&me, 0, sizeof(me));
	for (i = 0; i < NAPPLETS; i++) {
		if (applets[i].generic && !all)
			continue;
		if ((size_t)sfmt(path, sizeof(path), "%s/%s", dir, applets[i].name) >= sizeof(path)) {
			warn_msg("%s: path too long", dir);
			return 1;
		}
		if (!lstat(path, &st)) {
			if (!S_ISLNK(st.st_mode) || !ours(path, &me)) {
				warn_msg("%s: skipped: %s, not a link to iomon; left as it is", path,
					 S_ISLNK(st.st_mode) ? "a link to another program" : "a file of another program");
				continue;
			}
			unlink(path);
		}
		if (symlink(self, path)) {
			err_sys(path);
			bad = 1;
		}
	}
	return bad;
}

/* quiet: called by an original tool's name (a blktrace symlink), not as
 * `iomon blktrace`, so notices stay quiet as the original's would */
static int run(const struct applet *a, int argc, char **argv, int quiet)
{
	applet_name = a->name;
	quiet_notes = quiet;
	if (argc > 1 && !strcmp(argv[1], "--help")) {
		put(1, a->usage);
		return 0;
	}
	return a->main(argc, argv);
}

static int multiplexer(int argc, char **argv)
{
	const struct applet *a;
	size_t i;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		put(argc < 2 ? 2 : 1,
		    "usage: iomon APPLET [ARGS...] | --list | --install [--all] DIR\n\n"
		    "Block I/O tracing toolkit in one binary; also runs as a symlink\n"
		    "named after an applet (blkparse -> iomon).  Applets:");
		for (i = 0; i < NAPPLETS; i++) {
			put(argc < 2 ? 2 : 1, " ");
			put(argc < 2 ? 2 : 1, applets[i].name);
		}
		put(argc < 2 ? 2 : 1, "\n");
		return argc < 2;
	}
	if (!strcmp(argv[1], "--list")) {
		for (i = 0; i < NAPPLETS; i++) {
			put(1, applets[i].name);
			put(1, "\n");
		}
		return 0;
	}
	if (!strcmp(argv[1], "--install")) {
		int all = argc == 4 && !strcmp(argv[2], "--all");
		const char *dir = argv[argc - 1];
		char self[PATH_LEN];
		ssize_t n;

		if (argc != 3 + all) {
			warn_msg("usage: iomon --install [--all] DIR");
			return 1;
		}
		/* A relative link when DIR holds iomon (an initramfs moves),
		 * else the absolute path of this binary. */
		sfmt(self, sizeof(self), "%s/iomon", dir);
		if (!access(self, X_OK))
			return install(dir, "iomon", all);
		n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n > 0)
			self[n] = 0;
		else
			sfmt(self, sizeof(self), "%s", argv[0]);
		return install(dir, self, all);
	}
	a = find_applet(argv[1]);
	if (!a) {
		warn_msg("unknown applet '%s' (try --list)", argv[1]);
		return 1;
	}
	return run(a, argc - 1, argv + 1, 0);
}

int main(int argc, char **argv)
{
	const char *base = argv[0] ? strrchr(argv[0], '/') : NULL;
	const struct applet *a;

	base = base ? base + 1 : (argv[0] ? argv[0] : "iomon");
	a = find_applet(base);
	return a ? run(a, argc, argv, !a->generic) : multiplexer(argc, argv);
}
