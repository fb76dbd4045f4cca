#!/bin/bash
# landlock-bind.sh: deny rules under the Landlock engine with the deny's
# filesystem mounted a second time (a bind mount, as firejail, docker or
# snap leave them), on the host.  Which allows reach a deny is judged by
# inode along every mount that shows it (sandbox/landlock_deny.c): a deny
# no allow reaches needs nothing and runs; a deny under an allow runs
# where allowing what is around it is exact, and holds through both
# paths; otherwise corral refuses (125) in one line naming the cause: the
# other mount point, or the hard links.
#
# Environment: CORRAL, CORRAL_HELPERS (see Makefile.am).  Needs root (to
# bind-mount); every mount is undone at exit.
. "$(dirname "$0")/../integration/lib.sh"

[ "$("$CORRAL_HELPERS/ll-exec" --abi 2>/dev/null || echo 0)" -gt 0 ] ||
	skip_all "Landlock is not enabled on this kernel"
[ "$(id -u)" = 0 ] || skip_all "bind-mounting a filesystem needs root"
make_tmp T landlock-bind || skip_all "cannot make a temp dir"
H=$T/home
mkdir -p "$H/.ssh" "$H/proj/mnt" "$T/out"
echo k >"$H/.ssh/id"
echo a >"$H/a.txt"
echo l >"$H/linked"
ln "$H/linked" "$T/linked-too"

# The filesystem $T is on, bound at $T/out (outside every allow) or at
# $H/proj/mnt (inside the allow on $H); $B is $H seen through it.
FS=$(stat -c %m "$T")
rel=${H#"${FS%/}"}
bound=""
unbind() {
	[ -z "$bound" ] || umount "$bound" ||
		umount -l "$bound" || echo "# cannot unmount $bound" >&2
	bound=""
}
bind_at() {
	unbind
	mount --bind "$FS" "$1" || return 1
	bound=$1
}
trap 'unbind; cleanup_tmp' EXIT

bind_at "$T/out" || skip_all "cannot bind-mount $FS (mount --bind failed)"
is "$(cat "$T/out$rel/.ssh/id" 2>&1)" "k" \
	"control: outside the sandbox, the bind mount's path reaches the secret"
unbind

WARN="corral: Landlock cannot take rights away: each deny is made by allowing what is around it; see corral(1)"
NO="corral: $H/.ssh: a deny Landlock cannot honour here:"

# Cases: name | bind at | rules | probe ops | answers | stderr | status.
# @B in ops stands for $H through the bind mount.
cases=(
	"a deny no allow reaches runs, and needs nothing|$T/out|--deny $H/.ssh|read $H/.ssh/id + read @B/.ssh/id + read $H/a.txt|EACCES EACCES EACCES||0"
	"a deny under an allow, the other mount outside every allow: it runs and the deny holds through both paths|$T/out|--ro $H --deny $H/.ssh|read $H/.ssh/id + read @B/.ssh/id + readdir @B/.ssh + read $H/a.txt + read @B/a.txt|EACCES EACCES EACCES OK OK|$WARN|0"
	"the other mount inside the allow: refused, in one line naming it|$H/proj/mnt|--ro $H --deny $H/.ssh|read $H/.ssh/id||$NO the same filesystem is also mounted at $H/proj/mnt, inside the allow on $H; use the bpf engine or drop that mount|125"
	"an allow on the other mount point reaches the deny through it: refused, in one line naming it|$T/out|--ro $T/out --deny $H/.ssh|read $H/.ssh/id||$NO the allow on $T/out reaches it through another mount point; use the bpf engine or name it by the deny's path|125"
	"a file with another hard link under an allow: refused, in one line naming the links|$T/out|--ro $H --deny $H/linked|read $H/linked||corral: $H/linked: a deny Landlock cannot honour here: the file has 2 hard links, and an allow may reach another of them; use the bpf engine|125"
)

for c in "${cases[@]}"; do
	IFS='|' read -r name at rules ops answers want_err want_rc <<<"$c"
	ops=${ops//@B/$T/out$rel}
	want=""
	[ -z "$answers" ] || probe_lines_v want "$ops" $answers
	read -r -a opv <<<"$ops"
	if ! bind_at "$at"; then
		not_ok "$name" "mount --bind $FS $at failed"
		continue
	fi
	# shellcheck disable=SC2086
	got=$("$CORRAL" --engine=landlock --rx "$CORRAL_HELPERS" $rules -- \
		"$PROBE" "${opv[@]}" 2>"$T/err")
	rc=$?
	unbind
	if [ "$got" = "$want" ] && [ "$(cat "$T/err")" = "$want_err" ] &&
		[ "$rc" = "$want_rc" ]; then
		ok "$name"
	else
		not_ok "$name" "rules: $rules (bind at $at)" \
			"status: $rc, expected $want_rc" "- expected, + got:" \
			"$(compare_lines "$want" "$got")" \
			"stderr: $(cat "$T/err")" "expected: $want_err"
	fi
done

# The command from the report: a system allow, a deny in the home.
bind_at "$T/out" || not_ok "mount --bind $FS $T/out failed"
"$CORRAL" --engine=landlock --rx /usr --deny "$H/.ssh" -- true 2>"$T/err"
rc=$?
unbind
is "$rc:$(cat "$T/err")" "0:" \
	"--rx /usr --deny ~/.ssh -- true runs with the filesystem mounted twice"

done_testing
