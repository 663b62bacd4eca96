# needs: python3
# iomon called iowatcher: iowatcher's options on iowatcher's graphs
# (output/plot.c, output/plotsvg.c), movies as one animated SVG looked at
# in headless Chromium at two moments, and live: -d with -p's program
# started once the kernel traces, the CPU graphs from /proc/stat.

IW=$OUT/iowatcher
ln -sf "$IOMON" "$IW"
if ! "$IOMON" --list | grep -qx plot; then
	fail "iowatcher" "this iomon has no plot applet (--list)"
	return 0 2>/dev/null || exit 0
fi
# render SVG PNG HEIGHT [MS]: Chromium's picture, MS milliseconds into its animations
render() {
	rm -f "$2"
	timeout 90 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars ${4:+--virtual-time-budget=$4} \
		--screenshot="$2" --window-size=1200,"$3" "file://$1" >/dev/null 2>&1
	[ -s "$2" ]
}
# svg_py SVG EXPR: a Python assertion over the SVG's text s and its panels
# (split at each bold title), re imported
svg_py() {
	python3 -c "import re, sys
s = open(sys.argv[1]).read()
panels = re.split(r'<text [^>]*font-weight=\"bold\">', s)[1:]
$2" "$1"
}

testcmd "iowatcher: a trace or a device is needed" "iowatcher 2>&1; echo rc=\$?" \
	"iowatcher: -t TRACE or -d DEV is needed\nrc=1\n" "$OUT"
check "iowatcher: called by its name (a link), its usage" sh -c "'$IW' -Z 2>&1 | grep -q '^usage: plot'"
check "iowatcher -p: needs a device to trace" sh -c "! '$IW' -t x -p true 2>'$OUT/p.err' && grep -q 'with a device to trace' '$OUT/p.err'"

# -t repeated with -l: two traces overlaid, each labelled
"$IW" -t "$FIX/ext4/nullb0" -t "$FIX/mq-randrw/nullb0" -l ext4 -l randrw -o "$OUT/two.svg" 2>"$OUT/two.err"
check "iowatcher -t -t -l -l: exit 0, nothing on stderr" test $? = 0 -a ! -s "$OUT/two.err"
check "iowatcher -l: each trace's label, an offset map each" svg_py "$OUT/two.svg" '
assert ">ext4 writes<" in s and ">randrw reads<" in s
assert "Offsets: ext4<" in s and "Offsets: randrw<" in s'
# -t NAME: NAME.dump where there are no NAME.blktrace.N files, as iowatcher
"$IOMON" parse -i "$FIX/ext4/nullb0" -d "$OUT/saved.dump" -O 2>/dev/null
"$IW" -t "$OUT/saved" -O io -o "$OUT/saved.svg" 2>"$OUT/saved.err"
check "iowatcher -t NAME: NAME.dump read when there are no trace files" sh -c "test $? = 0 -a ! -s '$OUT/saved.err' && grep -q '>Offsets: 254,0<' '$OUT/saved.svg'"
# -t DIR: every trace in the folder, each named
mkdir -p "$OUT/dir"; cp "$FIX"/two-devs/nullb*.blktrace.* "$OUT/dir/"
"$IW" -t "$OUT/dir" -O io -o "$OUT/dir.svg" 2>/dev/null
check "iowatcher -t DIR: each trace in it drawn, by its name" sh -c "grep -q '>Offsets: nullb0<' '$OUT/dir.svg' && grep -q '>Offsets: nullb1<' '$OUT/dir.svg'"
# -N/-O with iowatcher's graph names, queue-depth and queue_depth alike
for q in queue-depth queue_depth; do
	"$IW" -t "$FIX/ext4/nullb0" -N $q -o "$OUT/nq.svg" 2>/dev/null
	check "iowatcher -N $q: the queue depth graph left out" sh -c "grep -q '>Throughput<' '$OUT/nq.svg' && ! grep -q '>Queue depth' '$OUT/nq.svg'"
	"$IW" -t "$FIX/ext4/nullb0" -O $q -o "$OUT/oq.svg" 2>/dev/null
	check "iowatcher -O $q: the queue depth graph alone" svg_py "$OUT/oq.svg" 'assert len(panels) == 1 and panels[0].startswith("Queue depth")'
done
testcmd "iowatcher -O: an unknown graph said (iowatcher ignores it)" "iowatcher -O disk -t x 2>&1; echo rc=\$?" \
	"iowatcher: disk: not a graph (io tput iops latency queue-depth heatmap cpu-user cpu-sys cpu-io cpu-irq cpu-soft)\nrc=1\n" "$OUT"
# -h -w -c: graphs 600 wide, 100 high, two a row
"$IW" -t "$FIX/mq-randrw/nullb0" -h 100 -w 600 -c 2 -T "two columns" -o "$OUT/cols.svg" 2>/dev/null
check "iowatcher -w 600 -c 2 -h 100: 1200 wide, frames at x 80 and 680, 100 high" svg_py "$OUT/cols.svg" '
assert re.search(r"<svg [^>]*width=\"1200\"", s)
fr = re.findall(r"<rect x=\"(\d+)\" y=\"\d+\" width=\"496\" height=\"100\"", s)
assert set(fr) == {"80", "680"} and len(fr) == 6, fr'
# -y MIN:MAX (MB): the offsets from MIN; -a: the event drawn
"$IW" -t "$FIX/mq-randrw/nullb0" -O io -y 200:400 -o "$OUT/y.svg" 2>/dev/null
check "iowatcher -y 200:400: the offset axis starts at 200 MB" svg_py "$OUT/y.svg" '
ys = [float(v) for v in re.findall(r"text-anchor=\"end\">([0-9.]+)<", s)]
assert ys[0] == 200 and 300 < ys[-1] <= 500, ys'
"$IW" -t "$FIX/mq-randrw/nullb0" -O io -a C -o "$OUT/ac.svg" 2>/dev/null
"$IW" -t "$FIX/mq-randrw/nullb0" -O io -a Q -o "$OUT/aq.svg" 2>/dev/null
check "iowatcher -a C and -a Q: different marks (completions come later)" sh -c "! cmp -s '$OUT/ac.svg' '$OUT/aq.svg'"
testcmd "iowatcher -a: Q, D or C" "iowatcher -a X -t x 2>&1; echo rc=\$?" "iowatcher: -a X: Q, D or C\nrc=1\n" "$OUT"
# -r: a rolling average smooths the lines
"$IW" -t "$FIX/mq-randrw/nullb0" -O tput -o "$OUT/r0.svg" 2>/dev/null
"$IW" -t "$FIX/mq-randrw/nullb0" -O tput -r 0.05 -o "$OUT/r5.svg" 2>/dev/null
rough='sum(abs(int(a.split(",")[1]) - int(b.split(",")[1])) for pl in re.findall(r"points=\"([^\"]*)\"", s) for a, b in zip(pl.split(), pl.split()[1:]))'
check "iowatcher -r 0.05: the throughput lines less rough than without" python3 -c "import re
s = open('$OUT/r0.svg').read(); r0 = $rough
s = open('$OUT/r5.svg').read(); r5 = $rough
assert r5 * 2 < r0, (r0, r5)"

# -m: one self-contained animated SVG; Chromium at 1 s and at 3 s differ
"$IW" -t "$FIX/mq-randrw/nullb0" -m -O io -O tput -o "$OUT/movie.svg" 2>/dev/null
check "iowatcher -m: animated (SMIL), self-contained" sh -c "grep -q '<animate attributeName=\"width\"' '$OUT/movie.svg' && ! grep -qiE '<script|href|url\\(|<image' '$OUT/movie.svg'"
if need "iowatcher -m: the movie plays in Chromium" chromium; then
	render "$OUT/movie.svg" "$OUT/m1.png" 560 1000 && render "$OUT/movie.svg" "$OUT/m3.png" 560 3000
	check "iowatcher -m: two screenshots, at 1 s and 3 s, differ" sh -c "test -s '$OUT/m1.png' -a -s '$OUT/m3.png' && ! cmp -s '$OUT/m1.png' '$OUT/m3.png'"
	"$IW" -t "$FIX/mq-randrw/nullb0" -O io -O tput -o "$OUT/still.svg" 2>/dev/null
	render "$OUT/still.svg" "$OUT/s1.png" 560 1000 && render "$OUT/still.svg" "$OUT/s3.png" 560 3000
	check "iowatcher without -m: the same two screenshots are the same picture" cmp "$OUT/s1.png" "$OUT/s3.png"
	for f in two cols y; do
		check "iowatcher: $f.svg: every text inside the picture, none over another (Chromium's boxes)" \
			python3 "$TOOLS/svgbox.py" "$OUT/$f.svg"
	done
fi

# live: -d DEV -t NAME -p PROG: the program starts once the kernel traces,
# so a short dd's every write is seen; the capture ends with the program
# (a second after the dd: the CPU graphs' samples), kept as NAME.dump; the
# CPU graphs from /proc/stat over that second; the device by its name
if live_ok "iowatcher live"; then
	LI=$OUT/loop.img; rm -f "$LI"; truncate -s 16M "$LI"
	LOOP=$(losetup -f --show "$LI")
	timeout 60 "$IW" -d "$LOOP" -D "$OUT" -t run -o "$OUT/live.svg" \
		-p sh -c "dd if=/dev/zero of=$LOOP bs=4k count=64 oflag=direct 2>/dev/null; sleep 1" 2>"$OUT/live.err"
	rc=$?
	losetup -d "$LOOP"
	check "iowatcher -d -p: ends when the program does, exit 0" test $rc = 0
	check "iowatcher -d -t run -D: the capture kept as run.dump, all 64 writes of a short dd in it" \
		test "$("$IOMON" parse -i - -f '%a %d\n' <"$OUT/run.dump" 2>/dev/null | grep -c '^Q W')" = 64
	"$IW" -t "$OUT/run" -O io -o "$OUT/again.svg" 2>/dev/null
	check "iowatcher -t run: the kept run.dump draws again" grep -q '>Offsets: ' "$OUT/again.svg"
	check "iowatcher -d: the device by the kernel's name (${LOOP#/dev/})" grep -q ">Offsets: ${LOOP#/dev/}<" "$OUT/live.svg"
	check "iowatcher -d: CPU graphs from /proc/stat, each a line of samples" svg_py "$OUT/live.svg" '
cpu = [p for p in panels if p.startswith("CPU ")]
assert len(cpu) == 5, len(cpu)
for p in cpu:
    assert len(re.search(r"points=\"([^\"]*)\"", p).group(1).split()) >= 3, p[:60]'
fi
