#!/bin/bash
# network-differential.sh: corral's TCP and UDP rules against kernel
# Landlock's (ABI 4+: LANDLOCK_ACCESS_NET_BIND_TCP and _CONNECT_TCP; ABI
# 10+: _BIND_UDP and _CONNECT_SEND_UDP), one scenario at a time.  Each
# scenario is a set of port rules (the flags both launchers take) and
# netprobe operations, each with the answer expected; it runs under
#
#   $CORRAL   --rx $CORRAL_HELPERS RULES -- netprobe OPS
#   ll-exec   --rx $CORRAL_HELPERS RULES -- netprobe OPS   (kernel Landlock)
#
# and is one TAP line: ok when both gave the table's answers.  Where the
# running kernel's Landlock lacks the rights a scenario needs (`abi N`,
# default 4: none on the 6.1 guest, no UDP before 7.2) only corral is
# checked, and the line says `# SKIP` for the oracle.  Only ports are
# compared: addresses, MPTCP and socket types are beyond Landlock
# (network.sh and network-escape.sh check them).
#
# Targets: loopback only; a dual-stack listener serves 5001-5003.
#
# With CORRAL_ARGS=--engine=landlock (landlock-engine.sh, on the host too)
# corral's own Landlock engine is the one checked against the table; its
# one warning line (addresses, UDP) is left out of the comparison.
#
#   scenario NAME / rules FLAGS / abi N / op OP ARGS... RESULT
#   landlock-engine RESULT...   what corral's Landlock engine answers
#                               instead, one per op (io_uring: refused by
#                               its seccomp filter, as IORING_OP_SOCKET
#                               would make sockets no filter sees)
#
# Usage: network-differential.sh [PATTERN]   (scenarios whose name has it)

. "$(dirname "$0")/lib.sh"

read -r -d '' TABLE <<'EOF'
scenario a connect rule allows its port on IPv4 and IPv6 and no other port
rules --connect-tcp 5001
op connect-tcp 127.0.0.1 5001           OK
op connect-tcp ::1 5001                 OK
op connect-tcp 127.0.0.1 5002           EACCES
op connect-tcp ::1 5003                 EACCES

scenario a v4-mapped address is judged by its port like any other
rules --connect-tcp 5001
op connect-tcp ::ffff:127.0.0.1 5001    OK
op connect-tcp ::ffff:127.0.0.1 5002    EACCES

scenario a range is one rule per port
rules --connect-tcp 5001-5002
op connect-tcp 127.0.0.1 5001           OK
op connect-tcp 127.0.0.1 5002           OK
op connect-tcp 127.0.0.1 5003           EACCES

scenario connect and bind are separate rights
rules --connect-tcp 7000 --bind-tcp 5001
op bind-tcp 127.0.0.1 7000              EACCES
op connect-tcp 127.0.0.1 5001           EACCES
op bind-tcp 127.0.0.1 5001              EADDRINUSE

scenario a bind rule allows its port on every address
rules --bind-tcp 7000
op bind-tcp 127.0.0.1 7000              OK
op bind-tcp 0.0.0.0 7000                OK
op bind-tcp ::1 7000                    OK
op bind-tcp 127.0.0.1 7001              EACCES

scenario bind to port 0 needs a rule for port 0
rules --bind-tcp 7000
op bind-tcp 127.0.0.1 0                 EACCES

scenario a rule for port 0 allows an ephemeral bind
rules --bind-tcp 0
op bind-tcp 127.0.0.1 0                 OK
op bind-tcp ::1 0                       OK
op bind-tcp 127.0.0.1 7000              EACCES

scenario no TCP rule: every bind and connect is denied
rules --net=none
op connect-tcp 127.0.0.1 5001           EACCES
op bind-tcp 127.0.0.1 7000              EACCES
op bind-tcp 127.0.0.1 0                 EACCES

scenario AF_UNSPEC connect is a disconnect, always allowed
rules --connect-tcp 5001
op unspec-connect 127.0.0.1 5002        OK
op reconnect 127.0.0.1 5001 5002        EACCES

scenario AF_UNSPEC bind of an IPv4 socket is judged as 0.0.0.0
rules --bind-tcp 7000
op unspec-bind 7000                     OK
op unspec-bind 7001                     EACCES

scenario io_uring connect is judged as connect
rules --connect-tcp 5001
landlock-engine EPERM EPERM
op uring-connect 127.0.0.1 5001         OK
op uring-connect 127.0.0.1 5002         EACCES

scenario children inherit the rules
rules --connect-tcp 5001
op fork-connect 127.0.0.1 5002          EACCES
op exec-connect 127.0.0.1 5001          OK

scenario a UDP connect rule allows connect and sendto to its port only
abi 10
rules --connect-udp 5001 --bind-udp 0
op connect-udp 127.0.0.1 5001           OK
op connect-udp ::1 5001                 OK
op sendto-udp 127.0.0.1 5001            OK
op connect-udp 127.0.0.1 5002           EACCES
op sendto-udp ::1 5003                  EACCES

scenario a UDP connect or send on an unbound socket binds port 0: refused under a bind-udp rule without port 0 (with no bind-udp rule, corral implies bind-udp 0; kernel Landlock does not)
abi 10
rules --connect-udp 5001 --bind-udp 7000
op connect-udp 127.0.0.1 5001           EACCES
op sendto-udp 127.0.0.1 5001            EACCES
op sendto-udp ::1 5001                  EACCES

scenario a UDP bind rule allows its port on every address
abi 10
rules --bind-udp 7000
op bind-udp 127.0.0.1 7000              OK
op bind-udp ::1 7000                    OK
op bind-udp 127.0.0.1 7001              EACCES
op bind-udp 127.0.0.1 0                 EACCES

scenario TCP rules are not UDP rules, nor UDP rules TCP ones
abi 10
rules --connect-tcp 5001 --bind-tcp 0 --bind-udp 7000
op connect-udp 127.0.0.1 5001           EACCES
op bind-udp 127.0.0.1 0                 EACCES
op bind-tcp 127.0.0.1 7000              EACCES
op connect-tcp 127.0.0.1 5001           OK

scenario no UDP rule: every UDP bind, connect and send is denied
abi 10
rules --net=none
op bind-udp 127.0.0.1 7000              EACCES
op connect-udp 127.0.0.1 5001           EACCES
op sendto-udp 127.0.0.1 5001            EACCES
EOF

need_helpers
[ -x "$NETPROBE" ] || skip_all "netprobe is not built in $CORRAL_HELPERS"
net_serve 5001 5002 5003 || { not_ok "listener on 5001-5003"; done_testing; }
ABI=$(landlock_abi)
pattern=${1:-}

# run_scenario: judge the scenario gathered in name, rules, ops, want
run_scenario() {
	local want_lines got_c got_o
	[ -n "$name" ] || return 0
	[ -z "$pattern" ] || [[ $name == *"$pattern"* ]] || return 0
	probe_lines_v want_lines "$ops" "${want[@]}"
	local corral_lines=$want_lines
	if [ ${#ll_want[@]} -gt 0 ] &&
		[[ " ${CORRAL_ARGS:-} " == *" --engine=landlock "* ]]; then
		probe_lines_v corral_lines "$ops" "${ll_want[@]}"
	fi
	local -a opv
	read -r -a opv <<<"$ops"
	if is_oracle_corral && [ "$ABI" -lt "$min_abi" ]; then
		skip "$name" "corral's Landlock engine at ABI $ABI lacks these network rights ($min_abi needed)"
		return
	fi
	# shellcheck disable=SC2086
	got_c=$("$CORRAL" ${CORRAL_ARGS:-} --rx "$CORRAL_HELPERS" $rules -- \
		"$NETPROBE" "${opv[@]}" 2>&1 |
		grep -v '^corral: Landlock ABI [0-9]* confines ')
	if [ "$got_c" != "$corral_lines" ]; then
		not_ok "$name" "corral $rules:" "- expected, + got:" \
			"$(compare_lines "$corral_lines" "$got_c")"
		return
	fi
	if [ "$ABI" -lt "$min_abi" ]; then
		skip "$name" "landlock ABI $ABI lacks these network rights, $min_abi needed (corral checked against the table)"
		return
	fi
	# shellcheck disable=SC2086
	got_o=$("$ORACLE" --rx "$CORRAL_HELPERS" $rules -- "$NETPROBE" "${opv[@]}" 2>&1)
	if [ "$got_o" != "$want_lines" ]; then
		not_ok "$name" "kernel Landlock (ABI $ABI) $rules disagrees with the table:" \
			"- expected, + got:" "$(compare_lines "$want_lines" "$got_o")"
		return
	fi
	ok "$name"
}

name="" rules="" ops="" want=() ll_want=() min_abi=4
while read -r word rest; do
	case $word in
	"" | "#"*) ;;
	scenario)
		run_scenario
		name=$rest rules="" ops="" want=() ll_want=() min_abi=4 ;;
	rules) rules=$rest ;;
	landlock-engine) read -r -a ll_want <<<"$rest" ;;
	abi) min_abi=$rest ;;
	op)
		read -r -a w <<<"$rest"
		want+=("${w[-1]}")
		unset 'w[-1]'
		ops+="${ops:+ + }${w[*]}" ;;
	*) echo "Bail out! network-differential.sh: bad table line: $word $rest"; exit 1 ;;
	esac
done <<<"$TABLE"
run_scenario

done_testing
