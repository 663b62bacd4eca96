/* stats/snoopstat.c: stats: biosnoop's requests: owner and queue time from Q, size and issue time from D, one line's facts at C */
/* A request belongs to the process whose bio made it (its Q), as
 * biosnoop's owner is the task on CPU when the request was accounted; its
 * size is the issue's (D), its latency issue to completion, its queue
 * time queue to issue.  Merged bios join the request they merged into (a
 * front merge moves the request to the bio's sector); a request made with
 * no Q of its own (what a split leaves) belongs to its G's process, its
 * queue time from there.  A completion with no issue seen makes no line,
 * as biosnoop sees none, unless it failed and snoop_unissued_fails is set
 * (--errors: every failed I/O, bio-based devices' too); one with neither Q nor G has no owner ('?', pid
 * 0, QUE 0, as biosnoop shows one).  -P's
 * pattern is biosnoop's: sequential when the request starts where the
 * disk's last completed one ended.
 */
#include "stats/stats.h"

struct sreq {
	struct ift_hdr h;	/* h.born: queued, or issued with no Q */
	u32 pid, bytes;		/* pid first: ift_start's */
	u64 q, d;
	u8 w, owned, issued;
};
_Static_assert(offsetof(struct sreq, pid) == sizeof(struct ift_hdr), "ift_start: the starter's pid first");
IFT_POOL(sreqs, struct sreq, SNOOP_REQS, SNOOP_HASH, IFT_AGE_NEAR);

static struct { u32 dev; u64 next; } last[SNOOP_DEVS];
static u32 nlast;
unsigned long long snoop_nodev;

unsigned long long snoop_aged(void)
{
	return sreqs.aged;
}

static char pattern_of(u32 dev, u64 sector, u32 bytes)
{
	u32 i;
	char p = 'R';

	for (i = 0; i < nlast && last[i].dev != dev; i++)
		;
	if (i == nlast) {
		if (nlast == SNOOP_DEVS) {
			snoop_nodev++;
			return '?';
		}
		last[nlast++].dev = dev;
		p = '?';
	} else if (last[i].next == sector)
		p = 'S';
	last[i].next = sector + bytes / 512;
	return p;
}

static void front_merge(const struct rec *r)
{
	struct sreq *old = ift_look(&sreqs, r->dev, r->sector + (r->bytes >> 9), 0), keep, *q;

	if (!old)
		return;
	keep = *old;
	/* a taken sector: the request there takes the owner and queue time */
	if (ift_move(&sreqs, old, r->dev, r->sector) && (q = ift_look(&sreqs, r->dev, r->sector, 0))) {
		q->q = keep.q, q->pid = keep.pid, q->owned = keep.owned;
		q->d = keep.d, q->issued = keep.issued;
	}
}

int snoop_unissued_fails;

static int complete(struct sreq *q, const struct rec *r, struct snoop_io *out)
{
	struct snoop_io io = {
		.done = r->time, .sector = r->sector, .dev = r->dev, .bytes = q->bytes,
		.pid = q->owned ? q->pid : 0, .err = rec_errno(r), .w = q->w, .owned = q->owned,
	};

	io.lat = r->time > q->d ? r->time - q->d : 0;
	io.que = q->owned && q->d > q->q ? q->d - q->q : 0;
	io.pattern = pattern_of(r->dev, r->sector, q->bytes);
	*out = io;
	return 1;
}

/* Two requests queued at one sector at once (two readers of one block)
 * are two to biosnoop, which keys a request by its address: the second
 * is kept beside the first, as kind 2.  A D goes to the one waiting, of
 * two (both waiting, or both issued and one requeued) the one its process
 * queued when only one is its, else the first;
 * a C to the issued one, of two the one its process queued when only one
 * is its (a bio-based device completes in the submitter's context), else
 * the one issued first; a merged bio ends the newer. */
static struct sreq *pick(const struct rec *r, int op)
{
	struct sreq *q = ift_look(&sreqs, r->dev, r->sector, 0), *o = ift_look(&sreqs, r->dev, r->sector, 2);

	if (!q || !o)
		return q ? q : o;
	if (op == TA_BACKMERGE)
		return o->q < q->q ? q : o;
	if (q->issued != o->issued)	/* a D's the waiting one, a C's the issued */
		return q->issued == (op != TA_ISSUE) ? q : o;
	if ((q->pid == r->pid) != (o->pid == r->pid))
		return q->pid == r->pid ? q : o;
	return op != TA_ISSUE && o->d < q->d ? o : q;
}

int snoop_event(const struct rec *r, struct snoop_io *io)
{
	u32 a = ACT32(r);
	struct sreq *q;
	int done = 0;

	rec_seq(r);
	switch (a & 0xffff) {
	case TA_QUEUE:
		if ((q = ift_start(&sreqs, r, 0))) {
			q->q = r->time;
			q->pid = r->pid;
			q->owned = 1;
			q->issued = 0;
		}
		break;
	case TA_GETRQ:	/* a request with no Q of its own (a split's rest): its G's */
		if (!ift_look(&sreqs, r->dev, r->sector, 0) && (q = ift_put(&sreqs, r->dev, r->sector, 0, r->time))) {
			q->q = r->time;
			q->pid = r->pid;
			q->owned = 1;
		}
		break;
	case TA_BACKMERGE:	/* the bio joined a request: its own entry ends */
		if ((q = pick(r, TA_BACKMERGE)))
			ift_drop(&sreqs, q);
		break;
	case TA_FRONTMERGE:
		front_merge(r);
		break;
	case TA_ISSUE:	/* a requeued request's new issue replaces the old */
		if ((q = pick(r, TA_ISSUE)) || (q = ift_put(&sreqs, r->dev, r->sector, 0, r->time))) {
			q->d = r->time;
			q->bytes = r->bytes;
			/* biosnoop's T: W for a write; a discard or a flush is R */
			q->w = (a & TC(TC_WRITE)) && !(a & TC(TC_DISCARD));
			q->issued = 1;
		}
		break;
	case TA_COMPLETE:
		fail_note(r);
		q = pick(r, TA_COMPLETE);
		if (q && q->issued)
			done = complete(q, r, io);
		else if (snoop_unissued_fails && rec_errno(r)) {
			/* the C's own size and direction; LAT from the Q */
			struct sreq u = { .d = q ? q->q : r->time, .q = q ? q->q : r->time,
					  .pid = q ? q->pid : 0, .bytes = r->bytes, .owned = q && q->owned,
					  .w = (a & TC(TC_WRITE)) && !(a & TC(TC_DISCARD)) };

			done = complete(&u, r, io);
		}
		if (q)
			ift_drop(&sreqs, q);
		break;
	}
	return done;
}
