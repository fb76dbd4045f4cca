#!/bin/bash
# no-bpf-lsm.sh: on a kernel without the bpf LSM (this host's, for one),
# setup, teardown and a launch on --engine=bpf each say so in one line and
# exit 125; status says it too, with the engine launches get instead.
. "$(dirname "$0")/../integration/lib.sh"

if grep -qw bpf /sys/kernel/security/lsm 2>/dev/null; then
	skip_all "the bpf LSM is active here; this test needs a kernel without it"
fi
make_tmp TMP nobpf || skip_all "cannot make a temp dir"

for args in setup teardown "--engine=bpf --rx /usr -- true"; do
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

# As a user, setup and teardown both say root is needed before anything
# else (teardown used to name the bpf LSM only, and unpinning would fail).
if is_root && command -v setpriv >/dev/null; then
	for verb in setup teardown; do
		out=$(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$CORRAL" $verb 2>&1)
		rc=$?
		case $verb in
		setup) what="loading the programs needs root (run it as root, or enable corral-setup.service)" ;;
		teardown) what="unpinning the programs needs root (run it as root)" ;;
		esac
		is "$rc:$out" "125:corral: $verb: $what" \
			"corral $verb as uid 65534: says it needs root"
	done
else
	skip "setup and teardown as uid 65534" "needs root and setpriv"
	skip "setup and teardown as uid 65534" "needs root and setpriv"
fi

out=$("$CORRAL" status 2>&1)
rc=$?
[ "$rc" = 0 ] && [[ $out == "kernel: $(uname -r)"$'\n'"landlock: "* ]] &&
	[[ $out == *"bpf engine: not usable: "*"bpf LSM"* ]] &&
	[[ $out == *$'\n'"engine: Landlock ABI "* || $out == *$'\n'"engine: none"* ]] &&
	ok "corral status without the bpf LSM: names the kernel and its Landlock ABI, says why not bpf, and which engine launches get" ||
	not_ok "corral status without the bpf LSM: names the kernel and its Landlock ABI, says why not bpf, and which engine launches get" \
		"exit $rc:" "$out"

# --engine=auto falls back to Landlock with exactly one warning line, and
# the sandbox holds: /etc/shadow is outside --rx /usr.
if [ "$("$CORRAL_HELPERS/ll-exec" --abi 2>/dev/null || echo 0)" -gt 0 ]; then
	err=$("$CORRAL" --rx /usr -- cat /etc/shadow 2>&1 >/dev/null)
	rc=$?
	warnings=$(printf '%s\n' "$err" | grep -c '^corral: using Landlock ABI')
	denied=$(printf '%s\n' "$err" | grep -c 'shadow: Permission denied')
	if [ "$rc" = 1 ] && [ "$warnings" = 1 ] && [ "$denied" = 1 ]; then
		ok "auto falls back to Landlock: one warning, /etc/shadow denied"
	else
		not_ok "auto falls back to Landlock: one warning, /etc/shadow denied" \
			"exit $rc:" "$err"
	fi
	out=$("$CORRAL" --engine=landlock --rx /usr --ro /etc/hostname -- \
		cat /etc/hostname 2>&1)
	is "$?:$out" "0:$(cat /etc/hostname)" \
		"--engine=landlock allows what the rules allow, without a warning"
else
	skip "Landlock fallback" "Landlock is not enabled on this kernel"
fi
done_testing
