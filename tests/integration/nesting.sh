#!/bin/bash
# nesting.sh: corral inside corral.  The inner launcher has no capability
# (NO_NEW_PRIVS), so its layer is Landlock, stacked on the outer bpf
# domain: the inner can narrow the outer, never widen it.
. "$(dirname "$0")/lib.sh"
need_helpers
[ -e /sys/fs/bpf/corral/info ] || skip_all "corral is not set up in this guest"

make_tmp w nest
mkdir -p "$w/a" "$w/b" && echo a >"$w/a/f" && echo b >"$w/b/f"
outer=(--engine=bpf --rx /usr --rx "$CORRAL_HELPERS" --rx "$(dirname "$CORRAL")")

out=$(CORRAL_QUIET=0 "$CORRAL" "${outer[@]}" --ro "$w/a" -- "$CORRAL" --rw "$w/a" --rw "$w/b" \
	--rx "$CORRAL_HELPERS" -- "$PROBE" write "$w/a/f" + read "$w/b/f" 2>&1)
[[ $out == *"write $w/a/f: EACCES"* && $out == *"read $w/b/f: EACCES"* ]] &&
	ok "an inner corral cannot widen the outer sandbox" ||
	not_ok "an inner corral cannot widen the outer sandbox" "$out"
[[ $out == *"corral: using Landlock ABI"* ]] &&
	ok "the inner layer says it uses Landlock" ||
	not_ok "the inner layer says it uses Landlock" "$out"

out=$("$CORRAL" "${outer[@]}" --ro "$w" -- "$CORRAL" --ro "$w/a" \
	--rx "$CORRAL_HELPERS" -- "$PROBE" read "$w/a/f" + read "$w/b/f" 2>&1)
[[ $out == *"read $w/a/f: OK"* && $out == *"read $w/b/f: EACCES"* ]] &&
	ok "an inner corral narrows the outer sandbox" ||
	not_ok "an inner corral narrows the outer sandbox" "$out"

out=$("$CORRAL" "${outer[@]}" --ro "$w" -- "$CORRAL" --engine=bpf --ro "$w" \
	-- "$PROBE" read "$w/a/f" 2>&1)
rc=$?
[ "$rc" = 125 ] && ok "--engine=bpf inside a sandbox refuses (exit 125)" ||
	not_ok "--engine=bpf inside a sandbox refuses (exit 125)" "exit $rc: $out"
done_testing
