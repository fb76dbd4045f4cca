#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# protected-writes.sh: what no sandbox may write (issue 35 point 2), on
# the host's Landlock engine.  Whatever the rules say, a sandboxed command
# cannot write the shell start-up files, ~/.config/{fish,corral,autostart}
# or ~/.ssh/authorized_keys (sandbox/protected.c), unless the command line
# names that very path with a write right, which is said in one line.  A
# launch whose allows reach none of them pays nothing (no deny, no line).
#
#   T/home/            HOME, every protected path in it, and other, proj/
#   T/link -> home     a symlink to HOME (the allow is judged by inode)
#   T/p/home.profile   rw = ${HOME}
#
# Environment: CORRAL, CORRAL_HELPERS (see Makefile.am).
. "$(dirname "$0")/../integration/lib.sh"

[ "$("$CORRAL_HELPERS/ll-exec" --abi 2>/dev/null || echo 0)" -gt 0 ] ||
	skip_all "Landlock is not enabled on this kernel"
make_tmp T protected || skip_all "cannot make a temp dir"
H=$T/home
mkdir -p "$H/proj" "$H/.ssh" "$H/.config/fish" "$H/.config/corral/profiles" \
	"$H/.config/autostart" "$T/p" || exit 1
for f in .bashrc .bash_profile .profile .zshrc .zprofile other \
	.ssh/authorized_keys .config/fish/config.fish \
	.config/autostart/a.desktop .config/corral/profiles/x.profile; do
	echo orig >"$H/$f" || exit 1
done
ln -s home "$T/link"
# net = all: these profiles are about files (without a [network] key a
# profile closes the network, and the Landlock engine says what it can
# confine of it in a line of its own)
printf '[filesystem]\nrw = ${HOME}\n[network]\nnet = all\n' >"$T/p/home.profile"

WARN="corral: Landlock cannot take rights away: each deny is made by allowing what is around it; see corral(1)"
NAMED="corral: $H/.bashrc: writable in this sandbox, as --rw on the command line asks (corral protects it otherwise; see corral(1))"
C=$H/.config
# every protected path written, or created in
ALL="write $H/.bashrc + write $H/.bash_profile + write $H/.profile + write $H/.zshrc + write $H/.zprofile + write $H/.ssh/authorized_keys + create $C/fish/new.fish + write $C/fish/config.fish + create $C/corral/profiles/git.profile + write $C/corral/profiles/x.profile + create $C/autostart/evil.desktop + write $C/autostart/a.desktop"
DENIED="EACCES EACCES EACCES EACCES EACCES EACCES EACCES EACCES EACCES EACCES EACCES EACCES"

# Cases: name | rules | probe ops | answers | stderr lines, "^" between ("" none)
cases=(
	"--rw HOME: no protected path can be written or created in; ~/other and ~/proj can|--rw $H|$ALL + write $H/other + create $H/proj/new|$DENIED OK OK|$WARN"
	"a profile with rw = \${HOME}: the same|--profile $T/p/home.profile|$ALL + write $H/other|$DENIED OK|$WARN"
	"--rw through a symlink to HOME: the same (judged by inode)|--rw $T/link|$ALL + write $T/link/.bashrc + write $T/link/other|$DENIED EACCES OK|$WARN"
	"the names are pinned: neither replaced, removed nor renamed away|--rw $H|rename $H/other $H/.bashrc + unlink $H/.profile + rename $C/corral $C/c2 + rename $C/autostart/a.desktop $H/proj/a + unlink $H/.ssh/authorized_keys|EACCES EACCES EACCES EACCES EACCES|$WARN"
	"an allow below a protected directory: still denied|--rw $C/corral/profiles|create $C/corral/profiles/git.profile + write $C/corral/profiles/x.profile|EACCES EACCES|$WARN"
	"--rw naming ~/.bashrc itself: it can be written, said in one line; the rest stay protected|--rw $H --rw $H/.bashrc|write $H/.bashrc + write $H/.profile + write $H/other|OK EACCES OK|$NAMED^$WARN"
	"--ro naming ~/.bashrc: no write right, no choice made|--rw $H --ro $H/.bashrc|write $H/.bashrc + read $H/.bashrc|EACCES OK|$WARN"
	"an allow that reaches no protected path: no deny, no line|--rw $H/proj|create $H/proj/new2 + write $H/.bashrc|OK EACCES|"
	"read-only HOME: nothing to protect, no line|--ro $H|read $H/.bashrc + write $H/.bashrc|OK EACCES|"
)

for c in "${cases[@]}"; do
	IFS='|' read -r name rules ops answers lines <<<"$c"
	probe_lines_v want "$ops" $answers
	read -r -a opv <<<"$ops"
	# shellcheck disable=SC2086
	got=$(HOME=$H "$CORRAL" --engine=landlock --rx "$CORRAL_HELPERS" $rules -- \
		"$PROBE" "${opv[@]}" 2>"$T/err")
	err=$(cat "$T/err")
	if [ "$got" = "$want" ] && [ "$err" = "${lines//^/$'\n'}" ]; then
		ok "$name"
	else
		not_ok "$name" "rules: $rules" "- expected, + got:" \
			"$(compare_lines "$want" "$got")" "stderr: $err"
	fi
done

# Missing ones: the first missing name on the way cannot be made in the
# directory above it (that directory loses the rights to make entries,
# as on the way down to any deny), by any route; what exists there keeps
# every right.  B has ~/.ssh (no authorized_keys) and nothing else.
B=$T/bare
mkdir -p "$B/.ssh" && echo notes >"$B/notes" || exit 1
ops="create $B/.zshrc + mkdir $B/.bashrc + symlink $B/notes $B/.profile + rename $B/notes $B/.zprofile + link $B/notes $B/.bash_profile + mkdir $B/.config + create $B/.ssh/authorized_keys + write $B/notes + create $B/.ssh/known_hosts"
probe_lines_v want "$ops" EACCES EACCES EACCES EACCES EACCES EACCES EACCES OK EACCES
read -r -a opv <<<"$ops"
got=$(HOME=$B "$CORRAL" --engine=landlock --rx "$CORRAL_HELPERS" --rw "$B" -- \
	"$PROBE" "${opv[@]}" 2>"$T/err")
if [ "$got" = "$want" ] && [ "$(cat "$T/err")" = "$WARN" ]; then
	ok "missing: no route makes a protected name in ~ or ~/.ssh; ~/notes is still written"
else
	not_ok "missing: no route makes a protected name in ~ or ~/.ssh" \
		"- expected, + got:" "$(compare_lines "$want" "$got")" \
		"stderr: $(cat "$T/err")"
fi
out=$(HOME=$B "$CORRAL" explain --rw "$B" "$B/.config" 2>&1)
is "$out" "denied: create $B/.config (no sandbox may make $B/.config: protected by corral, see corral(1))" \
	"explain: making the missing ~/.config is denied, by corral's protection"
probe_lines_v want "create $B/.zshrc + mkdir $B/.config" OK OK
is "$("$PROBE" create "$B/.zshrc" + mkdir "$B/.config" 2>&1)" "$want" \
	"missing: outside the sandbox the same names are made (control)"

# Outside any sandbox every one of them is writable: the denies are the
# sandbox's, not a change to the files.
n=0
for f in .bashrc .profile .ssh/authorized_keys .config/corral/profiles/x.profile; do
	echo more >>"$H/$f" && n=$((n + 1))
done
is "$n $(cat "$H/.zshrc")" "4 orig" \
	"outside the sandbox they are written as before; inside, nothing was written"

# a profile is no command line, whatever its file is called
printf '[filesystem]\nrw = ${HOME}\nrw = ${HOME}/.bashrc\n[network]\nnet = all\n' >"$T/p/x on the command line.profile"
got=$(HOME=$H "$CORRAL" --engine=landlock --rx "$CORRAL_HELPERS" \
	--profile "$T/p/x on the command line.profile" -- "$PROBE" write "$H/.bashrc" 2>"$T/err")
is "$got|$(cat "$T/err")" "write $H/.bashrc: EACCES|$WARN" \
	"a profile naming ~/.bashrc, in a file called 'x on the command line', does not open it"

out=$(HOME=$H "$CORRAL" profiles 2>&1)
listed=0
for f in .bashrc .bash_profile .profile .zshrc .zprofile .config/fish \
	.config/corral .config/autostart .ssh/authorized_keys; do
	grep -qx "  $H/$f" <<<"$out" && listed=$((listed + 1))
done
is "$listed" 9 "corral profiles lists the protected paths"
rm "$H/.zprofile"
out=$(HOME=$H "$CORRAL" profiles 2>&1)
is "$(grep -c "^  $H/.zprofile (missing: no sandbox may create it)$" <<<"$out")" 1 \
	"corral profiles says which protected paths are missing"
out=$(HOME=$H "$CORRAL" explain --rw "$H" --op write "$H/.bashrc" 2>&1)
[[ $out == "denied: write $H/.bashrc "*"protected by corral"* ]] &&
	ok "explain: a write on ~/.bashrc under --rw HOME is denied, by corral's protection" ||
	not_ok "explain: a write on ~/.bashrc under --rw HOME is denied" "$out"

done_testing
