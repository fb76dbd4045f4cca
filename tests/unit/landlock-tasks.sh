#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# landlock-tasks.sh: what the Landlock engine cannot scope outside the
# network, refused by corral's seccomp filter where an argument decides
# (issue 35, point 4): another process's rlimits (prlimit with a new
# limit), nice value (setpriority, PRIO_USER and PRIO_PGRP included), I/O
# priority, CPU affinity and scheduling are EPERM, the bpf engine's
# answer; the sandbox's own (pid 0) stay allowed (SysV IPC:
# landlock-ipc.sh).  A victim outside (sleep) is the target; the same
# calls on it from outside succeed (the control).
. "$(dirname "$0")/../integration/lib.sh"

[ -x "$CORRAL" ] || { echo "Bail out! CORRAL=$CORRAL is not built"; exit 1; }
ESC=$CORRAL_HELPERS/escape
[ -x "$ESC" ] || skip_all "the escape helper is not built in $CORRAL_HELPERS"
[ "$(landlock_abi)" -ge 1 ] || skip_all "Landlock is not available"
make_tmp T tasks || skip_all "cannot make a temp dir"   # sets the EXIT trap
sleep 600 &
V=$!
kill_at_exit "$V"

# case NAME WHERE OPS RESULTS: the escape helper's OPS ('+' between)
# outside (WHERE -) or under corral --engine=landlock print RESULTS
case_() {
	local name=$1 where=$2 ops=$3 want out
	local -a opv
	probe_lines_v want "$ops" $4
	read -ra opv <<<"$ops"
	if [ "$where" = - ]; then
		out=$("$ESC" "${opv[@]}" 2>&1)
	else
		out=$("$CORRAL" -q --engine=landlock --rx "$CORRAL_HELPERS" -- \
			"$ESC" "${opv[@]}" 2>&1)
	fi
	is "$out" "$want" "$name"
}

others="prlimit $V + renice $V + ioprio $V + affinity $V + scheduler $V"
own="prlimit 0 + renice 0 + ioprio 0 + affinity 0 + scheduler 0"
while read -r name && read -r where && read -r ops && read -r want; do
	case_ "$name" "$where" "$ops" "$want"
	read -r || break
done <<EOF
outside: another process's limits, nice, I/O priority, affinity and scheduling can be set (the control)
-
$others
OK OK OK OK OK

inside: each is EPERM
landlock
$others
EPERM EPERM EPERM EPERM EPERM

inside: setpriority(PRIO_USER) is EPERM
landlock
renice-user 0
EPERM

inside: the sandbox's own can still be set
landlock
$own
OK OK OK OK OK
EOF

done_testing
