# Golden: real traces from Debian's blktrace (x86_64 and s390x kernels,
# versions 7 and 8, both byte orders) against what Debian's blkparse
# printed for them, stored with the traces.  One line a case:
# testcmd NAME "IOMON ARGS" EXPECTED DIR (tests/lib.sh).
for f in brd-seq/ram0 ext4/nullb0 mq-randrw/nullb0 discard-flush/nullb0 split/nullb0 \
	 remap/nullb0 two-devs/nullb0 two-devs/nullb1 s390x-discard-flush/nullb0 cpus72/nullb0 requeue/n0 \
	 mirror-leg/nullb0; do
	testcmd "golden ${f%/*} (${f#*/})" "parse -i ${f#*/}" "$FIX/$f.blkparse.txt.gz" "${f%/*}"
done
# Byte-swapped copies print exactly what the little-endian originals print.
testcmd "golden ext4 big-endian" "parse -i nullb0" "$FIX/ext4-be/nullb0.blkparse.txt.gz" ext4-be
testcmd "golden remap big-endian" "parse -i nullb0" "$FIX/remap-be/nullb0.blkparse.txt.gz" remap-be
# Version 8 (struct blk_io_trace2): blkparse 1.2.0 refuses it; the expected
# text is blkparse's on the same records rewritten as version 7.
testcmd "golden ext4 as version 8" "parse -i nullb0" "$FIX/ext4-v8/nullb0.blkparse.txt.gz" ext4-v8
testcmd "golden v8 partition trace (sid 7.2 kernel)" "parse -i nullb0" "$FIX/v8-ext4-part/nullb0.blkparse.txt.gz" v8-ext4-part
# A piped stream: blkparse -i - < nullb0.stream (stderr too: nothing there)
testcmd "golden piped stream (-i -)" "parse -i - <nullb0.stream 2>&1" "$FIX/stream/nullb0.stream.blkparse.txt.gz" stream
# The same stream through a real pipe and as a bare argument: a live pipe
# is cut into batches by timing (as blkparse cuts it), so compare the lines
# (depth and throughput follow the order events are seen in).
gzip -dc "$FIX/stream/nullb0.stream.blkparse.txt.gz" | grep -vE "depth:|^Throughput" | sort >"$OUT/stream.s"
testcmd "golden piped stream through a pipe, bare '-' (same lines)" \
	"parse - < <(cat nullb0.stream) 2>&1 | grep -vE 'depth:|^Throughput' | sort" "$OUT/stream.s" stream
# -o: text to the file, the "Input file" notices stay on stdout.
gzip -dc "$FIX/ext4/nullb0.blkparse.txt.gz" | grep -v '^Input file' >"$OUT/o.exp"
testcmd "golden -o FILE notices on stdout" "parse -i nullb0 -o '$OUT/o.txt'" \
	"Input file nullb0.blktrace.0 added\nInput file nullb0.blktrace.1 added\n" ext4
same "golden -o FILE text" "$OUT/o.txt" "$OUT/o.exp"
# -D and a folder inside the -i name find the same files.
testcmd "golden -D DIR" "parse -D '$FIX/ext4' -i nullb0 | grep -v '^Input file'" "$OUT/o.exp" /
testcmd "golden -i DIR/NAME.blktrace.0 (folder and suffix stripped)" \
	"parse -i '$FIX/ext4/nullb0.blktrace.0' | grep -v '^Input file'" "$OUT/o.exp" /
