/* stats/failstat.c: stats: failed completions: a C's errno, counted by errno with the first sectors of each */
/* The kernel stores a failed request's status as a negative errno in the
 * record's 16-bit error field (blkparse prints -5 as [65531]); a C with
 * any error counts, as blkparse's C lines with one.  Only the first
 * FAIL_LIST sectors of each errno are kept for the closing line: a disk
 * failing every I/O must not need a table as long as the trace.
 */
#include "stats/stats.h"

struct failstat fails;

u32 rec_errno(const struct rec *r)
{
	int e = (int16_t)r->error;

	return e < 0 ? (u32)-e : (u32)e;
}

void fail_note(const struct rec *r)
{
	u32 e = rec_errno(r), i;
	struct fail_errno *f;

	if (!e)
		return;
	fails.n++;
	for (i = 0; i < fails.nerr && fails.e[i].err != e; i++)
		;
	if (i == fails.nerr) {
		if (fails.nerr == FAIL_ERRNOS) {
			fails.other++;
			return;
		}
		fails.e[fails.nerr++].err = e;
	}
	f = &fails.e[i];
	if (f->n < FAIL_LIST)
		f->sector[f->n] = r->sector;
	f->n++;
}
