#!/bin/bash
# landlock-engine.sh: the enforce, differential and network-differential
# suites again, with corral forced onto its Landlock engine.  Runs on the host (whose kernel
# refuses BPF-LSM but has Landlock) and in the guest.
here=$(cd "$(dirname "$0")" && pwd)
export CORRAL_ARGS=--engine=landlock
status=0
for suite in enforce differential network-differential; do
	bash "$here/$suite.sh" 2>&1 | awk -v prefix="landlock/$suite" \
		-f "$here/tap-merge"
	[ "${PIPESTATUS[0]}" = 0 ] || status=1
done
exit "$status"
