/* tests/tools/varcheck.c: stats/exact.c's variance against Python's fractions.
 * Reads "num sum v1 v2 ..." lines (decimal); for each, sums the squares
 * with sq_add and prints fmt_variance to 1 and to 3 decimals. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stats/stats.h"

int sfmt(char *buf, size_t cap, const char *fmt, ...) { (void)buf; (void)cap; (void)fmt; return 0; }

int main(void)
{
	static char line[1 << 16];

	while (fgets(line, sizeof(line), stdin)) {
		char *p = line, *e, a[80], b[80];
		struct sq160 q = { 0, 0, 0 };
		u64 num = 0, sum = 0, v;

		for (v = strtoull(p, &e, 10); e != p; v = strtoull(p, &e, 10)) {
			p = e;
			sq_add(&q, v);
			sum += v;
			num++;
		}
		*fmt_variance(a, num, sum, &q, 1) = 0;
		*fmt_variance(b, num, sum, &q, 3) = 0;
		printf("%s %s\n", a, b);
	}
	return 0;
}
