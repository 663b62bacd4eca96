#!/usr/bin/env python3
"""hotlist.py [-k] [-a OBJ]... OUT.ld MAP BIN CALLGRIND.OUT...: the linker
script that lays out first, in the binary's first 64 KiB, the code btt
runs and the data that code reads (make hotlist, tests/tools/hotlist.sh).

Why: the kernel maps a program's text 64 KiB at a time around each page
it touches (fault-around), so a run holds every 64 KiB window of the
binary it touches at all; btt's code lay spread through all three, and so
a btt run held the whole binary.  With its code and data in the first
window (the ELF header's, which every run touches), it holds that one.

MAP is the link map of BIN (made with -ffunction-sections, so that each
function is an input section of its own); the CALLGRIND outputs are of
runs of BIN: every function they entered is hot.  Hot data: what hot
code names (the addresses in its instructions), the strings of each hot
function (.rodata.F.str1.*), and what hot tables point to, to the end.
The linker keeps one copy of equal strings, whichever section it takes
it from, so a string hot code names may come from another section in the
next link: -k keeps the data OUT.ld already has (make hotlist links and
looks again until the list stays the same).  -a: the link's objects (the
LTO output, -save-temps's, and libc.a), for each section's alignment and
size: the most aligned go first, and before each the largest unaligned
ones that fill the padding it would leave.  usage_lz, the packed texts,
goes last: a run unpacks only as far as the furthest text it asks for,
so its tail may lie past the window.
"""
import bisect
import fnmatch
import re
import subprocess
import sys

WINDOW = 65536


def die(why):
    sys.exit('hotlist: ' + why)


def read_map(path):
    """input sections (addr, size, output section, name, file) of the map"""
    secs, out, pend = [], None, None
    for line in open(path):
        line = line.rstrip('\n')
        m = re.match(r'^(\.\S+)', line)
        if m:
            out = m.group(1)
            continue
        if pend is not None:
            f = line.split()
            if len(f) >= 3 and f[0].startswith('0x'):
                secs.append((int(f[0], 16), int(f[1], 16), out, pend, f[2]))
            pend = None
            continue
        m = re.match(r'^ (\.\S+)\s*$', line)
        if m:
            pend = m.group(1)
            continue
        m = re.match(r'^ (\.\S+)\s+(0x\S+)\s+(0x\S+)\s+(\S+)', line)
        if m:
            secs.append((int(m.group(2), 16), int(m.group(3), 16), out, m.group(1), m.group(4)))
    return sorted(s for s in secs if s[1] > 0 and s[2] in ('.text.hot', '.text', '.rodata', '.fini', '.init'))


def entered(paths):
    """the functions the callgrind outputs entered (names, or addresses)"""
    names, known = set(), {}
    for p in paths:
        known.clear()
        for line in open(p):
            m = re.match(r'^c?fn=\((\d+)\)(?: (.*))?$', line.rstrip('\n'))
            if not m:
                continue
            if m.group(2) is not None:
                known[m.group(1)] = m.group(2)
            n = known.get(m.group(1))
            if n:
                names.add(n.split("'")[0])
    return names


def fname(sec):
    for p in ('.text.startup.', '.text.unlikely.', '.text.hot.', '.text.'):
        if sec.startswith(p):
            return sec[len(p):]
    return None


def pattern(s):
    name, f = s[3], s[4]
    if name not in ('.text', '.rodata'):
        return None
    if 'ltrans' in f:
        return '*.ltrans.o(%s)' % name
    if '(' in f:
        a, mem = f[:-1].split('(')
        return '*%s:%s(%s)' % (a.split('/')[-1], mem, name)
    return '*%s(%s)' % (f.split('/')[-1], name)


def loose(sec, secs):
    """the section's line by its function's name alone where no other has
    that name: the numbers GCC gives copies and private functions
    (.lto_priv.3, .isra.0, .constprop.0) move as other code changes, and
    .unlikely comes and goes with a function's callers"""
    m = re.match(r'^\.(text|rodata)(\.(?:unlikely|startup|hot)(?=\.))?\.([A-Za-z_][A-Za-z0-9_]*)(\..*)?$', sec)
    if not m or m.group(1) == 'rodata' and (not m.group(4) or re.match(r'^(str|cst)\d+$', m.group(3))):
        return None	# (a table's own name; the merged strings' and constants')
    kind, base = m.group(1), m.group(3)
    same = [t for t in secs if (t[3].startswith('.' + kind + '.') and
                                loose_base(t[3], kind) == base)]
    if len(set(t[3] for t in same)) != 1:
        return None
    if kind == 'text':
        return '*(%s)' % ' '.join('.text%s.%s%s' % (p, base, q) for p in ('', '.unlikely', '.startup')
                                  for q in ('', '.*'))
    return '*(.rodata.%s.*)' % base


def loose_base(sec, kind):
    m = re.match(r'^\.' + kind + r'(?:\.(?:unlikely|startup|hot)(?=\.))?\.([A-Za-z_][A-Za-z0-9_]*)', sec)
    return m.group(1) if m else None


def main():
    args, keep, objs = sys.argv[1:], False, []
    while args and args[0] in ('-k', '-a'):
        if args[0] == '-k':
            keep, args = True, args[1:]
        else:
            objs, args = objs + args[1:2], args[2:]
    if len(args) < 4:
        die('usage: hotlist.py [-k] [-a OBJ]... OUT.ld MAP BIN CALLGRIND.OUT...')
    out, mapf, binf = args[:3]
    kept = []		# (the data lines' patterns)
    if keep:
        for line in re.findall(r'^\s+\*\((\.rodata[^)]*)\)$', open(out).read(), re.M):
            kept += line.split()
    secs = read_map(mapf)
    if not secs:
        die(mapf + ': no sections (not a link map?)')
    starts = [s[0] for s in secs]

    def find(v):
        i = bisect.bisect_right(starts, v) - 1
        if i >= 0 and v < secs[i][0] + secs[i][1]:
            return secs[i]
        return None

    fns = entered(args[3:])
    if '(below main)' in fns:
        fns.add('__libc_start_main')
    fns.add('_Exit')	# (where every run ends: callgrind has no record of it, nor of _fini)
    # each name's addresses (aliases too: callgrind names __init_tls what
    # the map calls static_init_tls), and the addresses it gave as such
    addrs = {}
    for line in subprocess.run(['nm', binf], capture_output=True, text=True,
                               check=True).stdout.split('\n'):
        f = line.split()
        if len(f) == 3 and f[1] in 'tTwWi':
            addrs.setdefault(f[2], []).append(int(f[0], 16))
    hot = set()
    for n in fns:
        for a in addrs.get(n, [int(n, 16)] if re.match(r'^0x[0-9a-f]+$', n) else []):
            s = find(a)
            if s and s[3].startswith('.text'):
                hot.add(s)
    if not hot:
        die('no function of the map was entered (callgrind of another binary?)')

    # what hot code names: the addresses in its instructions
    dis = subprocess.run(['objdump', '-d', '--no-show-raw-insn', binf],
                         capture_output=True, text=True, check=True).stdout
    spans = sorted((s[0], s[0] + s[1]) for s in hot)
    sstart = [a for a, _ in spans]

    def in_hot(a):
        i = bisect.bisect_right(sstart, a) - 1
        return i >= 0 and a < spans[i][1]
    data, on = set(), False
    for line in dis.split('\n'):
        m = re.match(r'^\s*([0-9a-f]+):', line)
        if not m:
            continue
        on = in_hot(int(m.group(1), 16))
        if not on:
            continue
        ins = line.split(':', 1)[1]	# (a RIP-relative operand's address: after '#')
        for h in re.findall(r'0x([0-9a-f]{5,16})\b', ins) + re.findall(r'# ([0-9a-f]+)', ins):
            s = find(int(h, 16))
            if s and s[3].startswith('.rodata'):
                data.add(s)
    hotnames = set(fname(s[3]) for s in hot)
    for s in secs:
        m = re.match(r'^\.rodata\.(.*)\.str\d+\.\d+$', s[3])
        if m and m.group(1) in hotnames:
            data.add(s)
    # what hot tables point to (the applets' names, say), to the end
    img = open(binf, 'rb').read()
    load = [l.split() for l in subprocess.run(['readelf', '-lW', binf], capture_output=True,
                                              text=True, check=True).stdout.split('\n')
            if l.strip().startswith('LOAD')]
    off, va = int(load[0][1], 16), int(load[0][2], 16)
    todo = list(data)
    while todo:
        s = todo.pop()
        if re.search(r'\.str\d+\.\d+$', s[3]):
            continue
        b = img[s[0] - va + off:s[0] - va + off + s[1]]
        for i in range(0, len(b) - 7, 8):
            t = find(int.from_bytes(b[i:i + 8], 'little'))
            if t and t[3].startswith('.rodata') and t not in data:
                data.add(t)
                todo.append(t)

    data |= set(s for s in secs if any(fnmatch.fnmatchcase(s[3], k) for k in kept))
    lz = [s for s in data if s[3] == '.rodata.usage_lz']
    data -= set(lz)
    # each section's alignment and size: its name's, or in an archive its
    # member's
    shape, member = {}, ''
    for obj in objs:
        for line in subprocess.run(['readelf', '-SW', obj], capture_output=True, text=True,
                                   check=True).stdout.split('\n'):
            m = re.match(r'^File: .*\((.*)\)$', line)
            if m:
                member = m.group(1)
            m = re.match(r'^\s*\[\s*\d+\] (\S+) +\S+ +[0-9a-f]+ [0-9a-f]+ ([0-9a-f]+) .* (\d+)$', line)
            if m:
                sh = (int(m.group(3)), int(m.group(2), 16))
                shape.setdefault((member, m.group(1)), sh)
                shape.setdefault(m.group(1), sh)

    def pack(ss, at):
        """the lines for sections ss from offset at: the most aligned first,
        and before each, to fill the padding its alignment would leave,
        the largest unaligned ones that fit; the offset after"""
        items = {}
        for s in ss:
            mem = s[4][:-1].split('(')[1] if s[4].endswith(')') else ''
            a, n = shape.get((mem, s[3]), shape.get(s[3], (1, s[1])))
            line = pattern(s) or loose(s[3], secs) or '*(%s)' % s[3]
            a0, n0 = items.get(line, (1, 0))
            items[line] = (max(a, a0, 1), n + n0)
        big = sorted((-a, l) for l, (a, n) in items.items() if a > 1)
        small = sorted((-n, l) for l, (a, n) in items.items() if a == 1)
        lines = []
        for na, l in big:
            while (-at) % -na:
                f = next((x for x in small if -x[0] <= (-at) % -na), None)
                if not f:
                    break
                small.remove(f)
                lines.append(f[1])
                at -= f[0]
            at += (-at) % -na + items[l][1]
            lines.append(l)
        return lines + [l for _, l in small], at - sum(n for n, _ in small)
    hot_lines, at = pack(hot, 3)	# (after _fini's three bytes)
    data_lines, at = pack(data, at)
    size = sum(s[1] for s in hot) + sum(s[1] for s in data)
    with open(out, 'w') as o:
        o.write('/* %s: generated by make hotlist (tests/tools/hotlist.py): what a btt run\n'
                ' * with every output on uses goes first, in the 64 KiB the kernel maps\n'
                ' * with the ELF header */\n' % out.split('/')[-1])
        o.write('SECTIONS\n{\n  .text.hot :\n  {\n')
        # (_fini, which every run's exit calls: its halves in order)
        o.write('    KEEP(*crti.o(.fini)) KEEP(*(EXCLUDE_FILE(*crtn.o) .fini)) KEEP(*crtn.o(.fini))\n')
        for p in hot_lines + data_lines:
            o.write('    %s\n' % p)
        for s in lz:
            o.write('    *(%s)\n' % s[3])
        o.write('  }\n}\nINSERT BEFORE .text;\n')
    print('hotlist: %s: %d functions, %d data, %d bytes%s' %
          (out, len(hot), len(data), size, ' and the texts\' stream' if lz else ''))
    if size > WINDOW - 4096:
        die('over %d bytes: btt\'s code and data no longer fit the first %d KiB beside the '
            'ELF header and the texts it reads' % (WINDOW - 4096, WINDOW // 1024))


main()
