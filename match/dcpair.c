/* match/dcpair.c: match: blkiomon's D/C pairing, on an IFT_AGE_FIFO in-flight table */
/* A D (issue) or C (complete) waits in the table under (device, sector,
 * class) until its partner comes; the class is the action's R/W/FS/PC
 * bits, so a read and a write on one sector never pair.  The pair counts
 * when the older one is a D and the younger a C; otherwise the younger one
 * is kept (a mismatch).  Records never paired age out of a full table,
 * oldest stored first; both are shown to the caller's note().  dc_pair and
 * dc_store are inline in iomon.h: they run for every record. */
#include "match/match.h"

static COLD void aged(void *ctx, void *e)
{
	struct dcpair *p = ctx;
	struct dc_rec r;

	dc_rec_of(e, &r);
	p->note(p->ctx, "aged out", &r);
}

COLD void dc_init(struct dcpair *p)
{
	p->t->evict = p->note ? aged : NULL;
	p->t->ctx = p;
}

/* no D then C: keep the more recent one */
COLD void dc_mismatch(struct dcpair *p, const struct dc_rec *old, const struct dc_rec *young)
{
	struct dc_ent *e;

	p->mismatch++;
	if (p->note) {
		p->note(p->ctx, "mismatch", old);
		p->note(p->ctx, "mismatch", young);
	}
	if ((e = ift_put(p->t, young->dev, young->sector, DC_CLASS(young->action), young->time))) {
		e->time = young->time;	/* dc_store, not inline */
		e->action = young->action;
		e->bytes = young->bytes;
	}
}
