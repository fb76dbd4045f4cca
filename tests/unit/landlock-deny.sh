#!/bin/bash
# landlock-deny.sh: deny rules under the Landlock engine (--deny), on the
# host.  Landlock can only add rights, so corral makes a deny by allowing
# what is around it (sandbox/landlock_deny.c); each case runs the static
# probe under `corral --engine=landlock` on a small home-like tree and
# checks every answer, the one warning line, and that what the deny costs
# (the directories above it lose the denied rights themselves) is what
# the man page says.  A deny that cannot be made that way refuses to run.
#
# Environment: CORRAL, CORRAL_HELPERS (see Makefile.am).
. "$(dirname "$0")/../integration/lib.sh"

[ "$("$CORRAL_HELPERS/ll-exec" --abi 2>/dev/null || echo 0)" -gt 0 ] ||
	skip_all "Landlock is not enabled on this kernel"
make_tmp T landlock-deny || skip_all "cannot make a temp dir"
H=$T/home
mkdir -p "$H/proj/src" "$H/.ssh" "$H/.gnupg" "$H/.config/app"
echo a >"$H/a.txt"
echo k >"$H/.ssh/id"
echo p >"$H/.ssh/id.pub"
echo g >"$H/.gnupg/key"
echo c >"$H/.config/app/conf"
echo s >"$H/proj/src/m.c"

WARN="corral: Landlock cannot take rights away: each deny is made by allowing what is around it; see corral(1)"

# Cases: name | rules | probe ops | answers | first stderr line ("" none)
cases=(
	"a deny of everything under an rw allow: the secret is closed, its siblings keep every right|--rw $H --deny $H/.ssh|read $H/.ssh/id + write $H/.ssh/id + readdir $H/.ssh + read $H/.gnupg/key + read $H/a.txt + create $H/proj/new + read $H/.config/app/conf|EACCES EACCES EACCES OK OK OK OK|$WARN"
	"what it costs: the directory above the deny cannot be listed or gain entries|--rw $H --deny $H/.ssh|readdir $H + create $H/new + mkdir $H/.ssh2|EACCES EACCES EACCES|$WARN"
	"a deny of write only: the secret stays readable and listable|--rw $H --deny write:$H/.ssh|read $H/.ssh/id + readdir $H/.ssh + write $H/.ssh/id + readdir $H + write $H/a.txt|OK OK EACCES OK OK|$WARN"
	"two levels down: the way down loses the rights, the entries beside it keep them|--ro $H --deny $H/.config/app|read $H/.config/app/conf + readdir $H/.config + read $H/a.txt + read $H/proj/src/m.c|EACCES EACCES OK OK|$WARN"
	"an allow under a deny: the deny wins|--ro $H --deny $H/.ssh --ro $H/.ssh/id.pub|read $H/.ssh/id.pub + read $H/.ssh/id + read $H/a.txt|EACCES EACCES OK|$WARN"
	"a deny on a file|--ro $H --deny $H/.ssh/id|read $H/.ssh/id + read $H/.ssh/id.pub|EACCES OK|$WARN"
	"a deny no allow reaches changes nothing and says nothing|--ro $H/proj --deny $H/.ssh|read $H/proj/src/m.c + read $H/.ssh/id + read $H/a.txt|OK EACCES EACCES|"
	"a deny pins the name: nothing on the way down to it can be removed, renamed away or replaced, what is beside it can|--rw $H --deny write:$H/.config/app/conf|rename $H/.config/app/conf $H/.config/app/x + exchange $H/.config/app/conf $H/a.txt + unlink $H/.config/app/conf + rename $H/.config $H/cfg + rename $H/a.txt $H/b.txt + write $H/proj/src/m.c + rename $H/proj/src/m.c $H/proj/src/n.c|EACCES EACCES EACCES EACCES EACCES OK OK|$WARN"
)

for c in "${cases[@]}"; do
	IFS='|' read -r name rules ops answers first <<<"$c"
	probe_lines_v want "$ops" $answers
	read -r -a opv <<<"$ops"
	# shellcheck disable=SC2086
	got=$("$CORRAL" --engine=landlock --rx "$CORRAL_HELPERS" $rules -- \
		"$PROBE" "${opv[@]}" 2>"$T/err")
	err=$(head -n1 "$T/err")
	if [ "$got" = "$want" ] && [ "$err" = "$first" ] &&
		[ "$(grep -c . "$T/err")" = "$([ -n "$first" ] && echo 1 || echo 0)" ]; then
		ok "$name"
	else
		not_ok "$name" "rules: $rules" "- expected, + got:" \
			"$(compare_lines "$want" "$got")" "stderr: $(cat "$T/err")"
	fi
done

# A file with another hard link cannot be denied by allowing around it:
# the other link may be anywhere the allows reach.
ln "$H/.gnupg/key" "$H/proj/key-link"
got=$("$CORRAL" --engine=landlock --rx "$CORRAL_HELPERS" --ro "$H" \
	--deny "$H/.gnupg/key" -- "$PROBE" read "$H/proj/key-link" 2>&1)
rc=$?
is "$rc:$(grep -c 'hard links' <<<"$got"):$(grep -c ': OK' <<<"$got")" "125:1:0" \
	"a deny on a file with another hard link refuses to run (exit 125, one line), never reads it"

# A hard link beside the way down to a deny, to a file inside it: a rule
# on the link would be on the inode, and so open the denied path too; the
# link goes without the denied rights instead (a cost, as the man page says)
ln "$H/.ssh/id" "$H/id-link"
got=$("$CORRAL" --engine=landlock -q --rx "$CORRAL_HELPERS" --ro "$H" \
	--deny "$H/.ssh" -- "$PROBE" read "$H/.ssh/id" + read "$H/id-link" + \
	read "$H/a.txt" 2>&1)
is "$got" "read $H/.ssh/id: EACCES
read $H/id-link: EACCES
read $H/a.txt: OK" \
	"a hard link beside the way to a denied file: the file stays denied, the link loses the denied rights"
rm -f "$H/id-link"

# --quiet leaves out the warning, not the deny
got=$("$CORRAL" --engine=landlock -q --rx "$CORRAL_HELPERS" --rw "$H" \
	--deny "$H/.ssh" -- "$PROBE" read "$H/.ssh/id" 2>&1)
is "$got" "read $H/.ssh/id: EACCES" "--quiet: no warning, and the deny still holds"

done_testing
