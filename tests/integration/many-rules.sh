#!/bin/bash
# many-rules.sh: large profiles with the bpf engine (in-guest.sh ran
# setup): a profile of 1,000 rules launches and each rule is enforced,
# the first and the last message's; past 4,096, one line names the
# limit; 'corral check' refuses what the launch refuses, in its words.
. "$(dirname "$0")/lib.sh"
need_helpers
[ -e /sys/fs/bpf/corral/info ] || skip_all "corral is not set up in this guest"

make_tmp work many-rules
cd "$work" || exit 1

# profile N: N rules on directories holding a file f (1,000 of them)
profile() {
	local i
	echo '[filesystem]'
	for ((i = 0; i < $1; i++)); do
		echo "ro = $work/d/$((i % 1000))"
	done
}
mkdir -p d
for ((i = 0; i < 1000; i++)); do mkdir "d/$i" && echo "$i" >"d/$i/f"; done
mkdir d/outside && echo no >d/outside/f
profile 1000 >p1000.profile

out=$("$CORRAL" --engine=bpf --rx "$CORRAL_HELPERS" --profile ./p1000.profile -- \
	"$PROBE" read "$work/d/0/f" + read "$work/d/249/f" + read "$work/d/250/f" \
	+ read "$work/d/999/f" + read "$work/d/outside/f" 2>&1)
is "$?:$out" "0:read $work/d/0/f: OK
read $work/d/249/f: OK
read $work/d/250/f: OK
read $work/d/999/f: OK
read $work/d/outside/f: EACCES" \
	"bpf, 1,000 rules: the first, the 250th, the 251st and the last rule each allow; outside is EACCES"

profile 5001 >p5001.profile
# (as root, a hard open-files limit above 4096 + 64, so that corral's own
# limit is the one reached, not the guest's default 4096: see
# tests/unit/check-refusals.sh for that one)
out=$(ulimit -n 8192 && "$CORRAL" --engine=bpf --rx "$CORRAL_HELPERS" --profile ./p5001.profile -- \
	"$PROBE" read "$work/d/0/f" 2>&1)
rc=$?
[ "$rc" = 125 ] && [ "$(grep -c . <<<"$out")" = 1 ] &&
	[[ $out == *"more than 4096 rules"*"corral's limit for one sandbox"* ]] &&
	ok "bpf, 5,001 rules: one line naming the limit of 4096, exit 125" ||
	not_ok "bpf, 5,001 rules: one line naming the limit of 4096, exit 125" "exit $rc:" "$out"

{ profile 3; echo "ro = $work/nosuch"; } >missing.profile
run=$("$CORRAL" --engine=bpf --profile ./missing.profile -- true 2>&1)
run_rc=$?
check=$("$CORRAL" check ./missing.profile 2>&1)
check_rc=$?
[ "$run_rc" = 125 ] && [[ $run == *"nosuch: No such file or directory"* ]] &&
	[ "$check_rc:$check" = "125:$run" ] &&
	ok "a missing path: check and the launch both refuse it, in the same words" ||
	not_ok "a missing path: check and the launch both refuse it, in the same words" \
		"launch, exit $run_rc: $run" "check, exit $check_rc: $check"
done_testing
