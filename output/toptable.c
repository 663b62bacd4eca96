/* output/toptable.c: output: biotop's table */
#include <string.h>
#include <time.h>
#include "output/output.h"

static void disk_name(u32 dev, const char *replay, char *out, size_t len)
{
	if (replay)	/* this machine's /sys knows nothing of it */
		sfmt(out, len, "%s", replay);
	else if (sys_devname(dev, out, len))
		sfmt(out, len, "%u,%u", DEV_MAJOR(dev), DEV_MINOR(dev));
}

TEXT(toptable_head, "%-7s %-16s %1s %-3s %-3s %-8s %5s %7s %6s%s\n")
static void table_head(struct obuf *o, s64 wall, int clear, const char *replay)
{
	char hms[16], load[128] = "";
	struct tm tm;

	/* biotop: clear(1) before each table, or a blank line */
	ob_puts(o, clear ? "\033[H\033[2J" : "\n");
	local_tm(wall, &tm);
	*fmt_hms(hms, &tm) = 0;
	if (replay)
		sfmt(load, sizeof(load), "(replay)\n");
	else
		sys_read("/proc/loadavg", load, sizeof(load));
	ob_printf(o, "%-8s loadavg: %s\n", hms, load[0] ? load : "?\n");
	ob_printf(o, TX(toptable_head), tops.tags ? "TAG" : "PID",
		  tops.tags ? "LABEL" : "COMM", "D", "MAJ", "MIN", "DISK", "I/O", "Kbytes", "AVGms",
		  tops.errors ? "   ERR" : "");	/* -e: iomon's column, after biotop's */
}

static int fewer_bytes(const void *rows, u16 a, u16 b)
{
	const struct top_row *r = rows;

	return r[a].bytes < r[b].bytes;
}

TEXT(toptable_untracked, "(untracked: %llu requests aged out of TOP_REQS %d, %llu completions "
	"found no row in TOP_ROWS %d)\n")
/* biotop's table: loadavg line, then rows by bytes, most first; the rows
 * are then spent */
void top_table(struct obuf *o, s64 wall, int clear, int maxrows, const char *replay)
{
	static u16 order[TOP_ROWS];
	char line[256];
	u32 i, n = tops.nrows;

	table_head(o, wall, clear, replay);
	for (i = 0; i < n; i++)
		order[i] = (u16)i;
	isort16(order, n, fewer_bytes, tops.rows);
	for (i = 0; i < n && (int)i < maxrows; i++) {
		const struct top_row *r = &tops.rows[order[i]];
		char disk[32], id[16], err[24];

		disk_name(r->dev, replay, disk, sizeof(disk));
		if (r->pid == TAG_UNTAGGED && tops.tags)
			id[0] = '-', id[1] = 0;
		else
			sfmt(id, sizeof(id), "%u", r->pid);
		err[0] = 0;
		if (tops.errors)
			sfmt(err, sizeof(err), " %5llu", (unsigned long long)r->err);
		sfmt(line, sizeof(line), "%-7s %-16s %1s %-3u %-3u %-8s %5llu %7llu %6.2f%s\n", id, r->comm,
			 r->w ? "W" : "R", DEV_MAJOR(r->dev), DEV_MINOR(r->dev), disk, (unsigned long long)r->io,
			 (unsigned long long)(r->bytes / 1024), (double)r->ns / (double)r->io / 1e6, err);
		ob_puts(o, line);
	}
	if (top_aged() || tops.row_dropped)
		ob_printf(o, TX(toptable_untracked), top_aged(), TOP_REQS, tops.row_dropped, TOP_ROWS);
	ob_flush(o);
	tops.nrows = 0;
}
