#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# private-tmp.sh: each sandbox gets a private temporary directory (issue
# 33, point 4).  With TMPDIR unset or naming a shared sticky directory,
# the command's TMPDIR and ${TMPDIR} (gcc.profile: rw = ${TMPDIR}) are a
# 0700 directory of the user's under $XDG_RUNTIME_DIR/corral, or under
# /tmp/corral-UID when XDG_RUNTIME_DIR is not a 0700 directory of the
# user's; a private TMPDIR of the user's is kept; a /tmp/corral-UID made
# by someone else is refused; a launch reclaims the directories of
# sandboxes that are gone, never those of live ones.
#
#   T/          0755, so that uid $U can reach what it is given
#   T/run/      0700, root's: XDG_RUNTIME_DIR for the launches as root
#   T/open/     0755: an XDG_RUNTIME_DIR that is not private
#   T/mine/     0700, root's: a private TMPDIR of the user's
#   T/u/        0700, uid $U's: its XDG_RUNTIME_DIR
#   /tmp/corral-outside.*  a file made outside, in the shared /tmp
#
# Launches use the Landlock engine (skipped without it); those as another
# user run with setpriv as uid $U, a uid nobody on the host uses, whose
# /tmp/corral-$U this suite makes, squats and removes.
. "$(dirname "$0")/../integration/lib.sh"

[ -x "$CORRAL" ] || { echo "Bail out! CORRAL=$CORRAL is not built"; exit 1; }
[ "$(landlock_abi)" -gt 0 ] 2>/dev/null || skip_all "Landlock is not enabled"
is_root || skip_all "needs root (to act as another user with setpriv)"
U=65533
[ ! -e "/tmp/corral-$U" ] || skip_all "/tmp/corral-$U exists; remove it"
make_tmp T private-tmp || skip_all "cannot make a temp dir"
outside=$(mktemp /tmp/corral-outside.XXXXXX) || skip_all "cannot write /tmp"
chmod 644 "$outside" && echo secret >"$outside"
cleanup_more() {
	rm -rf "$outside" "/tmp/corral-$U"
	cleanup_tmp
}
trap cleanup_more EXIT
chmod 755 "$T"
mkdir -m 700 "$T/run" "$T/mine" "$T/u" && mkdir -m 755 "$T/open" &&
	chown "$U:$U" "$T/u" || exit 1
P=$CORRAL_HELPERS/probe

# launch USER ENV...: `corral --profile gcc -- sh -c SCRIPT` as USER
# (root or $U), with only ENV and PATH in its environment; SCRIPT from $S
launch() {
	local user=$1 as=()
	shift
	[ "$user" = root ] ||
		as=(setpriv --reuid="$user" --regid="$user" --clear-groups)
	(cd "$T" && "${as[@]}" env -i PATH=/usr/bin:/bin "$@" "$CORRAL" -q \
		--engine=landlock --profile gcc --rx "$CORRAL_HELPERS" -- \
		sh -c "$S" 2>&1)
}

# is_private DIR USER: a 0700 directory owned by USER
is_private() {
	[ -d "$1" ] && [ ! -L "$1" ] &&
		[ "$(stat -c '%a %u' "$1")" = "700 $2" ]
}

# ---- where the private directory is (table: name, user, base, env) ------
S='echo "$TMPDIR"'
while IFS='|' read -r name user base env; do
	[ -n "$name" ] || continue
	uid=$([ "$user" = root ] && echo 0 || echo "$user")
	# shellcheck disable=SC2086 # env is a list of NAME=VALUE words
	got=$(launch "$user" $env)
	if [[ $got == "$base"/sandbox-* ]] && [ "${got%/*}" = "$base" ] &&
	   is_private "$got" "$uid" && is_private "$base" "$uid"; then
		ok "$name: TMPDIR is $base/sandbox-*, 0700, the user's"
	else
		not_ok "$name" "expected a 0700 directory of uid $uid under $base" \
			"got: $got" "$(ls -ld "$got" "$base" 2>&1)"
	fi
done <<EOF
TMPDIR unset, XDG_RUNTIME_DIR private|root|$T/run/corral|XDG_RUNTIME_DIR=$T/run
TMPDIR=/tmp|root|$T/run/corral|XDG_RUNTIME_DIR=$T/run TMPDIR=/tmp
TMPDIR=/var/tmp|root|$T/run/corral|XDG_RUNTIME_DIR=$T/run TMPDIR=/var/tmp
TMPDIR=/dev/shm|root|$T/run/corral|XDG_RUNTIME_DIR=$T/run TMPDIR=/dev/shm
TMPDIR a missing directory|root|$T/run/corral|XDG_RUNTIME_DIR=$T/run TMPDIR=$T/none
uid $U, TMPDIR unset, XDG_RUNTIME_DIR its own|$U|$T/u/corral|XDG_RUNTIME_DIR=$T/u
uid $U, TMPDIR=/tmp, no XDG_RUNTIME_DIR|$U|/tmp/corral-$U|TMPDIR=/tmp
uid $U, XDG_RUNTIME_DIR root's|$U|/tmp/corral-$U|XDG_RUNTIME_DIR=$T/run
uid $U, XDG_RUNTIME_DIR 0755|$U|/tmp/corral-$U|XDG_RUNTIME_DIR=$T/open
EOF

# ---- a private TMPDIR of the user's is kept ------------------------------
got=$(launch root XDG_RUNTIME_DIR="$T/run" TMPDIR="$T/mine")
is "$got" "$T/mine" "TMPDIR a 0700 directory of the user's: kept"
# printed ENV...: the line of `corral --print-profile=gcc` that ${TMPDIR}
# expands to (gcc.profile line 22)
printed() {
	(cd "$T" && env -i PATH=/usr/bin:/bin "$@" "$CORRAL" \
		--print-profile=gcc | grep 'gcc.profile:22$' | awk '{print $3}')
}
is "$(printed TMPDIR="$T/mine")" "$T/mine" \
	"TMPDIR of the user's: \${TMPDIR} in gcc.profile is it"

# ---- what the sandbox reaches --------------------------------------------
# The command says its TMPDIR first; the probe's lines name it $TMPDIR.
S="echo \"\$TMPDIR\"; exec $P read $outside + write $outside + create \"\$TMPDIR/f\" + read \"\$TMPDIR/f\""
want="read $outside: EACCES|write $outside: EACCES|create \$TMPDIR/f: OK|read \$TMPDIR/f: OK"
while IFS='|' read -r name env; do
	[ -n "$name" ] || continue
	# shellcheck disable=SC2086
	out=$(launch root XDG_RUNTIME_DIR="$T/run" $env)
	dir=$(head -n1 <<<"$out")
	got=$(tail -n +2 <<<"$out" | sed "s|$dir/|\$TMPDIR/|" | paste -sd'|')
	if [[ $dir == "$T/run/corral/"* ]] && [ "$got" = "$want" ]; then
		ok "$name: a file in /tmp is out of reach, \${TMPDIR} is writable"
	else
		not_ok "$name: /tmp out of reach, \${TMPDIR} writable" \
			"want: $want" "got:  $dir $got"
	fi
done <<EOF
TMPDIR unset|
TMPDIR=/tmp|TMPDIR=/tmp
EOF

# ---- print-profile and check: the per-user base, never /tmp --------------
is "$(printed XDG_RUNTIME_DIR="$T/run" TMPDIR=/tmp)" "$T/run/corral" \
	"--print-profile=gcc with TMPDIR=/tmp: \${TMPDIR} is the per-user base"

# ---- /tmp/corral-UID made by someone else: refused -----------------------
S='echo ran'
rm -rf "/tmp/corral-$U"
while IFS='|' read -r name make; do
	[ -n "$name" ] || continue
	rm -rf "/tmp/corral-$U"
	eval "$make"
	got=$(launch "$U"; echo "exit $?")
	if [[ $got == "corral: /tmp/corral-$U: "*$'\n'"exit 125" ]] &&
	   [ "$(wc -l <<<"$got")" = 2 ]; then
		ok "$name: one line, exit 125, nothing run"
	else
		not_ok "$name: one line, exit 125" "got: $got"
	fi
done <<EOF
/tmp/corral-$U root's, 0700|mkdir -m 700 /tmp/corral-$U
/tmp/corral-$U root's, 0777|mkdir -m 777 /tmp/corral-$U
/tmp/corral-$U the user's, 0777|mkdir -m 777 /tmp/corral-$U; chown $U /tmp/corral-$U
/tmp/corral-$U a symlink to the user's directory|ln -s $T/u /tmp/corral-$U
/tmp/corral-$U a file|touch /tmp/corral-$U
EOF
rm -rf "/tmp/corral-$U"

# ---- reclaim --------------------------------------------------------------
# A finished sandbox; one whose command still runs; one whose command
# exited and left a child running.  Each writes its TMPDIR to a file.
R="XDG_RUNTIME_DIR=$T/run"
S='echo "$TMPDIR"; touch "$TMPDIR/f"'
done1=$(launch root "$R" | head -n1)
[ -e "$done1/f" ] || echo "Bail out! the first sandbox did not run: $done1"
S="echo \"\$TMPDIR\" >$T/live; touch \"\$TMPDIR/f\"; exec sleep 60"
launch root "$R" >/dev/null &
live_pid=$!
S="echo \"\$TMPDIR\" >$T/child; touch \"\$TMPDIR/f\"; sleep 60 </dev/null >/dev/null 2>&1 &"
launch root "$R" >/dev/null
for _ in $(seq 100); do [ -s "$T/live" ] && break; sleep 0.1; done
live=$(cat "$T/live") child=$(cat "$T/child")
[ -e "$live/f" ] && [ -e "$child/f" ] ||
	echo "Bail out! the sandboxes did not start: $live $child"

# the sleeps this suite started: their TMPDIR is under T/run
our_sleeps() {
	local p
	for p in $(pgrep -x sleep); do
		{ tr '\0' '\n' <"/proc/$p/environ"; } 2>/dev/null |
			grep -q "^TMPDIR=$T/run/corral/" && echo "$p"
	done
}
S='echo "$TMPDIR"; touch "$TMPDIR/f"'
recent=$(launch root "$R" | head -n1)
# unlocked and unchanged for a day: reclaimable
touch -d '2 days ago' "$done1" "$live" "$child"
S='echo "$TMPDIR"'
launch root "$R" >/dev/null
while IFS='|' read -r name dir want; do
	[ -n "$name" ] || continue
	if [ -e "$dir/f" ]; then got=kept; else got=removed; fi
	if [ -n "$dir" ] && [ "$got" = "$want" ]; then
		ok "the next launch: $name: $want"
	else
		not_ok "the next launch: $name: $want" "$dir: $got"
	fi
done <<EOF
a finished sandbox's directory, unchanged for a day|$done1|removed
a finished sandbox's directory changed within the day (a process that closed its descriptor may still use it)|$recent|kept
a live sandbox's directory|$live|kept
the directory of a sandbox whose command exited, its child alive|$child|kept
EOF
mapfile -t sleeps < <(our_sleeps)
[ "${#sleeps[@]}" = 2 ] || diag "expected 2 sleeps, found: ${sleeps[*]}"
[ "${#sleeps[@]}" = 0 ] || kill "${sleeps[@]}"
wait "$live_pid" 2>/dev/null
for _ in $(seq 50); do [ -z "$(our_sleeps)" ] && break; sleep 0.1; done
touch -d '2 days ago' "$live" "$child"
launch root "$R" >/dev/null
if [ -n "$live" ] && [ -n "$child" ] && [ ! -e "$live" ] && [ ! -e "$child" ]; then
	ok "once both are gone, the next launch removes their directories"
else
	not_ok "once gone, both are removed" "$(ls -la "$live" "$child" 2>&1)"
fi
left=$(find "$T/run/corral" -mindepth 1 -maxdepth 1 -mmin +1440 | wc -l)
is "$left" 0 "the base holds no directory unchanged for a day"

done_testing
