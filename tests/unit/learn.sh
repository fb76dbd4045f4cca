#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# learn.sh: `corral learn` with a command that is not there writes
# nothing: exit 127, one line naming the command, and no output file
# (not even an empty one); an output file already there is left as it
# was.  Decided by the parser before any engine is chosen, so it holds
# on a host without the bpf engine too.  What a learned profile holds
# (and `corral check` on it) is in test-learn.c; a real run needs the
# bpf engine (tests/integration/observe.sh).
#
#   T/home/         HOME
#   T/home/proj/    where corral is run
. "$(dirname "$0")/../integration/lib.sh"

[ -x "$CORRAL" ] || { echo "Bail out! CORRAL=$CORRAL is not built"; exit 1; }
make_tmp T learn || skip_all "cannot make a temp dir"
H=$T/home
mkdir -p "$H/proj" || exit 1

# missing NAME OUT COMMAND...: learn -o OUT -- COMMAND exits 127 with
# "corral: COMMAND: command not found; nothing was run or learned", and
# OUT is as it was before (BEFORE: absent, or its text)
missing() {
	local name=$1 out=$2 before err rc after
	shift 2
	before=$( [ -e "$out" ] && cat "$out" || echo "(absent)")
	err=$(cd "$H/proj" && HOME=$H PATH=/usr/bin:/bin CORRAL_QUIET=1 \
		"$CORRAL" learn -o "$out" -- "$@" 2>&1 </dev/null)
	rc=$?
	after=$( [ -e "$out" ] && cat "$out" || echo "(absent)")
	if [ "$rc" -eq 127 ] && [ "$after" == "$before" ] &&
	   [ "$err" == "corral: $1: command not found; nothing was run or learned" ]; then
		ok "$name"
	else
		not_ok "$name" "corral learn -o $out -- $*" \
			"expected: exit 127, $out unchanged ($before)" \
			"got: exit $rc, $out: $after" "stderr: $err"
	fi
}

missing "a name not in PATH: 127, no file" "$T/a.profile" no-such-command-corral
missing "a path that does not exist: 127, no file" "$T/b.profile" ./no-such-script
missing "an absolute path that does not exist: 127, no file" "$T/c.profile" \
	/nonexistent/corral/cmd
missing "with arguments starting with '-': 127, no file" "$T/d.profile" \
	no-such-command-corral -v --x
echo "kept" >"$T/e.profile"
missing "an output file already there is left as it was" "$T/e.profile" \
	no-such-command-corral

done_testing
