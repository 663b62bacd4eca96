/* capture/tracefs.c: capture: the tracefs backend: instance, formats, filters, pipes, run loop */
/* The tracefs backend: the block tracepoints in a private tracefs instance,
 * read as raw ring-buffer pages and rewritten as blktrace records (those
 * are made in tpevent.c).
 *
 * Why not the `blk` tracer's bin output: it needs the global tracer (one
 * per system) and on 7.x kernels it writes broken records (a v7 head on a
 * cut v8 body).  The tracepoints' format files have been stable for years,
 * work in an instance of our own (no global state touched) and under
 * kernel lockdown, and carry pid and comm.  We read every field's offset
 * from its format file and check each event's size against it. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mount.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include "capture/backend.h"

static char root[64], inst[128];
static int pipes[CAP_CPUS];
static u32 page_size = 4096;

static int put(const char *dir, const char *file, const char *val)
{
	char p[PATH_LEN];

	sfmt(p, sizeof(p), "%s/%s", dir, file);
	return sys_write(p, val);
}

static int get(const char *dir, const char *file, char *buf, size_t len)
{
	return sys_readf(buf, len, "%s/%s", dir, file);
}

TEXT(tracefs_tracefs_is_not, "tracefs is not available (no /sys/kernel/tracing, and mounting "
	"it failed: %s)")
static int find_root(void)
{
	static const char *const cand[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	struct stat st;
	char p[PATH_LEN];
	size_t i;

	for (i = 0; i < 2; i++) {
		sfmt(p, sizeof(p), "%s/instances", cand[i]);
		if (!stat(p, &st)) {
			sfmt(root, sizeof(root), "%s", cand[i]);
			return 0;
		}
	}
	if (!mount("tracefs", cand[0], "tracefs", 0, NULL)) {
		sfmt(root, sizeof(root), "%s", cand[0]);
		return 0;
	}
	warn_text(U_tracefs_tracefs_is_not,
		 strerror(errno));
	return -1;
}

/* "field:unsigned int nr_sector;	offset:24;	size:4;	signed:0;" */
static int parse_format(struct tev *e)
{
	static char buf[TRACEFS_FORMAT_BUF];
	char dir[PATH_LEN], *p;
	int i;

	sfmt(dir, sizeof(dir), "%s/events/block/%s", root, e->name);
	if (get(dir, "format", buf, sizeof(buf)) <= 0)
		return -1;
	if (!(p = str_find(buf, "ID: ")))
		return -1;
	e->id = (u32)scan_u64(p + 4, NULL, 10);
	for (i = 0; i < NF; i++)
		e->off[i] = -1;
	for (p = buf; (p = str_find(p, "field:")); p++) {
		char *semi = strchr(p, ';'), *name = semi, *o, *s;

		if (!semi)
			break;
		while (name > p && name[-1] != ' ' && name[-1] != '*')
			name--;
		o = str_find(semi, "offset:");
		s = str_find(semi, "size:");
		if (!o || !s)
			break;
		if (name[0] == '[' || !strncmp(name, "common_", 7))
			continue;
		for (i = 0; i < NF; i++) {
			size_t n = strlen(tp_fname[i]);

			if (!strncmp(name, tp_fname[i], n) && (name[n] == ';' || name[n] == '[')) {
				e->off[i] = (short)atoi(o + 7);
				e->size[i] = (short)atoi(s + 5);
				if (e->off[i] + e->size[i] > e->min_len)
					e->min_len = (u16)(e->off[i] + e->size[i]);
			}
		}
	}
	return 0;
}

static void header_page(void)
{
	char buf[1024], *p;

	if (get(root, "events/header_page", buf, sizeof(buf)) <= 0)
		return;
	if ((p = str_find(buf, "commit;")) && (p = str_find(p, "size:")))
		tp_commit_size = (u32)atoi(p + 5);
	if ((p = str_find(buf, "data;")) && (p = str_find(p, "offset:")))
		tp_data_off = (u32)atoi(p + 7);
	page_size = (u32)getauxval(AT_PAGESZ);	/* not sysconf: its table of every setting */
	/* newer kernels can make sub-buffers larger than a page */
	if (get(inst[0] ? inst : root, "buffer_subbuf_size_kb", buf, sizeof(buf)) > 0 && atoi(buf) > 0)
		page_size = (u32)atoi(buf) << 10;
	if (page_size > CAP_BUF)
		page_size = CAP_BUF;
}

/* One CPU's pipe read dry.  Its mark: an event stamped before the read
 * may still be being written on its CPU, so the slack. */
static void pump(u32 cpu, int live)
{
	u64 t = mono_ns() - TRACEFS_SLACK_NS;
	/* the buffer's pages at most, so a CPU the load keeps filling cannot
	 * hold the others up (and is not marked) */
	u32 k = (C.cfg.buf_size >> 10) * C.cfg.buf_nr / (page_size >> 10) + 1;
	ssize_t n;

	while ((!live || net_room(cpu)) && (n = read(pipes[cpu], C.buf, page_size)) > 0 && !C.write_failed) {
		u64 m = tp_page(cpu, C.buf, (u32)n);
		u32 i;

		for (i = 0; m && i < C.ndev; i++)
			C.dev[i].dropped += m;	/* the ring buffer cannot say whose */
		if (!--k)
			return;
	}
	cap_mark(cpu, t);
}

TEXT(tracefs_filter_refused, "%s: filter refused; filtering here instead")
static int set_filters(void)
{
	char f[1024];
	size_t n = 0;
	u32 i, k;

	for (i = 0; i < C.ndev; i++)
		n += (size_t)sfmt(f + n, sizeof(f) - n, "%sdev == %u", i ? " || " : "",
				      C.dev[i].disk ? C.dev[i].disk : C.dev[i].kdev);
	for (k = 0; k < TP_NEV; k++) {
		char dir[PATH_LEN];

		if (!tp_ev[k].id || tp_ev[k].off[F_DEV] < 0)
			continue;
		sfmt(dir, sizeof(dir), "%s/events/block/%s", inst, tp_ev[k].name);
		if (put(dir, "filter", f) && C.cfg.verbose)
			note_msg(TX(tracefs_filter_refused), tp_ev[k].name);
	}
	return 0;
}

TEXT(tracefs_could_not_remove, "%s: could not remove the tracefs instance: %s")
static void remove_instance(void)
{
	if (inst[0]) {
		put(inst, "tracing_on", "0");
		if (rmdir(inst) && errno != ENOENT)
			warn_text(U_tracefs_could_not_remove, inst, strerror(errno));
		inst[0] = 0;
	}
}

TEXT(tracefs_left_by_a, "%s: left by a capture that died (pid %ld), cannot remove it: %s")
TEXT(tracefs_removed_left_by, "%s: removed, left by a capture that died (pid %ld)")
/* A capture killed with SIGKILL leaves its instance iomon-PID behind, its
 * tracepoints on and its buffers held.  Remove those whose process is
 * gone; a live one is another capture's. */
static long clear_stale_one(const char *dir, const char *name, void *unused)
{
	char p[PATH_LEN];
	long pid;

	(void)unused;
	if (strncmp(name, "iomon-", 6) || (pid = atol(name + 6)) <= 0 || !kill((pid_t)pid, 0) || errno != ESRCH)
		return 0;
	sfmt(p, sizeof(p), "%s/%s", dir, name);
	put(p, "tracing_on", "0");
	if (rmdir(p))
		warn_text(U_tracefs_left_by_a, p, pid, strerror(errno));
	else
		note_msg(TX(tracefs_removed_left_by), p, pid);
	return 0;
}

static void clear_stale(void)
{
	char dir[96];

	sfmt(dir, sizeof(dir), "%s/instances", root);
	dir_each(dir, clear_stale_one, NULL);
}

/* The root, the page layout, each tracepoint's format, partition ranges. */
static int probe(void)
{
	u32 i;

	tp_init();
	if (find_root())
		return 1;
	header_page();
	for (i = 0; i < TP_NEV; i++)
		if (parse_format(&tp_ev[i]))
			tp_ev[i].id = 0;	/* not in this kernel */
	for (i = 0; i < C.ndev; i++) {
		struct tdev *d = &C.dev[i];
		u64 v;

		if (!d->is_part)
			continue;
		if (!sys_u64f(&v, "/sys/dev/block/%u:%u/start", DEV_MAJOR(d->kdev), DEV_MINOR(d->kdev)))
			d->start_lba = v;
		if (!sys_u64f(&v, "/sys/dev/block/%u:%u/size", DEV_MAJOR(d->kdev), DEV_MINOR(d->kdev)))
			d->end_lba = d->start_lba + v - 1;
	}
	return 0;
}

TEXT(tracefs_cannot_make_a, "%s: cannot make a tracefs instance: %s")
TEXT(tracefs_no_block_tracepoints, "no block tracepoints could be enabled under %s")
TEXT(tracefs_trace_clock_mono, "trace_clock mono refused; times are the kernel's local clock")
/* Our instance, its clock and buffers, the tracepoints on and filtered. */
static int instance_up(void)
{
	char dir[PATH_LEN], kb[32];
	u32 i, enabled = 0;

	sfmt(inst, sizeof(inst), "%s/instances/iomon-%d", root, (int)getpid());
	if (mkdir(inst, 0700)) {
		warn_text(U_tracefs_cannot_make_a, inst, strerror(errno));
		inst[0] = 0;
		return 1;
	}
	if (put(inst, "trace_clock", "mono"))
		note_msg(TX(tracefs_trace_clock_mono));
	sfmt(kb, sizeof(kb), "%u", (C.cfg.buf_size >> 10) * C.cfg.buf_nr);
	put(inst, "buffer_size_kb", kb);
	for (i = 0; i < TP_NEV; i++) {
		if (!tp_ev[i].id)
			continue;
		sfmt(dir, sizeof(dir), "%s/events/block/%s", inst, tp_ev[i].name);
		if (!put(dir, "enable", "1"))
			enabled++;
	}
	if (!enabled) {
		warn_text(U_tracefs_no_block_tracepoints, inst);
		return 1;
	}
	set_filters();
	return 0;
}

/* One trace_pipe_raw per CPU; each CPU's file made before tracing starts. */
static int open_pipes(struct pollfd *pfd)
{
	u32 i, c;

	for (c = 0; c < C.ncpu; c++) {
		char p[PATH_LEN];

		sfmt(p, sizeof(p), "%s/per_cpu/cpu%u/trace_pipe_raw", inst, c);
		pipes[c] = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		pfd[c] = (struct pollfd){ pipes[c], POLLIN, 0 };
		cap_mark(c, pipes[c] < 0 ? ~0ull : 0);
		for (i = 0; i < C.ndev && pipes[c] >= 0 && !C.cfg.to_stdout; i++)
			if (cap_write(&C.dev[i], c, "", 0))
				return 1;
	}
	return 0;
}

static void loop(struct pollfd *pfd)
{
	u32 c;

	while (!cap_stopping()) {
		int wait = cap_wait();

		if (wait < 0)
			break;
		for (c = 0; HAVE_NET && c < C.ncpu; c++)	/* -h: a full queue's socket, not its CPU */
			pfd[c].events = net_room(c) ? POLLIN : 0;
		if (poll(pfd, C.ncpu + net_pollout(pfd + C.ncpu), wait) < 0)
			continue;
		/* a page is handed over only when full: take partial ones too */
		for (c = 0; c < C.ncpu; c++)
			if (pipes[c] >= 0)
				pump(c, 1);
		cap_round();
	}
}

/* Tracing off, what the buffers still hold, the pipes closed. */
static void drain(void)
{
	u32 c;

	put(inst, "tracing_on", "0");
	for (c = 0; c < C.ncpu; c++)
		if (pipes[c] >= 0) {
			pump(c, 0);
			close(pipes[c]);
			pipes[c] = -1;
		}
	/* what the drain brought is a round too (relay's loop does the same):
	 * top's last table and btrace's last lines count it */
	cap_last_round();
}

TEXT(tracefs_capturing_through, "capturing through tracefs (block tracepoints in %s)")
int tracefs_run(void)
{
	struct pollfd pfd[(1 + HAVE_NET) * CAP_CPUS];	/* the pipes, then the sockets (-h) */
	u32 c;
	int rc = 1;

	if (probe())
		return 1;
	clear_stale();
	for (c = 0; c < CAP_CPUS; c++)
		pipes[c] = -1;
	if (!instance_up() && !open_pipes(pfd)) {
		tp_timestamp_note();
		put(inst, "tracing_on", "1");
		note_msg(TX(tracefs_capturing_through), inst);
		loop(pfd);
		drain();
		rc = C.write_failed;
	}
	/* an open trace_pipe_raw keeps the instance busy: rmdir fails */
	for (c = 0; c < C.ncpu; c++)
		if (pipes[c] >= 0) {
			close(pipes[c]);
			pipes[c] = -1;
		}
	remove_instance();
	return rc;
}
