# Shared by tests/t-live.sh (bash, this machine) and tests/vm/live.sh (busybox
# sh, the guest, after tests/vm/guest.sh): what a live consumer shows.  $VIEW
# writes the consumer's output to $VIEWF, read as $KIND: text (blkparse's
# lines), snoop (biosnoop's lines), top (biotop's rows, dd's by pid), count
# ($COUNT: monitor's, btt's, btt -l's file's, biolatency's or biopattern's
# writes counted so far).  Slow writes: sector 8000 + 8 i (PER writes a
# step: 8000 + 8 PER i up); fast: 32000 up.
: "${PER:=1}"
io_in() { grep -qE " Q +WS? $2 \+ 8 \[dd\]" "$1" && grep -qE " C +WS? $2 \+ 8 \[" "$1"; }
fast_n() { grep -cE " $2 +WS? (3[2-9]|4[0-7])[0-9]{3} \+ 8 \[" "$1"; }
sn_in() { grep -qE " W +$1 +4096 " "$VIEWF"; }
sn_fast() { grep -cE " W +(3[2-9]|4[0-7])[0-9]{3} +4096 " "$VIEWF"; }
top_n() { awk -v p="$1" '$1 == p && $2 == "dd" && $3 == "W" { n += $7 } END { print n + 0 }' "$VIEWF"; }
count_n() {
	case $COUNT in
	monitor) awk '/^sizes write/ { sub(/,/, "", $5); n += $5 } END { print n + 0 }' "$VIEWF" ;;
	btt) awk '$1 == "D2C" { n += $NF } END { print n + 0 }' "$VIEWF" ;;
	bttl) grep -c . "$VIEWF" ;;	# btt -l's file: a line an I/O
	lat) awk '$2 == "->" { n += $5 } END { print n + 0 }' "$VIEWF" ;;
	# (biopattern, as BCC's, counts a disk's completions after its first
	# of the interval, which only sets where it stands: a line, COUNT + 1)
	pattern) awk '$1 ~ /:/ && NF == 6 && $5 ~ /^[0-9]+$/ { n += $5 + 1 } END { print n + 0 }' "$VIEWF" ;;
	esac
}
has_slow() {	# I PID
	$VIEW 2>/dev/null
	case $KIND in
	text) io_in "$VIEWF" $((8000 + 8 * $1)) ;;
	snoop) sn_in $((8000 + 8 * $1)) ;;
	top) [ "$(top_n "$2")" -ge 1 ] ;;
	count) [ "$(count_n)" -ge $((PER * ($1 + 1))) ] ;;
	esac
}
has_first_fast() {
	$VIEW 2>/dev/null
	case $KIND in
	text) io_in "$VIEWF" 32000 ;;
	snoop) sn_in 32000 ;;
	top) [ "$(top_n "$FAST_PID")" -ge 1 ] ;;
	count) [ "$(count_n)" -gt $((PER * N_SLOW)) ] ;;
	esac
}
has_fast() {
	$VIEW 2>/dev/null
	case $KIND in
	text) [ "$(fast_n "$VIEWF" Q)" = $N_FAST ] && [ "$(fast_n "$VIEWF" C)" = $N_FAST ] ;;
	snoop) [ "$(sn_fast)" = $N_FAST ] ;;
	top) [ "$(top_n "$FAST_PID")" = $N_FAST ] ;;
	count) [ "$(count_n)" -ge $((PER * N_SLOW + N_FAST)) ] ;;
	esac
}
