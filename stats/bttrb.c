/* stats/bttrb.c: stats: btt's red-black trees: the queued requests (a device each: the Q a G, I or M finds, the order a D or C meets them) and the busy periods (a device each, one for all) */
/* btt keeps a device's Qs in flight in a red-black tree by start sector
 * (a Q at a taken start takes the older one's node: a dump made to tell
 * that from erasing and inserting shows it) and meets the Qs a D or C
 * covers in a pruned pre-order walk, the order of its per-I/O lines
 * (-l, -q, -z); a G, S, I, M or remap takes the first Q holding its
 * sector on the way down (btt_rb_at).  The textbook insert and erase
 * (btt's rbtree.c does the same: a node with two children gives way to its
 * successor) give the same shapes.  Nodes are the in-flight table's slots; 0 is nil, always black. */
#include "stats/stats.h"

#define PBASE (BTT_REQS + 1)	/* the busy periods' nodes follow the requests' */
#define NODES (PBASE + BTT_PERIODS)
_Static_assert(BTT_REQS <= 65536, "btt_rb_within's 64 waiting sides hold a tree of BTT_REQS (height under 2 log2)");
/* roots: the devices' requests, the devices' periods (BTT_LIVE_DEV + i),
 * all devices' periods (BTT_LIVE_ALL) */
/* a node's fields together: a few requests and periods touch a few pages */
static struct rbn {
	u64 from, to;		/* [start, end) sectors; a period's D and C times */
	u32 kid[2], par;
	u8 red;
} nd[NODES];
static u32 root[BTT_LIVE_ALL + 1];

u64 btt_rb_start(u32 slot) { return nd[slot].from; }

static void relink(u32 r, u32 p, u32 old, u32 n)
{
	if (!p)
		root[r] = n;
	else
		nd[p].kid[nd[p].kid[1] == old] = n;
}

/* x goes down on side d; its child on the other side comes up */
static void rot(u32 r, u32 x, int d)
{
	u32 y = nd[x].kid[!d];

	nd[x].kid[!d] = nd[y].kid[d];
	if (nd[y].kid[d])
		nd[nd[y].kid[d]].par = x;
	nd[y].par = nd[x].par;
	relink(r, nd[x].par, x, y);
	nd[y].kid[d] = x;
	nd[x].par = y;
}

/* slot n, [s, e) into device r's tree; the slot it put out (0: none) */
static void link(u32 r, u32 n, u32 p, int d);
u32 btt_rb_ins(u32 r, u32 n, u64 s, u64 e)
{
	u32 p = 0, c = root[r];
	int d = 0;

	nd[n].from = s;
	nd[n].to = e;
	for (; c; c = nd[c].kid[d]) {
		if (s == nd[c].from) {
			for (d = 0; d < 2; d++)
				nd[nd[n].kid[d] = nd[c].kid[d]].par = n;
			nd[n].par = nd[c].par;
			nd[n].red = nd[c].red;
			relink(r, nd[c].par, c, n);
			nd[0].par = 0;
			return c;
		}
		p = c;
		d = s > nd[c].from;
	}
	link(r, n, p, d);
	return 0;
}

/* n, a new leaf, under p on side d (0: the root), then recoloured and
 * rotated as btt's rb_insert_color */
static void link(u32 r, u32 n, u32 p, int d)
{
	u32 g, u;

	nd[n].kid[0] = nd[n].kid[1] = 0;
	nd[n].par = p;
	nd[n].red = 1;
	if (p)
		nd[p].kid[d] = n;
	else
		root[r] = n;
	while ((p = nd[n].par) && nd[p].red) {
		g = nd[p].par;
		d = nd[g].kid[1] == p;
		u = nd[g].kid[!d];
		if (nd[u].red) {
			nd[u].red = nd[p].red = 0;
			nd[g].red = 1;
			n = g;
			continue;
		}
		if (nd[p].kid[!d] == n) {
			rot(r, p, d);
			u = p, p = n, n = u;
		}
		nd[p].red = 0;
		nd[g].red = 1;
		rot(r, g, !d);
	}
	nd[root[r]].red = 0;
}

static void erase_fix(u32 r, u32 n, u32 p)
{
	u32 o;
	int d;

	while (!nd[n].red && n != root[r]) {
		d = nd[p].kid[0] != n;
		o = nd[p].kid[!d];
		if (nd[o].red) {
			nd[o].red = 0;
			nd[p].red = 1;
			rot(r, p, d);
			o = nd[p].kid[!d];
		}
		if (!nd[nd[o].kid[0]].red && !nd[nd[o].kid[1]].red) {
			nd[o].red = 1;
			n = p;
			p = nd[n].par;
			continue;
		}
		if (!nd[nd[o].kid[!d]].red) {
			nd[nd[o].kid[d]].red = 0;
			nd[o].red = 1;
			rot(r, o, !d);
			o = nd[p].kid[!d];
		}
		nd[o].red = nd[p].red;
		nd[p].red = 0;
		nd[nd[o].kid[!d]].red = 0;
		rot(r, p, d);
		n = root[r];
		break;
	}
	nd[n].red = 0;
}

void btt_rb_del(u32 r, u32 n)
{
	u32 c, p, old;
	int black;

	if (!nd[n].kid[0] || !nd[n].kid[1]) {
		c = nd[n].kid[!nd[n].kid[0]];
		p = nd[n].par;
		black = !nd[n].red;
		relink(r, p, n, c);
	} else {		/* its successor takes its place */
		old = n;
		for (n = nd[n].kid[1]; nd[n].kid[0]; n = nd[n].kid[0])
			;
		c = nd[n].kid[1];
		p = nd[n].par;
		black = !nd[n].red;
		if (p == old) {
			nd[old].kid[1] = c;
			p = n;
		} else
			nd[p].kid[0] = c;
		nd[n].par = nd[old].par;
		nd[n].red = nd[old].red;
		nd[n].kid[0] = nd[old].kid[0];
		nd[n].kid[1] = nd[old].kid[1];
		relink(r, nd[old].par, old, n);
		nd[nd[n].kid[0]].par = n;
		if (nd[n].kid[1])
			nd[nd[n].kid[1]].par = n;
	}
	if (c)
		nd[c].par = p;
	if (black)
		erase_fix(r, c, p);
}

/* the Q holding sector s in device r's tree, as btt's search: down by
 * start and end, the first node holding it (0: none) */
u32 btt_rb_at(u32 r, u64 s)
{
	u32 n = root[r];

	while (n && (s < nd[n].from || s >= nd[n].to))
		n = nd[n].kid[s >= nd[n].to];
	return n;
}

/* the slots inside [s, e) in btt's walk order (pre-order, a side only
 * where the range reaches it) into out; how many.  A stack, not a
 * recursion: a right side waits while the left is walked (the height of
 * a red-black tree of BTT_REQS nodes is under 2 log2 of it, < 64) */
u32 btt_rb_within(u32 r, u64 s, u64 e, u32 *out)
{
	u32 wait[64], w = 0, n = root[r], k = 0;

	for (;;) {
		if (!n) {
			if (!w)
				return k;
			n = wait[--w];
		}
		if (s <= nd[n].from && nd[n].to <= e)
			out[k++] = n;
		if (nd[n].to < e && nd[n].kid[1])
			wait[w++] = nd[n].kid[1];
		n = s < nd[n].from ? nd[n].kid[0] : 0;
	}
}

/* btt's busy periods (p_live.c): a D to its C, [dt, ct], goes down its
 * tree (left when it ends before a node begins) and joins the first node
 * on the way that it touches: that node leaves the tree and the two
 * together go down again from the root; else it is a new leaf.  So a
 * span meets only the nodes on its path: one that ends before it begins
 * (times out of order) can leave overlapping nodes apart, and the tree's
 * shape, btt's, decides.  Nodes from PBASE, a free list through nd[].kid[0]. */
static u32 pfree, phwm = PBASE, pused;
void (*btt_fold_out)(const struct btt_live *l, u64 dt, u64 ct);
const struct btt_live *btt_live_adding;	/* the tree a span goes into (it has spans from then on) */
int btt_live_odd;	/* a span ended before it began: shapes matter from here on */

static u32 p_new(void)
{
	u32 n = pfree;

	if (n)
		pfree = nd[n].kid[0];
	else if (phwm < NODES)
		n = phwm++;
	pused += !!n;
	return n;
}

static void p_give(u32 n)
{
	nd[n].kid[0] = pfree;
	pfree = n;
	pused--;
}

static int inside(u32 n, u64 dt, u64 ct)
{
	return (nd[n].from <= dt && dt <= nd[n].to) || (nd[n].from <= ct && ct <= nd[n].to) || (dt < nd[n].from && nd[n].to < ct);
}

/* each period tree's first and last node, so the common cases skip the
 * walk down (below) */
static u32 edge[BTT_LIVE_ALL + 1][2];

static void edges(u32 r)
{
	int k;
	u32 n;

	for (k = 0; k < 2; k++) {
		if ((n = root[r]))
			while (nd[n].kid[k])
				n = nd[n].kid[k];
		edge[r][k] = n;
	}
}

u32 btt_live_next(const struct btt_live *l, u32 n, u64 *dt, u64 *ct);

#ifdef BTT_PERIODS_SAY
static u32 folds_now, folds_most;	/* periods let go of: by this record, by one at most */
#endif

/* node m, the first of l's tree, leaves it for the tally (-Z writes it) */
static void fold(struct btt_live *l, u32 m)
{
	u64 x;

	if (btt_fold_out)
		btt_fold_out(l, nd[m].from, nd[m].to);
#ifdef BTT_PERIODS_SAY
	if (++folds_now > folds_most)
		folds_most = folds_now;
#endif
	l->folded++;
	l->n--;
	if (nd[m].to > l->fold_end)
		l->fold_end = nd[m].to;
	edge[l->id][0] = btt_live_next(l, m, &x, &x);	/* its successor */
	if (edge[l->id][1] == m)
		edge[l->id][1] = 0;
	btt_rb_del(l->id, m);
	p_give(m);
}

/* The pool is full: the first node (in time) of the fullest tree leaves
 * it for the tally.  Exact while every
 * span began before it ended and the node ended before every D still
 * waiting for its C: no span can reach it again, and without overlaps a
 * tree's shape changes nothing. */
static void p_fold(void)
{
	struct btt_live *l = btt_ndevs > 1 ? &btt_live_all : &btt_devs[0].live, *t;
	u32 i, m;

	for (i = 0; i < btt_ndevs; i++)
		if ((t = &btt_devs[i].live)->n > l->n)
			l = t;
	m = edge[l->id][0];
	if (btt_live_odd || !btt_d_after(nd[m].to))
		btt_live_folds++;
	fold(l, m);
}

/* Past BTT_PERIODS_KEEP nodes a tree lets go of its first ones as soon as
 * no span to come can reach them: while every record so far came in time
 * order, one that ended before this C and before every D still waiting
 * for its C.  A tree then holds what can still grow, not the trace's
 * history (the bench dump filled all 4096 nodes: 116 KiB).  A record
 * that goes back in time stops it; a span that then reaches a node let
 * go of is counted as the full pool's are (btt_live_early). */
int btt_unordered;
unsigned long long btt_live_early;

#ifdef BTT_PERIODS_SAY	/* build/periods, build/pool (t-bttlive): the most nodes held at
			 * once, and the most periods one record let go of */
u32 btt_live_hwm(void) { return phwm - PBASE; }
u32 btt_live_most(void) { return folds_most; }
void btt_live_rec(void) { folds_now = 0; }
#endif

static void settle(struct btt_live *l, u64 now)
{
	u32 m;
	int k;

	for (k = 0; k < 2 && l->n > BTT_PERIODS_KEEP && !btt_live_odd && !btt_unordered; k++) {
		m = edge[l->id][0];
		if (!(nd[m].to < now && btt_d_after_lazy(nd[m].to)))
			break;
		fold(l, m);
	}
}

/* In time order (no span so far ended before it began) the nodes are
 * disjoint and in order, and a span that ends at or after the last
 * node's start walks right down to the first node it touches.  Where
 * that is the last node, a red leaf (erased, nothing moves; the joined
 * span goes back in its place), or none (a new last node), the last node
 * is all the walk needs. */
void btt_live_add(struct btt_live *l, u64 dt, u64 ct)
{
	u32 r = l->id, c, p, n, e;
	int d;

	btt_live_adding = l;	/* a fold for its room (p_fold) sees it has spans */
	btt_live_odd |= dt > ct;
	if (dt <= l->fold_end && l->fold_end)
		btt_live_early++;
again:
	p = 0, c = root[r], d = 0, e = edge[r][1];
	if (!btt_live_odd && e && ct >= nd[e].from) {
		if (dt > nd[e].to)
			p = e, c = 0, d = 1;
		else if (nd[e].red && !nd[e].kid[0] && dt > nd[nd[e].par].to) {
			l->len -= nd[e].to - nd[e].from;
			dt = nd[e].from < dt ? nd[e].from : dt;
			ct = nd[e].to > ct ? nd[e].to : ct;
			n = e;
			l->n--;
			goto set;
		}
	}
	for (; c; p = c, c = nd[c].kid[d]) {
		if (inside(c, dt, ct)) {
			dt = nd[c].from < dt ? nd[c].from : dt;
			ct = nd[c].to > ct ? nd[c].to : ct;
			l->n--;
			l->len -= nd[c].to - nd[c].from;
			btt_rb_del(r, c);
			p_give(c);
			goto again;
		}
		d = ct >= nd[c].from;
	}
	if (!(n = p_new())) {
		p_fold();
		goto again;
	}
	link(r, n, p, d);
	if (p == e && d)
		edge[r][1] = n;
	else
		edges(r);
set:
	nd[n].from = dt;
	nd[n].to = ct;
	l->n++;
	l->len += ct - dt;
	if (ct > l->end)
		l->end = ct;
	settle(l, ct);
}

static u32 clone(u32 n, u32 p)
{
	u32 c;

	if (!n)
		return 0;
	c = p_new();
	nd[c].par = p;
	nd[c].red = nd[n].red;
	nd[c].from = nd[n].from;
	nd[c].to = nd[n].to;
	nd[c].kid[0] = clone(nd[n].kid[0], c);
	nd[c].kid[1] = clone(nd[n].kid[1], c);
	return c;
}

/* a second device: the one device's tree was all devices' too; now all
 * have a copy of it, node for node (or, with no room, its tally) */
void btt_live_split(void)
{
	struct btt_live *l = &btt_devs[0].live;

	btt_live_all = *l;
	btt_live_all.id = BTT_LIVE_ALL;
	if (pused + l->n <= BTT_PERIODS) {
		root[BTT_LIVE_ALL] = clone(root[l->id], 0);
		edges(BTT_LIVE_ALL);
	}
	else {
		u32 k;
		u64 dt, ct;

		/* -Z: written as the full pool's are (one a D still waiting
		 * reaches, btt joins to that D's span when it completes: the
		 * file then differs, as the tally's figures do, said) */
		if (btt_fold_out)
			for (k = btt_live_next(l, 0, &dt, &ct); k; k = btt_live_next(l, k, &dt, &ct))
				btt_fold_out(&btt_live_all, dt, ct);
		btt_live_folds += l->n;
		btt_live_all.folded += l->n;
		btt_live_all.n = 0;
	}
}

/* the nodes of l's tree in order: after n (0: the first); 0 past the last */
u32 btt_live_next(const struct btt_live *l, u32 n, u64 *dt, u64 *ct)
{
	if (!n) {
		if ((n = root[l->id]))
			while (nd[n].kid[0])
				n = nd[n].kid[0];
	} else if (nd[n].kid[1])
		for (n = nd[n].kid[1]; nd[n].kid[0]; n = nd[n].kid[0])
			;
	else {
		while (nd[n].par && nd[nd[n].par].kid[1] == n)
			n = nd[n].par;
		n = nd[n].par;
	}
	if (n)
		*dt = nd[n].from, *ct = nd[n].to;
	return n;
}
