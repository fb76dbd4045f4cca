#!/bin/bash
# The host half of the Landlock engine tests: one TAP stream, plan last.
out=$(bash "$(dirname "$0")/../integration/landlock-engine.sh")
rc=$?
printf '%s\n' "$out"
echo "1..$(grep -cE '^(not )?ok' <<<"$out")"
exit "$rc"
