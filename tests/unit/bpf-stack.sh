#!/bin/bash
# bpf-stack.sh: no BPF program's frames add up to more than 448 bytes, 64
# under the verifier's 512, so that the next clang has room to grow them
# (Debian 13's clang 19 took 32 bytes more than Debian 12's clang 14 from
# corral_file_open, over the limit).  Read from the object built here by
# bpf-stack, so it runs on any host; the checker itself is shown to
# refuse a program over the margin but under the limit.
. "$(dirname "$0")/../integration/lib.sh"

MARGIN=448
: "${CORRAL_BPF_STACK:?make check sets it}" "${CORRAL_BPF_OBJECT:?make check sets it}"
[ -x "$CORRAL_BPF_STACK" ] || skip_all "bpf-stack is not built: $CORRAL_BPF_STACK"
[ -f "$CORRAL_BPF_OBJECT" ] || skip_all "the BPF object is not built: $CORRAL_BPF_OBJECT"

# The object: every program at most MARGIN bytes; the deepest shown.
make_tmp TMP bpf-stack || skip_all "cannot make a temp dir"
err=$("$CORRAL_BPF_STACK" --max "$MARGIN" "$CORRAL_BPF_OBJECT" 2>&1 >"$TMP/report")
rc=$?
deepest=$(sort -t: -k2 -rn "$TMP/report" | head -n 3)
if [ "$rc" = 0 ]; then
	ok "every program in corral.bpf.o fits $MARGIN bytes of stack"
	diag "the deepest ($(${CORRAL_BPF_CC%% *} --version | head -n 1)):" "$deepest"
else
	not_ok "every program in corral.bpf.o fits $MARGIN bytes of stack" \
		"bpf-stack exit $rc:" "$err" "the deepest:" "$deepest"
fi

# The checker: a 288-byte frame calling a 192-byte one (480 bytes)
# passes the verifier's limit and fails the margin, naming the program.
src=${CORRAL_SRCDIR:-.}/tests/unit/bpf-stack-oversized.bpf.c
# shellcheck disable=SC2086 # CORRAL_BPF_CC is a command line
if ! err=$($CORRAL_BPF_CC -c "$src" -o "$TMP/oversized.o" 2>&1); then
	not_ok "the oversized program compiles" "$err"
	done_testing
fi
out=$("$CORRAL_BPF_STACK" --max 512 "$TMP/oversized.o" 2>&1)
rc=$?
is "$rc:$out" "0:oversized_prog (lsm/file_open): 480 bytes, 2 frames: oversized_prog 288 > oversized_callee 192" \
	"bpf-stack adds up the frames of a call chain, each rounded up to 32 bytes, and 480 passes the limit of 512"
err=$("$CORRAL_BPF_STACK" --max "$MARGIN" "$TMP/oversized.o" 2>&1 >/dev/null)
rc=$?
is "$rc:$err" "1:bpf-stack: $TMP/oversized.o: program oversized_prog: combined stack 480 bytes, above $MARGIN" \
	"bpf-stack refuses a program of 480 bytes at a margin of $MARGIN, naming it"

err=$("$CORRAL_BPF_STACK" "$src" 2>&1)
rc=$?
is "$rc:$err" "2:bpf-stack: $src: not an ELF file" "bpf-stack says a file that is no object is not one, exit 2"

done_testing
