/* libFuzzer target: the whole of iomon parse, text out to /dev/null.
 *
 * Input: one option byte, then trace bytes, read either as a stream on
 * stdin (-i -) or as per-CPU files (records sorted into t.blktrace.0..3
 * by their cpu field, so a file can also hold another cpu's record).
 * Always -t -s; the byte picks the rest:
 *   bit 0    files instead of a stream
 *   bits 1-2 default lines, -f with every field, -F per action (one with
 *            %u, whose untimed event ends the run as blkparse does), -h
 *   bit 3    -d /dev/null (binary dump)
 *   bit 4    -b 3 (tiny batches)
 *   bit 5    -w 0.000001:100 (stopwatch)
 *   bits 6-7 reads cut to 0 (no limit), 1, 48 or 4097 bytes */
#include <stdio.h>
#include "output/output.h"
#include "fuzz.h"

#define ALL "%D %2c %8s %5T.%9t %5p %2a %3d %-10C %g %M %m %n %N %S %e %U %z [%P] %% %10x\\n"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[24];
	int argc = 0;
	unsigned op;
	char in[128];

	if (!size)
		return 0;
	op = data[0];
	data++, size--;
	ARGS("parse", "-t", "-s", "-o", "/dev/null");
	switch ((op >> 1) & 3) {
	case 1:
		ARGS("-f", ALL);
		break;
	case 2:
		ARGS("-F", "Q,%a %S + %n [%C] %z\\n", "-F", "D,%a %5T.%9t %d (%P) %N\\t\\r\\b\\n",
		     "-F", "C,%a %S (%u) %e %-5g\\n");
		break;
	case 3:
		ARGS("-h");
		break;
	}
	if (op & 8)
		ARGS("-d", "/dev/null");
	if (op & 16)
		ARGS("-b", "3");
	if (op & 32)
		ARGS("-w", "0.000001:100");
	if (op & 1)
		snprintf(in, sizeof(in), "%s", fuzz_files(data, size, op >> 6));
	else {
		fuzz_stdin(data, size);
		snprintf(in, sizeof(in), "-");
	}
	ARGS("-i", in);
	argv[argc] = NULL;
	fuzz_chunk = fuzz_chunk_pick(op >> 6);
	fuzz_run(parse_main, argv);
	return 0;
}
