/* output/iolines.c: output: what biolatency, biosnoop, biotop and biopattern do alike: a disk's name, an errno's, the failed-I/O closing line, the interval clock */
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "output/output.h"

/* a disk's name: in a replay, the files' name for their first device,
 * else (and for a stream) major,minor; live, its /dev name */
void blk_disk_name(u32 dev, const char *replay, char *out, size_t len)
{
	static u32 first, seen;

	if (replay && strcmp(replay, "-") && (!seen || dev == first)) {	/* the files' name: the first device's; a stream has none */
		seen = 1, first = dev;
		sfmt(out, len, "%s", replay);
	} else if (replay)
		sfmt(out, len, "%u,%u", DEV_MAJOR(dev), DEV_MINOR(dev));
	else if (sys_devname(dev, out, len))
		sfmt(out, len, "%u,%u", DEV_MAJOR(dev), DEV_MINOR(dev));
}

int disk_wanted(struct disk_filter *f, u32 dev, const char *replay)
{
	char name[48];

	if (!f->disk)
		return 1;
	if (f->known)
		return dev == f->dev;
	blk_disk_name(dev, replay, name, sizeof(name));
	if (strcmp(name, f->disk))
		return 0;
	f->dev = dev;
	f->known = 1;
	return 1;
}

/* what a replay's disk is called: -i NAME's base name without
 * .blktrace.N; "-" for a stream */
const char *replay_label(const char *in)
{
	static char base[64];
	const char *b = strrchr(in, '/');
	char *x;

	if (!strcmp(in, "-"))
		return "-";
	sfmt(base, sizeof(base), "%s", b ? b + 1 : in);
	if ((x = str_find(base, ".blktrace.")))
		*x = 0;
	return base;
}

/* the errnos a block request's status becomes (the kernel's
 * blk_status_to_errno), Linux's numbers on every architecture iomon
 * builds for; another shows as its number */
static const struct { u8 n; char name[13]; } errnos[] = {
	{ 1, "EPERM" }, { 5, "EIO" }, { 6, "ENXIO" }, { 11, "EAGAIN" }, { 12, "ENOMEM" },
	{ 16, "EBUSY" }, { 19, "ENODEV" }, { 22, "EINVAL" }, { 28, "ENOSPC" }, { 52, "EBADE" },
	{ 61, "ENODATA" }, { 62, "ETIME" }, { 67, "ENOLINK" }, { 75, "EOVERFLOW" }, { 84, "EILSEQ" },
	{ 95, "EOPNOTSUPP" }, { 109, "ETOOMANYREFS" }, { 110, "ETIMEDOUT" }, { 121, "EREMOTEIO" },
};

const char *errno_name(u32 e, char buf[12])
{
	u32 i;

	for (i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		if (errnos[i].n == e)
			return errnos[i].name;
	sfmt(buf, 12, "%u", e);
	return buf;
}

/* "N I/Os failed (EIO: sectors S S ...; ENOSPC: sectors S)": at most
 * FAIL_LIST sectors an errno, then "..." when it has more */
void fail_line(struct obuf *o)
{
	u32 i, k;
	char b[12];

	if (!fails.n)
		return;
	ob_printf(o, "%llu I/O%s failed (", (unsigned long long)fails.n, fails.n == 1 ? "" : "s");
	for (i = 0; i < fails.nerr; i++) {
		const struct fail_errno *f = &fails.e[i];

		ob_printf(o, "%s%s: sector%s", i ? "; " : "", errno_name(f->err, b), f->n == 1 ? "" : "s");
		for (k = 0; k < f->n && k < FAIL_LIST; k++)
			ob_printf(o, " %llu", (unsigned long long)f->sector[k]);
		if (f->n > FAIL_LIST)
			ob_puts(o, " ...");
	}
	if (fails.other)
		ob_printf(o, "%sother errnos: %llu", fails.nerr ? "; " : "", (unsigned long long)fails.other);
	ob_puts(o, ")\n");
}

/* reqlog's, extents' and copy's input: the trace named in (one), or a
 * live capture of the n devices (none: every whole disk); each record to
 * rec, round after each live round.  -1: both given; 1 said, else 0. */
int in_devs(char *in, char **devs, int n, void (*rec)(const struct rec *r), void (*round)(void))
{
	static char *d[CAP_DEVS];
	struct cap_cfg c;
	int k = 0;

	if (in && n)
		return -1;
	while (n--)
		if (cap_dev_arg(d, &k, *devs++))
			return 1;
	if (!in && cap_live_devices(&c, d, k, "a"))
		return 1;
	return in_trace(&(struct input){ &in, !!in, &c, rec, round, NULL, NULL });
}

/* ---- the interval clock ---- */

static int tick_out(struct ticks *k, s64 wall)
{
	k->out(wall);
	if (k->count && !--k->count) {
		k->done = k->stop = 1;
		return 1;
	}
	return 0;
}

/* the first record starts a replay's first interval */
int tick(struct ticks *k, const struct rec *r)
{
	u64 iv = (u64)k->interval * 1000000000u;

	if (k->live || !k->interval)
		return 0;
	if (!k->start)
		k->start = r->time, k->next = r->time + iv;
	for (; r->time >= k->next; k->next += iv)
		if (tick_out(k, k->wall0 + (s64)((k->next - k->start) / 1000000000u)))
			return 1;
	return 0;
}

/* Live outputs follow the monotonic clock, checked at every round: the
 * capture calls back every CAP_LIVE_MS with or without records, so an
 * idle disk still gets its (empty) output each interval and the count
 * still ends the run.  A round late by more than an interval (a stalled
 * machine) gives one output, not a burst; the first interval starts once
 * the first round is done. */
void tick_live(struct ticks *k)
{
	if (k->interval && cap_interval_due(&k->live_next, (u32)k->interval) && !k->done && tick_out(k, wall_sec()))
		kill(getpid(), SIGTERM);	/* the capture stops cleanly on it */
}

void tick_end(struct ticks *k)
{
	if (!k->done)
		k->out(k->live ? wall_sec()
			       : k->wall0 + (k->interval && k->start ? (s64)((k->next - k->start) / 1000000000u) : 0));
}
