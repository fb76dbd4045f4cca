#!/bin/bash
# admin.sh: corral setup/status/teardown, domain accounting and the
# launcher's own state, as root in the guest (in-guest.sh ran setup).
. "$(dirname "$0")/lib.sh"
need_helpers
is_root || skip_all "needs root (setup and teardown)"
[ -e /sys/fs/bpf/corral/info ] || skip_all "corral is not set up in this guest"

# live_domains: the number `corral status` reports
live_domains() {
	"$CORRAL" status | sed -n 's/^domains: \([0-9]*\) live$/\1/p'
}

# wait_domains N: poll status until N domains are live (TCG is slow)
wait_domains() {
	local i
	for ((i = 0; i < 100; i++)); do
		[ "$(live_domains)" = "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

out=$("$CORRAL" setup 2>&1)
is "$?:$out" "0:corral: already set up (/sys/fs/bpf/corral)" \
	"setup again is idempotent and says so"

out=$("$CORRAL" status 2>&1)
case $out in
*"bpf LSM: active"*"programs: pinned under /sys/fs/bpf/corral"*"domains: 0 live"*)
	ok "status: LSM active, programs pinned, no live domain" ;;
*) not_ok "status: LSM active, programs pinned, no live domain" "$out" ;;
esac
# the kernel, its Landlock ABI and every hook attached, by name
ll_abi=$("$CORRAL_HELPERS/ll-exec" --abi 2>/dev/null)
n_links=$(find /sys/fs/bpf/corral -maxdepth 1 -name 'link_*' | wc -l)
case $out in
"kernel: $(uname -r)"$'\n'"landlock: ABI $ll_abi"$'\n'*"hooks: $n_links attached: "*" file_open"*" inode_free"*)
	ok "status names the kernel ($(uname -r)), Landlock ABI $ll_abi and the $n_links hooks attached" ;;
*) not_ok "status names the kernel, the Landlock ABI and the hooks attached" \
	"kernel $(uname -r), Landlock ABI $ll_abi, $n_links link pins; status:" "$out" ;;
esac

"$CORRAL" --rx "$CORRAL_HELPERS" -- "$PROBE" sleep-read 4 /nonexistent \
	>/dev/null &
sleeper=$!
wait_domains 1 && ok "status counts a running sandbox as one live domain" ||
	not_ok "status counts a running sandbox as one live domain" \
		"$("$CORRAL" status 2>&1)"

out=$("$CORRAL" teardown 2>&1)
rc=$?
[ "$rc" = 125 ] && [[ $out == *"1 sandbox domain is live"* ]] &&
	[ -e /sys/fs/bpf/corral/info ] &&
	ok "teardown refuses while a domain is live (exit 125, pins kept)" ||
	not_ok "teardown refuses while a domain is live (exit 125, pins kept)" \
		"exit $rc: $out"

wait "$sleeper"
wait_domains 0 && ok "a finished sandbox leaves no live domain" ||
	not_ok "a finished sandbox leaves no live domain" "$("$CORRAL" status)"

# Threads and forks count up and down: 20 children, each with a thread.
"$CORRAL" --rx "$CORRAL_HELPERS" --rx /usr -- sh -c "
	for i in \$(seq 20); do $PROBE thread-read /nonexistent & done; wait" \
	>/dev/null 2>&1
wait_domains 0 && ok "forks and threads are counted down to zero" ||
	not_ok "forks and threads are counted down to zero" "$("$CORRAL" status)"

out=$("$CORRAL" --rx /usr --ro /proc -- sh -c \
	'grep -E "^(CapInh|CapPrm|CapEff|CapAmb|NoNewPrivs)" /proc/self/status' 2>&1)
want=$(printf 'CapInh:\t0000000000000000\nCapPrm:\t0000000000000000\nCapEff:\t0000000000000000\nCapAmb:\t0000000000000000\nNoNewPrivs:\t1')
is "$out" "$want" "the command runs with no capabilities and NO_NEW_PRIVS"

out=$(sh -c 'echo $$; exec "$0" -q --rx /usr -- sh -c "echo \$\$"' "$CORRAL" 2>&1)
pids=($out)
[ "${#pids[@]}" = 2 ] && [ "${pids[0]}" = "${pids[1]}" ] &&
	ok "-q: corral execs the command in its own process (no corral left)" ||
	not_ok "-q: corral execs the command in its own process (no corral left)" "$out"

# Without -q corral stays as the command's parent (it counts the denials,
# issue 35 point 7): a TERM sent to corral is passed on to the command,
# and corral exits with the command's status.
make_tmp T admin || exit 1
CORRAL_QUIET=0 "$CORRAL" --rx /usr -- sh -c 'trap "echo got TERM; exit 5" TERM; echo ready
	while :; do sleep 0.05; done' >"$T/term.out" 2>&1 &
watcher=$!
if wait_lines "$T/term.out" 1 20; then
	kill -TERM "$watcher"
	wait "$watcher"
	rc=$?
	is "$rc: $(tr '\n' ' ' <"$T/term.out")" "5: ready got TERM " \
		"without -q: a TERM sent to corral reaches the command, whose status corral exits with"
else
	kill -KILL "$watcher"
	not_ok "without -q: a TERM sent to corral reaches the command" "$(cat "$T/term.out")"
fi

if command -v setpriv >/dev/null; then
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$CORRAL" --engine=bpf --rx /usr -- true 2>&1)
	rc=$?
	[ "$rc" = 125 ] && [[ $out == *CAP_BPF* ]] &&
		ok "without CAP_BPF --engine=bpf exits 125 and names CAP_BPF" ||
		not_ok "without CAP_BPF --engine=bpf exits 125 and names CAP_BPF" \
			"exit $rc: $out"
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		env CORRAL_QUIET=0 "$CORRAL" --rx /usr -- cat /etc/shadow 2>&1)
	rc=$?
	[ "$rc" = 1 ] && [[ $out == "corral: using Landlock ABI "*"CAP_BPF"* ]] &&
		[[ $out == *"shadow: Permission denied"* ]] &&
		ok "without CAP_BPF auto falls back to Landlock, naming why" ||
		not_ok "without CAP_BPF auto falls back to Landlock, naming why" \
			"exit $rc: $out"
else
	skip "without CAP_BPF corral exits 125" "setpriv not installed"
fi

# Rules left by a dead domain (a launcher killed between creating its
# domain and entering it) are reclaimed when the map is full, not walked
# on every launch: fill the rules map with a dead domain's rules, launch.
OB=$CORRAL_HELPERS/openbench
if [ -x "$OB" ]; then
	wait_domains 0
	filled=$("$OB" fill /sys/fs/bpf/corral/rules 0x5eed0000dead0001 2>&1)
	out=$("$CORRAL" --engine=bpf --rx "$CORRAL_HELPERS" -- "$PROBE" read "$PROBE" 2>&1)
	rc=$?
	wait_domains 0
	left=$("$OB" count /sys/fs/bpf/corral/rules 2>&1)
	[ "$rc" = 0 ] && [[ $out == *"read $PROBE: OK"* ]] && [ "$left" = 0 ] &&
		ok "a rules map filled by a dead domain is reclaimed at the next launch" ||
		not_ok "a rules map filled by a dead domain is reclaimed at the next launch" \
			"filled $filled; exit $rc: $out; rules left: $left"
else
	skip "a rules map filled by a dead domain is reclaimed at the next launch" \
		"openbench not built"
fi

# Teardown with a live domain and --force, then set up again for others.
"$CORRAL" --rx "$CORRAL_HELPERS" -- "$PROBE" sleep-read 3 /nonexistent \
	>/dev/null &
sleeper=$!
wait_domains 1
out=$("$CORRAL" teardown --force 2>&1)
rc=$?
[ "$rc" = 0 ] && [ ! -e /sys/fs/bpf/corral ] &&
	ok "teardown --force unpins everything even with a live domain" ||
	not_ok "teardown --force unpins everything even with a live domain" \
		"exit $rc: $out"
wait "$sleeper"
out=$("$CORRAL" status 2>&1)
is "$?:$(printf '%s\n' "$out" | head -n 4)" "0:kernel: $(uname -r)
landlock: ABI $ll_abi
bpf LSM: active
programs: not set up (run 'corral setup' as root)" \
	"status after teardown says programs are not set up"
[[ $out == *$'\n'"engine: Landlock ABI "* ]] &&
	ok "status after teardown says launches get Landlock" ||
	not_ok "status after teardown says launches get Landlock" "$out"
out=$("$CORRAL" --engine=bpf --rx /usr -- true 2>&1)
rc=$?
[ "$rc" = 125 ] && [[ $out == *"corral setup"* ]] &&
	ok "launching without setup exits 125 and says to run corral setup" ||
	not_ok "launching without setup exits 125 and says to run corral setup" \
		"exit $rc: $out"
out=$("$CORRAL" setup 2>&1)
[ $? = 0 ] && [[ $out == "corral: set up "*" hooks"* ]] &&
	ok "setup after teardown loads and pins again" ||
	not_ok "setup after teardown loads and pins again" "$out"

done_testing
