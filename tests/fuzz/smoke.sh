#!/bin/sh
# smoke.sh: `make check` runs the profile fuzzer briefly (STYLE.md habit
# 15); `make fuzz` runs it for longer.  Skips loudly (77) when clang could
# not build the libFuzzer target.
#
# Environment: CORRAL_FUZZER (the built fuzz-profile), CORRAL_SRCDIR,
# FUZZ_SMOKE_SECONDS (default 5).
fuzzer=${CORRAL_FUZZER:-tests/fuzz/fuzz-profile}
src=${CORRAL_SRCDIR:-.}
if [ ! -x "$fuzzer" ]; then
	echo "1..0 # SKIP $fuzzer not built: clang cannot link -fsanitize=fuzzer (apt-get install libclang-rt-14-dev)"
	echo "SKIPPED: profile fuzzer not built" >&2
	[ "${CI:-}" = true ] && exit 1
	exit 0
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/corral-fuzz.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
sh "$src/tests/fuzz/seed-corpus.sh" "$src" "$dir/corpus" || exit 1
echo "1..1"
if "$fuzzer" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
	-max_total_time="${FUZZ_SMOKE_SECONDS:-5}" -print_final_stats=1 \
	-artifact_prefix="$dir/" "$dir/corpus" >"$dir/log" 2>&1; then
	echo "ok 1 - profile parser fuzzed for ${FUZZ_SMOKE_SECONDS:-5} s: $(grep -o 'stat::number_of_executed_units: *[0-9]*' "$dir/log" | grep -o '[0-9]*$') runs, no crash, leak or hang"
else
	echo "not ok 1 - the profile fuzzer found a problem"
	sed 's/^/# /' "$dir/log" | tail -40
	for a in "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-*; do
		[ -f "$a" ] && echo "# artifact $(basename "$a"): $(od -c "$a" | head -5)"
	done
	exit 1
fi
