# shellcheck shell=bash
# lib.sh: TAP output, the fixture tree and probe helpers for corral's
# integration suites.  Source it from a bash script:
#
#   . "$(dirname "$0")/lib.sh"
#
# Environment:
#   CORRAL          the corral binary (default: `corral` in PATH)
#   CORRAL_ARGS     extra flags put before the rules, e.g. --engine=bpf
#   CORRAL_HELPERS  directory holding the static helpers probe and ll-exec
#                   (default: ../helpers next to this file, if built there)
#   CORRAL_HOOKED   corral built with its test hooks, tests/hooked/corral
#                   (default: ../hooked/corral next to this file); the
#                   installed corral has none (sandbox/README.md)
#   CORRAL_TEST_TMP where fixtures go (default: $TMPDIR or /tmp; tmpfs in
#                   the guest)
#   CI              when "true", skipping a whole suite is a failure
#
# Engines: every helper taking an ENGINE accepts `corral` (runs $CORRAL) or
# `oracle` (runs $CORRAL_HELPERS/ll-exec, kernel Landlock).  Both get an
# implicit `--rx $CORRAL_HELPERS` so that probe can run.

: "${CORRAL:=corral}"
CORRAL=$(type -P "$CORRAL" || echo "$CORRAL")	# absolute: tests may change PATH
if [ -z "${CORRAL_HELPERS:-}" ]; then
	CORRAL_HELPERS=$(dirname "${BASH_SOURCE[0]}")/../helpers
	CORRAL_HELPERS=$(cd "$CORRAL_HELPERS" 2>/dev/null && pwd || echo "$CORRAL_HELPERS")
fi
if [ -z "${CORRAL_HOOKED:-}" ]; then
	CORRAL_HOOKED=$(dirname "${BASH_SOURCE[0]}")/../hooked
	CORRAL_HOOKED=$(cd "$CORRAL_HOOKED" 2>/dev/null && pwd || echo "$CORRAL_HOOKED")/corral
fi
PROBE=$CORRAL_HELPERS/probe
ORACLE=$CORRAL_HELPERS/ll-exec
FIXTURE=$CORRAL_HELPERS/fixture	# optional: fast rm/cp/mount (else coreutils)

# ---- TAP ----------------------------------------------------------------

tap_n=0
tap_failed=0
tap_skipped=0
tap_planned=

# plan N: print the plan up front (optional; done_testing prints it if not)
plan() {
	tap_planned=$1
	echo "1..$1"
}

# diag ARG...: each argument (and each line in it) as a "# " comment line
diag() {
	local arg line
	for arg in "$@"; do
		while IFS= read -r line; do
			echo "# $line"
		done <<<"$arg"
	done
}

# compare_lines WANT GOT: line by line, "  " same, "- " wanted, "+ " got
compare_lines() {
	local -a a b
	local i n
	mapfile -t a <<<"$1"
	mapfile -t b <<<"$2"
	n=$((${#a[@]} > ${#b[@]} ? ${#a[@]} : ${#b[@]}))
	for ((i = 0; i < n; i++)); do
		if [ "${a[i]-}" == "${b[i]-}" ]; then
			echo "  ${a[i]}"
		else
			[ -z "${a[i]+x}" ] || echo "- ${a[i]}"
			[ -z "${b[i]+x}" ] || echo "+ ${b[i]}"
		fi
	done
}

ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1"
}

# not_ok NAME [DIAGNOSTIC...]
not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $1"
	shift
	[ $# -eq 0 ] || diag "$@"
}

# not_ok_todo NAME REASON [DIAGNOSTIC...]: a known failure not fixed yet
# (TAP TODO): shown, but it does not fail the suite; "ok ... # TODO"
# (written by the caller) says that it passes now
not_ok_todo() {
	tap_n=$((tap_n + 1))
	echo "not ok $tap_n - $1 # TODO $2"
	shift 2
	[ $# -eq 0 ] || diag "$@"
}

# skip NAME REASON
skip() {
	tap_n=$((tap_n + 1))
	tap_skipped=$((tap_skipped + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}

# is GOT WANT NAME: string equality, both values shown on failure
is() {
	if [ "$1" == "$2" ]; then
		ok "$3"
	elif [[ $1$2 == *$'\n'* ]]; then
		not_ok "$3" "- expected, + got:" "$(compare_lines "$2" "$1")"
	else
		not_ok "$3" "expected: $2" "got:      $1"
	fi
}

# skip_all REASON: the whole suite cannot run here.  Loud; fatal under CI.
skip_all() {
	echo "1..0 # SKIP $1"
	echo "# SKIPPED WHOLE SUITE $(basename "$0"): $1" >&2
	if [ "${CI:-}" = true ]; then
		echo "Bail out! CI=true and the suite was skipped: $1"
		exit 1
	fi
	exit 0
}

# done_testing: plan (if not given), summary, exit status 1 on any failure
done_testing() {
	[ -n "$tap_planned" ] || echo "1..$tap_n"
	if [ -n "$tap_planned" ] && [ "$tap_planned" != "$tap_n" ]; then
		echo "# planned $tap_planned tests but ran $tap_n"
		tap_failed=$((tap_failed + 1))
	fi
	echo "# $(basename "$0"): $tap_n tests, $((tap_n - tap_failed - tap_skipped)) passed, $tap_failed failed, $tap_skipped skipped"
	[ "$tap_failed" -eq 0 ]
	exit
}

# ---- environment checks -------------------------------------------------

# need_helpers: bail out without corral; skip unless probe and ll-exec are built
need_helpers() {
	if [ ! -x "$CORRAL" ]; then
		echo "Bail out! corral not found: CORRAL=$CORRAL (set CORRAL to the built binary)"
		exit 1
	fi
	if [ ! -x "$PROBE" ] || [ ! -x "$ORACLE" ]; then
		skip_all "helpers not built in CORRAL_HELPERS=$CORRAL_HELPERS (make check builds them)"
	fi
}

# landlock_abi: the running kernel's Landlock ABI (0 if none), cached
landlock_abi() {
	if [ -z "${_ll_abi:-}" ]; then
		_ll_abi=$("$ORACLE" --abi 2>/dev/null) || _ll_abi=0
	fi
	echo "$_ll_abi"
}

# is_oracle_corral: true when CORRAL points at ll-exec, or corral runs its
# own Landlock engine (its answers then follow the ABI too) (developing on a
# host without corral); engine-specific expectations then follow the ABI
is_oracle_corral() {
	[ "$(basename "$CORRAL")" = ll-exec ] ||
		[[ " ${CORRAL_ARGS:-} " == *" --engine=landlock "* ]]
}

is_root() {
	[ "$(id -u)" = 0 ]
}

# install_launcher: $CORRAL installed as a distribution installs it, at
# $UC (/usr/local/bin/corral), setgid to the group corral (made if
# missing, its gid in $CG) with cap_bpf+p; then `setup` again, so that
# the pins belong to that group.  Root, in the test guest only.
install_launcher() {
	UC=/usr/local/bin/corral
	getent group corral >/dev/null || groupadd -r corral || return 1
	CG=$(getent group corral | cut -d: -f3)
	mkdir -p /usr/local/bin /usr/local/lib &&
		install -m 2755 -g corral "$CORRAL" "$UC" &&
		setcap cap_bpf+p "$UC"
}

# install_hooked: $CORRAL_HOOKED, corral with its test hooks, installed
# as install_launcher installs $UC (call that first): setgid corral,
# cap_bpf+p, at $HUC.  Its name stays corral (any other would be argv[0]
# mode), in a directory of its own.  Fails when it was not built.
install_hooked() {
	HUC=/usr/local/lib/corral-hooked/corral
	[ -x "$CORRAL_HOOKED" ] &&
		mkdir -p -m 0755 "${HUC%/*}" &&
		install -m 2755 -g corral "$CORRAL_HOOKED" "$HUC" &&
		setcap cap_bpf+p "$HUC"
}

# setup_installed: (re)loads the programs with the installed launcher;
# prints setup's errors, fails unless the pins belong to group corral.
setup_installed() {
	if [ -e /sys/fs/bpf/corral ]; then
		"$UC" teardown --force >/dev/null
	fi
	"$UC" setup >/dev/null &&
		[ "$(stat -c %G /sys/fs/bpf/corral 2>/dev/null)" = corral ]
}

# need_escape_guest CHANGES HELPER...: what the escape suites need, or a
# skip: root, the test guest (they change CHANGES on the system; or
# CORRAL_ESCAPE_ANYWHERE=1), the helpers named built, and the tools that
# install corral and drop to nobody.  Sets NOBODY (a command prefix that
# runs as nobody, in no group) and PIN (where setup pins the programs).
need_escape_guest() {
	local changes=$1 h c
	shift
	need_helpers
	is_root || skip_all "needs root: installs corral setgid with cap_bpf+p, then attacks as nobody"
	[ "$(cat /proc/sys/kernel/hostname 2>/dev/null)" = corral-vm ] ||
		[ "${CORRAL_ESCAPE_ANYWHERE:-}" = 1 ] ||
		skip_all "changes the system ($changes): only in the test guest"
	for h in "$@"; do
		[ -x "$CORRAL_HELPERS/$h" ] || skip_all "the $h helper is not built in $CORRAL_HELPERS"
	done
	for c in setpriv setcap groupadd getent install; do
		type -P "$c" >/dev/null || skip_all "$c is not installed"
	done
	NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	PIN=/sys/fs/bpf/corral
}

# ---- running under an engine --------------------------------------------

# engine_bin ENGINE: sets $engine_bin to the launcher for ENGINE
engine_bin() {
	case $1 in
	corral) engine_bin=$CORRAL engine_args=${CORRAL_ARGS:-} ;;
	oracle) engine_bin=$ORACLE engine_args="" ;;
	*) echo "lib.sh: unknown engine '$1'" >&2; return 1 ;;
	esac
}

# sandboxed ENGINE "RULES" CMD [ARGS...]: run CMD under ENGINE with RULES
# (word-split) plus --rx $CORRAL_HELPERS; stdout and exit status are CMD's
sandboxed() {
	engine_bin "$1" || return 125
	# shellcheck disable=SC2086
	"$engine_bin" $engine_args --rx "$CORRAL_HELPERS" $2 -- "${@:3}"
}

# probe_lines "OPS" RESULT...: the lines probe prints for OPS ("op args +
# op args ...") if the results are RESULT...; one per line on stdout.
# probe_lines_v VAR "OPS" RESULT... sets VAR instead (no subshell).
probe_lines_v() {
	local -a words results
	local w line="" i=0 all=""
	read -r -a words <<<"$2"
	results=("${@:3}")
	for w in "${words[@]}" +; do
		if [ "$w" = + ]; then
			all+="${all:+$'\n'}$line: ${results[$i]:-?}"
			i=$((i + 1))
			line=""
		else
			line=${line:+$line }$w
		fi
	done
	printf -v "$1" %s "$all"
}

probe_lines() {
	local lines
	probe_lines_v lines "$@"
	echo "$lines"
}

# expect_probe ENGINE NAME "RULES" "OPS" "RESULTS": run probe OPS under
# ENGINE and RULES; one TAP line, ok if each op gave the matching result
# (RESULTS is space-separated, one per op: OK EACCES EXDEV ...)
expect_probe() {
	local engine=$1 name=$2 rules=$3 ops=$4 got want rc
	local -a opv res
	read -r -a opv <<<"$ops"
	read -r -a res <<<"$5"
	probe_lines_v want "$ops" "${res[@]}"
	got=$(sandboxed "$engine" "$rules" "$PROBE" "${opv[@]}" 2>&1)
	rc=$?
	if [ "$got" == "$want" ] && [ $rc -eq 0 ]; then
		ok "$name"
	else
		engine_bin "$engine"
		not_ok "$name" "engine: $engine_bin $rules (exit $rc)" \
			"- expected, + got:" "$(compare_lines "$want" "$got")"
	fi
}

# ---- the fixture tree ------------------------------------------------------
#
# fixture_build DIR creates this tree (names as in Landlock's selftests:
# sNdM = tree N, depth M; fN = regular file holding its own path):
#
#   DIR/
#   |-- s1d1/
#   |   |-- f1, f2                 regular files, 0644
#   |   |-- x1                     static executable (a copy of probe)
#   |   |-- nx                     a small file, mode 0644: not executable
#   |   |-- sh_in                  "#!DIR/s1d1/x1" script: interpreter inside
#   |   |-- sh_out                 "#!DIR/s2d1/x2" script: interpreter outside
#   |   |-- sh_sys                 "#!/bin/sh" script (exit 0)
#   |   |-- dyn                    a dynamic ELF (copy of true), if one exists
#   |   |-- ln_out -> ../s2d1/f1   symlink pointing out of s1d1
#   |   |-- e1/                    empty directory
#   |   `-- s1d2/
#   |       |-- f1, f2
#   |       `-- s1d3/
#   |           `-- f1, f2
#   |-- s2d1/
#   |   |-- f1
#   |   |-- x2                     hard link of s1d1/x1
#   |   |-- ln_in -> ../s1d1/f1    symlink pointing into s1d1
#   |   |-- hl                     hard link of s3d1/f1
#   |   `-- s2d2/
#   |       |-- f1
#   |       `-- e2/                empty directory
#   |-- s3d1/
#   |   |-- f1
#   |   `-- m1/, m2/               empty: mount points for bind tests
#   `-- deep/d01/d02/.../d40/      40 nested directories
#       |-- d01/f1
#       `-- d01/.../d40/f1
#
# The scripts name DIR in their #! line: copy the tree with `cp -a` only to
# DIR itself (fixture_reset does that from a template).
DEEP_DEPTH=40

fixture_build() {
	local d=$1 p i
	mkdir -p "$d"/s1d1/s1d2/s1d3 "$d"/s1d1/e1 "$d"/s2d1/s2d2/e2 \
		"$d"/s3d1/m1 "$d"/s3d1/m2 || return 1
	for p in s1d1/f1 s1d1/f2 s1d1/s1d2/f1 s1d1/s1d2/f2 s1d1/s1d2/s1d3/f1 \
		s1d1/s1d2/s1d3/f2 s2d1/f1 s2d1/s2d2/f1 s3d1/f1; do
		echo "$p" >"$d/$p"
	done
	# one copy of the (large, static) probe: x2 is a hard link of x1, so
	# resets stay cheap and the same inode is judged by two paths
	cp "$PROBE" "$d/s1d1/x1" && ln "$d/s1d1/x1" "$d/s2d1/x2" || return 1
	printf '\177ELF not executable\n' >"$d/s1d1/nx" && chmod 0644 "$d/s1d1/nx"
	printf '#!%s\n' "$d/s1d1/x1" >"$d/s1d1/sh_in"
	printf '#!%s\n' "$d/s2d1/x2" >"$d/s1d1/sh_out"
	printf '#!/bin/sh\nexit 0\n' >"$d/s1d1/sh_sys"
	chmod 0755 "$d/s1d1/sh_in" "$d/s1d1/sh_out" "$d/s1d1/sh_sys"
	p=$(type -P true)
	if [ -n "$p" ] && LC_ALL=C grep -q ld-linux "$p" 2>/dev/null; then
		cp "$p" "$d/s1d1/dyn"
	fi
	ln -s ../s2d1/f1 "$d/s1d1/ln_out"
	ln -s ../s1d1/f1 "$d/s2d1/ln_in"
	ln "$d/s3d1/f1" "$d/s2d1/hl"
	p=$d/deep
	for ((i = 1; i <= DEEP_DEPTH; i++)); do
		printf -v p '%s/d%02d' "$p" "$i"
	done
	mkdir -p "$p" && echo deep >"$p/f1" && echo d01 >"$d/deep/d01/f1"
}

# deep_path DIR [N]: DIR/deep/d01/.../dN (N defaults to DEEP_DEPTH)
deep_path() {
	local p=$1/deep i
	for ((i = 1; i <= ${2:-$DEEP_DEPTH}; i++)); do
		printf -v p '%s/d%02d' "$p" "$i"
	done
	echo "$p"
}

# fixture_template DIR: build the tree at DIR and keep a pristine copy at
# DIR.tpl for fixture_reset
fixture_template() {
	rm -rf "$1" "$1.tpl" && fixture_build "$1" || return 1
	if [ -x "$FIXTURE" ]; then
		"$FIXTURE" reset "$1" "$1.tpl"
	else
		cp -a "$1" "$1.tpl"
	fi
}

# fixture_reset DIR: a fresh copy of the tree at DIR (operations mutate it)
fixture_reset() {
	fixture_umount_all
	if [ -x "$FIXTURE" ]; then
		"$FIXTURE" reset "$1.tpl" "$1"
	else
		rm -rf "$1" && cp -a "$1.tpl" "$1"
	fi
}

# fixture_mount SRC DST: bind-mount SRC on DST (root), undone by
# fixture_umount_all or at exit
_mounts=()
fixture_mount() {
	if [ -x "$FIXTURE" ]; then
		"$FIXTURE" bind "$1" "$2"
	else
		mount --bind "$1" "$2"
	fi && _mounts+=("$2")
}

fixture_umount_all() {
	local i
	for ((i = ${#_mounts[@]} - 1; i >= 0; i--)); do
		if [ -x "$FIXTURE" ]; then
			"$FIXTURE" umount "${_mounts[$i]}"
		else
			umount "${_mounts[$i]}" 2>/dev/null || umount -l "${_mounts[$i]}"
		fi
	done
	_mounts=()
}

# nap SECONDS: sleep without an exec (a dynamic sleep costs ~70 ms in
# TCG): a read that times out on a fifo no one writes.
nap() {
	if [ -z "${_NAP_FD:-}" ]; then
		local fifo
		fifo=$(mktemp -u /tmp/corral-nap.XXXXXX) && mkfifo "$fifo" &&
			exec {_NAP_FD}<>"$fifo" && rm -f "$fifo" || return 1
	fi
	read -r -t "$1" -u "$_NAP_FD"
	return 0
}

# count_lines_v VAR FILE: the number of lines in FILE (no exec)
count_lines_v() {
	local -a l=()
	[ -f "$2" ] && mapfile -t l <"$2"
	printf -v "$1" %s "${#l[@]}"
}

# wait_lines FILE N [SECONDS]: wait (up to SECONDS, 30 by default) until
# FILE has N lines; 1 if it never does
wait_lines() {
	local i n
	for ((i = 0; i < ${3:-30} * 50; i++)); do
		count_lines_v n "$1"
		[ "$n" -ge "$2" ] && return 0
		nap 0.02
	done
	return 1
}

# make_tmp VAR NAME [BASE]: VAR := a fresh directory under BASE (default
# $CORRAL_TEST_TMP, $TMPDIR or /tmp), removed with its mounts at exit
_tmp_dirs=()
make_tmp() {
	local d
	d=$(mktemp -d "${3:-${CORRAL_TEST_TMP:-${TMPDIR:-/tmp}}}/corral-$2.XXXXXX") || return 1
	_tmp_dirs+=("$d")
	printf -v "$1" %s "$d"
	trap cleanup_tmp EXIT
}

# umount_under DIR: lazily unmount whatever is still mounted below DIR
umount_under() {
	local mp
	while read -r mp; do
		umount -l "$mp" 2>/dev/null
	done < <(awk -v d="$1" 'index($5, d "/") == 1 { print $5 }' \
		/proc/self/mountinfo 2>/dev/null | sort -r)
}

# kill_at_exit PID: a helper left running in the background is killed
# (SIGKILL) when the suite exits (make_tmp sets the EXIT trap: a trap of the
# suite's own would be replaced by the next make_tmp)
kill_at_exit() {
	_net_pids+=("$1")
}

cleanup_tmp() {
	local d p
	for p in "${_net_pids[@]}"; do
		kill -KILL "$p" 2>/dev/null
	done
	fixture_umount_all
	for d in "${_tmp_dirs[@]}"; do
		umount_under "$d"
		rm -rf "$d"
	done
}

# system_rx: --rx rules for the system directories a dynamic command needs
system_rx() {
	local d out=""
	for d in /usr /bin /sbin /lib /lib64 /lib32 /libx32; do
		[ -e "$d" ] && out="$out --rx $d"
	done
	echo "$out --ro /etc"
}

# ---- network ----------------------------------------------------------------

NETPROBE=$CORRAL_HELPERS/netprobe

# net_serve PORT...: one listener on [::]:PORT (dual stack: 127.0.0.0/8,
# ::1 and mapped addresses all reach it) per port, outside any sandbox,
# stopped at exit.  Tests use loopback only.
_net_pids=()
net_serve() {
	local dir i
	make_tmp dir netserve || return 1
	"$NETPROBE" serve "$@" >"$dir/out" 2>&1 &
	_net_pids+=($!)
	for ((i = 0; i < 100; i++)); do
		grep -q serving "$dir/out" 2>/dev/null && return 0
		sleep 0.05
	done
	echo "# net_serve $*: the listener did not start: $(cat "$dir/out")"
	return 1
}

# expect_net ENGINE NAME "RULES" "OPS" "RESULTS": expect_probe for netprobe
expect_net() {
	PROBE=$NETPROBE expect_probe "$@"
}
