/* peakrss CMD ARGS...: run CMD and print to stderr
 *   "peakrss: N KiB"  its peak resident set (the kernel's counter, ru_maxrss)
 *   "exitrss: N KiB"  what its page tables held when it exited
 *   "exittext: N KiB" of that, its program's text (executable mappings)
 *   "wall: S s"       its wall time, fork to reaping
 * GNU time reports at least its own size (~400 KiB), because a child's
 * maximum includes the memory it had before exec; a small static launcher
 * keeps that floor far below what we measure.  The kernel's counter lags
 * by up to a batch of pages a CPU, so it can read 128 KiB low (or high):
 * the exit figure is smaps_rollup's walk of the page tables, read while
 * the child is held at its exit by ptrace (PTRACE_O_TRACEEXIT); "unknown"
 * where ptrace is refused.  The wall time leaves out that read, and the
 * shell's own process starts that a `date` around us would count. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* the Rss line of /proc/PID/smaps_rollup, in KiB; -1: none */
static long exit_rss(pid_t pid)
{
	char path[64], line[256];
	long kb = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", (int)pid);
	if (!(f = fopen(path, "r")))
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Rss: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* the Rss of its executable mappings of files (the program's text: the
 * kernel maps it 64 KiB around each page a run touches), in KiB; -1:
 * none */
static long exit_text(pid_t pid)
{
	char path[64], line[512], perm[8];
	unsigned long a, b;
	long kb, sum = -1;
	int in = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/smaps", (int)pid);
	if (!(f = fopen(path, "r")))
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s", &a, &b, perm) == 3)
			in = perm[2] == 'x' && strchr(line, '/');
		else if (in && sscanf(line, "Rss: %ld kB", &kb) == 1)
			sum = (sum < 0 ? 0 : sum) + kb;
	}
	fclose(f);
	return sum;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	double t0, held = 0, h;
	long xrss = -1, xtext = -1;
	int st, sig, armed = 0;
	pid_t pid;

	if (argc < 2)
		return 2;
	t0 = now();
	pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);	/* refused: it runs untraced */
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	if (pid < 0)
		return 2;
	for (;;) {
		if (wait4(pid, &st, 0, &ru) < 0)
			return 2;
		if (!WIFSTOPPED(st))
			break;
		if (WSTOPSIG(st) == SIGTRAP && st >> 16 == PTRACE_EVENT_EXIT) {
			h = now();
			xrss = exit_rss(pid);
			xtext = exit_text(pid);
			held += now() - h;
			sig = 0;
		} else if (WSTOPSIG(st) == SIGTRAP && (!armed || st >> 16 == PTRACE_EVENT_EXEC)) {
			/* its first exec; later ones (sh -c 'exec ...', env) stop
			 * as events, not as a SIGTRAP it would die of */
			ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACEEXIT | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL);
			armed = 1;
			sig = 0;
		} else
			sig = WSTOPSIG(st);	/* its own signal, passed on */
		ptrace(PTRACE_CONT, pid, 0, sig);
	}
	fprintf(stderr, "peakrss: %ld KiB\n", ru.ru_maxrss);
	if (xrss > 0)
		fprintf(stderr, "exitrss: %ld KiB\n", xrss);
	else
		fprintf(stderr, "exitrss: unknown\n");
	if (xtext >= 0)
		fprintf(stderr, "exittext: %ld KiB\n", xtext);
	fprintf(stderr, "wall: %.4f s\n", now() - t0 - held);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
