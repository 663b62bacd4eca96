# Golden: real traces from Debian's blktrace (x86_64 and s390x kernels,
# versions 7 and 8, both byte orders) against what Debian's blkparse
# printed for them, stored with the traces.
golden() {	# name dir input expected
	local d=$FIX/$2
	( cd "$d" && "$IOMON" parse -i "$3" ) >"$OUT/golden.txt" 2>"$OUT/golden.err"
	local rc=$?
	gzip -dc "$d/$4.gz" >"$OUT/golden.exp"
	if [ $rc -ne 0 ]; then fail "$1" "exit $rc: $(head -3 "$OUT/golden.err")"; return; fi
	same "$1" "$OUT/golden.txt" "$OUT/golden.exp"
}
for f in brd-seq/ram0 ext4/nullb0 mq-randrw/nullb0 discard-flush/nullb0 split/nullb0 \
	 remap/nullb0 two-devs/nullb0 two-devs/nullb1 s390x-discard-flush/nullb0; do
	golden "golden ${f%/*} (${f#*/})" "${f%/*}" "${f#*/}" "${f#*/}.blkparse.txt"
done
# Byte-swapped copies print exactly what the little-endian originals print.
golden "golden ext4 big-endian" ext4-be nullb0 nullb0.blkparse.txt
golden "golden remap big-endian" remap-be nullb0 nullb0.blkparse.txt
# Version 8 (struct blk_io_trace2): blkparse 1.2.0 refuses it; the expected
# text is blkparse's on the same records rewritten as version 7.
golden "golden ext4 as version 8" ext4-v8 nullb0 nullb0.blkparse.txt
golden "golden v8 partition trace (sid 7.2 kernel)" v8-ext4-part nullb0 nullb0.blkparse.txt
# A piped stream: blkparse -i - < nullb0.stream
( "$IOMON" parse -i - <"$FIX/stream/nullb0.stream" ) >"$OUT/stream.txt" 2>&1
gzip -dc "$FIX/stream/nullb0.stream.blkparse.txt.gz" >"$OUT/stream.exp"
same "golden piped stream (-i -)" "$OUT/stream.txt" "$OUT/stream.exp"
# The same stream through a real pipe and as a bare argument: a live pipe
# is cut into batches by timing (as blkparse cuts it), so compare the lines
# (depth and throughput follow the order events are seen in).
cat "$FIX/stream/nullb0.stream" | "$IOMON" parse - >"$OUT/stream2.txt" 2>&1
grep -vE "depth:|^Throughput" "$OUT/stream2.txt" | sort >"$OUT/stream2.s"; grep -vE "depth:|^Throughput" "$OUT/stream.exp" | sort >"$OUT/stream.s"
same "golden piped stream through a pipe, bare '-' (same lines)" "$OUT/stream2.s" "$OUT/stream.s"
# -o: text to the file, the "Input file" notices stay on stdout.
( cd "$FIX/ext4" && "$IOMON" parse -i nullb0 -o "$OUT/o.txt" ) >"$OUT/o.stdout"
gzip -dc "$FIX/ext4/nullb0.blkparse.txt.gz" | grep -v '^Input file' >"$OUT/o.exp"
same "golden -o FILE text" "$OUT/o.txt" "$OUT/o.exp"
printf 'Input file nullb0.blktrace.0 added\nInput file nullb0.blktrace.1 added\n' >"$OUT/o.exp2"
same "golden -o FILE notices on stdout" "$OUT/o.stdout" "$OUT/o.exp2"
# -D and a folder inside the -i name find the same files.
( cd / && "$IOMON" parse -D "$FIX/ext4" -i nullb0 ) >"$OUT/D.txt"
grep -v '^Input file' "$OUT/D.txt" >"$OUT/D.body"
same "golden -D DIR" "$OUT/D.body" "$OUT/o.exp"
( cd / && "$IOMON" parse -i "$FIX/ext4/nullb0.blktrace.0" ) | grep -v '^Input file' >"$OUT/D2.body"
same "golden -i DIR/NAME.blktrace.0 (folder and suffix stripped)" "$OUT/D2.body" "$OUT/o.exp"
