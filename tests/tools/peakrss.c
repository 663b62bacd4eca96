/* peakrss CMD ARGS...: run CMD and print its peak resident set in KiB to
 * stderr as "peakrss: N KiB".  GNU time reports at least its own size
 * (~400 KiB), because a child's maximum includes the memory it had before
 * exec; a small static launcher keeps that floor far below what we measure. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int st;
	pid_t pid;

	if (argc < 2)
		return 2;
	pid = fork();
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &st, 0, &ru) < 0)
		return 2;
	fprintf(stderr, "peakrss: %ld KiB\n", ru.ru_maxrss);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
