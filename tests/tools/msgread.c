/* msgread PATH ID MSGID OUT: make the SysV queue ftok(PATH, ID), say
 * "queue made" on stdout (a test waits for that line, not a guessed time),
 * wait up to 10 s for one message of type MSGID, write its payload to OUT,
 * remove the queue.  The test reader for blkiomon's -Q/-q/-m output. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct { long type; unsigned char data[4096]; } m;
	key_t key;
	int q, i;
	ssize_t n = -1;
	FILE *f;

	if (argc != 5)
		return 2;
	key = ftok(argv[1], atoi(argv[2]));
	q = msgget(key, IPC_CREAT | 0700);
	if (q < 0)
		return 3;
	printf("queue made\n");
	fflush(stdout);
	for (i = 0; i < 100 && n < 0; i++) {
		n = msgrcv(q, &m, sizeof(m.data), atol(argv[3]), IPC_NOWAIT);
		if (n < 0)
			usleep(100000);
	}
	msgctl(q, IPC_RMID, NULL);
	if (n < 0 || !(f = fopen(argv[4], "wb")))
		return 4;
	fwrite(m.data, 1, (size_t)n, f);
	fclose(f);
	return 0;
}
