#!/bin/bash
# everyday.sh: everyday use on the host, where the bpf LSM cannot be used and
# corral falls back to Landlock: the messages a new user meets.
#
#   - the fallback warning: one line under 100 characters, once (network
#     rules included); --quiet, -q, CORRAL_QUIET=1 and quiet = yes drop it,
#     and argv[0] mode honours the last two; 'corral status' has the rest
#   - hints that work: a missing path of a flag (no '-' prefix there), of a
#     profile (the '-' prefix), an unknown --profile NAME (./NAME.profile)
#   - -h, -V, 'corral help'
#   - make install with another prefix writes nothing outside it (the
#     systemd unit, the bash completion), and the $(sysconfdir)/corral/
#     profiles it creates is on the search path, between the user's
#     profiles and the shipped ones
#   - argv[0] mode (a link ls -> corral first in PATH): the search goes on
#     past what execvp passes over (a shim the sandbox will not run, one
#     whose interpreter is missing, a file not executable, a directory,
#     another link to corral), and messages say "ls:", not "/usr/bin/ls:"
#
# Environment: CORRAL, CORRAL_SRCDIR, CORRAL_SYSCONFDIR (see Makefile.am).
. "$(dirname "$0")/../integration/lib.sh"

if grep -qw bpf /sys/kernel/security/lsm 2>/dev/null; then
	skip_all "the bpf LSM is active here; this test needs a kernel without it"
fi
[ "$("$CORRAL_HELPERS/ll-exec" --abi 2>/dev/null || echo 0)" -gt 0 ] ||
	skip_all "Landlock is not enabled on this kernel"
SRC=${CORRAL_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
make_tmp T everyday || skip_all "cannot make a temp dir"
cd "$T" || exit 1

# run ARGS...: $err is corral's stderr, $rc its exit status (stdout dropped)
run() {
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
}

# one_short_line NAME: $err is exactly one line "corral: using Landlock..."
# of fewer than 100 characters, and the command ran (exit 0)
one_short_line() {
	local lines
	lines=$(printf '%s\n' "$err" | grep -c .)
	if [ "$rc" = 0 ] && [ "$lines" = 1 ] && [ ${#err} -lt "${2:-100}" ] &&
		[[ $err == "corral: using Landlock ABI "*"see 'corral status'" ]]; then
		ok "$1"
	else
		not_ok "$1" "exit $rc, $lines lines, ${#err} characters:" "$err"
	fi
}

# ---- the fallback warning -------------------------------------------

run "$CORRAL" --rx /usr -- true
one_short_line "fallback: one line under 100 characters naming 'corral status'"
# a write rule that reaches /proc: other processes' /proc/PID files are
# writable (their pids come after the launch), said on the line
run "$CORRAL" --rx /usr --allow read,write:/proc -- true
one_short_line "fallback with /proc writable: one line" 130
[[ $err == *", /proc/PID writes unscoped; see 'corral status'" ]] &&
	ok "fallback with /proc writable: the line says /proc/PID writes are unscoped" ||
	not_ok "fallback with /proc writable: the line says /proc/PID writes are unscoped" "$err"
run "$CORRAL" --rx /usr --ro /proc -- true
[[ $err != *"/proc/PID"* ]] &&
	ok "fallback with /proc read-only: nothing said about it" ||
	not_ok "fallback with /proc read-only: nothing said about it" "$err"
run "$CORRAL" --rx /usr --connect-tcp 443 -- true
one_short_line "fallback with a port rule: one line, nothing about the network (seccomp refuses UDP)"
[[ $err != *"unconfined"* && $err != *"unchecked"* ]] &&
	ok "fallback with a port rule: the line names no network gap" ||
	not_ok "fallback with a port rule: the line names no network gap" "$err"
run "$CORRAL" --rx /usr --connect-tcp 127.0.0.1:443 --net-best-effort -- true
one_short_line "fallback with an address rule, --net-best-effort: still one line (under 120 characters), saying addresses unchecked" 120
[[ $err == *", addresses unchecked"*"; see"* ]] &&
	ok "fallback with an address rule: the line says the network is partly confined" ||
	not_ok "fallback with an address rule: the line says the network is partly confined" "$err"
run "$CORRAL" --engine=landlock --rx /usr --connect-tcp 127.0.0.1:443 --net-best-effort -- true
lines=$(printf '%s\n' "$err" | grep -c .)
[ "$rc" = 0 ] && [ "$lines" = 1 ] && [ ${#err} -lt 100 ] &&
	[[ $err == "corral: Landlock ABI "*" confines the network partly: addresses unchecked; "* ]] &&
	ok "--engine=landlock with an address rule: one short line about the network" ||
	not_ok "--engine=landlock with an address rule: one short line about the network" \
		"exit $rc, ${#err} characters:" "$err"

for quiet in "--quiet" "-q"; do
	run "$CORRAL" $quiet --rx /usr --connect-tcp 443 -- true
	is "$rc:$err" "0:" "$quiet: no warning"
done
run env CORRAL_QUIET=1 "$CORRAL" --rx /usr --connect-tcp 443 -- true
is "$rc:$err" "0:" "CORRAL_QUIET=1: no warning"
run env CORRAL_QUIET=0 "$CORRAL" --rx /usr -- true
one_short_line "CORRAL_QUIET=0: the warning as usual"
printf '[filesystem]\nrx = /usr\n[sandbox]\nquiet = yes\n' >"$T/q.profile"
run "$CORRAL" --profile "$T/q.profile" -- true
is "$rc:$err" "0:" "a profile saying quiet = yes: no warning"
out=$("$CORRAL" --print-profile="$T/q.profile" 2>&1)
[[ $out == *"quiet = yes"* ]] && ok "--print-profile shows quiet = yes" ||
	not_ok "--print-profile shows quiet = yes" "$out"
# relative flags: printed absolute, so the output reads back anywhere
mkdir -p "$T/rel/sub" || exit 1
(cd "$T/rel" && "$CORRAL" --ro . --rw ./sub --deny write:sub \
	--print-profile >"$T/rel.profile" 2>&1)
out=$(cd / && "$CORRAL" check "$T/rel.profile" 2>&1)
is "$?:$out" "0:$T/rel.profile: ok" \
	"--print-profile with relative flags: its output passes check from /"
is "$(grep -E '^(ro|rw|deny) ' "$T/rel.profile" | cut -d';' -f1 | tr -s ' ')" \
	"ro = $T/rel "$'\n'"rw = $T/rel/sub "$'\n'"deny = write:$T/rel/sub " \
	"--print-profile with relative flags: the paths from the current directory"

# argv[0] mode: a link named true runs the real true under true.profile
mkdir -p "$T/bin" "$T/profiles"
ln -s "$CORRAL" "$T/bin/true"
printf '[filesystem]\nrx = /usr\n' >"$T/profiles/true.profile"
run env PATH="$T/bin:/usr/bin:/bin" CORRAL_PROFILE_PATH="$T/profiles" true
one_short_line "argv[0] mode: the warning as usual"
run env PATH="$T/bin:/usr/bin:/bin" CORRAL_PROFILE_PATH="$T/profiles" CORRAL_QUIET=1 true
is "$rc:$err" "0:" "argv[0] mode honours CORRAL_QUIET=1"

out=$("$CORRAL" status 2>&1)
rc=$?
[ "$rc" = 0 ] && [[ $out == *"engine: Landlock ABI "*"cannot enforce"* ]] &&
	[[ $out == *"bpf engine: not usable: "*"hint"* ]] &&
	[[ $out == *"network under Landlock: "* ]] &&
	[[ $out == *"cannot enforce"*"the refusal of writes to another process's /proc/PID files"*"memfds that could be executed are refused unless exec-anonymous = yes)"* ]] &&
	ok "corral status: the engine, the whole reason with its hint, what Landlock leaves out" ||
	not_ok "corral status: the engine, the whole reason with its hint, what Landlock leaves out" \
		"exit $rc:" "$out"
[[ $out == *$'\n'"denials under Landlock: not reported to corral (Landlock's audit records"*"no launch says how many accesses were refused"* ]] &&
	ok "corral status under Landlock: says why no launch can tell the accesses refused" ||
	not_ok "corral status under Landlock: says why no launch can tell the accesses refused" "$out"

# ---- hints that work ---------------------------------------------------

run "$CORRAL" --ro "$T/missing" --rx /usr -- true
[ "$rc" = 125 ] && [[ $err == *"missing: No such file or directory (--ro on the command line); create it, or leave the flag out" ]] &&
	ok "--ro MISSING: the hint fits a flag (no '-' prefix there)" ||
	not_ok "--ro MISSING: the hint fits a flag (no '-' prefix there)" "exit $rc:" "$err"
printf '[filesystem]\nro = %s/missing\n' "$T" >"$T/m.profile"
run "$CORRAL" --profile "$T/m.profile" --rx /usr -- true
[ "$rc" = 125 ] && [[ $err == *"m.profile:2); prefix the path with '-' in the profile to make it optional" ]] &&
	ok "a profile's missing path: the '-' hint names the profile" ||
	not_ok "a profile's missing path: the '-' hint names the profile" "exit $rc:" "$err"
printf '[filesystem]\nro = -%s/missing\nrx = /usr\n' "$T" >"$T/m.profile"
run "$CORRAL" --profile "$T/m.profile" -- true
is "$rc" 0 "the '-' prefix the hint suggests works"
run "$CORRAL" --profile nosuch -- true
[ "$rc" = 125 ] && [[ $err == *"e.g. ./nosuch.profile)" ]] &&
	ok "--profile nosuch: the FILE hint names ./nosuch.profile" ||
	not_ok "--profile nosuch: the FILE hint names ./nosuch.profile" "exit $rc:" "$err"
run "$CORRAL" --profile nosuch.profile -- true
[[ $err == *"e.g. ./nosuch.profile)" ]] &&
	ok "--profile nosuch.profile: the FILE hint is ./nosuch.profile, not .profile.profile" ||
	not_ok "--profile nosuch.profile: the FILE hint is ./nosuch.profile, not .profile.profile" "$err"
# an option's argument left out: getopt would take '--' as the path
while IFS='|' read -r args want; do
	# shellcheck disable=SC2086
	run "$CORRAL" $args true
	is "$rc:$err" "125:corral: $want" "corral $args: names what is missing"
done <<'EOF_DASHES'
--rx --|--rx: PATH missing before '--' (e.g. --rx PATH -- COMMAND)
--ro --|--ro: PATH missing before '--' (e.g. --ro PATH -- COMMAND)
--allow --|--allow: RIGHTS:PATH missing before '--' (e.g. --allow RIGHTS:PATH -- COMMAND)
--profile --|--profile: NAME|FILE missing before '--' (e.g. --profile NAME|FILE -- COMMAND)
--connect-tcp --|--connect-tcp: PORT missing before '--' (e.g. --connect-tcp PORT -- COMMAND)
EOF_DASHES

# ---- the build tree's profiles --------------------------------------

out=$(env -u CORRAL_PROFILE_PATH XDG_CONFIG_HOME="$T/cfg" "$CORRAL" --print-profile=git 2>&1)
rc=$?
[ "$rc" = 0 ] && [[ $out == *"# $SRC/profiles/git.profile: "* ]] &&
	ok "run from the build tree, corral finds the source tree's profiles (git)" ||
	not_ok "run from the build tree, corral finds the source tree's profiles (git)" \
		"exit $rc:" "$out"
cp "$CORRAL" "$T/corral"
out=$(env -u CORRAL_PROFILE_PATH XDG_CONFIG_HOME="$T/cfg" "$T/corral" profiles 2>&1)
[[ $out != *"$SRC/profiles"* ]] &&
	ok "a copy of the binary elsewhere does not read the build tree's profiles" ||
	not_ok "a copy of the binary elsewhere does not read the build tree's profiles" "$out"

# a user's git.profile that includes git extends the shipped one
mkdir -p "$T/cfg/corral/profiles" &&
	printf '[profile]\ninclude = git\n[filesystem]\nro = /etc/hostname\n' \
		>"$T/cfg/corral/profiles/git.profile" || exit 1
out=$(cd "$SRC" && env -u CORRAL_PROFILE_PATH XDG_CONFIG_HOME="$T/cfg" \
	"$CORRAL" --print-profile=git 2>&1)
rc=$?
[ "$rc" = 0 ] && [[ $out == *"# $T/cfg/corral/profiles/git.profile: "* &&
	$out == *"# $SRC/profiles/git.profile: "* &&
	$out == *$'\n'"ro = /etc/hostname "* ]] &&
	ok "include = git in the user's own git.profile: the shipped one, not a cycle" ||
	not_ok "include = git in the user's own git.profile: the shipped one, not a cycle" \
		"exit $rc:" "$out"
rm -f "$T/cfg/corral/profiles/git.profile"

# ---- README's requirements, as .ci/run reads them ---------------------

eval "$(sed -n '/^readme_pkgs() {/,/^}/p' "$SRC/.ci/run")"
if type readme_pkgs >/dev/null 2>&1; then
	build=$(cd "$SRC" && readme_pkgs 'build-essential ')
	tests=$(cd "$SRC" && readme_pkgs 'qemu-system-x86 ')
	[ -n "$build" ] && [ -n "$tests" ] &&
		[ "$(grep -c '^    sudo apt-get install ' "$SRC/README.md")" = 2 ] &&
		ok "README: one apt-get line to build, one for the tests; .ci/run finds both" ||
		not_ok "README: one apt-get line to build, one for the tests; .ci/run finds both" \
			"build: $build" "tests: $tests"
	if type -P apt-cache >/dev/null; then
		missing=
		for p in $build $tests; do
			apt-cache show --no-all-versions "$p" >/dev/null 2>&1 ||
				missing="$missing $p"
		done
		is "$missing" "" "README: every package of both lines is known to apt"
	else
		skip "README: every package of both lines is known to apt" "no apt-cache here"
	fi
else
	not_ok "README: one apt-get line to build, one for the tests; .ci/run finds both" \
		".ci/run has no readme_pkgs function"
fi
for want in "sudo make install" "corral profiles" "ln -s /usr/local/bin/corral" \
	"corral learn -o" "corral --log"; do
	grep -qF "$want" "$SRC/README.md" &&
		ok "README shows '$want'" || not_ok "README shows '$want'"
done

# ---- make install stays under the prefix; sysconfdir is read -------

BUILD=$(dirname "$CORRAL")
if [ -f "$BUILD/Makefile" ] && type -P make >/dev/null; then
	out=$(make -s -C "$BUILD" install DESTDIR="$T/dest" prefix=/opt/corral 2>&1)
	rc=$?
	outside=$(cd "$T/dest" 2>/dev/null && find . ! -type d | grep -v '^\./opt/corral/')
	is "$rc:$outside" "0:" "make install prefix=/opt/corral: every file under /opt/corral"
	for f in lib/systemd/system/corral-setup.service \
		share/bash-completion/completions/corral share/corral/profiles/git.profile \
		bin/corral etc/corral/profiles; do
		[ -e "$T/dest/opt/corral/$f" ] && ok "make install prefix=/opt/corral: $f" ||
			not_ok "make install prefix=/opt/corral: $f" "$out"
	done
else
	skip "make install prefix=/opt/corral" "no Makefile beside $CORRAL"
fi
if [ -n "${CORRAL_SYSCONFDIR:-}" ]; then
	run env -u CORRAL_PROFILE_PATH XDG_CONFIG_HOME="$T/cfg" "$CORRAL" --profile nosuch -- true
	[[ $err == *" in $T/cfg/corral/profiles, $CORRAL_SYSCONFDIR/corral/profiles, $SRC/profiles ("* ]] &&
		ok "the search path: the user's, then \$(sysconfdir)/corral/profiles that make install creates, then the shipped" ||
		not_ok "the search path: the user's, then \$(sysconfdir)/corral/profiles that make install creates, then the shipped" \
			"sysconfdir: $CORRAL_SYSCONFDIR" "$err"
	for f in bash/corral zsh/_corral fish/corral.fish; do
		grep -q "_corral_sysconfdir.$CORRAL_SYSCONFDIR\$" "$BUILD/completions/$f" 2>/dev/null &&
			ok "completions/$f lists the profiles of $CORRAL_SYSCONFDIR/corral/profiles" ||
			not_ok "completions/$f lists the profiles of $CORRAL_SYSCONFDIR/corral/profiles"
	done
else
	skip "the search path names \$(sysconfdir)/corral/profiles" "CORRAL_SYSCONFDIR is not set"
fi

# ---- argv[0] mode searches PATH as execvp does -----------------------
# $T/a6/bin/ls -> corral first in PATH, then one directory holding a shim
# of the kind named, then the real ls.  ls.profile grants $T/a6/granted,
# so that a shim there is refused by its interpreter, not the sandbox.

A6=$T/a6
mkdir -p "$A6/bin" "$A6/p" "$A6/refused" "$A6/granted" "$A6/noexec" \
	"$A6/dir/ls" "$A6/link"
ln -s "$CORRAL" "$A6/bin/ls"
ln -s "$CORRAL" "$A6/link/ls"
printf '#!/bin/sh\necho shim\n' >"$A6/refused/ls"
printf '#!%s/nonexistent/python3\n' "$A6" >"$A6/granted/ls"
printf '#!/bin/sh\necho shim\n' >"$A6/noexec/ls"
chmod 0755 "$A6/refused/ls" "$A6/granted/ls"
chmod 0644 "$A6/noexec/ls"
printf '[filesystem]\nrx = /usr\nro = /etc\nrx = %s/granted\n' "$A6" \
	>"$A6/p/ls.profile"

# as_ls DIR ARGS...: ls ARGS with PATH=$A6/bin:DIR:/usr/bin:/bin; $out is
# stdout and stderr, $rc the exit status
as_ls() {
	local dir=$1
	shift
	out=$(cd "$T" && env PATH="$A6/bin:$dir:/usr/bin:/bin" \
		CORRAL_PROFILE_PATH="$A6/p" CORRAL_QUIET=1 ls "$@" 2>&1)
	rc=$?
}

# a shim the sandbox refused is named in one line; what execvp itself
# passes over silently is passed over silently
while read -r dir what; do
	as_ls "$A6/$dir" -d /usr
	want="0:/usr"
	[ "$dir" = refused ] &&
		want="0:corral: ls: skipped $A6/refused/ls in PATH: the sandbox cannot execute it (give its directory rx in ls.profile, or take it out of PATH)"$'\n'/usr
	is "$rc:$out" "$want" "argv[0] mode: past $what, the real ls runs"
done <<'EOF6'
refused  a shim the sandbox will not run (exit 126 before)
granted  a shim whose interpreter is missing (exit 127 before)
noexec   a file that is not executable
dir      a directory named ls
link     another link to corral
EOF6
out=$(cd "$T" && env PATH="$A6/bin:$A6/refused" CORRAL_PROFILE_PATH="$A6/p" \
	CORRAL_QUIET=1 ls -d /usr 2>&1)
rc=$?
is "$rc:$out" "126:corral: ls: cannot execute $A6/refused/ls: Permission denied (give its directory rx in ls.profile, or take it out of PATH)" \
	"argv[0] mode: only a refused shim: exit 126, naming the file"
out=$(cd "$T" && env PATH="$A6/bin:$A6/link" CORRAL_PROFILE_PATH="$A6/p" \
	CORRAL_QUIET=1 ls -d /usr 2>&1)
rc=$?
is "$rc:$out" "127:corral: ls: command not found in PATH (other than corral itself)" \
	"argv[0] mode: only corral in PATH: exit 127"

# ---- argv[0] mode keeps the name typed ------------------------------

as_ls "$A6/noexec" /nonexistent
is "$rc:$out" "2:ls: cannot access '/nonexistent': No such file or directory" \
	"argv[0] mode: the program's own messages say 'ls:', not '/usr/bin/ls:'"

# ---- -h, -V, help ----------------------------------------------------

for args in -h --help help; do
	out=$("$CORRAL" $args 2>&1)
	rc=$?
	[ "$rc" = 0 ] && [[ $out == "Usage: corral "* ]] &&
		ok "corral $args prints the usage, exit 0" ||
		not_ok "corral $args prints the usage, exit 0" "exit $rc:" "$out"
done
for args in -V --version; do
	out=$("$CORRAL" $args 2>&1)
	is "$?:$out" "0:$("$CORRAL" --version)" "corral $args prints the version"
done

done_testing
