#!/bin/bash
# deny.sh: deny rules (--deny, deny =), in the guest, on the bpf engine.
# The rights on a path are the union of the allows on the way to it minus
# the union of the denies on the way to it; a deny on a file is keyed by
# its inode and so also catches its hard links; a file may not leave a
# denied subtree by rename or link; marks never grant what a deny took;
# a deny pins the name (of the entry and the directories above it).
#
# Each case is one line of the table below: NAME, RULES, probe OPS and
# the result of each op.  Escape cases then read a denied secret by every
# route the escape suite knows.
#
# Environment: CORRAL, CORRAL_HELPERS (see lib.sh).

. "$(dirname "$0")/lib.sh"

need_helpers
is_root || skip_all "needs root (the guest): runs corral --engine=bpf"
"$CORRAL" status >/dev/null 2>&1 || skip_all "corral is not set up (run 'corral setup')"

make_tmp W deny || skip_all "cannot make a temp dir"
H=$W/home
O=$W/other

# fixture: a home with secrets, a project and a dir outside it
reset_tree() {
	local i
	rm -rf "$H" "$O"
	mkdir -p "$H/.ssh/sub" "$H/proj/sub" "$H/vault" "$O"
	echo key >"$H/.ssh/id_rsa"
	echo hosts >"$H/.ssh/known_hosts"
	echo deep >"$H/.ssh/sub/f"
	echo f >"$H/proj/f"
	echo f >"$H/proj/sub/f"
	echo s >"$H/vault/s"
	echo machine >"$H/.netrc"
	echo notes >"$H/notes"
	ln "$H/.netrc" "$H/proj/netrc-link"
	ln "$H/.netrc" "$O/netrc-link"
	ln -s ../.ssh/id_rsa "$H/proj/sym"
	mkdir "$H/proj/many"
	for ((i = 1; i <= 40; i++)); do echo s >"$H/proj/many/secret$i"; done
}

# t NAME "RULES" "OPS" RESULT...: probe OPS under corral --engine=bpf RULES
t() {
	reset_tree
	CORRAL_ARGS=--engine=bpf expect_probe corral "$1" "$2" "$3" "${*:4}"
}

# -- the table ---------------------------------------------------------------

t "deny under allow: the denied tree is closed, its siblings open" \
	"--rw $H --deny $H/.ssh" \
	"read $H/.ssh/id_rsa + read $H/.ssh/sub/f + readdir $H/.ssh + create $H/.ssh/new + write $H/.ssh/id_rsa + read $H/proj/f + create $H/proj/new + readdir $H" \
	EACCES EACCES EACCES EACCES EACCES OK OK OK
t "a partial deny takes only its rights: read denied, readdir and write kept" \
	"--rw $H --deny read:$H/.ssh" \
	"read $H/.ssh/id_rsa + readdir $H/.ssh + write $H/.ssh/known_hosts + read $H/notes" \
	EACCES OK OK OK
t "allow under deny: the deny still wins (file rule and dir rule below it)" \
	"--rw $H --deny $H/.ssh --ro $H/.ssh/known_hosts --rw $H/.ssh/sub" \
	"read $H/.ssh/known_hosts + read $H/.ssh/sub/f + create $H/.ssh/sub/new" \
	EACCES EACCES EACCES
t "deny and allow on the same directory: the deny wins" \
	"--deny $H/.ssh --rw $H/.ssh" \
	"read $H/.ssh/id_rsa + readdir $H/.ssh" EACCES EACCES
t "deny above allow: an allow deeper down does not give back what the deny took" \
	"--rw $H --deny write:$H --rw $H/proj" \
	"read $H/proj/f + write $H/proj/f + mkdir $H/proj/new + write $H/notes" \
	OK EACCES OK EACCES
t "a file deny catches its hard links in allowed dirs, and the file's siblings stay open" \
	"--rw $H --ro $O --deny $H/.netrc" \
	"read $H/.netrc + read $H/proj/netrc-link + read $O/netrc-link + read $H/notes" \
	EACCES EACCES EACCES OK
t "rename and link out of a fully denied subtree: EACCES (no remove), EXDEV (no refer)" \
	"--rw $H --deny $H/.ssh" \
	"rename $H/.ssh/id_rsa $H/proj/x + link $H/.ssh/id_rsa $H/proj/y + read $H/.ssh/id_rsa" \
	EACCES EXDEV EACCES
t "rename and link out of a read-denied subtree would gain read: EXDEV" \
	"--rw $H --deny read:$H/.ssh" \
	"rename $H/.ssh/id_rsa $H/proj/x + link $H/.ssh/id_rsa $H/proj/y + read $H/proj/x + read $H/proj/y" \
	EXDEV EXDEV ENOENT ENOENT
t "refer denied: nothing moves out of the subtree, even with every other right" \
	"--rw $H --deny refer:$H/.ssh" \
	"rename $H/.ssh/known_hosts $H/proj/x + link $H/.ssh/known_hosts $H/proj/y + rename $H/proj/f $H/.ssh/f + read $H/.ssh/id_rsa" \
	EXDEV EXDEV EXDEV OK
t "a deny pins the name: a denied directory cannot be renamed, its deny stays" \
	"--rw $H --deny read:$H/vault" \
	"rename $H/vault $H/proj/vault + read $H/proj/vault/s + read $H/vault/s" \
	EACCES ENOENT EACCES
t "a deny pins the name: a denied file is not moved aside, replaced, exchanged or removed; its siblings are" \
	"--rw $H --deny write:$H/notes" \
	"rename $H/notes $H/n2 + rename $H/proj/f $H/notes + exchange $H/proj/f $H/notes + unlink $H/notes + rename $H/.netrc $H/netrc2 + unlink $H/proj/f + write $H/notes" \
	EACCES EACCES EACCES EACCES OK OK EACCES
t "a deny pins the directories above it up to the allow, not beside or above it" \
	"--rw $H/proj --rw $W/other --deny write:$H/proj/sub/f" \
	"rename $H/proj/sub $H/proj/sub2 + rename $H/proj/sub $O/sub + rmdir $H/proj/many + rename $H/proj/f $H/proj/g + rename $H/proj $H/proj2" \
	EACCES EACCES ENOTEMPTY OK EACCES
t "pins keep a directory with a denied entry inside an allowed tree from moving, with allows at two levels" \
	"--rw $H --rw $H/proj --deny read:$H/proj/sub/f" \
	"rename $H/proj $H/p2 + rename $H/proj/sub $H/proj/s2 + read $H/proj/sub/f + rename $H/vault $H/v2" \
	EACCES EACCES EACCES OK
t "marks: a dir read (marked) in an allowed tree, moved under a deny, is denied; it cannot move back" \
	"--rw $H --deny read:$H/vault" \
	"read $H/proj/sub/f + rename $H/proj/sub $H/vault/sub + read $H/vault/sub/f + readdir $H/vault/sub + rename $H/vault/sub $H/proj/sub + read $H/proj/f" \
	OK OK EACCES OK EXDEV OK
t "symlinks are judged by their target: a link into the denied tree is closed" \
	"--rw $H --deny $H/.ssh" \
	"read $H/proj/sym + readlink $H/proj/sym" EACCES OK
t "O_PATH is no read; reopening it through /proc/self/fd is judged by the real path" \
	"--rw $H --ro /proc --deny $H/.ssh" \
	"opath $H/.ssh/id_rsa + reopen $H/.ssh/id_rsa + reopen $H/proj/f" \
	OK EACCES OK
t "a deny on a tree that no allow reaches changes nothing" \
	"--ro $H/proj --deny $H/.ssh" \
	"read $H/proj/f + read $H/.ssh/id_rsa + read $H/notes" OK EACCES EACCES

# A file's own rule is looked up only where its tag is in the domain's
# list (CORRAL_TASK_FILE_TAGS) while it has at most 20 file rules; past
# that, wherever the rule_inos filter allows: both must find every rule,
# in forks and threads too.
many_denies() {
	local i
	for ((i = 1; i <= $1; i++)); do printf ' --deny %s' "$H/proj/many/secret$i"; done
}
file_rule_ops="read $H/proj/netrc-link + fork-read $H/proj/netrc-link + thread-read $H/proj/netrc-link + read $H/notes + write $H/notes + fork-read $H/notes + read $H/proj/f + read $H/proj/many/secret1"
t "file rules found through the domain's tag list: a deny with its links, an allow and a deny on one file, in forks and threads" \
	"--ro $H/proj --rw $H/notes --deny write:$H/notes --deny $H/.netrc$(many_denies 17)" \
	"$file_rule_ops + read $H/proj/many/secret17 + read $H/proj/many/secret18" \
	EACCES EACCES EACCES OK EACCES OK OK EACCES EACCES OK
t "file rules past the tag list's 20, found through the filter alone: the same answers" \
	"--ro $H/proj --rw $H/notes --deny write:$H/notes --deny $H/.netrc$(many_denies 40)" \
	"$file_rule_ops + read $H/proj/many/secret40 + read $H/proj/many/secret18" \
	EACCES EACCES EACCES OK EACCES OK OK EACCES EACCES EACCES

# -- marks moved from outside: a sandbox holds a warm mark -------------------

reset_tree
"$CORRAL" --engine=bpf --rx "$CORRAL_HELPERS" --rw "$H" --deny "read:$H/vault" -- \
	"$PROBE" read "$H/proj/sub/f" + wait-file "$W/go" + read "$H/proj/sub/f" \
	+ wait-file "$W/go2" + read "$H/proj/sub/f" >"$W/out" 2>&1 &
pid=$!
for _ in $(seq 100); do [ -s "$W/out" ] && break; sleep 0.1; done
mv "$H/proj/sub" "$H/vault/sub" && ln -s "$H/vault/sub" "$H/proj/sub" && touch "$W/go"
for _ in $(seq 100); do [ "$(wc -l <"$W/out")" -ge 3 ] && break; sleep 0.1; done
rm "$H/proj/sub" && mv "$H/vault/sub" "$H/proj/sub" && touch "$W/go2"
wait "$pid"
probe_lines_v want "read $H/proj/sub/f + wait-file $W/go + read $H/proj/sub/f + wait-file $W/go2 + read $H/proj/sub/f" \
	OK OK EACCES OK OK
is "$(cat "$W/out")" "$want" \
	"marks: a warm dir moved under a deny from outside is denied, and allowed again when moved back"

# -- --log ---------------------------------------------------------------------

reset_tree
out=$("$CORRAL" --engine=bpf --log --rx "$CORRAL_HELPERS" --rw "$H" --deny "$H/.ssh" -- \
	"$PROBE" read "$H/.ssh/id_rsa" 2>&1)
[[ $out == *"corral: denied read $H/.ssh/id_rsa (pid "*" probe): taken away by --deny $H/.ssh on the command line"* ]] &&
	ok "--log names the denied read of the secret and the deny rule that took it" ||
	not_ok "--log names the denied read of the secret and the deny rule that took it" "$out"
# a profile's deny is named by file and line
printf '[filesystem]\nrw = %s\n# secrets\ndeny = read:%s/.ssh\n' "$H" "$H" >"$W/deny.profile"
out=$("$CORRAL" --engine=bpf --log --rx "$CORRAL_HELPERS" --profile "$W/deny.profile" -- \
	"$PROBE" read "$H/.ssh/id_rsa" 2>&1)
[[ $out == *"corral: denied read $H/.ssh/id_rsa (pid "*" probe): taken away by deny = read:$H/.ssh at $W/deny.profile:4"* ]] &&
	ok "--log names a profile's deny rule by file and line" ||
	not_ok "--log names a profile's deny rule by file and line" "$out"

# -- what no sandbox may write (sandbox/protected.c) -------------------------
# With HOME the fixture's home and every protected path in it, an allow
# that reaches them gives none of them, as deny rules (names pinned), on
# the bpf engine: no emulation, so ~ itself keeps every right.

prot_tree() {
	local f
	reset_tree
	mkdir -p "$H/.config/fish" "$H/.config/corral/profiles" "$H/.config/autostart"
	for f in .bashrc .bash_profile .profile .zshrc .zprofile .ssh/authorized_keys \
		.config/fish/config.fish .config/corral/profiles/x.profile \
		.config/autostart/a.desktop; do
		echo orig >"$H/$f"
	done
}
# tp NAME "RULES" "OPS" RESULT...: as t, with HOME=$H and the protected paths
tp() {
	prot_tree
	HOME=$H CORRAL_ARGS=--engine=bpf expect_probe corral "$1" "$2" "$3" "${*:4}"
}
C=$H/.config
PALL="write $H/.bashrc + write $H/.bash_profile + write $H/.profile + write $H/.zshrc + write $H/.zprofile + write $H/.ssh/authorized_keys + create $C/fish/new.fish + write $C/fish/config.fish + create $C/corral/profiles/git.profile + write $C/corral/profiles/x.profile + create $C/autostart/evil.desktop + write $C/autostart/a.desktop"
PDENIED="EACCES EACCES EACCES EACCES EACCES EACCES EACCES EACCES EACCES EACCES EACCES EACCES"

tp "protected: --rw HOME writes none of the protected paths, and everything else in ~" \
	"--rw $H" "$PALL + write $H/notes + create $H/new + create $C/new + create $H/proj/new" \
	$PDENIED OK OK OK OK
printf '[filesystem]\nrw = ${HOME}\n' >"$W/home.profile"
tp "protected: a profile with rw = \${HOME} the same" \
	"--profile $W/home.profile" "$PALL + write $H/notes" $PDENIED OK
tp "protected: the names are pinned (replaced, removed, renamed away, the directory above)" \
	"--rw $H" \
	"rename $H/notes $H/.bashrc + unlink $H/.profile + rename $C/corral $C/c2 + rename $C $H/cfg + unlink $H/.ssh/authorized_keys + rename $H/proj/f $H/proj/g" \
	EACCES EACCES EACCES EACCES EACCES OK
tp "protected: an allow below a protected directory is denied too" \
	"--rw $C/corral/profiles" \
	"create $C/corral/profiles/git.profile + write $C/corral/profiles/x.profile" EACCES EACCES
prot_tree
mkdir "$W/bind" && mount --bind "$H" "$W/bind"
HOME=$H CORRAL_ARGS=--engine=bpf expect_probe corral \
	"protected: --rw on a bind mount of HOME reaches them (by inode), and they stay denied" \
	"--rw $W/bind" "write $W/bind/.bashrc + write $H/.bashrc + write $W/bind/notes" \
	"EACCES EACCES OK"
umount "$W/bind"
prot_tree
out=$(HOME=$H "$CORRAL" --engine=bpf --rx "$CORRAL_HELPERS" --rw "$H" --rw "$H/.bashrc" -- \
	"$PROBE" write "$H/.bashrc" + write "$H/.profile" 2>&1)
is "$out" "corral: $H/.bashrc: writable in this sandbox, as --rw on the command line asks (corral protects it otherwise; see corral(1))
write $H/.bashrc: OK
write $H/.profile: EACCES" \
	"protected: --rw naming ~/.bashrc lets it through, said in one line; the rest stay denied"
out=$(HOME=$H "$CORRAL" --engine=bpf --rx "$CORRAL_HELPERS" --rw "$H/proj" -- \
	"$PROBE" create "$H/proj/new2" + write "$H/.bashrc" 2>&1)
is "$out" "create $H/proj/new2: OK
write $H/.bashrc: EACCES" "protected: an allow that reaches none of them: nothing said"

# Missing protected paths (name rules, CORRAL_NAME_RULE_INODE): the first
# missing name on the way may not be made in the directory above it, by
# any route that makes an entry, nor that directory moved aside; every
# other new name there can be made.  reset_tree makes ~/.ssh, without
# authorized_keys, and no ~/.config.
# tm NAME no-config|with-config "OPS" RESULT...: as tp under --rw HOME,
# with the protected paths missing (and ~/.config too, or not)
tm() {
	reset_tree
	[ "$2" = no-config ] || mkdir "$H/.config"
	HOME=$H CORRAL_ARGS=--engine=bpf expect_probe corral "$1" "--rw $H" "$3" "${*:4}"
}
tm "protected, missing: no route makes ~/.zshrc, ~/.bashrc, ~/.profile, ~/.zprofile, ~/.bash_profile, ~/.config or ~/.ssh/authorized_keys; other new names can be made" \
	no-config "create $H/.zshrc + mkdir $H/.bashrc + symlink $H/notes $H/.profile + mknod-sock $H/.zprofile + mkfifo $H/.bash_profile + rename $H/notes $H/.zshrc + link $H/notes $H/.zshrc + mkdir $H/.config + create $H/.ssh/authorized_keys + create $H/new + mkdir $H/newdir + create $H/.ssh/new + rename $H/notes $H/notes2" \
	EACCES EACCES EACCES EACCES EACCES EACCES EACCES EACCES EACCES OK OK OK OK
tm "protected, missing below ~/.config: fish, corral and autostart cannot be made in it, nor ~/.config moved aside; other names can" \
	with-config "mkdir $C/autostart + mkdir $C/fish + create $C/corral + mkdir $C/other + rename $C $H/cfg" \
	EACCES EACCES EACCES OK EACCES
reset_tree
probe_lines_v want "create $H/.zshrc + mkdir $H/.config" OK OK
is "$("$PROBE" create "$H/.zshrc" + mkdir "$H/.config" 2>&1)" "$want" \
	"protected, missing: outside the sandbox the same names are made (control)"

# -- escapes: the secret by every route ---------------------------------------

ESC=$CORRAL_HELPERS/escape
ATK=$CORRAL_HELPERS/attack
reset_tree
# jail_run "RULES" HELPER OPS...: HELPER OPS in the sandbox
jail_run() {
	local rules=$1
	shift
	# shellcheck disable=SC2086
	"$CORRAL" --engine=bpf --rx "$CORRAL_HELPERS" $rules -- "$@" 2>&1
}
# e NAME "RULES" HELPER "OPS" RESULT...
e() {
	local name=$1 rules=$2 helper=$3 ops=$4 want got
	local -a opv
	read -r -a opv <<<"$ops"
	probe_lines_v want "$ops" "${@:5}"
	reset_tree
	got=$(jail_run "$rules" "$helper" "${opv[@]}")
	is "$got" "$want" "escape: $name"
}
R="--rw $H --ro $O --deny $H/.ssh --deny $H/.netrc"
[ -x "$ESC" ] && [ -x "$ATK" ] || skip_all "escape and attack helpers not built"
e "hard link made inside the sandbox to a denied file" "$R" "$ESC" \
	"link $H/.ssh/id_rsa $H/proj/l + read $H/proj/l" EXDEV ENOENT
e "rename of the denied directory (pinned), then read through the new name" "$R" "$ESC" \
	"rename $H/.ssh $H/proj/s + read $H/proj/s/id_rsa" EACCES ENOENT
e "symlink made inside the sandbox to the secret" "$R" "$ESC" \
	"symlink $H/.ssh/id_rsa $H/proj/sl + read $H/proj/sl" OK EACCES
e "io_uring opens of the secret and of a hard link of a denied file (inline, io-wq, SQPOLL)" \
	"$R" "$ATK" \
	"uring-inline read $H/.ssh/id_rsa + uring-async read $H/.ssh/id_rsa + uring-sqpoll read $H/.ssh/id_rsa + uring-async read $O/netrc-link" \
	EACCES EACCES EACCES EACCES
e "io_uring IORING_OP_OPENAT of the secret" "$R" "$ESC" \
	"uring-open-async $H/.ssh/id_rsa" EACCES
e "open_by_handle_at of the secret is refused" "$R" "$ESC" \
	"open-by-handle $H/.ssh/id_rsa" EPERM
e "/proc/self/root of the secret" "$R --ro /proc" "$ESC" \
	"read /proc/self/root$H/.ssh/id_rsa + read /proc/self/root$O/netrc-link" EACCES EACCES

done_testing
