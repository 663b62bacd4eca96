#!/usr/bin/env python3
"""tag-by-pid.py [-g NAME:PID[,PID...]]...: an example tag helper for
`iomon top --tag-helper` (iowatcher's helper protocol).

iomon writes every trace record to our stdin: a 48-byte header in host byte
order (struct blk_io_trace, version 7) followed by pdu_len payload bytes.
For each record we answer on stdout with host-order u32s and end with END.
(Host order is read off each header's magic, so the helper also answers an
iomon that runs emulated, under qemu-user, in the other byte order.)

    0                    END      done with this record
    1 TAG LEN LABEL      NEW_TAG  LABEL is LEN bytes, NUL included
    2 TAG                TAG_IO   this record's request belongs to TAG

Queue (Q) and issue (D) records are tagged by the process that made them:
the pids named with -g share one tag called NAME, every other pid gets its
own, labelled "comm (pid)" from the PROCESS notes seen so far.  A tag is
announced the first time it is used.  Everything else is answered with END.

    iomon top -C -i sda --tag-helper 'stats/tag-by-pid.py -g db:812,813'
"""
import struct
import sys

HDR = "IIQQIIIIIHH"  # magic seq time sector bytes action pid dev cpu error pdu_len
NOTIFY = 1 << (10 + 16)              # BLK_TC_NOTIFY in the action's category bits
PROCESS = NOTIFY | 0
CGROUP = 1 << 8                      # __BLK_TA_CGROUP: an 8-byte cgroup id leads the payload
QUEUE, ISSUE = 1, 7
END, NEW_TAG, TAG_IO = 0, 1, 2


def groups(argv):
    """-g NAME:PID[,PID...] (repeatable) -> {pid: NAME}"""
    by_pid, i = {}, 0
    while i < len(argv):
        arg = argv[i]
        if arg == "-g" and i + 1 < len(argv):
            arg, i = argv[i + 1], i + 1
        elif arg.startswith("-g"):
            arg = arg[2:]
        else:
            sys.exit("usage: tag-by-pid.py [-g NAME:PID[,PID...]]...")
        name, _, pids = arg.partition(":")
        if not name or not pids:
            sys.exit("tag-by-pid.py: -g wants NAME:PID[,PID...], not %r" % arg)
        for p in pids.split(","):
            by_pid[int(p)] = name
        i += 1
    return by_pid


def read_exact(f, n):
    b = f.read(n)
    return b if len(b) == n else None


def main():
    by_pid = groups(sys.argv[1:])
    names, tags = {}, {}  # pid -> comm; label -> tag number
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    while True:
        h = read_exact(inp, 48)
        if h is None:
            return
        bo = ">" if h[0] == 0x65 else "<"  # the magic 0x65617407 in its order
        _, _, _, _, _, action, pid, _, _, _, pdu_len = struct.unpack(bo + HDR, h)
        pdu = read_exact(inp, pdu_len) if pdu_len else b""
        if pdu is None:
            return
        reply = b""
        act = action & ~CGROUP
        if act == PROCESS:
            name = pdu[8:] if action & CGROUP else pdu
            names.setdefault(pid, name.split(b"\0", 1)[0].decode("ascii", "replace"))
        elif not act & NOTIFY and act & 0xFFFF in (QUEUE, ISSUE):
            label = by_pid.get(pid) or "%s (%d)" % (names.get(pid, "?"), pid)
            if label not in tags:
                tags[label] = len(tags) + 1
                raw = label.encode() + b"\0"
                reply += struct.pack(bo + "III", NEW_TAG, tags[label], len(raw)) + raw
            reply += struct.pack(bo + "II", TAG_IO, tags[label])
        out.write(reply + struct.pack(bo + "I", END))
        out.flush()


if __name__ == "__main__":
    main()
