#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# man.sh (TAP): the man pages render without warnings, corral(1) names
# every long option and subcommand of sandbox/cli.c, and every command of
# corral(1)'s EXAMPLES runs on this host with the status it should have.
#
# A new example must run here and exit 0, or be listed in expect() below
# with the status it has by design or the reason it is skipped.
set -u
srcdir=${CORRAL_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
corral=${CORRAL:-$srcdir/corral}
man1=$srcdir/man/corral.1
pages="$srcdir/man/corral.1 $srcdir/man/corral.profile.5 $srcdir/man/corral-setup.8"
n=0
fail=0

ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); fail=1; echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

if ! command -v man >/dev/null 2>&1; then
	echo "1..1"
	echo "ok 1 - man pages # SKIP man(1) is not installed (apt-get install man-db groff-base)"
	exit 0
fi

# ---- 1. each page renders at 80 columns without a warning -------------------
for page in $pages; do
	name=${page##*/}
	if LC_ALL=C MANWIDTH=80 man --warnings -l "$page" >"$tmp/out" 2>"$tmp/err" &&
	   ! [ -s "$tmp/err" ] && [ -s "$tmp/out" ]; then
		ok "$name renders without warnings"
	else
		not_ok "$name renders without warnings"
		sed 's/^/# /' "$tmp/err"
	fi
done

# ---- 2. corral(1) cannot drift from cli.c ---------------------------------
# Long options: the '{ "name", ..._argument' lines of long_options[].
options=$(sed -n 's/^[[:space:]]*{ "\([a-z-]*\)",[[:space:]]*[a-z_]*_argument.*/\1/p' \
	"$srcdir/sandbox/cli.c")
if [ -z "$options" ]; then
	not_ok "found the long options in sandbox/cli.c"
fi
missing=
for opt in $options; do
	esc=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
	grep -q -- "\\\\-\\\\-$esc" "$man1" || missing="$missing --$opt"
done
if [ -z "$missing" ]; then
	ok "corral.1 documents every long option of cli.c ($(echo $options | wc -w))"
else
	not_ok "corral.1 documents every long option of cli.c; missing:$missing"
fi
subcommands=$(sed -n 's/^[[:space:]]*{ "\([a-z]*\)",[[:space:]]*CORRAL_CMD_.*/\1/p' \
	"$srcdir/sandbox/cli.c")
missing=
for sub in $subcommands; do
	grep -Eq "^\\.(B|BI|BR|TP) \"?$sub\\b" "$man1" || missing="$missing $sub"
done
if [ -n "$subcommands" ] && [ -z "$missing" ]; then
	ok "corral.1 documents every subcommand of cli.c ($(echo $subcommands | wc -w))"
else
	not_ok "corral.1 documents every subcommand of cli.c; missing:$missing"
fi
if grep -q '^\.SH "*EXIT STATUS' "$man1" &&
   grep -q '^\.B 125$' "$man1" && grep -q '^\.B 126$' "$man1" &&
   grep -q '^\.B 127$' "$man1" && grep -q 'CORRAL_PROFILE_PATH' "$man1"; then
	ok "corral.1 has EXIT STATUS 125/126/127 and CORRAL_PROFILE_PATH"
else
	not_ok "corral.1 has EXIT STATUS 125/126/127 and CORRAL_PROFILE_PATH"
fi

# ---- 3. the EXAMPLES run ---------------------------------------------------
bpf_lsm=no
grep -qw bpf /sys/kernel/security/lsm 2>/dev/null && bpf_lsm=yes

# expect COMMAND: sets $want (an exit status) or $why (a skip reason).
expect() {
	want=0 why=
	case $1 in
	*"cat /etc/shadow")
		want=1 ;;   # documented: cat is denied and exits 1
	"ln -s /usr/bin/corral ~/bin/npm")
		why="changes the user's ~/bin" ;;
	"sudo corral setup")
		why="loads BPF programs as root (tests/integration/admin.sh does, in the guest)" ;;
	"corral --log "*|"corral learn "*)
		why="needs the bpf engine set up and a Makefile (tests/integration/observe.sh covers both in the guest)" ;;
	esac
}

mkdir -p "$tmp/bin" "$tmp/work"
ln -s "$corral" "$tmp/bin/corral"
examples=$(LC_ALL=C MANWIDTH=250 man -l "$man1" 2>/dev/null |
	sed -n '/^EXAMPLES/,/^SEE ALSO/p' | sed -n 's/^[[:space:]]*\$ //p')
if [ -z "$examples" ]; then
	not_ok "found commands in corral.1's EXAMPLES"
fi
# Run them in order in one directory: later ones use what earlier made.
printf '%s\n' "$examples" >"$tmp/examples"
while IFS= read -r cmd; do
	expect "$cmd"
	if [ -n "$why" ]; then
		skip "example: $cmd" "$why"
		continue
	fi
	(cd "$tmp/work" &&
	 PATH="$tmp/bin:$PATH" CORRAL_PROFILE_PATH="$srcdir/profiles" \
		sh -c "$cmd" </dev/null >"$tmp/out" 2>"$tmp/err")
	got=$?
	if [ "$got" = "$want" ]; then
		ok "example: $cmd (exit $got)"
	else
		not_ok "example: $cmd: exit $got, expected $want"
		sed 's/^/# /' "$tmp/err" "$tmp/out" | head -20
	fi
done <"$tmp/examples"

echo "1..$n"
exit $fail
