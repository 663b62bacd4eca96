#!/usr/bin/env python3
"""tests/tools/initrdcon.py LOG -- QEMU ARGS...: boots an initramfs under
qemu (its serial console on qemu's stdin and stdout) into the shell of
break=premount (initramfs-tools) or rd.break=pre-mount (dracut), and drives
that shell as a user would type into it: the mounts debugfs and tracefs
need, iomon's links, then a dd reading /dev/vda without end while
`blktrace -d /dev/vda -o - | blkparse -i -` runs, and `blktrace ... |
blkiomon -I 1 -h -` while it still runs; then dd is stopped and the guest
powered off.  Every wait is on the console's text, each with its own
deadline.  Prints one line a fact, "ok<TAB>WHAT<TAB>DETAIL" or
"no<TAB>WHAT<TAB>DETAIL", for tests/long/t-initrd.sh to assert on, and
"time<TAB>WHAT<TAB>SECONDS" for the times it took; LOG gets the console."""
import codecs, os, re, select, subprocess, sys, time

log_path, argv = sys.argv[1], sys.argv[sys.argv.index('--') + 1:]
BOOT_S = float(os.environ.get('BOOT_S', 900))	# TCG on a loaded machine
STEP_S = float(os.environ.get('STEP_S', 180))
T0 = time.monotonic()


def say(kind, what, detail=''):
    print(f'{kind}\t{what}\t{detail}'.replace('\n', ' '), flush=True)


class Console:
    def __init__(self, cmd, log):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT)
        os.set_blocking(self.p.stdout.fileno(), False)
        self.log = log
        self.text = ''	# everything the console said, \r dropped
        self.pos = 0	# where the next expect starts to look
        self.held = ''	# a terminal control not yet read whole
        self.dec = codecs.getincrementaldecoder('utf-8')('replace')

    def read(self, until):
        r, _, _ = select.select([self.p.stdout], [], [], max(0.0, min(1.0, until - time.monotonic())))
        if not r:
            return True
        b = self.p.stdout.read()
        if not b:
            return False	# qemu ended
        self.log.write(b)
        self.log.flush()
        # without \r and terminal controls (dracut's bash turns bracketed
        # paste on and off around each command: ESC[?2004l before output);
        # a control the read cut in two waits for its end (CI once read
        # ESC alone, then "[?2004lblktrace -> iomon")
        s = self.held + self.dec.decode(b).replace('\r', '')
        m = re.search(r'\x1b[^A-Za-z]{0,16}$', s)
        self.held = s[m.start():] if m else ''
        self.text += re.sub(r'\x1b\[[0-9;?]*[A-Za-z]', '', s[:m.start()] if m else s)
        return True

    def expect(self, pattern, timeout, count=1):
        """the count-th match of pattern after pos, within timeout s;
        pos moves past it.  None when the time runs out or qemu ends."""
        rx, until = re.compile(pattern, re.M), time.monotonic() + timeout
        while True:
            ms = list(rx.finditer(self.text, self.pos))
            if len(ms) >= count:
                self.pos = ms[count - 1].end()
                return ms[count - 1]
            if time.monotonic() >= until or not self.read(until):
                return None

    def send(self, line):
        self.p.stdin.write(line.encode() + b'\n')
        self.p.stdin.flush()

    def run(self, cmd, tag, timeout=STEP_S):
        """cmd in the guest's shell; (exit status, its output) or (None,
        what came) when no end marker came.  The marker is split by an
        empty string ("") so the echoed command line never matches it."""
        start = len(self.text)
        sep = ' ' if cmd.endswith('&') else '; '	# "cmd &; echo" is no shell's
        self.send(f'{cmd}{sep}echo "@@{tag[:1]}""{tag[1:]} $?@@"')
        m = self.expect(rf'@@{re.escape(tag)} (\d+)@@', timeout)
        if not m:
            return None, self.text[start:][-400:]
        return int(m.group(1)), self.text[start:m.start()]


def main():
    with open(log_path, 'wb') as log:
        c = Console(argv, log)
        try:
            drive(c)
        finally:
            try:
                c.p.wait(timeout=60)
            except subprocess.TimeoutExpired:
                c.p.kill()
                c.p.wait()


def drive(c):
    m = c.expect(r'Spawning shell within the initramfs|Dropping to debug shell', BOOT_S)
    if not m:
        say('no', 'boot', 'no break= shell within %d s; the console ended: %r' % (BOOT_S, c.text[-300:]))
        return
    # the shell is there once it answers
    c.send("echo RE''ADY")
    if not c.expect(r'READY\n', STEP_S):
        say('no', 'boot', 'the break shell does not answer: %r' % c.text[-300:])
        return
    say('ok', 'boot', m.group(0))
    say('time', 'boot', '%.0f' % (time.monotonic() - T0))

    rc, out = c.run('cat /proc/mounts', 'MOUNTS')
    for fs, d in (('debugfs', '/sys/kernel/debug'), ('tracefs', '/sys/kernel/tracing')):
        ok = re.search(rf'\S+ {d} {fs} ', out or '')
        say('ok' if ok else 'no', f'{fs} mounted on {d} before iomon ran', ' '.join(l for l in (out or '').split('\n') if '/sys/kernel/' in l))

    rc, out = c.run('for n in blktrace blkparse blkiomon btrace; do echo "$n -> $(readlink "$(command -v $n)")"; done', 'LINKS')
    bad = [n for n in ('blktrace', 'blkparse', 'blkiomon', 'btrace')
           if not re.search(rf'\b{n} -> (\S*/)?iomon$', out or '', re.M)]
    say('no' if bad else 'ok', 'blktrace, blkparse, blkiomon, btrace are links to iomon in PATH',
        ('not: %s; ' % ' '.join(bad) if bad else '') + (out or '').strip()[-300:])

    rc, out = c.run('[ -b /dev/vda ]', 'VDA')
    if rc != 0:
        say('no', '/dev/vda is there', repr(out))
        return
    # a dd that does not end by itself (a 4 GiB disk read 512 bytes at a
    # time, the disk throttled by qemu): its I/O must show while it runs
    rc, out = c.run('dd if=/dev/vda of=/dev/null bs=512 iflag=direct 2>/dev/null & DD=$!', 'DD')
    t = time.monotonic()
    rc, out = c.run('{ blktrace -d /dev/vda -o - & echo $! >/run/bt; wait; } | blkparse -i - & P=$!', 'BP')
    # (busybox's dd reads through the page cache whatever iflag says: its
    # reads are readahead's, RA 2016 + 256, still queued as dd's)
    q = r'^ *\d+,\d+ +\d+ +\d+ +\d+\.\d{9} +\d+ +Q +R\S* +\d+ \+ \d+ \[dd\]$'
    cl = r'^ *\d+,\d+ +\d+ +\d+ +\d+\.\d{9} +\d+ +C +R\S* +\d+ \+ \d+ \[\d+\]$'
    here = c.pos
    mq = c.expect(q, STEP_S, count=20)
    c.pos = here
    mc = c.expect(cl, 5 if mq else 1, count=5)
    got = len(re.findall(q, c.text[here:], re.M)), len(re.findall(cl, c.text[here:], re.M))
    rc, out = c.run("kill -0 $DD && echo DD-AL''IVE", 'ALIVE1')
    alive = rc == 0 and re.search(r'DD-ALIVE\n', out or '')
    say('ok' if mq and mc and alive else 'no',
        'blktrace -d /dev/vda -o - | blkparse -i - shows dd\'s reads (Q ... [dd]) and their completions while dd runs',
        '%d Q lines of dd, %d C lines, in %.1f s; dd %s' % (got + (time.monotonic() - t, 'still running' if alive else 'not running')))
    say('time', 'blkparse lines', '%.1f' % (time.monotonic() - t))
    rc, out = c.run('kill $(cat /run/bt); wait $P', 'BPEND')
    say('ok' if rc is not None and re.search(r'Events \([^)]*\): \d+ entries', out or '') else 'no',
        'the blktrace | blkparse pipeline ends on SIGTERM, blkparse\'s summary printed', (out or '')[-300:])

    t = time.monotonic()
    rc, out = c.run('{ blktrace -d /dev/vda -a issue -a complete -o - & echo $! >/run/bt; wait; } | blkiomon -I 1 -h - & P=$!', 'MON')
    m = c.expect(r'^device: \d+,0\nsizes read \(bytes\): num [1-9]\d*, ', STEP_S)
    rc, out = c.run("kill -0 $DD && echo DD-AL''IVE", 'ALIVE2')
    alive = rc == 0 and re.search(r'DD-ALIVE\n', out or '')
    say('ok' if m and alive else 'no', 'blktrace ... | blkiomon -I 1 -h - prints an interval of dd\'s reads while dd runs',
        (m.group(0) if m else 'no interval with reads: %r' % c.text[-300:]) + '; dd %s' % ('still running' if alive else 'not running'))
    say('time', 'blkiomon interval', '%.1f' % (time.monotonic() - t))
    rc, out = c.run('kill $(cat /run/bt); wait $P', 'MONEND')
    say('ok' if rc is not None else 'no', 'the blktrace | blkiomon pipeline ends on SIGTERM', (out or '')[-200:])
    rc, out = c.run('kill $DD; wait $DD; [ $? -gt 128 ] && ! kill -0 $DD 2>/dev/null', 'DDEND')
    say('ok' if rc == 0 else 'no', 'dd stopped (by SIGTERM, not ended by itself)', (out or '')[-200:])
    c.send('echo o >/proc/sysrq-trigger')
    say('time', 'all', '%.0f' % (time.monotonic() - T0))


main()
