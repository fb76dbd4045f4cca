#!/bin/bash
# network-escape.sh: the network rules' escape suite.  A sandbox may
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
# (bind-udp 0: a send on an unbound UDP socket binds a port, judged too;
# granted here so that each attack is refused for its own reason)
RULES="--connect-tcp $L:5001 --bind-tcp $L:7000 --connect-udp $L:53 --bind-udp 0"

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

# ---- source routes ---------------------------------------------------------
#
# Allowed: UDP to [A6]:9999 and A4:9999, neither reachable from the guest
# (lo only: a plain sendto gets ENETUNREACH).  A source route naming
# loopback as its first hop sends all the same, through lo: an IPv6
# routing header (segment routing, type 4, as IPV6_RTHDR; type 2 as
# ancillary data, the only type the kernel takes there) via ::1, an IPv4
# loose source route (IP_OPTIONS, IP_RETOPTS) via 127.0.0.1.  corral
# judges the destination only, so under address rules any route is
# EACCES (bpf/net.bpf.c).
#
# IPv6 needs no privilege.  IPv4 does: without capabilities (as in any
# sandbox) the kernel refuses IPv4 source routes with EPERM, so there the
# cases check that corral's EACCES comes first, and the escape is a
# socket given its route outside (inherited, below).
#
# Delivery is shown for IPv6 only, and only with seg6_enabled on lo (off
# by default: ::1 then drops the header; root turns it on for the rthdr6-
# deliver cases and back off after).  A6 is 2001:db8::d247, not ::1:
# its 16-bit words sum (one's complement) as ::1's do, so the UDP
# checksum, made over the final destination A6, holds at ::1.  IPv4
# cannot show it: 127.0.0.1 forwards to A4 (with accept_source_route set;
# otherwise drops), as a router on the route would.
#
# The Landlock engine cannot stop this (no Landlock right covers socket
# options or ancillary data): skipped there.
A6=2001:db8::d247
A4=192.0.2.1
P=9999
RULES="--connect-udp [$A6]:$P --connect-udp $A4:$P --bind-udp 0"

# route_attack NAME OPS RESULTS: attack, on the bpf engine only
route_attack() {
	if is_oracle_corral; then
		skip "$1" "the Landlock engine cannot stop source routes"
		return
	fi
	attack "$@"
}

route_attack "IPv6 routing header via ::1 (socket option, ancillary data, RFC 2292 ancillary data)" \
	"rthdr6-sockopt $A6 $P + rthdr6-cmsg $A6 $P + rthdr6-cmsg2292 $A6 $P" \
	"EACCES EACCES EACCES"

route_attack "IPv4 loose source route via 127.0.0.1 (IP_OPTIONS, IP_RETOPTS)" \
	"srr4-sockopt $A4 $P + srr4-cmsg $A4 $P" \
	"EACCES EACCES"

seg6=/proc/sys/net/ipv6/conf
seg6_old=$(cat $seg6/all/seg6_enabled $seg6/lo/seg6_enabled 2>/dev/null)
if is_root && echo 1 >$seg6/all/seg6_enabled && echo 1 >$seg6/lo/seg6_enabled; then
	# the listener inside binds [::1]:P, which a direct send may not reach
	RULES="$RULES --bind-udp [::1]:$P" route_attack \
		"IPv6 routing header: what reaches [::1]:$P sent to [$A6]:$P" \
		"rthdr6-deliver $A6 $P + sendto-udp ::1 $P" \
		"EACCES EACCES"
	expect_net corral "without network rules, the routed datagram still arrives" \
		"" "rthdr6-deliver $A6 $P" "OK"
	read -r a b <<<"$seg6_old"
	echo "${a:-0}" >$seg6/all/seg6_enabled
	echo "${b:-0}" >$seg6/lo/seg6_enabled
else
	skip "IPv6 routing header: what reaches [::1]:$P" "needs root to set seg6_enabled"
	skip "without network rules, the routed datagram still arrives" "needs root"
fi

# inherited V OPS: a UDP socket given its route before the sandbox (fd 3,
# made by netprobe route-exec, which then execs corral), used by OPS
inherited() {
	local name="an inherited IPv$1 socket carrying a source route" got want
	local ops=$2
	if is_oracle_corral; then
		skip "$name" "the Landlock engine cannot stop source routes"
		return
	fi
	probe_lines_v want "$ops" OK OK	# one result per op
	# shellcheck disable=SC2086
	got=$("$NETPROBE" route-exec "$1" "$NETPROBE" $ops 2>&1)
	if [ "$got" != "$want" ]; then
		not_ok "$name" "control: the attack fails without a sandbox too:" "$got"
		return
	fi
	probe_lines_v want "$ops" EACCES EACCES
	# shellcheck disable=SC2086
	got=$("$NETPROBE" route-exec "$1" "$CORRAL" ${CORRAL_ARGS:-} \
		--rx "$CORRAL_HELPERS" $RULES -- "$NETPROBE" $ops 2>&1)
	is "$got" "$want" "$name"
}
inherited 6 "fd-sendto 3 $A6 $P + fd-connect 3 $A6 $P"
# (a UDP connect ignores an IPv4 source route: ENETUNREACH here)
inherited 4 "fd-sendto 3 $A4 $P"

# the same results as outside without capabilities (the sandbox has none):
# for IPv4 the kernel's EPERM up to 6.12 (CAP_NET_RAW), OK on 6.18
routes="rthdr6-sockopt $A6 $P + rthdr6-cmsg $A6 $P + srr4-sockopt $A4 $P + srr4-cmsg $A4 $P"
read -r -a routes_v <<<"$routes"
outside=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	"$NETPROBE" "${routes_v[@]}" | sed 's/.*: //' | tr '\n' ' ')
expect_net corral "without network rules, source routes are set and sent as before" \
	"" "$routes" "$outside"

# the same result as outside (ENETUNREACH in the guest), not EACCES
plain="sendto-udp $A6 $P + sendto-udp $A4 $P"
read -r -a plain_v <<<"$plain"
expect_net corral "control inside: a plain sendto the allowed addresses is not refused" \
	"$RULES" "$plain" "$("$NETPROBE" "${plain_v[@]}" | sed 's/.*: //' | tr '\n' ' ')"

done_testing
