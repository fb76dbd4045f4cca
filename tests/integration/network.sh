#!/bin/bash
# network.sh: the network rules (--connect-tcp and the like, corral(1)) on
# the bpf engine (and, at the end, what the Landlock engine does with
# them).  Every target is a loopback
# address: a dual-stack listener outside the sandbox serves ports 5001-5003
# on 127.0.0.0/8, ::1 and ::ffff:127.0.0.1; binds use ports 7000-7003.
#
# Each case runs netprobe under corral with some rules and checks each
# operation's result: OK (allowed, and the listener answered) or the errno
# (EACCES when corral refused).  Controls first show that every refused
# operation succeeds without a sandbox, so no EACCES below is the kernel's.
#
# Environment: CORRAL, CORRAL_HELPERS (see lib.sh).  Needs the bpf engine
# (the guest); elsewhere only the parsing cases run.

. "$(dirname "$0")/lib.sh"

need_helpers
[ -x "$NETPROBE" ] || skip_all "netprobe is not built in $CORRAL_HELPERS"

L=127.0.0.1
ALLOWED=5001
DENIED=5002

# ---- parsing, --print-profile, errors with file:line -----------------------

make_tmp T network
cat >"$T/net.profile" <<'EOF'
[network]
connect-tcp = 443, 80
              127.0.0.0/8:5432
bind-tcp = [::1]:8000-8099
connect-udp = [::ffff:10.0.0.0/104]:53
bind-udp = 0
EOF
got=$("$CORRAL" --profile "$T/net.profile" --print-profile 2>&1 | sed -n '/^\[network\]/,$p')
is "$got" "[network]
net = rules                              ; implied by $T/net.profile:2
connect-tcp = 443                        ; $T/net.profile:2
connect-tcp = 80                         ; $T/net.profile:2
connect-tcp = 127.0.0.0/8:5432           ; $T/net.profile:3
bind-tcp = [::1]:8000-8099               ; $T/net.profile:4
connect-udp = 10.0.0.0/8:53              ; $T/net.profile:5
bind-udp = 0                             ; $T/net.profile:6" \
	"--print-profile shows the rules, the implied net = rules and where each came from"

printf '[network]\nnet = none\nconnect-tcp = 65536\nbind-tcp = 9-8\nconnect-udp = 10.1.0.0/8:53\nbind-udp = ::1:80\nnet = some\n' >"$T/bad.profile"
got=$("$CORRAL" --profile "$T/bad.profile" -- true 2>&1)
rc=$?
is "$rc $got" "125 corral: profile $T/bad.profile:3: connect-tcp: bad port '65536' (a port is 0 to 65535, a range LOW-HIGH, or * for all)
corral: profile $T/bad.profile:4: bind-tcp: bad port range '9-8' (write the lower port first)
corral: profile $T/bad.profile:5: connect-udp: '10.1.0.0/8' has bits set past the /8 prefix (write the network address)
corral: profile $T/bad.profile:6: bind-udp: '::1:80': an IPv6 address goes in brackets, e.g. [::1]:8080
corral: profile $T/bad.profile:7: bad value 'some' for net (use all, none or rules)" \
	"bad ports, ranges and addresses are errors with file:line, exit 125"

# ---- host names: resolved at launch (sandbox/README.md), loopback only -----

got=$("$CORRAL" --connect-tcp 'localhost:80' --print-profile 2>&1 | grep -A1 '^connect-tcp')
is "$? $(head -1 <<<"$got")" "0 connect-tcp = localhost:80               ; --connect-tcp on the command line" \
	"a host name in a flag is a rule, shown as written"
line2=$(sed -n 2p <<<"$got")
if [[ $line2 =~ ^\;\ \ \ localhost:\ 127\.0\.0\.1(,\ ::1)?\ \(resolved\ now\;\ each\ launch\ resolves\ again\)$ ]]; then
	ok "--print-profile shows what localhost resolved to, as a comment"
else
	not_ok "--print-profile shows what localhost resolved to, as a comment" "got: $line2"
fi

# The reason is the resolver's: "Name or service not known" with DNS,
# "Temporary failure in name resolution" without (the guest).
reason() { sed 's/(Name or service not known)\|(Temporary failure in name resolution)/(REASON)/; s/: Name or service not known (\|: Temporary failure in name resolution (/: REASON (/'; }
got=$("$CORRAL" --connect-tcp 'nonexistent.invalid:443' -- true 2>&1 | reason; exit "${PIPESTATUS[0]}")
is "$? $got" "125 corral: --connect-tcp nonexistent.invalid:443: host name 'nonexistent.invalid' did not resolve (REASON); fix it, or write -nonexistent.invalid:443 to skip it when it does not" \
	"a name that does not resolve is refused in one line naming the flag, exit 125"

printf '[network]\nconnect-tcp = 443,\n  nonexistent.invalid:443\n' >"$T/badname.profile"
got=$("$CORRAL" --profile "$T/badname.profile" -- true 2>&1 | reason; exit "${PIPESTATUS[0]}")
is "$? $got" "125 corral: profile $T/badname.profile:3: connect-tcp: host name 'nonexistent.invalid' did not resolve (REASON); fix it, or write -nonexistent.invalid:443 to skip it when it does not" \
	"a name that does not resolve in a profile names file:line"
got=$("$CORRAL" check "$T/badname.profile" 2>&1)
is "$? $got" "0 $T/badname.profile: ok" "check parses names but does not resolve them"

printf '[network]\nconnect-tcp = -nonexistent.invalid:443, localhost:80\n' >"$T/optname.profile"
got=$("$CORRAL" --profile "$T/optname.profile" --print-profile 2>&1 | sed -n '/^connect-tcp = -nonexistent/{N;p}' | reason)
is "$? $got" "0 connect-tcp = -nonexistent.invalid:443   ; $T/optname.profile:2
;   nonexistent.invalid: REASON (skipped)" \
	"-NAME:PORT is optional: a name that does not resolve is skipped, and --print-profile says so"

got=$("$CORRAL" --connect-tcp 'exa_mple.org:443' -- true 2>&1)
is "$? $got" "125 corral: --connect-tcp exa_mple.org:443: bad host name 'exa_mple.org' (letters, digits, '-' and '.', e.g. github.com:443)" \
	"a malformed host name is a syntax error, not a lookup"

if [ "$(landlock_abi)" -ge 4 ]; then
	net_serve 5011 5012 || not_ok "listener on 5011-5012"
	got=$("$CORRAL" --engine=landlock --quiet --net-best-effort --rx "$CORRAL_HELPERS" --connect-tcp localhost:5011 -- \
		"$NETPROBE" connect-tcp $L 5011 + connect-tcp $L 5012 2>&1)
	is "$got" "connect-tcp $L 5011: OK
connect-tcp $L 5012: EACCES" \
		"landlock engine, --net-best-effort: --connect-tcp localhost:PORT allows that port, not another"
	got=$("$CORRAL" --engine=landlock --quiet --rx "$CORRAL_HELPERS" --connect-tcp -nonexistent.invalid:5011 -- \
		"$NETPROBE" connect-tcp $L 5011 2>&1)
	is "$got" "connect-tcp $L 5011: EACCES" \
		"landlock engine: a skipped optional name allows nothing (net = rules still holds)"
else
	echo "# Landlock ABI < 4: the host-name enforcement case on Landlock is not run"
fi

got=$("$CORRAL" --connect-tcp 443 --net=all --print-profile 2>&1 | grep '^net =')
is "$got" "net = all                                ; --net on the command line" \
	"--net=all after a rule opens the network again"

# ---- enforcement (bpf) -------------------------------------------------------

"$CORRAL" --engine=bpf --rx "$CORRAL_HELPERS" -- "$NETPROBE" ping >/dev/null 2>&1 ||
	{ echo "# no bpf engine here: enforcement cases not run"; done_testing; }

net_serve 5001 5002 5003 || { not_ok "listener on 5001-5003"; done_testing; }

ctl=$("$NETPROBE" connect-tcp $L $DENIED + connect-tcp ::1 $DENIED + \
	connect-tcp ::ffff:$L $DENIED + bind-tcp $L 7001 + bind-tcp $L 0 + \
	connect-udp $L 53 + sendto-udp $L 53 + bind-udp $L 7002 + \
	connect-mptcp $L $DENIED + raw + packet 2>&1)
is "$(sed 's/.*: //' <<<"$ctl" | tr '\n' ' ')" \
	"OK OK OK OK OK OK OK OK OK OK OK " \
	"control: unsandboxed, every operation refused below succeeds"
mptcp=yes
grep -q "connect-mptcp.*: OK" <<<"$ctl" || mptcp=

expect_net corral "connect-tcp by port: that port on v4 and v6, no other" \
	"--connect-tcp $ALLOWED" \
	"connect-tcp $L $ALLOWED + connect-tcp ::1 $ALLOWED + connect-tcp $L $DENIED + connect-tcp ::1 $DENIED" \
	"OK OK EACCES EACCES"

expect_net corral "a port range allows each port in it and none outside" \
	"--connect-tcp 5001-5002" \
	"connect-tcp $L 5001 + connect-tcp $L 5002 + connect-tcp $L 5003" \
	"OK OK EACCES"

expect_net corral "an IPv4 prefix rule allows its addresses only" \
	"--connect-tcp 127.0.0.0/8:$ALLOWED" \
	"connect-tcp 127.0.0.2 $ALLOWED + connect-tcp ::1 $ALLOWED + connect-tcp 127.0.0.2 $DENIED" \
	"OK EACCES EACCES"

expect_net corral "a single-address rule allows that address, not its neighbour" \
	"--connect-tcp 127.0.0.1:$ALLOWED" \
	"connect-tcp 127.0.0.1 $ALLOWED + connect-tcp 127.0.0.2 $ALLOWED" \
	"OK EACCES"

expect_net corral "a host name: localhost:PORT allows 127.0.0.1:PORT, not another port or address" \
	"--connect-tcp localhost:$ALLOWED" \
	"connect-tcp $L $ALLOWED + connect-tcp $L $DENIED + connect-tcp 127.0.0.2 $ALLOWED" \
	"OK EACCES EACCES"

expect_net corral "an IPv6 rule allows ::1, not 127.0.0.1" \
	"--connect-tcp [::1]:$ALLOWED" \
	"connect-tcp ::1 $ALLOWED + connect-tcp $L $ALLOWED" \
	"OK EACCES"

expect_net corral "v4-mapped IPv6 addresses are judged as the IPv4 address" \
	"--connect-tcp 127.0.0.1:$ALLOWED" \
	"connect-tcp ::ffff:$L $ALLOWED + connect-tcp ::ffff:$L $DENIED + connect-tcp ::ffff:127.0.0.2 $ALLOWED" \
	"OK EACCES EACCES"

expect_net corral "a rule written as a mapped address is the IPv4 rule" \
	"--connect-tcp [::ffff:127.0.0.1]:$ALLOWED" \
	"connect-tcp $L $ALLOWED + connect-tcp ::ffff:$L $ALLOWED" \
	"OK OK"

expect_net corral "connect-tcp does not allow bind, bind-tcp does not allow connect" \
	"--connect-tcp 7000 --bind-tcp $ALLOWED" \
	"bind-tcp $L 7000 + connect-tcp $L $ALLOWED" \
	"EACCES EACCES"

expect_net corral "bind-tcp by port and by address" \
	"--bind-tcp 7000 --bind-tcp 127.0.0.1:7001" \
	"bind-tcp $L 7000 + bind-tcp ::1 7000 + bind-tcp $L 7001 + bind-tcp 0.0.0.0 7001 + bind-tcp $L 7002" \
	"OK OK OK EACCES EACCES"

expect_net corral "bind to port 0 (ephemeral) needs a rule allowing port 0" \
	"--bind-tcp 7000" \
	"bind-tcp $L 0 + bind-udp $L 0" \
	"EACCES EACCES"

expect_net corral "bind-tcp 0 and bind-udp 0 allow ephemeral ports" \
	"--bind-tcp 0 --bind-udp 0" \
	"bind-tcp $L 0 + bind-udp ::1 0 + bind-tcp $L 7000" \
	"OK OK EACCES"

expect_net corral "connect-udp allows connect and sendto to its port only" \
	"--connect-udp $L:53 --bind-udp 0" \
	"connect-udp $L 53 + sendto-udp $L 53 + sendto-udp $L 54 + connect-udp $L 54 + sendto-udp ::1 53" \
	"OK OK EACCES EACCES EACCES"

expect_net corral "a UDP connect or send binds an unbound socket: it needs bind-udp 0, as under Landlock (a bind-udp rule without port 0: none implied)" \
	"--connect-udp $L:53 --bind-udp 7000" \
	"connect-udp $L 53 + sendto-udp $L 53 + sendto-udp ::1 53" \
	"EACCES EACCES EACCES"

expect_net corral "bind-udp is not bind-tcp" \
	"--bind-udp 7003" \
	"bind-udp $L 7003 + bind-tcp $L 7003" \
	"OK EACCES"

expect_net corral "net = none: no bind, connect or send at all" \
	"--net=none" \
	"connect-tcp $L $ALLOWED + connect-tcp ::1 $ALLOWED + bind-tcp $L 7000 + sendto-udp $L 53 + bind-udp $L 0" \
	"EACCES EACCES EACCES EACCES EACCES"

expect_net corral "no network rule anywhere: the network is not confined" \
	"" \
	"connect-tcp $L $DENIED + sendto-udp $L 53 + bind-tcp $L 7000" \
	"OK OK OK"

expect_net corral "raw, packet, SCTP and ping sockets are refused under rules" \
	"--connect-tcp $ALLOWED" \
	"raw + packet + sctp + ping" \
	"EACCES EACCES EACCES EACCES"

expect_net corral "AF_UNSPEC connect only disconnects (allowed, reaches nothing)" \
	"--connect-tcp $ALLOWED" \
	"unspec-connect $L $DENIED" \
	"OK"

if [ -n "$mptcp" ]; then
	expect_net corral "MPTCP is judged as TCP" \
		"--connect-tcp $ALLOWED" \
		"connect-mptcp $L $ALLOWED + connect-mptcp $L $DENIED" \
		"OK EACCES"
else
	skip "MPTCP is judged as TCP" "MPTCP is not available in this kernel"
fi

got=$("$NETPROBE" connect-tcp $L $DENIED 2>&1)
is "$got" "connect-tcp $L $DENIED: OK" \
	"an unsandboxed process is unaffected while sandboxes with rules exist"

# ---- --log and learn --------------------------------------------------------

# (the log goes to a file: on stderr it would interleave with the output)
"$CORRAL" --log="$T/denials" --rx "$CORRAL_HELPERS" --connect-tcp $ALLOWED -- \
	"$NETPROBE" connect-tcp $L $DENIED + connect-tcp ::1 $DENIED + raw >/dev/null 2>&1
got=$(grep -v '^corral: denied read' "$T/denials" | sed 's/(pid [0-9]* /(pid N /')
is "$got" "corral: denied connect-tcp $L:$DENIED (pid N netprobe)
corral: denied connect-tcp [::1]:$DENIED (pid N netprobe)
corral: denied socket family 2 type 3 protocol 1 (pid N netprobe)" \
	"--log names the op, the address and port, the pid and the command"

got=$(cd "$T" && "$CORRAL" learn -o "$T/learned.profile" --rx "$CORRAL_HELPERS" -- \
	"$NETPROBE" connect-tcp $L $DENIED + bind-udp $L 7002 + sendto-udp ::1 53 2>&1)
is "$got" "connect-tcp $L $DENIED: OK
bind-udp $L 7002: OK
sendto-udp ::1 53: OK
corral: wrote $T/learned.profile: 4 rules from 0 refused paths (the command exited with 0)" \
	"learn lets the run reach the network and counts its network rules"
is "$(sed -n '/^\[network\]/,$p' "$T/learned.profile")" "[network]
connect-tcp = $L:$DENIED
bind-udp = $L:7002
connect-udp = [::1]:53
bind-udp = 0" \
	"learn records the ports (and addresses) the run used, and the port the unbound UDP socket bound on its send"
expect_net corral "the learned profile lets the same run through, and nothing else" \
	"--profile $T/learned.profile" \
	"connect-tcp $L $DENIED + bind-udp $L 7002 + sendto-udp ::1 53 + connect-tcp $L $ALLOWED" \
	"OK OK OK EACCES"

# ---- the Landlock engine ---------------------------------------------------

ABI=$(landlock_abi)
# an address rule it cannot check: not run, one line names the rule
got=$("$CORRAL" --engine=landlock --rx "$CORRAL_HELPERS" --connect-tcp 127.0.0.1:$ALLOWED -- \
	"$NETPROBE" connect-tcp $L $ALLOWED 2>&1)
rc=$?
why="it checks ports only, so the rule would allow port $ALLOWED on every address"
[ "$ABI" -ge 4 ] || why="it has no network rights (TCP needs ABI 4, UDP ABI 10)"
is "$rc: ${got%%;*}" "125: corral: Landlock ABI $ABI cannot enforce 'connect-tcp = 127.0.0.1:$ALLOWED': $why" \
	"landlock engine (ABI $ABI): an address rule is not run, and the line names it"
got=$(CORRAL_QUIET=0 "$CORRAL" --engine=landlock --rx "$CORRAL_HELPERS" --connect-tcp 127.0.0.1:$ALLOWED --net-best-effort -- \
	"$NETPROBE" connect-tcp $L $ALLOWED + connect-tcp ::1 $ALLOWED + connect-tcp $L $DENIED + sendto-udp $L 53 2>&1)
# what the one warning says is left at this ABI (UDP, which no rule
# allows, is refused by corral's seccomp filter below ABI 10), and so
# what the denied port and the UDP send get
if [ "$ABI" -ge 4 ]; then
	left="addresses unchecked" tcp=EACCES udp=EACCES
	name="TCP ports enforced, UDP refused, one warning naming addresses"
else
	left="TCP unconfined, addresses unchecked" tcp=OK udp=EACCES
	name="TCP not enforced, UDP refused, and one warning says so"
fi
is "$got" "corral: Landlock ABI $ABI confines the network partly: $left; see 'corral status'
connect-tcp $L $ALLOWED: OK
connect-tcp ::1 $ALLOWED: OK
connect-tcp $L $DENIED: $tcp
sendto-udp $L 53: $udp" \
	"landlock engine (ABI $ABI), --net-best-effort: $name"

done_testing
