/* stats/topstat.c: stats: biotop's rows: request owners from Q/M/F/D/C, completion accounting, failures */
/* A request belongs to the process that queued it (Q), named from PROCESS
 * notes, then /proc, then "?"; it counts at completion, with the time from
 * issue (D) to completion (C).  Merged bios count for the request they
 * joined.  A completion carrying an error also counts as failed in its
 * row.  With a tag helper, rows are per tag instead of per process. */
#include <string.h>
#include "stats/stats.h"

struct topstat tops;	/* bss: the driver sets only_pid */

struct req {			/* in flight, by (device, sector); named at completion */
	struct ift_hdr h;	/* h.born: queued */
	u32 pid, tag;		/* pid first: ift_start's */
	u64 issue;
	u8 w, tagged;
};
_Static_assert(offsetof(struct req, pid) == sizeof(struct ift_hdr), "ift_start: the starter's pid first");

/* The pool is full.  Requests whose completion never comes (lost records,
 * a trace cut short) would hold it for good and stop all counting: the
 * oldest of a few slots past a moving hand makes room, and is counted. */
IFT_POOL(reqs, struct req, TOP_REQS, TOP_HASH, IFT_AGE_NEAR);

static struct req *req_find(u32 dev, u64 sector)
{
	return ift_look(&reqs, dev, sector, 0);
}

unsigned long long top_aged(void)
{
	return reqs.aged;
}

static void name_of(u32 pid, char *out)
{
	const char *n = proc_name(pid);

	if (n)
		sfmt(out, 16, "%s", n);
	else if (tops.replay || sys_comm(pid, out))
		sfmt(out, 16, "?");
}

static void account(const struct req *q, const struct rec *c)
{
	u32 i, pid = q->pid;
	char name[16];
	const char *comm = name;
	struct top_row *r = NULL;

	if (tops.tags) {	/* a row per tag, named by its label */
		pid = q->tagged ? q->tag : TAG_UNTAGGED;
		comm = tag_label(pid);
	} else	/* now: the process's note may come after its first I/O */
		name_of(pid, name);
	for (i = 0; i < tops.nrows; i++)
		if (tops.rows[i].pid == pid && tops.rows[i].dev == q->h.dev && tops.rows[i].w == q->w &&
		    !strcmp(tops.rows[i].comm, comm)) {
			r = &tops.rows[i];
			break;
		}
	if (!r) {
		if (tops.nrows == TOP_ROWS) {
			tops.row_dropped++;
			return;
		}
		r = &tops.rows[tops.nrows++];
		memset(r, 0, sizeof(*r));
		r->pid = pid;
		r->dev = q->h.dev;
		r->w = q->w;
		sfmt(r->comm, sizeof(r->comm), "%s", comm);
	}
	r->io++;
	r->bytes += c->bytes;
	r->ns += q->issue && c->time > q->issue ? c->time - q->issue : 0;
	r->err += rec_errno(c) != 0;
}

/* F: the request now starts at this bio's sector */
static void front_merge(const struct rec *r)
{
	struct req *old = req_find(r->dev, r->sector + (r->bytes >> 9)), keep, *q;

	if (!old)
		return;
	keep = *old;
	/* on a taken sector the owner moves into the request there
	 * (its queue time stays) and the moved entry is freed */
	if (ift_move(&reqs, old, r->dev, r->sector) && (q = req_find(r->dev, r->sector))) {
		q->pid = keep.pid, q->w = keep.w, q->issue = keep.issue;
		q->tag = keep.tag, q->tagged = keep.tagged;
	}
}

void top_event(const struct rec *r, u32 tag, int tagged)
{
	u32 a = ACT32(r);
	struct req *q, *o;

	rec_seq(r);
	switch (a & 0xffff) {
	case TA_QUEUE:	/* the submitter: owner of whatever request this bio makes */
		if (tops.only_pid >= 0 && r->pid != (u32)tops.only_pid)
			break;
		/* two requests on one sector at once (two readers of one
		 * block): the second is kept beside the first, as kind 2 */
		if ((q = ift_start(&reqs, r, 0))) {
			q->pid = r->pid;
			q->w = (a & TC(TC_WRITE)) != 0;
			q->tagged = (u8)tagged;
			q->tag = tag;
		}
		break;
	case TA_BACKMERGE:	/* the bio joined a request: its own entry ends here */
		if ((q = ift_look(&reqs, r->dev, r->sector, 2)) || (q = req_find(r->dev, r->sector)))
			ift_drop(&reqs, q);
		break;
	case TA_FRONTMERGE:
		front_merge(r);
		break;
	case TA_ISSUE:	/* the first's, or the second's once the first went */
		q = req_find(r->dev, r->sector);
		if (q && q->issue && (o = ift_look(&reqs, r->dev, r->sector, 2)))
			q = o;
		if (q) {
			q->issue = r->time;
			if (tagged && !q->tagged)	/* the first claim decides */
				q->tag = tag, q->tagged = 1;
		}
		break;
	case TA_COMPLETE:	/* the first queued, or the second if it is this pid's */
		q = req_find(r->dev, r->sector);
		if ((o = ift_look(&reqs, r->dev, r->sector, 2)) && (!q || (o->pid == r->pid && q->pid != r->pid)))
			q = o;
		/* the closing line: every failure, or with -p that process's */
		if (tops.errors && (q || tops.only_pid < 0))
			fail_note(r);
		if (q) {
			account(q, r);
			ift_drop(&reqs, q);
		}
		break;
	}
}
