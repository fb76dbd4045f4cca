#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# gen-ops.sh enum|table FILE.ops: C made from a guest helper's op list,
# so that an op is written down once (the way the kernel makes its
# syscall table from syscall_64.tbl).  FILE.ops has one op a line,
#
#   NAME NARGS FUNCTION KIND
#
# and '#' comments.  enum prints, for each FUNCTION in the order it first
# appears, `enum { OP_KIND, ... };` of its KINDs in the order they first
# appear (so each counts from 0; a KIND on two lines is one constant);
# a KIND of - (a function that tells no operations apart) makes none.
# table prints the rows `{ "NAME", NARGS, FUNCTION, OP_KIND },` (0 for -)
# of the helper's `static const struct op ops[]` (oplist.h), in order.
# A line that is not four columns, a NARGS that is not a number or a NAME
# seen before stops it: one message, FILE:LINE, and exit status 1.
set -eu
case ${1-}:$# in
enum:2 | table:2) ;;
*)
	echo "usage: gen-ops.sh enum|table FILE.ops" >&2
	exit 2
	;;
esac
exec awk -v mode="$1" -v file="$2" '
function fail(msg) {
	printf "%s:%d: %s\n", file, FNR, msg >"/dev/stderr"
	failed = 1
	exit 1
}
/^[ \t]*(#|$)/ { next }
NF != 4 { fail(NF " columns, not NAME NARGS FUNCTION KIND") }
$2 !~ /^[0-9]+$/ { fail("NARGS \"" $2 "\" is not a number") }
$1 in line { fail("\"" $1 "\" again, first on line " line[$1]) }
{
	line[$1] = FNR
	row[++rows] = sprintf("\t{ \"%s\", %s, %s, %s },", $1, $2, $3,
			      $4 == "-" ? 0 : "OP_" $4)
	if ($4 == "-" || ($3, $4) in seen)
		next
	seen[$3, $4] = 1
	if ($3 in kinds) {
		kinds[$3] = kinds[$3] ", OP_" $4
	} else {
		fn[++fns] = $3
		kinds[$3] = "OP_" $4
	}
}
END {
	if (failed)
		exit 1
	name = file
	sub(/.*\//, "", name)
	printf "/* made from %s by gen-ops.sh: edit that file */\n", name
	if (mode == "table")
		for (i = 1; i <= rows; i++)
			print row[i]
	else
		for (i = 1; i <= fns; i++)
			printf "enum { %s };\t/* %s */\n", kinds[fn[i]], fn[i]
}' "$2"
