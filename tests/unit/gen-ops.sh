#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# gen-ops.sh (TAP): tests/helpers/gen-ops.sh, which makes the guest
# helpers' op enums and tables from NAME.ops, refuses a bad line with
# exit status 1 and one message naming FILE:LINE (a bad table would
# otherwise fail later, in the C compiler, far from its cause), and
# makes the expected C from a good file.
set -u
srcdir=${CORRAL_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
gen=$srcdir/tests/helpers/gen-ops.sh
n=0

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# refused WHAT LINE: FILE.ops, whose line 3 is LINE, is refused as above
refused() {
	n=$((n + 1))
	printf '# a comment\nread 1 op_file READ\n%s\n' "$2" >"$tmp/t.ops"
	sh "$gen" table "$tmp/t.ops" >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ "$st" -eq 1 ] && [ ! -s "$tmp/out" ] &&
	   [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	   grep -q "^$tmp/t.ops:3: " "$tmp/err"; then
		echo "ok $n - $1 is refused at t.ops:3"
	else
		echo "not ok $n - $1 is refused at t.ops:3 (status $st)"
		sed 's/^/# /' "$tmp/err"
	fi
}

refused "three columns" "write 1 op_file"
refused "five columns" "write 1 op_file WRITE x"
refused "a NARGS that is not a number" "write one op_file WRITE"
refused "a NAME seen before" "read 2 op_file WRITE"

# a good file: a KIND on two lines is one constant, - makes none
n=$((n + 1))
cat >"$tmp/good.ops" <<EOF
# NAME NARGS FUNCTION KIND
a  1 op_x A
b  2 op_y -
c  0 op_x C
c2 0 op_x C
EOF
{
	sh "$gen" enum "$tmp/good.ops" && sh "$gen" table "$tmp/good.ops"
} >"$tmp/out" 2>&1
cat >"$tmp/want" <<EOF
/* made from good.ops by gen-ops.sh: edit that file */
enum { OP_A, OP_C };	/* op_x */
/* made from good.ops by gen-ops.sh: edit that file */
	{ "a", 1, op_x, OP_A },
	{ "b", 2, op_y, 0 },
	{ "c", 0, op_x, OP_C },
	{ "c2", 0, op_x, OP_C },
EOF
if cmp -s "$tmp/want" "$tmp/out"; then
	echo "ok $n - a good file makes the enum and the table rows"
else
	echo "not ok $n - a good file makes the enum and the table rows"
	diff "$tmp/want" "$tmp/out" | sed 's/^/# /'
fi
echo "1..$n"
