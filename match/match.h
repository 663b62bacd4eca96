/* match/match.h: match: the public API of match/: process names, requests in flight */
#ifndef IOMON_MATCH_H
#define IOMON_MATCH_H
#include "capture/capture.h"

/* match/procs.c: pid -> command name, first name wins (as blkparse) */
const char *proc_name(u32 pid);
void proc_add(u32 pid, const u8 *name, u32 len);
extern unsigned long long proc_dropped;

/* match/track.c: requests in flight by (device, sector), for -t */
struct track {
	u64 sector, alloc, queue, dispatch;
	u32 pid, next;
	u16 dev;
};
struct track *track_find(u32 dev, u64 sector);
struct track *track_get(u32 dev, u64 sector, u32 pid);	/* NULL: pool full */
void track_del(struct track *t);
int track_rekey(struct track *t, u64 sector);	/* -1: alias, entry dropped */
extern unsigned long long track_dropped;
#endif
