/* output/fmt.c: output: blkparse event lines, default layout and -f/-F */
/* Event lines in blkparse's text layout, byte for byte, and its -f/-F
 * user formats.  Hand-formatted: this is the inner loop of parse. */
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "output/output.h"

#define VALID_SPECS "ABCDFGIMPQRSTUWX"
static char fmt_space[FMT_SPACE];
static u32 fmt_used;
static const char *override[128];
s64 abs_start_sec, abs_start_nsec;
static void (*fatal_fn)(const char *why);

void fmt_set_fatal(void (*fatal)(const char *why)) { fatal_fn = fatal; }

TEXT(fmt_expecting_elapsed, "Expecting elapsed value (%u needs -t, and a timed event)")
__attribute__((noreturn)) static void fmt_fatal(const char *why)
{
	if (fatal_fn)
		fatal_fn(why);
	warn_msg("%s", why);
	_exit(1);
}

TEXT(fmt_formats_longer_than, "formats longer than %d bytes in all")
COLD static const char *fmt_keep(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p;

	if (n > FMT_SPACE - fmt_used) {
		warn_text(U_fmt_formats_longer_than, FMT_SPACE);
		return NULL;
	}
	p = fmt_space + fmt_used;
	memcpy(p, s, n);
	fmt_used += (u32)n;
	return p;
}

COLD int fmt_set_all(const char *f)
{
	const char *p, *k = fmt_keep(f);

	if (!k)
		return -1;
	for (p = VALID_SPECS; *p; p++)
		if (!override[(int)*p])
			override[(int)*p] = k;
	return 0;
}

int fmt_overridden(int act) { return override[act & 127] != NULL; }

TEXT(fmt_bad_format_specifier, "Bad format specifier - need ',' %s")
COLD int fmt_set_one(const char *spec)
{
	int c = (unsigned char)spec[0];

	if (!c || !strchr(VALID_SPECS, c)) {
		warn_msg("Bad format specifier %c", c);
		return -1;
	}
	if (spec[1] != ',') {
		warn_text(U_fmt_bad_format_specifier, spec);
		return -1;
	}
	return (override[c] = fmt_keep(spec + 2)) ? 0 : -1;
}

/* RWBS letters; version-8 zone operations take the place of R/W/N the way
 * newer upstream blkparse shows them. */
static char *rwbs(char *p, const struct rec *r)
{
	u64 a = r->action;

	if (a & TC(TC_FLUSH))
		*p++ = 'F';
	if (a & TC(TC_DISCARD))
		*p++ = 'D';
	else if (a & TC2(TC2_ZONE_APPEND))
		*p++ = 'Z', *p++ = 'A';
	else if (a & TC2(TC2_ZONE_RESET))
		*p++ = 'Z', *p++ = 'R';
	else if (a & TC2(TC2_ZONE_RESET_ALL))
		*p++ = 'Z', *p++ = 'R', *p++ = 'A';
	else if (a & TC2(TC2_ZONE_FINISH))
		*p++ = 'Z', *p++ = 'F';
	else if (a & TC2(TC2_ZONE_OPEN))
		*p++ = 'Z', *p++ = 'O';
	else if (a & TC2(TC2_ZONE_CLOSE))
		*p++ = 'Z', *p++ = 'C';
	else if (a & TC(TC_WRITE))
		*p++ = 'W';
	else if (r->bytes)
		*p++ = 'R';
	else
		*p++ = 'N';
	if (a & TC(TC_FUA))
		*p++ = 'F';
	if (a & TC(TC_AHEAD))
		*p++ = 'A';
	if (a & TC(TC_SYNC))
		*p++ = 'S';
	if (a & TC(TC_META))
		*p++ = 'M';
	*p = 0;
	return p;
}

/* The payload behind an optional cgroup id (newer kernels put one first). */
static const u8 *pdu_body(const struct rec *r, u32 *len)
{
	u32 skip = ((u32)r->action & TA_CGROUP) && r->pdu_len >= 8 ? 8 : 0;

	*len = r->pdu_len - skip;
	return r->pdu + skip;
}

/* The big-endian u64 at the start of U/UT/X payloads, truncated to unsigned
 * int as blkparse prints it.  A short payload reads as zero-padded. */
static u32 pdu_int(const struct rec *r)
{
	u8 b[8] = { 0 };
	u32 n;
	const u8 *p = pdu_body(r, &n);

	memcpy(b, p, n < 8 ? n : 8);
	return (u32)be64_load(b);
}

static void pdu_remap(const struct rec *r, u32 *from, u32 *to, u64 *sector)
{
	u8 b[16] = { 0 };
	u32 n;
	const u8 *p = pdu_body(r, &n);

	memcpy(b, p, n < 16 ? n : 16);
	*from = be32_load(b);
	*to = be32_load(b + 4);
	*sector = be64_load(b + 8);
}

/* "%02x %02x ..", stopping with " .." once only zeros remain.  Written
 * through the buffer a piece at a time: a payload can be 64 KiB. */
static char *hexdump(struct obuf *o, char *p, const u8 *b, u32 n)
{
	static const char hx[] = "0123456789abcdef";
	u32 i, j, zeros_from = n;

	for (j = n; j > 0 && !b[j - 1]; j--)
		;
	zeros_from = j;		/* b[zeros_from..n) are all zero */
	for (i = 0; i < n; i++) {
		if (!(i & 63)) {
			ob_done(o, p);
			p = ob_room(o, 64 * 3 + 8);
		}
		if (i)
			*p++ = ' ';
		*p++ = hx[b[i] >> 4];
		*p++ = hx[b[i] & 15];
		if (!b[i] && i >= zeros_from) {
			memcpy(p, " ..", 3);
			return p + 3;
		}
	}
	return p;
}

static char *snum(char *p, s64 v, int w, int left)
{
	return fmt_num(p, v < 0 ? -(u64)v : (u64)v, v < 0, w, left);
}

static char *name_or_null(char *p, u32 pid)
{
	const char *n = proc_name(pid);

	return fmt_str(p, n ? n : "(null)", 0, 0);
}

/* The header every default line starts with:
 * "%3d,%-3d %2d %8d %5d.%09lu %5u %2s %3s " */
static char *header(char *p, const struct ev *e)
{
	const struct rec *r = e->r;
	char rw[16];

	p = fmt_num(p, DEV_MAJOR(e->dev), 0, 3, 0);
	*p++ = ',';
	p = fmt_num(p, DEV_MINOR(e->dev), 0, 3, 1);
	*p++ = ' ';
	p = fmt_num(p, e->cpu, 0, 2, 0);
	*p++ = ' ';
	p = snum(p, (int32_t)r->seq, 8, 0);
	*p++ = ' ';
	p = fmt_secs(p, e->time);
	*p++ = ' ';
	p = fmt_num(p, r->pid, 0, 5, 0);
	*p++ = ' ';
	if (!e->act[1])
		*p++ = ' ';
	p = fmt_str(p, e->act, 0, 0);
	*p++ = ' ';
	{
		int n = (int)(rwbs(rw, r) - rw);

		for (; n < 3; n++)
			*p++ = ' ';
		p = fmt_str(p, rw, 0, 0);
	}
	*p++ = ' ';
	return p;
}

static char *sector_len(char *p, const struct rec *r)
{
	p = fmt_u64(p, r->sector);
	if (r->bytes >> 9) {
		memcpy(p, " + ", 3);
		p = fmt_u64(p + 3, r->bytes >> 9);
	}
	return p;
}

static char *elapsed_col(char *p, u64 el)
{
	*p++ = '(';
	p = fmt_num(p, el, 0, 8, 0);
	*p++ = ')';
	return p;
}

/* The tails of fmt_default's lines, one per family of actions; static
 * with one caller each, so they inline into it (no call per line). */
static char *pc_payload(struct obuf *o, char *p, const struct ev *e)
{
	if (e->pdu && e->pdu_len) {
		*p++ = '(';
		p = hexdump(o, p, e->pdu, e->pdu_len);
		ob_done(o, p);
		p = ob_room(o, 128);
		*p++ = ')', *p++ = ' ';
	}
	return p;
}

static char *pid_name(char *p, const struct rec *r)
{
	*p++ = '[';
	p = name_or_null(p, r->pid);
	*p++ = ']';
	return p;
}

/* R, C: "sector + len [elapsed] [error]", or a PC payload */
static char *tail_complete(struct obuf *o, char *p, const struct ev *e, int pc)
{
	const struct rec *r = e->r;

	if (pc)
		p = pc_payload(o, p, e);
	else {
		p = fmt_u64(p, r->sector);
		if (r->bytes >> 9) {
			memcpy(p, " + ", 3);
			p = fmt_u64(p + 3, r->bytes >> 9);
		}
		*p++ = ' ';
		if (e->elapsed != NO_ELAPSED) {
			p = elapsed_col(p, e->elapsed);
			*p++ = ' ';
		}
	}
	*p++ = '[';
	p = fmt_u64(p, r->error);
	*p++ = ']';
	return p;
}

/* D, I, Q, B: "sector + len [elapsed] [name]", or PC bytes and payload */
static char *tail_queue(struct obuf *o, char *p, const struct ev *e, int pc)
{
	const struct rec *r = e->r;

	if (pc) {
		p = fmt_u64(p, r->bytes);
		*p++ = ' ';
		p = pc_payload(o, p, e);
	} else {
		if (r->bytes >> 9) {
			p = sector_len(p, r);
			*p++ = ' ';
		}
		if (e->elapsed != NO_ELAPSED) {
			p = elapsed_col(p, e->elapsed);
			*p++ = ' ';
		}
	}
	return pid_name(p, r);
}

/* A: "sector + len <- (maj,min) from-sector" */
static char *tail_remap(char *p, const struct rec *r)
{
	u32 from, to;
	u64 sec;

	pdu_remap(r, &from, &to, &sec);
	p = fmt_u64(p, r->sector);
	memcpy(p, " + ", 3);
	p = fmt_u64(p + 3, r->bytes >> 9);
	memcpy(p, " <- (", 5);
	p = fmt_u64(p + 5, DEV_MAJOR(from));
	*p++ = ',';
	p = fmt_u64(p, DEV_MINOR(from));
	*p++ = ')', *p++ = ' ';
	return fmt_u64(p, sec);
}

static void fmt_default(struct obuf *o, const struct ev *e)
{
	const struct rec *r = e->r;
	int pc = (r->action & TC(TC_PC)) != 0;
	char *p;

	p = ob_room(o, 512);
	p = header(p, e);
	switch (e->act[0]) {
	case 'R':
	case 'C':
		p = tail_complete(o, p, e, pc);
		break;
	case 'D':
	case 'I':
	case 'Q':
	case 'B':
		p = tail_queue(o, p, e, pc);
		break;
	case 'M':
	case 'F':
	case 'G':
	case 'S':
	case 'Z':	/* v8 zone write plug/unplug: the bio, like G */
		if (r->bytes >> 9) {
			p = sector_len(p, r);
			*p++ = ' ';
		}
		/* fall through */
	case 'P':
		p = pid_name(p, r);
		break;
	case 'U':
	case 'T':
		p = pid_name(p, r);
		*p++ = ' ';
		p = fmt_u64(p, pdu_int(r));
		break;
	case 'A':
		p = tail_remap(p, r);
		break;
	case 'X':
		p = fmt_u64(p, r->sector);
		memcpy(p, " / ", 3);
		p = fmt_u64(p + 3, pdu_int(r));
		*p++ = ' ';
		p = pid_name(p, r);
		break;
	}
	*p++ = '\n';
	ob_done(o, p);
}

/* %z: wall clock of the event, from the trace's TIMESTAMP note. */
static char *wallclock(char *p, u64 t)
{
	s64 sec = abs_start_sec + (s64)(t / 1000000000u);
	u64 nsec = (u64)abs_start_nsec + t % 1000000000u;
	struct tm tm;

	if (nsec >= 1000000000u) {
		nsec -= 1000000000u;
		sec++;
	}
	if (!local_tm(sec, &tm))
		memset(&tm, 0, sizeof(tm));
	p = fmt_hms(p, &tm);
	*p++ = '.';
	return fmt_zpad(p, nsec / 1000, 6);
}

/* %g: the cgroup id of a record carrying one, as "low,high" 32-bit
 * halves in hex (what blkparse 1.3 prints); "0,0" when there is none */
static void cgroup_id(char *q, const struct rec *r)
{
	static const char hx[] = "0123456789abcdef";
	u64 id = 0;
	u32 part[2];
	int k, sh, started;

	if (((u32)r->action & TA_CGROUP) && r->pdu_len >= 8) {
		u8 b[8];

		memcpy(b, r->pdu, 8);
		id = r->swapped ? be64_load(b)
			: (u64)b[0] | (u64)b[1] << 8 | (u64)b[2] << 16 | (u64)b[3] << 24 |
			  (u64)b[4] << 32 | (u64)b[5] << 40 | (u64)b[6] << 48 | (u64)b[7] << 56;
	}
	part[0] = (u32)id, part[1] = (u32)(id >> 32);
	for (k = 0; k < 2; k++) {
		if (k)
			*q++ = ',';
		for (sh = 28, started = 0; sh >= 0; sh -= 4) {
			u32 d = part[k] >> sh & 15;

			if (d || started || !sh) {
				*q++ = hx[d];
				started = 1;
			}
		}
	}
	*q = 0;
}

/* The fields that are one number of the record, printed plainly */
static int plain_number(char f, const struct rec *r, u64 *v)
{
	switch (f) {
	case 'e': *v = r->error; return 1;
	case 'M': *v = DEV_MAJOR(r->dev); return 1;
	case 'm': *v = DEV_MINOR(r->dev); return 1;
	case 'n': *v = r->bytes >> 9; return 1;
	case 'N': *v = r->bytes; return 1;
	case 'p': *v = r->pid; return 1;
	case 's': *v = r->seq; return 1;
	case 'S': *v = r->sector; return 1;
	case 'U': *v = pdu_int(r); return 1;
	}
	return 0;
}

static void field(struct obuf *o, const struct ev *e, char f, int left, int has_w, int w)
{
	const struct rec *r = e->r;
	char *p, tmp[24];
	u64 v;

	if (w > 4000)
		w = 4000;	/* the buffer's share for one field */
	p = ob_room(o, 300 + (u32)w);
	if (!has_w)
		w = 0;
	if (plain_number(f, r, &v)) {
		ob_done(o, fmt_num(p, v, 0, w, left));
		return;
	}
	switch (f) {
	case 'a':
		p = fmt_str(p, e->act, w, left);
		break;
	case 'c':
		p = snum(p, (int32_t)e->cpu, w, left);
		break;
	case 'C': {
		const char *n = proc_name(r->pid);

		p = fmt_str(p, n ? n : "(null)", w, left);
		break;
	}
	case 'd':
		rwbs(tmp, r);
		p = fmt_str(p, tmp, w, left);
		break;
	case 'D':
		p = fmt_num(p, DEV_MAJOR(r->dev), 0, 3, 0);
		*p++ = ',';
		p = fmt_num(p, DEV_MINOR(r->dev), 0, 3, 1);
		break;
	case 'g':	/* cgroup id; 1.2.0 lacks it and prints "g" */
		cgroup_id(tmp, r);
		p = fmt_str(p, tmp, w, left);
		break;
	case 'P':
		if (e->pdu && e->pdu_len)
			p = hexdump(o, p, e->pdu, e->pdu_len);
		break;
	case 't':
		p = fmt_zpad(p, e->time % 1000000000u, has_w ? w : 9);
		break;
	case 'T':
		p = snum(p, (int32_t)(e->time / 1000000000u), w, left);
		break;
	case 'u':
		if (e->elapsed == NO_ELAPSED) {
			ob_done(o, p);
			fmt_fatal(TX(fmt_expecting_elapsed));
		}
		p = fmt_num(p, e->elapsed / 1000, 0, w, left);
		break;
	case 'z':
		p = wallclock(tmp, e->time);
		*p = 0;
		p = fmt_str(ob_room(o, 300), tmp, w, left);
		break;
	default:
		tmp[0] = f, tmp[1] = 0;
		p = fmt_str(p, tmp, w, left);
		break;
	}
	ob_done(o, p);
}

void fmt_event(struct obuf *o, const struct ev *e)
{
	const char *p = override[(int)e->act[0]];

	if (!p) {
		fmt_default(o, e);
		return;
	}
	while (*p) {
		if (*p == '%') {
			int left = 0, has_w = 0, w = 0;

			p++;
			if (*p == '%' || !*p) {
				ob_write(o, "%", 1);
				p += *p == '%';
				continue;
			}
			if (*p == '-')
				left = 1, p++;
			if (*p >= '0' && *p <= '9') {
				has_w = 1;
				while (*p >= '0' && *p <= '9')
					w = w * 10 + (*p++ - '0'), w = w > 100000 ? 100000 : w;
			}
			if (*p)
				field(o, e, *p++, left, has_w, w);
		} else if (*p == '\\') {
			static const char esc[] = "b\bn\nr\rt\t";
			const char *k = p[1] ? strchr(esc, p[1]) : NULL;

			if (!k || (k - esc) % 2)
				fmt_fatal("Invalid escape char in format");
			ob_write(o, k + 1, 1);
			p += 2;
		} else {
			const char *q = p;

			while (*q && *q != '%' && *q != '\\')
				q++;
			ob_write(o, p, (size_t)(q - p));
			p = q;
		}
	}
}

/* MESSAGE notes: "%3d,%-3d %2d %8s %5d.%09lu %5u %2s %3s %s\n" with
 * sequence "0", pid 0, action m, RWBS N, then the text up to a NUL. */
void fmt_message(struct obuf *o, const struct rec *r, u64 time, u32 shown_cpu)
{
	struct rec h = *r;
	struct ev e = { &h, time, "m", shown_cpu, NO_ELAPSED, NULL, 0, r->dev };
	u32 n, len;
	const u8 *t = pdu_body(r, &len);
	char *p;

	for (n = 0; n < len && t[n]; n++)
		;
	if (!len)
		return;
	h.seq = 0;
	h.pid = 0;
	h.action = 0;
	h.bytes = 0;
	p = ob_room(o, 128);
	p = header(p, &e);
	/* blkparse prints the sequence with %8s of "0" */
	ob_done(o, p);
	ob_write(o, t, n);
	ob_write(o, "\n", 1);
}
