/* textd.c: bottom: exact decimals and dates: %.9g of a scaled count (fmt_g9), strftime's and ctime's times of day and dates */
#include <string.h>
#include <time.h>
#include "iomon.h"

/* What printf's %.9g shows for k * 10^e, from the exact decimal value (a
 * count of bytes or microseconds, scaled): exports keep their labels
 * ("8e-06") with no float formatting linked in. */
COLD char *fmt_g9(char *p, u64 k, int e)
{
	char d[24];
	int n, x;

	if (!k) {
		*p++ = '0';
		return p;
	}
	n = (int)(fmt_u64(d, k) - d);
	if (n > 9) {		/* nine significant digits, half to even */
		u64 pw = 1, r;

		for (x = 9; x < n; x++)
			pw *= 10;
		r = k % pw;
		k /= pw;
		k += r > pw / 2 || (r == pw / 2 && (k & 1));
		e += n - 9;
	}
	for (; k % 10 == 0; k /= 10)
		e++;
	n = (int)(fmt_u64(d, k) - d);
	x = n - 1 + e;		/* the leading digit's exponent */
	if (x < -4 || x >= 9) {
		*p++ = d[0];
		if (n > 1) {
			*p++ = '.';
			memcpy(p, d + 1, (size_t)n - 1);
			p += n - 1;
		}
		*p++ = 'e';
		*p++ = x < 0 ? '-' : '+';
		return fmt_zpad(p, (u64)(x < 0 ? -x : x), 2);
	}
	if (x < 0) {
		*p++ = '0';
		*p++ = '.';
		while (++x < 0)
			*p++ = '0';
	} else if (e >= 0) {
		memcpy(p, d, (size_t)n);
		for (p += n; e--;)
			*p++ = '0';
		return p;
	} else {
		memcpy(p, d, (size_t)x + 1);
		p += x + 1;
		*p++ = '.';
		memmove(d, d + x + 1, (size_t)(n - x - 1));
		n -= x + 1;
	}
	memcpy(p, d, (size_t)n);
	return p + n;
}

/* "%H:%M:%S" and ctime's "%a %b %e %H:%M:%S %Y" (blkiomon's time line),
 * without strftime and its locale tables. */
COLD char *fmt_hms(char *p, const struct tm *tm)
{
	p = fmt_zpad(p, (u64)tm->tm_hour, 2);
	*p++ = ':';
	p = fmt_zpad(p, (u64)tm->tm_min, 2);
	*p++ = ':';
	return fmt_zpad(p, (u64)tm->tm_sec, 2);
}

COLD char *fmt_date(char *p, const struct tm *tm)
{
	memcpy(p, &"SunMonTueWedThuFriSat"[(unsigned)tm->tm_wday % 7 * 3], 3);
	p[3] = ' ';
	memcpy(p + 4, &"JanFebMarAprMayJunJulAugSepOctNovDec"[(unsigned)tm->tm_mon % 12 * 3], 3);
	p = fmt_num(p + 7, (u64)tm->tm_mday, 0, 3, 0);
	*p++ = ' ';
	p = fmt_hms(p, tm);
	*p++ = ' ';
	return fmt_s64(p, (s64)tm->tm_year + 1900);
}
