#!/bin/bash
# parser-child.sh: the child that parses argv, the environment and the
# profiles holds nothing: no capability, no corral group, NO_NEW_PRIVS, a
# seccomp filter that kills it on a system call outside its allowlist,
# and an empty environment.  Checked as root, and as an unprivileged user
# running a copy of corral that carries the file capability (when this
# host allows setcap).  What the parser holds is shown by a test hook,
# CORRAL_TEST_PARSER, which only tests/hooked/corral ($CORRAL_HOOKED) has:
# the shipped corral must not even read it.  Also: oversize input gives
# clear errors.
. "$(dirname "$0")/../integration/lib.sh"

if [ ! -x "$CORRAL_HOOKED" ]; then
	echo "Bail out! corral with test hooks not found: CORRAL_HOOKED=$CORRAL_HOOKED (make check builds tests/hooked/corral)"
	exit 1
fi

tmp=$(mktemp -d /tmp/corral-parser.XXXXXX) || exit 99
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
mkdir -m 1777 "$tmp/w" || exit 99

# as_user WHO CMD...: CMD as root (WHO "root") or as uid WHO, in no group
as_user() {
	local who=$1
	shift
	if [ "$who" = root ]; then
		"$@"
	else
		setpriv --reuid="$who" --regid="$who" --clear-groups "$@"
	fi
}

# Runs corral ($1: the binary, $2: run as "root" or a uid) with the test
# hook $3 and the rest as arguments; stderr and status in $err and $rc.
parser_run() {
	local bin=$1 who=$2 hook=$3
	shift 3
	err=$(cd "$tmp" && as_user "$who" env FOO=bar \
		LD_LIBRARY_PATH=/nonexistent CORRAL_TEST_PARSER="$hook" \
		"$bin" "$@" 2>&1 >/dev/null)
	rc=$?
}

# shipped_ignores_hook WHAT BIN WHO: the shipped corral BIN, run by WHO
# with CORRAL_TEST_PARSER=status and =bpf, does what it does without it:
# the same output, no /proc/self/status line, the command run, exit 0.
shipped_ignores_hook() {
	local what=$1 bin=$2 who=$3 hook plain out rc_plain
	local -a cmd=(--engine=landlock --rx / --rw "$tmp/w" -- /bin/sh -c \
		'touch "$0/ran" && echo ran' "$tmp/w")

	plain=$(cd "$tmp" && as_user "$who" "$bin" "${cmd[@]}" 2>&1)
	rc_plain=$?
	for hook in status bpf; do
		rm -f "$tmp/w/ran"
		out=$(cd "$tmp" && as_user "$who" env CORRAL_TEST_PARSER=$hook \
			"$bin" "${cmd[@]}" 2>&1)
		rc=$?
		if [ "$rc:$rc_plain" = 0:0 ] && [ -e "$tmp/w/ran" ] &&
		   [ "$out" = "$plain" ] &&
		   ! grep -Eq '^(Cap|NoNewPrivs|Seccomp|Environ|Gid)' <<<"$out"; then
			ok "$what: CORRAL_TEST_PARSER=$hook changes nothing (no status lines, the command runs, exit 0)"
		else
			not_ok "$what: CORRAL_TEST_PARSER=$hook changes nothing" \
				"exit $rc (without it: $rc_plain), ran: $([ -e "$tmp/w/ran" ] && echo yes || echo no)" \
				"with it:" "$out" "without it:" "$plain"
		fi
	done
	rm -f "$tmp/w/ran"
}

status_field() {
	printf '%s\n' "$err" | awk -v f="$1:" '$1 == f { print $2; exit }'
}

check_parser_state() {
	local what=$1 bin=$2 who=$3
	local zero=0000000000000000 f bad=""

	parser_run "$bin" "$who" status --engine=landlock --ro / -- /bin/true
	for f in CapInh CapPrm CapEff CapAmb; do
		[ "$(status_field $f)" = $zero ] || bad="$bad $f=$(status_field $f)"
	done
	[ "$(status_field NoNewPrivs)" = 1 ] || bad="$bad NoNewPrivs"
	[ "$(status_field Seccomp)" = 2 ] || bad="$bad Seccomp"
	[ "$(status_field Environ)" = 0 ] || bad="$bad Environ=$(status_field Environ)"
	if [ -z "$bad" ] && [[ $err == *CapInh* ]]; then
		ok "$what: parser has empty capability sets, NO_NEW_PRIVS, seccomp filter mode, no environment"
	else
		not_ok "$what: parser state" "wrong:$bad" "$err"
	fi
	parser_run "$bin" "$who" bpf --engine=landlock --rx / --rw "$tmp/w" \
		-- /bin/touch "$tmp/w/ran"
	if [ "$rc" = 125 ] && [[ $err == *"signal 31"*seccomp* ]] &&
	   [ ! -e "$tmp/w/ran" ]; then
		ok "$what: bpf() kills the parser (SIGSYS), nothing is run, exit 125"
	else
		not_ok "$what: bpf() kills the parser" "exit $rc" "$err"
	fi
}

check_parser_state "root" "$CORRAL_HOOKED" root

# The shipped corral has no test hook: not compiled in, the variable not
# even read (its name is nowhere in the binary; in the hooked copy, so the
# grep can see it), and setting it changes nothing.
is "$(grep -c CORRAL_TEST_PARSER "$CORRAL")" 0 \
	"the shipped corral does not contain the string CORRAL_TEST_PARSER"
n=$(grep -c CORRAL_TEST_PARSER "$CORRAL_HOOKED")
if [ "$n" -gt 0 ]; then
	ok "tests/hooked/corral contains CORRAL_TEST_PARSER (the grep finds it where it is)"
else
	not_ok "tests/hooked/corral contains CORRAL_TEST_PARSER" "grep -c: $n"
fi
shipped_ignores_hook "root, the shipped corral" "$CORRAL" root

if is_root; then
	cp "$CORRAL" "$tmp/corral" && chmod 755 "$tmp/corral"
	# named corral: under another name it would run in argv[0] mode
	mkdir -m 755 "$tmp/hooked" && cp "$CORRAL_HOOKED" "$tmp/hooked/corral" &&
		chmod 755 "$tmp/hooked/corral"
	if setcap cap_bpf+p "$tmp/corral" 2>/dev/null &&
	   setcap cap_bpf+p "$tmp/hooked/corral" 2>/dev/null; then
		check_parser_state "uid 65534, cap_bpf+p" "$tmp/hooked/corral" 65534
		shipped_ignores_hook "uid 65534, the shipped corral with cap_bpf+p" \
			"$tmp/corral" 65534
		parser_run "$tmp/hooked/corral" 65534 status --help
		# a private TMPDIR of the user's, which corral keeps
		mkdir -m 700 "$tmp/t" && chown 65534:65534 "$tmp/t"
		got=$(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups \
			env LD_LIBRARY_PATH=/opt/x TMPDIR="$tmp/t" \
			MALLOC_ARENA_MAX=2 "$tmp/corral" --engine=landlock \
			--rx / -- /usr/bin/env 2>&1)
		if [[ $got == *LD_LIBRARY_PATH=/opt/x* && $got == *TMPDIR=$tmp/t* &&
		      $got == *MALLOC_ARENA_MAX=2* ]]; then
			ok "uid 65534, cap_bpf+p: the command gets LD_LIBRARY_PATH, TMPDIR, MALLOC_* (glibc strips them from corral, a secure-exec program)"
		else
			not_ok "uid 65534: the command gets the user's environment" "$got"
		fi
		f=$(status_field Gid)
		if [ -n "$f" ]; then
			ok "uid 65534: the parser runs (status hook works with --help)"
		else
			not_ok "uid 65534: the parser runs" "$err"
		fi
	else
		for i in 1 2 3 4 5 6; do skip "uid 65534 with cap_bpf+p: setcap failed here"; done
	fi
else
	for i in 1 2 3 4 5 6; do skip "uid 65534 with cap_bpf+p: needs root"; done
fi

# [environment] unset: the command gets the user's environment less these.
printf '[filesystem]\nrx = /\n[environment]\nunset = SECRET_TOKEN\n        AWS_*\n' \
	> "$tmp/env.profile"
got=$(SECRET_TOKEN=s AWS_KEY=k AWSX=x KEEP=y "$CORRAL" --engine=landlock \
	--profile "$tmp/env.profile" -- /usr/bin/env 2>&1 | grep -E '^(SECRET|AWS|KEEP)' | sort | tr '\n' ' ')
is "$got" "AWSX=x KEEP=y " \
	"[environment] unset = SECRET_TOKEN, AWS_*: the command gets the rest"

# Oversize input: clear errors, exit 125, no crash.
long=/$(printf 'a%.0s' $(seq 5000))
err=$("$CORRAL" --engine=landlock --ro "$long" -- true 2>&1)
rc=$?
if [ $rc = 125 ] && [[ $err == *"File name too long (--ro on the command line)"* ]]; then
	ok "a 5000-byte path: 'File name too long', naming the flag, exit 125"
else
	not_ok "a 5000-byte path" "exit $rc" "${err:0:300}"
fi
{ echo "[filesystem]"; yes "ro = /usr" | head -n 40000; } > "$tmp/big.profile"
err=$("$CORRAL" --profile "$tmp/big.profile" -- true 2>&1)
rc=$?
is "$rc:$err" "125:corral: profile $tmp/big.profile: larger than 256 KiB" \
	"a 400 KB profile is refused with its size limit"
# An include bomb: 30 profiles that each include every later one.
for i in $(seq 1 30); do
	{
		echo "[profile]"
		for j in $(seq $((i + 1)) 30); do echo "include = ./b$j.profile"; done
		echo "[filesystem]"
		echo "ro = /tmp/b$i"
	} > "$tmp/b$i.profile"
done
err=$(timeout 20 "$CORRAL" --print-profile --profile "$tmp/b1.profile" 2>&1)
rc=$?
if [ $rc = 125 ] && [[ $err == *"nest deeper than 8 levels"* ]]; then
	ok "an include bomb (30 profiles, each including all later ones): depth error, exit 125, quickly"
else
	not_ok "an include bomb" "exit $rc" "${err:0:400}"
fi
# More rules than one message carries: sent in several; past the limit
# of 4096, refused naming it.
args=()
for i in $(seq 1 260); do args+=(--rx /usr); done
err=$("$CORRAL" --engine=landlock -q "${args[@]}" -- true 2>&1)
is "$?:$err" "0:" "260 rules (more than one message's fds): the command runs"
for i in $(seq 261 4097); do args+=(--rx /usr); done
err=$("$CORRAL" --engine=landlock "${args[@]}" -- true 2>&1)
rc=$?
if [ $rc = 125 ] && [[ $err == *"more than 4096 rules"*"corral's limit"* ]]; then
	ok "4097 rules: 'more than 4096 rules (corral's limit...)', exit 125"
else
	not_ok "4097 rules" "exit $rc" "$err"
fi

# ${USER} is read from the password database on first use, after the
# parser's seccomp filter is in place: the database's name wins over
# $USER, which counts only for a uid the database does not know.
printf '[filesystem]\nro = -/tmp/u-${USER}\n' > "$tmp/user.profile"
chmod 644 "$tmp/user.profile"
user_expands_to() {
	local want=$1 what=$2 out
	shift 2
	out=$("$@" env USER=ghost "$CORRAL" --print-profile="$tmp/user.profile" 2>&1)
	if [[ $out == *"ro = -/tmp/u-$want "* ]]; then
		ok "\${USER} $what: $want"
	else
		not_ok "\${USER} $what" "expected /tmp/u-$want" "$out"
	fi
}
user_expands_to root "for root with USER=ghost is the database's name"
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	user_expands_to nobody "for uid 65534 is the database's name" \
		setpriv --reuid=65534 --regid=65534 --clear-groups
	user_expands_to ghost "for a uid the database lacks falls back to \$USER" \
		setpriv --reuid=54321 --regid=54321 --clear-groups
else
	skip "\${USER} as other uids: needs root and setpriv"
	skip "\${USER} fallback: needs root and setpriv"
fi

# The password database is read once however often a profile says ${USER}.
if command -v strace >/dev/null; then
	printf '[filesystem]\nro = -/tmp/u-${USER}\nro = -/tmp/v-${USER}\nro = -/tmp/w-${USER}\n' \
		> "$tmp/user3.profile"
	chmod 644 "$tmp/user3.profile"
	strace -f -qq -e trace=open,openat -o "$tmp/user3.trace" \
		"$CORRAL" --print-profile="$tmp/user3.profile" >/dev/null 2>&1
	is "$(grep -c '"/etc/passwd"' "$tmp/user3.trace")" 1 \
		"three \${USER} in a profile read /etc/passwd once"
else
	skip "\${USER} read once" "strace is not installed"
fi

done_testing
