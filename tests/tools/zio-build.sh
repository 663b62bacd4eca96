#!/bin/bash
# zio-build.sh DIR: IBM s390-tools' ziomon programs (ziomon_mgr, ziomon_util,
# ziomon_zfcpdd, ziorep_traffic), built from the tarball kept beside the
# project (../shared/clients, or $ZIOMON_TAR) into DIR/ziomon, unchanged,
# with DIR/ziolog (tests/tools/ziolog.c on ziomon's own .log reader).
# Test dependencies only: nothing of them is part of iomon.  Built once;
# again only when the tarball or ziolog.c is newer.  Needs g++ and make.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
DIR=$1
TAR=${ZIOMON_TAR:-$TOP/../shared/clients/s390-tools-ziomon.tar.xz}
[ -r "$TAR" ] || { echo "no ziomon sources: $TAR (set ZIOMON_TAR)"; exit 3; }
Z=$DIR/ziomon
if [ -x "$DIR/ziolog" ] && [ "$DIR/ziolog" -nt "$TAR" ] && [ "$DIR/ziolog" -nt "$TOP/tests/tools/ziolog.c" ]; then
	exit 0
fi
rm -rf "$DIR"; mkdir -p "$DIR"
xz -dc "$TAR" | tar x -C "$DIR" || { echo "cannot unpack $TAR"; exit 1; }
if ! make -C "$Z" -j2 ziomon_mgr ziomon_util ziomon_zfcpdd ziorep_traffic >"$DIR/build.log" 2>&1; then
	echo "ziomon did not build (log: $DIR/build.log):"; tail -5 "$DIR/build.log"; exit 1
fi
cc -O1 -I "$Z" -I "$DIR/include" -o "$DIR/ziolog" "$TOP/tests/tools/ziolog.c" "$Z/ziomon_dacc.o" \
	"$Z/ziomon_util.o" "$Z/ziomon_msg_tools.o" "$Z/ziomon_tools.o" "$Z/ziomon_zfcpdd.o" -lm \
	>>"$DIR/build.log" 2>&1 || { echo "ziolog did not build (log: $DIR/build.log)"; exit 1; }
