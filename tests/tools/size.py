#!/usr/bin/env python3
"""make size: where iomon's bytes go, from the link maps the builds write.

usage: size.py BUDGET    (run from the top directory)

Prints the stripped size of every build there is (./iomon and
build/ARCH/iomon), text/data/bss per object file of the x86_64 build, and
per applet the data and bss its globals take.  Exits 1 when the stripped
x86_64 binary is larger than BUDGET bytes.

Counted from the link map (-Wl,-Map) rather than from nm: after
--gc-sections it lists exactly the input sections that were kept, with
the object each came from, and -fdata-sections names each global's
section after it (.bss.NAME), so musl's members are counted too.
"""
import os
import re
import sys

ARCHES = ["s390x", "aarch64", "armhf"]
# The objects that are one applet's own; the rest is shared by all.
APPLETS = {
    "trace, btrace": ["capture/cap.o", "capture/stage.o", "capture/relay.o", "capture/tracefs.o", "capture/tpevent.o",
                      "output/trace.o", "output/btrace.o"],
    "parse": ["output/parse.o", "output/bpevent.o", "output/bploop.o", "output/summary.o", "capture/window.o", "output/fmt.o", "match/procs.o", "match/track.o",
              "stats/iostats.o"],
    "monitor": ["output/monitor.o", "output/export.o", "stats/monstat.o"],
    "top": ["output/top.o", "output/toptable.o", "stats/topstat.o", "match/taghelper.o",
            "capture/runs.o"],
    "btt": ["output/btt.o", "output/bttexp.o", "output/bttfiles.o", "output/bttrep.o", "stats/bttios.o",
            "stats/bttproc.o", "stats/bttrange.o", "stats/bttrb.o", "stats/bttseek.o", "stats/bttstat.o"],
    "plot": ["output/plot.o", "output/plotsvg.o", "stats/plotstat.o"],
    "shared": ["applet.o", "base.o", "text.o", "capture/record.o", "capture/source.o",
               "capture/sys.o"],
}


def kind(sec):
    """size(1)'s classes: code and read-only data are text."""
    if sec.startswith((".bss", ".tbss", "COMMON", ".sbss")):
        return "bss"
    if sec.startswith((".data", ".tdata", ".init_array", ".fini_array",
                       ".got", ".sdata", ".data.rel.ro")):
        return "data"
    if sec.startswith((".text", ".rodata", ".init", ".fini", ".eh_frame",
                       ".gcc_except", ".ARM.ex", ".srodata")):
        return "text"
    return None


def read_map(path):
    """[(section, size, object)] of every input section kept in the link."""
    out, pending, started = [], None, False
    entry = re.compile(r"^ (\S+)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$")
    cont = re.compile(r"^\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$")
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not started:
                started = line.startswith("Linker script and memory map")
                continue
            if line.startswith("/DISCARD/"):
                break
            m = entry.match(line)
            if m:
                pending = None
                if m.group(1) != "*fill*":
                    out.append((m.group(1), int(m.group(3), 16), m.group(4)))
                continue
            if re.match(r"^ \.\S+$", line) or line.startswith(" COMMON"):
                pending = line.split()[0]
                continue
            m = cont.match(line)
            if m and pending:
                out.append((pending, int(m.group(2), 16), m.group(3)))
            pending = None
    return [s for s in out if s[1] and kind(s[0])]


def objname(path):
    """build/obj/x/y.o -> x/y.o; a libc.a(member) -> libc:member."""
    m = re.search(r"libc\.a\((.*)\)$", path)
    if m:
        return "libc:" + m.group(1)
    m = re.search(r"build/(?:[a-z0-9]+/)?obj/(.*)$", path)
    if m:
        return m.group(1)
    return "crt:" + os.path.basename(path)


def tally(secs):
    per = {}
    for sec, size, obj in secs:
        t = per.setdefault(objname(obj), {"text": 0, "data": 0, "bss": 0})
        t[kind(sec)] += size
    return per


def row(name, t):
    return "  %-26s %8d %8d %9d" % (name, t["text"], t["data"], t["bss"])


def add(a, b):
    return {k: a[k] + b[k] for k in ("text", "data", "bss")}


def main():
    budget = int(sys.argv[1])
    builds = [("x86_64", "iomon", "build/iomon.map")]
    builds += [(a, "build/%s/iomon" % a, "build/%s/iomon.map" % a) for a in ARCHES]
    print("stripped size (bytes)")
    for arch, binary, _ in builds:
        if os.path.exists(binary):
            print("  %-8s %8d  %s" % (arch, os.path.getsize(binary), binary))
    for arch, binary, mapf in builds:
        if arch != "x86_64" and not os.path.exists(mapf):
            continue
        if not os.path.exists(mapf):
            print("size: %s missing (make)" % mapf, file=sys.stderr)
            return 2
        secs = read_map(mapf)
        per = tally(secs)
        zero = {"text": 0, "data": 0, "bss": 0}
        libc, ours = dict(zero), dict(zero)
        for name, t in per.items():
            if name.startswith("libc:"):
                libc = add(libc, t)
            elif not name.startswith("crt:"):
                ours = add(ours, t)
        print("\n%s: per object            text     data       bss" % arch)
        if arch == "x86_64":
            for name in sorted(n for n in per if not n.startswith(("libc:", "crt:"))):
                print(row(name, per[name]))
            big = sorted((n for n in per if n.startswith("libc:")),
                         key=lambda n: -per[n]["text"])[:8]
            print("  (largest musl members)")
            for name in big:
                print(row(name, per[name]))
        print(row("iomon's objects", ours))
        print(row("musl libc", libc))
        if arch != "x86_64":
            continue
        # text: what the applet's own objects add to the binary (plot's
        # cost, issue 17); data and bss: its globals
        print("\nper applet: own code, globals    text     data       bss  largest")
        for applet, objs in APPLETS.items():
            code = sum(s[1] for s in secs if objname(s[2]) in objs and kind(s[0]) == "text")
            mine = [s for s in secs if objname(s[2]) in objs and kind(s[0]) in ("data", "bss")]
            data = sum(s[1] for s in mine if kind(s[0]) == "data")
            bss = sum(s[1] for s in mine if kind(s[0]) == "bss")
            top = sorted(mine, key=lambda s: -s[1])[:3]
            names = ", ".join("%s %d" % (re.sub(r"^\.(bss|data)(\.rel\.ro)?(\.local)?\.", "", s[0]), s[1]) for s in top)
            print("  %-26s %8d %8d %9d  %s" % (applet, code, data, bss, names))
    size = os.path.getsize("iomon")
    verdict = "within" if size <= budget else "OVER"
    print("\nbudget: x86_64 iomon %d of %d bytes: %s budget" % (size, budget, verdict))
    return 0 if size <= budget else 1


if __name__ == "__main__":
    sys.exit(main())
