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

/* 20 bytes: the memory is these nodes (a trace has some ten thousand
 * distances), so the distance is 48 bits (2^48 sectors: 128 PiB), the
 * links 16 (BTT_SEEKS < 65536) and the tree's number shares a word with
 * the colour */
struct seek_node {
	u32 lo, cnt;
	u16 hi, tr;		/* tr: tree << 1 | red */
	u16 c[2], p;		/* children (left, right), parent: slot + 1; 0: none */
	u16 next;		/* the hash chain */
};
_Static_assert(BTT_SEEKS < 65536, "BTT_SEEKS: the links are 16 bits");
static struct seek_node sn[BTT_SEEKS];
static u16 bucket[BTT_SEEK_HASH];
static u32 sn_used;
_Static_assert(BTT_DEVS < 16384, "BTT_DEVS: a tree's number (two a device) and its colour share a u16");
unsigned long long btt_seek_dropped;

#define N(i) (&sn[(i) - 1])
#define RED(i) (N(i)->tr & 1)
#define PAINT(i, red) (N(i)->tr = (u16)((N(i)->tr & ~1u) | (red)))
static s64 val(u32 i) { return (s64)((u64)N(i)->hi << 32 | N(i)->lo); }

/* left: x's right child comes up (else its left) */
static void rotate(u32 *root, u32 x, int left)
{
	u32 y = N(x)->c[left], c = N(y)->c[!left], p = N(x)->p;

	N(x)->c[left] = (u16)c;
	if (c)
		N(c)->p = (u16)x;
	N(y)->p = (u16)p;
	if (!p)
		*root = y;
	else
		N(p)->c[N(p)->c[1] == x] = (u16)y;
	N(y)->c[!left] = (u16)x;
	N(x)->p = (u16)y;
}

static void fixup(u32 *root, u32 z)
{
	while (N(z)->p && RED(N(z)->p)) {
		u32 p = N(z)->p, g = N(p)->p;
		int pl = N(g)->c[0] == p;
		u32 u = N(g)->c[pl];

		if (u && RED(u)) {
			PAINT(p, 0);
			PAINT(u, 0);
			PAINT(g, 1);
			z = g;
			continue;
		}
		if (z == N(p)->c[pl]) {
			rotate(root, p, pl);
			z = p;
			p = N(z)->p;
		}
		PAINT(p, 0);
		PAINT(g, 1);
		rotate(root, g, !pl);
	}
	PAINT(*root, 0);
}

/* a distance new to k's tree: down the tree, in, and the colours mended
 * (apart from the lookup, whose hits are the rest: no registers to save) */
static __attribute__((noinline)) void tree_new(struct btt_seek *k, s64 v, u16 *b)
{
	u32 *root = &k->root, i, p = 0;
	int left = 0;

	for (i = *root; i;) {
		p = i;
		left = v < val(i);
		i = N(i)->c[!left];
	}
	if (sn_used == BTT_SEEKS || (u64)v >> 48) {
		btt_seek_dropped++;
		return;
	}
	i = ++sn_used;
	*N(i) = (struct seek_node){ .lo = (u32)v, .hi = (u16)((u64)v >> 32), .cnt = 1, .p = (u16)p,
				    .tr = (u16)((u32)k->id << 1 | 1), .next = *b };
	*b = (u16)i;
	if (!p)
		*root = i;
	else
		N(p)->c[!left] = (u16)i;
	fixup(root, i);
}

static void tree_add(struct btt_seek *k, s64 v)
{
	u32 i, tr;
	u16 *b;

	tr = (u32)k->id << 1;
	/* a device's Q2Q and D2D trees (numbers 2i + 1 and 2i + 2, given by
	 * bttstat.c's dev_new) see the same distances, one soon after the
	 * other: their buckets for a distance are neighbours, one line fetched
	 * for both, and neither chain holds the other's node */
	b = &bucket[((u32)(((u64)v * 0x9e3779b97f4a7c15ull) >> 40) << 1 | (k->id & 1)) & (BTT_SEEK_HASH - 1)];
	for (i = *b; i; i = N(i)->next)	/* one test, not three: a branch the random distances mispredict */
		if (!((N(i)->lo ^ (u32)v) | (N(i)->hi ^ (u32)((u64)v >> 32 & 0xffff)) | ((N(i)->tr & ~1u) ^ tr))) {
			N(i)->cnt++;
			return;
		}
	tree_new(k, v, b);
}

/* btt's distance: none when the ranges touch, else from the nearer end */
HOTFN void btt_seek_add(struct btt_seek *k, u64 sector, u32 bytes)
{
	s64 start = (s64)sector, end = start + (bytes >> 9), dist;

	/* as btt's, but without branches (random seeks mispredicted them) */
	dist = start > k->last_end ? start - k->last_end : k->last_start - start;
	if (((k->last_start <= start) & (start <= k->last_end)) | ((k->last_start <= end) & (end <= k->last_end)))
		dist = 0;
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
		*v = val(i);
		return 1;
	}
	return median(N(i)->c[0], target, v) || median(N(i)->c[1], target, v);
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
	modes(N(i)->c[0], m);
	modes(N(i)->c[1], m);
	if (m->n && N(i)->cnt < m->most)
		return;
	if (!m->n || N(i)->cnt > m->most)
		m->n = 0;
	if (m->n < m->cap)
		m->val[m->n] = val(i);
	m->n++;
	m->most = N(i)->cnt;
}

void btt_seek_modes(const struct btt_seek *k, struct btt_mode *m)
{
	m->n = m->most = 0;
	modes(k->root, m);
}
