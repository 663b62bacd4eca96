#!/usr/bin/env bash
# make demo: parse a real trace shipped with iomon (ext4 on null_blk,
# captured with Debian's blktrace in Debian's 6.1 kernel) and show what
# blkparse would: the first events, then the summary.
set -eu
cd "$(dirname "$0")/fixtures/ext4"
IOMON=../../../iomon
echo "\$ iomon parse -i nullb0   (first 12 lines)"
"$IOMON" parse -i nullb0 | head -12
echo "..."
echo "\$ iomon parse -i nullb0 -q -s -f ''   (per process only, first two)"
"$IOMON" parse -i nullb0 -q -s -f '' | head -22
echo "\$ iomon parse -i nullb0 | tail   (summary)"
"$IOMON" parse -i nullb0 | tail -22
