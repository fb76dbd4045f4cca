#!/bin/bash
# shared-tables.sh: two questions asked of every shared table, "who can
# fill it" and "what if it dies here".  One sandbox must not exhaust a
# table the others need, and a launcher killed at any point of a launch
# must leave nothing behind.
# Attacks run as nobody against corral installed as a distribution
# installs it (setgid corral, cap_bpf+p); the second sandbox belongs to
# another user (uid 65533).
#
#   - unix sockets: one sandbox holds 20,000 (a global map of 16,384 did
#     fill, and another user's socket(AF_UNIX) got ENOMEM);
#   - devices opened without the ioctl right under ever new credentials
#     (a global map of 16,384 did fill, and another user's --ro /dev
#     sandbox could no longer open /dev/urandom): the sandbox gets
#     EACCES past its share, the other still opens;
#   - a launcher with 243 rules (among them a deny inside a writable tree,
#     whose name it pins after registering the rules) and a network rule,
#     SIGKILLed at delays sweeping a whole launch: the maps come back to
#     where they were and the same launch runs (a killed launcher's domain
#     and rules used to stay for good: 2,000 kills filled the rules map).
#
# Runs as root in the test guest only.  Environment: CORRAL,
# CORRAL_HELPERS (see lib.sh); SHARED_TABLES_KILLS (default 300).

. "$(dirname "$0")/lib.sh"

need_helpers
is_root || skip_all "needs root: installs corral setgid with cap_bpf+p, reads the pinned maps"
[ "$(cat /proc/sys/kernel/hostname 2>/dev/null)" = corral-vm ] ||
	skip_all "changes the system (group, /usr/local): only in the test guest"
case " ${CORRAL_ARGS:-} " in
*" --engine=landlock "*) skip_all "the tables are the bpf engine's" ;;
esac
ATK=$CORRAL_HELPERS/attack
OB=$CORRAL_HELPERS/openbench
[ -x "$ATK" ] && [ -x "$OB" ] || skip_all "attack or openbench is not built in $CORRAL_HELPERS"
for c in setpriv setcap groupadd getent install prlimit; do
	type -P "$c" >/dev/null || skip_all "$c is not installed"
done
PIN=/sys/fs/bpf/corral
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
OTHER=(setpriv --reuid=65533 --regid=65533 --clear-groups)
: "${SHARED_TABLES_KILLS:=300}"

install_launcher || skip_all "cannot install corral setgid corral with cap_bpf+p"
setup_installed || skip_all "corral setup with the installed launcher failed"
make_tmp W tables || skip_all "cannot make a temp dir"
chmod 0755 "$W"
BIN=$(mktemp -d /usr/local/lib/corral-tables.XXXXXX) || skip_all "no dir for the helper"
_tmp_dirs+=("$BIN")
chmod 0755 "$BIN"
cp "$ATK" "$BIN/attack" && chmod 0755 "$BIN/attack" || skip_all "cannot copy the helper"
ATK=$BIN/attack

cd / || exit 1

# hog OUT CMD...: CMD in the background, its output in OUT, until the
# first line is there (60 s at most); its pid in $hog
hog() {
	local out=$1 i
	shift
	"$@" >"$out" 2>&1 </dev/null &
	hog=$!
	kill_at_exit "$hog"
	for ((i = 0; i < 600; i++)); do
		[ -s "$out" ] && return 0
		sleep 0.1
	done
}

# ---- one sandbox fills, another must not notice -----------------------

# prlimit: the hog may hold 40,000 descriptors (above 16,384)
hog "$W/unix.out" prlimit --nofile=40000:40000 "${NOBODY[@]}" "$UC" --rx "$BIN" -- \
	"$ATK" fill-unix 20000 + hold 120
is "$(head -n1 "$W/unix.out")" "fill-unix 20000: 20000" \
	"one sandbox holds 20,000 unix sockets (no shared table to fill)"
is "$("${OTHER[@]}" "$ATK" fill-unix 10 2>&1)" "fill-unix 10: 10" \
	"meanwhile, outside any sandbox, another user makes unix sockets"
is "$("${OTHER[@]}" "$UC" --rx "$BIN" -- "$ATK" fill-unix 10 2>&1)" "fill-unix 10: 10" \
	"meanwhile another user's sandbox makes unix sockets"
kill -KILL "$hog"
wait "$hog" 2>/dev/null

hog "$W/ioctl.out" prlimit --nofile=40000:40000 "${NOBODY[@]}" "$UC" --rx "$BIN" --ro /dev -- \
	"$ATK" fill-ioctl 20000 /dev/null + hold 120
is "$(head -n1 "$W/ioctl.out")" "fill-ioctl 20000 /dev/null: 64 EACCES" \
	"a sandbox opening /dev/null without the ioctl right under new credentials 20,000 times gets EACCES past its share of 64"
is "$("${OTHER[@]}" "$UC" --rx "$BIN" --ro /dev -- "$ATK" fill-ioctl 5 /dev/urandom 2>&1)" \
	"fill-ioctl 5 /dev/urandom: 5" \
	"meanwhile another user's --ro /dev sandbox opens /dev/urandom"
kill -KILL "$hog"
wait "$hog" 2>/dev/null

hog "$W/ipc.out" "${NOBODY[@]}" "$UC" --rx "$BIN" -- "$ATK" fill-ipc 1000 + hold 120
is "$(head -n1 "$W/ipc.out")" "fill-ipc 1000: 64 ENOSPC" \
	"a sandbox making 1,000 SysV shared memory segments gets ENOSPC past its share of 64"
is "$("${OTHER[@]}" "$UC" --rx "$BIN" -- "$ATK" fill-ipc 5 2>&1)" "fill-ipc 5: 5" \
	"meanwhile another user's sandbox makes SysV segments"
is "$("${OTHER[@]}" "$ATK" fill-ipc 5 2>&1)" "fill-ipc 5: 5" \
	"meanwhile, outside any sandbox, another user makes SysV segments"
kill -KILL "$hog"
wait "$hog" 2>/dev/null

# ---- launchers killed at every point of a launch ------------------------

mkdir -p "$W/rules" && chmod 0755 "$W/rules" || skip_all "cannot make the rule dirs"
# a deny inside a writable tree: the launcher pins its name and the
# directory above it (deny_pins) after registering the rules
mkdir -p "$W/rules/w/p" && echo p >"$W/rules/w/p/prot" || exit 1
rules=(--connect-tcp 127.0.0.1:1 --rw "$W/rules/w" --deny "write:$W/rules/w/p/prot")
for ((i = 1; i <= 240; i++)); do
	mkdir -p "$W/rules/d$i"
	rules+=(--ro "$W/rules/d$i")
done
maps="domains rules domain_rules domain_nrules net_policy"
counts() {
	local m out=""
	for m in $maps; do
		out+="$m $("$OB" count "$PIN/$m") "
	done
	printf '%s\n' "${out% }"
}
"$OB" settle "$PIN/domains" 20 >/dev/null 2>&1
baseline=$(counts)
diag "baseline: $baseline"

launch=("$UC" --rx "$BIN" "${rules[@]}" -- "$ATK" hold 0)
"${NOBODY[@]}" "${launch[@]}" >/dev/null 2>&1    # warm: time the next one
"$OB" settle "$PIN/domains" 20 >/dev/null 2>&1
start=$(date +%s%N)
got=$("${NOBODY[@]}" "${launch[@]}" 2>&1)
took_us=$((($(date +%s%N) - start) / 1000))
is "$got" "hold 0: OK" "a launch with 243 rules (a deny, its pins) and a network rule runs (${took_us} us)"
# delays from 0 to 1.2 launches, SHARED_TABLES_KILLS of them
step=$((took_us * 12 / 10 / SHARED_TABLES_KILLS + 1))
got=$("${NOBODY[@]}" "$ATK" kill-sweep 0 $((took_us * 12 / 10)) "$step" "${launch[@]}")
diag "kill-sweep every $step us: $got"
[[ $got == "killed "* ]] && [ "${got#killed }" != "0 exited 0" ] &&
	ok "launchers killed at $SHARED_TABLES_KILLS delays across a launch ($got)" ||
	not_ok "launchers killed at $SHARED_TABLES_KILLS delays across a launch" "$got"
"$OB" settle "$PIN/domains" 20 >/dev/null 2>&1
is "$(counts)" "$baseline" \
	"after the killed launches: every map is back to its baseline (nothing of a dead launcher outlives it)"
is "$("${NOBODY[@]}" "${launch[@]}" 2>&1)" "hold 0: OK" \
	"after the killed launches: the same launch still runs"

# A watched run (--log) forks: the launcher enters its child and gives up
# its claim on the domain, so the launcher exiting with the command's
# status takes nothing from what the command left running.
mkdir -p "$W/linger" && chown 65534:65534 "$W/linger" && echo f >"$W/rules/d1/f"
"${NOBODY[@]}" "$UC" --log="$W/linger/log" --rx "$BIN" --ro "$W/rules/d1" --rw "$W/linger" -- \
	"$ATK" linger "$W/rules/d1/f" "$W/linger/out" 3 >/dev/null 2>&1
for ((i = 0; i < 300; i++)); do
	[ -s "$W/linger/out" ] && break
	sleep 0.1
done
is "$(cat "$W/linger/out" 2>&1)" "read $W/rules/d1/f: OK" \
	"a process a watched (--log) sandbox left behind forks and reads after the launcher exited"
is "$(grep -c 'denied bpf' "$W/linger/log")" 0 "the watched launch itself is denied nothing (no bpf(2) from inside)"

done_testing
