/* stats/iostats.c: stats: blkparse counters, per-process statistics */
/* blkparse's per-CPU, per-device and per-process counters and the block
 * of text that reports them.  The layout, including its odd spacing and
 * the K/M/G steps of 1000, is blkparse's; numbers carry no thousands
 * separators because blkparse asks for the "en_US" locale, which Debian
 * does not ship, and falls back to C. */
#include <string.h>
#include "stats/stats.h"

void iostats_add(iostats into, const iostats from)
{
	int i;

	for (i = 0; i < ST_N; i++)
		into[i] += from[i];
}

/* "%'8Lu%c": scaled by 1000 while above a million, suffix K/M/G/P. */
static char *scaled(char *p, u64 v, int in_kb)
{
	static const char suff[] = { 0, 'K', 'M', 'G', 'P' };
	int i = in_kb;

	while (v > 1000000u && i < 4) {
		i++;
		v /= 1000;
	}
	p = fmt_num(p, v, 0, 8, 0);
	if (suff[i])
		*p++ = suff[i];
	return p;
}

static void pair_line(struct obuf *o, const char *l, u64 n, u64 kb, const char *r, u64 n2, u64 kb2)
{
	char *p = ob_room(o, 160);

	p = fmt_str(p, l, 0, 0);
	p = scaled(p, n, 0);
	*p++ = ',', *p++ = ' ';
	p = scaled(p, kb, 1);
	memcpy(p, "iB\t", 3);
	p = fmt_str(p + 3, r, 0, 0);
	p = scaled(p, n2, 0);
	*p++ = ',', *p++ = ' ';
	p = scaled(p, kb2, 1);
	memcpy(p, "iB\n", 3);
	ob_done(o, p + 3);
}

static void count_line(struct obuf *o, const char *l, u64 n, const char *r, u64 n2)
{
	char *p = ob_room(o, 160);

	p = fmt_str(p, l, 0, 0);
	p = scaled(p, n, 0);
	*p++ = '\t', *p++ = '\t';
	p = fmt_str(p, r, 0, 0);
	p = scaled(p, n2, 0);
	*p++ = '\n';
	ob_done(o, p);
}

/* "%'8lu%8c\t" then "%'8lu\n": plain numbers, never scaled. */
static void plain_line(struct obuf *o, const char *l, u64 a, const char *r, u64 b)
{
	char *p = ob_room(o, 160);

	p = fmt_str(p, l, 0, 0);
	p = fmt_num(p, a, 0, 8, 0);
	p = fmt_str(p, " ", 8, 0);
	*p++ = '\t';
	p = fmt_str(p, r, 0, 0);
	p = fmt_num(p, b, 0, 8, 0);
	*p++ = '\n';
	ob_done(o, p);
}

#define KB(s, i) ((s)[i] + ((s)[(i) + 2] >> 10))	/* kb + (bytes >> 10) */

/* iostats_print's lines, blkparse's order: the read counter (its write
 * twin follows it; a pair's KiB and bytes are two and four on) and the
 * labels; a NULL label ends a run */
static const struct io_line {
	u8 pair, st;
	const char *l, *r;
} io_lines[] = {
	{ 1, ST_Q, " Reads Queued:    ", " Writes Queued:    " },
	{ 1, ST_I, " Read Dispatches: ", " Write Dispatches: " },
	{ 0, ST_RQ, " Reads Requeued:  ", " Writes Requeued:  " },
	{ 1, ST_C, " Reads Completed: ", " Writes Completed: " },
	{ 1, ST_M, " Read Merges:     ", " Write Merges:     " },
	{ 0, 0, NULL, NULL },
	{ 1, ST_QPC, " PC Reads Queued: ", " PC Writes Queued: " },
	{ 1, ST_IPC, " PC Read Disp.:   ", " PC Write Disp.:   " },
	{ 0, ST_RQPC, " PC Reads Req.:   ", " PC Writes Req.:   " },
	{ 0, ST_CPC, " PC Reads Compl.: ", " PC Writes Compl.: " },
	{ 0, 0, NULL, NULL },
};

/* one run of io_lines */
static void io_run(struct obuf *o, const iostats s, const struct io_line *k)
{
	for (; k->l; k++) {
		const u64 *v = s + k->st;

		if (k->pair)
			pair_line(o, k->l, v[0], KB(v, 2), k->r, v[1], KB(v, 3));
		else
			count_line(o, k->l, v[0], k->r, v[1]);
	}
}

void iostats_print(struct obuf *o, const iostats s, const char *title, const u32 *depth)
{
	ob_puts(o, title);
	ob_write(o, "\n", 1);
	io_run(o, s, io_lines);
	if (depth)
		plain_line(o, " Read depth:      ", depth[0], " Write depth:      ", depth[1]);
	if (s[ST_QPC] || s[ST_QPC_W] || s[ST_IPC] || s[ST_IPC_W] || s[ST_RQPC] ||
	    s[ST_RQPC_W] || s[ST_CPC] || s[ST_CPC_W])
		io_run(o, s, io_lines + 6);
	plain_line(o, " IO unplugs:      ", s[ST_UNPLUG_IO], " Timer unplugs:    ", s[ST_UNPLUG_TIMER]);
}

/* ---- per-process statistics (-s) ---- */

static struct ppi ppis[PPI_MAX];
static u32 nppi, ppi_bucket[PPI_HASH];	/* index + 1, newest first */
int ppi_by_name;
unsigned long long ppi_dropped;

static const char *ppi_name(const struct ppi *p)
{
	const char *n = proc_name(p->pid);

	return n ? n : "unknown";
}

static u32 name_hash(const char *s)
{
	u32 h = 2166136261u;

	while (*s)
		h = (h ^ (u8)*s++) * 16777619u;
	return h % PPI_HASH;
}

struct ppi *ppi_find(u32 pid)
{
	const char *name;
	u32 i;

	if (!ppi_by_name) {
		for (i = ppi_bucket[pid % PPI_HASH]; i; i = ppis[i - 1].chain)
			if (ppis[i - 1].pid == pid)
				return &ppis[i - 1];
		return NULL;
	}
	/* By name, the newest process of that name answers, as in blkparse. */
	name = proc_name(pid);
	if (!name)
		return NULL;
	for (i = ppi_bucket[name_hash(name)]; i; i = ppis[i - 1].chain)
		if (!strcmp(ppi_name(&ppis[i - 1]), name)) {
			if (ppis[i - 1].pid != pid)
				ppis[i - 1].more_than_one = 1;
			return &ppis[i - 1];
		}
	return NULL;
}

struct ppi *ppi_get(u32 pid)
{
	struct ppi *p = ppi_find(pid);
	u32 h;

	if (p)
		return p;
	if (nppi == PPI_MAX) {
		ppi_dropped++;
		return NULL;
	}
	if (!proc_name(pid))
		proc_add(pid, (const u8 *)"unknown", 8);
	p = &ppis[nppi++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	h = ppi_by_name ? name_hash(ppi_name(p)) : pid % PPI_HASH;
	p->chain = ppi_bucket[h];
	ppi_bucket[h] = nppi;
	return p;
}

static int isdig(int c) { return c >= '0' && c <= '9'; }

/* glibc's strverscmp, which blkparse sorts names with: digit runs compare
 * as numbers, runs with leading zeros as fractions (by character). */
static int verscmp(const char *a, const char *b)
{
	size_t i = 0, start = 0, la, lb;

	while (a[i] == b[i]) {
		if (!a[i])
			return 0;
		if (!isdig(a[i]))
			start = i + 1;
		i++;
	}
	if ((start < i || (isdig(a[i]) && isdig(b[i]))) && a[start] != '0') {
		for (la = i; isdig(a[la]); la++)
			;
		for (lb = i; isdig(b[lb]); lb++)
			;
		if (la != lb)
			return la < lb ? -1 : 1;
	}
	return (u8)a[i] - (u8)b[i];
}

static u64 ppi_key(const struct ppi *p, int key)
{
	const u64 *s = p->st;

	switch (key) {
	case 'Q': return KB(s, ST_Q_KB) + KB(s, ST_Q_KB_W);
	case 'R': return KB(s, ST_Q_KB);
	case 'W': return KB(s, ST_Q_KB_W);
	case 'C': return KB(s, ST_C_KB) + KB(s, ST_C_KB_W);
	case 'q': return s[ST_Q] + s[ST_Q_W];
	case 'r': return s[ST_Q];
	case 'w': return s[ST_Q_W];
	case 'c': return s[ST_C] + s[ST_C_W];
	}
	return 0;
}

static int ppi_cmp(const struct ppi *a, const struct ppi *b, int key)
{
	u64 x, y;

	if (key == 'N') {
		int r = verscmp(ppi_name(a), ppi_name(b));

		return r ? r : a->pid > b->pid;
	}
	x = ppi_key(a, key);
	y = ppi_key(b, key);
	return x > y ? 1 : x < y ? -1 : 0;
}

void ppi_print_all(struct obuf *o, int key)
{
	static u16 order[PPI_MAX];
	u32 i, j;

	/* blkparse lists newest first, then sorts stably (glibc's qsort is a
	 * merge sort); an insertion sort over that order is stable too. */
	for (i = 0; i < nppi; i++) {
		u16 v = (u16)(nppi - 1 - i);

		for (j = i; j && ppi_cmp(&ppis[order[j - 1]], &ppis[v], key) > 0; j--)
			order[j] = order[j - 1];
		order[j] = v;
	}
	for (i = 0; i < nppi; i++) {
		const struct ppi *p = &ppis[order[i]];
		char title[64], *t;

		t = fmt_str(title, ppi_name(p), 0, 0);
		*t++ = ' ', *t++ = '(';
		t = fmt_u64(t, p->pid);
		if (p->more_than_one)
			t = fmt_str(t, ", ...", 0, 0);
		*t++ = ')';
		*t = 0;
		iostats_print(o, p->st, title, NULL);
		plain_line(o, " Allocation wait: ", p->wait_alloc[0] / 1000, " Allocation wait:  ", p->wait_alloc[1] / 1000);
		plain_line(o, " Dispatch wait:   ", p->wait_dispatch[0] / 1000, " Dispatch wait:    ", p->wait_dispatch[1] / 1000);
		plain_line(o, " Completion wait: ", p->wait_complete[0] / 1000, " Completion wait:  ", p->wait_complete[1] / 1000);
	}
	ob_write(o, "\n", 1);
}
