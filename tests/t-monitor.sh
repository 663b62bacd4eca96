# needs: python3
# monitor / blkiomon: the same statistics as Debian's blkiomon 0.3 on a real
# stream, its repairs pinned with values computed independently
# (tests/tools/monref.py), the binary records, the message queue, -d, -D.
S=$FIX/stream/nullb0.stream
M=$OUT/mon; rm -rf "$M"; mkdir -p "$M"
# One wall-clock interval: all data at once, EOF once the interval is
# printed (paced.py waits for it: text to stdout, which blkiomon writes
# line by line).  The interval ends a whole -I after the start; a machine
# stalled that long splits the stream (the block then lacks requests:
# blkiomon drops the rest at EOF, iomon prints a second block), so longer
# intervals follow.
# Usage: once TXT CMD...; CMD gets -I N -h - >TXT; 0 when TXT holds one
# device block with every request, CMD's exit status in once_rc.
once() {
	local txt=$1 iv; shift
	for iv in 1 4 15; do
		PACED_WAIT=$((iv + 30)) python3 "$TOOLS/paced.py" "$S" "$txt" 1 0 | "$@" -I "$iv" -h - >"$txt"; once_rc=$?
		[ "$(grep -c '^device: ' "$txt")" = 1 ] && grep -q '^sizes read (bytes): num 5290,' "$txt" && return 0
		echo "note: $1: the stream did not fit in a ${iv} s interval; trying a longer one" >&2
	done
	return 1
}
# blkiomon's variance wraps sum*sum at 64 bits: mask var where it does (and drop the time lines)
mask() { awk '{ if (match($0, /sum [0-9]+, squ/)) { s = substr($0, RSTART + 4, RLENGTH - 9) + 0;
	if (s * s >= 18446744073709551616) sub(/var [-0-9.e+]+$/, "var (wraps in blkiomon)") } }
	!/^time: / { print }' "$1"; }
once "$M/h.txt" "$IOMON" monitor -b "$M/b.bin" -D "$M/d.txt"
check "monitor: exit 0" test "$once_rc" = 0
check "monitor: one interval, one device" test "$(grep -c '^device: 254,0$' "$M/h.txt")" = 1
check "monitor: 424-byte binary record" test "$(stat -c %s "$M/b.bin")" = 424
python3 "$TOOLS/monref.py" "$S" >"$M/ref.txt"
while read -r name dir _ n _ sum _ var; do
	label="$name $dir"; [ "$name" = sizes ] && label="sizes $dir (bytes)"
	[ "$name" = d2c ] && label="d2c $dir (usec)"; [ "$name" = throughput ] && label="throughput $dir (bytes/msec)"
	check "monitor: $label num, sum and exact variance ($var)" \
		grep -q "^$label: num $n, .* sum $sum, .* var $var\$" "$M/h.txt"
done <"$M/ref.txt"
check "monitor -D: blkiomon's counters" grep -qE '^0 leftover, 10666 match, 0 mismatch, 0 driverdata, [0-9]+ overall$' "$M/d.txt"
if command -v blkiomon >/dev/null; then
	once "$M/bh.txt" blkiomon -b "$M/bb.bin" 2>/dev/null
	mask "$M/h.txt" >"$M/h.m"; mask "$M/bh.txt" >"$M/bh.m"
	same "monitor: text as blkiomon's (time and wrapped variances aside)" "$M/h.m" "$M/bh.m"
	tail -c +9 "$M/b.bin" >"$M/b.tail"; tail -c +9 "$M/bb.bin" >"$M/bb.tail"
	same "monitor: binary record as blkiomon's (time aside)" "$M/b.tail" "$M/bb.tail"
	check "monitor: blkiomon really wraps here (the repair is needed)" sh -c "! grep -q 'var 1306431871295.0' '$M/bh.txt'"
	# repairs: a replayed file gets its last interval; blkiomon prints nothing
	blkiomon -I 1 -h "$M/bh2.txt" <"$S" 2>/dev/null
	"$IOMON" monitor -I 1 -h "$M/h2.txt" <"$S"
	check "monitor: a replay prints its (last, partial) interval" grep -q '^device: 254,0$' "$M/h2.txt"
	check "monitor: blkiomon prints nothing for the same replay" test ! -s "$M/bh2.txt"
else
	skip "monitor against blkiomon" "Debian's blkiomon is not installed"
fi
# A bio-based dm device's Cs never find a D and wait in the pool, as
# blkiomon keeps them: 5,000 of them and a slow write's D and C on 8,16
# are 5,002 records for MON_PENDING's 4096.  A full pool ages Cs before
# Ds, so the 905 that age out are Cs (said on stderr, not lost silently)
# and the slow write's D waits for its C, 5.001 s later, which blkiomon
# counts too.  (Aging the oldest first lost it: no 8,16 block at all.)
python3 "$TOOLS/craft.py" dmflood 5000 >"$M/fl.bin"
"$IOMON" monitor -I 1 -h "$M/fl.txt" <"$M/fl.bin" 2>"$M/fl.err"
check "monitor, 5,000 Cs of a dm device without a D: the 905 aged out of the full pool said on stderr" \
	grep -qx 'monitor: pending pool full: 905 unmatched records aged out (MON_PENDING 4096)' "$M/fl.err"
check "monitor, 5,000 Cs of a dm device without a D: the slow write's D outlives them (8,16, its 5.001 s counted)" \
	awk '/^device: / { d = $2 } d == "8,16" && /^d2c write \(usec\): num 1, min 5001000,/ { ok = 1 } END { exit !ok }' "$M/fl.txt"
if need "monitor, a dm device's flood of Cs, against blkiomon" blkiomon; then
	python3 "$TOOLS/paced.py" "$M/fl.bin" "$M/flb.txt" 1 0 -- blkiomon -I 2 -h - >"$M/flb.txt" 2>/dev/null
	mask "$M/fl.txt" >"$M/fl.m"; mask "$M/flb.txt" >"$M/flb.m"
	same "monitor, a dm device's flood of Cs: text as blkiomon's (time aside)" "$M/fl.m" "$M/flb.m"
fi
# A paced stream (issue 27): blkiomon's interval thread wakes at start +
# k*I, start read to the nanosecond, and its reader counts each record
# when it arrives.  The stream's two halves arrive 0.6 s and 1.4 s after
# the monitor's start (the feeder starts it, then its clock), 0.4 s either
# side of the first interval's end at 1 s: each half is one interval's.
# (Ends on whole seconds, or a read's records counted before the clock is
# looked at, put a boundary elsewhere or split a half.)  The feeder ends
# the stream once two intervals are printed.  Expected: each half's counts
# computed from the half alone (monref.py; a request whose D is in the
# first half and C in the second counts in the second), and blkiomon's
# text and records on the same paced stream.
paced() {	# PREFIX MONITOR...: -I 1, text in PREFIX.txt, records in PREFIX.bin
	local o=$1; shift
	PACED_SPLIT=$o.half python3 "$TOOLS/paced.py" "$S" "$o.txt" 2 0.6 1.4 -- "$@" -I 1 -h - -b "$o.bin" >"$o.txt"
}
counts() {	# TEXT: "N read R write W" for interval N
	awk '/^device: / { n++ } /^sizes (read|write) / { c[n, $2] = $5 }
		END { for (i = 1; i <= n; i++) printf "%d read %s write %s\n", i, c[i, "read"], c[i, "write"] }' "$1" | tr -d ,
}
# Started half-way through a wall-clock second, so that ends on whole
# seconds (0.5 s and 1.5 s after the start) would put both halves in one
# interval every time.
python3 -c 'import time; time.sleep((0.5 - time.time()) % 1)'
if command -v blkiomon >/dev/null; then
	paced "$M/pb" blkiomon 2>"$M/pb.err" & pb=$!
fi
paced "$M/pi" "$IOMON" monitor
python3 "$TOOLS/monref.py" "$M/pi.half.0" >"$M/pi.ref0"
python3 "$TOOLS/monref.py" "$S" >"$M/pi.ref"
python3 - "$M/pi.ref0" "$M/pi.ref" >"$M/pi.want" <<'PY'
import sys
def nums(f):
    return {l.split()[1]: int(l.split()[3]) for l in open(f) if l.startswith("sizes ")}
a, t = nums(sys.argv[1]), nums(sys.argv[2])
print("1 read %d write %d" % (a["read"], a["write"]))
print("2 read %d write %d" % (t["read"] - a["read"], t["write"] - a["write"]))
PY
counts "$M/pi.txt" >"$M/pi.got"
same "monitor, paced stream: each half counted in its own interval ($(echo $(cat "$M/pi.want")))" "$M/pi.got" "$M/pi.want"
check "monitor, paced stream: two binary records" test "$(stat -c %s "$M/pi.bin")" = 848
if need "monitor, paced stream, against blkiomon" blkiomon; then
	wait $pb
	counts "$M/pb.txt" >"$M/pb.got"
	same "monitor, paced stream: per-interval read and write counts as blkiomon's" "$M/pi.got" "$M/pb.got"
	mask "$M/pi.txt" >"$M/pi.m"; mask "$M/pb.txt" >"$M/pb.m"
	same "monitor, paced stream: text as blkiomon's (time and wrapped variances aside)" "$M/pi.m" "$M/pb.m"
	notime() { python3 -c 'import sys; d = open(sys.argv[1], "rb").read()
sys.stdout.buffer.write(b"".join(d[i + 8:i + 424] for i in range(0, len(d), 424)))' "$1"; }
	notime "$M/pi.bin" >"$M/pi.bt"; notime "$M/pb.bin" >"$M/pb.bt"
	same "monitor, paced stream: binary records as blkiomon's (time aside)" "$M/pi.bt" "$M/pb.bt"
fi
# 0 us D-to-C (null_blk, NVMe): blkiomon divides by zero
python3 - "$M/zero.stream" <<'PY'
import struct, sys
def rec(seq, t, sec, act):
    return struct.pack("<IIQQIIIIIHH", 0x65617407, seq, t, sec, 4096, act, 1, 254 << 20, 0, 0, 0)
ISSUE, COMPLETE, WRITE, FS = 1 << 22, 1 << 23, 1 << 17, 1 << 24
d = b"".join(rec(2 * i + 1, 1000 + 10000 * i, 8 * i, ISSUE | WRITE | FS | 7) +
             rec(2 * i + 2, 1500 + 10000 * i, 8 * i, COMPLETE | WRITE | FS | 8) for i in range(10))
open(sys.argv[1], "wb").write(d)
PY
"$IOMON" monitor -I 1 -h "$M/z.txt" <"$M/zero.stream"
check "monitor: 0 us device time does not crash" test $? = 0
check "monitor: 0 us counts as 1 us for throughput (4096 B -> 4096000 B/ms)" \
	grep -q '^throughput write (bytes/msec): num 10, min 4096000, max 4096000, sum 40960000' "$M/z.txt"
check "monitor: d2c itself stays 0" grep -q '^d2c write (usec): num 10, min 0, max 0, sum 0' "$M/z.txt"
if command -v blkiomon >/dev/null; then
	rc=$(bash -c 'blkiomon -I 1 -h /dev/null <"$1" 2>/dev/null; echo $?' _ "$M/zero.stream" 2>/dev/null)
	check "monitor: blkiomon dies on the same input (SIGFPE, exit $rc)" test "$rc" -ge 128
fi
# A sum of squares past 2^63 (one request of 4 GiB - 512 bytes): printed
# as the unsigned number it is; blkiomon's %Ld prints it negative
# (blkiomon.8, DIFFERENCES)
python3 - "$M/big.stream" <<'PY'
import struct, sys
def rec(seq, t, act):
    return struct.pack("<IIQQIIIIIHH", 0x65617407, seq, t, 0, 0xfffffe00, act, 1, 254 << 20, 0, 0, 0)
ISSUE, COMPLETE, WRITE, FS = 1 << 22, 1 << 23, 1 << 17, 1 << 24
open(sys.argv[1], "wb").write(rec(1, 1000, ISSUE | WRITE | FS | 7) + rec(2, 1001000, COMPLETE | WRITE | FS | 8))
PY
sq=$(python3 -c 'print(0xfffffe00 ** 2)')
PACED_WAIT=30 python3 "$TOOLS/paced.py" "$M/big.stream" "$M/big.txt" 1 0 | "$IOMON" monitor -I 1 -h - >"$M/big.txt"
check "monitor: a sum of squares past 2^63 printed unsigned ($sq)" grep -q "^sizes write (bytes): num 1, .* squ $sq," "$M/big.txt"
if command -v blkiomon >/dev/null; then
	PACED_WAIT=30 python3 "$TOOLS/paced.py" "$M/big.stream" "$M/bigb.txt" 1 0 | blkiomon -I 1 -h - >"$M/bigb.txt" 2>/dev/null
	check "monitor: blkiomon prints it negative ($((sq - 18446744073709551616)))" \
		grep -q "^sizes write (bytes): num 1, .* squ $(python3 -c "print($sq - 2**64)")," "$M/bigb.txt"
fi
# the System V message queue, read back by a small reader
if cc -O2 -o "$OUT/msgread" "$TOOLS/msgread.c" 2>/dev/null; then
	touch "$M/qkey"
	rm -f "$M/q.made"; "$OUT/msgread" "$M/qkey" 7 42 "$M/q.bin" >"$M/q.made" & r=$!
	wait_for 10 "msgread to make its queue" grep -qs 'queue made' "$M/q.made"
	"$IOMON" monitor -I 3600 -Q "$M/qkey" -q 7 -m 42 -b "$M/qb.bin" <"$S"	# one message
	wait $r
	check "monitor -Q: reader got a message" test -s "$M/q.bin"
	same "monitor -Q: the message is the binary record" "$M/q.bin" "$M/qb.bin"
fi
# trace files and the trace clock: deterministic intervals
( cd "$FIX/mq-randrw" && "$IOMON" monitor -I 1 -i nullb0 -h - ) >"$M/f1.txt"
( cd "$FIX/mq-randrw" && "$IOMON" monitor -I 1 -i nullb0 -h - ) >"$M/f2.txt"
same "monitor -i: the same text twice (trace clock)" "$M/f1.txt" "$M/f2.txt"
check "monitor -i: matched requests reported" grep -q '^sizes read (bytes): num [1-9]' "$M/f1.txt"
# -i repeated (issue 27): every input is used, merged by time as one
# trace, as blkparse merges its -i's (blkiomon itself has no -i: its
# options are b:d:D:h:I:Q:q:m:V).  Before, the last -i alone was read.
# Expected: each device's block as its input alone gives it.
blk() { awk -v d="$2" '/^time: |^$/ { next } /^device: / { on = ($2 == d) } on' "$1"; }	# TEXT DEV
for n in nullb0 nullb1; do
	( cd "$FIX/two-devs" && "$IOMON" monitor -I 1000000 -i $n -h - ) >"$M/i-$n.txt"
done
( cd "$FIX/two-devs" && "$IOMON" monitor -I 1000000 -i nullb0 -i nullb1.blktrace.0 -h - ) >"$M/i-both.txt"
check "monitor -i A -i B: a block for each input's device" test "$(grep -c '^device: ' "$M/i-both.txt")" = 2
blk "$M/i-nullb0.txt" 254,0 >"$M/i-0.exp"; blk "$M/i-both.txt" 254,0 >"$M/i-0.got"
same "monitor -i A -i B: A's device as -i A alone gives it" "$M/i-0.got" "$M/i-0.exp"
blk "$M/i-nullb1.txt" 254,1 >"$M/i-1.exp"; blk "$M/i-both.txt" 254,1 >"$M/i-1.got"
same "monitor -i A -i B: B's device as -i B alone gives it" "$M/i-1.got" "$M/i-1.exp"
"$IOMON" monitor -I 1 -t /dev/null -i x </dev/null >/dev/null 2>"$M/i-t.err"; rc=$?
check "monitor -t with -i: refused, not one of them ignored" sh -c "test $rc = 1 && grep -q -- '-t or -i, not both' '$M/i-t.err'"
"$IOMON" monitor -I 1 $(printf -- '-i x%d ' $(seq 17)) </dev/null >/dev/null 2>"$M/i-17.err"; rc=$?
check "monitor: 17 -i are refused, naming the limit" sh -c "test $rc = 1 && grep -q 'more than 16 -i (REPLAY_FILES)' '$M/i-17.err'"
# a machine of many CPUs: the same records in the per-CPU files of 256
# (cpuspread.py) give what the 2 files give, in monitor and extents (before,
# a replay read 16 files and named the 17th)
mkdir -p "$M/cpus"
python3 "$TOOLS/cpuspread.py" 256 "$FIX/mq-randrw/nullb0" "$M/cpus/nullb0" >/dev/null
( cd "$FIX/mq-randrw" && "$IOMON" monitor -I 1 -i nullb0 -h - ) >"$M/cpus2.exp" 2>&1
( cd "$M/cpus" && "$IOMON" monitor -I 1 -i nullb0 -h - ) >"$M/cpus256.got" 2>&1
check "monitor -i: 256 CPUs' files read, their writes counted" grep -q '^sizes write (bytes): num [1-9]' "$M/cpus256.got"
same "monitor -i: 256 CPUs' files give the 2 files' text" "$M/cpus256.got" "$M/cpus2.exp"
( cd "$FIX/mq-randrw" && "$IOMON" extents -i nullb0 ) >"$M/ext2.exp" 2>&1
( cd "$M/cpus" && "$IOMON" extents -i nullb0 ) >"$M/ext256.got" 2>&1
same "extents -i: 256 CPUs' files give the 2 files' extents" "$M/ext256.got" "$M/ext2.exp"
# exports: Prometheus text (checked by promtool when Debian's prometheus is
# installed) and JSON lines (parsed strictly, values as in the text)
( cd "$FIX/mq-randrw" && "$IOMON" monitor -I 1 -i nullb0 -h "$M/x.txt" --prom "$M/x.prom" --json "$M/x.json" )
check "--prom: written, no temp file left" sh -c "test -s '$M/x.prom' && test ! -e '$M/x.prom.tmp'"
check "--prom: counters end in _total" grep -q '^iomon_requests_total{device="254,0",direction="read"} [1-9]' "$M/x.prom"
check "--prom: latency histogram in seconds, cumulative to +Inf" \
	sh -c "grep -q '^iomon_device_latency_seconds_bucket{device=\"254,0\",le=\"8e-06\"} ' '$M/x.prom' && grep -q '^iomon_device_latency_seconds_bucket{device=\"254,0\",le=\"+Inf\"} ' '$M/x.prom'"
python3 - "$M/x.prom" >"$M/prom.log" 2>&1 <<'PY'
import re, sys
b = {}
for l in open(sys.argv[1]):
    m = re.match(r'(\w+)_bucket\{device="([^"]+)",le="([^"]+)"\} (\d+)$', l)
    if m:
        b.setdefault((m[1], m[2]), []).append(int(m[4]))
assert b, "no buckets"
for k, v in b.items():
    assert v == sorted(v), "not cumulative: %s" % (k,)
print("ok", len(b))
PY
check "--prom: buckets are cumulative" grep -q '^ok 2$' "$M/prom.log"
if command -v promtool >/dev/null; then
	check "--prom: promtool check metrics" sh -c "promtool check metrics <'$M/x.prom'"
else
	skip "--prom: promtool check metrics" "Debian's prometheus package is not installed (tests/tools/setup-deps.sh)"
fi
python3 - "$M/x.json" "$M/x.txt" >"$M/json.log" 2>&1 <<'PY'
import json, re, sys
objs = [json.loads(l, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c))) for l in open(sys.argv[1])]
text = open(sys.argv[2]).read()
for o in objs:
    for d in ("read", "write"):
        s = o[d]["size_bytes"]
        want = r"sizes %s \(bytes\): num %d, min %d, max %d, sum %d," % (d, s["num"], s["min"], s["max"], s["sum"])
        assert re.search(want, text), want
print("ok", len(objs))
PY
check "--json: strict JSON, one object per device and interval, as the text says" grep -q '^ok [1-9]' "$M/json.log"
"$IOMON" monitor -I 1 --json - <"$S" >"$M/j.out"
check "--json -: to stdout" python3 -c "import json,sys; [json.loads(l) for l in open('$M/j.out')]; sys.exit(0 if open('$M/j.out').read() else 1)"
# Failed completions (issue 30) in the exports: per device, direction and
# errno, each interval in --json and over the run in --prom, as many as
# Debian's blkparse lists C lines carrying an error (its [N] is -errno as
# 16 unsigned bits: 65531 is EIO).  Three devices from craft.py's failing
# stream (SCALE 100: about 4 s, four 1 s intervals): 8,0 as made; 8,16
# without one failed read's issue (its C pairs with nothing, and still
# counts); 8,32 only the failed completions (no figures: a line of its own).
F=$M/fail; rm -rf "$F"; mkdir -p "$F"
python3 "$TOOLS/craft.py" failing 100 >"$F/fa.blktrace.0"
python3 - "$F" <<'PY'
import struct, sys
d = open(sys.argv[1] + "/fa.blktrace.0", "rb").read()
recs, off = [], 0
while off < len(d):
    n = 48 + struct.unpack_from("<H", d, off + 46)[0]
    recs.append(bytearray(d[off:off + n])); off += n
def dev(r, minor):
    struct.pack_into("<I", r, 36, (8 << 20) | minor); return bytes(r)
act = lambda r: struct.unpack_from("<I", r, 28)[0]
sec = lambda r: struct.unpack_from("<Q", r, 16)[0]
err = lambda r: struct.unpack_from("<H", r, 44)[0]
b = [dev(r, 16) for r in recs if not (act(r) & 0xffff == 7 and sec(r) == 100048)]
c = [dev(r, 32) for r in recs if act(r) & 0xffff == 8 and err(r)]
assert len(b) == len(recs) - 1 and len(c) == 13
open(sys.argv[1] + "/fb.blktrace.0", "wb").write(b"".join(b))
open(sys.argv[1] + "/fc.blktrace.0", "wb").write(b"".join(c))
PY
( cd "$F" && "$IOMON" monitor -I 1 -i fa -i fb -i fc -h h.txt --json j.json --prom p.prom &&
	"$IOMON" monitor -I 1 -i fa -i fb -i fc -h h0.txt ) 2>"$F/err"
check "failures: exit 0, nothing said (no pool full)" test ! -s "$F/err"
same "failures: -h text the same with and without the exports" "$F/h.txt" "$F/h0.txt"
bad=0
while IFS= read -r l; do printf '%s\n' "$l" | python3 -m json.tool >/dev/null 2>&1 || bad=$((bad + 1)); done <"$F/j.json"
check "failures: every --json line is valid JSON ($(wc -l <"$F/j.json") lines)" test "$bad" = 0 -a -s "$F/j.json"
if command -v blkparse >/dev/null; then
	( cd "$F" && blkparse -i fa -i fb -i fc ) >"$F/bp.txt" 2>/dev/null
	python3 - "$F/bp.txt" "$F/j.json" "$F/p.prom" >"$F/cmp.log" 2>&1 <<'PY'
import errno, json, re, sys
from collections import Counter
want = Counter()
for l in open(sys.argv[1]):
    m = re.match(r"\s*(\d+,\d+)\s+\d+\s+\d+\s+[\d.]+\s+\d+\s+C\s+(\S+)\s.*\[(\d+)\]$", l)
    if m and int(m[3]):
        e = 65536 - int(m[3])
        want[m[1], "write" if "W" in m[2] or m[2][0] == "D" else "read", errno.errorcode.get(e, str(e))] += 1
assert sum(want.values()) == 3 * 13 and len({k[0] for k in want}) == 3, want
keys = {"time", "interval", "device", "read", "write", "size_hist_bytes", "d2c_hist_usec", "bidirectional", "failed"}
js, lines = Counter(), Counter()
for l in open(sys.argv[2]):
    o = json.loads(l)
    assert set(o) == keys, set(o) ^ keys
    lines[o["time"], o["device"]] += 1
    for d in ("read", "write"):
        for e, n in o["failed"][d].items():
            js[o["device"], d, e] += n
    if o["device"] == "8,32":
        assert o["read"]["size_bytes"] == {"num": 0} and o["bidirectional"] == 0, o
assert max(lines.values()) == 1 and len({t for t, _ in lines}) >= 3, lines
print("json", "ok" if js == want else "differs: %s %s" % (js, want))
pr = Counter()
for l in open(sys.argv[3]):
    m = re.match(r'iomon_failed_requests_total\{device="([^"]+)",direction="(\w+)",errno="(\w+)"\} (\d+)$', l)
    if m:
        pr[m[1], m[2], m[3]] += int(m[4])
print("prom", "ok" if pr == want else "differs: %s %s" % (pr, want))
PY
	check "failures: --json's counts, summed over the intervals, equal blkparse's C lines with an error" grep -q '^json ok$' "$F/cmp.log"
	check "failures: --prom's iomon_failed_requests_total equals blkparse's C lines with an error" grep -q '^prom ok$' "$F/cmp.log"
else
	skip "failures: counts against blkparse" "Debian's blkparse is not installed"
fi
check "failures: --prom's counter has HELP and TYPE" sh -c "grep -q '^# HELP iomon_failed_requests_total ' '$F/p.prom' && grep -q '^# TYPE iomon_failed_requests_total counter$' '$F/p.prom'"
if command -v promtool >/dev/null; then
	check "failures: promtool check metrics" sh -c "promtool check metrics <'$F/p.prom'"
fi
# ... and on a real capture: dm-flakey going down (fixtures/flakey, from
# the VM; t-vmdiff checks each new one the same way)
if have_oracle "failures of a dm-flakey capture against blkparse"; then
	( cd "$FIX/flakey" && blkparse -i dm-0 ) >"$F/fl.txt" 2>/dev/null
	( cd "$FIX/flakey" && "$IOMON" monitor -I 1 -i dm-0 -h /dev/null --json "$F/fl.json" --prom "$F/fl.prom" )
	for k in json prom; do
		python3 "$TOOLS/failsum.py" "$F/fl.txt" $k "$F/fl.$k" >"$F/fl.r" 2>&1; rc=$?
		check "failures, dm-flakey capture: --$k's counts are blkparse's C lines with an error ($(tail -1 "$F/fl.r"))" test $rc = 0
	done
fi
# blkiomon's text and records on a failing stream: failed requests count
# in the figures as any other (blkiomon never looks at the error)
if command -v blkiomon >/dev/null; then
	for p in blkiomon "$IOMON monitor --json $F/s.json --prom $F/s.prom"; do
		o=$F/s$([ "$p" = blkiomon ] && echo b); python3 "$TOOLS/craft.py" failing >"$o.stream"
		PACED_WAIT=30 python3 "$TOOLS/paced.py" "$o.stream" "$o.txt" 1 0 | $p -I 1 -h - -b "$o.bin" >"$o.txt" 2>/dev/null
		grep -v '^time: ' "$o.txt" >"$o.m"; tail -c +9 "$o.bin" >"$o.tail"
	done
	check "failures: a stream's interval in one block each" sh -c "test \$(grep -c '^device: 8,0\$' '$F/s.txt') = 1 && test \$(grep -c '^device: 8,0\$' '$F/sb.txt') = 1"
	same "failures: -h text as blkiomon's with --json and --prom on (time aside)" "$F/s.m" "$F/sb.m"
	same "failures: binary record as blkiomon's (time aside)" "$F/s.tail" "$F/sb.tail"
	check "failures: and the same stream's --json counts them" grep -q '"failed":{"read":{"EIO":5,"ENOSPC":1,"ETIMEDOUT":1},"write":{"EIO":5,"200":1}}}$' "$F/s.json"
else
	skip "failures: -h and -b against blkiomon" "Debian's blkiomon is not installed"
fi
# the message queue appears only later: monitor waits for it (bounded
# backoff), then sends
if [ -x "$OUT/msgread" ]; then
	touch "$M/qkey2"
	"$IOMON" monitor -I 3600 -Q "$M/qkey2" -q 9 -m 5 -b "$M/qb2.bin" <"$S" & mpid=$!	# one interval: one message, however slow the machine
	# the queue made once monitor is in its backoff (asleep in poll: the
	# only poll before its queue), not after a guess at how soon it gets
	# there; if it ended instead, the check below says so
	in_backoff() { grep -q poll "/proc/$1/wchan" 2>/dev/null || exited "$1"; }
	wait_for 10 "monitor -Q to wait for its queue (/proc/$mpid/wchan)" in_backoff $mpid
	"$OUT/msgread" "$M/qkey2" 9 5 "$M/q2.bin" >/dev/null
	wait $mpid
	check "monitor -Q: waits for a queue made later, then sends" cmp -s "$M/q2.bin" "$M/qb2.bin"
fi
# -d: driver-data records passed through as blkiomon passes them
if [ -x "$TOOLS/gentrace" ] && command -v blkiomon >/dev/null; then
	"$TOOLS/gentrace" -s 3 -n 3000 -c 2 -S >"$M/dd.stream" 2>/dev/null
	# (driver data only: blkiomon dies of the generator's 0 us completions)
	python3 - "$M/dd.stream" "$M/dd.cg" <<'PY'
import struct, sys
d, out, off = open(sys.argv[1], "rb").read(), bytearray(), 0
while off + 48 <= len(d):
    n = 48 + struct.unpack_from("<H", d, off + 46)[0]
    if struct.unpack_from("<I", d, off + 28)[0] & (1 << 30):
        out += d[off:off + n]
    off += n
open(sys.argv[2], "wb").write(out)
PY
	"$IOMON" monitor -I 60 -d "$M/dd.out" <"$M/dd.cg"
	blkiomon -I 60 -d "$M/dd.exp" <"$M/dd.cg" 2>/dev/null
	check "monitor -d: driver data found" test -s "$M/dd.out"
	same_dump "monitor -d: the same bytes as blkiomon's" "$M/dd.out" "$M/dd.exp"
fi
# requests over 4 MiB: blkiomon computes size*1000 in 32 bits and wraps
python3 - "$M/big.stream" <<'PY'
import struct, sys
def rec(seq, t, sec, act, nb):
    return struct.pack("<IIQQIIIIIHH", 0x65617407, seq, t, sec, nb, act, 1, 254 << 20, 0, 0, 0)
ISSUE, COMPLETE, READ, FS = 1 << 22, 1 << 23, 1 << 16, 1 << 24
d = b"".join(rec(2 * i + 1, 10**6 * i, 16384 * i, ISSUE | READ | FS | 7, 8 << 20) +
             rec(2 * i + 2, 10**6 * i + 10**6 // 2, 16384 * i, COMPLETE | READ | FS | 8, 8 << 20) for i in range(4))
open(sys.argv[1], "wb").write(d)
PY
"$IOMON" monitor -I 60 -h "$M/big.txt" <"$M/big.stream"
check "monitor: 8 MiB in 500 us is 16777216 B/ms (no 32-bit wrap)" \
	grep -q '^throughput read (bytes/msec): num 4, min 16777216, max 16777216' "$M/big.txt"

# Exact variance (issue 13): every variance printed is the exact value
# (num*squares - sum^2) / num^2 rounded as printf rounds (to nearest, ties
# to even), computed independently with Python's fractions (monref.py):
# over every fixture, each device in one interval, text and JSON; and the
# arithmetic itself (stats/exact.c: 160-bit squares, 256-bit quotient, by
# hand) over value lists up to 2^64, built for this ARCH and run on it.
# (brd-seq: a bio-based RAM disk issues nothing, so it has no D to C)
for f in ext4/nullb0 ext4-be/nullb0 ext4-v8/nullb0 mq-randrw/nullb0 discard-flush/nullb0 \
	 split/nullb0 remap/nullb0 two-devs/nullb0 two-devs/nullb1 s390x-discard-flush/nullb0 v8-ext4-part/nullb0; do
	d=$FIX/${f%/*} n=${f#*/}
	( cd "$d" && "$IOMON" parse -i "$n" -q -O -d "$M/v.dump" ) >/dev/null 2>&1
	python3 "$TOOLS/monref.py" "$M/v.dump" --dev | sed 's/^\([0-9]*\),\([0-9]*\) /\1 \2 /' >"$M/v.ref"
	( cd "$d" && "$IOMON" monitor -I 1000000 -i "$n" -h - --json "$M/v.json" ) >"$M/v.txt" 2>&1
	check "exact variance: $f has requests to check ($(wc -l <"$M/v.ref") figures)" test -s "$M/v.ref"
	bad=0
	while read -r maj min name dir _ num _ sum _ var _ var3; do
		label="$name $dir"; [ "$name" = sizes ] && label="sizes $dir (bytes)"
		[ "$name" = d2c ] && label="d2c $dir (usec)"; [ "$name" = throughput ] && label="throughput $dir (bytes/msec)"
		awk -v dev="$maj,$min" -v l="$label: num $num, " -v want=", sum $sum, .* var $var\$" \
			'/^device: / { on = ($2 == dev) } on && index($0, l) == 1 && $0 ~ want { f = 1 } END { exit !f }' "$M/v.txt" ||
			{ bad=1; echo "  $f $maj,$min $label: want num $num sum $sum var $var" >&2; }
	done <"$M/v.ref"
	check "exact variance: $f, every device and direction, text" test $bad = 0
	python3 - "$M/v.ref" "$M/v.json" >"$M/vj.log" 2>&1 <<-'PY'
	import json, sys
	keys = {"sizes": "size_bytes", "d2c": "d2c_usec", "throughput": "throughput_bytes_per_msec"}
	want = {}
	for l in open(sys.argv[1]):
	    maj, mnr, name, w, _, n, _, s, _, v, _, v3 = l.split()
	    want[("%s,%s" % (maj, mnr), w, keys[name])] = (int(n), int(s), v3)
	got = {}
	for line in open(sys.argv[2]):
	    o = json.loads(line, parse_float=str)	# the digits as written
	    for w in ("read", "write"):
	        for k, m in o[w].items():
	            if m["num"]:
	                got[(o["device"], w, k)] = (m["num"], m["sum"], m["var"])
	bad = [(k, got.get(k), v) for k, v in want.items() if got.get(k) != v]
	print("%d of %d" % (len(want) - len(bad), len(want)))
	if bad or len(got) != len(want):
	    print(bad[:3], len(got))
	PY
	check "exact variance: $f, JSON to three decimals ($(head -1 "$M/vj.log"))" sh -c "test \$(wc -l <'$M/vj.log') = 1 && test -s '$M/vj.log'"
done
CCX=$(make -s -C "$TOP" print-cc ${CROSS:+ARCH=$CROSS} 2>/dev/null)
if $CCX -static -O2 -I"$TOP" -o "$M/varcheck" "$TOOLS/varcheck.c" "$TOP/stats/exact.c" >"$M/vc.log" 2>&1; then
	python3 "$TOOLS/varref.py" "$M/vc.in" "$M/vc.exp"
	${CROSS:+$IOMON_QEMU} "$M/varcheck" <"$M/vc.in" >"$M/vc.out"
	same "exact variance: stats/exact.c equals Python's fractions on $(wc -l <"$M/vc.in") lists up to 2^64${CROSS:+ ($CROSS)}" "$M/vc.out" "$M/vc.exp"
else
	fail "tests/tools/varcheck.c builds with $CCX" "$(head -c 400 "$M/vc.log")"
fi

# One variance for every report (issue 12, step 10b): text, JSON (and any
# later reader) print stats/monstat.c's mm_var, and it is never negative:
# num*squares >= sum^2 for any values, and still when the sum of a device's
# D-to-C times wraps at 64 bits (here: 3000 requests of ~2^53 us, a clock
# gone wild), because the wrapped sum is the smaller.  (Before the exact
# variance, text clamped only -1e-6 < var < 0 and JSON every negative.)
python3 - "$M/wrap.stream" "$M/wrap.exp" <<'PY'
import struct, sys
from fractions import Fraction
def rec(seq, t, sec, act, nb):
    return struct.pack("<IIQQIIIIIHH", 0x65617407, seq, t, sec, nb, act, 1, 254 << 20, 0, 0, 0)
ISSUE, COMPLETE, WRITE, FS = 1 << 22, 1 << 23, 1 << 17, 1 << 24
d, vals = [], []
for i in range(3000):
    t0, t1 = 1000 * i, (1 << 63) + 1000 * i + 7919 * i * i
    d += [rec(2 * i + 1, t0, 8 * i, ISSUE | WRITE | FS | 7, 4096),
          rec(2 * i + 2, t1, 8 * i, COMPLETE | WRITE | FS | 8, 4096)]
    vals.append((t1 - t0) // 1000)
open(sys.argv[1], "wb").write(b"".join(d))
n, s, q = len(vals), sum(vals) % (1 << 64), sum(v * v for v in vals)
v = Fraction(n * q - s * s, n * n)
assert s != sum(vals) and v >= 0
def fix(v, k):	# "%.kf" of an exact fraction: to nearest, ties to even
    m = v * 10 ** k; f = m.numerator // m.denominator; r = m - f
    f += r > Fraction(1, 2) or (r == Fraction(1, 2) and f % 2)
    return "%d.%0*d" % (f // 10 ** k, k, f % 10 ** k) if k else str(f)
open(sys.argv[2], "w").write("%s %s\n" % (fix(v, 1), fix(v, 3)))
PY
"$IOMON" monitor -I 600 -h "$M/wrap.txt" --json "$M/wrap.json" <"$M/wrap.stream"
read -r want1 want3 <"$M/wrap.exp"
check "one variance: a wrapped sum still gives var >= 0, text ($want1)" \
	grep -q "^d2c write (usec): num 3000, .* var $want1\$" "$M/wrap.txt"
check "one variance: the same in JSON ($want3)" grep -q "\"d2c_usec\":{\"num\":3000,.*\"var\":$want3}" "$M/wrap.json"
check "one variance: no negative variance in any report" sh -c "! grep -q 'var -' '$M/wrap.txt' && ! grep -q '\"var\":-' '$M/wrap.json'"
