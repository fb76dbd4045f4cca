#!/bin/bash
# no-bpf-lsm.sh: on a kernel without the bpf LSM (this host's, for one),
# setup, status, teardown and a launch each say so in one line and exit 125.
. "$(dirname "$0")/../integration/lib.sh"

if grep -qw bpf /sys/kernel/security/lsm 2>/dev/null; then
	skip_all "the bpf LSM is active here; this test needs a kernel without it"
fi

for args in setup status teardown "--rx /usr -- true"; do
	# shellcheck disable=SC2086
	out=$("$CORRAL" $args 2>&1)
	rc=$?
	lines=$(printf '%s\n' "$out" | wc -l)
	if [ "$rc" = 125 ] && [ "$lines" = 1 ] && [[ $out == *"bpf LSM"* ]]; then
		ok "corral $args without the bpf LSM: one line, exit 125"
	else
		not_ok "corral $args without the bpf LSM: one line, exit 125" \
			"exit $rc, $lines lines:" "$out"
	fi
done
done_testing
