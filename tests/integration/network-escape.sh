#!/bin/bash
# network-escape.sh: issue 10's network escape suite.  A sandbox may
# connect to 127.0.0.1:5001, bind 127.0.0.1:7000 and send UDP to
# 127.0.0.1:53, nothing else; each case is a way around that, and must
# fail with corral's EACCES (not the kernel's EPERM of a dropped
# capability, nor a silent success).
#
# Every attack is first run outside any sandbox (the "control" line of its
# case): an attack that fails there proves nothing, and the case says so by
# failing.  Targets are loopback only: a dual-stack listener on 5001-5002.
#
# Environment: CORRAL, CORRAL_HELPERS (see lib.sh).  Needs the bpf engine.

. "$(dirname "$0")/lib.sh"

need_helpers
[ -x "$NETPROBE" ] || skip_all "netprobe is not built in $CORRAL_HELPERS"
"$CORRAL" --engine=bpf --rx "$CORRAL_HELPERS" -- "$NETPROBE" ping >/dev/null 2>&1 ||
	skip_all "no bpf engine here (the guest has it)"
net_serve 5001 5002 || { not_ok "listener on 5001-5002"; done_testing; }

L=127.0.0.1
RULES="--connect-tcp $L:5001 --bind-tcp $L:7000 --connect-udp $L:53"

# attack NAME OPS RESULTS: OPS succeed unsandboxed (each OK), and under
# RULES give RESULTS (space-separated, one per op)
attack() {
	local name=$1 ops=$2 want=$3 control n
	local -a opv
	read -r -a opv <<<"$ops"
	control=$("$NETPROBE" "${opv[@]}" 2>&1)
	n=$(grep -c ': OK$' <<<"$control")
	if [ "$n" != "$(grep -c . <<<"$control")" ]; then
		not_ok "$name" "control: the attack fails without a sandbox too:" "$control"
		return
	fi
	expect_net corral "$name" "$RULES" "$ops" "$want"
}

attack "v4-mapped IPv6 address to a denied port" \
	"connect-tcp ::ffff:$L 5002 + connect-tcp ::ffff:127.0.0.2 5001" \
	"EACCES EACCES"

attack "AF_UNSPEC bind of an IPv4 socket (the kernel reads it as 0.0.0.0)" \
	"unspec-bind 7000 + unspec-bind 7001" \
	"EACCES EACCES"

attack "AF_UNSPEC sendto on an IPv4 UDP socket (the kernel sends to the address)" \
	"unspec-sendto $L 54" \
	"EACCES"

attack "AF_UNSPEC connect with an address only disconnects" \
	"unspec-connect $L 5002" \
	"OK"

attack "connect allowed, AF_UNSPEC disconnect, then reconnect elsewhere" \
	"reconnect $L 5001 5002" \
	"EACCES"

attack "unconnected UDP sendto a denied port, and to a denied address" \
	"sendto-udp $L 54 + sendto-udp 127.0.0.2 53 + sendto-udp ::1 53" \
	"EACCES EACCES EACCES"

attack "io_uring connect to a denied port" \
	"uring-connect $L 5002" \
	"EACCES"

attack "TCP fast open (connect from sendto) to a denied port" \
	"fastopen $L 5002" \
	"EACCES"

attack "MPTCP to a denied port" \
	"connect-mptcp $L 5002" \
	"EACCES"

attack "raw, packet and SCTP sockets (EACCES from corral, before any capability check)" \
	"raw + packet" \
	"EACCES EACCES"

expect_net corral "an SCTP socket is refused whether or not the kernel has SCTP" \
	"$RULES" "sctp" "EACCES"

attack "connect through a forked child and an exec'd child (none is unsandboxed)" \
	"fork-connect $L 5002 + exec-connect $L 5002" \
	"EACCES EACCES"

attack "listen on an unbound socket (the kernel binds an ephemeral port)" \
	"listen" \
	"EACCES"

expect_net corral "with bind-tcp 0, listen on an unbound socket is allowed" \
	"$RULES --bind-tcp 0" "listen + bind-tcp $L 0" "OK OK"

attack "re-binding after close: the allowed port again, then another" \
	"bind-tcp $L 7000 + bind-tcp $L 7000 + bind-tcp $L 7001 + bind-tcp 0.0.0.0 7000" \
	"OK OK EACCES EACCES"

expect_net corral "control inside: the allowed connect and send still work" \
	"$RULES" "connect-tcp $L 5001 + connect-tcp ::ffff:$L 5001 + sendto-udp $L 53" \
	"OK OK OK"

done_testing
