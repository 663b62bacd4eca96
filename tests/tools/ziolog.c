/* ziolog.c: print every message of a ziomon .log file, one a line, read
 * through ziomon's own reader (ziomon_dacc.c of s390-tools, linked in by
 * the test), so the test sees what ziorep_traffic would.
 *   ziolog NAME          NAME.log; prints "TYPE LENGTH HEX..." per message
 * Build (tests/t-ziomon-real.sh):
 *   cc -I Z -o ziolog ziolog.c Z/ziomon_dacc.o Z/ziomon_util.o
 *      Z/ziomon_msg_tools.o Z/ziomon_tools.o Z/ziomon_zfcpdd.o -lm
 * (Z is the built ziomon/ folder; test code, not part of iomon). */
#include <stdio.h>
#include <linux/types.h>
#include "ziomon_dacc.h"

const char *toolname = "ziolog";
int verbose;

int main(int argc, char **argv)
{
	struct file_header h;
	struct message m;
	FILE *fp;
	int n = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: ziolog NAME (reads NAME.log)\n");
		return 2;
	}
	if (open_log_file(&fp, argv[1], &h)) {
		fprintf(stderr, "ziolog: %s.log: not a ziomon log\n", argv[1]);
		return 1;
	}
	printf("# version %u interval %u blkiomon-id %u zfcpdd-id %u\n",
	       h.version, h.interval_length, h.msgid_blkiomon, h.msgid_zfcpdd);
	while (!get_next_msg(fp, &m, &h)) {
		const unsigned char *p = m.data;

		printf("%u %u ", m.type, m.length);
		for (__u32 i = 0; i < m.length; i++)
			printf("%02x", p[i]);
		putchar('\n');
		discard_msg(&m);
		n++;
	}
	close_log_file(fp);
	fprintf(stderr, "ziolog: %d messages\n", n);
	return 0;
}
