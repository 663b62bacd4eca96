/* output/verifyparse.c: driver: verify_blkparse: blkparse text checked for time going backwards and repeated sequence numbers */
//applet: verify_blkparse verifyparse verifyparse_main
//readme: verify_blkparse 1.2.0, without its line length limit | verify_blkparse.1
/* verifyparse: reads blkparse's default lines ("MAJ,MIN CPU SEQ TIME ...")
 * until one does not start so, and reports each line whose time is below
 * the line before's (both shown) and each sequence number a CPU repeats,
 * as verify_blkparse 1.2.0 does.  Lines of any length: each is kept whole
 * up to VP_LINE bytes, a longer one is read back from the file when it
 * has to be shown.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "output/output.h"

USAGE(verifyparse,
"usage: iomon verifyparse FILE\n"
"\n"
"Checks blkparse's text in FILE: reports time going backwards and a\n"
"sequence number repeated on a CPU; exits 1 when time went backwards.\n")

struct line {
	u64 off, len;		/* in the file; len counts the newline */
	char text[VP_LINE + 1];	/* its first VP_LINE bytes, NUL after */
};

static struct {
	int fd;
	const char *name;
	u64 seq[VP_CPUS];	/* ~ the last sequence number per CPU (0: none, -1 as the original's) */
	struct line l[2];
	char rbuf[STREAM_READ];
	char outbuf[OUT_BUF];
	struct obuf out;
} P;

/* scanf's %Nd: white space, then at most w characters of a number */
static const char *int_w(const char *p, int w, int *v)
{
	int neg = 0, n = 0;
	long long x = 0;

	while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
		p++;
	if (*p == '-' || *p == '+') {
		neg = *p++ == '-';
		w--;
	}
	for (; n < w && *p >= '0' && *p <= '9'; n++)
		x = x * 10 + (*p++ - '0');
	*v = (int)(neg ? -x : x);
	return n ? p : NULL;
}

/* sscanf(p, "%3d,%3d %5d %8d %lf", ...) == 5 */
static int fields(const char *p, int *cpu, int *seq, double *t)
{
	const char *e;
	int maj, min;

	if (!(p = int_w(p, 3, &maj)) || *p++ != ',' || !(p = int_w(p, 3, &min)) ||
	    !(p = int_w(p, 5, cpu)) || !(p = int_w(p, 8, seq)))
		return 0;
	*t = scan_double(p, &e);
	return e != p;
}

TEXT(verifyparse_byte_a_line, "%s: byte %llu: a line longer than VP_LINE cannot be read back: "
	"shown cut")
/* A line shown again: from memory, or read back when it was longer */
static void show(const char *tag, const struct line *l)
{
	u64 off = l->off + VP_LINE, left = l->len - VP_LINE;

	ob_puts(&P.out, tag);
	ob_write(&P.out, l->text, l->len < VP_LINE ? l->len : VP_LINE);
	while (l->len > VP_LINE && left) {
		char buf[4096];
		long n = pread(P.fd, buf, left < sizeof(buf) ? left : sizeof(buf), (off_t)off);

		if (n <= 0) {
			ob_flush(&P.out);
			warn_text(U_verifyparse_byte_a_line,
				 P.name, (unsigned long long)l->off);
			ob_puts(&P.out, "\n");
			break;
		}
		ob_write(&P.out, buf, (size_t)n);
		off += (u64)n;
		left -= (u64)n;
	}
}

/* One whole line; 0 where the original stops */
static int check(const struct line *l, const struct line *last, u64 *total, int *unordered,
		 int *alias, double *last_time);

/* The line at *cur is whole (its last byte at off): checked, then the
 * line before for the next */
static int line_done(int *cur, u64 off, u64 *total, int *unordered, int *alias, double *last_time)
{
	struct line *l = &P.l[*cur];
	int go;

	l->text[l->len < VP_LINE ? l->len : VP_LINE] = 0;
	l->off = off - l->len;
	go = check(l, &P.l[!*cur], total, unordered, alias, last_time);
	*cur = !*cur;
	P.l[*cur].len = 0;
	return go;
}

TEXT(verifyparse_byte_cpu_too, "%s: byte %llu: cpu%d too large (VP_CPUS)")
static int check(const struct line *l, const struct line *last, u64 *total, int *unordered,
		 int *alias, double *last_time)
{
	int cpu, seq;
	double t;

	if (!fields(l->text, &cpu, &seq, &t))
		return 0;
	if (t < *last_time) {
		show("last: ", last);
		show("this: ", l);
		++*unordered;
	}
	*last_time = t;
	if (cpu >= VP_CPUS) {
		ob_flush(&P.out);
		warn_text(U_verifyparse_byte_cpu_too, P.name, (unsigned long long)l->off, cpu);
		return 0;
	}
	/* the original's table starts at -1 (unsigned long), which a
	 * sequence number of -1 matches */
	if (cpu >= 0) {
		if (P.seq[cpu] == ~(u64)(s64)seq) {
			ob_printf(&P.out, "alias on sequence %u\n", (unsigned)seq);
			++*alias;
		}
		P.seq[cpu] = ~(u64)(s64)seq;
	}
	++*total;
	return 1;
}

TEXT(verifyparse_read_error_at, "%s: read error at byte %llu: %s")
int verifyparse_main(int argc, char **argv)
{
	u64 total = 0, off = 0;
	int unordered = 0, alias = 0, cur = 0, go = 1, failed = 0;
	double last_time = 0;
	long n;

	if (argc > 1 && !strcmp(argv[1], "--"))
		argv++, argc--;
	if (argc < 2) {
		warn_msg("no FILE");
		usage_put(2, U_verifyparse);
		return 1;
	}
	P.name = argv[1];
	if ((P.fd = open(argv[1], O_RDONLY | O_CLOEXEC)) < 0) {
		err_sys(argv[1]);
		return 1;
	}
	ob_init(&P.out, 1, "stdout", P.outbuf, sizeof(P.outbuf));
	P.l[0].off = P.l[1].off = 0;
	while (go && (n = read(P.fd, P.rbuf, sizeof(P.rbuf))) != 0) {
		char *p = P.rbuf, *end;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			ob_flush(&P.out);
			warn_text(U_verifyparse_read_error_at, P.name, (unsigned long long)off,
				 strerror(errno));
			failed = 1;
			break;
		}
		end = p + n;
		while (go && p < end) {
			struct line *l = &P.l[cur];
			char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t k = (size_t)((nl ? nl + 1 : end) - p);

			if (l->len < VP_LINE)
				memcpy(l->text + l->len, p, l->len + k < VP_LINE ? k : VP_LINE - l->len);
			l->len += k;
			off += k;
			p += k;
			if (nl) {
				go = line_done(&cur, off, &total, &unordered, &alias, &last_time);
			}
		}
	}
	if (go && !failed && P.l[cur].len)	/* a last line without its newline */
		line_done(&cur, off, &total, &unordered, &alias, &last_time);
	ob_printf(&P.out, "Events %llu: %d unordered, %d aliases\n", (unsigned long long)total,
		  unordered, alias);
	close(P.fd);
	return ob_close(&P.out) || failed ? 1 : unordered != 0;
}
