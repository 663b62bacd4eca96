#!/usr/bin/env python3
"""make size: where iomon's bytes go, from the link maps the builds write.

usage: size.py BUDGET [PROFILE:BUDGET...]   (run from the top directory)

Prints the stripped size of every build there is (./iomon and
build/ARCH/iomon), text/data/bss per object file of the x86_64 build, and
per applet the data and bss its globals take.  Exits 1 when the stripped
x86_64 binary is larger than BUDGET bytes, or a profile's
(build/profile-NAME/iomon, make PROFILE=NAME) than its own.

The product is linked with LTO, whose one unit does not say which object
a byte came from: the tables are of the same objects linked without it
(build/iomon.map, build/iomon_nolto), printed beside the product's size.

Counted from the link map (-Wl,-Map) rather than from nm: after
--gc-sections it lists exactly the input sections that were kept, with
the object each came from, and -fdata-sections names each global's
section after it (.bss.NAME), so musl's members are counted too.
"""
import os
import re
import subprocess
import sys

ARCHES = ["s390x", "aarch64", "armhf"]


def applet_objects():
    """Each applet's own objects, from the drivers' header blocks
    (tests/tools/applets.sh --own): its driver and the sources its
    //sources: lines name themselves (not through @NAME) and no other
    driver's do; "shared", the core every applet has (Makefile CORE)."""
    out = subprocess.run(["sh", "tests/tools/applets.sh", "--own"], capture_output=True,
                         text=True, check=True).stdout.splitlines()
    own, count = {}, {}
    for line in out:
        w = line.split()
        srcs = [x for x in w[w.index(":") + 1:] if not x.startswith("@")]
        own[w[3]] = [w[0]] + srcs
        for x in set(srcs):
            count[x] = count.get(x, 0) + 1
    res = {n: [x[:-2] + ".o" for x in v if count.get(x, 0) <= 1] for n, v in sorted(own.items())}
    res["shared"] = ["applet.o", "base.o", "libc.o", "text.o", "tz.o"]
    return res


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
    m = re.search(r"build/(?:[a-z0-9_-]+/)*?obj/(.*)$", path)
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
    if os.path.exists("build/iomon_nolto"):
        print("  x86_64 linked without LTO: %d (build/iomon_nolto), whose objects the tables below count"
              % os.path.getsize("build/iomon_nolto"))
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
        for applet, objs in applet_objects().items():
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
    bad = size > budget
    # the profiles: x86_64 against its budget, the other builds beside it
    for arg in sys.argv[2:]:
        name, pb = arg.split(":")
        pb = int(pb)
        binary = "build/profile-%s/iomon" % name
        if not os.path.exists(binary):
            print("size: %s missing (make PROFILE=%s)" % (binary, name), file=sys.stderr)
            return 2
        ps = os.path.getsize(binary)
        others = ["%s %d" % (a, os.path.getsize("build/%s/profile-%s/iomon" % (a, name)))
                  for a in ARCHES if os.path.exists("build/%s/profile-%s/iomon" % (a, name))]
        verdict = "within" if ps <= pb else "OVER"
        print("budget: profile %s x86_64 %d of %d bytes: %s budget%s" %
              (name, ps, pb, verdict, "  (" + ", ".join(others) + ")" if others else ""))
        bad = bad or ps > pb
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
