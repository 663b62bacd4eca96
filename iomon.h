/* iomon.h: bottom: types, COLD, buffered output, number formatting, messages, files, scanning, options */
/* The bottom of the pipeline, included by everything:
 * capture/ (kernel or files -> source.c -> record.c; the merge is still in
 * output/parse.c) -> match/ -> stats/ -> output/ -> drivers.  Each folder
 * has one public header (capture/capture.h, match/match.h, stats/stats.h,
 * output/output.h), each including the one below it. */
#ifndef IOMON_H
#define IOMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include "config.h"

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;
/* Once-a-run code (options, summaries, messages): built for size even in
 * the objects the Makefile builds -O2 for their per-record paths. */
#define COLD __attribute__((cold))
/* a function on the per-record path in an object built for size: GCC's
 * -O2 for it alone (divisions by constants as multiplies), where an -O2
 * object would be larger for the rest */
#define HOTFN __attribute__((optimize("O2")))

/* obuf.c: buffered writes to a raw fd; text.c: formatting helpers */
struct iovec;
struct obuf {
	int fd, failed;
	const char *name;
	char *buf;
	u32 len, cap;
	/* a buffer from a pool (btt's files): more(o, 0) when it is full,
	 * more(o, 1) to write everything out; first, last, held: the pool's
	 * chunks written full and waiting, in order (NULL: a plain buffer) */
	void (*more)(struct obuf *o, int all);
	u16 first, last, held;
};
void ob_init(struct obuf *o, int fd, const char *name, char *buf, u32 cap);
void ob_flush(struct obuf *o);
void ob_full(struct obuf *o);	/* no room left: written, or a pool's next chunk */
void ob_writev(struct obuf *o, struct iovec *v, int n);	/* all of v to o's fd (v is changed) */
void ob_write(struct obuf *o, const void *p, size_t n);
void ob_puts(struct obuf *o, const char *s);
static inline char *ob_room(struct obuf *o, u32 n)
{
	if (o->cap - o->len < n)
		ob_full(o);
	return o->buf + o->len;
}
static inline void ob_done(struct obuf *o, char *end) { o->len = (u32)(end - o->buf); }
char *fmt_u64(char *p, u64 v);
char *fmt_s64(char *p, s64 v);
/* printf-style %[-]Nd/%Nu/%Ns without printf. */
char *fmt_num(char *p, u64 v, int neg, int width, int left);
char *fmt_str(char *p, const char *s, int width, int left);
char *fmt_zpad(char *p, u64 v, int width);
char *fmt_secs(char *p, u64 t);	/* "%5d.%09u" of t ns, the seconds an int */
char *fmt_secs_w(char *p, u64 t, int w);	/* the same at width w (0: "%d.%09u") */
char *fmt_f(char *p, double x, int prec, int width);	/* "%W.Pf" */
char *fmt_ns(char *p, u64 ns, double (*x)(u64), int prec, int width);	/* "%15.9f", "%.9f" or "%f" of btt's x(ns) seconds */
char *fmt_g9(char *p, u64 k, int e);	/* %.9g of k * 10^e, exact: at most 16 bytes */
struct tm;
char *fmt_hms(char *p, const struct tm *tm);	/* strftime's "%H:%M:%S" */
char *fmt_date(char *p, const struct tm *tm);	/* "%a %b %e %H:%M:%S %Y": 24+ bytes */
/* printf's subset: flags - 0, width, precision for s and f, lengths l ll z,
 * conversions d i u x c s f %%; snprintf's return and termination.  A %f
 * precision above FMT_PREC_MAX counts as FMT_PREC_MAX. */
#define FMT_PREC_MAX 17
int vfmt(char *buf, size_t cap, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
int sfmt(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void ob_printf(struct obuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int ob_close(struct obuf *o);

/* base.c: errors go through one place; files, scanning, options */
extern const char *applet_name;
/* USAGE(id, "text" ...): an applet's usage text, kept beside its options
 * but not compiled there: the build packs every one of the applets built
 * into one stream (tests/tools/packtext.c writes build/usage.c, which
 * defines U_id, the text's place in it), and usage_put unpacks text U_id
 * and writes it to fd (-1 when the write fails).  The texts (libc.c's
 * strerror texts too) repeat much, and packed take half their room. */
#define USAGE(id, text) extern const unsigned short U_##id[2];
/* TEXT(id, "text"): a long message's format, packed with them (ending in
 * a NUL); warn_text(U_id, ...) says it as warn_msg would.  make textcheck
 * compiles every warn_text as the warn_msg it is (packtext's
 * build/texts.h), so that the compiler checks each format's arguments. */
#define TEXT(id, text) extern const unsigned short U_##id[2];
const char *text_of(const unsigned short *id);
/* TX(id): TEXT id's text where a literal would be, a format (ob_printf,
 * sfmt, note_msg) or a string (ob_puts); text_of's pointer holds for the
 * whole run.  Under make textcheck it is the literal itself, so that
 * ob_printf(o, TX(id), ...) has its arguments checked as well. */
#ifdef TEXT_CHECK
#define warn_text(id, ...) warn_msg(TEXT_##id, ##__VA_ARGS__)
#define TX(id) TEXT_U_##id
#else
void warn_text(const unsigned short *id, ...);
#define TX(id) text_of(U_##id)
#endif
int usage_put(int fd, const unsigned short *id);
int version_put(const char *prog, const char *ver);	/* -V's line; -1: not written */
const char *usage_text(const unsigned short *id, size_t *n);	/* unpacked, n bytes (U_errs: libc.c's strerror) */
/* The applet table (applet.c), generated from the drivers' //applet:
 * lines (tests/tools/applets.sh writes build/applets.c): the applets
 * built, sorted by name; generic: iomon's own name for an original tool's
 * applet (--install makes its link only with --all).  applets_out: the
 * names of the applets this build left out, each ending in a NUL. */
struct applet {
	const char *name;
	int (*main)(int, char **);
	const unsigned short *usage;
	char generic;
};
extern const struct applet applets[];
extern const unsigned char napplets;
extern const char iomon_version[], applets_out[];
void warn_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define WARN_BARE "\1"	/* a format that starts so: no "applet: " before the line */
void err_sys(const char *what);	/* "applet: what: strerror" */
/* a notice, not an error: quiet under the original tools' names */
void note_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern int quiet_notes;
int open_out(const char *path, int mode);	/* no symlink following */
long dir_each(const char *dir, long (*fn)(const char *dir, const char *name, void *arg), void *arg);
u64 scan_u64(const char *s, char **end, int base);	/* strtoull, bases 10 and 16 */
double scan_double(const char *arg, const char **end);	/* strtod */
extern const double dec_pow[23];	/* 10^0 to 10^22, each exact in a double */
char *str_find(const char *h, const char *n);	/* strstr, naively */
struct timespec;
void clock_now(int clk, struct timespec *t);	/* clock_gettime */
s64 wall_sec(void);	/* CLOCK_REALTIME, seconds */
/* tz.c: localtime_r (TZ, zoneinfo, POSIX rules; read once): 0 when the
 * year does not fit */
struct tm *local_tm(s64 t, struct tm *tm);
struct tm *utc_tm(s64 t, struct tm *tm);	/* gmtime_r without musl's */
u64 mono_ms(void);	/* CLOCK_MONOTONIC, milliseconds */
u64 mono_ns(void);	/* ... nanoseconds: the clock blktrace's records and tracefs's mono stamp */
void isort16(u16 *idx, u32 n, int (*after)(const void *ctx, u16 a, u16 b), const void *ctx);
/* getopt (opts NULL) and getopt_long (opts: permutes the words) as musl's.
 * A long option in half a struct option's room: its name,
 * whether it takes an argument (0 no, 1 yes, 2 optional, as has_arg), an
 * unused byte where struct option has its flag, and the value returned. */
struct lopt {
	const char *name;
	u8 has_arg, unused;
	u16 val;
};
extern char *opt_arg;
extern int opt_ind;
int opt_get(int nw, char **words, const char *optstring, const struct lopt *opts);

#endif
