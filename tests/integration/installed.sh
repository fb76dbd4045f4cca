#!/bin/bash
# installed.sh: corral as a package installs it (setgid corral, cap_bpf+p
# in /usr/local/bin), used by an ordinary user (nobody) the way a new
# user meets it: what only the installed launcher shows.
#
#   - TMPDIR: glibc removes it from a secure-exec program's environment,
#     yet ${TMPDIR} in a profile must be the user's (gcc's temporary files
#     go there), on both engines.
#   - make install's $(sysconfdir)/corral/profiles is read: an
#     administrator's profile there shadows the shipped one, and the
#     user's own shadows both.
#   - the parser's test hook, CORRAL_TEST_PARSER, is not in it.
#
# Runs as root in the test guest only (it installs corral into /usr/local
# and adds the group corral).
#
# Fixture ($W, 0755, under /var/tmp, on the guest's overlay):
#   $W/home/   nobody's: HOME of every run
#   $W/proj/   nobody's: the project (m.c), CWD of every run
#   $W/tmp/    nobody's: the TMPDIR the user asks for
#
# Environment: CORRAL, CORRAL_HELPERS (see lib.sh).

. "$(dirname "$0")/lib.sh"

need_helpers
is_root || skip_all "needs root: installs corral setgid with cap_bpf+p"
[ "$(cat /proc/sys/kernel/hostname 2>/dev/null)" = corral-vm ] ||
	skip_all "changes the system (group, /usr/local): only in the test guest"
for c in setpriv setcap groupadd getent install cc; do
	type -P "$c" >/dev/null || skip_all "$c is not installed"
done

SRC=$(cd "$(dirname "$0")/../.." && pwd)
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
export CORRAL_PROFILE_PATH=$SRC/profiles
export PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin

install_launcher || skip_all "cannot install $UC setgid corral with cap_bpf+p"
if setup_installed; then
	ok "install: setgid corral, cap_bpf+p, setup gives the pins to group corral"
else
	not_ok "install: setgid corral, cap_bpf+p, setup gives the pins to group corral" \
		"$(ls -la /sys/fs/bpf/corral 2>&1)"
fi

# Not under /tmp: a sandbox that wrongly granted /tmp would cover $W/tmp.
mkdir -p /var/tmp && make_tmp W installed /var/tmp || skip_all "cannot make a temp dir"
chmod 0755 "$W"
mkdir -p "$W/home" "$W/proj" "$W/tmp"
printf 'int main(void) { return 0; }\n' >"$W/proj/m.c"
chown -R 65534:65534 "$W/home" "$W/proj" "$W/tmp"

# as_user CMD...: CMD as nobody in $W/proj with HOME $W/home (a project
# that is HOME is refused: ${PROJECT} never grows to it); $out, $rc
as_user() {
	out=$(cd "$W/proj" && "${NOBODY[@]}" env HOME="$W/home" "$@" 2>&1)
	rc=$?
}

# ---- TMPDIR reaches the profile ------------------------------------

as_user env TMPDIR="$W/tmp" "$UC" --print-profile=gcc
if [[ $out == *"rw = $W/tmp "* ]] && [[ $out != *"rw = /tmp "* ]]; then
	ok "TMPDIR=\$W/tmp: --print-profile=gcc expands \${TMPDIR} to it, not /tmp"
else
	not_ok "TMPDIR=\$W/tmp: --print-profile=gcc expands \${TMPDIR} to it, not /tmp" \
		"exit $rc" "$out"
fi
for eng in bpf landlock; do
	rm -f "$W/proj/m.o"
	as_user env TMPDIR="$W/tmp" "$UC" --engine=$eng -q --profile gcc -- cc -c m.c
	if [ "$rc" = 0 ] && [ -e "$W/proj/m.o" ]; then
		ok "$eng: TMPDIR=\$W/tmp corral --profile gcc -- cc -c m.c"
	else
		not_ok "$eng: TMPDIR=\$W/tmp corral --profile gcc -- cc -c m.c" \
			"exit $rc" "$out"
	fi
done

# ---- the private TMPDIR, made as the user ---------------------------
# With TMPDIR unset or /tmp, the installed launcher (setgid corral) gives
# the command a directory of its own, made by the parser as nobody: mode
# 0700, owner and group nobody's, never group corral; gcc writes there.
rm -rf /tmp/corral-65534
for eng in bpf landlock; do
	for t in unset /tmp; do
		set -- env -u TMPDIR
		[ "$t" = unset ] || set -- env TMPDIR=/tmp
		rm -f "$W/proj/m.o"
		# -q: gcc.profile closes the network, which the Landlock
		# engine would note in a line before the command's
		as_user "$@" "$UC" --engine=$eng -q --profile gcc -- sh -c \
			'stat -c "%n %a %u:%g" "$TMPDIR" && cc -c m.c'
		want="/tmp/corral-65534/sandbox-* 700 65534:65534"
		# shellcheck disable=SC2053 # $want is a pattern
		if [ "$rc" = 0 ] && [[ ${out%%$'\n'*} == $want ]] && [ -e "$W/proj/m.o" ]; then
			ok "$eng: TMPDIR $t: cc runs with a 0700 TMPDIR of nobody's, not group corral"
		else
			not_ok "$eng: TMPDIR $t: a private TMPDIR of nobody's" \
				"exit $rc" "want: $want" "$out"
		fi
	done
done
rm -rf /tmp/corral-65534

# ---- what the shipped profiles give away (issue 35) ------------------
# Each shipped profile, run by the user from a project in ~ with TMPDIR
# unset on the bpf engine: none writes the shell's start-up files (there
# or missing), corral's own profiles, the home beside the project or
# another directory of the user's, and none reaches a TCP listener of
# the user's on loopback.  The control: outside, nobody does each.
HM=$W/home
mkdir -p "$HM/.config/corral/profiles" && echo orig >"$HM/.bashrc" &&
	chown -R 65534:65534 "$HM"
AUDIT_PORT=5093
net_serve "$AUDIT_PORT" || not_ok "audit: a loopback listener"
audit_ops="write $HM/.bashrc + create $HM/.zshrc + create $HM/.config/corral/profiles/git.profile + create $HM/new + create $W/tmp/new"
read -r -a audit_opv <<<"$audit_ops"
as_user env -u TMPDIR "$PROBE" "${audit_opv[@]}"
files_out=$out
as_user "$NETPROBE" connect-tcp 127.0.0.1 "$AUDIT_PORT"
probe_lines_v want "$audit_ops" OK OK OK OK OK
is "$files_out"$'\n'"$out" "$want"$'\n'"connect-tcp 127.0.0.1 $AUDIT_PORT: OK" \
	"audit, control: outside, nobody writes each and reaches the listener"
rm -f "$HM/.zshrc" "$HM/.config/corral/profiles/git.profile" "$HM/new" "$W/tmp/new"
probe_lines_v want "$audit_ops" EACCES EACCES EACCES EACCES EACCES
want+=$'\n'"connect-tcp 127.0.0.1 $AUDIT_PORT: EACCES"
# audit_run DIR PROFILE: the ops under PROFILE, as nobody from DIR
audit_run() {
	out=$(cd "$1" && "${NOBODY[@]}" env -u TMPDIR HOME="$HM" "$UC" -q \
		--engine=bpf --profile "$2" --rx "$CORRAL_HELPERS" -- sh -c \
		'"$0" "$@"; "${0%/*}/netprobe" connect-tcp 127.0.0.1 '"$AUDIT_PORT" \
		"$PROBE" "${audit_opv[@]}" 2>&1)
	rc=$?
	rm -f "$HM/.zshrc" "$HM/.config/corral/profiles/git.profile" "$HM/new" "$W/tmp/new"
}
for p in "$SRC"/profiles/*.profile; do
	p=${p##*/}
	p=${p%.profile}
	case $p in base | network | secrets) continue ;; esac  # included only
	audit_run "$W/proj" "$p"
	is "$rc:$out" "0:$want" "audit: --profile $p from the project, TMPDIR unset: none of them written or reached"
	# from ~ or /, a profile on ${PROJECT} or ${CWD} refuses, each line
	# naming the profile line (point 1); else the same
	for d in "$HM" /; do
		audit_run "$d" "$p"
		if [ "$rc:$out" = "0:$want" ] ||
			{ [ "$rc" = 125 ] && ! grep -qv '^corral: profile .*: ${\(PROJECT\|CWD\)} would be .*, and no profile may give all of it (cd into ' <<<"$out"; }; then
			ok "audit: --profile $p from $d: refused in one line, or none of them written or reached"
		else
			not_ok "audit: --profile $p from $d" "exit $rc" "$out"
		fi
	done
done

# ---- tell once (issue 35, point 7) -----------------------------------
# Without --log, a bpf launch says in one line at the end that accesses
# were refused (not routine ones), the first named with ~ for HOME; -q
# keeps it quiet, --log prints the denials instead, and the command's
# status is kept.  The control: outside, nobody reads the file.
printf 'secret\n' >"$W/home/secret" && chown 65534:65534 "$W/home/secret"
as_user cat "$W/home/secret"
is "$rc:$out" "0:secret" "tell once, control: outside, nobody reads ~/secret"
denied="cat: $W/home/secret: Permission denied"
told() {
	echo "corral: $1 access$([ "$1" = 1 ] || echo es) refused (first: read ~/secret by cat); rerun with --log to see them"
}
# tell_case NAME STATUS OUTPUT CORRAL-ARGS... -- COMMAND...
tell_case() {
	local name=$1 want_rc=$2 want=$3
	shift 3
	as_user env CORRAL_QUIET=0 "$UC" --engine=bpf --rx /usr --ro /etc "$@"
	is "$rc:$out" "$want_rc:$want" "tell once: $name"
}
tell_case "a read refused: the command's error, then one line naming it" \
	1 "$denied"$'\n'"$(told 1)" -- cat "$W/home/secret"
tell_case "three refused: counted, the first named, the status kept" \
	3 "$denied"$'\n'"$denied"$'\n'"touch: cannot touch '/var/tmp/x': Permission denied"$'\n'"$(told 3)" \
	-- sh -c 'cat ~/secret; cat ~/secret; touch /var/tmp/x; exit 3'
tell_case "nothing refused: nothing said, the status kept" 7 "" -- sh -c 'exit 7'
tell_case "-q: nothing said" 1 "$denied" -q -- cat "$W/home/secret"
as_user env CORRAL_QUIET=0 "$UC" --engine=bpf --rx /usr --ro /etc --log -- cat "$W/home/secret"
[ "$rc" = 1 ] && [[ $out == *"corral: denied read $W/home/secret (pid "* ]] &&
	[[ $out != *"refused (first"* ]] &&
	ok "tell once: --log prints the denial, not the count" ||
	not_ok "tell once: --log prints the denial, not the count" "exit $rc" "$out"
as_user env CORRAL_QUIET=0 "$UC" --engine=landlock --rx /usr --ro /etc -- cat "$W/home/secret"
[ "$rc" = 1 ] && [[ $out != *"refused (first"* ]] &&
	ok "tell once: the Landlock engine counts nothing, says nothing of it" ||
	not_ok "tell once: the Landlock engine counts nothing, says nothing of it" "exit $rc" "$out"

# ---- no test hook in the installed launcher ------------------------
# CORRAL_TEST_PARSER, the hook escape.sh's parser cases use, is built
# into corral's test build alone (sandbox/README.md): $UC does not read it.
for hook in status bpf; do
	as_user env CORRAL_TEST_PARSER=$hook "$UC" --rx /usr -- echo ran
	[ "$rc" = 0 ] && grep -qx ran <<<"$out" && ! grep -q '^CapEff:' <<<"$out" &&
		ok "CORRAL_TEST_PARSER=$hook is no switch of $UC: no CapEff: line, the command runs, exit 0" ||
		not_ok "CORRAL_TEST_PARSER=$hook is no switch of $UC: no CapEff: line, the command runs, exit 0" \
			"exit $rc" "$out"
done

# ---- a launcher the user cannot reach the maps with ---------------

# named corral (another name is argv[0] mode), not under nosuid /tmp
mkdir -p /usr/local/lib && NGD=$(mktemp -d /usr/local/lib/corral-nogroup.XXXXXX) ||
	skip_all "cannot make a directory in /usr/local/lib"
_tmp_dirs+=("$NGD")
chmod 0755 "$NGD"
NG=$NGD/corral
install -m 0755 "$CORRAL" "$NG" && setcap cap_bpf+p "$NG" ||
	skip_all "cannot install $NG with cap_bpf+p"
as_user env CORRAL_QUIET=0 "$NG" --rx /usr -- true
lines=$(printf '%s\n' "$out" | grep -c .)
if [ "$rc" = 0 ] && [ "$lines" = 1 ] && [ ${#out} -lt 120 ] &&
	[[ $out == "corral: using Landlock ABI "*"maps not reachable"* ]]; then
	ok "cap_bpf+p but not setgid corral: auto falls back to Landlock, one line under 120 characters"
else
	not_ok "cap_bpf+p but not setgid corral: auto falls back to Landlock, one line under 120 characters" \
		"exit $rc" "$out"
fi
as_user "$NG" --engine=bpf --rx /usr -- true
[ "$rc" = 125 ] && [[ $out == *"/sys/fs/bpf/corral/info: Permission denied"*"setgid corral"* ]] &&
	ok "cap_bpf+p but not setgid corral: --engine=bpf exits 125 saying what to do" ||
	not_ok "cap_bpf+p but not setgid corral: --engine=bpf exits 125 saying what to do" \
		"exit $rc" "$out"
as_user "$NG" status
[ "$rc" = 0 ] && [[ $out == *"bpf engine: not usable: /sys/fs/bpf/corral/info: Permission denied"* ]] &&
	ok "cap_bpf+p but not setgid corral: corral status gives the whole reason" ||
	not_ok "cap_bpf+p but not setgid corral: corral status gives the whole reason" \
		"exit $rc" "$out"

# ---- setup refused by the kernel (EPERM) ------------------------------
# Root without capabilities: the kernel refuses the programs before any
# verifier runs, so the hint must not point at --debug.

"$UC" teardown --force >/dev/null 2>&1
out=$(setpriv --inh-caps=-all --bounding-set=-all "$CORRAL" setup 2>&1)
rc=$?
[ "$rc" = 125 ] && [[ $out == *"refuses BPF programs"* && $out != *"--debug"* ]] &&
	ok "setup refused with EPERM: the hint names what refuses BPF, not --debug" ||
	not_ok "setup refused with EPERM: the hint names what refuses BPF, not --debug" \
		"exit $rc" "$out"

# ---- make install as root creates the group corral --------------------

if [ -f "$SRC/Makefile" ] && type -P make >/dev/null && type -P getcap >/dev/null; then
	groupdel corral
	out=$(make -C "$SRC" install-exec bindir=/usr/local/bin 2>&1)
	rc=$?
	got="$(getent group corral | cut -d: -f1) $(stat -c %G:%a /usr/local/bin/corral) $(getcap /usr/local/bin/corral | sed 's/.* //')"
	[ "$rc" = 0 ] && [ "$got" = "corral corral:2755 cap_bpf=p" ] &&
		ok "make install as root without a group corral: creates it, installs setgid corral with cap_bpf+p" ||
		not_ok "make install as root without a group corral: creates it, installs setgid corral with cap_bpf+p" \
			"exit $rc; group, owner:mode, capability: $got" "$out"
else
	skip "make install as root creates the group corral" "no build tree, make or getcap"
fi
# ---- the administrator's profiles, where make install puts them -------

if [ -f "$SRC/Makefile" ] && type -P make >/dev/null; then
	mk() { sed -n "s/^$1 = //p" "$SRC/Makefile"; }
	prefix=$(mk prefix) ADMIN=$(mk sysconfdir)
	ADMIN=${ADMIN//'${prefix}'/$prefix}/corral/profiles
	SHIPPED=${prefix}/share/corral/profiles
	out=$(make -C "$SRC" install-data 2>&1)
	[ $? = 0 ] && [ -d "$ADMIN" ] && [ -f "$SHIPPED/git.profile" ] &&
		ok "make install: creates $ADMIN, installs $SHIPPED" ||
		not_ok "make install: creates $ADMIN, installs $SHIPPED" "$out"
	# whose_git: the file --print-profile=git read, as nobody
	whose_git() {
		as_user env -u CORRAL_PROFILE_PATH "$UC" --print-profile=git
		printf '%s\n' "$out" | sed -n 's/^# \(\/.*\.profile\): .*/\1/p' | head -1
	}
	is "$(whose_git)" "$SHIPPED/git.profile" "installed: git is the shipped profile"
	printf '# admin: git, read only\n[filesystem]\nro = ${PROJECT}\n' >"$ADMIN/git.profile"
	is "$(whose_git)" "$ADMIN/git.profile" \
		"an administrator's $ADMIN/git.profile shadows the shipped one"
	mkdir -p "$W/home/.config/corral/profiles"
	printf '[filesystem]\nro = ${PROJECT}\n' >"$W/home/.config/corral/profiles/git.profile"
	chown -R 65534:65534 "$W/home/.config"
	is "$(whose_git)" "$W/home/.config/corral/profiles/git.profile" \
		"the user's ~/.config/corral/profiles/git.profile shadows the administrator's"
	rm -rf "$ADMIN/git.profile" "$W/home/.config"
else
	skip "make install: the administrator's profiles" "no build tree or make"
fi

install_launcher && setup_installed ||
	not_ok "setup again with the installed launcher" "$(ls -la /sys/fs/bpf/corral 2>&1)"

done_testing
