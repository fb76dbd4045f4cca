#!/bin/bash
# tests/bench/in-guest.sh: the guest half of `make bench`, measurements
# (a)-(g), (n) and (b-deny).
# Run by tests/bench/run inside one guest boot per kernel, as root.  Prints
# progress on stderr and, on stdout, the markdown table of this kernel.
#
# Every figure is a median; the variants of a measurement are interleaved
# (A B C, C B A, A B C, ...) and rounds are added until, for every variant,
# the median of the even rounds and the median of the odd rounds agree
# within 5% (the "agree" column), or the round limit is reached (then the
# row says "NO").  Keys named x_* are printed for information and take no
# part in that test.
#
# Launches ((d), (e), (g)) are timed by CPU time: user + system time of the
# launched process and every descendant it reaped (wait4's rusage).  Under
# -icount that is the instructions they executed.  Their wall time also
# holds idle stretches (a 9p request to the host, a timer), which -icount
# ends by jumping the guest clock to the next timer deadline: a jump of
# milliseconds that does not repeat from run to run, so wall-time medians
# differed 300-2000% between rounds.  They are kept as x_wall.
#
# Environment: CORRAL, CORRAL_HELPERS (built corral and static helpers);
# BENCH_QUICK=1 for a short smoke run (figures meaningless);
# BENCH_ONLY="a b ..." to run some sections only (deny: only the deny-rule
# measurement, beside (b)).
set -u
export LC_ALL=C
: "${CORRAL:?}" "${CORRAL_HELPERS:?}"
H=$CORRAL_HELPERS
OB=$H/openbench
LL=$H/ll-exec
PROBE=$H/probe
QUICK=${BENCH_QUICK:-0}
ONLY=${BENCH_ONLY:-a b c d e f g n p deny}
W=${BENCH_DIR:-/tmp/corral-bench}
kernel=$(uname -r)

say() { echo "bench: $*" >&2; }
only() { [[ " $ONLY " == *" $1 "* ]]; }

rm -rf "$W" && mkdir -p "$W" || exit 1
ROWS=$W/rows		# the table, one markdown row a line
NOTES=$W/notes		# free text printed under the table
: >"$ROWS"
: >"$NOTES"
note() { printf '%s\n' "$*" >>"$NOTES"; }

if ! out=$("$CORRAL" setup 2>&1); then
	echo "corral setup failed: $out"
	exit 1
fi
say "$out"
note "$out (Landlock ABI $("$LL" --abi 2>&1))."

# ---- statistics --------------------------------------------------------
# series, summarize, the figures' helpers and row
. "$(dirname "$0")/stats.sh"

# ---- fixtures ------------------------------------------------------------

# the deep tree: $TOP/d1/.../d63, a file f at every level; the file at
# depth N is $TOP/d1/.../d(N-1)/f
TOP=$W/deep
deep_file() {
	local p=$TOP i
	for ((i = 1; i < $1; i++)); do p=$p/d$i; done
	echo "$p/f"
}
mkdir -p "$(dirname "$(deep_file 64)")" || exit 1
p=$TOP
for ((i = 1; i <= 64; i++)); do
	echo f >"$p/f"
	p=$p/d$i
done
DEPTHS="1 8 32 64"
PATHS=()
for d in $DEPTHS; do PATHS+=("$(deep_file "$d")"); done
MS=20 SAMPLES=15
[ "$QUICK" = 1 ] && MS=5 SAMPLES=3

# open_keys: openbench open output ("index ns") -> "dDEPTH ns"
open_keys() {
	local -a ds=($DEPTHS)
	while read -r i ns; do echo "d${ds[$i]} $ns"; done
}
# --engine=bpf: never a silent fallback to Landlock
CORRAL_BPF="$CORRAL --engine=bpf"
corral_run() { $CORRAL_BPF --rx "$H" "$@"; }
ll_run() { "$LL" --rx "$H" "$@"; }

# ---- (a) unsandboxed open, programs attached vs detached ------------------

attached=1
set_attached() {
	local out
	if [ "$1" = 1 ] && [ $attached = 0 ]; then
		out=$("$CORRAL" setup 2>&1) || say "setup failed: $out"
	elif [ "$1" = 0 ] && [ $attached = 1 ]; then
		out=$("$CORRAL" teardown --force 2>&1) || say "teardown failed: $out"
	fi
	attached=$1
}
v_attached() { set_attached 1; "$OB" open $MS $SAMPLES "${PATHS[@]}" | open_keys; }
v_detached() { set_attached 0; "$OB" open $MS $SAMPLES "${PATHS[@]}" | open_keys; }

if only a; then
	say "(a) unsandboxed open+close, attached vs detached"
	series a 4 8 attached detached
	set_attached 1
	for d in $DEPTHS; do
		at=$(get a attached "d$d") de=$(get a detached "d$d") r=$(ratio "$at" "$de")
		row "(a) unsandboxed open+close, depth $d" \
			"attached $(us "$at") µs / detached $(us "$de") µs" "$r×" "≤ 1.05×" \
			"$(met le "$r" 1.05)" "$(agree a attached detached)"
	done
fi

# ---- (b) sandboxed open at depth 1, 8, 32, 64 ------------------------------

v_none() { "$OB" open $MS $SAMPLES "${PATHS[@]}" | open_keys; }
v_corral() { corral_run --ro "$TOP" -- "$OB" open $MS $SAMPLES "${PATHS[@]}" | open_keys; }
v_landlock() { ll_run --ro "$TOP" -- "$OB" open $MS $SAMPLES "${PATHS[@]}" | open_keys; }

if only b; then
	say "(b) open+close at depth $DEPTHS: unsandboxed, corral, landlock"
	series b 4 10 none corral landlock
	for d in $DEPTHS; do
		n=$(get b none "d$d") c=$(get b corral "d$d") l=$(get b landlock "d$d")
		r=$(ratio "$c" "$n")
		row "(b) depth $d: corral / unsandboxed" \
			"unsandboxed $(us "$n") µs, corral $(us "$c") µs, landlock $(us "$l") µs" \
			"$r×" "≤ 1.15×" "$(met le "$r" 1.15)" "$(agree b none corral landlock)"
	done
	n1=$(get b none d1) c1=$(get b corral d1) l1=$(get b landlock d1)
	n64=$(get b none d64) c64=$(get b corral d64) l64=$(get b landlock d64)
	oc1=$((c1 - n1)) oc64=$((c64 - n64)) ol64=$((l64 - n64)) ol1=$((l1 - n1))
	r=$(ratio "$oc64" "$oc1")
	flat() { le "$oc64" 1000 || le "$r" 1.5; }
	row "(b) corral overhead flat: depth 64 vs depth 1" \
		"overhead d1 $oc1 ns, d64 $oc64 ns" "$r×" "≤ 1.5× or d64 < 1 µs" \
		"$(met_overhead "$oc64" "$oc1" "$(spread "$n1" b none corral)" flat)" "$(agree b none corral)"
	r=$(ratio "$oc64" "$ol64")
	row "(b) depth 64: corral overhead / landlock overhead" \
		"corral $oc64 ns, landlock $ol64 ns (landlock d1: $ol1 ns)" "$r×" \
		"≤ 0.2×" "$(met_overhead "$oc64" "$ol64" "$(spread "$n64" b none landlock)" le "$r" 0.2)" \
		"$(agree b none corral landlock)"
fi

# ---- (b-deny) the hit path with 20 deny rules under one allow ----------------
#
# (b)'s open+close at depth 1 and 64 under --ro $TOP, without deny rules
# and with 20 of them on siblings inside the allowed tree, none on the
# measured path (secrets elsewhere in an allowed home): 20 directories
# beside d1 (dirs); 20 files beside d1 (files: the domain then has rules
# on files, so every open of a file also looks its own rule up wherever
# the domain's rule_inos filter, 64 bits, has the file's bit set: the 20
# are chosen so that none shares a measured file's bit); the same but two
# of the 20 chosen to share them (clash: the domain's sorted list of file
# rules' 16-bit tags, corral_file_tag(), then decides whether a measured
# open looks its rule up: a search of five steps, and no lookup unless
# the tag is there too, about one file in 11,000 with 20 file rules);
# 10 directories and 10 files beside the path's directories at depths 3,
# 6, ..., 60 (spread, not chosen).  The target: each within 2% of the run
# without.

DENY_PATHS=("$(deep_file 1)" "$(deep_file 64)")
DENY_DIRS=() DENY_FILES=() DENY_CLASH=() DENY_SPREAD=()
# ino_bit PATH: corral_ino_bit() of PATH's inode number (corral_abi.h)
ino_bit() {
	local ino
	ino=$(stat -c %i "$1") || return 1
	echo $((((ino * 0x9E3779B97F4A7C15) >> 58) & 63))
}
# file_tag PATH: corral_file_tag() of PATH's inode number (corral_abi.h)
file_tag() {
	local ino
	ino=$(stat -c %i "$1") || return 1
	echo $(((((ino ^ (ino >> 29)) * 0xBF58476D1CE4E5B9) >> 48) & 65535))
}
deny_fixtures() {
	local i k p b b1 b64 c1='' c64=''
	b1=$(ino_bit "${DENY_PATHS[0]}") b64=$(ino_bit "${DENY_PATHS[1]}")
	for ((i = 1; i <= 20; i++)); do
		mkdir -p "$TOP/secret-d$i" && echo s >"$TOP/secret-d$i/key" || return 1
		DENY_DIRS+=(--deny "$TOP/secret-d$i")
		k=$((3 * i))
		p=$(dirname "$(deep_file "$k")")/s$k	# beside d$k
		if ((i % 2)); then
			mkdir -p "$p" && echo s >"$p/key" || return 1
		else
			echo s >"$p" || return 1
		fi
		DENY_SPREAD+=(--deny "$p")
	done
	for ((i = 1; i <= 1000 && (${#DENY_FILES[@]} < 40 || !${#c1} || !${#c64}); i++)); do
		p=$TOP/secret-f$i
		echo s >"$p" || return 1
		b=$(ino_bit "$p")
		if [ "$b" = "$b1" ] || [ "$b" = "$b64" ]; then
			[ "$b" = "$b1" ] && [ -z "$c1" ] && c1=$p
			[ "$b" = "$b64" ] && [ -z "$c64" ] && c64=$p
		elif [ ${#DENY_FILES[@]} -lt 40 ]; then
			DENY_FILES+=(--deny "$p")
		fi
	done
	[ -n "$c1" ] && [ -n "$c64" ] || return 1
	DENY_CLASH=(--deny "$c1")
	[ "$c64" = "$c1" ] || DENY_CLASH+=(--deny "$c64")
	DENY_CLASH+=("${DENY_FILES[@]:0:$((40 - ${#DENY_CLASH[@]}))}")
}
# deny_open RULE...: openbench open at depth 1 and 64 under --ro $TOP
deny_open() {
	corral_run --ro "$TOP" "$@" -- "$OB" open $MS $SAMPLES "${DENY_PATHS[@]}" |
		DEPTHS="1 64" open_keys
}
v_dn_none() { "$OB" open $MS $SAMPLES "${DENY_PATHS[@]}" | DEPTHS="1 64" open_keys; }
v_dn_allow() { deny_open; }
v_dn_dirs() { deny_open "${DENY_DIRS[@]}"; }
v_dn_files() { deny_open "${DENY_FILES[@]}"; }
v_dn_clash() { deny_open "${DENY_CLASH[@]}"; }
v_dn_spread() { deny_open "${DENY_SPREAD[@]}"; }

# deny_clashes BITS RULE...: the --deny paths among RULE whose inode has
# BITS (ino_bit:file_tag; a file_tag of * matches any)
deny_clashes() {
	local bits=$1 out=
	shift
	while [ $# -ge 2 ]; do
		# shellcheck disable=SC2053
		if [[ $(ino_bit "$2"):$(file_tag "$2") == $bits ]]; then
			if [ -d "$2" ]; then out="$out ${2#$TOP/} (dir)"; else out="$out ${2#$TOP/} (file)"; fi
		fi
		shift 2
	done
	echo "${out:- none}"
}

if only deny; then
	say "(b-deny) open+close at depth 1 and 64, --ro $TOP without and with 20 deny rules"
	deny_fixtures || { say "(b-deny): no fixtures"; exit 1; }
	dvars="dn_none dn_allow dn_dirs dn_files dn_clash dn_spread"
	# the 2% bar needs figures that repeat well within it
	# shellcheck disable=SC2086
	TOL=1 series bdeny 6 16 $dvars
	for d in 1 64; do
		n=$(get bdeny dn_none "d$d") a=$(get bdeny dn_allow "d$d")
		for v in dirs files clash spread; do
			c=$(get bdeny "dn_$v" "d$d") r=$(ratio "$c" "$a")
			if le 0.98 "$r" && le "$r" 1.02; then ok=true; else ok=false; fi
			case $v in
			dirs) what="20 sibling directories beside d1" ;;
			files) what="20 sibling files beside d1, no rule_inos bit shared with a measured file" ;;
			clash) what="20 sibling files beside d1, two sharing the measured files' rule_inos bits" ;;
			spread) what="10 directories and 10 files beside the path at depths 3..60" ;;
			esac
			# shellcheck disable=SC2086
			row "(b-deny) depth $d: corral --ro + 20 denies ($what) / corral --ro" \
				"unsandboxed $(us "$n") µs, corral $(us "$a") µs, with denies $(us "$c") µs (overhead +$((a - n)) ns, +$((c - n)) ns)" \
				"$r×" "1.00 ± 0.02×" "$(met $ok)" "$(TOL=1 agree bdeny $dvars)"
		done
	done
	nr=$(awk '$1 ~ /^dn_/ { print $5 }' "$W/bdeny.sum" | sort -n | sed -n '$p')
	note "(b-deny): $nr rounds; the series runs until every variant's even and odd rounds agree within 1% (at least 6 rounds, at most 16)."
	for d in 1 64; do
		f=$(deep_file "$d") b=$(ino_bit "$f") ft=$(file_tag "$f")
		note "(b-deny): the file at depth $d: inode $(stat -c %i "$f"), rule_inos bit $b, file tag $ft; the deny rules with the rule_inos bit: dirs$(deny_clashes "$b:*" "${DENY_DIRS[@]}"); files$(deny_clashes "$b:*" "${DENY_FILES[@]}"); clash$(deny_clashes "$b:*" "${DENY_CLASH[@]}"); spread$(deny_clashes "$b:*" "${DENY_SPREAD[@]}"); with the tag too (these alone cost a lookup): files$(deny_clashes "$b:$ft" "${DENY_FILES[@]}"); clash$(deny_clashes "$b:$ft" "${DENY_CLASH[@]}"); spread$(deny_clashes "$b:$ft" "${DENY_SPREAD[@]}") (the allows: $TOP bit $(ino_bit "$TOP"), $H bit $(ino_bit "$H"))."
	done
	if command -v bpftool >/dev/null; then
		sysctl -q kernel.bpf_stats_enabled=1
		note "(b-deny) profile of corral_file_open (kernel.bpf_stats_enabled=1; bpftool prog show run_time_ns/run_cnt deltas over one \`openbench open 5 3\` at depth 1 and 64):"
		for v in allow dirs files clash spread; do
			case $v in
			allow) rules=() ;;
			dirs) rules=("${DENY_DIRS[@]}") ;;
			files) rules=("${DENY_FILES[@]}") ;;
			clash) rules=("${DENY_CLASH[@]}") ;;
			spread) rules=("${DENY_SPREAD[@]}") ;;
			esac
			PROF_PROGS=corral_file_open prof "(b-deny) $v" \
				corral_run --ro "$TOP" "${rules[@]}" -- "$OB" open 5 3 "${DENY_PATHS[@]}"
		done
		sysctl -q kernel.bpf_stats_enabled=0
	fi
fi

# ---- (c) the miss path: first access in a fresh directory at depth 64 ------
#
# Two cases.  Cold: the file's directory and its parent are both new, so
# nothing above it is marked and corral walks to the root (the true miss
# path).  Beside marked ones: fresh directories under one parent, which
# the first of them marks; every later one is judged from that mark (tar,
# npm or a build making directories side by side).  Each fresh directory
# is at depth 64 either way, and Landlock walks to the root in both.

NMISS=300
[ "$QUICK" = 1 ] && NMISS=50
MISSBASE=$(dirname "$(dirname "$(deep_file 63)")")	# depth 62
COLDBASE=$(dirname "$MISSBASE")
miss_n=0
fresh() { # LEVELS: F := a new set of fresh directories, each at depth 64
	miss_n=$((miss_n + 1))
	if [ "$1" = 2 ]; then F=$COLDBASE/fresh$miss_n; else F=$MISSBASE/fresh$miss_n; fi
	"$OB" mkfresh "$F" $NMISS "$1"
}
v_miss_none() { fresh 1 && echo "miss $("$OB" miss "$F" $NMISS)"; }
v_miss_corral() { fresh 1 && echo "miss $(corral_run --ro "$TOP" -- "$OB" miss "$F" $NMISS)"; }
v_miss_landlock() { fresh 1 && echo "miss $(ll_run --ro "$TOP" -- "$OB" miss "$F" $NMISS)"; }
v_cold_none() { fresh 2 && echo "miss $("$OB" miss "$F" $NMISS 2)"; }
v_cold_corral() { fresh 2 && echo "miss $(corral_run --ro "$TOP" -- "$OB" miss "$F" $NMISS 2)"; }
v_cold_landlock() { fresh 2 && echo "miss $(ll_run --ro "$TOP" -- "$OB" miss "$F" $NMISS 2)"; }

if only c; then
	say "(c) miss path at depth 64"
	series c 4 8 cold_none cold_corral cold_landlock miss_none miss_corral miss_landlock
	hit=
	if [ -s "$W/b.sum" ]; then
		hit=", corral hit at depth 64: $(us "$(get b corral d64)") µs"
	fi
	for k in cold miss; do
		n=$(get c ${k}_none miss) c=$(get c ${k}_corral miss) l=$(get c ${k}_landlock miss)
		r=$(ratio "$c" "$l")
		case $k in
		cold) what="first open in a fresh directory under a fresh parent (nothing marked above: the walk), depth 64" ;;
		miss) what="first open in a fresh directory beside marked ones (parent marked), depth 64" ;;
		esac
		row "(c) $what: corral / landlock" \
			"unsandboxed $(us "$n") µs, corral $(us "$c") µs, landlock $(us "$l") µs$hit" \
			"$r×" "report only (may be slower)" "$(ratio $((c - n)) $((l - n)))× in overhead" \
			"$(agree c ${k}_none ${k}_corral ${k}_landlock)"
	done
fi

# ---- (d) launch --------------------------------------------------------------

NL=5
[ "$QUICK" = 1 ] && NL=2
# openbench launch prints "WALL FAILURES CPU" (medians, ns)
launch_key() {
	read -r wall fails cpu
	echo "launch $cpu"
	echo "x_wall $wall"
	[ "$fails" = 0 ] || echo "failures $fails"
}
v_true() { "$OB" launch $NL true | launch_key; }
v_l_corral() { "$OB" launch $NL $CORRAL_BPF --rx /usr -- true | launch_key; }
v_bwrap() { "$OB" launch $NL bwrap --ro-bind / / true | launch_key; }
v_firejail() { "$OB" launch $NL firejail --quiet --noprofile true | launch_key; }
# where a launch goes: the static probe alone, corral's own dynamic start,
# and each launcher running the static probe instead of the dynamic true
v_static() { "$OB" launch $NL "$PROBE" pid | launch_key; }
v_c_version() { "$OB" launch $NL "$CORRAL" --version | launch_key; }
v_c_static() { "$OB" launch $NL $CORRAL_BPF --rx "$H" -- "$PROBE" pid | launch_key; }
v_b_static() { "$OB" launch $NL bwrap --ro-bind / / "$PROBE" pid | launch_key; }
# the launchers (g) compares: ll-exec is the least a Landlock launcher does
# (no privilege separation, no seccomp), corral --engine=landlock is ours
v_ll_static() { "$OB" launch $NL "$LL" --rx "$H" -- "$PROBE" pid | launch_key; }
v_cl_static() { "$OB" launch $NL "$CORRAL" --engine=landlock --rx "$H" -- "$PROBE" pid 2>/dev/null | launch_key; }
# the floor DESIGN.md section 4 sets: openbench floor does the steps it
# requires (a capability-less child under the parser's filter sends one
# descriptor; the parent drops its capabilities, installs the sandbox
# filter, execs) and nothing else: no parsing, no BPF, no PATH search.
# What `--rx /usr` costs `true` itself (the loader, denied ld.so.cache,
# probes ~30 library paths) is measured with Landlock, without corral.
v_floor() { "$OB" launch $NL "$OB" floor /usr/bin/true | launch_key; }
v_ll_usr() { "$OB" launch $NL "$LL" --rx /usr -- /usr/bin/true | launch_key; }
v_ll_root() { "$OB" launch $NL "$LL" --rx / -- /usr/bin/true | launch_key; }

if only d; then
	say "(d) launch: true, corral, bwrap, firejail"
	lv=(true l_corral)
	for t in bwrap firejail; do
		if command -v $t >/dev/null; then
			lv+=("$t")
		else
			note "(d): $t is not installed: not measured"
		fi
	done
	series d 4 8 "${lv[@]}" static c_version c_static floor ll_usr ll_root
	if command -v bwrap >/dev/null; then
		series d2 2 2 b_static ll_static cl_static
	else
		series d2 2 2 ll_static cl_static
	fi
	t=$(get d true launch) c=$(get d l_corral launch) b=$(get d bwrap launch)
	f=$(get d firejail launch)
	awk '$2 == "failures" { n[$1]++ }
	END { for (v in n) printf "(d): %s failed in %d round(s): its figure is not a valid launch\n", v, n[v] }' \
		"$W/d.dat" >>"$NOTES"
	r=$(ratio "$c" "${b:-0}")
	row "(d) launch: corral --rx /usr -- true / bwrap --ro-bind / / true" \
		"CPU time: true $(ms "$t") ms, corral $(ms "$c") ms, bwrap $(ms "${b:-0}") ms, firejail $(ms "${f:-0}") ms" \
		"$r×" "≤ 0.5×" "$( [ -n "$b" ] && met le "$r" 0.5 || echo "not measured")" \
		"$(agree d "${lv[@]}")"
	note "(d) wall-time medians (idle jumps included, see above): true $(ms "$(get d true x_wall)") ms, corral $(ms "$(get d l_corral x_wall)") ms, bwrap $(ms "$(get d bwrap x_wall)") ms, firejail $(ms "$(get d firejail x_wall)") ms."
	note "(d) where a launch goes (CPU time, medians of $NL launches per round): static probe alone $(ms "$(get d static launch)") ms;" \
		"\`corral --version\` (exec of corral, its parser child forked and reaped, nothing else) $(ms "$(get d c_version launch)") ms;" \
		"corral running the static probe $(ms "$(get d c_static launch)") ms$(command -v bwrap >/dev/null && echo ", bwrap running it $(ms "$(get d2 b_static launch)") ms"), corral --engine=landlock running it $(ms "$(get d2 cl_static launch)") ms, the ll-exec helper (Landlock, nothing else: (g)'s Landlock launcher) running it $(ms "$(get d2 ll_static launch)") ms;" \
		"plain dynamic true $(ms "$t") ms."
	fl=$(get d floor launch) lu=$(get d ll_usr launch) lr=$(get d ll_root launch)
	if [ -n "$b" ] && [ -n "$fl" ] && [ -n "$lu" ] && [ -n "$lr" ]; then
		note "(d) the floor: \`openbench floor /usr/bin/true\` (only the steps DESIGN.md §4 requires: a child without capabilities under the parser's filter sends one descriptor, the parent drops its capabilities, installs the sandbox filter and execs; no parsing, no BPF, no PATH search) $(ms "$fl") ms = $(ratio "$fl" "$b")× bwrap;" \
			"what \`--rx /usr\` costs \`true\` itself, under Landlock without corral (ll-exec --rx /usr against --rx /, both running /usr/bin/true: the loader, denied /etc/ld.so.cache, probes ~30 library paths) $(sms $((lu - lr))) ms;" \
			"floor + that = $(ratio $((fl + lu - lr)) "$b")× bwrap: the least any launcher that follows DESIGN.md §4 can reach on this rule."
	fi
fi

# ---- (e) setup cost vs tree size --------------------------------------------

if only e; then
	NFILES=100000
	[ "$QUICK" = 1 ] && NFILES=2000
	say "(e) launching on a tree of $NFILES files vs an empty directory"
	"$OB" mktree "$W/big" $NFILES || exit 1
	mkdir -p "$W/empty"
	v_big() { "$OB" launch $NL $CORRAL_BPF --rx "$H" --ro "$W/big" -- "$PROBE" pid | launch_key; }
	v_empty() { "$OB" launch $NL $CORRAL_BPF --rx "$H" --ro "$W/empty" -- "$PROBE" pid | launch_key; }
	series e 4 8 big empty
	bg=$(get e big launch) em=$(get e empty launch) r=$(ratio "$bg" "$em")
	if le 0.9 "$r" && le "$r" 1.1; then ok=true; else ok=false; fi
	row "(e) launch with --ro on $NFILES files / on an empty dir" \
		"CPU time: big $(ms "$bg") ms, empty $(ms "$em") ms (wall: $(ms "$(get e big x_wall)"), $(ms "$(get e empty x_wall)") ms)" "$r×" "1.0 ± 0.1" \
		"$(met $ok)" "$(agree e big empty)"
fi

# ---- (f) no leak after 1,000 sequential sandboxes ---------------------------

PIN=/sys/fs/bpf/corral
# counts: "rules N domains N ioctl N | marks: dirs .. marked .. slots .. live .. current .."
counts() {
	local m r d i
	r=$(bpftool map dump pinned $PIN/rules 2>/dev/null | grep -c '"key"\|^key')
	d=$(bpftool map dump pinned $PIN/domains 2>/dev/null | grep -c '"key"\|^key')
	i=$(bpftool map dump pinned $PIN/open_denied 2>/dev/null | grep -c '"key"\|^key')
	x=$(bpftool map dump pinned $PIN/domain_rules 2>/dev/null | grep -c '"key"\|^key')
	n=$(bpftool map dump pinned $PIN/domain_nrules 2>/dev/null | grep -c '"key"\|^key')
	m=$("$OB" marks $PIN "$W/leak" "$H" 2>&1)
	echo "rules $r, domains $d, open_denied $i, domain_rules $x, domain_nrules $n; marks ($m)"
}
# settle: waits (up to 10 s) until no domain is left.  A sandbox's rules
# go when its last task is freed (task_free), and the kernel frees an
# exited task only after an RCU grace period: counting at once can see
# the last sandbox's rules still there (the 6.12 run of 52c2a0f counted
# "rules 2" that way, then domains 0 an instant later).
settle() {
	"$OB" settle $PIN/domains 10 2>/dev/null ||
		say "(f): a domain is still there after 10 s"
}
if only f; then
	NS=1000
	[ "$QUICK" = 1 ] && NS=20
	say "(f) $NS sequential sandboxes"
	# a clean baseline: nothing left by the sections before
	"$CORRAL" teardown --force >/dev/null 2>&1
	"$CORRAL" setup >/dev/null || exit 1
	mkdir -p "$W/leak/a/b/c"
	echo x >"$W/leak/a/b/c/f"
	echo y >"$W/leak/f"
	c0=$(counts)
	dump=$(bpftool map dump pinned $PIN/marks 2>&1 | head -n 2 | tr '\n' ' ')
	"$OB" launch 1 $CORRAL_BPF --rx "$H" --ro "$W/leak" -- "$PROBE" read "$W/leak/a/b/c/f" + read "$W/leak/f" >/dev/null
	settle
	c1=$(counts)
	t0=$EPOCHREALTIME
	res=$("$OB" launch $NS $CORRAL_BPF --rx "$H" --ro "$W/leak" -- "$PROBE" read "$W/leak/a/b/c/f" + read "$W/leak/f")
	t1=$EPOCHREALTIME
	settle
	cn=$(counts)
	# A mark lives as long as its inode (forgotten in inode_free_security):
	# once the kernel evicts the directories (here on demand, as memory
	# pressure would), it is gone.
	sync
	echo 2 >/proc/sys/vm/drop_caches
	ce=$(counts)
	note "(f) entry counts (rules and domains: bpftool map dump of the pinned hash maps; marks: \`openbench marks\`, which counts the entries of the pinned marks hash map keyed by the inode number of a directory under the sandboxes' trees ($W/leak and $H): \"${dump% }\"):"
	note "- before any sandbox: $c0"
	note "- after 1 sandbox:    $c1"
	note "- what stays: the marks (a hash map keyed by inode) of the directories the sandboxes used, holding dead domains' slots.  Rules and their index go when a domain's last task is freed (domain_died in bpf/task.bpf.c); open_denied entries when the sandboxed opener's credentials are freed (cred_free).  A mark goes when its inode is freed (inode_free_security); a dead slot stays until a sandboxed access meets it (reused by mark_store) or a full map is swept.  At most one mark per directory a sandbox ever reached."
	read -r wall nfail cpu <<<"$res"
	note "- after $NS more:     $cn  (median launch $(ms "$cpu") ms of CPU, $(ms "$wall") ms of wall time, $nfail failed, $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }') s in all)"
	note "- after evicting unused inodes (echo 2 >/proc/sys/vm/drop_caches): $ce"
	h0=${c0%%;*} h1=${c1%%;*} hn=${cn%%;*}
	mds() { echo "$1" | sed -n 's/.*marked \([0-9]*\) slots \([0-9]*\).*/\1 dirs, \2 slots/p'; }
	mk() { echo "$1" | sed -n 's/.*marked \([0-9]*\) slots \([0-9]*\).*/\1 \2/p'; }
	m0=$(mk "$c0") m1=$(mk "$c1") mn=$(mk "$cn") me=$(mk "$ce")
	livn=$(echo "$cn" | sed -n 's/.*live \([0-9]*\).*/\1/p')
	if [ "$h0" = "$hn" ] && [ "$nfail" = 0 ]; then
		fok=**met**
	elif [ "$h0" = "$hn" ]; then
		fok="**MISSED**: $nfail of the launches failed"
	else
		fok=**MISSED**
	fi
	row "(f) map entries after $NS sequential sandboxes" \
		"$hn (before any: $h0; after 1: $h1)" "—" "back to baseline" "$fok" "—"
	if [ "$m0" = "$mn" ] && [ "${livn:-1}" = 0 ]; then
		fok=**met**
	elif [ "$m1" = "$mn" ] && [ "${livn:-1}" = 0 ] && [ "$m0" = "$me" ]; then
		fok="**MISSED** at sandbox exit: no growth (the same after 1 and after $NS sandboxes), back to the baseline only when the inodes are evicted ($(mds "$ce") after drop_caches; see below why)"
	elif [ "$m1" = "$mn" ] && [ "${livn:-1}" = 0 ]; then
		fok="**MISSED**: not back to the baseline, but no growth (the same after 1 and after $NS sandboxes; see below why)"
	else
		fok=**MISSED**
	fi
	row "(f) inode-storage marks after $NS sequential sandboxes" \
		"$(mds "$cn"), live slots $livn (before any: $(mds "$c0"); after 1: $(mds "$c1"))" \
		"—" "back to baseline" "$fok" "—"
fi

# ---- (g) real work -------------------------------------------------------------

SYSRX=
for d in /usr /bin /sbin /lib /lib64 /lib32 /libx32; do
	[ -e "$d" ] && SYSRX="$SYSRX --rx $d"
done
G=$W/g
gen_project() { # DIR: a small C project, NF sources and a Makefile
	local d=$1 i j nf=8
	[ "$QUICK" = 1 ] && nf=4
	mkdir -p "$d"
	{
		printf 'CFLAGS = -O1\nOBJS ='
		for ((i = 0; i < nf; i++)); do printf ' m%d.o' $i; done
		printf ' main.o\n\nprog: $(OBJS)\n\t$(CC) -o $@ $(OBJS)\n\n%%.o: %%.c common.h\n\t$(CC) $(CFLAGS) -c -o $@ $<\n'
	} >"$d/Makefile"
	printf '#include <stdio.h>\n#include <string.h>\n#include <stdlib.h>\n' >"$d/common.h"
	for ((i = 0; i < nf; i++)); do
		printf 'int f%d(int);\n' $i >>"$d/common.h"
		{
			printf '#include "common.h"\n'
			for ((j = 0; j < 8; j++)); do
				printf 'static int g%d_%d(int x) { char b[64]; snprintf(b, sizeof b, "%%d", x * %d); return (int)strlen(b) + x; }\n' $i $j $j
			done
			printf 'int f%d(int x) { int s = 0;' $i
			for ((j = 0; j < 8; j++)); do printf ' s += g%d_%d(x + %d);' $i $j $j; done
			printf ' return s; }\n'
		} >"$d/m$i.c"
	done
	{
		printf '#include "common.h"\nint main(void) { int s = 0;'
		for ((i = 0; i < nf; i++)); do printf ' s += f%d(%d);' $i $i; done
		printf ' printf("%%d\\n", s); return 0; }\n'
	} >"$d/main.c"
}
g_n=0
g_prepare() { # fresh work dirs for one run
	g_n=$((g_n + 1))
	rm -rf "$G/run"
	mkdir -p "$G/run/x" "$G/run/tmp"
	cp -a "$G/proj" "$G/run/proj"
}
TAR_CMD="tar -xf $G/doc.tar -C $G/run/x && find $G/run/x -type f -exec cat {} + | wc -c"
MAKE_CMD="make -s -C $G/run/proj -j2"
g_rules() { echo "$SYSRX --ro /etc --ro $G/doc.tar --rw $G/run"; }
g_time() { # LAUNCHER...: prints "tar NS" and "make NS"
	local t
	g_prepare
	local wall fails cpu
	read -r wall fails cpu < <("$OB" launch 1 "$@" env TMPDIR="$G/run/tmp" bash -c "$TAR_CMD")
	echo "tar $cpu"
	echo "x_wall_tar $wall"
	[ "$fails" = 0 ] || echo "failures_tar $fails"
	read -r wall fails cpu < <("$OB" launch 1 "$@" env TMPDIR="$G/run/tmp" bash -c "$MAKE_CMD")
	echo "make $cpu"
	echo "x_wall_make $wall"
	[ "$fails" = 0 ] || echo "failures_make $fails"
}
# shellcheck disable=SC2046
v_g_none() { g_time; }
# shellcheck disable=SC2046
v_g_corral() { g_time $CORRAL_BPF $(g_rules) --; }
# shellcheck disable=SC2046
v_g_landlock() { g_time "$LL" $(g_rules) --; }
# the launcher installs a seccomp filter (DESIGN.md section 4) that
# ll-exec does not: these two time it alone and under Landlock
v_g_seccomp() { g_time "$OB" seccomp; }
# shellcheck disable=SC2046
v_g_landlock_seccomp() { g_time "$OB" seccomp "$LL" $(g_rules) --; }

if only g; then
	say "(g) real work: tar of /usr/share/doc, make -j2"
	mkdir -p "$G"
	# A part of /usr/share/doc (all of it, ~180 MB, took 4 minutes a
	# round on 6.1): the ratios, not the size, are what (g) is about.
	if [ "$QUICK" = 1 ]; then
		tar -cf "$G/doc.tar" -C /usr/share/doc apt bash 2>/dev/null
	else
		# shellcheck disable=SC2086 # BENCH_DOC is a glob
		(cd /usr/share && tar -cf "$G/doc.tar" doc/${BENCH_DOC:-[a-h]*}) 2>/dev/null
	fi
	gen_project "$G/proj"
	note "(g): tarball $(du -m "$G/doc.tar" | cut -f1) MB, $(tar -tf "$G/doc.tar" | wc -l) entries; project: $(ls "$G/proj"/*.c | wc -l) C files; rules for corral and landlock: $(g_rules)"
	# one unmeasured run of each first: the first run reads gcc, make and
	# tar from the 9p share into the page cache, and would count it
	v_g_none >/dev/null
	v_g_corral >/dev/null
	v_g_landlock >/dev/null
	v_g_seccomp >/dev/null
	v_g_landlock_seccomp >/dev/null
	series g 4 8 g_none g_corral g_landlock g_seccomp g_landlock_seccomp
	awk '$2 ~ /^failures/ { n[$1 " " $2]++ }
	END { for (k in n) printf "(g): %s in %d round(s): its figure is not valid\n", k, n[k] }' \
		"$W/g.dat" >>"$NOTES"
	for k in tar make; do
		n=$(get g g_none $k) c=$(get g g_corral $k) l=$(get g g_landlock $k)
		r=$(ratio "$c" "$n") rl=$(ratio "$c" "$l")
		if le "$r" 1.05 && le "$c" "$l"; then ok=true; else ok=false; fi
		case $k in
		tar) what="extract + read back /usr/share/doc/${BENCH_DOC:-[a-h]*}" ;;
		make) what="make -j2 of a generated C project" ;;
		esac
		row "(g) $what: corral / unsandboxed (corral / landlock)" \
			"CPU time: unsandboxed $(ms "$n") ms, corral $(ms "$c") ms, landlock $(ms "$l") ms (wall: $(ms "$(get g g_none "x_wall_$k")"), $(ms "$(get g g_corral "x_wall_$k")"), $(ms "$(get g g_landlock "x_wall_$k")") ms)" \
			"$r× ($rl×)" "≤ 1.05× and ≤ landlock" "$(met $ok)" \
			"$(agree g g_none g_corral g_landlock)"
		s=$(get g g_seccomp $k) ls=$(get g g_landlock_seccomp $k)
		note "(g) $k, what each layer adds to the unsandboxed $(ms "$n") ms (CPU): corral's sandbox seccomp filter alone $(sms $((s - n))) ms, Landlock alone (ll-exec) $(sms $((l - n))) ms, Landlock under corral's seccomp filter $(sms $((ls - n))) ms, corral (its BPF engine, launcher and seccomp filter) $(sms $((c - n))) ms: corral / (Landlock + the same filter) $(ratio "$c" "$ls")×"
	done
fi

# ---- profile of the programs (bpf_stats_enabled) ---------------------------

if only p; then
	say "profile: run_time_ns / run_cnt per program"
	sysctl -q kernel.bpf_stats_enabled=1
	note ""
	note "Profile (kernel.bpf_stats_enabled=1, which itself adds a little to every run; bpftool prog show run_time_ns/run_cnt deltas):"
	prof "(a) unsandboxed, depth 1..64" "$OB" open 5 3 "${PATHS[@]}"
	prof "(b) corral, hits, depth 1..64" corral_run --ro "$TOP" -- "$OB" open 5 3 "${PATHS[@]}"
	fresh 2
	prof "(c) corral, $NMISS cold misses at depth 64" corral_run --ro "$TOP" -- "$OB" miss "$F" $NMISS 2
	fresh 1
	prof "(c) corral, $NMISS misses beside marked directories at depth 64" corral_run --ro "$TOP" -- "$OB" miss "$F" $NMISS
	if only g; then
		prof "(g) corral, one tar and one make run" v_g_corral
		prof "(g) unsandboxed, one tar and one make run" v_g_none
	fi
	sysctl -q kernel.bpf_stats_enabled=0
fi

# ---- (n) network: connect+close on loopback -------------------------------------

NP=$H/netprobe
NPORT=5901
NCONN=2000
[ "$QUICK" = 1 ] && NCONN=200
v_net_none() { "$NP" bench 127.0.0.1 $NPORT $NCONN; }
v_net_rules() { corral_run --connect-tcp $NPORT -- "$NP" bench 127.0.0.1 $NPORT $NCONN; }
v_net_fsonly() { corral_run -- "$NP" bench 127.0.0.1 $NPORT $NCONN; }
v_net_landlock() { ll_run --connect-tcp $NPORT -- "$NP" bench 127.0.0.1 $NPORT $NCONN; }

if only n; then
	say "(n) connect+close on loopback: unsandboxed, corral with rules, corral without, landlock"
	"$NP" serve $NPORT >/dev/null 2>&1 &
	nserver=$!
	sleep 0.5
	nvars="net_none net_rules net_fsonly"
	if [ "$("$LL" --abi)" -ge 4 ]; then nvars="$nvars net_landlock"; fi
	# shellcheck disable=SC2086
	series n 4 12 $nvars
	kill "$nserver"
	n=$(get n net_none connect) c=$(get n net_rules connect) f=$(get n net_fsonly connect)
	r=$(ratio "$c" "$n")
	row "(n) connect+close: corral with --connect-tcp / unsandboxed" \
		"unsandboxed $(us "$n") µs, corral rules $(us "$c") µs" "$r×" "≤ 1.15×" \
		"$(met le "$r" 1.15)" "$(agree n net_none net_rules)"
	r=$(ratio "$f" "$n")
	row "(n) connect+close: corral without network rules / unsandboxed" \
		"unsandboxed $(us "$n") µs, corral (files only) $(us "$f") µs" "$r×" "≤ 1.05×" \
		"$(met le "$r" 1.05)" "$(agree n net_none net_fsonly)"
	if [[ $nvars == *net_landlock* ]]; then
		l=$(get n net_landlock connect)
		r=$(ratio "$((c - n))" "$((l - n))")
		row "(n) connect+close overhead: corral rules / landlock" \
			"corral +$((c - n)) ns, landlock $(us "$l") µs (+$((l - n)) ns)" "$r×" \
			"≤ 1.5×" "$(met_overhead $((c - n)) $((l - n)) "$(spread "$n" n net_none net_landlock)" le "$r" 1.5)" \
			"$(agree n net_none net_rules net_landlock)"
	else
		note "(n): Landlock ABI $("$LL" --abi) has no network rights: no landlock column."
	fi
fi

# ---- the table -------------------------------------------------------------------

echo "### Kernel $kernel (QEMU TCG guest: absolute times are distorted, compare the ratios)"
echo
echo "| test | figures (medians) | ratio | target | met | same variant twice agrees within 5% (max deviation) |"
echo "|---|---|---|---|---|---|"
cat "$ROWS"
if [ -s "$NOTES" ]; then
	echo
	cat "$NOTES"
fi
echo
