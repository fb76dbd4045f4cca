#!/bin/bash
# in-guest.sh: the guest half of `make check`, run by tests/vm/guest-suite
# inside one guest boot: set corral up, then run every guest suite and fold
# their TAP into one stream tagged with the kernel version.
set -u
here=$(cd "$(dirname "$0")" && pwd)
kernel=$(uname -r | cut -d- -f1)

if ! setup_out=$("${CORRAL:-corral}" setup 2>&1); then
	echo "not ok - [$kernel] corral setup: $setup_out"
	exit 1
fi
echo "# $setup_out"
echo "# landlock ABI: $("${CORRAL_HELPERS:?}/ll-exec" --abi 2>&1)"

# The suites compare what a sandboxed command prints; the line a bpf
# launch prints at its end when accesses were refused (issue 35 point 7)
# and the Landlock warnings are the business of the cases that test them,
# which set CORRAL_QUIET=0.
export CORRAL_QUIET=1

status=0
# run_suite TAG SUITE: SUITE's TAP, tagged [kernel/TAG], into the stream
run_suite() {
	bash "$here/$2.sh" 2>&1 | awk -v prefix="$kernel/$1" -f "$here/tap-merge"
	rc=${PIPESTATUS[0]}
	if [ "$rc" -ne 0 ]; then
		echo "# $1.sh exited with status $rc"
		status=1
	fi
}
for suite in ${CORRAL_GUEST_SUITES:-admin enforce differential marks lifecycle profiles installed observe many-rules nesting landlock-engine escape escape-recent deny shared-tables network network-differential network-escape}; do
	run_suite "$suite" "$suite"
done

# The task-storage walk (task_dom_unlocked in bpf/maps.h) is the rare
# path on 6.1 and never taken on 6.2+: run the suites that reach every
# kind of hook once more, with every lookup forced through it, and with
# marks keyed by inode address alone (bpf/marks.h), so that marks.sh's
# recycled-inode test checks the free hook, not tmpfs's inode numbers.
walk_suites=${CORRAL_WALK_SUITES-enforce marks lifecycle}
[ -n "${CORRAL_GUEST_SUITES:-}" ] && walk_suites=${CORRAL_WALK_SUITES:-}
if [ -n "$walk_suites" ]; then
	"${CORRAL:-corral}" teardown --force >/dev/null 2>&1
	export CORRAL_TEST_MARK_ADDRESS_ONLY=1
	if out=$(CORRAL_TEST_TASK_STORAGE_WALK=1 "${CORRAL:-corral}" setup 2>&1); then
		for suite in $walk_suites; do
			MARKS_STRESS_SECONDS=5 run_suite "walk/$suite" "$suite"
		done
	else
		echo "not ok - [$kernel/walk] corral setup with CORRAL_TEST_TASK_STORAGE_WALK=1 CORRAL_TEST_MARK_ADDRESS_ONLY=1: $out"
		status=1
	fi
fi
exit "$status"
