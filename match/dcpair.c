/* match/dcpair.c: match: blkiomon's D/C pairing, on an IFT_AGE_FIFO in-flight table */
/* A D (issue) or C (complete) waits in the table under (device, sector,
 * class) until its partner comes; the class is the action's R/W/FS/PC
 * bits, so a read and a write on one sector never pair.  The pair counts
 * when the older one is a D and the younger a C; otherwise the younger one
 * is kept (a mismatch).  Records never paired age out of a full table,
 * oldest stored first; both wait in note[] for the caller to take.  dc_pair and
 * dc_store are inline in iomon.h: they run for every record. */
#include "match/match.h"

static COLD void keep(struct dcpair *p, const char *what, const struct dc_rec *r)
{
	if (p->nnotes == DC_NOTES) {
		p->notes_lost++;
		return;
	}
	p->note[p->nnotes].what = what;
	p->note[p->nnotes++].r = *r;
}

static COLD void aged(void *ctx, void *e)
{
	struct dc_rec r;

	dc_rec_of(e, &r);
	keep(ctx, "aged out", &r);
}

COLD void dc_init(struct dcpair *p)
{
	p->t->evict = p->notes ? aged : NULL;
	p->t->ctx = p;
}

/* no D then C: keep the more recent one */
COLD void dc_mismatch(struct dcpair *p, const struct dc_rec *old, const struct dc_rec *young)
{
	p->mismatch++;
	if (p->notes) {
		keep(p, "mismatch", old);
		keep(p, "mismatch", young);
	}
	dc_fill(ift_put(p->t, young->dev, young->sector, DC_CLASS(young->action), young->time), young);
}
