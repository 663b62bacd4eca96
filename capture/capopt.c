/* capture/capopt.c: capture: the options trace and btrace share (-a -A -b -n -w -r -B -z -l -p), with blktrace's limits and words */
#include <string.h>
#include "capture/backend.h"

void cap_defaults(struct cap_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->buf_size = 512 << 10;
	c->buf_nr = 4;
	c->port = NET_PORT;
	c->debugfs = "/sys/kernel/debug";
	C.ndev = 0;
}

u32 cap_ndev(void)
{
	return C.ndev;
}

TEXT(capopt_invalid_action_mask, "Invalid action mask %s (names: read write flush sync queue "
	"requeue issue complete fs pc notify ahead meta discard drv_data "
	"fua)")
static int cap_mask_opt(struct cap_cfg *c, int opt, const char *arg)
{
	char *e;
	u64 v;

	if (opt == 'a') {
		if (mask_bit(arg) < 0) {
			warn_text(U_capopt_invalid_action_mask, arg);
			return -1;
		}
		c->mask |= (u32)mask_bit(arg);
		return 0;
	}
	v = scan_u64(arg, &e, 16);
	if (e == arg || *e || !v || v > 0xffff) {
		warn_msg("Invalid set action mask %s", arg);
		return -1;
	}
	c->mask = (u32)v;
	return 0;
}

TEXT(capopt_unknown_backend_relay, "unknown backend '%s' (relay, tracefs or auto)")
static int cap_backend_opt(struct cap_cfg *c, const char *arg)
{
	if (!strcmp(arg, "relay"))
		c->backend = BK_RELAY;
	else if (!strcmp(arg, "tracefs"))
		c->backend = BK_TRACEFS;
	else if (!strcmp(arg, "auto"))
		c->backend = BK_AUTO;
	else {
		warn_text(U_capopt_unknown_backend_relay, arg);
		return -1;
	}
	return 0;
}

TEXT(capopt_more_than_devices, "more than %d devices (CAP_DEVS)")
int cap_dev_arg(char **devs, int *n, char *arg)
{
	if (*n == CAP_DEVS) {
		warn_text(U_capopt_more_than_devices, CAP_DEVS);
		return -1;
	}
	devs[(*n)++] = arg;
	return 0;
}

TEXT(capopt_invalid_stopwatch_val, "Invalid stopwatch value (%s secs)")
TEXT(capopt_invalid_buffer_size, "Invalid buffer size (%s): 1 to 16384 KiB")
/* -a -A -b -n -w -r -B, with blktrace's limits and words; -1: said why */
int cap_opt(struct cap_cfg *c, int opt, const char *arg)
{
	char *e;
	u64 v;

	if (opt == 'a' || opt == 'A')
		return cap_mask_opt(c, opt, arg);
	if (opt == 'B')
		return cap_backend_opt(c, arg);
	if (opt == 'r') {
		c->debugfs = arg;
		return 0;
	}
	if (opt == 'z')
		return (c->zlevel = !zout_level(arg)) ? 0 : -1;
	if (opt == 'l') {	/* -l, --listen[=PORT] */
		c->listen = 1;
		if (!arg)
			return 0;
		opt = 'p';
	}
	v = scan_u64(arg, &e, 10);
	if (opt == 'p') {
		if (e == arg || *e || !v || v > 65535) {
			warn_msg("Invalid port %s", arg);
			return -1;
		}
		c->port = (u32)v;
	} else if (opt == 'w') {
		if (e == arg || *e || !v) {
			warn_text(U_capopt_invalid_stopwatch_val, arg);
			return -1;
		}
		c->stopwatch = (u32)v;
	} else if (opt == 'b') {
		if (e == arg || *e || !v || v > 16 * 1024) {
			warn_text(U_capopt_invalid_buffer_size, arg);
			return -1;
		}
		c->buf_size = (u32)v << 10;
	} else {
		if (e == arg || *e || !v || v > 4096) {
			warn_msg("Invalid buffer nr (%s)", arg);
			return -1;
		}
		c->buf_nr = (u32)v;
	}
	return 0;
}

