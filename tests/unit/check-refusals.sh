#!/bin/bash
# check-refusals.sh: large and refused profiles on the host (Landlock engine).
#
#   - 'corral check FILE' refuses what a launch with the profile refuses,
#     with the same lines on stderr and the same exit status (125): a
#     missing path, directory rights on a file, too many rules, too many
#     variables to unset; and says "FILE: ok" where the launch runs
#   - a profile of 1,000 rules launches (the rule fds cross from the
#     parser to the launcher in several SCM_RIGHTS messages), also under a
#     soft open-files limit below 1,000, and the command gets that limit
#   - past 4,096 rules, or past what the hard open-files limit leaves room
#     for, one line names the limit
#
# Environment: CORRAL, CORRAL_HELPERS (see Makefile.am).
. "$(dirname "$0")/../integration/lib.sh"

[ "$("$CORRAL_HELPERS/ll-exec" --abi 2>/dev/null || echo 0)" -gt 0 ] ||
	skip_all "Landlock is not enabled on this kernel"
make_tmp T check-refusals || skip_all "cannot make a temp dir"
cd "$T" || exit 1
mkdir -p data && echo hello >data/f

# rules N: N rules on directories that exist, data/ among them
rules() {
	local i
	echo 'rx = /usr'
	echo 'rx = -/lib'
	echo 'rx = -/lib64'
	echo 'rx = -/bin'
	echo "ro = $T/data"
	for ((i = 5; i < $1; i++)); do
		mkdir -p "$T/many/d$i"
		echo "ro = $T/many/d$i"
	done
}

# The cases: name | profile body (a command's output) | exit status of
# both | a word of the refusal ("" when both succeed)
cases=(
	"a missing path|echo 'ro = $T/nosuch'; rules 5|125|No such file or directory"
	"two missing paths, both said|echo 'ro = $T/nosuch1'; echo 'ro = $T/nosuch2'; rules 5|125|nosuch1.*nosuch2"
	"an optional missing path|echo 'ro = -$T/nosuch'; rules 5|0|"
	"directory rights on a file|echo 'readdir,create = $T/data/f'; rules 5|125|directory rights"
	"1,000 rules|rules 1000|0|"
	"4,097 rules|rules 4097|125|more than 4096 rules"
	"65 variables to unset|rules 5; echo '[environment]'; for i in \$(seq 65); do echo \"unset = V\$i\"; done|125|more than 64 variables"
)

for c in "${cases[@]}"; do
	IFS='|' read -r name body want word <<<"$c"
	{
		echo '[filesystem]'
		eval "$body"
	} >p.profile
	check_out=$("$CORRAL" check ./p.profile 2>check.err)
	check_rc=$?
	run_out=$("$CORRAL" --engine=landlock -q --profile ./p.profile -- cat data/f 2>run.err)
	run_rc=$?
	if [ -z "$word" ]; then
		[ "$check_rc:$check_out" = "0:./p.profile: ok" ] && [ ! -s check.err ] &&
			ok "$name: check says ok" ||
			not_ok "$name: check says ok" "exit $check_rc: $check_out" "$(cat check.err)"
		[ "$run_rc:$run_out" = "0:hello" ] && [ ! -s run.err ] &&
			ok "$name: the launch runs the command" ||
			not_ok "$name: the launch runs the command" "exit $run_rc: $run_out" "$(cat run.err)"
		continue
	fi
	[ "$run_rc" = "$want" ] && [[ $(tr '\n' ' ' <run.err) =~ $word ]] &&
		ok "$name: the launch refuses it (exit $want, '$word')" ||
		not_ok "$name: the launch refuses it (exit $want, '$word')" \
			"exit $run_rc:" "$(cat run.err)"
	[ "$check_rc" = "$want" ] && [ -z "$check_out" ] &&
		ok "$name: check refuses it too (exit $want, no 'ok')" ||
		not_ok "$name: check refuses it too (exit $want, no 'ok')" \
			"exit $check_rc: $check_out" "$(cat check.err)"
	is "$(cat check.err)" "$(cat run.err)" "$name: check's lines are the launch's"
done

# The launcher raises its soft open-files limit for the rule fds, and
# gives the command the limit it came with.
rules 1000 | sed '1i [filesystem]' >p.profile
out=$(ulimit -Sn 256 && "$CORRAL" --engine=landlock -q --profile ./p.profile -- \
	sh -c 'cat data/f; ulimit -Sn' 2>&1)
is "$?:$out" "0:hello"$'\n'"256" \
	"1,000 rules under a soft limit of 256 open files: runs, and the command gets 256"

# A hard limit below the rules: one line naming the limit, check alike.
out=$(ulimit -n 512 && "$CORRAL" --engine=landlock -q --profile ./p.profile -- cat data/f 2>&1)
rc=$?
[ "$rc" = 125 ] && [ "$(grep -c . <<<"$out")" = 1 ] &&
	[[ $out == *"more than 448 rules"*"ulimit -Hn"* ]] &&
	ok "1,000 rules under a hard limit of 512 open files: one line naming the limit" ||
	not_ok "1,000 rules under a hard limit of 512 open files: one line naming the limit" \
		"exit $rc:" "$out"
check=$(ulimit -n 512 && "$CORRAL" check ./p.profile 2>&1)
is "$?:$check" "125:$out" "and check says the same"
done_testing
