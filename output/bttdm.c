/* output/bttdm.c: output: btt's -D (which devices the report, its range data, -I and -Z cover) and -M (the devices' names) */
/* -D: btt reads its text afresh each time it lists the devices: from
 * the start, "%u,%u" (spaces before each number, a sign allowed), then
 * on past the next ';', until a device does not read; so "8,0:8,16" is
 * 8,0 alone and a device named twice is listed twice.  A device the
 * trace has not is left out here (btt 1.2.0 crashes on it), said at the
 * end.  -M: btt reads the map file as runs of [a-zA-Z0-9 :.,/_-] up to
 * 255 bytes, each followed by any white space; it stops at the first
 * run that is empty, holds "Device" or has not two words (a name, then
 * MAJ,MIN); a device takes the first name given it. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "output/output.h"

const char *btt_dlist;
int btt_dmissing;
static struct { char name[BTT_MAPNAME]; char devno[24]; } maps[BTT_MAPS];
static u32 nmaps;

/* scanf's %u: white space, a sign, digits (saturating, then cut to 32 bits) */
static int scan_u(const char **s, u32 *v)
{
	const char *p = *s;
	u64 n = 0;
	int neg = 0, any = 0;

	while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
		p++;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	for (; *p >= '0' && *p <= '9'; p++, any = 1)
		n = n > (~0ull - 9) / 10 ? ~0ull : n * 10 + (u64)(*p - '0');
	*v = (u32)(neg ? 0 - n : n);
	*s = p;
	return any;
}

u32 btt_dnext(struct btt_dit *it)
{
	const char *p;
	u32 mj, mn, i, dev;

	if (!it->p)
		return it->k < btt_ndevs ? it->k++ : ~0u;
	while ((p = it->p) && *p) {
		if (!scan_u(&p, &mj) || *p++ != ',' || !scan_u(&p, &mn))
			break;
		it->p = strchr(p, ';');
		it->p = it->p ? it->p + 1 : "";
		dev = (mj << 20) | mn;
		for (i = 0; i < btt_ndevs; i++)
			if (btt_devs[i].dev == dev)
				return i;
		btt_dmissing = 1;
	}
	it->p = "";
	return ~0u;
}

static const char *map_find(u32 dev)
{
	char no[24];
	u32 i;

	sfmt(no, sizeof(no), "%u,%u", DEV_MAJOR(dev), DEV_MINOR(dev));
	for (i = 0; i < nmaps; i++)
		if (!strcmp(no, maps[i].devno))
			return maps[i].name;
	return NULL;
}

void btt_dev_hdr(char *buf, u32 len, u32 dev, int parens)
{
	const char *m = nmaps ? map_find(dev) : NULL;

	if (m)
		sfmt(buf, len, "%s", m);
	else
		sfmt(buf, len, parens ? "(%3u,%3u)" : "%u,%u", DEV_MAJOR(dev), DEV_MINOR(dev));
}

void btt_dev_file(char *buf, u32 dev)
{
	btt_dev_hdr(buf, BTT_MAPNAME, dev, 0);
}

static int in_set(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || (c && strchr(" :.,/_-", c));
}

TEXT(bttdm_past_names_btt, "%s: %s past %d names (BTT_MAPS) or of %d bytes or more "
	"(BTT_MAPNAME): not read")
/* one run's two words into the next map; 0: stop reading */
static int map_line(const char *file, char *l)
{
	char *w[2], *p = l;
	u32 k, n[2];

	if (str_find(l, "Device"))
		return 0;
	for (k = 0; k < 2; k++) {
		while (*p == ' ')
			p++;
		if (!*p)
			return 0;
		for (w[k] = p; *p && *p != ' '; p++)
			;
		n[k] = (u32)(p - w[k]);
		if (*p)
			*p++ = 0;
	}
	if (nmaps == BTT_MAPS || n[0] >= BTT_MAPNAME) {
		warn_text(U_bttdm_past_names_btt, file, w[0],
			 BTT_MAPS, BTT_MAPNAME);
		return 1;
	}
	memcpy(maps[nmaps].name, w[0], n[0] + 1);
	if (n[1] < sizeof(maps[0].devno))	/* (a longer one names no device) */
		memcpy(maps[nmaps].devno, w[1], n[1] + 1);
	nmaps++;
	return 1;
}

static struct { int fd, n, at; char buf[512]; } rd;

/* the next byte, not taken; -1 at the end */
static int peek(void)
{
	if (rd.at == rd.n) {
		rd.n = (int)read(rd.fd, rd.buf, sizeof(rd.buf));
		rd.at = 0;
		if (rd.n <= 0) {
			rd.n = 0;
			return -1;
		}
	}
	return (u8)rd.buf[rd.at];
}

static int is_ws(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

int btt_map_read(const char *file)
{
	char l[256];
	int c, len;

	if ((rd.fd = open(file, O_RDONLY | O_CLOEXEC)) < 0) {
		warn_msg("%s: %s", file, strerror(errno));
		return 1;
	}
	rd.n = rd.at = 0;
	for (;;) {
		for (len = 0; len < 255 && (c = peek()) >= 0 && in_set(c); rd.at++)
			l[len++] = (char)c;
		if (!len)
			break;
		l[len] = 0;
		while ((c = peek()) >= 0 && is_ws(c))
			rd.at++;
		if (!map_line(file, l))
			break;
	}
	close(rd.fd);
	return 0;
}
