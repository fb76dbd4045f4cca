#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# lengths.sh (TAP): no C source or header of the repository and no shell
# script is over 800 lines or has a function over 80: past that a file
# holds more than one concern, a function more than one step, and review
# misses what they hide.  One `not ok` names each file and each function
# over the limit, with its length.
#
# What is measured:
#  - a file: its lines (wc -l);
#  - a C function: from its `{` alone at column 0 to its `}` at column 0,
#    the `}`'s line number minus the `{`'s (kernel style puts both there);
#  - a shell function: from `name() {` (or `name()` then `{`) at column 0
#    to the next `}` at column 0, counted the same way.
# The files: the committed ones (git ls-files) in a git checkout, else
# those under $srcdir (a release tarball).  C is *.c and *.h (bpf/*.bpf.c
# too); shell is *.sh and any file whose #! line runs a shell
# (tests/vm/*, tests/bench/run, .ci/run, debian/postinst ...).  What the
# build generates is not ours to shorten: vmlinux.h, *.skel.h,
# seccomp_filters.h, config.h, configure and config.status, automake's
# build-aux/, a `make dist` tree and debhelper's debian/ trees are skipped.
set -u
srcdir=${CORRAL_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
max_file=800
max_func=80
n=0

ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# list_sources DIR: the files of DIR to measure, relative to DIR, one a line
list_sources() {
	# a checkout of its own, not a tarball unpacked in another's tree
	if [ "$(git -C "$1" rev-parse --show-toplevel 2>/dev/null)" = \
	     "$(cd "$1" && pwd -P)" ]; then
		git -C "$1" ls-files
	else
		(cd "$1" && find . \( -name .git -o -name autom4te.cache \
			-o -name build-aux -o -name .deps -o -name 'corral-[0-9]*' \
			-o -path ./debian/corral -o -path ./debian/.debhelper \) \
			-prune -o -type f -print | sed 's|^\./||' | sort)
	fi | grep -v -e '^build-aux/' -e '\(^\|/\)vmlinux\.h$' \
		-e '\.skel\.h$' -e '\(^\|/\)seccomp_filters\.h$' \
		-e '\(^\|/\)config\.h$' -e '^configure~\?$' -e '^config\.status$'
}

# classify DIR: "KIND FILE" for each of DIR's sources to measure, KIND
# being c or sh
classify() {
	list_sources "$1" | while IFS= read -r f; do
		case $f in
		*.c | *.h) echo "c $f" ;;
		*.sh) echo "sh $f" ;;
		*)
			head -n1 "$1/$f" 2>/dev/null |
				grep -Eq '^#!.*(/|env |busybox )(ba|da|k|z)?sh([[:space:]]|$)' &&
				echo "sh $f"
			;;
		esac
	done
}

# check_lengths DIR: one line per excess among DIR's sources, in the form
# "FILE: N lines, over 800" or "FILE:LINE: NAME() is N lines, over 80"
# (a BPF program: "BPF_PROG(NAME) is ...")
check_lengths() {
	classify "$1" | while read -r k f; do
		[ -f "$1/$f" ] || continue	# deleted, not yet committed
		lines=$(wc -l <"$1/$f")
		[ "$lines" -gt "$max_file" ] &&
			echo "$f: $lines lines, over $max_file"
		awk -v kind="$k" -v max="$max_func" -v file="$f" '
		# C: the name is the identifier before the first "(" of the
		# last column-0 declaration line; a macro wrapper such as
		# BPF_PROG(name, ...) is named with its first argument.
		kind == "c" && /^[A-Za-z_][^;]*[A-Za-z0-9_][ \t]*\(/ {
			s = $0
			sub(/[ \t]*\(.*/, "", s)
			sub(/.*[^A-Za-z0-9_]/, "", s)
			name = s "()"
			if (s ~ /^[A-Z0-9_]+$/) {
				a = $0
				sub(/^[^(]*\([ \t]*/, "", a)
				sub(/[^A-Za-z0-9_].*/, "", a)
				name = s "(" a ")"
			}
		}
		kind == "c" && /^\{[ \t]*$/ { start = FNR }
		kind == "sh" && /^[A-Za-z_][A-Za-z0-9_]*[ \t]*\(\)[ \t]*(\{[ \t]*(#.*)?)?$/ {
			name = $0
			sub(/[ \t]*\(.*/, "()", name)
			if ($0 ~ /\{/)
				start = FNR
			else
				pending = 1
			next
		}
		kind == "sh" && pending && /^\{[ \t]*$/ { start = FNR }
		{ pending = 0 }
		/^\}/ && start {
			if (FNR - start > max)
				printf "%s:%d: %s is %d lines, over %d\n",
					file, start, name, FNR - start, max
			start = 0
		}' "$1/$f"
	done
}

# ---- 1. the check fails where it must, and only there ------------------
# A C file and a shell script, each with a function one line over the
# limit and one at it; the C file one line over the file limit, the
# script at it.
selftest=$tmp/selftest
mkdir "$selftest"
# body N: N-1 lines of statements, so that "}" comes N lines after "{"
body() { i=1; while [ "$i" -lt "$1" ]; do echo "	x++;"; i=$((i + 1)); done; }
# pad FILE N LINE: append LINE to FILE until it has N lines
pad() { while [ "$(wc -l <"$1")" -lt "$2" ]; do echo "$3" >>"$1"; done; }
{
	echo "static int x;"
	echo "static void too_long(void)"; echo "{"; body 81; echo "}"
	echo "int at_limit(int a,"; echo "	       int b)"; echo "{"; body 80; echo "}"
} >"$selftest/long.c"
pad "$selftest/long.c" $((max_file + 1)) "/* filler */"
{
	echo "#!/bin/sh"
	echo "too_long() {"; body 81; echo "}"
	echo "at_limit()"; echo "{"; body 80; echo "}"
	echo "short() { echo one line; }"
} >"$selftest/script"
pad "$selftest/script" "$max_file" "# filler"
check_lengths "$selftest" >"$tmp/selftest.out"
cat >"$tmp/selftest.want" <<EOF
long.c: 801 lines, over $max_file
long.c:3: too_long() is 81 lines, over $max_func
script:2: too_long() is 81 lines, over $max_func
EOF
if cmp -s "$tmp/selftest.out" "$tmp/selftest.want"; then
	ok "the check reports an 801-line file and 81-line C and shell functions, and not an 800-line file or 80-line functions"
else
	not_ok "the check reports an 801-line file and 81-line C and shell functions, and not an 800-line file or 80-line functions"
	diff "$tmp/selftest.want" "$tmp/selftest.out" | sed 's/^/# /'
fi

# ---- 2. the repository --------------------------------------------------
count=$(classify "$srcdir" | wc -l)
if [ "$count" -gt 0 ]; then
	ok "found $count C sources and shell scripts in $srcdir"
else
	not_ok "found C sources and shell scripts in $srcdir"
fi
check_lengths "$srcdir" >"$tmp/repo.out"
if [ -s "$tmp/repo.out" ]; then
	while IFS= read -r line; do
		not_ok "$line"
	done <"$tmp/repo.out"
else
	ok "no file over $max_file lines, no function over $max_func"
fi
echo "1..$n"
