#!/usr/bin/env bash
# zstd for iomon, the one optional library (make ZSTD=1 runs this).
#   tests/tools/zstd-build.sh OUTDIR CC...
# Fetches Debian bookworm's libzstd source package (once, into build/zstd/src,
# through a private deb-src list: the machine's apt settings are not
# touched), then compiles only what iomon uses (common, compress,
# decompress; no legacy formats, dictionary builder, threads or assembly)
# with the given compiler into OUTDIR/libzstd.a and OUTDIR/zstd.h.
# The library never allocates: its malloc, calloc and free are renamed to
# iomon's refusals (capture/zsrc.c), and iomon gives it static workspaces.
set -eu
OUT=$1; shift
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
Z=$TOP/build/zstd
SRC=$Z/src
if [ ! -f "$SRC/lib/zstd.h" ]; then
	A=$Z/apt
	mkdir -p "$A/sources.d" "$A/lists/partial" "$A/cache/archives/partial" "$Z/dl"
	cat >"$A/sources.d/deb-src.sources" <<-EOF
	Types: deb-src
	URIs: http://deb.debian.org/debian
	Suites: bookworm
	Components: main
	Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOF
	APTO=(-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$A/sources.d"
	      -o Dir::State::Lists="$A/lists" -o Dir::Cache="$A/cache" -o Debug::NoLocking=1
	      -o APT::Sandbox::User=root)
	apt-get "${APTO[@]}" -qq update
	(cd "$Z/dl" && apt-get "${APTO[@]}" -qq source --download-only libzstd)
	orig=$(ls "$Z"/dl/libzstd_*.orig.tar.* | head -1)
	[ -n "$orig" ] || { echo "zstd-build: no libzstd source from Debian" >&2; exit 1; }
	rm -rf "$SRC.new"; mkdir -p "$SRC.new"
	tar -xf "$orig" -C "$SRC.new" --strip-components=1
	rm -rf "$SRC"; mv "$SRC.new" "$SRC"
fi
mkdir -p "$OUT/o"
# Decoding is on parse's path (the bench holds it within 1.5x of plain
# input): -O2 there; the encoder, at capture's pace, for size.
for f in "$SRC"/lib/common/*.c "$SRC"/lib/compress/*.c "$SRC"/lib/decompress/*.c; do
	case $f in */compress/*) opt=-Os ;; *) opt=-O2 ;; esac
	"$@" $opt -ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables -fno-unwind-tables \
		-DZSTD_LEGACY_SUPPORT=0 -DZSTD_DISABLE_ASM -DZSTD_TRACE=0 -DDEBUGLEVEL=0 \
		-DZSTD_NO_UNUSED_FUNCTIONS \
		-Dmalloc=iomon_zmalloc -Dcalloc=iomon_zcalloc -Dfree=iomon_zfree \
		-c "$f" -o "$OUT/o/$(basename "$f" .c).o"
done
rm -f "$OUT/libzstd.a"
ar rcs "$OUT/libzstd.a" "$OUT"/o/*.o
cp "$SRC/lib/zstd.h" "$SRC/lib/zstd_errors.h" "$OUT/"
