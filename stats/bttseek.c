/* stats/bttseek.c: stats: btt's seek distances per device (Q to Q, D to D): count, mean, median, modes */
/* btt keeps each device's distances in a red-black tree of (distance,
 * count), and its MEDIAN and MODE walk that tree: the median is the first
 * node in pre-order whose count reaches half the seeks (else 0), the
 * modes are collected in post-order.  Where counts tie, the answer depends
 * on the tree's shape, so the same tree is built here: the classic
 * insertion with its recolouring and rotations, in a fixed pool of nodes
 * (BTT_SEEKS) shared by every device.  Most seeks repeat a distance the
 * tree holds: a hash of (tree, distance) finds its node without the walk
 * down the tree (BTT_SEEK_HASH chains), and only a new distance goes in. */
#include "stats/stats.h"

struct seek_node {
	s64 val;
	u32 cnt, l, r, p;	/* slot + 1; 0: none */
	u32 next;		/* the hash chain */
	u16 tree;
	u8 red;
};
static struct seek_node sn[BTT_SEEKS];
static u32 sn_used, bucket[BTT_SEEK_HASH];
static u16 trees;
unsigned long long btt_seek_dropped;

#define N(i) (&sn[(i) - 1])

static void rotate(u32 *root, u32 x, int left)
{
	u32 y = left ? N(x)->r : N(x)->l, c = left ? N(y)->l : N(y)->r, p = N(x)->p;

	if (left)
		N(x)->r = c;
	else
		N(x)->l = c;
	if (c)
		N(c)->p = x;
	N(y)->p = p;
	if (!p)
		*root = y;
	else if (N(p)->l == x)
		N(p)->l = y;
	else
		N(p)->r = y;
	if (left)
		N(y)->l = x;
	else
		N(y)->r = x;
	N(x)->p = y;
}

static void fixup(u32 *root, u32 z)
{
	while (N(z)->p && N(N(z)->p)->red) {
		u32 p = N(z)->p, g = N(p)->p;
		int pl = N(g)->l == p;
		u32 u = pl ? N(g)->r : N(g)->l;

		if (u && N(u)->red) {
			N(p)->red = N(u)->red = 0;
			N(g)->red = 1;
			z = g;
			continue;
		}
		if (z == (pl ? N(p)->r : N(p)->l)) {
			rotate(root, p, pl);
			z = p;
			p = N(z)->p;
		}
		N(p)->red = 0;
		N(g)->red = 1;
		rotate(root, g, !pl);
	}
	N(*root)->red = 0;
}

static void tree_add(struct btt_seek *k, s64 v)
{
	u32 *root = &k->root, i, p = 0, *b;
	int left = 0;

	if (!k->id)
		k->id = ++trees;
	b = &bucket[(u32)(((u64)v * 0x9e3779b97f4a7c15ull + k->id) >> 40) & (BTT_SEEK_HASH - 1)];
	for (i = *b; i; i = N(i)->next)
		if (N(i)->val == v && N(i)->tree == k->id) {
			N(i)->cnt++;
			return;
		}
	for (i = *root; i;) {
		p = i;
		left = v < N(i)->val;
		i = left ? N(i)->l : N(i)->r;
	}
	if (sn_used == BTT_SEEKS) {
		btt_seek_dropped++;
		return;
	}
	i = ++sn_used;
	*N(i) = (struct seek_node){ .val = v, .cnt = 1, .p = p, .red = 1, .next = *b, .tree = k->id };
	*b = i;
	if (!p)
		*root = i;
	else if (left)
		N(p)->l = i;
	else
		N(p)->r = i;
	fixup(root, i);
}

/* btt's distance: none when the ranges touch, else from the nearer end */
void btt_seek_add(struct btt_seek *k, u64 sector, u32 bytes)
{
	s64 start = (s64)sector, end = start + (bytes >> 9), dist;

	if ((k->last_start <= start && start <= k->last_end) || (k->last_start <= end && end <= k->last_end))
		dist = 0;
	else if (start > k->last_end)
		dist = start - k->last_end;
	else
		dist = start - k->last_start;
	k->last_start = start;
	k->last_end = end;
	if (dist < 0)
		dist = -dist;
	k->n++;
	k->sum += (double)dist;
	tree_add(k, dist);
}

static int median(u32 i, u64 target, s64 *v)
{
	if (!i)
		return 0;
	if (N(i)->cnt >= target) {
		*v = N(i)->val;
		return 1;
	}
	return median(N(i)->l, target, v) || median(N(i)->r, target, v);
}

s64 btt_seek_median(const struct btt_seek *k)
{
	s64 v = 0;

	median(k->root, k->n / 2, &v);
	return v;
}

/* post-order, as btt collects them: every value with the largest count
 * (the first cap of them kept in m->val), and how many there are */
static void modes(u32 i, struct btt_mode *m)
{
	if (!i)
		return;
	modes(N(i)->l, m);
	modes(N(i)->r, m);
	if (m->n && N(i)->cnt < m->most)
		return;
	if (!m->n || N(i)->cnt > m->most)
		m->n = 0;
	if (m->n < m->cap)
		m->val[m->n] = N(i)->val;
	m->n++;
	m->most = N(i)->cnt;
}

void btt_seek_modes(const struct btt_seek *k, struct btt_mode *m)
{
	m->n = m->most = 0;
	modes(k->root, m);
}
