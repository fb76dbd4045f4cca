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

status=0
for suite in ${CORRAL_GUEST_SUITES:-admin enforce differential marks profiles observe nesting landlock-engine escape network network-differential network-escape}; do
	bash "$here/$suite.sh" 2>&1 | awk -v prefix="$kernel/$suite" \
		-f "$here/tap-merge"
	rc=${PIPESTATUS[0]}
	if [ "$rc" -ne 0 ]; then
		echo "# $suite.sh exited with status $rc"
		status=1
	fi
done
exit "$status"
