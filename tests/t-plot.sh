# needs: python3 xmllint chromium
# iomon plot: the SVG is well-formed XML, and looked at as a person would:
# headless Chromium renders it, and the picture's pixels are checked
# (not blank; a crafted trace's marks where its I/O was).

# png_check PNG CMD...: python over the PNG's pixels (RGB rows), CMD is a
# Python expression over px(x, y) -> (r, g, b), W, H; true passes
png_py='
import struct, sys, zlib
def load(path):
    d = open(path, "rb").read()
    assert d[:8] == b"\x89PNG\r\n\x1a\n"
    i, idat, W = 8, b"", 0
    while i < len(d):
        n, t = struct.unpack(">I4s", d[i:i + 8])
        c = d[i + 8:i + 8 + n]
        if t == b"IHDR":
            W, H, bd, ct = struct.unpack(">IIBB", c[:10])
            assert bd == 8 and ct in (2, 6), (bd, ct)
            bpp = 3 if ct == 2 else 4
        elif t == b"IDAT":
            idat += c
        i += 12 + n
    raw, rows, st = zlib.decompress(idat), [], W * bpp
    prev = bytearray(st)
    for y in range(H):
        f, line = raw[y * (st + 1)], bytearray(raw[y * (st + 1) + 1:(y + 1) * (st + 1)])
        for x in range(st):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line); prev = line
    return W, H, bpp, rows
W, H, bpp, rows = load(sys.argv[1])
def px(x, y):
    r = rows[y]; return tuple(r[x * bpp:x * bpp + 3])
'
png_check() {
	local png=$1; shift
	python3 -c "$png_py
sys.exit(0 if ($*) else 1)" "$png"
}
# render SVG PNG HEIGHT: Chromium's picture of the SVG
render() {
	rm -f "$2"
	timeout 60 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--screenshot="$2" --window-size=960,"$3" "file://$1" >/dev/null 2>&1
	[ -s "$2" ]
}

if ! "$IOMON" --list | grep -qx plot; then
	fail "plot" "this iomon has no plot applet (--list)"
	return 0 2>/dev/null || exit 0
fi
testcmd "plot: an input is needed" "plot 2>&1; echo rc=\$?" "plot: -i INPUT or -t DEV is needed\nrc=1\n"
testcmd "plot: a graph by iowatcher's names only" "plot -O disk -i x 2>&1; echo rc=\$?" \
	"plot: disk: not a graph (io tput iops latency queue-depth heatmap cpu-user cpu-sys cpu-io cpu-irq cpu-soft)\nrc=1\n"

# every graph of a real capture
"$IOMON" plot -i "$FIX/ext4/nullb0" -o "$OUT/ext4.svg" -T "ext4 <&> fixture" 2>"$OUT/ext4.err"
check "plot: exit 0, nothing on stderr" test $? = 0 -a ! -s "$OUT/ext4.err"
if need "plot: the SVG is well-formed XML" xmllint; then
	check "plot: the SVG is well-formed XML (the title's <&> escaped)" xmllint --noout "$OUT/ext4.svg"
fi
# the device by its trace's name (nullb0), not 254,0
for t in "Offsets: nullb0" Throughput IOPS "Latency: D2C" "Queue depth" "D2C heatmap: nullb0"; do
	check "plot: a panel '$t'" grep -q ">$t" "$OUT/ext4.svg"
done
"$IOMON" plot -i "$FIX/ext4/nullb0" -T "ext4 <&> fixture" -o - >"$OUT/stdout.svg" 2>/dev/null
same "plot -o -: the same SVG on stdout" "$OUT/stdout.svg" "$OUT/ext4.svg"
check "plot: self-contained (no script, no link, no external reference)" \
	sh -c "! grep -qiE '<script|href|url\\(|@import|<image' '$OUT/ext4.svg'"
# the same trace big-endian (s390x's), and as a raw stream on stdin
"$IOMON" plot -i "$FIX/ext4-be/nullb0" -o "$OUT/be.svg" 2>/dev/null
"$IOMON" plot -i "$FIX/ext4/nullb0" -o "$OUT/le.svg" 2>/dev/null
same "plot: a big-endian trace draws as the same trace little-endian" "$OUT/be.svg" "$OUT/le.svg"
"$IOMON" plot -i - -o "$OUT/stdin.svg" <"$FIX/stream/nullb0.stream" 2>/dev/null
"$IOMON" plot -i "$FIX/stream/nullb0.stream" -o "$OUT/file.svg" 2>/dev/null
check "plot -i -: a raw stream on stdin draws ($(grep -c '<polyline' "$OUT/stdin.svg") lines)" \
	test "$(grep -c '<polyline' "$OUT/stdin.svg")" -ge 5
"$IOMON" plot -i "$FIX/v8-ext4-part/nullb0" -o "$OUT/v8.svg" 2>/dev/null
check "plot: a version 8 trace draws" grep -q "Offsets: nullb0" "$OUT/v8.svg"
"$IOMON" parse -i "$FIX/ext4/nullb0" -d "$OUT/ext4.dump" -O 2>/dev/null
"$IOMON" plot -i "$OUT/ext4.dump" -O io -o "$OUT/dump.svg" 2>/dev/null
check "plot: a dump (no device names in it) draws its devices as MAJ,MIN" grep -q "Offsets: 254,0" "$OUT/dump.svg"
# two traces overlaid, labelled; -O/-N choose graphs
"$IOMON" plot -i "$FIX/two-devs/nullb0" -i "$FIX/two-devs/nullb1" -l first -l second -O tput -O io -N io \
	-o "$OUT/two.svg" 2>/dev/null
check "plot -l: each trace's label in the legend" sh -c "grep -q '>first reads<' '$OUT/two.svg' && grep -q '>second writes<' '$OUT/two.svg'"
check "plot -O tput -O io -N io: the throughput graph alone, a line per device and direction" \
	test "$(grep -c 'font-weight="bold"' "$OUT/two.svg")" = 1 -a "$(grep -c '<polyline' "$OUT/two.svg")" -ge 2
# -P: the offsets coloured by process, the names in the legend
"$IOMON" plot -P -O io -i "$FIX/ext4/nullb0" -o "$OUT/procs.svg" 2>/dev/null
check "plot -P: the processes in the legend" sh -c "grep -q '>jbd2/nullb0-8<' '$OUT/procs.svg' && grep -q '>others<' '$OUT/procs.svg'"
# -x: a time range, the axis labelled with the trace's own seconds
"$IOMON" plot -x 0.2:0.3 -O tput -i "$FIX/ext4/nullb0" -o "$OUT/x.svg" 2>/dev/null
check "plot -x 0.2:0.3: the time axis runs from 0.20 to 0.30" \
	sh -c "grep -q 'middle\">0.20<' '$OUT/x.svg' && grep -q 'middle\">0.30<' '$OUT/x.svg' && ! grep -q 'middle\">0.10<' '$OUT/x.svg' && ! grep -q 'middle\">0.00<' '$OUT/x.svg'"
testcmd "plot -x: MIN:MAX" "plot -x 3 -i x 2>&1; echo rc=\$?" "plot: -x 3: MIN:MAX\nrc=1\n"
# damage: named with its offset, what came before drawn, exit 1
head -c 30001 "$FIX/ext4/nullb0.blktrace.0" >"$OUT/cut.blktrace.0"
"$IOMON" plot -i "$OUT/cut" -o "$OUT/cut.svg" 2>"$OUT/cut.err"
check "plot: a cut trace: exit 1" test $? = 1
check "plot: a cut trace: named with its offset" grep -q "cut.blktrace.0: truncated record at byte 29968" "$OUT/cut.err"
check "plot: a cut trace: what came before is drawn" grep -q "<polyline" "$OUT/cut.svg"

# a crafted trace: 8,0, one 4 KiB read at sector 0 then writes in the
# upper half of the sectors it spans (2^21..2^22): the offset map shows
# red only in its upper half, blue only at the bottom
python3 - "$OUT/craft.dump" <<-'PY'
import struct, sys
R, W, Q, D, C = 1 << 16, 1 << 17, 1 << 20, 1 << 22, 1 << 23
out, t = b"", 0
def rec(time, sec, act):
    global out
    out += struct.pack("<IIQQIIIIIHH", 0x65617407, 0, time, sec, 4096, act, 1, 8 << 20, 0, 0, 0)
def io(sec, rw):
    global t
    rec(t, sec, rw | Q | 1); rec(t + 1000, sec, rw | D | 7); rec(t + 50000, sec, rw | C | 8)
    t += 100000
io(0, R)
for i in range(400):
    io((1 << 21) + i * 5200, W)
io((1 << 22) - 8, W)
open(sys.argv[1], "wb").write(out)
PY
"$IOMON" plot -O io -i "$OUT/craft.dump" -o "$OUT/craft.svg" 2>/dev/null
if need "plot: the picture, rendered by headless Chromium" chromium && render "$OUT/craft.svg" "$OUT/craft.png" 300; then
	# the panel: <rect x=80 y=TOP width=PW height=150 ...> in the SVG
	top=$(grep -oE '<rect x="80" y="[0-9]+" width="[0-9]+" height="150"' "$OUT/craft.svg" | head -1 | sed 's/.*y="\([0-9]*\)".*/\1/')
	check "plot: the rendered picture is not blank" png_check "$OUT/craft.png" \
		"sum(1 for y in range(0, H, 2) for x in range(0, W, 2) if px(x, y) != (255, 255, 255)) > 500"
	red="lambda p: p[0] - p[2] > 50"
	blue="lambda p: p[2] - p[0] > 40"
	check "plot: writes (red) only in the upper half of the offset map" png_check "$OUT/craft.png" \
		"[y for y in range($top, $top + 150) for x in range(81, W - 25) if ($red)(px(x, y))] and all(y <= $top + 77 for y in range($top, $top + 150) for x in range(81, W - 25) if ($red)(px(x, y)))"
	check "plot: the read (blue) only at the bottom of the offset map" png_check "$OUT/craft.png" \
		"[y for y in range($top, $top + 150) for x in range(81, 130) if ($blue)(px(x, y))] and all(y > $top + 140 for y in range($top, $top + 150) for x in range(81, W - 25) if ($blue)(px(x, y)))"
	# one real fixture's picture kept for docs/applets.md (tests/plot-ext4.png)
	h=$(sed -n 's/^<svg .* height="\([0-9]*\)".*/\1/p' "$OUT/ext4.svg")
	render "$OUT/ext4.svg" "$OUT/ext4.png" "$h"
	check "plot: a real capture renders whole (kept as $OUT/ext4.png)" png_check "$OUT/ext4.png" "W == 960 and H == ${h:-0} and H > 1000"
fi

# issue 31's list, each checked where it could fail.  Crafted dumps
# (8,0): "spike": a 4 KiB write every 10 ms for 3 s and one 256 MiB
# write; "long": a 4 KiB read or write every 100 ms for 20 s; "merged":
# 24,000 requests 8 in flight, each two bios, the second back- or
# front-merged into the first, or with no merge record at all (its Q
# never completes at its own sector)
python3 - "$OUT" <<-'PY'
import struct, sys
R, W, Q, D, C = 1 << 16, 1 << 17, 1 << 20, 1 << 22, 1 << 23
def rec(out, time, sec, act, nbytes=4096):
    out.append(struct.pack("<IIQQIIIIIHH", 0x65617407, 0, time, sec, nbytes, act, 1, 8 << 20, 0, 0, 0))
def io(out, t, sec, rw, nbytes=4096):
    rec(out, t, sec, rw | Q | 1, nbytes); rec(out, t + 1000, sec, rw | D | 7, nbytes); rec(out, t + 200000, sec, rw | C | 8, nbytes)
out = []
for i in range(300):
    io(out, i * 10000000, 8 * i, W)
io(out, 1500000000 + 5, 1 << 20, W, 256 << 20)
out.sort(key=lambda r: struct.unpack("<Q", r[8:16])[0])
open(sys.argv[1] + "/spike.dump", "wb").write(b"".join(out))
out = []
for i in range(200):
    io(out, i * 100000000, 64 * i, R if i % 2 else W)
open(sys.argv[1] + "/long.dump", "wb").write(b"".join(out))
out, t = [], 0
for g in range(3000):
    base = g * 8 * 16
    for k in range(8):
        s = base + 16 * k
        if k % 3 == 1:
            rec(out, t, s, W | Q | 1); rec(out, t + 10, s + 8, W | Q | 1); rec(out, t + 20, s + 8, W | Q | 2)
        elif k % 3 == 2:	# merged as requests: no record says so (tracefs has no M for it)
            rec(out, t, s, W | Q | 1); rec(out, t + 10, s + 8, W | Q | 1)
        else:
            rec(out, t, s + 8, W | Q | 1); rec(out, t + 10, s, W | Q | 1); rec(out, t + 20, s, W | Q | 3)
        rec(out, t + 30, s, W | D | 7, 8192); t += 100
    for k in range(8):
        rec(out, t, base + 16 * k, W | C | 8, 8192); t += 100
open(sys.argv[1] + "/merged.dump", "wb").write(b"".join(out))
PY
"$IOMON" plot -i "$FIX/mq-randrw/nullb0" -o "$OUT/mq.svg" 2>/dev/null
# reads and writes in two colours in every I/O graph (a random read-write run)
check "plot: reads and writes in two colours in every graph (offsets, throughput, IOPS, latency, depth)" python3 -c '
import re, sys
svg = open(sys.argv[1]).read()
panels = re.split(r"<text [^>]*font-weight=\"bold\">", svg)[1:]
assert len(panels) == 6, len(panels)
for p in panels[:5]:
    cols = set(re.findall(r"<polyline fill=\"none\" stroke=\"([^\"]+)\"", p)) or set(re.findall(r"<path fill=\"(#[^\"]+)\" fill-opacity", p))
    assert len(cols) >= 2, (p[:40], cols)' "$OUT/mq.svg"
# offsets as points whose density shows: small dots, several shades
check "plot: offsets as 3x3 dots in at least 3 shades by the requests there" python3 -c '
import re, sys
p = re.split(r"<text [^>]*font-weight=\"bold\">", open(sys.argv[1]).read())[1]
paths = re.findall(r"<path fill=\"[^\"]+\" fill-opacity=\"([0-9.]+)\" d=\"([^\"]*)\"", p)
assert len({o for o, d in paths}) >= 3, paths[:3]
assert all(re.fullmatch(r"(M\d+ \d+h3v3h-3z)+", d) for o, d in paths)' "$OUT/mq.svg"
# a spike does not flatten the rest: cut at the top, marked, named in the title
"$IOMON" plot -i "$OUT/spike.dump" -O tput -o "$OUT/spike.svg" 2>/dev/null
check "plot: one spike cut at the top and marked; the ordinary writes a third of the height or more" python3 -c '
import re, sys
svg = open(sys.argv[1]).read()
top = int(re.search(r"<rect x=\"80\" y=\"(\d+)\" width=\"\d+\" height=\"150\"", svg).group(1))
assert re.search(r"Throughput \(peaks to [0-9.]+ MB/s cut, marked \^\)", svg), "title"
marks = re.findall(r"<path fill=\"[^\"]+\" d=\"([^\"]*)\"", svg)
assert sum(d.count("M") for d in marks) == 1, marks
ys = [int(p.split(",")[1]) for p in re.search(r"<polyline[^>]*points=\"([^\"]*)\"", svg).group(1).split()]
low = sorted(top + 150 - y for y in ys if y > top + 1)
assert low[-1] >= 50, low[-10:]' "$OUT/spike.svg"
# a cut time axis keeps the trace's seconds
"$IOMON" plot -x 4:12 -O iops -i "$OUT/long.dump" -o "$OUT/long.svg" 2>/dev/null
check "plot -x 4:12: the time axis labelled 4 to 12" python3 -c '
import re, sys
xs = [float(v) for v in re.findall(r"text-anchor=\"middle\">([0-9.]+)<", open(sys.argv[1]).read())]
assert xs[0] == 4 and xs[-1] == 12 and xs == sorted(xs), xs' "$OUT/long.svg"
# the heatmap's colour scale
check "plot: the heatmap has a colour scale (requests: 1 2 4 ...)" python3 -c '
import re, sys
p = open(sys.argv[1]).read().split("D2C heatmap")[1]
assert ">requests:<" in p and len(re.findall(r"fill=\"#b30000\" fill-opacity=\"[0-9.]+\"/><text[^>]*>[0-9]+<", p)) >= 3' "$OUT/ext4.svg"
# merges do not leave requests in flight: 12,000 at depth 8 draw without giving up
"$IOMON" plot -i "$OUT/merged.dump" -O iops -o "$OUT/merged.svg" 2>"$OUT/merged.err"
check "plot: 24,000 merged requests 8 in flight: nothing given up (PLOT_REQS)" test $? = 0 -a ! -s "$OUT/merged.err"
# Chromium's layout: every text inside the picture, no text over another
if need "plot: text boxes as Chromium lays them out" chromium; then
	for f in ext4 mq procs two spike long; do
		check "plot: $f.svg: every text inside the picture, none over another (Chromium's boxes)" \
			python3 "$TOOLS/svgbox.py" "$OUT/$f.svg"
	done
fi

# memory bounded by the pools, not the trace: 50,000 and 400,000 generated
# events (seed 1) within 1 MiB of peak RSS, and within 256 KiB of each other
if [ -n "$CROSS" ]; then
	skip "plot: peak RSS" "under qemu-user ($CROSS) RSS counts the emulator's own memory"
elif [ -x "$TOOLS/gentrace" ] && [ -x "$TOOLS/peakrss" ]; then
	for n in 50000 400000; do
		(cd "$OUT" && "$TOOLS/gentrace" -n $n -o g$n >/dev/null 2>&1)
		"$TOOLS/peakrss" "$IOMON" plot -i "$OUT/g$n" -o "$OUT/g$n.svg" 2>"$OUT/g$n.err"
		eval "rss$n=$(sed -n 's/^peakrss: \([0-9]*\) KiB/\1/p' "$OUT/g$n.err")"
		rm -f "$OUT"/g$n.blktrace.*
	done
	check "plot: peak RSS bounded by the pools (${rss50000} KiB for 50,000 events, ${rss400000} KiB for 400,000)" \
		test "${rss400000:-9999}" -le 1024 -a "$((rss400000 - rss50000))" -le 256
else
	skip "plot: memory bounded" "tests/tools/gentrace or peakrss not built"
fi

# live: -t on a loop device, -w ends it; the writes show in the picture
if live_ok "plot live"; then
	LI=$OUT/loop.img; rm -f "$LI"; truncate -s 16M "$LI"
	LOOP=$(losetup -f --show "$LI")
	# the writes once the kernel traces (a guessed 0.7 s was once too short)
	rm -f "$OUT/live.err"
	timeout 30 "$IOMON" plot -t "$LOOP" -w 2 -O iops -o "$OUT/live.svg" 2>"$OUT/live.err" & pid=$!
	capturing "$OUT/live.err" $pid && dd if=/dev/zero of="$LOOP" bs=4k count=200 oflag=direct 2>/dev/null
	wait $pid
	check "plot -t -w 2: ends by itself, exit 0" test $? = 0
	# an ordinary run 8 deep (8 direct writers, 8 direct readers): nothing
	# given up in flight, reads and writes each a line; SIGINT once done
	timeout 60 "$IOMON" plot -t "$LOOP" -O tput -o "$OUT/deep.svg" 2>"$OUT/deep.err" & pid=$!
	if capturing "$OUT/deep.err" $pid; then
		load=""
		for j in 0 1 2 3 4 5 6 7; do
			dd if=/dev/zero of="$LOOP" bs=4k count=300 seek=$((j * 400)) oflag=direct 2>/dev/null & load="$load $!"
			dd if="$LOOP" of=/dev/null bs=4k count=300 skip=$((j * 400 + 200)) iflag=direct 2>/dev/null & load="$load $!"
		done
		wait $load
	fi
	kill -INT $pid; wait $pid
	check "plot -t: 16 direct dd's at once: exit 0, nothing given up in flight" \
		sh -c "test $? = 0 && ! grep -q 'given up' '$OUT/deep.err'"
	check "plot -t: the device by the kernel's name (${LOOP#/dev/}), its reads and writes each a line" \
		sh -c "grep -q '>${LOOP#/dev/} reads<' '$OUT/deep.svg' && test \$(grep -c '<polyline' '$OUT/deep.svg') = 2"
	losetup -d "$LOOP"
	check "plot -t: the device's IOPS line has the writes" python3 -c '
import re, sys
pts = re.search(r"<polyline[^>]*points=\"([^\"]*)\"", open(sys.argv[1]).read()).group(1).split()
ys = [int(p.split(",")[1]) for p in pts]
assert max(ys) - min(ys) > 20, ys' "$OUT/live.svg"
fi

# the tiny build: devices past PLOT_SERIES and requests past PLOT_REQS are counted
"$IOMON" parse -i "$FIX/two-devs/nullb0" -i "$FIX/two-devs/nullb1" -d "$OUT/two.dump" -O 2>/dev/null
"$IOMON_TINY" plot -i "$OUT/two.dump" -o "$OUT/tiny.svg" 2>"$OUT/tiny.err"
check "tiny plot: devices past PLOT_SERIES counted and named" grep -q "(PLOT_SERIES) not drawn" "$OUT/tiny.err"
"$IOMON_TINY" plot -i "$FIX/mq-randrw/nullb0" -o "$OUT/tiny2.svg" 2>"$OUT/tiny.err"
check "tiny plot: requests past PLOT_REQS given up, counted and named" grep -q "(PLOT_REQS) newer ones were: given up, not drawn" "$OUT/tiny.err"
# requests given up leave the queue depth: it does not climb with each one
"$IOMON_TINY" plot -i "$FIX/mq-randrw/nullb0" -O queue-depth -o "$OUT/tinyqd.svg" 2>/dev/null
check "tiny plot: the queue depth does not count requests given up (its axis 8 or less)" python3 -c '
import re, sys
ys = [float(v) for v in re.findall(r"text-anchor=\"end\">([0-9.]+)<", open(sys.argv[1]).read())]
assert ys and ys[-1] <= 8, ys' "$OUT/tinyqd.svg"
