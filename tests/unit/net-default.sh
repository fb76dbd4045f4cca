#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# net-default.sh: the network is off unless a profile asks (issue 35,
# point 3).  --print-profile always has a [network] section with the mode
# in force and where it comes from:
#
#   - each shipped profile that needs no network says net = none
#   - a profile without [network] (its includes neither): none, by default
#   - --net=all opens it; flags alone, no profile: all (Landlock's rule)
#   - a profile with rules keeps them, included or combined, in either
#     order, with one that says none; a flag rule lifts the default
#   - explain answers with the default, and asks for a rule only
#
# Then, where Landlock confines TCP (ABI 4+), a launch: netprobe's connect
# to a loopback listener is refused under a profile without [network], and
# allowed outside, with --net=all, with flags alone and with a port rule.
#
#   T/home/          HOME
#   T/home/proj/     the project (.git) every case runs in
#   T/p/             plain.profile (no [network]), inc-curl.profile
#                    (include = curl), net.profile (helpers, no [network])
. "$(dirname "$0")/../integration/lib.sh"

[ -x "$CORRAL" ] || { echo "Bail out! CORRAL=$CORRAL is not built"; exit 1; }
: "${CORRAL_SRCDIR:=$(dirname "$0")/../..}"
make_tmp T net-default || skip_all "cannot make a temp dir"
H=$T/home
mkdir -p "$H/proj/.git" "$T/p" || exit 1
printf '[filesystem]\nro = ${PROJECT}\n' >"$T/p/plain.profile"
printf '[profile]\ninclude = curl\n' >"$T/p/inc-curl.profile"
printf '[filesystem]\nrx = %s\n' "$CORRAL_HELPERS" >"$T/p/net.profile"
PPATH=$T/p:$CORRAL_SRCDIR/profiles

# run ARGS...: corral ARGS in the project, HOME=T/home, profiles from T/p
# then the shipped ones; stdout, blanks squeezed, in $out; stderr in $err
run() {
	out=$(cd "$H/proj" && HOME=$H CORRAL_PROFILE_PATH=$PPATH CORRAL_QUIET=1 \
		"$CORRAL" "$@" 2>"$T/err" </dev/null | tr -s ' ')
	err=$(cat "$T/err")
}

# expect NAME "LINE[|LINE...]" ARGS...: `corral ARGS` prints each LINE
expect() {
	local name=$1 want line miss=
	IFS='|' read -ra want <<<"$2"
	shift 2
	run "$@"
	for line in "${want[@]}"; do
		grep -qFx -- "$line" <<<"$out" || miss="$miss$line"$'\n'
	done
	if [ -z "$miss" ]; then
		ok "$name"
	else
		not_ok "$name" "corral $*" "missing: $miss" "got: $out" "stderr: $err"
	fi
}

# cases: expect for each case on stdin: its name, the arguments (split at
# spaces), the lines it must print ('|' between them), a blank line
cases() {
	local name args text
	while read -r name && read -ra args && read -r text; do
		expect "$name" "$text" "${args[@]}"
		read -r || break
	done
}

# at P RE: "P.profile:N", N the line of the shipped P.profile matching RE
at() {
	echo "$1.profile:$(grep -n -m1 -- "$2" "$CORRAL_SRCDIR/profiles/$1.profile" | cut -d: -f1)"
}
dflt="net = none ; default: no profile asks for the network"
rules="net = rules ; implied by $(at network '^connect-udp')"

# ---- shipped profiles that need no network -----------------------------
# each says so itself, and --print-profile says none (make's comes
# from gcc, which it includes first)
for p in gcc make tar unzip jq python3 shell node; do
	run --print-profile="$p"
	if grep -qx 'net = none' "$CORRAL_SRCDIR/profiles/$p.profile" &&
		grep -qE '^net = none ; [a-z0-9]+\.profile:[0-9]+$' <<<"$out"; then
		ok "$p.profile says net = none"
	else
		not_ok "$p.profile says net = none" "got: $out" "stderr: $err"
	fi
done

# ---- what a launch with profiles gets ----------------------------------
cases <<EOF
a profile without [network]: none, by default
--print-profile=plain
[network]|$dflt

--net=all opens it
--print-profile=plain --net=all
net = all ; --net on the command line

flags alone, no profile: all
--rx /usr --print-profile
[network]|net = all ; default: no network rule, not confined

a flag rule lifts the default
--print-profile=plain --connect-tcp 8080
net = rules ; implied by --connect-tcp on the command line|connect-tcp = 8080 ; --connect-tcp on the command line

--net=none on the command line closes a profile with rules
--print-profile=curl --net=none
net = none ; --net on the command line

a profile with rules keeps them
--print-profile=curl
$rules|connect-tcp = 443 ; $(at curl '^connect-tcp')

a profile including one with rules keeps them
--print-profile=inc-curl
$rules|connect-tcp = 443 ; $(at curl '^connect-tcp')

rules, then a profile saying none: the rules stay
--profile curl --print-profile=gcc
$rules|connect-tcp = 443 ; $(at curl '^connect-tcp')

a profile saying none, then rules: the rules
--profile gcc --print-profile=curl
$rules|connect-tcp = 443 ; $(at curl '^connect-tcp')

npm: node's none gives way to npm's rules
--print-profile=npm
$rules|connect-tcp = 443 ; $(at npm '^connect-tcp')

pip: python3's none gives way to pip's rules
--print-profile=pip
$rules|connect-tcp = 443 ; $(at pip '^connect-tcp')

explain under a profile saying none: a rule is enough
explain --profile gcc 127.0.0.1:80
denied: connect-tcp 127.0.0.1:80 (net = none at $(at gcc '^net = none') refuses every bind, connect and send; add: --connect-tcp 127.0.0.1:80 or 'connect-tcp = 127.0.0.1:80' in [network])

explain under the default: denied, and why
explain --profile plain 127.0.0.1:80
denied: connect-tcp 127.0.0.1:80 (no profile asks for the network, so net = none refuses every bind, connect and send; add: --connect-tcp 127.0.0.1:80 or 'connect-tcp = 127.0.0.1:80' in [network])
EOF

# ---- a launch ----------------------------------------------------------
# launch NAME WANT ARGS...: netprobe connect-tcp to the listener, under
# `corral ARGS` (or outside, with no ARGS), prints WANT
launch() {
	local name=$1 want="connect-tcp 127.0.0.1 $PORT: $2"
	shift 2
	if [ $# -eq 0 ]; then
		out=$("$NETPROBE" connect-tcp 127.0.0.1 "$PORT" 2>&1)
		err=
	else
		run "$@" -- "$NETPROBE" connect-tcp 127.0.0.1 "$PORT"
	fi
	is "$out" "$want" "$name"
	[ "$out" == "$want" ] || diag "corral $*" "stderr: $err"
}

PORT=$((20000 + $$ % 20000))
if [ ! -x "$NETPROBE" ] || [ ! -x "$ORACLE" ]; then
	skip "a launch: helpers not built (make check builds them)"
elif [ "$(landlock_abi)" -lt 4 ]; then
	skip "a launch: Landlock ABI $(landlock_abi) confines no TCP (4+)"
elif ! net_serve "$PORT"; then
	not_ok "a loopback listener on port $PORT"
else
	launch "outside any sandbox: connects" OK
	launch "a profile without [network]: refused" EACCES --profile net
	launch "the same with --net=all: connects" OK --profile net --net=all
	launch "the same with a rule for the port: connects" OK \
		--profile net --connect-tcp "$PORT"
	launch "flags alone, no profile: connects" OK --rx "$CORRAL_HELPERS"
fi

done_testing
