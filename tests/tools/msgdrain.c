/* msgdrain PATH ID MSGID QBYTES PAUSE_MS OUT: make the SysV queue
 * ftok(PATH, ID) holding QBYTES bytes at most (a full queue on purpose),
 * create PATH.ready, sleep PAUSE_MS (a reader that stalls, as ziomon_mgr
 * may), then read messages of type MSGID until none has come for 3 s;
 * their payloads go to OUT, and the count to stdout.  Removes the queue.
 * SIGTERM ends the pause early.  PATH.ready holds the queue's id. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <time.h>
#include <unistd.h>

static void wake(int sig) { (void)sig; }

int main(int argc, char **argv)
{
	struct { long type; unsigned char data[4096]; } m;
	struct msqid_ds ds;
	char ready[4096];
	int q, idle = 0, n = 0;
	FILE *f;

	if (argc != 7)
		return 2;
	q = msgget(ftok(argv[1], atoi(argv[2])), IPC_CREAT | 0700);
	if (q < 0 || msgctl(q, IPC_STAT, &ds))
		return 3;
	ds.msg_qbytes = strtoul(argv[4], NULL, 10);
	if (msgctl(q, IPC_SET, &ds))
		return 4;
	snprintf(ready, sizeof(ready), "%s.ready", argv[1]);
	signal(SIGTERM, wake);
	if (!(f = fopen(ready, "w")))
		return 5;
	fprintf(f, "%d\n", q);
	fclose(f);
	{
		struct timespec ts = { atoi(argv[5]) / 1000, atoi(argv[5]) % 1000 * 1000000L };

		nanosleep(&ts, NULL);	/* a signal ends it early */
	}
	if (!(f = fopen(argv[6], "wb")))
		return 6;
	while (idle < 300) {
		ssize_t r = msgrcv(q, &m, sizeof(m.data), atol(argv[3]), IPC_NOWAIT);

		if (r < 0) {
			usleep(10000);
			idle++;
			continue;
		}
		fwrite(m.data, 1, (size_t)r, f);
		n++;
		idle = 0;
	}
	fclose(f);
	msgctl(q, IPC_RMID, NULL);
	printf("%d\n", n);
	return 0;
}
