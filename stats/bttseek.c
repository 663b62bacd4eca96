/* stats/bttseek.c: stats: btt's seek distances per device (Q to Q, D to D): count, mean, median, modes */
/* btt keeps each device's distances in a red-black tree of (distance,
 * count), and its MEDIAN and MODE walk that tree: the median is the first
 * node in pre-order whose count reaches half the seeks (else 0), the
 * modes are collected in post-order.  Where counts tie, the answer depends
 * on the tree's shape, so the same tree is built here: the classic
 * insertion with its recolouring and rotations, in a fixed pool of nodes
 * (BTT_SEEKS) shared by every device.  Most seeks repeat a distance the
 * tree holds: a hash of (device, distance) finds its node without the walk
 * down the tree (BTT_SEEK_HASH chains), and only a new distance goes in.
 * A node serves both of a device's trees (tree_add says why). */
#include "stats/stats.h"

/* 16 bytes, four to a line: what every seek touches (a trace has some
 * thousands of distances); the hash chain's links, followed past its
 * first node only, and the trees', touched only when a distance is new
 * and at the report, apart (a tree's in its own array) */
struct seek_node {
	u64 key;		/* distance (below 2^48: 128 PiB) | device << 48 */
	u32 cnt[2];		/* in tree t: 0 until the distance goes in */
};
struct seek_link { u16 c[2], p, red; };	/* children (left, right), parent: slot + 1; 0: none */
_Static_assert(BTT_SEEKS < 65536, "BTT_SEEKS: the links are 16 bits");
static struct seek_node sn[BTT_SEEKS];
static struct seek_link sl[2][BTT_SEEKS + 1];	/* [0]: none, never written */
static u16 bucket[BTT_SEEK_HASH], next[BTT_SEEKS + 1];	/* the chains */
static u32 sn_used;
_Static_assert(BTT_DEVS < 32768, "BTT_DEVS: a tree's number (two a device) is a u16");
unsigned long long btt_seek_dropped;

#define N(i) (&sn[(i) - 1])
static s64 val(u32 i) { return (s64)(N(i)->key & 0xffffffffffffull); }

/* left: x's right child comes up (else its left) */
static void rotate(struct seek_link *T, u32 *root, u32 x, int left)
{
	u32 y = T[x].c[left], c = T[y].c[!left], p = T[x].p;

	T[x].c[left] = (u16)c;
	if (c)
		T[c].p = (u16)x;
	T[y].p = (u16)p;
	if (!p)
		*root = y;
	else
		T[p].c[T[p].c[1] == x] = (u16)y;
	T[y].c[!left] = (u16)x;
	T[x].p = (u16)y;
}

static void fixup(struct seek_link *T, u32 *root, u32 z)
{
	while (T[z].p && T[T[z].p].red) {
		u32 p = T[z].p, g = T[p].p;
		int pl = T[g].c[0] == p;
		u32 u = T[g].c[pl];

		if (u && T[u].red) {
			T[p].red = T[u].red = 0;
			T[g].red = 1;
			z = g;
			continue;
		}
		if (z == T[p].c[pl]) {
			rotate(T, root, p, pl);
			z = p;
			p = T[z].p;
		}
		T[p].red = 0;
		T[g].red = 1;
		rotate(T, root, g, !pl);
	}
	T[*root].red = 0;
}

/* a distance new to k's tree (i: its node if the other tree has it, else
 * 0): down the tree, in, and the colours mended (apart from the lookup,
 * whose hits are the rest: no registers to save) */
static __attribute__((noinline)) void tree_new(struct btt_seek *k, u32 i, u64 key, u16 *b)
{
	struct seek_link *T = sl[k->id & 1];
	u32 *root = &k->root, c, p = 0;
	s64 v = (s64)(key & 0xffffffffffffull);
	int left = 0;

	if (!i) {
		if (sn_used == BTT_SEEKS) {
			btt_seek_dropped++;
			return;
		}
		i = ++sn_used;
		N(i)->key = key;
		next[i] = *b;
		*b = (u16)i;
	}
	for (c = *root; c;) {
		p = c;
		left = v < val(c);
		c = T[c].c[!left];
	}
	N(i)->cnt[k->id & 1] = 1;
	T[i] = (struct seek_link){ .p = (u16)p, .red = 1 };
	if (!p)
		*root = i;
	else
		T[p].c[!left] = (u16)i;
	fixup(T, root, i);
}

/* A D's distance is mostly the one its Q had a moment before: one node
 * for both of a device's trees, Q2Q (t 0) and D2D (t 1), each with its
 * own count, and the D's lookup finds it in the cache (a node a tree, in
 * another line, made the D's half the time of seeks) */
static void tree_add(struct btt_seek *k, s64 v)
{
	u64 key = (u64)v | (u64)(k->id >> 1) << 48;
	u16 *b = &bucket[(u32)((key * 0x9e3779b97f4a7c15ull) >> 40) & (BTT_SEEK_HASH - 1)];
	u32 i;

	if ((u64)v >> 48) {
		btt_seek_dropped++;
		return;
	}
	for (i = *b; i && N(i)->key != key; i = next[i])
		;
	if (i && N(i)->cnt[k->id & 1]) {
		N(i)->cnt[k->id & 1]++;
		return;
	}
	tree_new(k, i, key, b);
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

static int median(const struct seek_link *T, u32 i, u64 target, s64 *v)
{
	if (!i)
		return 0;
	if (N(i)->cnt[T == sl[1]] >= target) {
		*v = val(i);
		return 1;
	}
	return median(T, T[i].c[0], target, v) || median(T, T[i].c[1], target, v);
}

s64 btt_seek_median(const struct btt_seek *k)
{
	s64 v = 0;

	median(sl[k->id & 1], k->root, k->n / 2, &v);
	return v;
}

/* post-order, as btt collects them: every value with the largest count
 * (the first cap of them kept in m->val), and how many there are */
static void modes(const struct seek_link *T, u32 i, struct btt_mode *m)
{
	u32 n;

	if (!i)
		return;
	modes(T, T[i].c[0], m);
	modes(T, T[i].c[1], m);
	n = N(i)->cnt[T == sl[1]];
	if (m->n && n < m->most)
		return;
	if (!m->n || n > m->most)
		m->n = 0;
	if (m->n < m->cap)
		m->val[m->n] = val(i);
	m->n++;
	m->most = n;
}

void btt_seek_modes(const struct btt_seek *k, struct btt_mode *m)
{
	m->n = m->most = 0;
	modes(sl[k->id & 1], k->root, m);
}
