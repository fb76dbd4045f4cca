#!/bin/bash
# lifecycle.sh: a domain and its rules go when its last task is freed,
# whatever the kernel is doing beside.
#
# On 6.1, bpf_task_storage_get() returns NULL while another task-storage
# call is in progress on the same CPU.  task_free runs from an RCU
# softirq, which may interrupt any hook's lookup; it then lost the dying
# task's domain and the domain outlived its tasks (about one in a
# thousand launches while /proc was being read beside).  task_dom_of()
# (bpf/maps.h) now reads the storage list itself when the helper fails.
#
# Environment: CORRAL, CORRAL_HELPERS, CORRAL_TEST_TMP (see lib.sh);
# LIFECYCLE_LAUNCHES (default 1500).

. "$(dirname "$0")/lib.sh"

need_helpers
CORRAL_ARGS=${CORRAL_ARGS:---engine=bpf}
is_root || skip_all "needs root (reads the pinned maps)"
OB=$CORRAL_HELPERS/openbench
PIN=/sys/fs/bpf/corral
[ -x "$OB" ] || skip_all "tests/helpers/openbench is not built in $CORRAL_HELPERS"
[ -e "$PIN/domains" ] || skip_all "corral is not set up"
make_tmp BASE lifecycle || skip_all "cannot make a temp dir"
: "${LIFECYCLE_LAUNCHES:=1500}"

mkdir -p "$BASE/t/a/b" && echo x >"$BASE/t/a/b/f" || skip_all "cannot make a tree"

# Domains of exited sandboxes go once the kernel frees their tasks, after
# an RCU grace period: "openbench settle" waits up to 10 s for none.
"$OB" settle $PIN/domains 10 2>/dev/null ||
	skip_all "domains from before this suite are still alive"
( while :; do cat /proc/[0-9]*/stat >/dev/null 2>&1; done ) &
reader=$!
# shellcheck disable=SC2086
res=$("$OB" launch "$LIFECYCLE_LAUNCHES" "$CORRAL" $CORRAL_ARGS \
	--rx "$CORRAL_HELPERS" --ro "$BASE/t" -- "$CORRAL_HELPERS/probe" \
	read "$BASE/t/a/b/f")
kill "$reader" 2>/dev/null
wait "$reader" 2>/dev/null
read -r _ failed _ <<<"$res"
is "$failed" 0 "$LIFECYCLE_LAUNCHES sequential sandboxes with /proc being read beside: every launch ran"
"$OB" settle $PIN/domains 10 2>/dev/null
is "domains $("$OB" count $PIN/domains), rules $("$OB" count $PIN/rules)" \
	"domains 0, rules 0" \
	"after $LIFECYCLE_LAUNCHES sandboxes with /proc read beside: no domain or rule outlives its tasks"

done_testing
