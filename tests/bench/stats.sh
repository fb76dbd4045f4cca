# shellcheck shell=bash
# stats.sh: how tests/bench/in-guest.sh makes its figures: rounds of
# interleaved variants until they agree (series), medians (summarize),
# the figures and the table's rows.  Sourced by in-guest.sh, whose W,
# QUICK, ROWS, NOTES and say() these use:
#
#   . "$(dirname "$0")/stats.sh"

# series NAME MIN MAX VARIANT...: runs the shell function v_VARIANT once per
# variant per round, interleaved, each printing "KEY VALUE" lines; stops
# after MIN rounds once every (variant, key) agrees within TOL% (default
# 5) between even and odd rounds, or after MAX rounds.  Leaves
# $W/NAME.sum: lines "VARIANT KEY MEDIAN DEVIATION% N".
series() {
	local name=$1 min=$2 max=$3 r i v
	local -a vs=("${@:4}") order
	local dat=$W/$name.dat tol=${TOL:-5}
	: >"$dat"
	if [ "$QUICK" = 1 ]; then min=2 max=2; fi
	for ((r = 0; r < max; r++)); do
		order=()
		if ((r % 2 == 0)); then
			order=("${vs[@]}")
		else
			for ((i = ${#vs[@]} - 1; i >= 0; i--)); do order+=("${vs[i]}"); done
		fi
		for v in "${order[@]}"; do
			# not in a pipeline: variants keep state in variables
			"v_$v" >"$W/v.out"
			while read -r key val; do
				echo "$v $key $r $val"
			done <"$W/v.out" >>"$dat"
		done
		if ((r + 1 >= min && (r + 1) % 2 == 0)); then
			summarize "$dat" >"$W/$name.sum"
			if awk -v tol="$tol" '$2 !~ /^x_/ && $4 > tol { bad = 1 } END { exit bad }' "$W/$name.sum"; then
				say "$name: converged after $((r + 1)) rounds"
				return 0
			fi
		fi
	done
	summarize "$dat" >"$W/$name.sum"
	say "$name: did not converge within $tol% in $max rounds"
}

# summarize DAT: per (variant, key), the overall median, the deviation in
# % between the even-round and odd-round medians, and the sample count
summarize() {
	awk '
	function med(a, n,   i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
				t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
			}
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{
		k = $1 " " $2
		if (!(k in n)) { keys[++nk] = k }
		n[k]++; all[k, n[k]] = $4
		if ($3 % 2) { no[k]++; odd[k, no[k]] = $4 } else { ne[k]++; even[k, ne[k]] = $4 }
	}
	END {
		for (i = 1; i <= nk; i++) {
			k = keys[i]
			delete a; for (j = 1; j <= n[k]; j++) a[j] = all[k, j]; m = med(a, n[k])
			dev = 100
			if (ne[k] && no[k]) {
				delete a; for (j = 1; j <= ne[k]; j++) a[j] = even[k, j]; me = med(a, ne[k])
				delete a; for (j = 1; j <= no[k]; j++) a[j] = odd[k, j]; mo = med(a, no[k])
				lo = me < mo ? me : mo
				dev = lo > 0 ? 100 * (me > mo ? me - mo : mo - me) / lo : 0
			}
			printf "%s %.0f %.1f %d\n", k, m, dev, n[k]
		}
	}' "$1"
}

# get NAME VARIANT KEY [FIELD]: a figure of NAME.sum (3 median, 4 deviation)
get() {
	awk -v v="$2" -v k="$3" -v f="${4:-3}" '$1 == v && $2 == k { print $f }' \
		"$W/$1.sum"
}

# ratio A B: A/B with 3 decimals
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b ? a / b : 0 }'; }
# le A B: A <= B (numbers)
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }
us() { awk -v a="$1" 'BEGIN { printf "%.2f", a / 1000 }'; }
ms() { awk -v a="$1" 'BEGIN { printf "%.1f", a / 1000000 }'; }
sms() { awk -v a="$1" 'BEGIN { printf "%+.1f", a / 1000000 }'; } # signed

# row TEST WHAT VALUE TARGET MET AGREE: a series that did not converge
# (AGREE "NO ...") decides nothing, met or missed: it says "inconclusive"
row() {
	local met=$5
	case $6 in NO*) met="inconclusive (no convergence)" ;; esac
	printf '| %s | %s | %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" "$met" "$6" >>"$ROWS"
}
# agree NAME VARIANT...: "yes (max d%)" or "NO (max d%)"
# maxdev NAME VARIANT...: the largest even/odd disagreement (%) among them
maxdev() {
	local name=$1
	shift
	awk -v vs=" $* " 'index(vs, " " $1 " ") && $2 !~ /^x_/ && $4 > m { m = $4 } END { printf "%.1f", m + 0 }' "$W/$name.sum"
}
agree() {
	local d
	d=$(maxdev "$@")
	if le "$d" "${TOL:-5}"; then echo "yes (${d}%)"; else echo "NO (${d}%)"; fi
}
# spread NS NAME VARIANT...: that disagreement in ns of a figure of NS
spread() {
	local ns=$1
	shift
	awk -v d="$(maxdev "$@")" -v ns="$ns" 'BEGIN { printf "%d", d * ns / 100 }'
}
met() { if "$@"; then echo "**met**"; else echo "**MISSED**"; fi; }
# met_overhead NUM DEN SPREAD TEST...: a ratio of overheads decides nothing
# when one is negative or the divisor is within the figures' round-to-round
# spread (SPREAD ns: noise as large as the overhead), else as met TEST...
met_overhead() {
	if [ "$1" -lt 0 ] || [ "$2" -le 0 ]; then
		echo "inconclusive (negative overhead)"
		return
	fi
	if [ "$2" -le "$3" ]; then
		echo "inconclusive (overhead $2 ns within the spread of $3 ns)"
		return
	fi
	shift 3
	met "$@"
}

# prof LABEL CMD...: a note per corral program (those matching PROF_PROGS,
# default all), its mean ns per run over the runs CMD caused (needs
# kernel.bpf_stats_enabled=1)
prof() {
	local label=$1
	shift
	bpftool prog show >"$W/p0"
	"$@" >/dev/null
	bpftool prog show >"$W/p1"
	awk -v label="$label" -v progs="${PROF_PROGS:-^corral_}" '
	/ name / {
		name = ""; rt = 0; rc = 0
		for (i = 1; i <= NF; i++) {
			if ($i == "name") name = $(i + 1)
			if ($i == "run_time_ns") rt = $(i + 1)
			if ($i == "run_cnt") rc = $(i + 1)
		}
		if (name !~ /^corral_/ || name !~ progs) next
		if (FILENAME ~ /p0$/) { t0[name] = rt; c0[name] = rc }
		else if (rc > c0[name]) {
			printf "- %s: %s: %d runs, %.0f ns per run\n", label, name,
				rc - c0[name], (rt - t0[name]) / (rc - c0[name])
		}
	}' "$W/p0" "$W/p1" >>"$NOTES"
}
