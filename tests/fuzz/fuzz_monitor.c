/* libFuzzer target: iomon monitor's D/C matching and its outputs.
 *
 * Input: one option byte, then trace bytes.  Intervals follow the trace's
 * own clock (--clock=trace), so a run depends on the input alone.  Always
 * -h, -b, -D and --json to /dev/null; the byte picks the rest:
 *   bits 0-1 -I 1..4
 *   bit 2    -i (per-CPU files, replayed merged) instead of stdin
 *   bit 3    --prom FILE (rewritten each interval)
 *   bit 4    -d /dev/null (driver data passed through)
 *   bits 5-6 reads cut to 0 (no limit), 1, 48 or 4097 bytes */
#include <stdio.h>
#include "output/output.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *iv[4] = { "1", "2", "3", "4" };
	static char prom[128];
	char *argv[24];
	int argc = 0;
	unsigned op;

	if (!size)
		return 0;
	op = data[0];
	data++, size--;
	ARGS("monitor", "-I", iv[op & 3], "--clock=trace", "-h", "/dev/null", "-b", "/dev/null",
	     "-D", "/dev/null", "--json=/dev/null");
	if (op & 8) {
		snprintf(prom, sizeof(prom), "--prom=%s/p.prom", fuzz_dir());
		ARGS(prom);
	}
	if (op & 16)
		ARGS("-d", "/dev/null");
	if (op & 4)
		ARGS("-i", (char *)fuzz_files(data, size, op >> 5));
	else
		fuzz_stdin(data, size);
	argv[argc] = NULL;
	fuzz_chunk = fuzz_chunk_pick(op >> 5);
	fuzz_run(monitor_main, argv);
	return 0;
}
