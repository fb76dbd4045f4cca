#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# landlock-ipc.sh: SysV IPC on the Landlock engine (issue 35, point 4).
# Landlock cannot tell the sandbox's own shared memory, message queues and
# semaphores from another process's, so corral's seccomp filter refuses
# every SysV IPC call there (EPERM) unless a profile says sysv-ipc = yes,
# which lets IPC through unscoped and says so on the launch line.
#
#   - outside: the escape helper attaches to, sends to and operates on
#     objects made outside (the control; without it nothing is proved)
#   - inside, no key: the same, IPC_RMID and its own objects are EPERM,
#     and the outside objects are still there afterwards (--ro /: what
#     the file rules allow does not matter)
#   - inside, sysv-ipc = yes: all of it works
#   - the launch line names "SysV IPC unscoped" with the key only, and
#     --print-profile prints the key back
#
#   T/ipc.profile   [sandbox] sysv-ipc = yes
. "$(dirname "$0")/../integration/lib.sh"

[ -x "$CORRAL" ] || { echo "Bail out! CORRAL=$CORRAL is not built"; exit 1; }
ESC=$CORRAL_HELPERS/escape
[ -x "$ESC" ] || skip_all "the escape helper is not built in $CORRAL_HELPERS"
ABI=$(landlock_abi)
[ "$ABI" -ge 1 ] || skip_all "Landlock is not available"
make_tmp T ipc || skip_all "cannot make a temp dir"
printf '[sandbox]\nsysv-ipc = yes\n' >"$T/ipc.profile" &&
	chmod 644 "$T/ipc.profile" || skip_all "cannot write $T/ipc.profile"

# The outside objects: one of each, mode 0600, removed at exit
out=$("$ESC" ipc-make 2>&1)
[[ $out =~ shm=([0-9]+)\ msg=([0-9]+)\ sem=([0-9]+) ]] ||
	skip_all "cannot make SysV IPC objects outside a sandbox: $out"
SHM=${BASH_REMATCH[1]} MSG=${BASH_REMATCH[2]} SEM=${BASH_REMATCH[3]}
trap 'ipcrm -m "$SHM" -q "$MSG" -s "$SEM" 2>/dev/null; cleanup_tmp' EXIT

# case NAME ARGS OPS RESULTS: the escape helper's OPS ('+' between)
# outside (ARGS -) or under corral -q --engine=landlock ARGS print RESULTS
case_() {
	local name=$1 args=$2 ops=$3 want out
	local -a opv argv
	probe_lines_v want "$ops" $4
	read -ra opv <<<"$ops"
	if [ "$args" = - ]; then
		out=$("$ESC" "${opv[@]}" 2>&1)
	else
		read -ra argv <<<"$args"
		out=$("$CORRAL" -q --engine=landlock --rx "$CORRAL_HELPERS" \
			"${argv[@]}" -- "$ESC" "${opv[@]}" 2>&1)
	fi
	is "$out" "$want" "$name"
}

others="shm-attach $SHM + msg-send $MSG + sem-op $SEM"
key="--profile $T/ipc.profile"    # split by case_; keyv for the rest
keyv=(--profile "$T/ipc.profile")
while read -r name && read -r args && read -r ops && read -r want; do
	case_ "$name" "$args" "$ops" "$want"
	read -r || break
done <<EOF
outside: another process's shared memory, message queue and semaphores can be used (the control)
-
$others
OK OK OK

outside: own objects can be made, used and removed (the control)
-
ipc-own
OK

inside, no sysv-ipc: another process's are EPERM, IPC_RMID too
--ro /
$others + shm-rmid $SHM
EPERM EPERM EPERM EPERM

inside, no sysv-ipc: its own cannot be made either (EPERM)
--ro /
ipc-own
EPERM

outside: the objects are still there after the refused IPC_RMID
-
$others
OK OK OK

inside, sysv-ipc = yes: another process's can be used (unscoped)
$key
$others
OK OK OK

inside, sysv-ipc = yes: its own can be made, used and removed
$key
ipc-own
OK
EOF

# ---- the launch line and --print-profile --------------------------------
# launch_line NAME WANT ARGS...: corral ARGS -- escape ipc-own prints
# WANT on stderr
launch_line() {
	local name=$1 want=$2 err
	shift 2
	err=$("$CORRAL" "$@" --rx "$CORRAL_HELPERS" -- "$ESC" ipc-own \
		2>&1 >/dev/null)
	is "$err" "$want" "$name"
}

left="see 'corral status'"
launch_line "--engine=landlock, no sysv-ipc: no line" "" --engine=landlock
launch_line "--engine=landlock, sysv-ipc = yes: SysV IPC unscoped, it says" \
	"corral: Landlock ABI $ABI: SysV IPC unscoped; $left" \
	--engine=landlock "${keyv[@]}"
launch_line "-q: no line, sysv-ipc = yes or not" "" -q --engine=landlock \
	"${keyv[@]}"
if "$CORRAL" status 2>/dev/null | grep -q '^engine: bpf'; then
	skip "the fallback line under sysv-ipc = yes" "the bpf engine runs here"
else
	err=$("$CORRAL" "${keyv[@]}" --rx "$CORRAL_HELPERS" -- "$ESC" ipc-own 2>&1 \
		>/dev/null)
	[[ $err == "corral: using Landlock ABI $ABI, not bpf ("*", SysV IPC unscoped; $left" ]] &&
		ok "the fallback line under sysv-ipc = yes names SysV IPC unscoped" ||
		not_ok "the fallback line under sysv-ipc = yes names SysV IPC unscoped" "$err"
	err=$("$CORRAL" --rx "$CORRAL_HELPERS" -- "$ESC" ipc-own 2>&1 >/dev/null)
	[[ $err == "corral: using Landlock ABI $ABI, not bpf ("*"; $left" &&
		$err != *"SysV"* ]] &&
		ok "the fallback line without sysv-ipc does not" ||
		not_ok "the fallback line without sysv-ipc does not" "$err"
fi
got=$("$CORRAL" --print-profile "${keyv[@]}" 2>&1 | grep '^sysv-ipc' | tr -s ' ')
is "$got" "sysv-ipc = yes ; $T/ipc.profile:2" \
	"--print-profile prints sysv-ipc = yes back, with where it was set"

done_testing
