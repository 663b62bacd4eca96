/* stats/bttproc.c: stats: btt's processes, by name (for -A and the range data) */
/* btt 1.2.0 names a process by its command up to a '/' (so every kworker
 * is one "kworker"; pid 0 is "kernel"), and a pid with a name already
 * known joins that name's figures.  A pid with an event before any note is
 * named pidNNNNNNNNN, and keeps that name, as a pid keeps its first name
 * in btt.  The pids' names are match/procs.c's, blkparse's table; this
 * file keeps the figures per name, BTT_PROCS of them: past that a
 * process is left out and its events counted (btt_proc_dropped). */
#include <string.h>
#include "stats/stats.h"
#include "match/match.h"

struct btt_proc btt_procs[BTT_PROCS];
u32 btt_nprocs;
const char *btt_exes;
unsigned long long btt_proc_dropped;
u32 btt_seen_pid[64], btt_seen_p[64];	/* pid + 1 and its process, by pid's low bits */

/* btt's name of pid's process, its command c up to a '/' */
static void cut(u32 pid, const char *c, char *name)
{
	u32 i;

	for (i = 0; i < 15 && c[i] && c[i] != '/'; i++)
		name[i] = c[i];
	name[i] = 0;
	if (!pid && strncmp(c, "pid", 3))	/* pid 0 with a note */
		strcpy(name, "kernel");
}

/* name's index among the processes with figures, else btt_nprocs */
static u32 proc_find(const char *name)
{
	u32 i;

	for (i = 0; i < btt_nprocs && strcmp(btt_procs[i].name, name); i++)
		;
	return i;
}

/* the process an event of pid's counts for (+ 1), 0 if it is left out */
u32 btt_proc_of(u32 pid)
{
	char name[16];
	const char *c;
	u32 i;

	if (btt_seen_pid[pid & 63] == pid + 1)	/* (a name, once made, stays) */
		return btt_seen_p[pid & 63];
	if (!(c = proc_name(pid))) {
		sfmt(name, sizeof(name), "pid%09u", pid);
		proc_add(pid, (const u8 *)name, sizeof(name));
		c = proc_name(pid);
		if (!c)		/* the names' table is full */
			c = name;
	}
	cut(pid, c, name);
	if ((i = proc_find(name)) == BTT_PROCS)
		return 0;	/* (its events counted by btt_event) */
	if (i == btt_nprocs) {
		btt_nprocs++;
		strcpy(btt_procs[i].name, name);
		btt_procs[i].last_q = ~(u64)0;
	}
	btt_seen_pid[pid & 63] = pid + 1;
	return btt_seen_p[pid & 63] = i + 1;
}

/* the place of a process's block in btt's range data: btt makes a
 * process at each note too (with no figures: not kept here), so it is
 * the number of distinct names of the pids' table before name's.  known
 * (if given) is set when one of them is name: a process of btt's, figures
 * or not */
u32 btt_proc_rank(const char *name, int *known)
{
	static u8 dup[PROC_MAX], done;
	char a[16], b[16];
	const char *c;
	u32 i, j, pid, n = 0;

	for (i = 0; (c = proc_nth(i, &pid)); i++) {
		cut(pid, c, a);
		for (j = 0; !done && j < i && !dup[i]; j++) {
			c = proc_nth(j, &pid);
			cut(pid, c, b);
			dup[i] = !strcmp(a, b);
		}
		n += !dup[i] && strcmp(a, name) < 0;
		if (known && !strcmp(a, name))
			*known = 1;
	}
	done = 1;
	return n;
}

/* the processes (indexes) in btt's order, by name */
u32 btt_proc_order(u16 *ix)
{
	u32 i, j, n = btt_nprocs;
	const char *p = btt_exes, *e;

	if (p) {	/* -e: the names listed that btt knows, in its order */
		for (n = 0; n < BTT_PROCS; p = e + 1) {
			char name[16];
			int known = 0;

			for (e = p; *e && *e != ','; e++)
				;
			sfmt(name, sizeof(name), "%.*s", (int)(e - p), p);
			if ((i = proc_find(name)) == btt_nprocs)
				btt_proc_rank(name, &known);
			/* (a name past 15 bytes is no process's: btt's are cut there) */
			if (e - p < 16 && (i < btt_nprocs || known))
				ix[n++] = (u16)i;	/* btt_nprocs: known by a note only, no figures */
			if (!*e)
				break;
		}
		return n;
	}
	for (i = 0; i < n; i++) {
		for (j = i; j && strcmp(btt_procs[ix[j - 1]].name, btt_procs[i].name) > 0; j--)
			ix[j] = ix[j - 1];
		ix[j] = (u16)i;
	}
	return n;
}
