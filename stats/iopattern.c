/* stats/iopattern.c: stats: bitesize's issue sizes per process name, biopattern's sequential and random completions per disk */
/* bitesize counts each issue (D) under the name of the process issuing
 * it, in slot log2(KiB) + 1 as BCC's bpf_log2l (0 and 1 KiB in slot 1).
 * biopattern counts each completion (C) after a disk's first of the
 * interval: sequential when it starts where that one ended, else random;
 * its bytes go to the disk's total.  As BCC, a disk's counter is dropped
 * at each interval's end, so its next first completion only sets where
 * the disk stands.
 */
#include <string.h>
#include "stats/stats.h"

struct iopattern iop;

static int log2_slot(u64 v)
{
	return v < 2 ? 1 : 64 - __builtin_clzll(v);
}

void bite_issue(const char *name, u32 bytes)
{
	u32 i;

	for (i = 0; i < iop.nbite && strncmp(iop.bite[i].name, name, 15); i++)
		;
	if (i == iop.nbite) {
		if (iop.nbite == BITE_NAMES) {
			iop.bite_lost++;
			return;
		}
		memset(&iop.bite[i], 0, sizeof(iop.bite[i]));
		sfmt(iop.bite[i].name, sizeof(iop.bite[i].name), "%s", name);
		iop.nbite++;
	}
	iop.bite[i].slot[log2_slot(bytes / 1024)]++;
}

void pat_complete(u32 dev, u64 sector, u32 bytes)
{
	u32 i;
	struct pat_dev *p;

	for (i = 0; i < iop.npat && iop.pat[i].dev != dev; i++)
		;
	if (i == iop.npat) {
		if (iop.npat == PAT_DEVS) {
			iop.pat_lost++;
			return;
		}
		memset(&iop.pat[i], 0, sizeof(iop.pat[i]));
		iop.pat[iop.npat++].dev = dev;
	}
	p = &iop.pat[i];
	if (p->last) {	/* BCC's test: 0 is "no completion yet" */
		if (p->last == sector)
			p->seq++;
		else
			p->rnd++;
		p->bytes += bytes / 512 * 512;
	}
	p->last = sector + bytes / 512;
}

void pat_clear(void)
{
	iop.npat = 0;
}
