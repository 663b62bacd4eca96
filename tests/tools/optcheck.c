/* optcheck: base.c's opt_get against the C library's getopt and
 * getopt_long (musl's: build with musl-gcc) on random command lines:
 * the same options, arguments and operands, in the same order.  Messages
 * are not compared (ours go through warn_msg).  usage: optcheck [SEED [N]] */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../../base.c"

/* base.c's usage_put reads the build's packed texts (build/usage.c): none here */
const unsigned char usage_lz[1], usage_lit[1], usage_dist[1];
char usage_buf[1];

static unsigned long long rng;

static unsigned rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)rng;
}

/* the same long options in libc's form and in ours (struct lopt) */
#define LONGOPTS { "input", 1, 0, 'i' }, { "input-dir", 1, 0, 'D' }, { "quiet", 0, 0, 'q' }, \
	{ "queue", 0, 0, 'Q' }, { "verbose", 0, 0, 'v' }, { "act-mask", 1, 0, 'a' }, { 0, 0, 0, 0 },
static const struct option longopts[] = { LONGOPTS };
static const struct lopt our_longopts[] = { LONGOPTS };

/* one run of either parser, as a transcript */
static void transcript(char *out, int argc, char **argv, const char *os, int lng, int ours)
{
	int c;

	out += sprintf(out, "|");
	for (;;) {
		optarg = opt_arg = NULL;	/* musl's getopt leaves optarg as it was */
		if (ours)
			c = opt_get(argc, argv, os, lng ? our_longopts : NULL);
		else
			c = lng ? getopt_long(argc, argv, os, longopts, NULL) : getopt(argc, argv, os);
		if (c == -1)
			break;
		out += sprintf(out, "%c=%s ", c, ours ? (opt_arg ? opt_arg : "-") : (optarg ? optarg : "-"));
		if (c == '?' || c == ':')
			return;		/* callers stop at the first error */
	}
	for (c = ours ? opt_ind : optind; c < argc; c++)
		out += sprintf(out, "[%s]", argv[c]);
}

int main(int argc, char **argv)
{
	static const char *const words[] = { "-q", "-v", "-qv", "-i", "-ifile", "-a", "x", "y", "-", "--", "--in=f",
		"--input", "--input=", "--inp", "--q", "--qu", "--quiet", "--quiet=1", "--act", "--act-mask=w", "--nope",
		"-Z", "-:", "-vi", "-viz", "--v", "-qa", "op1", "op2", "--input-dir", "-D" };
	unsigned long long seed = argc > 1 ? strtoull(argv[1], NULL, 0) : (unsigned long long)time(NULL);
	long n = argc > 2 ? atol(argv[2]) : 20000, i, bad = 0;
	int fd = open("/dev/null", O_WRONLY);

	printf("seed %llu\n", seed);
	fflush(stdout);
	dup2(fd, 2);		/* both parsers' messages */
	rng = seed * 2654435761u + 88172645463325252ull;
	for (i = 0; i < n; i++) {
		char *a1[12], *a2[12], t1[2048], t2[2048];
		const char *os = rnd() % 4 ? "qvi:a:D:" : ":qvi:a::D:";
		int k = 1 + (int)(rnd() % 9), lng = (int)(rnd() % 3 != 0), j;

		a1[0] = a2[0] = "prog";
		for (j = 1; j < k; j++)
			a1[j] = a2[j] = (char *)words[rnd() % (sizeof(words) / sizeof(words[0]))];
		a1[k] = a2[k] = NULL;
		optind = 0;	/* musl starts afresh, mid-cluster state and all */
		opt_ind = 1;
		opt_pos = 0;
		transcript(t1, k, a1, os, lng, 0);
		transcript(t2, k, a2, os, lng, 1);
		if (strcmp(t1, t2) && bad++ < 10) {
			printf("DIFF %s [%s]:", lng ? "getopt_long" : "getopt", os);
			for (j = 1; j < k; j++)
				printf(" %s", a2[j]);
			printf("\n  libc %s\n  ours %s\n", t1, t2);
		}
	}
	printf("%s %ld command lines, %ld differences\n", bad ? "FAIL" : "ok", n, bad);
	return bad != 0;
}
