# needs: zstd python3
# zstd input (issue 16): per-CPU files NAME.blktrace.N.zst and compressed
# stdin read as the plain bytes would be, damage named by compressed byte,
# every level of the zstd CLI up to 19 read, a window past ZSTD_WINDOW_LOG
# (8 MiB: --ultra, --long) refused, pools exhausted in the tiny build.
# Without zstd built in (make ZSTD=0) a compressed input is named and refused.
Z=$OUT/z; rm -rf "$Z"; mkdir -p "$Z"
zstd -q -c "$FIX/ext4/nullb0.blktrace.0" >"$Z/probe.zst"
"$IOMON" parse -i - <"$Z/probe.zst" >"$Z/probe.out" 2>"$Z/probe.err"
if grep -q 'built without it' "$Z/probe.err"; then
	check "no zstd built in: a compressed stream is named and refused" \
		grep -q '^parse: (stdin): compressed with zstd, and this iomon was built without it (make ZSTD=1)$' "$Z/probe.err"
	"$IOMON" parse -i - <"$Z/probe.zst" >/dev/null 2>&1
	check "no zstd built in: exit 1" test $? = 1
	"$IOMON" trace -z -d /dev/null >/dev/null 2>"$Z/tz.err"
	check "no zstd built in: trace -z is refused, and says why" grep -q -- '-z: this iomon was built without zstd (make ZSTD=1)' "$Z/tz.err"
	skip "zstd input" "this iomon is built without zstd (make ZSTD=1; CI runs both)"
	return 0 2>/dev/null || exit 0
fi
# names: NAME.blktrace.N.zst are found where NAME.blktrace.N are not
plain() { sed 's/\.zst added$/ added/' "$1"; }
for d in "$FIX"/*/; do
	f=$(basename "$d")
	ls "$d"*.blktrace.0 >/dev/null 2>&1 || continue
	mkdir -p "$Z/$f"
	a=()
	for t in "$d"*.blktrace.*; do
		zstd -q -c "$t" >"$Z/$f/$(basename "$t").zst"
	done
	for t in "$d"*.blktrace.0; do a+=(-i "$(basename "${t%.blktrace.0}")"); done
	(cd "$d" && "$IOMON" parse "${a[@]}") >"$Z/$f.ref" 2>&1
	(cd "$Z/$f" && "$IOMON" parse "${a[@]}") >"$Z/$f.out" 2>&1
	plain "$Z/$f.out" >"$Z/$f.plain"
	same "zstd $f: parse of the .zst files prints what the plain files do" "$Z/$f.plain" "$Z/$f.ref"
done
E=$FIX/mq-randrw
(cd "$E" && "$IOMON" monitor -I 1 -i nullb0 -h -) >"$Z/mon.ref"
(cd "$Z/mq-randrw" && "$IOMON" monitor -I 1 -i nullb0 -h -) >"$Z/mon.out"
same "zstd: monitor -i replays .zst files" "$Z/mon.out" "$Z/mon.ref"
(cd "$E" && "$IOMON" top -C -i nullb0 1) >"$Z/top.ref"
(cd "$Z/mq-randrw" && "$IOMON" top -C -i nullb0 1) >"$Z/top.out"
same "zstd: top -i replays .zst files" "$Z/top.out" "$Z/top.ref"

# a stream on stdin: one frame, several frames, and fed a byte at a time
cat "$E"/nullb0.blktrace.0 "$E"/nullb0.blktrace.1 >"$Z/s.bin"
"$IOMON" parse -i - <"$Z/s.bin" >"$Z/s.ref"
zstd -q -c "$Z/s.bin" >"$Z/s.zst"
"$IOMON" parse -i - <"$Z/s.zst" >"$Z/s.out"
same "zstd: a compressed stream on stdin" "$Z/s.out" "$Z/s.ref"
head -c 100000 "$Z/s.bin" | zstd -q -c >"$Z/m.zst"
tail -c +100001 "$Z/s.bin" | zstd -q -c >>"$Z/m.zst"
"$IOMON" parse -i - <"$Z/m.zst" >"$Z/m.out"
same "zstd: two frames one after the other (cut inside a record)" "$Z/m.out" "$Z/s.ref"
# (monitor by trace time: parse's stream window makes its own choices on a trickle, and wall time its own intervals)
"$IOMON" monitor -I 1 --clock=trace -h - <"$Z/s.bin" >"$Z/ms.ref"
python3 -c '
import os, sys
d = open(sys.argv[1], "rb").read()
for i in range(0, len(d), 7):
    os.write(1, d[i:i + 7])' "$Z/s.zst" | "$IOMON" monitor -I 1 --clock=trace -h - >"$Z/p.out"
same "zstd: the stream arriving 7 bytes at a time (monitor)" "$Z/p.out" "$Z/ms.ref"

# btt's dump, compressed
"$IOMON" parse -i "$E/nullb0" -d "$Z/dump" -O >/dev/null 2>&1
zstd -q -c "$Z/dump" >"$Z/dump.zst"
(cd "$Z" && "$IOMON" btt -i dump >btt.ref 2>&1)	# (its *_fp.dat in Z)
(cd "$Z" && "$IOMON" btt -i dump.zst >btt.out 2>&1)
same "zstd: btt -i of a compressed dump" "$Z/btt.out" "$Z/btt.ref"

# every read boundary: a small compressed piece of one CPU's records,
# written in two parts split at each byte in turn, a pause between
head -c 2992 "$E/nullb0.blktrace.0" | zstd -q -c >"$Z/small.zst"	# (whole records)
head -c 2992 "$E/nullb0.blktrace.0" | "$IOMON" parse -i - >"$Z/small.ref" 2>&1
python3 - "$IOMON" "$Z/small.zst" "$Z/small.ref" >"$Z/split.out" <<-'PY'
import subprocess, sys, time
iomon, z, ref = sys.argv[1], open(sys.argv[2], "rb").read(), open(sys.argv[3], "rb").read()
bad = []
for i in range(1, len(z)):
    p = subprocess.Popen([iomon, "parse", "-i", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    p.stdin.write(z[:i]); p.stdin.flush(); time.sleep(0.002)
    out, _ = p.communicate(z[i:])
    if out != ref: bad.append(i)
print("%d splits, %d differ %s" % (len(z) - 1, len(bad), bad[:5]))
PY
check "zstd: split at every byte of a $(stat -c %s "$Z/small.zst")-byte frame, the same output ($(cat "$Z/split.out"))" grep -q ' 0 differ' "$Z/split.out"

# damage: everything decoded before it is printed, the compressed byte named
events() { grep -cE '^ *[0-9]+,[0-9]+ +[0-9]+ ' "$1"; }
n=$(stat -c %s "$Z/s.zst")
head -c $((n / 2)) "$Z/s.zst" >"$Z/cut.zst"
"$IOMON" parse -i - <"$Z/cut.zst" >"$Z/cut.out" 2>"$Z/cut.err"
check "zstd truncated: exit 1" test $? = 1
check "zstd truncated: named with the compressed byte" grep -q "^parse: (stdin): truncated zstd frame at compressed byte $((n / 2))\$" "$Z/cut.err"
check "zstd truncated: the records before it printed ($(events "$Z/cut.out") of $(events "$Z/s.ref"))" \
	test "$(events "$Z/cut.out")" -gt 1000
python3 - "$Z/s.zst" "$Z/bad.zst" <<-'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
for i in range(len(d) // 2, len(d) // 2 + 64): d[i] ^= 0x5a
open(sys.argv[2], "wb").write(d)
PY
"$IOMON" parse -i - <"$Z/bad.zst" >"$Z/bad.out" 2>"$Z/bad.err"
check "zstd corrupt: exit 1" test $? = 1
check "zstd corrupt: named with the compressed byte" grep -qE '^parse: \(stdin\): damaged zstd data at compressed byte [0-9]+: ' "$Z/bad.err"
check "zstd corrupt: the records before it printed" test "$(events "$Z/bad.out")" -gt 1000
mkdir -p "$Z/cutf"; cp "$Z/mq-randrw/nullb0.blktrace.1.zst" "$Z/cutf/"
head -c 5000 "$Z/mq-randrw/nullb0.blktrace.0.zst" >"$Z/cutf/nullb0.blktrace.0.zst"
(cd "$Z/cutf" && "$IOMON" parse -i nullb0) >/dev/null 2>"$Z/cutf.err"
check "zstd truncated per-CPU file: named with its path" grep -q '^parse: nullb0.blktrace.0.zst: truncated zstd frame at compressed byte 5000$' "$Z/cutf.err"

# every level of the zstd CLI (issue 33): 1 to 19 ask for windows up to
# 8 MiB (17 and up on a stream of unknown size), all read.  The per-CPU
# files as files (a frame whose window is the file's size) and the two as
# one stream on stdin (the level's own window declared)
bad=; wins=
for l in $(seq 1 19); do
	rm -rf "$Z/lv"; mkdir -p "$Z/lv"
	zstd -q -$l "$E"/nullb0.blktrace.0 "$E"/nullb0.blktrace.1 --output-dir-flat "$Z/lv"
	(cd "$Z/lv" && "$IOMON" parse -i nullb0) >"$Z/lv.out" 2>&1
	plain "$Z/lv.out" | cmp -s - "$Z/mq-randrw.ref" || bad="$bad files-$l"
	zstd -q -$l -c <"$Z/s.bin" >"$Z/lv.zst"
	wins="$wins $(zstd -lv "$Z/lv.zst" 2>/dev/null | sed -n 's/^Window Size: .*(\([0-9]*\) B)$/\1/p')"
	"$IOMON" parse -i - <"$Z/lv.zst" | cmp -s - "$Z/s.ref" || bad="$bad stdin-$l"
done
check "zstd levels 1 to 19: per-CPU files and a stream read as the plain bytes (${bad:-none differ})" test -z "$bad"
check "zstd levels 1 to 19: their stream frames' windows include 8 MiB (${wins# })" sh -c "echo '$wins' | grep -qw 8388608"
# a trace big enough that -19 picks a window past 2 MiB: as files (each
# frame's window its file's size) and as a stream (8 MiB declared, the
# pages only as the frame fills them), each parsed as the plain bytes,
# peak RSS the windows' pages plus what parse of the plain files takes
python3 "$TOOLS/bigtrace.py" "$E/nullb0" "$Z/big" 110000 >/dev/null
rm -rf "$Z/bz"; mkdir -p "$Z/bz"
zstd -q -19 "$Z"/big.blktrace.0 "$Z"/big.blktrace.1 --output-dir-flat "$Z/bz"
w=$(zstd -lv "$Z/bz/big.blktrace.0.zst" 2>/dev/null | sed -n 's/^Window Size: .*(\([0-9]*\) B)$/\1/p')
check "zstd -19 of a $(stat -c %s "$Z/big.blktrace.0")-byte file: a window past 2 MiB (${w:-?} B)" test "${w:-0}" -gt 2097152
(cd "$Z" && "$IOMON" parse -i big) >"$Z/big.ref" 2>&1
(cd "$Z/bz" && "$IOMON" parse -i big) >"$Z/big.out" 2>&1
plain "$Z/big.out" | cmp -s - "$Z/big.ref"
check "zstd -19, windows past 2 MiB: parse prints what the plain files give" test $? = 0
cp "$Z/big.blktrace.0" "$Z/bs.bin"
zstd -q -19 -c <"$Z/bs.bin" >"$Z/bs.zst"
"$IOMON" parse -i - <"$Z/bs.bin" >"$Z/bs.ref" 2>&1
"$IOMON" parse -i - <"$Z/bs.zst" 2>&1 | cmp -s - "$Z/bs.ref"
check "zstd -19 stream (8 MiB window declared): parse prints what the plain bytes give" test $? = 0
if [ -z "$CROSS" ] && { [ -x "$TOOLS/peakrss" ] || make -s -C "$TOP" tests/tools/peakrss >/dev/null 2>&1; }; then
	prss() { "$TOOLS/peakrss" "$IOMON" parse "$@" 2>&1 >/dev/null | sed -n 's/^peakrss: \([0-9]*\) KiB/\1/p'; }
	base=$(cd "$Z" && prss -i big) fz=$(cd "$Z/bz" && prss -i big)
	sbase=$(prss -i - <"$Z/bs.bin") sz=$(prss -i - <"$Z/bs.zst")
	fw=$(( $(cat "$Z"/big.blktrace.* | wc -c) / 1024 )) sw=$(($(stat -c %s "$Z/bs.bin") / 1024))
	# a decoder's own beside its window: its context, compressed reads
	# (ZSTD_IN_BUF) and block buffers, 768 KiB (two files: two decoders)
	check "zstd -19 files: peak RSS ${fz:-?} KiB, at most the windows ($fw KiB) + parse's (${base:-?}) + 2 x 768" \
		test "${fz:-99999}" -le $((fw + ${base:-0} + 1536))
	check "zstd -19 stream: peak RSS ${sz:-?} KiB, the pages its $sw KiB filled of an 8 MiB window + parse's (${sbase:-?}) + 768" \
		test "${sz:-99999}" -le $((sw + ${sbase:-0} + 768))
else
	skip "zstd peak RSS" "under qemu-user, or tests/tools/peakrss did not build"
fi
rm -f "$Z"/bz/* "$Z"/bs.*	# (big.blktrace.*: the arena check below spreads them)
# past 8 MiB (--ultra, --long) a frame is refused by name, saying what to do
head -c 100000 "$Z/s.bin" | zstd -q --ultra -22 --long=27 -c >"$Z/far.zst"
"$IOMON" parse -i - <"$Z/far.zst" >/dev/null 2>"$Z/far.err"
check "zstd --ultra -22 --long=27 (128 MiB window): exit 1" test $? = 1
check "zstd --ultra -22 --long=27: refused, with what to do" \
	grep -q '^parse: (stdin): zstd frame at compressed byte 0 needs a window over 8192 KiB (ZSTD_WINDOW_LOG 23): recompress with zstd --zstd=wlog=23$' "$Z/far.err"

# a machine of many CPUs (cpuspread.py), each CPU's file compressed: its
# decoder takes from one arena what its first frame's window needs (a
# file of one frame: that window; else a -z chunk's at least).  Before,
# eight decoders of 8 MiB each were all there was: a 9th file was refused.
# zchunks DIR: each plain file there as trace -z writes it, a frame for
# every SIZE bytes (its windows a chunk's at most), the plain file kept
zchunks() {
	local f c
	for f in "$1"/p.blktrace.*; do
		split -b "$2" -d "$f" "$1/chunk."
		for c in "$1"/chunk.*; do zstd -q -c "$c"; done >"$1/nullb0.${f##*/p.}.zst"
		rm -f "$1"/chunk.*
	done
}
zmany() {	# NAME N SIZE [TRACE]: N CPUs' files, frames of SIZE bytes, parsed as the plain ones
	rm -rf "$Z/$1"; mkdir -p "$Z/$1"
	python3 "$TOOLS/cpuspread.py" "$2" "${4:-$E/nullb0}" "$Z/$1/p" >/dev/null
	zchunks "$Z/$1" "$3"
	(cd "$Z/$1" && "$IOMON" parse -i p -o p.txt) >/dev/null 2>&1
	(cd "$Z/$1" && "$IOMON" parse -i nullb0 -o z.txt) >/dev/null 2>"$Z/$1.err"
}
zmany z256 256 1M
check "zstd: 256 CPUs' files of one frame each: exit 0, nothing said" test $? = 0 -a ! -s "$Z/z256.err"
sed 's/(p)/(nullb0)/' "$Z/z256/p.txt" >"$Z/z256.exp"
same "zstd: 256 CPUs' files of one frame each: parse prints what the plain files give" "$Z/z256/z.txt" "$Z/z256.exp"
zmany z72 72 8k
check "zstd: 72 CPUs' files of -z's shape (several frames): exit 0, nothing said" test $? = 0 -a ! -s "$Z/z72.err"
sed 's/(p)/(nullb0)/' "$Z/z72/p.txt" >"$Z/z72.exp"
same "zstd: 72 CPUs' files of -z's shape: parse prints what the plain files give" "$Z/z72/z.txt" "$Z/z72.exp"
# the arena holds every CPU's -z file (STREAMS_MAX of them, all busy);
# before, about 160 fit and the rest were refused
zmany z256b 256 8k "$Z/big"
check "zstd: 256 busy CPUs' files of -z's shape: exit 0, nothing said" test $? = 0 -a ! -s "$Z/z256b.err"
rm -f "$Z"/big.blktrace.*
sed 's/(p)/(nullb0)/' "$Z/z256b/p.txt" >"$Z/z256b.exp"
same "zstd: 256 busy CPUs' files of -z's shape: parse prints what the plain files give" "$Z/z256b/z.txt" "$Z/z256b.exp"
check "zstd: ... ($(grep -c '^ *254,0 ' "$Z/z256b/z.txt") event lines, more than 50,000)" test "$(grep -c '^ *254,0 ' "$Z/z256b/z.txt")" -gt 50000
# past the arena: files whose frames declare an 8 MiB window and no size
# (each takes the largest window's room, 8.6 MiB): about 12 fit
rm -rf "$Z/zw"; mkdir -p "$Z/zw"
python3 "$TOOLS/cpuspread.py" 16 "$E/nullb0" "$Z/zw/p" >/dev/null
for f in "$Z"/zw/p.blktrace.*; do zstd -q -1 --zstd=wlog=23 <"$f" >"$Z/zw/nullb0.${f##*/p.}.zst"; done
(cd "$Z/zw" && "$IOMON" parse -i nullb0 -o z.txt) >/dev/null 2>"$Z/zw.err"
check "zstd: 16 files of 8 MiB windows, past the arena: exit 1" test $? = 1
check "zstd: ... the files past it named" grep -q 'nullb0.blktrace.1[0-5].zst: no room for another zstd decoder (ZSTD_ARENA)' "$Z/zw.err"
check "zstd: ... and 10 or more of them read ($(grep -c 'no room' "$Z/zw.err") refused)" test "$(grep -c 'no room' "$Z/zw.err")" -le 6
mkdir -p "$Z/zw/fit"
for i in $(seq 0 15); do grep -q "blktrace.$i.zst: no room" "$Z/zw.err" || cp "$Z/zw/p.blktrace.$i" "$Z/zw/fit/"; done
(cd "$Z/zw/fit" && "$IOMON" parse -i p -o p.txt) >/dev/null 2>&1; sed 's/(p)/(nullb0)/' "$Z/zw/fit/p.txt" >"$Z/zw.exp"
same "zstd: ... what those read print, as their plain files alone" "$Z/zw/z.txt" "$Z/zw.exp"
rm -rf "$Z/z256" "$Z/z72" "$Z/z256b" "$Z/zw"
# a real trace -z of 72 CPUs (tests/fixtures-zstd/cpus72z: relay in the
# VM, 72 outputs for -z's 64 buffers, so most files' first bytes went out
# early as a frame of their own): parse prints what Debian's blkparse
# prints of the files zstd -d gives
ZF=$TOP/tests/fixtures-zstd/cpus72z
(cd "$ZF" && "$IOMON" parse -i nullb0) 2>&1 | sed 's/\.zst added$/ added/' >"$Z/c72z.txt"
gzip -dc "$ZF/nullb0.blkparse.txt.gz" >"$Z/c72z.exp"
same "zstd: a real trace -z of 72 CPUs (fixtures-zstd/cpus72z): Debian blkparse's text of its zstd -d files" "$Z/c72z.txt" "$Z/c72z.exp"
# a file of several frames whose first is small and a later one's window
# past a chunk (two zstd runs concatenated): refused there, by name
mkdir -p "$Z/grow"
{ head -c 1000 "$E/nullb0.blktrace.0" | zstd -q -c; tail -c +1001 "$E/nullb0.blktrace.0" | zstd -q -19 -c; } >"$Z/grow/nullb0.blktrace.0.zst"
(cd "$Z/grow" && "$IOMON" parse -i nullb0) >/dev/null 2>"$Z/grow.err"
check "zstd: a later frame's window past the first one's room: exit 1" test $? = 1
check "zstd: ... named, with its offset" grep -q '^parse: nullb0.blktrace.0.zst: zstd frame at compressed byte [1-9][0-9]* needs a larger window than the first$' "$Z/grow.err"

# the tiny build decodes with a 128 KiB window (ZSTD_WINDOW_LOG=17)
if "$IOMON_TINY" parse -i - <"$Z/probe.zst" 2>&1 >/dev/null | grep -q 'built without it'; then
	skip "zstd tiny" "the tiny build has no zstd"
else
	"$IOMON_TINY" parse -i - <"$Z/s.zst" >/dev/null 2>"$Z/tiny.err"
	check "zstd tiny: a 2 MiB window is past its ZSTD_WINDOW_LOG, named" grep -q 'needs a window over 128 KiB (ZSTD_WINDOW_LOG 17)' "$Z/tiny.err"
	zstd -q -c --zstd=wlog=17 "$Z/s.bin" | "$IOMON_TINY" parse -i - >"$Z/tiny.out" 2>&1
	check "zstd tiny: a 128 KiB window decodes ($(events "$Z/tiny.out") events)" test "$(events "$Z/tiny.out")" = "$(events "$Z/s.ref")"
fi

# trace -l -z: the server compresses what its clients send.  A crafted
# client (two devices, two CPUs, a record cut between two messages, one
# cut and left) against a plain server and a -z one: zstd -d gives the
# plain server's files byte for byte, and parse reads the .zst files
if need "zstd: trace -l -z" python3; then
	NC=$TOOLS/netclient.py E=$FIX/ext4; PZ=$((20000 + $$ % 20000))
	python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); open(sys.argv[2], "wb").write(d[:1001]); open(sys.argv[3], "wb").write(d[1001:])' \
		"$E/nullb0.blktrace.1" "$Z/p1.bin" "$Z/p2.bin"
	for m in plain z; do
		rm -rf "$Z/srv-$m"; mkdir -p "$Z/srv-$m"; port=$((PZ + 1)); opt=; [ $m = z ] && port=$((PZ + 2)) opt=-z
		"$IOMON" trace -l $opt -p $port -D "$Z/srv-$m" >"$Z/srv-$m.out" 2>"$Z/srv-$m.err" & sp=$!
		poll 10 sh -c "ss -ltn | grep -q ':$port '"
		python3 "$NC" $port open:sda:0:2 open:sda:1:2 open:sdb:0:2 open:sdb:1:2 data:sda:0:2:$E/nullb0.blktrace.0 \
			data:sda:1:2:$Z/p1.bin data:sda:1:2:$Z/p2.bin data:sdb:1:2:$E/nullb0.blktrace.0 \
			close:sda:0:2 close:sda:0:2 close:sdb:0:2 close:sdb:0:2 >/dev/null
		NC_HOST=127.0.0.2 python3 "$NC" $port open:cut:0:1 data:cut:0:1:$Z/p1.bin >/dev/null
		poll 10 sh -c "[ \$(grep -c 'end of run' '$Z/srv-$m.out') = 3 ]"
		kill -INT $sp; wait $sp
		check "zstd: trace -l $opt: exit 0 on SIGINT" test $? = 0
	done
	ok=1; n=0
	for f in "$Z"/srv-plain/*/*.blktrace.*; do
		d=$(basename "$(dirname "$f")"); g=$(ls -d "$Z/srv-z/${d%%-20*}"-*)/$(basename "$f"); n=$((n + 1))
		zstd -q -d -c "$g.zst" 2>/dev/null | cmp -s - "$f" || { ok=0; echo "differs: $g.zst" >&2; }
	done
	check "zstd: trace -l -z: zstd -d gives the plain server's $n files, byte for byte" test $ok = 1 -a $n = 5
	check "zstd: trace -l -z: the record cut and left, said" \
		grep -qE '^server: 127\.0\.0\.2: [0-9]+ bytes of a record cut short dropped$' "$Z/srv-z.err"
	# (but for the "Input file" lines: an empty CPU's .zst holds an empty
	# frame, which parse names where it leaves out an empty plain file)
	( cd "$Z"/srv-z/127.0.0.1-* && "$IOMON" parse -i sda -i sdb ) 2>&1 | sed 's/\.zst:/:/; /^Input file/d' >"$Z/srv-z.txt"
	( cd "$Z"/srv-plain/127.0.0.1-* && "$IOMON" parse -i sda -i sdb ) 2>&1 | sed '/^Input file/d' >"$Z/srv-plain.txt"
	same "zstd: trace -l -z: parse reads its .zst files as the plain ones" "$Z/srv-z.txt" "$Z/srv-plain.txt"
	# more outputs than buffers (ZSTD_OUTS, 64): a client of 72 CPUs, each
	# CPU's records in two parts, the second sent after every CPU's first;
	# past 64 the fullest buffer's bytes go out early as a frame of their
	# own.  Before, the 65th output was refused and the client dropped.
	mkdir -p "$Z/c72/srv"
	python3 "$TOOLS/cpuspread.py" 72 "$FIX/mq-randrw/nullb0" "$Z/c72/p" >/dev/null
	python3 - "$Z"/c72/p.blktrace.* <<'PY'
import struct, sys
for f in sys.argv[1:]:	# two parts, cut between two records
    d = open(f, 'rb').read(); o = cut = 0
    while o < len(d):
        if o <= len(d) // 2: cut = o
        o += 48 + struct.unpack_from('<H', d, o + 46)[0]
    open(f + '.a', 'wb').write(d[:cut]); open(f + '.b', 'wb').write(d[cut:])
PY
	port=$((PZ + 3)) st=
	for c in $(seq 0 71); do st="$st open:sda:$c:72"; done
	for h in a b; do for c in $(seq 0 71); do st="$st data:sda:$c:72:$Z/c72/p.blktrace.$c.$h"; done; done
	for c in $(seq 0 71); do st="$st close:sda:0:72"; done
	"$IOMON" trace -l -z -p $port -D "$Z/c72/srv" >"$Z/c72.out" 2>"$Z/c72.err" & sp=$!
	poll 10 sh -c "ss -ltn | grep -q ':$port '"
	python3 "$NC" $port $st >/dev/null
	poll 10 grep -q 'end of run' "$Z/c72.out"
	kill -INT $sp; wait $sp
	check "zstd: trace -l -z, 72 CPUs' outputs: exit 0" test $? = 0
	check "zstd: ... nothing said but frames stored to keep up" sh -c "! grep -v 'frames stored uncompressed' '$Z/c72.err'"
	ok=0 multi=0
	for c in $(seq 0 71); do
		g=$(echo "$Z"/c72/srv/*/sda.blktrace.$c.zst)
		zstd -q -d -c "$g" 2>/dev/null | cmp -s - "$Z/c72/p.blktrace.$c" && ok=$((ok + 1))
		[ "$(zstd -lv "$g" 2>/dev/null | sed -n 's/^# Zstandard Frames: //p')" -gt 1 ] 2>/dev/null && multi=$((multi + 1))
	done
	check "zstd: ... zstd -d gives each of the 72 CPUs' records, byte for byte ($ok)" test $ok = 72
	check "zstd: ... buffers changed hands: $multi files of more than one frame" test $multi -gt 0
	rm -f "$Z"/c72/p.blktrace.*.[ab]
	( cd "$Z"/c72/srv/* && "$IOMON" parse -i sda -o "$Z/c72/z.txt" ) >/dev/null 2>&1
	( cd "$Z"/c72 && "$IOMON" parse -i p -o p.txt ) >/dev/null 2>&1
	sed 's/(p)/(sda)/' "$Z/c72/p.txt" >"$Z/c72.exp"
	same "zstd: ... parse reads them as the plain files" "$Z/c72/z.txt" "$Z/c72.exp"
	rm -rf "$Z/c72"
fi
testcmd "zstd: a level past ZSTD_LEVEL_MAX" "trace -z20 -d /dev/null 2>&1; echo rc=\$?" "trace: -z20: a level from 0 (stored) to 19\nrc=1\n"
# notesaside FILE...: each file's records but its notes, times left out
# (each capture's tracefs instance stamps its own copy of an event), as a
# count and a checksum a line
notesaside() {
	python3 - "$@" <<'PY'
import hashlib, struct, sys
for f in sys.argv[1:]:
    d = open(f, 'rb').read(); o = k = 0; keep = bytearray()
    while o + 48 <= len(d):
        n = 48 + struct.unpack_from('<H', d, o + 46)[0]
        if not struct.unpack_from('<I', d, o + 28)[0] & 0x04000000:
            keep += d[o:o + 8] + d[o + 16:o + n]; k += 1
        o += n
    print(k, hashlib.md5(keep).hexdigest())
PY
}
# trace -z: two captures of one loop device at once (tracefs instances are
# private), one compressed: the same events, and zstd -d gives the files
if live_ok "zstd: trace -z live" zstd; then
	LI=$OUT/loop.img; rm -f "$LI"; truncate -s 64M "$LI"
	LOOP=$(losetup -f --show "$LI"); LN=${LOOP#/dev/}
	rm -rf "$Z/cz" "$Z/cp"; mkdir -p "$Z/cz" "$Z/cp"
	rm -f "$Z/cz.err" "$Z/cp.err"
	"$IOMON" trace -z -d "$LOOP" -D "$Z/cz" >"$Z/cz.sum" 2>"$Z/cz.err" & pz=$!
	"$IOMON" trace -d "$LOOP" -D "$Z/cp" >"$Z/cp.sum" 2>"$Z/cp.err" & pp=$!
	rm -rf "$Z/c0"; mkdir -p "$Z/c0"
	"$IOMON" trace -z0 -d "$LOOP" -D "$Z/c0" >"$Z/c0.sum" 2>"$Z/c0.err" & p0=$!
	capturing "$Z/cz.err" $pz; capturing "$Z/cp.err" $pp; capturing "$Z/c0.err" $p0
	dd if=/dev/urandom of="$LOOP" bs=4k count=500 oflag=direct 2>/dev/null
	dd if="$LOOP" of=/dev/null bs=64k count=20 iflag=direct 2>/dev/null
	kill -INT $pz $pp $p0; wait $pz; rz=$?; wait $pp; wait $p0
	check "trace -z: exit 0" test $rz = 0
	check "trace -z: its tracefs instance removed (the compressing child holds none of its files)" \
		sh -c "! grep -q 'could not remove' '$Z/cz.err'"
	check "trace -z: files NAME.blktrace.CPU.zst, mode 0600" test "$(stat -c %a "$Z/cz/$LN.blktrace.0.zst")" = 600
	ok=1
	for f in "$Z"/cz/*.zst; do zstd -q -t "$f" || ok=0; done
	check "trace -z: every file is valid zstd (zstd -t), a CPU without events too" test $ok = 1
	for f in "$Z"/cz/*.zst; do b=$(basename "$f" .zst); zstd -q -d -c "$f" >"$Z/cz/$b.plain"; done
	# (each capture reads its CPUs' pages in turn, and notes a process
	# again where an earlier event of it comes after its note: how many
	# notes a capture writes is its own, so the captures are compared
	# without them, and each summary with its own files; CI once saw one
	# note more in the compressed capture)
	sumof() {	# FILE...: the summary's CPU lines for files of these sizes
		local f s c=0
		for f; do s=$(stat -c %s "$f")
			printf '  CPU%3u: %20u events, %8u KiB data\n' $c $((s / 48)) $(((s + 1023) >> 10)); c=$((c + 1)); done
	}
	sumof $(ls "$Z"/cz/*.plain | sort -V) >"$Z/cz.exp"
	check "trace -z: the summary counts what was traced (uncompressed: zstd -d's bytes)" \
		sh -c "grep '^  CPU' '$Z/cz.sum' | cmp -s - '$Z/cz.exp'"
	check "trace -z: zstd -d gives the plain capture's records (notes aside)" \
		test "$(notesaside "$Z"/cz/*.plain)" = "$(notesaside "$Z"/cp/*.blktrace.*)"
	notime() { "$IOMON" parse -i "$LN" | sed '/^Input file/d' | awk '{ $4 = ""; print }'; }
	(cd "$Z/cz" && notime) >"$Z/cz.txt"; (cd "$Z/cp" && notime) >"$Z/cp.txt"
	check "trace -z: parse shows the plain capture's events ($(grep -c ' C ' "$Z/cz.txt") completions)" \
		sh -c "grep -q ' C ' '$Z/cz.txt' && cmp -s '$Z/cz.txt' '$Z/cp.txt'"
	# no I/O at all: a CPU without even a note still gets a valid (empty) frame
	rm -rf "$Z/ce"; mkdir -p "$Z/ce"
	"$IOMON" trace -z -w 1 -d "$LOOP" -D "$Z/ce" >/dev/null 2>&1
	ok=1; n=0; e=0
	for f in "$Z"/ce/*.zst; do
		n=$((n + 1)); zstd -q -t "$f" || ok=0
		[ "$(zstd -q -d -c "$f" | wc -c)" = 0 ] && e=$((e + 1))
	done
	check "trace -z: without I/O, every CPU's file is valid zstd, the empty ones too ($n files, $e empty)" \
		test $ok = 1 -a $n = "$(nproc)" -a $e -ge 1
	# -z0: frames stored, not compressed (zstd's raw blocks): still zstd
	for f in "$Z"/c0/*.zst; do b=$(basename "$f" .zst); zstd -q -d -c "$f" >"$Z/c0/$b.plain" || echo bad >>"$Z/c0.bad"; done
	check "trace -z0: valid zstd, restoring the plain capture's records (notes aside)" \
		test "$(cat "$Z/c0.bad" 2>/dev/null)$(notesaside "$Z"/c0/*.plain)" = "$(notesaside "$Z"/cp/*.blktrace.*)"
	(cd "$Z/c0" && notime) >"$Z/c0.txt"
	check "trace -z0: parse shows the plain capture's events" cmp -s "$Z/c0.txt" "$Z/cp.txt"
	# a compressor that falls behind stores frames instead (and says how
	# many) rather than stall the capture: its child stopped for a while
	rm -rf "$Z/cb"; mkdir -p "$Z/cb"; rm -f "$Z/cb.err"
	"$IOMON" trace -z19 -d "$LOOP" -D "$Z/cb" >/dev/null 2>"$Z/cb.err" & pb=$!
	capturing "$Z/cb.err" $pb
	kid=$(pgrep -P $pb | head -1)
	[ -n "$kid" ] && kill -STOP "$kid"
	dd if=/dev/urandom of="$LOOP" bs=4k count=6000 oflag=direct 2>/dev/null
	sleep 0.5; [ -n "$kid" ] && kill -CONT "$kid"	# the stall under test, not a wait
	kill -INT $pb; wait $pb
	check "trace -z: behind the capture, frames are stored and counted on stderr" \
		grep -qE 'z: [1-9][0-9]* of [0-9]+ frames stored uncompressed: compressing fell behind' "$Z/cb.err"
	ok=1; for f in "$Z"/cb/*.zst; do zstd -q -t "$f" || ok=0; done
	check "trace -z: stored and compressed frames mixed are valid zstd" test $ok = 1
	check "trace -z: parse reads the mixed files" sh -c "cd '$Z/cb' && '$IOMON' parse -i '$LN' | grep -q ' C '"
	# -o - -z: one compressed stream
	rm -f "$Z/st.err"
	"$IOMON" trace -z -o - -d "$LOOP" >"$Z/st.zst" 2>"$Z/st.err" & ps=$!
	capturing "$Z/st.err" $ps
	dd if=/dev/urandom of="$LOOP" bs=4k count=100 oflag=direct 2>/dev/null
	kill -INT $ps; wait $ps
	check "trace -z -o -: one valid zstd stream" zstd -q -t "$Z/st.zst"
	"$IOMON" parse -i - <"$Z/st.zst" >"$Z/st.txt" 2>&1
	check "trace -z -o -: parse reads it ($(grep -cE ' Q +WS? [0-9]+ \+ 8 ' "$Z/st.txt") queued writes)" \
		test "$(grep -cE ' Q +WS? [0-9]+ \+ 8 ' "$Z/st.txt")" -ge 100
	# the compressing child creates the files by the capture's rules: a
	# symlink at the path is refused, and the capture fails, saying so
	rm -rf "$Z/cs"; mkdir -p "$Z/cs"; ln -s "$Z/elsewhere" "$Z/cs/$LN.blktrace.0.zst"
	"$IOMON" trace -z -w 1 -d "$LOOP" -D "$Z/cs" >/dev/null 2>"$Z/cs.err"
	check "trace -z: a symlink where a file goes: exit 1" test $? = 1
	check "trace -z: a symlink where a file goes: named, never followed" \
		sh -c "grep -q 'blktrace.0.zst: a symbolic link' '$Z/cs.err' && [ ! -e '$Z/elsewhere' ]"
	# trace -h -z: the client sends zstd frames of whole records; iomon's
	# server stores them as NAME.blktrace.CPU.zst and counts their content
	# in its summary.  Beside it a plain local capture of the same load:
	# zstd -d of the server's files parses as the local files do
	PN=$((20000 + $$ % 20000 + 5)); rm -rf "$Z/nz" "$Z/nl"; mkdir -p "$Z/nz" "$Z/nl"
	"$IOMON" trace -l -p $PN -D "$Z/nz" >"$Z/nz.out" 2>"$Z/nz.err" & sp=$!
	poll 10 sh -c "ss -ltn | grep -q ':$PN '"
	rm -f "$Z/nc.err" "$Z/nl.err"
	"$IOMON" trace -z -d "$LOOP" -h 127.0.0.1 -p $PN >"$Z/nc.out" 2>"$Z/nc.err" & c1=$!
	"$IOMON" trace -d "$LOOP" -D "$Z/nl" >"$Z/nl.out" 2>"$Z/nl.err" & c2=$!
	capturing "$Z/nc.err" $c1; capturing "$Z/nl.err" $c2
	dd if=/dev/zero of="$LOOP" bs=4k count=300 oflag=direct 2>/dev/null
	kill -INT $c1 $c2; wait $c1; r1=$?; wait $c2
	poll 10 grep -q "end of run" "$Z/nz.out"; kill -INT $sp; wait $sp
	check "trace -h -z: exit 0" test $r1 = 0
	D=$(ls -d "$Z"/nz/127.0.0.1-* | head -1)
	check "trace -h -z: the server's files are NAME.blktrace.CPU.zst, valid zstd" \
		sh -c "ls '$D' | grep -q '^$LN\.blktrace\.0\.zst$' && for f in '$D'/*.zst; do zstd -q -t \"\$f\" || exit 1; done"
	sed -n '/^===/,$p' "$Z/nc.out" >"$Z/nc.sum"; sed -n '/^===/,$p' "$Z/nz.out" >"$Z/nz.sum"
	same "trace -h -z: the server's summary counts what the frames hold, as the client's" "$Z/nz.sum" "$Z/nc.sum"
	( cd "$D" && "$IOMON" parse -i $LN ) | sed '/^Input file/d' | awk '{ $4 = ""; print }' >"$Z/nz.txt"
	( cd "$Z/nl" && "$IOMON" parse -i $LN ) | sed '/^Input file/d' | awk '{ $4 = ""; print }' >"$Z/nl.txt"
	check "trace -h -z: the server's files parse as the local capture's ($(grep -c ' C ' "$Z/nz.txt") completions)" \
		sh -c "grep -q ' C ' '$Z/nz.txt' && cmp -s '$Z/nz.txt' '$Z/nl.txt'"
	check "trace -h -z: the frames are smaller than the records ($(cat "$D"/*.zst | wc -c) bytes)" \
		test "$(cat "$D"/*.zst | wc -c)" -lt "$(cat "$Z"/nl/$LN.blktrace.* | wc -c)"
	# parse -l takes no frames: that connection is dropped, saying why
	"$IOMON" parse -l -p $((PN + 1)) >/dev/null 2>"$Z/pz.err" & sp=$!
	poll 10 sh -c "ss -ltn | grep -q ':$((PN + 1)) '"
	"$IOMON" trace -z -d "$LOOP" -h 127.0.0.1 -p $((PN + 1)) -w 2 >/dev/null 2>"$Z/pc.err" &
	c1=$!; capturing "$Z/pc.err" $c1
	dd if=/dev/zero of="$LOOP" bs=4k count=50 oflag=direct 2>/dev/null; wait $c1
	poll 5 grep -q "zstd frames" "$Z/pz.err"; kill -INT $sp; wait $sp
	check "parse -l and a -z client: its connection dropped, saying why" \
		grep -q "^server: 127.0.0.1: zstd frames (its -z), which only trace -l without -z takes; connection dropped$" "$Z/pz.err"
	# more outputs than -z's 64 buffers, live through tracefs: 40 loop
	# devices written from every CPU (80 outputs on two CPUs), a plain
	# capture beside it: every file decompresses to the plain one's bytes
	# count, and each device parses as its plain files do
	if many_loops 40 "$Z/many"; then
		devs=$(sed 's/^/-d /' "$Z/many.devs")
		rm -rf "$Z/mz" "$Z/mp" "$Z/md"; mkdir -p "$Z/mz" "$Z/mp" "$Z/md"; rm -f "$Z/mz.err" "$Z/mp.err"
		"$IOMON" trace -z $devs -D "$Z/mz" >"$Z/mz.sum" 2>"$Z/mz.err" & pz=$!
		"$IOMON" trace $devs -D "$Z/mp" >"$Z/mp.sum" 2>"$Z/mp.err" & pp=$!
		capturing "$Z/mz.err" $pz; capturing "$Z/mp.err" $pp
		for c in $(seq 0 $(($(nproc) - 1))); do
			for d in $(cat "$Z/many.devs"); do taskset -c $c dd if=/dev/zero of="$d" bs=4k count=2 oflag=direct 2>/dev/null; done
		done
		kill -INT $pz $pp; wait $pz; rz=$?; wait $pp
		n=$(cd "$Z/mz" && for f in *.zst; do zstd -q -d -c "$f" >"$Z/md/${f%.zst}" && [ -s "$Z/md/${f%.zst}" ] && echo "$f"; done | wc -l)
		check "trace -z, 40 devices on $(nproc) CPUs, $n outputs with records (64 buffers): exit 0, a summary for each" \
			sh -c "test $rz = 0 && test $n -gt 64 && test \$(grep -c '^  Total:' '$Z/mz.sum') = 40"
		check "trace -z, 40 devices: zstd -d gives the plain capture's file sizes" \
			test "$(cd "$Z/md" && stat -c '%n %s' * | tr '\n' ' ')" = "$(cd "$Z/mp" && stat -c '%n %s' * | tr '\n' ' ')"
		# (each device's records but notes and times, CPU by CPU, as above:
		# each capture stamps its own copy of an event, so the text's order
		# across CPUs may differ by a pair; its writes in its parsed text)
		ok=0 bad=
		for d in $(sed 's,^/dev/,,' "$Z/many.devs"); do
			if [ "$(notesaside "$Z"/md/"$d".blktrace.*)" = "$(notesaside "$Z"/mp/"$d".blktrace.*)" ] &&
			   (cd "$Z/mz" && "$IOMON" parse -i "$d" 2>&1) | grep -qE ' Q +WS? 0 \+ 8 '; then ok=$((ok + 1)); else bad="$bad $d"; fi
		done
		check "trace -z, 40 devices: each device's .zst files hold its plain ones' records, its writes there ($ok of 40${bad:+; not:$bad})" test $ok = 40
		rm -rf "$Z/mz" "$Z/mp" "$Z/md"
	else
		skip "trace -z, 40 devices" "only $(wc -l <"$Z/many.devs") loop devices could be made"
	fi
	many_loops_gone "$Z/many"
	losetup -d "$LOOP"; rm -f "$LI"
fi
