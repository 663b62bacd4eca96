/* Shared by the libFuzzer targets: a fresh iomon per input, without fork.
 *
 * Why not fork per input, or -runs=1 per process: a child's coverage never
 * reaches the fuzzer, so fuzzing would be blind, and a process per input
 * is a hundred times slower.  Instead every object of iomon is linked
 * between two marker objects (fuzz.sh: ld -r mark_begin.o OBJS mark_end.o),
 * so all of iomon's writable globals, .data and .bss, lie between the
 * markers.  Before each input, .data is copied back from a snapshot taken
 * before the first input and .bss is zeroed: the applet starts as from
 * exec.  Built with -fno-pic, so nothing sits in .data.rel.  The sanitizers'
 * and libFuzzer's own state lies outside the markers and survives.
 *
 * What survives besides: file descriptors (closed after each input, all
 * but those open at start), signal handlers (restored; SIGALRM is never
 * taken from libFuzzer, whose -timeout needs it).  iomon's option parser
 * keeps its state in its own globals, so it starts afresh too.  blkparse's
 * exit on a bad -f field (fmt_fatal) is a longjmp back here: iomon is
 * compiled with -D_exit=fuzz_exit. */
#ifndef FUZZ_H
#define FUZZ_H
#include <stddef.h>
#include <stdint.h>

/* Each input: reset iomon, then run main (argv NULL-terminated); returns
 * its exit code, or fuzz_exit's (1 for an _exit(0)). */
int fuzz_run(int (*main_fn)(int, char **), char **argv);
/* The bytes as fd 0 (a memfd: a regular file, as a trace on disk). */
void fuzz_stdin(const uint8_t *p, size_t n);
/* Records split into DIR/t.blktrace.0..3 by their cpu field (cpu & 3),
 * what does not decode appended to file sel & 3; returns "DIR/t". */
const char *fuzz_files(const uint8_t *p, size_t n, unsigned sel);
const char *fuzz_dir(void);
/* read(2) of iomon returns at most this many bytes (0: no limit). */
extern size_t fuzz_chunk;
/* ARGS("-h", "/dev/null"): appended to the caller's argv[argc++]. */
#define ARGS(...) do { \
	char *a_[] = { __VA_ARGS__ }; \
	for (size_t i_ = 0; i_ < sizeof(a_) / sizeof(a_[0]); i_++) \
		argv[argc++] = a_[i_]; \
} while (0)
size_t fuzz_chunk_pick(unsigned sel);	/* 0, 1, 48, 4097 */
#endif
