/* applet.c: driver: the applet table, --list, --install, --version, main */
/* one binary, many names.  `blkparse` (a symlink) runs the parser,
 * `iomon parse` does the same, and any name we do not know acts as the
 * multiplexer, so a renamed copy (iomon_unstripped, iomon-s390x) still works.
 * The applet table's use (the table is the build's: tests/tools/applets.sh
 * writes it from the drivers' //applet: lines), --list, --install, main,
 * --version; what every applet shares
 * (messages, files, scanning, options) is in base.c. */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "output/output.h"

/* The table is generated (struct applet, iomon.h): from each driver's
 * //applet: line, only the applets this build has (make APPLETS=...,
 * PROFILE=...). */
#define NAPPLETS napplets

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

/* an applet this build left out (make APPLETS=..., PROFILE=...): said
 * so, rather than "unknown" */
static int left_out(const char *name)
{
	const char *p;

	for (p = applets_out; *p; p += strlen(p) + 1)
		if (!strcmp(p, name)) {
			warn_msg("applet not built in: %s", name);
			return 1;
		}
	return 0;
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

TEXT(applet_skipped_not_a, "%s: skipped: %s, not a link to iomon; left as it is")
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
				warn_text(U_applet_skipped_not_a, path,
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
		return usage_put(1, a->usage) != 0;
	}
	return a->main(argc, argv);
}

TEXT(applet_usage_iomon_install, "usage: iomon --install [--all] DIR")
TEXT(applet_unknown_applet_try, "unknown applet '%s' (try --list)")
TEXT(applet_usage, "usage: iomon APPLET [ARGS...] | --list | --install [--all] DIR | --version\n\n"
	"Block I/O tracing toolkit in one binary; also runs as a symlink\n"
	"named after an applet (blkparse -> iomon).  Applets:")
static int multiplexer(int argc, char **argv)
{
	const struct applet *a;
	size_t i;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		put(argc < 2 ? 2 : 1, TX(applet_usage));
		for (i = 0; i < NAPPLETS; i++) {
			put(argc < 2 ? 2 : 1, " ");
			put(argc < 2 ? 2 : 1, applets[i].name);
		}
		put(argc < 2 ? 2 : 1, "\n");
		return argc < 2;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		put(1, iomon_version);
		return 0;
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
			warn_text(U_applet_usage_iomon_install);
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
		if (!left_out(argv[1]))
			warn_text(U_applet_unknown_applet_try, argv[1]);
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
	if (a)
		return run(a, argc, argv, !a->generic);
	if (left_out(base))
		return 127;
	return multiplexer(argc, argv);
}
