#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# landlock-net-gaps.sh: no network means none on the Landlock engine too
# (issue 35, point 4).  Landlock judges no UDP below ABI 10 and refuses
# no socket type at any ABI; corral's seccomp filter refuses what it
# cannot judge, with the bpf engine's answer (EACCES):
#
#   - net = none: every IP socket; rules that allow no UDP, below ABI 10:
#     UDP sockets
#   - net = rules or none: ping, SCTP, packet and raw sockets (what the
#     bpf engine's socket_create hook refuses)
#   - and io_uring (EPERM, as kernel.io_uring_disabled), whose socket op
#     no seccomp filter sees
#
# Each case is one netprobe run, outside the sandbox (the control) or
# under `corral --engine=landlock ARGS`; a UDP send also counts the
# datagrams a listener outside received.  Rules Landlock cannot enforce
# (an address; UDP below ABI 10) stop the launch (125, one line naming
# the rule, even with -q) unless --net-best-effort, whose launch line
# names what is left unenforced.  Then `corral explain`, whose second
# line says what the Landlock engine makes of the rules' answer.
#
#   T/p/net.profile   rx on the helpers, no [network]: none by default
. "$(dirname "$0")/../integration/lib.sh"

[ -x "$CORRAL" ] || { echo "Bail out! CORRAL=$CORRAL is not built"; exit 1; }
[ -x "$NETPROBE" ] || skip_all "netprobe is not built in $CORRAL_HELPERS"
ABI=$(landlock_abi)
[ "$ABI" -ge 4 ] || skip_all "Landlock ABI $ABI confines no TCP (4+)"
make_tmp T net-gaps || skip_all "cannot make a temp dir"
mkdir -p "$T/p" || exit 1
printf '[filesystem]\nrx = %s\n' "$CORRAL_HELPERS" >"$T/p/net.profile"

L=127.0.0.1
TCP=$((20000 + $$ % 20000))
UDP=$((TCP + 1))
net_serve "$TCP" || { not_ok "a TCP listener on port $TCP"; done_testing; }
"$NETPROBE" serve-udp "$UDP" >"$T/udp" 2>&1 &
kill_at_exit $!
wait_lines "$T/udp" 1 5 || { not_ok "a UDP listener on $UDP"; done_testing; }

# received: the datagrams the UDP listener got so far
received() {
	local n
	count_lines_v n "$T/udp"
	echo $((n - 1))
}

# probe NAME ARGS OPS WANT [DELIVERED]: netprobe OPS ('+' between them)
# outside (ARGS -) or under corral ARGS prints the results WANT, one a
# word; with DELIVERED, the UDP listener gets that many datagrams
probe() {
	local name=$1 args=$2 ops=$3 want before got out err=
	local -a opv argv
	probe_lines_v want "$ops" $4
	read -ra opv <<<"$ops"
	before=$(received)
	if [ "$args" = - ]; then
		out=$("$NETPROBE" "${opv[@]}" 2>&1)
	else
		read -ra argv <<<"$args"
		out=$(cd "$T" && CORRAL_PROFILE_PATH=$T/p CORRAL_QUIET=1 \
			"$CORRAL" --engine=landlock --rx "$CORRAL_HELPERS" \
			"${argv[@]}" -- "$NETPROBE" "${opv[@]}" 2>&1)
	fi
	if [ -n "${5:-}" ]; then
		nap 0.2
		got=$(($(received) - before))
		out+=$'\n'"delivered: $got"
		want+=$'\n'"delivered: $5"
	fi
	is "$out" "$want" "$name"
	[ "$out" == "$want" ] || diag "corral $args"
}

# ---- what is refused ---------------------------------------------------
# NAME / ARGS (- outside) / OPS ('+' between) / RESULTS, then the
# datagrams the listener must get if one more word; a blank line after
while read -r name && read -r args && read -r ops && read -r want; do
	read -r -a w <<<"$want"
	IFS=+ read -r -a o <<<"$ops"
	delivered=
	if [ "${#w[@]}" -gt "${#o[@]}" ]; then
		delivered=${w[-1]}
		unset 'w[-1]'
	fi
	probe "$name" "$args" "${ops//+/ + }" "${w[*]}" "$delivered"
	read -r || break
done <<EOF
outside: a UDP send reaches the listener (the control)
-
sendto-udp $L $UDP+sendto-udp ::1 $UDP
OK OK 2

--net=all: the same
--net=all
sendto-udp $L $UDP+sendto-udp ::1 $UDP
OK OK 2

--net=none: a UDP send is refused, and nothing arrives
--net=none
sendto-udp $L $UDP+sendto-udp ::1 $UDP
EACCES EACCES 0

a profile without [network] (none by default): the same
--profile net
sendto-udp $L $UDP
EACCES 0

--net=none: UDP connect and bind are refused too
--net=none
connect-udp $L $UDP+bind-udp $L 0
EACCES EACCES

TCP rules alone: a UDP send is refused, the TCP port connects
--connect-tcp $TCP
sendto-udp $L $UDP+connect-tcp $L $TCP
EACCES OK 0

TCP rules with an address, --net-best-effort: the same
--connect-tcp $L:$TCP --net-best-effort
sendto-udp $L $UDP+connect-tcp $L $TCP
EACCES OK 0

outside: io_uring connects (the control)
-
uring-connect $L $TCP
OK

--net=none: ping, SCTP, packet and raw sockets are refused
--net=none
ping+sctp+packet+raw
EACCES EACCES EACCES EACCES

TCP rules: ping, SCTP, packet and raw sockets are refused, io_uring too
--connect-tcp $TCP
ping+sctp+packet+raw+uring-connect $L $TCP
EACCES EACCES EACCES EACCES EPERM

UDP rules, --net-best-effort: ping, SCTP, packet and raw sockets are refused
--connect-udp $UDP --bind-udp 0 --net-best-effort
ping+sctp+packet+raw
EACCES EACCES EACCES EACCES
EOF

# ---- the launch line ---------------------------------------------------
# launch_line NAME WANT ARGS...: corral ARGS -- true prints WANT on stderr
launch_line() {
	local name=$1 want=$2 err
	shift 2
	err=$(cd "$T" && CORRAL_PROFILE_PATH=$T/p "$CORRAL" "$@" -- \
		"$NETPROBE" 2>&1 >/dev/null)
	is "$err" "$want" "$name"
}

left="see 'corral status'"
launch_line "--engine=landlock --net=none: no line, nothing is left" "" \
	--engine=landlock --net=none --rx "$CORRAL_HELPERS"
launch_line "--engine=landlock, TCP rules alone: no line" "" \
	--engine=landlock --connect-tcp "$TCP" --rx "$CORRAL_HELPERS"
launch_line "--engine=landlock, a rule with an address, --net-best-effort: it says so" \
	"corral: Landlock ABI $ABI confines the network partly: addresses unchecked; $left" \
	--engine=landlock --connect-tcp "$L:$TCP" --net-best-effort --rx "$CORRAL_HELPERS"
if [ "$ABI" -ge 10 ]; then
	skip "--engine=landlock, UDP rules, --net-best-effort: UDP unconfined" "ABI $ABI confines UDP"
else
	launch_line "--engine=landlock, UDP rules, --net-best-effort: UDP unconfined, it says" \
		"corral: Landlock ABI $ABI confines the network partly: UDP unconfined; $left" \
		--engine=landlock --connect-udp "$UDP" --net-best-effort --rx "$CORRAL_HELPERS"
fi

# ---- what it will not run ------------------------------------------------
# refused NAME WANT ARGS...: corral ARGS -- netprobe connect-tcp exits
# 125 and prints WANT alone: the probe never ran (it would print OK)
refused() {
	local name=$1 want=$2 out rc
	shift 2
	out=$(cd "$T" && CORRAL_PROFILE_PATH=$T/p "$CORRAL" "$@" -- \
		"$NETPROBE" connect-tcp "$L" "$TCP" 2>&1)
	rc=$?
	is "$rc: $out" "125: $want" "$name"
}

fix="set up the bpf engine (corral setup, as root) or add --net-best-effort to run with it unenforced"
for engine in --engine=landlock --engine=auto; do
	if [ $engine = --engine=auto ] && "$CORRAL" status 2>/dev/null | grep -q '^engine: bpf'; then
		skip "$engine: refusals" "the bpf engine runs here"
		continue
	fi
	for q in "" -q; do
		refused "$engine $q, a rule with an address: not run, one line names the rule" \
			"corral: Landlock ABI $ABI cannot enforce 'connect-tcp = $L:$TCP': it checks ports only, so the rule would allow port $TCP on every address; $fix" \
			$engine $q --connect-tcp "$L:$TCP" --rx "$CORRAL_HELPERS"
	done
	if [ "$ABI" -ge 10 ]; then
		skip "$engine, a UDP port rule: not run" "ABI $ABI confines UDP"
	else
		refused "$engine, a UDP port rule: not run, one line names it" \
			"corral: Landlock ABI $ABI cannot enforce 'connect-udp = $UDP': it has no UDP rights (ABI 10); $fix" \
			$engine --connect-tcp "$TCP" --connect-udp "$UDP" --rx "$CORRAL_HELPERS"
	fi
done
if "$CORRAL" status 2>/dev/null | grep -q '^engine: bpf'; then
	skip "the fallback line under --net=none" "the bpf engine runs here"
else
	err=$("$CORRAL" --net=none --rx "$CORRAL_HELPERS" -- "$NETPROBE" 2>&1 >/dev/null)
	# below ABI 9 the line names the unix sockets it leaves open (below
	# 6 signals too), no more
	unix=
	[ "$ABI" -ge 9 ] || unix=", unix sockets unscoped"
	[ "$ABI" -ge 6 ] || unix=", signals and unix sockets unscoped"
	[[ $err == "corral: using Landlock ABI $ABI, not bpf ("*")$unix; $left" &&
		${err#*)} != *"), "* && ${err#*)} != *"unconfined"* ]] &&
		ok "the fallback line under --net=none names no network gap" ||
		not_ok "the fallback line under --net=none names no network gap" "$err"
fi

# ---- corral explain --------------------------------------------------
# explain_case NAME STATUS "LINE2" ARGS...: `corral explain
# --engine=landlock ARGS` exits STATUS, its second line LINE2 (what the
# Landlock engine makes of the rules' answer on the first)
explain_case() {
	local name=$1 status=$2 want=$3 out rc
	shift 3
	out=$("$CORRAL" explain --engine=landlock "$@" 2>&1)
	rc=$?
	is "$rc: $(sed -n 2p <<<"$out")" "$status: $want" "explain: $name"
	[ "$rc: $(sed -n 2p <<<"$out")" == "$status: $want" ] || diag "$out"
}

ll="engine: Landlock ABI $ABI"
explain_case "a UDP send under --net=none: seccomp refuses it" 1 \
	"$ll; corral's seccomp filter refuses every IPv4 and IPv6 socket (EACCES)" \
	--net=none --op connect-udp "$L:$UDP"
explain_case "a TCP connect under --net=none: the same" 1 \
	"$ll; corral's seccomp filter refuses every IPv4 and IPv6 socket (EACCES)" \
	--net=none "$L:$TCP"
explain_case "an address the rule does not name, --net-best-effort: allowed, by port" 0 \
	"$ll, which judges ports only: port $TCP has a rule, so allowed there" \
	--connect-tcp "10.0.0.1:$TCP" --net-best-effort "$L:$TCP"
explain_case "a rule with an address: denied, it would not launch" 1 \
	"$ll would not launch: it cannot enforce 'connect-tcp = 10.0.0.1:$TCP': it checks ports only, so the rule would allow port $TCP on every address (--net-best-effort runs the rules unenforced)" \
	--connect-tcp "10.0.0.1:$TCP" "10.0.0.1:$TCP"
explain_case "a port without a rule: denied, the same answer" 1 \
	"$ll, whose port rules give the same answer" \
	--connect-tcp "$TCP" "$L:$UDP"
if [ "$ABI" -ge 10 ]; then
	skip "explain: UDP below ABI 10" "ABI $ABI judges UDP ports"
else
	explain_case "a UDP send under TCP rules: seccomp refuses it" 1 \
		"$ll; corral's seccomp filter refuses every UDP socket (EACCES), as no rule allows UDP" \
		--connect-tcp "$TCP" --op connect-udp "$L:$UDP"
	explain_case "a UDP send another UDP rule does not allow, --net-best-effort: allowed there" 0 \
		"$ll, which has no UDP rules (ABI 10): allowed there" \
		--connect-udp 53 --net-best-effort --op connect-udp "$L:$UDP"
	explain_case "a UDP send a UDP rule allows: denied, it would not launch" 1 \
		"$ll would not launch: it cannot enforce 'connect-udp = 53': it has no UDP rights (ABI 10) (--net-best-effort runs the rules unenforced)" \
		--connect-udp 53 --op connect-udp "$L:53"
fi
out=$("$CORRAL" explain --engine=bpf --net=none --op connect-udp "$L:$UDP" 2>&1)
is "$?: $(wc -l <<<"$out")" "1: 1" "explain --engine=bpf: the rules' answer alone, one line"

done_testing
