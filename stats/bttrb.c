/* stats/bttrb.c: stats: btt's red-black trees of the queued requests (a device each): the Q a G, I or M finds, the order a D or C meets them */
/* btt keeps a device's Qs in flight in a red-black tree by start sector
 * (a Q at a taken start takes the older one's node: a dump made to tell
 * that from erasing and inserting shows it) and meets the Qs a D or C
 * covers in a pruned pre-order walk, the order of its per-I/O lines
 * (-l, -q, -z); a G, S, I, M or remap takes the first Q holding its
 * sector on the way down (btt_rb_at).  The textbook insert and erase
 * (btt's rbtree.c does the same: a node with two children gives way to its
 * successor) give the same shapes.  Nodes are the in-flight table's slots; 0 is nil, always black. */
#include "stats/stats.h"

#define NODES (BTT_REQS + 1)
_Static_assert(BTT_REQS <= 65536, "btt_rb_within's 64 waiting sides hold a tree of BTT_REQS (height under 2 log2)");
static u32 kid[NODES][2], par[NODES], root[BTT_DEVS];
static u8 red[NODES];
static u64 from[NODES], to[NODES];	/* [start, end) sectors */

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
u32 btt_rb_ins(u32 r, u32 n, u64 s, u64 e)
{
	u32 p = 0, c = root[r], g, u;
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
	return 0;
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
