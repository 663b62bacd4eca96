# needs: python3
# The size budget (issue 6): the stripped x86_64 binary with every applet
# fits in SIZE_BUDGET bytes (Makefile), and make size says so and fails
# past it.
if [ -n "$CROSS" ]; then
	skip "size budget" "the budget is for the x86_64 build; make size lists $CROSS's size"
else
	budget=$(make -s -C "$TOP" print-budget)
	size=$(stat -c %s "$IOMON_BIN")
	check "stripped x86_64 iomon ($size bytes) is within the budget ($budget bytes)" \
		test "$size" -le "$budget"
	# the target itself: passes at exactly the size, fails one byte below
	make -s -C "$TOP" size SIZE_BUDGET="$size" >"$OUT/size.txt" 2>&1
	check "make size passes at a budget of exactly the size" test $? = 0
	make -s -C "$TOP" size SIZE_BUDGET=$((size - 1)) >"$OUT/size.over" 2>&1
	check "make size fails one byte past the budget" test $? != 0
	check "make size says OVER past the budget" grep -q "of $((size - 1)) bytes: OVER" "$OUT/size.over"
	check "make size lists each applet's globals" \
		sh -c "grep -q '^  parse  ' '$OUT/size.txt' && grep -q '^  monitor  ' '$OUT/size.txt' && grep -q '^  top  ' '$OUT/size.txt' && grep -q '^  trace, btrace  ' '$OUT/size.txt'"
	check "make size lists text/data/bss per object" grep -qE '^  output/parse\.o +[0-9]+ +[0-9]+ +[0-9]+$' "$OUT/size.txt"
fi
