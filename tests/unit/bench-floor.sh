#!/bin/bash
# bench-floor.sh: `openbench floor`, the launch floor that (d) in
# tests/bench/RESULTS.md stands on, does what it claims: the command runs
# without capabilities, with NO_NEW_PRIVS, under exactly one seccomp
# filter (the sandbox's; the parser child's stays in the child), and its
# exit status comes back.
. "$(dirname "$0")/../integration/lib.sh"

OB=$CORRAL_HELPERS/openbench

"$OB" floor /bin/sh -c 'exit 3'
is "$?" 3 "the command's exit status comes back"

status=$("$OB" floor /bin/sh -c 'cat /proc/self/status')
field() { printf '%s\n' "$status" | awk -v f="$1:" '$1 == f { print $2 }'; }
is "$(field CapPrm):$(field CapEff):$(field CapAmb)" \
	"0000000000000000:0000000000000000:0000000000000000" \
	"no capability is left, permitted, effective or ambient"
is "$(field NoNewPrivs)" 1 "NO_NEW_PRIVS is set"
is "$(field Seccomp)" 2 "a seccomp filter is installed"
if [ -n "$(field Seccomp_filters)" ]; then
	is "$(field Seccomp_filters)" 1 \
		"one filter: the sandbox's, not the parser child's too"
else
	skip "filter count" "this kernel's /proc has no Seccomp_filters"
fi
# The sandbox filter's deny list holds: turning address randomization
# off (personality ADDR_NO_RANDOMIZE) is refused.
if setarch "$(uname -m)" -R /bin/true 2>/dev/null; then
	out=$("$OB" floor setarch "$(uname -m)" -R /bin/true 2>&1)
	if [[ $out == *"Operation not permitted"* ]]; then
		ok "the sandbox filter refuses ADDR_NO_RANDOMIZE"
	else
		not_ok "the sandbox filter refuses ADDR_NO_RANDOMIZE" "$out"
	fi
else
	skip "ADDR_NO_RANDOMIZE refused" "setarch -R fails here even unsandboxed"
fi
done_testing
