/* output/bttfiles.c: output: btt's per-I/O latency files (-z, -l, -q: NAME_MAJ,MIN_q2d.dat, _d2c, _q2c) */
/* One file a device and kind, "seconds latency" a line as btt writes them
 * ("%lf %lf" of the ns / 1e9), in the order the stats meet the I/Os (btt's
 * tree walk).  btt removes the files left empty at its end: here a file is
 * made at its first line. */
#include "output/output.h"

static const char lat_post[BTT_NLAT][4] = { "q2d", "d2c", "q2c" };
static const char *lat_name[BTT_NLAT];
static struct obuf lat_ob[BTT_NLAT][BTT_DEVS];
static char lat_buf[BTT_NLAT][BTT_DEVS][BTT_FILE_BUF];

static struct obuf *lat_file(int k, u32 i)
{
	struct obuf *o = &lat_ob[k][i];
	char path[PATH_LEN];
	u32 dev = btt_devs[i].dev;

	if (!o->buf) {		/* not tried yet; a failed open stays failed */
		sfmt(path, sizeof(path), "%s_%u,%u_%s.dat", lat_name[k], DEV_MAJOR(dev), DEV_MINOR(dev), lat_post[k]);
		ob_init(o, open_out(path, 0644), lat_name[k], lat_buf[k][i], BTT_FILE_BUF);
		o->failed = o->fd < 0;
	}
	return o;
}

static void lat_line(const struct btt_dev *d, int k, u64 t, u64 lat)
{
	if (lat_name[k])
		ob_printf(lat_file(k, (u32)(d - btt_devs)), "%f %f\n", (double)t / 1e9, (double)lat / 1e9);
}

/* -z, -l or -q NAME */
void btt_files_opt(int c, const char *name)
{
	lat_name[c == 'z' ? BTT_LQ2D : c == 'l' ? BTT_LD2C : BTT_LQ2C] = name;
	btt_lat_fn = lat_line;
}

int btt_files_end(void)
{
	int k, rc = 0;
	u32 i;

	for (k = 0; k < BTT_NLAT; k++)
		for (i = 0; i < btt_ndevs; i++)
			if (lat_ob[k][i].buf)
				rc |= ob_close(&lat_ob[k][i]);
	return rc;
}
