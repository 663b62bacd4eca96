/* match/taghelper.c: match: iowatcher's tag-helper protocol: records out to a command, tags back */
/* --tag-helper CMD (FORMATS.md section 7): CMD gets every record on its
 * stdin and says which tag each belongs to.  What to do when the helper
 * fails (stop the replay or the capture) is the caller's: tag_record
 * returns -1. */
#define _GNU_SOURCE	/* syscall under glibc (the syntax check) */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "match/match.h"

/* One record out, answers in until END: lock step, so neither side can
 * fill a pipe the other is not reading.  Records go out as version-7
 * headers in host order whatever the trace was (byte order and version
 * are our problem, not every helper's); answers are host-order u32s. */
enum { H_END, H_NEW_TAG, H_TAG_IO };

static struct helper {
	const char *cmd;
	int to, from;		/* its stdin, its stdout */
	pid_t pid;
	u8 in[4096];
	u32 pos, len;
	u64 records;
	u32 ntags;
	u64 tags_dropped;
	struct { u32 id; char label[TOP_LABEL]; } tags[TOP_TAGS];
	int failed;
} H;		/* zero-initialised: bss, not data in the file */

TEXT(taghelper_tag_helper_after, "tag helper '%s' %s (after %llu records); the tables so far are "
	"printed")
static void helper_fail(const char *why)
{
	if (!H.failed)
		warn_text(U_taghelper_tag_helper_after,
			 H.cmd, why, (unsigned long long)H.records);
	H.failed = 1;
}

int tag_start(const char *cmd)
{
	static const int term_sigs[] = { SIGINT, SIGQUIT, SIGHUP };
	struct sigaction ign = { .sa_handler = SIG_IGN }, old[3];
	char *sh[] = { "sh", "-c", (char *)cmd, NULL };
	int in[2], out[2], i;

	H.cmd = cmd;
	/* the system call: musl's pipe2 carries a fallback for kernels before
	 * 2.6.27 and brings pipe() with it */
	if (syscall(SYS_pipe2, in, O_CLOEXEC) || syscall(SYS_pipe2, out, O_CLOEXEC)) {
		err_sys("pipe");
		return -1;
	}
	/* Ctrl-C reaches the whole process group: the helper ignores it (the
	 * disposition survives exec) and ends at EOF, after our last record. */
	for (i = 0; i < 3; i++)
		sigaction(term_sigs[i], &ign, &old[i]);
	/* vfork: musl's fork() brings its atfork and lock machinery;
	 * the child here only moves two fds and execs. */
	H.pid = vfork();
	if (!H.pid) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		execv("/bin/sh", sh);
		_exit(127);
	}
	for (i = 0; i < 3; i++)
		sigaction(term_sigs[i], &old[i], NULL);
	if (H.pid < 0) {
		err_sys("vfork");
		return -1;
	}
	close(in[0]);
	close(out[1]);
	H.to = in[1];
	H.from = out[0];
	signal(SIGPIPE, SIG_IGN);	/* a helper that dies is an EPIPE we report */
	return 0;
}

static int helper_read(void *p, u32 n)
{
	u8 *d = p;

	while (n) {
		if (H.pos == H.len) {
			struct pollfd pf = { H.from, POLLIN, 0 };
			ssize_t k;
			int r = poll(&pf, 1, TOP_HELPER_MS);

			if (r < 0 && errno == EINTR)
				continue;
			if (!r) {
				char why[48];

				sfmt(why, sizeof(why), "did not answer within %d ms", TOP_HELPER_MS);
				helper_fail(why);
				return -1;
			}
			k = read(H.from, H.in, sizeof(H.in));
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0) {
				helper_fail(k ? "could not be read" : "closed its output");
				return -1;
			}
			H.pos = 0;
			H.len = (u32)k;
		}
		while (n && H.pos < H.len)
			*d++ = H.in[H.pos++], n--;
	}
	return 0;
}

static int helper_send(const void *p, size_t n)
{
	const u8 *b = p;

	while (n) {
		ssize_t k = write(H.to, b, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			helper_fail(errno == EPIPE ? "went away" : "could not be written to");
			return -1;
		}
		b += k;
		n -= (size_t)k;
	}
	return 0;
}

static void helper_label(u32 id, u32 len)
{
	char label[TOP_LABEL];
	u32 i, keep = len < TOP_LABEL - 1 ? len : TOP_LABEL - 1;
	u8 skip[256];

	if (helper_read(label, keep))
		return;
	label[keep] = 0;
	for (len -= keep; len; len -= i) {	/* the part we do not keep */
		i = len < sizeof(skip) ? len : (u32)sizeof(skip);
		if (helper_read(skip, i))
			return;
	}
	for (i = 0; i < H.ntags && H.tags[i].id != id; i++)
		;
	if (i == H.ntags) {
		if (H.ntags == TOP_TAGS) {
			H.tags_dropped++;
			return;
		}
		H.ntags++;
	}
	H.tags[i].id = id;
	memcpy(H.tags[i].label, label, keep + 1);
}

const char *tag_label(u32 id)
{
	u32 i;

	for (i = 0; i < H.ntags; i++)
		if (H.tags[i].id == id)
			return H.tags[i].label;
	return id == TAG_UNTAGGED ? "(untagged)" : "?";
}

/* Hand r to the helper; *tag is set when it claims the record. */
int tag_record(const struct rec *r, u32 *tag)
{
	u8 out[REC_V7_LEN + 64];	/* most payloads are a few bytes: one write */
	u32 m[2], n = rec_encode(out, sizeof(out), r);

	H.records++;
	if (helper_send(out, n) || (n == REC_V7_LEN && r->pdu_len && helper_send(r->pdu, r->pdu_len)))
		return -1;
	for (;;) {
		if (helper_read(m, 4))
			return -1;
		switch (m[0]) {
		case H_END:
			return 0;
		case H_NEW_TAG:
			if (helper_read(m, 8))
				return -1;
			if (m[1] > 65536) {
				helper_fail("sent a label longer than 64 KiB");
				return -1;
			}
			helper_label(m[0], m[1]);
			if (H.failed)
				return -1;
			break;
		case H_TAG_IO:
			if (helper_read(tag, 4))
				return -1;
			break;
		default: {
			char why[64];

			sfmt(why, sizeof(why), "sent an unknown message type %u", m[0]);
			helper_fail(why);
			return -1;
		}
		}
	}
}

TEXT(taghelper_tags_over_top, "%llu tags over TOP_TAGS %d were not kept")
TEXT(taghelper_tag_helper_exited, "tag helper '%s' exited with %s %d")
/* End of input: the helper sees EOF; its exit status is reported. */
int tag_stop(void)
{
	int st = 0;

	if (!H.cmd)
		return 0;
	close(H.to);
	close(H.from);
	while (waitpid(H.pid, &st, 0) < 0 && errno == EINTR)
		;
	if (H.tags_dropped)
		warn_text(U_taghelper_tags_over_top, (unsigned long long)H.tags_dropped, TOP_TAGS);
	if (!H.failed && (!WIFEXITED(st) || WEXITSTATUS(st))) {
		warn_text(U_taghelper_tag_helper_exited, H.cmd, WIFEXITED(st) ? "status" : "signal",
			 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
		return 1;
	}
	return H.failed;
}

int tag_active(void)
{
	return H.cmd != NULL;
}
