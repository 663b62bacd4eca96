/* packtext: the build's packer of the applets' usage texts (and strerror's,
 * and the long messages).
 *   packtext [-z] [-h HOT.ld] OUT.c FILE.c...
 * (-z: a build with zstd.  The texts under "#ifdef IOMON_ZSTD" are left
 * out without it, those under "#ifndef IOMON_ZSTD" with it: a build has
 * only the messages its code can say.)
 * A run unpacks the stream as far as the furthest text it asks for, so
 * the texts go in the order runs ask for them: first the TEXTs that
 * HOT.ld (output/hot.ld, make hotlist) names (.rodata.U_id: btt's), then
 * the other TEXTs, the messages, then the USAGEs, asked for only by
 * --help (btt with every output: 8 KiB of the buffer less).
 * Each FILE's USAGE(id, "..." "...") (iomon.h) gives one text, each
 * TEXT(id, "...") one ending in a NUL (a format T(id) hands over); OUT.c gets
 * them all as one packed stream (usage_lz), where each text starts and
 * ends once unpacked (U_id, one array each: a build with some applets
 * has only their texts), and the buffer base.c's usage_text unpacks
 * into.  Usage text is most of the binary's strings, much of it
 * repeated ("  -x FILE ...", "the "), and ASCII in few letters, so the
 * stream is copies and letters, each in a Huffman code (deflate's idea,
 * simpler and with tables fixed at build time):
 *   a symbol of usage_lit: below 128 the letter itself; 128 + k a copy
 *     of LEN bytes, LEN - 3 = val(k);
 *   after a copy's symbol, one of usage_dist: it comes from val(k) + 1
 *     bytes back (into earlier texts too);
 *   val(k): k below 4 is itself; else (2 or 3, k's low bit) << (k/2 - 1),
 *     plus k/2 - 1 more bits, low bit first.
 * Bits are read from each byte's low bit up.  A code is read a bit at a
 * time, first bit highest (canonical codes); each table holds how many
 * codes have each length 1 to 15, then the symbols in code order.  The
 * coding is chosen by dynamic programming from the end, in bits, with
 * the code lengths of the pass before (four passes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXTEXT 65536
#define MAXIDS 1024
#define MINLEN 3
#define MAXLEN 258		/* val(15)'s largest, plus 3 */
#define NLIT (128 + 16)
#define NDIST 32		/* val(31): 65535 back */
#define MAXBITS 15
#define CHAIN 8192		/* earlier places of a 3-byte string tried */

static unsigned char text[MAXTEXT];
static size_t len;
static char ids[MAXIDS][32];
static size_t span[MAXIDS][2];
static int nids, istext[MAXIDS];

static void die(const char *file, const char *why)
{
	fprintf(stderr, "packtext: %s: %s\n", file, why);
	exit(1);
}

static void add(const char *file, int c)
{
	if (len >= MAXTEXT)
		die(file, "texts too long");
	if (c & 0x80)
		die(file, "a byte past ASCII in a usage text");
	text[len++] = (unsigned char)c;
}

/* one string literal at p (after its opening quote); returns past its end */
static const char *literal(const char *file, const char *p)
{
	static const char from[] = "nt\\\"'", to[] = "\n\t\\\"'";
	const char *e;

	for (; *p != '"'; p++) {
		if (!*p || *p == '\n')
			die(file, "a usage string literal not closed on its line");
		if (*p != '\\') {
			add(file, *p);
			continue;
		}
		if (p[1] >= '0' && p[1] <= '7') {	/* octal, up to three digits */
			int c = 0, k;

			for (k = 0; k < 3 && p[1] >= '0' && p[1] <= '7'; k++)
				c = c * 8 + *++p - '0';
			add(file, c);
			continue;
		}
		e = strchr(from, *++p);
		if (!*p || !e)
			die(file, "an escape packtext does not know");
		add(file, to[e - from]);
	}
	return p + 1;
}

static char *hot;	/* HOT.ld's text */

/* is id one HOT.ld names? */
static int is_hot(const char *id, size_t n)
{
	const char *p = hot;

	while (p && (p = strstr(p, ".rodata.U_")) != NULL) {
		p += 10;
		if (!strncmp(p, id, n) && p[n] == ')')
			return 1;
	}
	return 0;
}

/* in one source file, every TEXT(id, ...) HOT.ld names (want 2), every
 * other TEXT (1), or every USAGE(id, ...) (0) */
static void scan(const char *file, const char *s, int want)
{
	const char *p = s, *q, *u, *t;
	int nul;

	for (;;) {
		u = strstr(p, "\nUSAGE(");
		t = strstr(p, "\nTEXT(");
		if (!u && !t)
			break;
		nul = !u || (t && t < u);
		p = nul ? t + 6 : u + 7;
		q = strchr(p, ',');
		if (!q || q - p >= 31 || nids == MAXIDS)
			die(file, "USAGE( or TEXT( without a short id and a comma");
		if ((nul && is_hot(p, (size_t)(q - p))) + nul != want)
			continue;
		memcpy(ids[nids], p, (size_t)(q - p));
		span[nids][0] = len;
		for (p = q + 1; *p != ')'; p++) {
			if (*p == '"')
				p = literal(file, p + 1) - 1;
			else if (*p != ' ' && *p != '\t' && *p != '\n')
				die(file, "USAGE( holds something other than string literals");
		}
		if (nul)
			add(file, 0);
		istext[nids] = nul;
		span[nids++][1] = len;
	}
}

/* The lines a build without zstd (or with it: zstd) leaves out, blanked:
 * those under #ifdef IOMON_ZSTD or #ifndef IOMON_ZSTD, up to its #else or
 * #endif (other conditionals count only for their nesting) */
static void zstd_only(char *s, int zstd)
{
	int depth = 0, at = 0, out = 0;	/* at: the IOMON_ZSTD one's depth */
	char *l, *e;

	for (l = s; *l; l = *e ? e + 1 : e) {
		int blank = out;

		e = strchr(l, '\n');
		if (!e)
			e = l + strlen(l);
		if (!strncmp(l, "#if", 3)) {
			depth++;
			if (!at && !strncmp(l, "#ifdef IOMON_ZSTD", 17))
				at = depth, out = !zstd, blank = 0;
			else if (!at && !strncmp(l, "#ifndef IOMON_ZSTD", 18))
				at = depth, out = zstd, blank = 0;
		} else if (!strncmp(l, "#else", 5) && depth == at) {
			out = !out, blank = 0;
		} else if (!strncmp(l, "#endif", 6)) {
			if (depth-- == at)
				at = 0, out = 0, blank = 0;
		}
		if (blank)
			memset(l, ' ', (size_t)(e - l));
	}
}

static char *slurp(const char *file)
{
	FILE *f = fopen(file, "r");
	static char buf[1 << 20];
	size_t n;

	if (!f)
		die(file, "cannot open");
	buf[0] = '\n';		/* a USAGE( on the first line counts too */
	n = fread(buf + 1, 1, sizeof(buf) - 2, f);
	fclose(f);
	buf[n + 1] = 0;
	return buf;
}

static double cost[MAXTEXT + 1];
static unsigned short take[MAXTEXT + 1], back[MAXTEXT + 1];	/* 0: a letter */
static int head[1 << 16], prev[MAXTEXT];
static unsigned char lbits[NLIT], dbits[NDIST];	/* code lengths; 0: unused */
static unsigned lcode[NLIT], dcode[NDIST];
static unsigned long lfreq[NLIT], dfreq[NDIST];

/* val's k for v, and its extra bits */
static unsigned bucket(unsigned v, unsigned *extra)
{
	unsigned n = 0;

	if (v < 4)
		return *extra = 0, v;
	while (v >> (n + 1))
		n++;
	*extra = n - 1;
	return 2 * n + (v >> (n - 1) & 1);
}

/* bits of a symbol: a symbol the last pass did not use costs 12 */
static double sym_cost(const unsigned char *bits, unsigned s)
{
	return bits[s] ? bits[s] : 12;
}

static double copy_cost(unsigned n, unsigned off)
{
	unsigned le, de, lk = bucket(n - MINLEN, &le), dk = bucket(off - 1, &de);

	return sym_cost(lbits, 128 + lk) + le + sym_cost(dbits, dk) + de;
}

static unsigned hash3(size_t i)
{
	return (text[i] * 31u * 31u + text[i + 1] * 31u + text[i + 2]) & 0xffff;
}

static void plan(void)
{
	size_t i, j, n, k, most[NDIST];
	unsigned e, b;
	int steps;
	double c;

	cost[len] = 0;
	for (i = len; i-- > 0;) {
		cost[i] = sym_cost(lbits, text[i]) + cost[i + 1];
		take[i] = 0;
		if (i + MINLEN > len)
			continue;
		/* within one distance code a nearer copy costs the same: each
		 * length is tried at the nearest place that has it */
		memset(most, 0, sizeof(most));
		for (j = (size_t)prev[i], steps = 0; j != (size_t)-1 && steps < CHAIN; j = (size_t)prev[j], steps++) {
			for (n = 0; n < MAXLEN && i + n < len && text[j + n] == text[i + n]; n++)
				;
			b = bucket((unsigned)(i - j - 1), &e);
			k = most[b] >= MINLEN ? most[b] + 1 : MINLEN;
			if (n > most[b])
				most[b] = n;
			for (; k <= n; k++) {
				c = copy_cost((unsigned)k, (unsigned)(i - j)) + cost[i + k];
				if (c < cost[i])
					cost[i] = c, take[i] = (unsigned short)k, back[i] = (unsigned short)(i - j);
			}
		}
	}
}

/* Huffman code lengths for f[0..n), none past MAXBITS (the counts halved
 * until none is) */
static void lengths(unsigned long *f, int n, unsigned char *bits)
{
	static unsigned long w[2 * NLIT];
	static int up[2 * NLIT], live[2 * NLIT];
	int i, m, a, b, nl, deep;

	for (;;) {
		for (i = 0, nl = 0; i < n; i++) {
			w[i] = f[i];
			up[i] = -1;
			if (f[i])
				live[nl++] = i;
		}
		if (nl == 1)	/* one symbol still takes a bit */
			live[nl++] = f[0] ? 1 : 0, w[live[1]] = 1, up[live[1]] = -1;
		for (m = n; nl > 1; m++) {	/* join the two lightest */
			for (a = 0, i = 1; i < nl; i++)
				if (w[live[i]] < w[live[a]])
					a = i;
			i = live[a], live[a] = live[--nl], a = i;
			for (b = 0, i = 1; i < nl; i++)
				if (w[live[i]] < w[live[b]])
					b = i;
			i = live[b], live[b] = m, b = i;
			w[m] = w[a] + w[b];
			up[a] = up[b] = m;
			up[m] = -1;
		}
		for (i = 0, deep = 0; i < n; i++) {
			bits[i] = 0;
			if (up[i] < 0 || !w[i])
				continue;
			for (a = i; up[a] >= 0; a = up[a])
				bits[i]++;
			if (bits[i] > deep)
				deep = bits[i];
		}
		if (deep <= MAXBITS)
			return;
		for (i = 0; i < n; i++)
			if (f[i])
				f[i] = (f[i] + 1) / 2;
	}
}

/* canonical codes; the table: the count of each length, then the symbols */
static int canon(const unsigned char *bits, int n, unsigned *code, unsigned char *table)
{
	unsigned next = 0;
	int l, s, t = MAXBITS;

	for (l = 1; l <= MAXBITS; l++) {
		table[l - 1] = 0;
		for (s = 0; s < n; s++)
			if (bits[s] == l) {
				code[s] = next++;
				table[l - 1]++;
				table[t++] = (unsigned char)s;
			}
		next <<= 1;
	}
	return t;
}

static unsigned char out[MAXTEXT * 2];
static size_t nbit;

static void put(unsigned v, unsigned n)	/* low bit first */
{
	for (; n--; v >>= 1, nbit++)
		out[nbit >> 3] |= (unsigned char)((v & 1) << (nbit & 7));
}

static void put_code(unsigned code, unsigned n)	/* first bit highest */
{
	while (n--)
		put(code >> n & 1, 1);
}

static void put_val(unsigned v, const unsigned char *bits, const unsigned *code, int base)
{
	unsigned e, k = bucket(v, &e);

	put_code(code[base + k], bits[base + k]);
	put(v - (k < 4 ? k : (2 | (k & 1)) << (k / 2 - 1)), e);
}

static void count(void)
{
	size_t i;
	unsigned e;

	memset(lfreq, 0, sizeof(lfreq));
	memset(dfreq, 0, sizeof(dfreq));
	for (i = 0; i < len; i += take[i] ? take[i] : 1)
		if (take[i]) {
			lfreq[128 + bucket(take[i] - MINLEN, &e)]++;
			dfreq[bucket(back[i] - 1u, &e)]++;
		} else
			lfreq[text[i]]++;
}

static void table_out(FILE *o, const char *name, const unsigned char *t, int n)
{
	int i;

	fprintf(o, "const unsigned char %s[] = {", name);
	for (i = 0; i < n; i++)
		fprintf(o, "%s%d", !i ? "\n\t" : i % 16 ? "," : ",\n\t", t[i]);
	fprintf(o, "\n};\n\n");
}

int main(int argc, char **argv)
{
	static unsigned char ltab[MAXBITS + NLIT], dtab[MAXBITS + NDIST];
	FILE *o;
	size_t i, n;
	int a, pass, nl, nd;

	int zstd = argc > 1 && !strcmp(argv[1], "-z");

	argv += zstd, argc -= zstd;
	if (argc > 3 && !strcmp(argv[1], "-h")) {
		hot = slurp(argv[2]);
		if (!(hot = strdup(hot)))
			die(argv[2], "out of memory");
		argv += 2, argc -= 2;
	}
	if (argc < 3)
		die("usage", "packtext [-z] [-h HOT.ld] OUT.c FILE.c...");
	for (pass = 2; pass >= 0; pass--)
		for (a = 2; a < argc; a++) {
			char *s = slurp(argv[a]);

			zstd_only(s, zstd);
			scan(argv[a], s, pass);
		}
	for (i = 0; i < len; i++) {	/* each place's earlier ones, nearest first */
		prev[i] = -1;
		if (i + MINLEN <= len) {
			prev[i] = head[hash3(i)] - 1;
			head[hash3(i)] = (int)i + 1;
		}
	}
	for (pass = 0; pass < 4; pass++) {
		plan();
		count();
		lengths(lfreq, NLIT, lbits);
		lengths(dfreq, NDIST, dbits);
	}
	nl = canon(lbits, NLIT, lcode, ltab);
	nd = canon(dbits, NDIST, dcode, dtab);
	for (i = 0; i < len; i += take[i] ? take[i] : 1)
		if (take[i]) {
			put_val(take[i] - MINLEN, lbits, lcode, 128);
			put_val(back[i] - 1u, dbits, dcode, 0);
		} else
			put_code(lcode[text[i]], lbits[text[i]]);
	o = fopen(argv[1], "w");
	if (!o)
		die(argv[1], "cannot write");
	fprintf(o, "/* generated by tests/tools/packtext.c from the USAGE() texts: %zu bytes in %zu, tables %d */\n"
		"#include \"iomon.h\"\n\n", len, (nbit + 7) / 8, nl + nd);
	table_out(o, "usage_lz", out, (int)((nbit + 7) / 8));
	table_out(o, "usage_lit", ltab, nl);
	table_out(o, "usage_dist", dtab, nd);
	for (a = 0; a < nids; a++)
		fprintf(o, "const unsigned short U_%s[2] = { %zu, %zu };\n", ids[a], span[a][0], span[a][1]);
	fprintf(o, "\nchar usage_buf[%zu];\n", len);
	if (fclose(o))
		return 1;
	/* OUT.h: each TEXT's literal, for make textcheck */
	n = strlen(argv[1]);
	if (n < 2 || strcmp(argv[1] + n - 2, ".c"))
		die(argv[1], "not a .c name");
	argv[1][n - 1] = 'h';
	if (!(o = fopen(argv[1], "w")))
		die(argv[1], "cannot write");
	fprintf(o, "/* generated by tests/tools/packtext.c: the TEXT() literals (make textcheck) */\n");
	for (a = 0; a < nids; a++) {
		if (!istext[a])
			continue;
		fprintf(o, "#define TEXT_U_%s \"", ids[a]);
		for (i = span[a][0]; i + 1 < span[a][1]; i++) {
			int c = text[i];

			if (c == '"' || c == '\\')
				fprintf(o, "\\%c", c);
			else if (c == '\n')
				fprintf(o, "\\n");
			else if (c < 32 || c == 127)
				fprintf(o, "\\%03o", c);
			else
				fputc(c, o);
		}
		fprintf(o, "\"\n");
	}
	return fclose(o) != 0;
}
