/* match/procs.c: match: pid -> command name, first name wins */
/* Process names from PROCESS notes.  blkparse keeps the first name it
 * reads for a pid and never replaces it; so do we.  Open addressing over a
 * fixed table; when it is full the name is dropped and counted, and events
 * of that pid print "(null)" as blkparse prints an unknown pid. */
#include <string.h>
#include "match/match.h"

static struct proc {
	u32 pid;
	char comm[16];
} procs[PROC_MAX];
#if PROC_MAX < 65536
static u16 slot[PROC_HASH];	/* index + 1, 0 = empty (touched at random: half the pages of a u32) */
#else
static u32 slot[PROC_HASH];
#endif
static u32 nprocs, last_pid = ~0u;
static const char *last_name;
unsigned long long proc_dropped;

static u32 hash_pid(u32 pid) { return (pid * 2654435761u) % PROC_HASH; }

const char *proc_name(u32 pid)
{
	u32 h;

	if (pid == last_pid)
		return last_name;
	for (h = hash_pid(pid); slot[h]; h = (h + 1) % PROC_HASH)
		if (procs[slot[h] - 1].pid == pid) {
			last_pid = pid;
			return last_name = procs[slot[h] - 1].comm;
		}
	return NULL;
}

/* the table's i-th name and its pid, NULL past the end */
const char *proc_nth(u32 i, u32 *pid)
{
	if (i >= nprocs)
		return NULL;
	*pid = procs[i].pid;
	return procs[i].comm;
}

void proc_add(u32 pid, const u8 *name, u32 len)
{
	u32 h, i;

	for (h = hash_pid(pid); slot[h]; h = (h + 1) % PROC_HASH)
		if (procs[slot[h] - 1].pid == pid)
			return;
	if (nprocs == PROC_MAX) {
		proc_dropped++;
		return;
	}
	procs[nprocs].pid = pid;
	for (i = 0; i < 15 && i < len && name[i]; i++)
		procs[nprocs].comm[i] = (char)name[i];
	procs[nprocs].comm[i] = 0;
	slot[h] = (typeof(slot[0]))++nprocs;
	if (pid == last_pid)
		last_pid = ~0u;
}
