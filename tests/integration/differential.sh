#!/bin/bash
# differential.sh: corral against kernel Landlock, one scenario at a time.
#
# Each scenario is a rule set and a list of probe operations over the
# fixture tree of lib.sh (fixture_build has the diagram).  It runs twice,
# each time on a pristine tree (a fresh copy whenever an earlier run used an
# operation that changes the tree):
#
#   $CORRAL            --rx $CORRAL_HELPERS RULES -- probe OPS
#   ll-exec (Landlock) --rx $CORRAL_HELPERS RULES -- probe OPS
#
# and is one TAP line: ok when Landlock gave the answers the table expects
# and corral gave the same answers, line by line (apart from a difference
# the table declares, see `corral` below).  The expectations were checked
# by hand against DESIGN.md section 2 on Landlock ABI 7 (kernel 6.18), and
# kernel Landlock gives the same answers in the guest on 6.1 (ABI 2, apart
# from the truncate/ioctl scenarios it cannot judge) and 6.12 (ABI 6).
#
# Where the running kernel's Landlock ABI does not handle a right a scenario
# is about (truncate < ABI 3, ioctl < ABI 5) the oracle is not consulted:
# corral is still checked against the table, and the line says
# `# SKIP landlock ABI N lacks RIGHT`.
#
# Environment: CORRAL, CORRAL_HELPERS (see lib.sh); CORRAL_TEST_TMP (the
# tmpfs fixture base, default /tmp); CORRAL_TEST_ROOTFS (a directory on the
# root file system, overlayfs in the guest, for `fs both` scenarios; default
# /var/tmp).  Bind-mount scenarios need root.
#
# Usage: differential.sh [PATTERN]   (run only scenarios whose name has it)
#        differential.sh --explain [PATTERN]
#
# --explain checks `corral explain` instead: for each op of a
# scenario, `corral explain RULES --op OP PATH` (--op OP SRC DST for a
# rename, link or exchange), on the tree as the sandbox found it before
# that op, must answer allowed where corral's sandbox under the same rules
# allowed it, denied where it refused it (EACCES, EPERM, EXDEV); see
# explain_ops for how probe's ops map to explain's and which it does not
# model.

. "$(dirname "$0")/lib.sh"

# ---- the scenario table -----------------------------------------------
# The scenarios, and the words they are written in, are data of their own.
TABLE=$(dirname "$0")/differential.table

# ---- parsing ------------------------------------------------------------

n_sc=0
sc_name=() sc_rules=() sc_ops=() sc_exp=() sc_corral=() sc_fs=() sc_bind=()
sc_abi=() sc_abi_right=() sc_require=() sc_corral_why=() sc_inherit=()
sc_helper=()

parse_table() {
	local kw rest i=-1 line n=0
	local -a words
	while IFS= read -r line; do
		n=$((n + 1))
		[[ $line =~ ^[[:space:]]*(#|$) ]] && continue
		read -r kw rest <<<"$line"
		read -r -a words <<<"$rest"
		case $kw in
		scenario)
			i=$((i + 1))
			sc_name[i]=$rest sc_rules[i]="" sc_ops[i]="" sc_exp[i]=""
			sc_corral[i]="" sc_corral_why[i]="" sc_fs[i]=tmp sc_bind[i]="" sc_abi[i]=0
			sc_abi_right[i]="" sc_require[i]="" sc_inherit[i]=""
			sc_helper[i]=$PROBE
			;;
		rules) sc_rules[i]=$rest ;;
		op)
			sc_ops[i]+="${sc_ops[i]:+ + }${words[*]:0:${#words[@]}-1}"
			sc_exp[i]+="${sc_exp[i]:+ }${words[-1]}"
			;;
		corral)
			sc_corral[i]+=" ${words[0]}:${words[1]}"
			sc_corral_why[i]+="${sc_corral_why[i]:+$'\n'}corral differs on purpose at op ${words[0]} (${words[1]}): ${words[*]:2}"
			;;
		fs) sc_fs[i]=${words[0]} ;;
		bind) sc_bind[i]+=" ${words[0]} ${words[1]}" ;;
		abi) sc_abi[i]=${words[0]} sc_abi_right[i]=${words[1]} ;;
		require) sc_require[i]=${words[0]} ;;
		inherit) sc_inherit[i]+=" ${words[0]} ${words[1]}" ;;
		helper) sc_helper[i]=$CORRAL_HELPERS/${words[0]} ;;
		*) echo "differential.sh: $TABLE:$n: unknown keyword '$kw' (see the table's header)" >&2; exit 2 ;;
		esac
	done <"$TABLE"
	n_sc=$((i + 1))
}

# expand VAR STRING FIXTURE: VAR := STRING with the table's tokens replaced
SYSRX="" SYSX="" SOCK=""
expand() {
	local s=$2
	s=${s//@SOCK/$SOCK}
	s=${s//@SYSRX/$SYSRX}
	s=${s//@SYSX/$SYSX}
	s=${s//@D40/$3/deep/$D40}
	s=${s//@D01/$3/deep/d01}
	printf -v "$1" %s "${s//@/$3}"
}

# ---- running ------------------------------------------------------------

# Operations that change the tree; after them the next run gets a fresh copy
MUTATING=" create mknod-reg mknod-sock mkdir mkfifo symlink unlink rmdir rename
exchange link truncate otrunc ftruncate mount-tmpfs bind umount fd-write
fd-ftruncate "
declare -A dirty=()

# with_fds "N PATH ..." CMD...: CMD with each PATH open read-write on N
with_fds() {
	local -a f
	read -r -a f <<<"$1"
	shift
	while [ ${#f[@]} -ge 2 ]; do
		eval "exec ${f[0]}<>\"\${f[1]}\"" || return 125
		f=("${f[@]:2}")
	done
	"$@"
}

# run_engine ENGINE W: probe $ops under ENGINE and $rules on a pristine
# fixture at W, with $binds mounted and $inherits open; sets out
run_engine() {
	local engine=$1 w=$2 rc word
	local -a b opv
	if [ -n "${dirty[$w]-}" ]; then
		fixture_reset "$w" || { out="setup: cannot reset $w"; return; }
		unset "dirty[$w]"
	fi
	read -r -a b <<<"$binds"
	while [ ${#b[@]} -ge 2 ]; do
		fixture_mount "${b[0]}" "${b[1]}" || { out="setup: bind ${b[*]:0:2} failed"; return; }
		b=("${b[@]:2}")
	done
	read -r -a opv <<<"$ops"
	out=$(with_fds "$inherits" sandboxed "$engine" "$rules" "$helper" "${opv[@]}" 2>&1)
	rc=$?
	fixture_umount_all
	for word in "${opv[@]}"; do
		[[ $MUTATING == *[[:space:]]${word}[[:space:]]* ]] && dirty[$w]=1
	done
	if [ $rc -ne 0 ]; then
		out+=$'\n'"(exit status $rc)"
		dirty[$w]=1
	fi
}

# expected_lines VAR I [corral]: VAR := the table's answers as probe prints
# them for $ops (with corral's declared differences if asked)
expected_lines() {
	local -a res
	local o
	read -r -a res <<<"${sc_exp[$2]}"
	if [ "${3:-}" = corral ]; then
		for o in ${sc_corral[$2]}; do
			res[${o%%:*} - 1]=${o#*:}
		done
	fi
	probe_lines_v "$1" "$ops" "${res[@]}"
}

# cannot_run I W NAME: true after a skip line when scenario I cannot run
cannot_run() {
	if [ -n "${sc_bind[$1]}" ] && ! is_root; then
		skip "$3" "bind mounts need root"
		return 0
	fi
	if [ -n "${sc_require[$1]}" ] && [ ! -e "$2.tpl/${sc_require[$1]}" ]; then
		skip "$3" "fixture has no ${sc_require[$1]} (no dynamic true(1) found)"
		return 0
	fi
	return 1
}

# run_scenario I W LABEL: one TAP line
run_scenario() {
	local i=$1 w=$2 name=${sc_name[$1]}$3 want want_c oracle="" corral why=""
	local rules ops binds inherits helper=${sc_helper[$1]}
	cannot_run "$i" "$w" "$name" && return
	expand rules "${sc_rules[i]}" "$w"
	expand ops "${sc_ops[i]}" "$w"
	expand binds "${sc_bind[i]}" "$w"
	expand inherits "${sc_inherit[i]}" "$w"
	expected_lines want "$i"
	# declared differences are corral's; ll-exec standing in for it has none
	if is_oracle_corral; then want_c=$want; else expected_lines want_c "$i" corral; fi
	if [ "$ABI" -lt "${sc_abi[i]}" ]; then
		why="landlock ABI $ABI lacks ${sc_abi_right[i]}"
		if is_oracle_corral; then	# nothing to check: both are the oracle
			skip "$name" "$why"
			return
		fi
	else
		run_engine oracle "$w"
		oracle=$out
	fi
	run_engine corral "$w"
	corral=$out
	if [ -z "$why" ] && [ "$oracle" != "$want" ]; then
		not_ok "$name" "kernel Landlock (ll-exec) disagrees with the table" \
			"rules: $rules" \
			"- table, + ll-exec:" "$(compare_lines "$want" "$oracle")" \
			"corral:" "$corral"
	elif [ "$corral" != "$want_c" ]; then
		local whom="kernel Landlock"
		[ -z "$why" ] || whom="the table ($why: ll-exec not run)"
		not_ok "$name" "corral disagrees with $whom" \
			"${sc_corral_why[i]:-(no declared difference)}" \
			"rules: $rules" \
			"- expected, + corral:" "$(compare_lines "$want_c" "$corral")"
	elif [ -n "$why" ]; then
		skip "$name" "$why (corral matched the table)"
	else
		ok "$name"
		[ -z "${sc_corral_why[i]}" ] || is_oracle_corral || diag "${sc_corral_why[i]}"
	fi
}


# ---- --explain: corral explain against the sandbox ----------------------

# explain_ops OP: xops := the explain operations probe's OP needs (each must
# be allowed), xarg := which of its arguments is the path (xn: how many
# paths from there); no xops when explain does not model OP, with the
# reason in xwhy
explain_ops() {
	xops="" xwhy="" xarg=1 xn=1
	case $1 in
	read | fork-read | thread-read | reopen) xops=read ;;
	readdir | write | exec | truncate) xops=$1 ;;
	otrunc | ftruncate) xops="write truncate" ;;	# opened for writing
	create) xops="create write" ;;			# open(O_CREAT|O_WRONLY)
	mknod-reg | mknod-sock | mkdir | mkfifo) xops=create ;;
	symlink) xops=create xarg=2 ;;
	unlink | rmdir) xops=remove ;;
	ioctl) xops="read ioctl" ;;			# probe opens it read-only
	stat | opath | chdir | readlink) xwhy="not checked by a sandbox" ;;
	rename | link | exchange) xops=$1 xn=2 ;;	# --op OP SRC DST
	mount-tmpfs | umount | bind) xwhy="mounts: EPERM in any sandbox" ;;
	fd-*) xwhy="a descriptor opened outside the sandbox" ;;
	*-unix) xwhy="named unix sockets" ;;
	*) xwhy="not an explain operation" ;;
	esac
}

# verdict_of OP RESULT: allowed or denied as the sandbox answered, or
# nothing when the kernel answered before asking it (EEXIST, ENOENT,
# EISDIR of an open)
verdict_of() {
	case $2 in
	OK | ENOTTY | ENOTEMPTY) echo allowed ;;
	EACCES | EPERM | EXDEV) echo denied ;;
	EISDIR | ENOTDIR) [[ $1 != unlink && $1 != rmdir ]] || echo allowed ;;
	esac
}

# explain_op WORDS...: xv := allowed|denied|error for one probe op, xout :=
# explain's last answer (on the tree as it is now)
explain_op() {
	local x rc
	local -a r
	read -r -a r <<<"$rules"
	xv=allowed xout=""
	for x in $xops; do
		xout=$("$CORRAL" explain --rx "$CORRAL_HELPERS" "${r[@]}" \
			--op "$x" "${@:xarg:xn}" 2>&1)
		rc=$?
		case $rc in
		0) ;;
		1) xv=denied; return ;;
		*) xv="error (exit $rc)"; return ;;
		esac
	done
}

# sandbox_answers I W: res := what corral's sandbox answered to each op of
# scenario I (the table's answers where this kernel's Landlock cannot
# judge its right, with actual_from saying so); false after a not ok line
sandbox_answers() {
	local i=$1 w=$2
	if [ "$ABI" -ge "${sc_abi[i]}" ] && [ "$ABI" -gt 0 ]; then
		run_engine corral "$w"
		mapfile -t res < <(sed 's/.*: //' <<<"$out")
		if [ "${#res[@]}" -ne "${#opl[@]}" ]; then
			not_ok "$name" "corral's sandbox did not answer every op" "$out"
			return 1
		fi
	else
		read -r -a res <<<"${sc_exp[i]}"
		actual_from="the table (landlock ABI $ABI lacks ${sc_abi_right[i]:-landlock})"
	fi
}

# explain_all W: got[k], outs[k] := explain's answer to each modelled op,
# each asked on the tree as the sandbox found it: after explaining an op
# that changed the sandbox's tree (a rename before an exchange of what it
# renamed), the op is done outside any sandbox too
explain_all() {
	local k w=$1
	local -a words
	for k in "${!opl[@]}"; do
		read -r -a words <<<"${opl[k]}"
		explain_ops "${words[0]}"
		if [ -z "$xops" ]; then
			notes+=("op $((k + 1)) ${words[0]}: not explained ($xwhy)")
			[[ $whys == *"$xwhy"* ]] || whys+="${whys:+; }$xwhy"
			continue
		fi
		explain_op "${words[@]:1}"
		got[k]=$xv outs[k]=$xout
		[ "${res[k]}" = OK ] || continue
		[[ $MUTATING == *[[:space:]]${words[0]}[[:space:]]* ]] || continue
		dirty[$w]=1
		"$PROBE" "${words[@]}" >/dev/null 2>&1
	done
}

# explain_scenario I W LABEL: one TAP line; every modelled op of scenario I
# explained, compared with corral's sandbox's answers
explain_scenario() {
	local i=$1 w=$2 name=${sc_name[$1]}$3 k want compared=0 actual_from="corral's sandbox"
	local rules ops binds inherits helper=${sc_helper[$1]}
	local -a opl words got=() outs=() res notes=() bad=()
	local whys=""
	cannot_run "$i" "$w" "$name" && return
	expand rules "${sc_rules[i]}" "$w"
	expand ops "${sc_ops[i]}" "$w"
	expand binds "${sc_bind[i]}" "$w"
	expand inherits "${sc_inherit[i]}" "$w"
	mapfile -t opl < <(sed 's/ + /\n/g' <<<"$ops")
	sandbox_answers "$i" "$w" || return
	if [ -n "${dirty[$w]-}" ]; then
		fixture_reset "$w" || { not_ok "$name" "cannot reset $w"; return; }
		unset "dirty[$w]"
	fi
	read -r -a words <<<"$binds"
	while [ ${#words[@]} -ge 2 ]; do
		fixture_mount "${words[0]}" "${words[1]}"
		words=("${words[@]:2}")
	done
	explain_all "$w"
	fixture_umount_all
	for k in "${!got[@]}"; do
		read -r -a words <<<"${opl[k]}"
		want=$(verdict_of "${words[0]}" "${res[k]}")
		[ -z "$want" ] || compared=$((compared + 1))
		if [ -z "$want" ]; then
			notes+=("op $((k + 1)) ${words[0]}: not compared (${res[k]}: the kernel answers before the sandbox)")
		elif [ "$want" != "${got[k]}" ]; then
			bad+=("op $((k + 1)) ${opl[k]}: ${res[k]} from $actual_from, but explain: ${outs[k]}")
		fi
	done
	if [ ${#bad[@]} -gt 0 ]; then
		not_ok "$name" "explain disagrees with $actual_from" "rules: $rules" "${bad[@]}"
	elif [ ${#got[@]} -eq 0 ]; then
		skip "$name" "explain models none of its ops ($whys)"
	elif [ "$compared" -eq 0 ]; then
		skip "$name" "the kernel answers each of its ops before the sandbox"
	else
		ok "$name"
	fi
	[ ${#notes[@]} -eq 0 ] || diag "${notes[@]}"
}

main() {
	local i base rbase w rw="" pattern=${1:-} run=run_scenario
	if [ "$pattern" = --explain ]; then
		run=explain_scenario pattern=${2:-}
		export CORRAL_QUIET=1	# the sandbox's answers only
	fi
	need_helpers
	parse_table
	ABI=$(landlock_abi)
	[ "$ABI" -gt 0 ] || diag "NO LANDLOCK on this kernel: the oracle is not consulted at all"
	local d
	for d in /usr /bin /sbin /lib /lib64 /lib32 /libx32; do
		[ -e "$d" ] || continue
		SYSRX+=" --rx $d" SYSX+=" --allow exec:$d"
	done

	make_tmp base diff || skip_all "cannot make a temp dir"
	w=$base/w
	case $w/ in "$CORRAL_HELPERS"/*) skip_all "fixture $w is inside CORRAL_HELPERS" ;; esac
	D40=$(deep_path "" "$DEEP_DEPTH") D40=${D40#/deep/}
	fixture_template "$w" || skip_all "cannot build the fixture in $w"
	SOCK=$base/sock
	mkdir -p "$SOCK" && chmod 755 "$base" "$SOCK" || skip_all "cannot make $SOCK"
	"$CORRAL_HELPERS/escape" listen-unix "$SOCK/s" 3600 >/dev/null 2>&1 &
	kill_at_exit $!
	"$CORRAL_HELPERS/escape" wait-file "$SOCK/s.d" >/dev/null
	rbase=${CORRAL_TEST_ROOTFS:-/var/tmp}
	if [ -d "$rbase" ] && [ -w "$rbase" ] && make_tmp rw diff "$rbase"; then
		rw=$rw/w
		fixture_template "$rw" || rw=""
	fi

	local count=0
	for ((i = 0; i < n_sc; i++)); do
		[[ ${sc_name[i]} == *"$pattern"* ]] || continue
		count=$((count + 1))
		[ "${sc_fs[i]}" != both ] || count=$((count + 1))
	done
	diag "$n_sc scenarios; Landlock ABI $ABI; corral=$CORRAL; fixture $w${rw:+ and $rw}"
	plan "$count"
	for ((i = 0; i < n_sc; i++)); do
		[[ ${sc_name[i]} == *"$pattern"* ]] || continue
		$run "$i" "$w" ""
		[ "${sc_fs[i]}" = both ] || continue
		if [ -n "$rw" ]; then
			$run "$i" "$rw" " (on $rbase)"
		else
			skip "${sc_name[i]} (on $rbase)" "$rbase is not a writable directory"
		fi
	done
	done_testing
}

main "$@"
