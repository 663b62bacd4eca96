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
static u32 kid[NODES][2], par[NODES], root[BTT_LIVE_ALL + 1];
static u8 red[NODES];
static u64 from[NODES], to[NODES];	/* [start, end) sectors; a period's D and C times */

u64 btt_rb_start(u32 slot) { return from[slot]; }

static void relink(u32 r, u32 p, u32 old, u32 n)
{
	if (!p)
		root[r] = n;
	else
		kid[p][kid[p][1] == old] = n;
}

/* x goes down on side d; its child on the other side comes up */
static void rot(u32 r, u32 x, int d)
{
	u32 y = kid[x][!d];

	kid[x][!d] = kid[y][d];
	if (kid[y][d])
		par[kid[y][d]] = x;
	par[y] = par[x];
	relink(r, par[x], x, y);
	kid[y][d] = x;
	par[x] = y;
}

/* slot n, [s, e) into device r's tree; the slot it put out (0: none) */
static void link(u32 r, u32 n, u32 p, int d);
u32 btt_rb_ins(u32 r, u32 n, u64 s, u64 e)
{
	u32 p = 0, c = root[r];
	int d = 0;

	from[n] = s;
	to[n] = e;
	for (; c; c = kid[c][d]) {
		if (s == from[c]) {
			for (d = 0; d < 2; d++)
				par[kid[n][d] = kid[c][d]] = n;
			par[n] = par[c];
			red[n] = red[c];
			relink(r, par[c], c, n);
			par[0] = 0;
			return c;
		}
		p = c;
		d = s > from[c];
	}
	link(r, n, p, d);
	return 0;
}

/* n, a new leaf, under p on side d (0: the root), then recoloured and
 * rotated as btt's rb_insert_color */
static void link(u32 r, u32 n, u32 p, int d)
{
	u32 g, u;

	kid[n][0] = kid[n][1] = 0;
	par[n] = p;
	red[n] = 1;
	if (p)
		kid[p][d] = n;
	else
		root[r] = n;
	while ((p = par[n]) && red[p]) {
		g = par[p];
		d = kid[g][1] == p;
		u = kid[g][!d];
		if (red[u]) {
			red[u] = red[p] = 0;
			red[g] = 1;
			n = g;
			continue;
		}
		if (kid[p][!d] == n) {
			rot(r, p, d);
			u = p, p = n, n = u;
		}
		red[p] = 0;
		red[g] = 1;
		rot(r, g, !d);
	}
	red[root[r]] = 0;
}

static void erase_fix(u32 r, u32 n, u32 p)
{
	u32 o;
	int d;

	while (!red[n] && n != root[r]) {
		d = kid[p][0] != n;
		o = kid[p][!d];
		if (red[o]) {
			red[o] = 0;
			red[p] = 1;
			rot(r, p, d);
			o = kid[p][!d];
		}
		if (!red[kid[o][0]] && !red[kid[o][1]]) {
			red[o] = 1;
			n = p;
			p = par[n];
			continue;
		}
		if (!red[kid[o][!d]]) {
			red[kid[o][d]] = 0;
			red[o] = 1;
			rot(r, o, !d);
			o = kid[p][!d];
		}
		red[o] = red[p];
		red[p] = 0;
		red[kid[o][!d]] = 0;
		rot(r, p, d);
		n = root[r];
		break;
	}
	red[n] = 0;
}

void btt_rb_del(u32 r, u32 n)
{
	u32 c, p, old;
	int black;

	if (!kid[n][0] || !kid[n][1]) {
		c = kid[n][!kid[n][0]];
		p = par[n];
		black = !red[n];
		relink(r, p, n, c);
	} else {		/* its successor takes its place */
		old = n;
		for (n = kid[n][1]; kid[n][0]; n = kid[n][0])
			;
		c = kid[n][1];
		p = par[n];
		black = !red[n];
		if (p == old) {
			kid[old][1] = c;
			p = n;
		} else
			kid[p][0] = c;
		par[n] = par[old];
		red[n] = red[old];
		kid[n][0] = kid[old][0];
		kid[n][1] = kid[old][1];
		relink(r, par[old], old, n);
		par[kid[n][0]] = n;
		if (kid[n][1])
			par[kid[n][1]] = n;
	}
	if (c)
		par[c] = p;
	if (black)
		erase_fix(r, c, p);
}

/* the Q holding sector s in device r's tree, as btt's search: down by
 * start and end, the first node holding it (0: none) */
u32 btt_rb_at(u32 r, u64 s)
{
	u32 n = root[r];

	while (n && (s < from[n] || s >= to[n]))
		n = kid[n][s >= to[n]];
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
		if (s <= from[n] && to[n] <= e)
			out[k++] = n;
		if (to[n] < e && kid[n][1])
			wait[w++] = kid[n][1];
		n = s < from[n] ? kid[n][0] : 0;
	}
}

/* btt's busy periods (p_live.c): a D to its C, [dt, ct], goes down its
 * tree (left when it ends before a node begins) and joins the first node
 * on the way that it touches: that node leaves the tree and the two
 * together go down again from the root; else it is a new leaf.  So a
 * span meets only the nodes on its path: one that ends before it begins
 * (times out of order) can leave overlapping nodes apart, and the tree's
 * shape, btt's, decides.  Nodes from PBASE, a free list through kid[][0]. */
static u32 pfree, phwm = PBASE, pused;
struct btt_fold btt_fold;
int btt_live_odd;	/* a span ended before it began: shapes matter from here on */

static u32 p_new(void)
{
	u32 n = pfree;

	if (n)
		pfree = kid[n][0];
	else if (phwm < NODES)
		n = phwm++;
	pused += !!n;
	return n;
}

static void p_give(u32 n)
{
	kid[n][0] = pfree;
	pfree = n;
	pused--;
}

static int inside(u32 n, u64 dt, u64 ct)
{
	return (from[n] <= dt && dt <= to[n]) || (from[n] <= ct && ct <= to[n]) || (dt < from[n] && to[n] < ct);
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
			while (kid[n][k])
				n = kid[n][k];
		edge[r][k] = n;
	}
}

u32 btt_live_next(const struct btt_live *l, u32 n, u64 *dt, u64 *ct);

/* node m, the first of l's tree, leaves it for the tally (-Z writes it) */
static void fold(struct btt_live *l, u32 m)
{
	u64 x;

	btt_fold.last[btt_fold.n++ % BTT_FOLDS] = (typeof(btt_fold.last[0])){ l, from[m], to[m] };
	l->folded++;
	l->n--;
	if (to[m] > l->fold_end)
		l->fold_end = to[m];
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
	if (btt_live_odd || !btt_d_after(to[m]))
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

#ifdef BTT_PERIODS_SAY	/* build/periods (t-bttlive): the most nodes held at once */
u32 btt_live_hwm(void) { return phwm - PBASE; }
#endif

static void settle(struct btt_live *l, u64 now)
{
	u32 m;
	int k;

	for (k = 0; k < 2 && l->n > BTT_PERIODS_KEEP && !btt_live_odd && !btt_unordered; k++) {
		m = edge[l->id][0];
		if (!(to[m] < now && btt_d_after_lazy(to[m])))
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

	btt_live_odd |= dt > ct;
	if (dt <= l->fold_end && l->fold_end)
		btt_live_early++;
again:
	p = 0, c = root[r], d = 0, e = edge[r][1];
	if (!btt_live_odd && e && ct >= from[e]) {
		if (dt > to[e])
			p = e, c = 0, d = 1;
		else if (red[e] && !kid[e][0] && dt > to[par[e]]) {
			l->len -= to[e] - from[e];
			dt = from[e] < dt ? from[e] : dt;
			ct = to[e] > ct ? to[e] : ct;
			n = e;
			l->n--;
			goto set;
		}
	}
	for (; c; p = c, c = kid[c][d]) {
		if (inside(c, dt, ct)) {
			dt = from[c] < dt ? from[c] : dt;
			ct = to[c] > ct ? to[c] : ct;
			l->n--;
			l->len -= to[c] - from[c];
			btt_rb_del(r, c);
			p_give(c);
			goto again;
		}
		d = ct >= from[c];
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
	from[n] = dt;
	to[n] = ct;
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
	par[c] = p;
	red[c] = red[n];
	from[c] = from[n];
	to[c] = to[n];
	kid[c][0] = clone(kid[n][0], c);
	kid[c][1] = clone(kid[n][1], c);
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
			while (kid[n][0])
				n = kid[n][0];
	} else if (kid[n][1])
		for (n = kid[n][1]; kid[n][0]; n = kid[n][0])
			;
	else {
		while (par[n] && kid[par[n]][1] == n)
			n = par[n];
		n = par[n];
	}
	if (n)
		*dt = from[n], *ct = to[n];
	return n;
}
