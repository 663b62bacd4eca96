/* stats/bttseek.c: stats: btt's seek distances per device (Q to Q, D to D): count, mean, median, modes */
/* btt keeps each device's distances in a red-black tree of (distance,
 * count), and its MEDIAN and MODE walk that tree: the median is the first
 * node in pre-order whose count reaches half the seeks (else 0), the
 * modes are collected in post-order.  Where counts tie, the answer depends
 * on the tree's shape, which only the order the distances first came in
 * decides.  So the run counts each distance through a hash of (device,
 * distance), BTT_SEEK_HASH chains over a fixed pool of nodes (BTT_SEEKS)
 * shared by every device, and lists each tree's new distances in order;
 * the report builds the tree from that list, with the classic insertion,
 * its recolouring and rotations, as btt built it on the way.  The run
 * keeps no links: a fifth of btt's resident memory was the trees' links,
 * touched for nothing until the end. */
#include <string.h>
#include "stats/stats.h"

int btt_seek_abs;

/* what every seek touches, small enough for four to share a cache line
 * (a trace has some thousands of distances) */
struct seek_node {
	u64 key;		/* distance (below 2^48: 128 PiB) | device << 48 */
	u32 cnt[2];		/* in tree t: 0 until the distance comes */
};
/* a node's number: 16 bits, but in a build with more (build/big) */
#if BTT_SEEKS < 65536
typedef u16 seek_ix;
#else
typedef u32 seek_ix;
#endif
_Static_assert(BTT_SEEKS < (1u << 24) && BTT_SEEK_HASH <= (1u << 24), "BTT_SEEKS, BTT_SEEK_HASH: a hash of 24 bits");
_Static_assert(BTT_DEVS < 32768, "BTT_DEVS: a tree's number (two a device) is a u16");
/* The pools below fill from their start: each begins a page of its own,
 * so what a run holds of them is its own use, whatever lies before them
 * in bss (a table grown elsewhere moved them by 20 KiB of pages) */
static struct seek_node sn[BTT_SEEKS] __attribute__((aligned(4096)));
static seek_ix ord[2][BTT_SEEKS + 1] __attribute__((aligned(4096)));	/* tree t's nodes (slot + 1) in the order they came; each row whole pages (BTT_SEEKS + 1 a multiple of 2048, as by default) */
static u32 sn_used, nord[2];
/* The run's hash chains (a bucket's first node, each node's next: slot + 1,
 * 0: none), then the report's trees in the same pages: children (left,
 * right), and colours (1: red; [0], the nil node, stays black) past the
 * children of the nodes there are.  btt's report comes once, at the end:
 * the first build ends the chains (44 KiB less at the bench dump's peak).
 * Where the report lends memory idle by then (btt_seek_room: the files'
 * pool), the trees go there instead, and these pages stay the chains'. */
static union {
	struct { seek_ix next[BTT_SEEKS + 1], bucket[BTT_SEEK_HASH]; } run;	/* next first: under the trees */
	struct { seek_ix kid[BTT_SEEKS + 1][2]; u8 red[BTT_SEEKS + 1]; } rep;
} mem __attribute__((aligned(4096)));
#define bucket mem.run.bucket
#define next mem.run.next
static seek_ix (*kid)[2];
static u8 *red;
static void *room;		/* btt_seek_room's */
static size_t nroom;
static u32 nbucket = BTT_SEEK_HASH < 1024 ? BTT_SEEK_HASH : 1024;	/* chains in use, doubled when the nodes are twice as many (two a chain: 8 KiB less on the bench dump, its time the same) */
unsigned long long btt_seek_dropped;

/* a key's hash: 24 bits, its chain the low ones of however many are in use */
static u32 seek_hash(u64 key) { return (u32)((key * 0x9e3779b97f4a7c15ull) >> 40); }

#define N(i) (&sn[(i) - 1])
#define L(i) (kid[i])
static s64 val(u32 i) { return (s64)(N(i)->key & 0xffffffffffffull); }

/* x's child on side up comes up in x's place under p (0: x was the root) */
static void rotate(u32 *root, u32 x, u32 p, int up)
{
	u32 y = L(x)[up];

	L(x)[up] = L(y)[!up];
	L(y)[!up] = (seek_ix)x;
	if (!p)
		*root = y;
	else
		L(p)[L(p)[1] == x] = (seek_ix)y;
}

/* z into the tree: down to its place (path: its ancestors), in red, and
 * the colours mended on the way back up, as btt's insertion does */
static void insert(u32 *root, u32 z)
{
	u32 path[64], d = 0, c, p, g, u;	/* a red-black tree of 2^24 is under 48 high */
	s64 v = val(z);
	int left = 0, pl;

	for (c = *root; c; c = L(c)[!left]) {
		path[d++] = c;
		left = v < val(c);
	}
	L(z)[0] = L(z)[1] = 0;
	red[z] = 1;
	if (!d)
		*root = z;
	else
		L(path[d - 1])[!left] = (seek_ix)z;
	while (d && red[p = path[d - 1]]) {	/* a red parent is not the root: g is there */
		g = path[d - 2];
		pl = L(g)[0] == p;
		u = L(g)[pl];
		if (red[u]) {
			red[p] = red[u] = 0;
			red[g] = 1;
			z = g;
			d -= 2;
			continue;
		}
		if (z == L(p)[pl]) {	/* the inner side: z comes up first */
			rotate(root, p, g, pl);
			u = z, z = p, p = u;
		}
		red[p] = 0;
		red[g] = 1;
		rotate(root, g, d > 2 ? path[d - 3] : 0, !pl);
		break;
	}
	red[*root] = 0;
}

/* k's tree, from its distances in the order they came; its root */
static u32 build(const struct btt_seek *k)
{
	u32 t = k->id & 1, j, root = 0;

	kid = (sn_used + 1) * (sizeof(kid[0]) + 1) <= nroom ? room : mem.rep.kid;
	red = (u8 *)&kid[sn_used + 1];
	red[0] = 0;

	for (j = 0; j < nord[t]; j++)
		if (N(ord[t][j])->key >> 48 == (u32)k->id >> 1)
			insert(&root, ord[t][j]);
	return root;
}

/* a distance new to k's tree (i: its node if the other tree has it, else
 * 0) (apart from the lookup, whose hits are the rest: no registers to save) */
static __attribute__((noinline)) void seek_new(const struct btt_seek *k, u32 i, u64 key, seek_ix *b)
{
	u32 t = k->id & 1;

	if (!i) {
		if (sn_used == BTT_SEEKS) {
			btt_seek_dropped++;
			return;
		}
		if (sn_used == 2 * nbucket && nbucket < BTT_SEEK_HASH) {	/* twice the chains, the nodes on them again */
			nbucket *= 2;
			memset(bucket, 0, nbucket * sizeof(bucket[0]));
			for (i = 1; i <= sn_used; i++) {
				seek_ix *c = &bucket[seek_hash(N(i)->key) & (nbucket - 1)];

				next[i] = *c;
				*c = (seek_ix)i;
			}
			b = &bucket[seek_hash(key) & (nbucket - 1)];
		}
		i = ++sn_used;
		N(i)->key = key;
		next[i] = *b;
		*b = (seek_ix)i;
	}
	N(i)->cnt[t] = 1;
	ord[t][nord[t]++] = (seek_ix)i;
}

/* A D's distance is mostly the one its Q had a moment before: one node
 * for both of a device's trees, Q2Q (t 0) and D2D (t 1), each with its
 * own count, and the D's lookup finds it in the cache (a node a tree, in
 * another line, made the D's half the time of seeks) */
HOTFN void btt_seek_count(struct btt_seek *k)
{
	u64 key = k->key;
	seek_ix *b = &bucket[k->chain & (nbucket - 1)];
	u32 i;

	if (key == ~0ull) {	/* 2^48 sectors or more */
		btt_seek_dropped++;
		return;
	}
	for (i = *b; i && N(i)->key != key; i = next[i])
		;
	if (i && N(i)->cnt[k->id & 1]) {
		N(i)->cnt[k->id & 1]++;
		return;
	}
	seek_new(k, i, key, b);
}

/* btt's distance: none when the ranges touch, else from the nearer end.
 * Its node is asked for here and counted by btt_seek_count after the
 * event's other work, which the two loads (chain, node) then hide under. */
HOTFN void btt_seek_add(struct btt_seek *k, u64 sector, u32 bytes)
{
	s64 start = (s64)sector, end = start + (bytes >> 9), dist;
	u64 key;
	u32 i;

	/* as btt's, but without branches (random seeks mispredicted them) */
	dist = start > k->last_end ? start - k->last_end : k->last_start - start;
	if (((k->last_start <= start) & (start <= k->last_end)) | ((k->last_start <= end) & (end <= k->last_end)))
		dist = 0;
	if (btt_seek_abs)	/* -a: from the last one's end */
		dist = start - k->last_end;
	k->last_start = start;
	k->last_end = end;
	if (dist < 0)
		dist = -dist;
	k->n++;
	k->sum += (double)dist;
	key = (u64)dist | (u64)(k->id >> 1) << 48;
	k->key = (u64)dist >> 48 ? ~0ull : key;
	k->chain = seek_hash(key);
	i = bucket[k->chain & (nbucket - 1)];
	__builtin_prefetch(&sn[i - (i != 0)]);	/* (an empty chain: node 1's line, harmless) */
}

void btt_seek_room(void *p, size_t n)
{
	room = p;
	nroom = p ? n : 0;
}

static int median(u32 i, u32 t, u64 target, s64 *v)
{
	if (!i)
		return 0;
	if (N(i)->cnt[t] >= target) {
		*v = val(i);
		return 1;
	}
	return median(L(i)[0], t, target, v) || median(L(i)[1], t, target, v);
}

s64 btt_seek_median(const struct btt_seek *k)
{
	s64 v = 0;

	median(build(k), k->id & 1, k->n / 2, &v);
	return v;
}

/* post-order, as btt collects them: every value with the largest count
 * (the first cap of them kept in mo->val), and how many there are */
static void modes(u32 i, u32 t, struct btt_mode *mo)
{
	u32 n;

	if (!i)
		return;
	modes(L(i)[0], t, mo);
	modes(L(i)[1], t, mo);
	n = N(i)->cnt[t];
	if (mo->n && n < mo->most)
		return;
	if (!mo->n || n > mo->most)
		mo->n = 0;
	if (mo->n < mo->cap)
		mo->val[mo->n] = val(i);
	mo->n++;
	mo->most = n;
}

void btt_seek_modes(const struct btt_seek *k, struct btt_mode *mo)
{
	mo->n = mo->most = 0;
	modes(build(k), k->id & 1, mo);
}
