# No heap (issue 6): every applet runs over the fixtures with a gdb
# breakpoint on each allocator entry point linked into iomon_unstripped
# (malloc, calloc, realloc and musl's internal __libc_malloc /
# __simple_malloc), and none may be hit.
# strace counts brk and anonymous mmap as a second net that no allocator, named or
# not, can slip through.  A long TZ once made musl's __tz.c call its
# allocator (for a copy of a TZ longer than 31 bytes); local time is
# tz.c's now, so that run must take no memory either, and give the time.
U=$TOP/iomon_unstripped
if [ -n "$CROSS" ]; then
	skip "heap" "gdb runs the x86_64 build; $CROSS's code is the same C"
elif ! command -v gdb >/dev/null || ! command -v strace >/dev/null; then
	skip "heap" "gdb and strace not installed (tests/tools/setup-deps.sh)"
elif [ ! -x "$U" ]; then
	skip "heap" "iomon_unstripped not built (make)"
else
	H=$OUT/heap; rm -rf "$H"; mkdir -p "$H"
	# one breakpoint per address (__simple_malloc and __libc_malloc_impl
	# are one function)
	nm "$U" | awk '$3 ~ /^(malloc|calloc|realloc|free|__libc_(malloc|calloc|realloc|free)(_impl)?|__simple_malloc|iomon_z(malloc|calloc)|aligned_alloc|posix_memalign|memalign|valloc|__expand_heap|__malloc_donate)$/ && !seen[$1]++ { print $1, $3 }' >"$H/syms"
	check "heap: iomon links no malloc, calloc, realloc or free ($(awk '{ print $2 }' "$H/syms" | tr '\n' ' '))" \
		sh -c "! grep -qwE 'malloc|calloc|realloc|free' '$H/syms'"
	q() { local a; for a; do printf "'%s' " "$(printf %s "$a" | sed "s/'/'\\\\''/g")"; done; }
	# heap NAME DIR STDIN ARGS...: the number of allocator calls, and
	# whether the program ran to its end, in $H/NAME.gdb
	heap() {
		local n=$1 dir=$2 in=$3; shift 3
		{
			echo "set pagination off"; echo "set confirm off"
			while read -r addr sym; do
				echo "break *0x$addr"
				printf 'commands\nsilent\nprintf "HEAPCALL %s\\n"\nbt 6\ncontinue\nend\n' "$sym"
			done <"$H/syms"
			echo "set args $(q "$@") >'$H/$n.out' 2>'$H/$n.err' <'$in'"
			echo "run"
		} >"$H/$n.cmd"
		( cd "$dir" && gdb -nx -batch -x "$H/$n.cmd" "$U" ) >"$H/$n.gdb" 2>&1
		( cd "$dir" && strace -f -qq -e trace=brk,mmap -o "$H/$n.strace" "$U" "$@" ) <"$in" >/dev/null 2>&1
	}
	# heap_none NAME DIR STDIN ARGS...: ran to the end, wrote output, no allocator call
	heap_none() {
		local n=$1
		heap "$@"
		local calls sys
		calls=$(grep -c '^HEAPCALL' "$H/$n.gdb")
		sys=$(grep -cE '^[0-9]+ +(brk\(|mmap\(.*MAP_ANON)' "$H/$n.strace")
		if ! grep -qE '\[Inferior 1 \(process [0-9]+\) exited' "$H/$n.gdb"; then
			fail "heap: $n ran under gdb" "$(tail -3 "$H/$n.gdb")"
		elif [ ! -s "$H/$n.out" ] && [ ! -s "$H/$n.err" ]; then
			fail "heap: $n did something" "no output at all"
		else
			check "heap: $n: no allocator call ($calls), no brk or anonymous mmap ($sys)" test "$calls$sys" = 00
		fi
	}
	E=$FIX/ext4 S=$FIX/stream/nullb0.stream N=/dev/null
	heap_none "parse ext4" "$E" $N parse -i nullb0
	heap_none "parse ext4 -s -t" "$E" $N parse -i nullb0 -s -t
	heap_none "parse ext4 -d dump" "$E" $N parse -i nullb0 -d "$H/dump.bin"
	heap_none "parse wall clock %z" "$E" $N parse -i nullb0 -q -f '%z %a %d %S %n\n'
	heap_none "parse big-endian" "$FIX/ext4-be" $N parse -i nullb0
	heap_none "parse v8 zoned" "$FIX/v8-zoned" $N parse -i nullb0
	heap_none "parse two devices" "$FIX/two-devs" $N parse -i nullb0 -i nullb1
	heap_none "parse stream -i -" "$E" "$S" parse -i -
	heap_none "parse missing input" "$E" $N parse -i nothere
	heap_none "monitor -h -b on a stream" "$E" "$S" monitor -I 1 -h - -b "$H/mon.bin"
	heap_none "monitor --json --prom" "$E" "$S" monitor -I 1 --json - --prom "$H/mon.prom"
	heap_none "monitor -i replay" "$FIX/mq-randrw" $N monitor -I 1 -h - -i nullb0
	heap_none "top replay" "$FIX/mq-randrw" $N top -C -i nullb0 1
	heap_none "top stream" "$E" "$S" top -C -i - 3600
	heap_none "lat replay -P -D" "$FIX/mq-randrw" $N lat -P -D -i nullb0
	heap_none "snoop replay -Q -P" "$FIX/mq-randrw" $N snoop -Q -P -i nullb0
	heap_none "snoop stream --slower" "$E" "$S" snoop --slower 0.1 -i -
	heap_none "bitesize replay" "$E" $N bitesize -i nullb0
	heap_none "biopattern stream" "$E" "$S" biopattern -i - 1
	heap_none "trace --help" "$E" $N trace --help
	heap_none "trace no device" "$E" $N trace -d /nonexistent -w 1
	heap_none "btrace --help" "$E" $N btrace --help
	heap_none "btrace no device" "$E" $N btrace /nonexistent
	heap_none "iomon --list" "$E" $N --list
	# rawverify writes DEV.verify.out where it runs: on copies
	mkdir -p "$H/rv" && cp "$E"/nullb0.blktrace.* "$H/rv/" && cp "$FIX/ext4-v8/nullb0.blktrace.0" "$H/rv/v8.blktrace.0"
	heap_none "rawverify ext4 and version 8" "$H/rv" $N rawverify nullb0 v8
	gzip -dc "$E/nullb0.blkparse.txt.gz" >"$H/rv/ext4.txt"
	heap_none "verifyparse ext4 text" "$H/rv" $N verifyparse ext4.txt
	# btt on the dump parse -d made above: every file it writes, -A's tables
	heap_none "btt dump -A, every file" "$H" $N btt -i "$H/dump.bin" -A -l "$H/L" -q "$H/Q" -z "$H/Z" -I "$H/I"
	heap_none "btt trace files, stdout" "$H" $N btt -i "$FIX/two-devs/nullb0" -i "$FIX/two-devs/nullb1"
	heap_none "plot ext4" "$E" $N plot -i nullb0 -P -o -
	heap_none "plot stream" "$E" "$S" plot -i - -o -
	# zstd (make ZSTD=1): the decoder runs on its static workspace
	if nm "$U" | grep -q ' T iomon_zmalloc$'; then
		Z=$H/zst; mkdir -p "$Z"
		for c in 0 1; do zstd -q -c "$FIX/mq-randrw/nullb0.blktrace.$c" >"$Z/nullb0.blktrace.$c.zst"; done
		cat "$FIX"/mq-randrw/nullb0.blktrace.* | zstd -q -c >"$Z/s.zst"
		heap_none "parse .zst files" "$Z" $N parse -i nullb0
		heap_none "parse a zstd stream" "$Z" "$Z/s.zst" parse -i -
		heap_none "monitor -i .zst files" "$Z" $N monitor -I 1 -h - -i nullb0
	else
		skip "heap: zstd paths" "this iomon is built without zstd (make ZSTD=1)"
	fi
	# live, when this machine can: root, a loop device, the tracefs backend
	if live_ok "heap: trace live"; then
		truncate -s 16M "$H/loop.img"; LOOP=$(losetup -f --show "$H/loop.img")
		# I/O all along, however long gdb and strace take to start it
		( while :; do dd if=/dev/zero of="$LOOP" bs=4k count=50 oflag=direct 2>/dev/null; sleep 0.3; done ) &	# pacing, not a wait
		lp=$!
		heap_none "trace live" "$H" $N trace -d "$LOOP" -w 3 -D "$H"
		kill $lp; wait $lp 2>/dev/null
		check "heap: trace live on $LOOP captured ($(grep -o 'Total:.*' "$H/trace live.out"))" \
			grep -qE 'Total: +[1-9][0-9]* events' "$H/trace live.out"
		losetup -d "$LOOP"; rm -f "$H/loop.img"
	fi
	# a TZ musl's time zone code once asked its allocator to copy
	LONGTZ=/usr/share/zoneinfo/America/Argentina/ComodRivadavia
	TZ=$LONGTZ heap_none "long TZ" "$E" $N parse -i nullb0 -q -f '%z\n'
	( cd "$E" && TZ='<-03>3' "$U" parse -i nullb0 -q -f '%z\n' ) >"$H/shorttz.out" 2>&1
	same "heap: the long TZ still gives its zone's time (-03, as TZ=<-03>3)" "$H/long TZ.out" "$H/shorttz.out"
fi
