#!/bin/bash
# observe.sh: the denial log (--log) and learn mode, in the guest with the
# bpf engine (in-guest.sh ran setup).
. "$(dirname "$0")/lib.sh"
need_helpers
[ -e /sys/fs/bpf/corral/info ] || skip_all "corral is not set up in this guest"
command -v python3 >/dev/null || skip_all "python3 is not installed"

make_tmp work observe
cd "$work" || exit 1

# --log names the right, the path and the process, and the command's
# exit status passes through.
out=$("$CORRAL" --log --rx "$CORRAL_HELPERS" -- "$PROBE" read /etc/hostname 2>&1)
rc=$?
want="corral: denied read /etc/hostname (pid "
[ "$rc" = 0 ] && [[ $out == *"$want"*" probe)"* ]] &&
	ok "--log prints 'denied read /etc/hostname (pid N probe)'" ||
	not_ok "--log prints 'denied read /etc/hostname (pid N probe)'" "exit $rc:" "$out"

out=$("$CORRAL" --log="$work/denials.log" --rx "$CORRAL_HELPERS" -- \
	"$PROBE" mkdir /var/tmp/corral-nope 2>&1)
grep -q "^corral: denied create /var/tmp/corral-nope (pid [0-9]* probe): no rule grants create; add: --allow create:/var/tmp$" "$work/denials.log" &&
	ok "--log=FILE writes the denial of a mkdir to FILE, naming the new directory and the rule to add" ||
	not_ok "--log=FILE writes the denial of a mkdir to FILE, naming the new directory and the rule to add" \
		"$(cat "$work/denials.log" 2>&1)" "$out"

# A denied create or remove names the entry, not only its directory
# (not 'denied create /home/u/work/data' for data/evil.txt): each
# operation, the errno the command sees, the one line --log prints; the
# line ends with the nearest rule and the one to add.
mkdir -p "$work/data" && echo keep >"$work/data/old.txt"
nearest="(nearest rule: --ro $work/data on the command line)"
while IFS='|' read -r op arg want_out want_log; do
	out=$("$CORRAL" --log --rx "$CORRAL_HELPERS" --ro "$work/data" -- \
		"$PROBE" "$op" $arg 2>"$work/log.err")
	log=$(grep '^corral:' "$work/log.err")
	right=${want_log%% *}
	why=": no rule grants $right $nearest; add: --allow $right:$work/data"
	[ "$out" = "$op $arg: $want_out" ] &&
		[[ $log =~ ^"corral: denied $want_log (pid "[0-9]+" probe)$why"$ ]] &&
		ok "$op in a read-only directory: $want_out, and --log says 'denied $want_log'" ||
		not_ok "$op in a read-only directory: $want_out, and --log says 'denied $want_log'" \
			"probe: $out" "log: $(cat "$work/log.err")"
done <<EOF2
create|$work/data/evil.txt|EACCES|create $work/data/evil.txt
mkdir|$work/data/sub|EACCES|create $work/data/sub
mknod-reg|$work/data/node|EACCES|create $work/data/node
symlink|/etc/passwd $work/data/link|EACCES|create $work/data/link
unlink|$work/data/old.txt|EACCES|remove $work/data/old.txt
EOF2

# The names in a denial are the command's to choose: a terminal escape
# in one reaches the log escaped, never raw.
"$CORRAL" --log --rx "$CORRAL_HELPERS" --ro "$work/data" -- \
	"$PROBE" create "$work/data/evil"$'\e]0;owned\a\e[2J'.txt >/dev/null 2>"$work/esc.err"
grep -qF "corral: denied create $work/data/evil\\x1b]0;owned\\x07\\x1b[2J.txt (pid " "$work/esc.err" &&
	! grep -q $'[\e\a]' "$work/esc.err" &&
	ok "--log prints a file name's terminal escapes escaped (\\x1b), never raw" ||
	not_ok "--log prints a file name's terminal escapes escaped (\\x1b), never raw" \
		"$(cat -v "$work/esc.err")"

# Only watched sandboxes emit denials: 3,000 denials of a sandbox run
# without --log (twice the ring buffer) leave nothing to drop, and the
# next --log run prints its one denial and no line about lost events.
"$CORRAL" --rx "$CORRAL_HELPERS" -- "$PROBE" \
	$(for i in $(seq 3000); do printf 'read /etc/hostname + '; done) read /etc/hostname >/dev/null 2>&1
out=$("$CORRAL" --log --rx "$CORRAL_HELPERS" -- "$PROBE" read /etc/hostname 2>&1 >/dev/null)
[[ $out == "corral: denied read /etc/hostname (pid "*" probe): no rule grants read; add: --allow read:/etc/hostname" ]] &&
	ok "--log after 3,000 denials of an unwatched sandbox: its one denial, nothing lost" ||
	not_ok "--log after 3,000 denials of an unwatched sandbox: its one denial, nothing lost" "$out"

out=$("$CORRAL" --log --rx "$CORRAL_HELPERS" --rx /usr -- sh -c 'exit 9' 2>&1)
is "$?" 9 "--log keeps the command's exit status"

# The same denial again, by any process, is printed once; --log-all
# prints every one.
for flag in --log --log-all; do
	out=$("$CORRAL" $flag --rx "$CORRAL_HELPERS" -- "$PROBE" read /etc/hostname \
		+ fork-read /etc/hostname + read /etc/hostname 2>&1 >/dev/null)
	lines=$(grep -c '^corral: denied read /etc/hostname' <<<"$out")
	want=$([ "$flag" = --log ] && echo 1 || echo 3)
	is "$lines" "$want" "$flag: three reads of /etc/hostname denied (two processes): $want line(s)"
done

# A dynamic program under a tight profile: --log prints the one real
# denial, not the dozen the loader and libc make (ld.so.cache, locale
# files, localtime) and do without; --log-all shows them.  A table:
# command | the one line --log prints.
mkdir -p "$work/secret" && echo 'no' >"$work/secret/key"
tight=()
for d in /usr/bin /usr/lib /lib /lib64 /usr/lib64 /bin; do
	[ -e "$d" ] && tight+=(--rx "$d")
done
# (the log goes to a file: on stderr it may land inside the command's own
# message, which the watcher does not wait for)
while IFS='|' read -r cmd want; do
	out=$(LANG=C.UTF-8 "$CORRAL" --log="$work/dyn.log" "${tight[@]}" -- \
		$cmd 2>&1 >/dev/null)
	rc=$?
	log=$(cat "$work/dyn.log")
	right=${want%% *} object=${want#* }
	[ "$right" = create ] && object=${object%/*}
	why=": no rule grants $right; add: --allow $right:$object"
	[ "$rc" != 0 ] && [[ $log =~ ^"corral: denied $want (pid "[0-9]+" "[a-z]+")$why"$ ]] &&
		ok "--log, $cmd: only 'denied $want'" ||
		not_ok "--log, $cmd: only 'denied $want'" "exit $rc:" "$out" \
			"log:" "$log"
done <<EOF2
cat $work/secret/key|read $work/secret/key
sort $work/secret/key|read $work/secret/key
wc -l $work/secret/key|read $work/secret/key
ls $work/secret|readdir $work/secret
touch $work/secret/new|create $work/secret/new
EOF2
out=$(LANG=C.UTF-8 "$CORRAL" --log-all "${tight[@]}" -- cat "$work/secret/key" 2>&1 >/dev/null)
n=$(grep -c '^corral: denied' <<<"$out")
diag "--log-all, cat: $n lines:" "$out"
[ "$n" -gt 1 ] && [[ $out == *"denied read /etc/ld.so.cache"* ]] &&
	[[ $out == *"denied read $work/secret/key"* ]] &&
	ok "--log-all, cat: the routine denials too ($n lines, ld.so.cache among them)" ||
	not_ok "--log-all, cat: the routine denials too" "$out"

# Rate limit: 200 denials in a burst print at most 20 lines plus a count.
out=$("$CORRAL" --log-all --rx "$CORRAL_HELPERS" -- "$PROBE" \
	$(for i in $(seq 200); do printf 'read /etc/hostname + '; done) read /etc/hostname 2>&1 >/dev/null)
lines=$(grep -c '^corral: denied' <<<"$out")
[ "$lines" -le 40 ] && [[ $out == *"more denials not shown"* ]] &&
	ok "--log rate-limits a burst ($lines lines shown of 201)" ||
	not_ok "--log rate-limits a burst" "$lines lines:" "$(tail -3 <<<"$out")"

# Killing the watcher does not weaken the sandbox.
"$CORRAL" --log --rx "$CORRAL_HELPERS" -- "$PROBE" sleep-read 4 /etc/hostname \
	>"$work/after-kill" 2>/dev/null &
watcher=$!
# Kill the watcher only once the sandboxed command runs (TCG is slow).
for ((i = 0; i < 100; i++)); do
	pgrep -x probe >/dev/null && break
	sleep 0.1
done
kill -9 "$watcher"; wait "$watcher" 2>/dev/null
while pgrep -x probe >/dev/null; do sleep 0.2; done
is "$(cat "$work/after-kill")" "sleep-read 4 /etc/hostname: EACCES" \
	"killing the --log watcher leaves the command confined"

# learn: a python3 script reads a data directory, writes a report, runs
# a helper; the learned profile runs it; removing a line breaks it.
mkdir -p proj/data proj/out
for i in 1 2 3 4; do echo "$i $i" >"proj/data/part$i.txt"; done
cp "$PROBE" proj/helper
cat >proj/report.py <<'PY'
import glob, subprocess
total = sum(int(x) for f in sorted(glob.glob("data/*.txt")) for x in open(f).read().split())
open("out/report.txt", "w").write("total %d\n" % total)
print(subprocess.run(["./helper", "read", "out/report.txt"], capture_output=True, text=True).stdout.strip())
PY
cd proj || exit 1
out=$("$CORRAL" learn -o "$work/learned.profile" -- python3 report.py 2>&1)
rc=$?
[ "$rc" = 0 ] && [ -s "$work/learned.profile" ] && [ "$(cat out/report.txt)" = "total 20" ] &&
	ok "learn runs the workload unconfined and writes a profile" ||
	not_ok "learn runs the workload unconfined and writes a profile" "exit $rc:" "$out"
diag "$(cat "$work/learned.profile")"
grep -q '^rw = ${CWD}/out$' "$work/learned.profile" &&
	grep -q '^ro = ${CWD}/data$' "$work/learned.profile" &&
	grep -q '^rx = /usr$' "$work/learned.profile" &&
	ok "the learned profile collapses paths and uses \${CWD}" ||
	not_ok "the learned profile collapses paths and uses \${CWD}"

rm -f out/report.txt
out=$("$CORRAL" --engine=bpf --profile "$work/learned.profile" -- python3 report.py 2>&1)
rc=$?
[ "$rc" = 0 ] && [ "$(cat out/report.txt 2>/dev/null)" = "total 20" ] &&
	ok "the workload runs under its learned profile" ||
	not_ok "the workload runs under its learned profile" "exit $rc:" "$out"

grep -v '^ro = ${CWD}/data$' "$work/learned.profile" >"$work/cut.profile"
rm -f out/report.txt
out=$("$CORRAL" --engine=bpf --log --profile "$work/cut.profile" -- python3 report.py 2>&1)
rc=$?
[ "$rc" != 0 ] && [[ $out == *"corral: denied read"*"/proj/data/part1.txt"* ||
	$out == *"corral: denied readdir"*"/proj/data"* ]] &&
	ok "without the data line it fails with a logged denial naming data/" ||
	not_ok "without the data line it fails with a logged denial naming data/" \
		"exit $rc:" "$out"
# From $work/w, not $work: $work holds the HOME below, and a ${CWD} that
# is HOME's parent is refused (the learned profile must read back).
mkdir -p "$work/w" && cd "$work/w" || exit 1

# learn with a secret and a multi-line script: one
# warning line per secret reached and a comment in the profile, and the
# profile reads back (corral check) however many lines the script has.
mkdir -p "$work/h/.ssh" && echo key >"$work/h/.ssh/id_rsa"
out=$(HOME=$work/h "$CORRAL" learn -o "$work/secret.profile" -- \
	sh -c 'cat "$HOME/.ssh/id_rsa" >/dev/null
echo "two; lines # here"' 2>&1)
rc=$?
[ "$rc" = 0 ] &&
	[ "$(grep -c '^corral: learn: .*\.ssh.*review it$' <<<"$out")" = 1 ] &&
	grep -q '^; SECRET: ' "$work/secret.profile" &&
	ok "learn warns once about a secret it learned, and says so in the profile" ||
	not_ok "learn warns once about a secret it learned, and says so in the profile" \
		"exit $rc:" "$out" "$(cat "$work/secret.profile")"
is "$(HOME=$work/h "$CORRAL" check "$work/secret.profile" 2>&1)" "$work/secret.profile: ok" \
	"a profile learned from a multi-line sh -c script reads back"

# learn writes profiles that load and are small: one write to ~/.bashrc
# is that file, not rw = ${HOME}; the command's own /proc/PID is
# /proc/self, in a comment (no rule can grant it); corral check passes
# before "wrote" is said.  A command not found writes nothing (127).
echo "# rc" >"$work/h/.bashrc"
out=$(HOME=$work/h "$CORRAL" learn -o "$work/home.profile" -- \
	sh -c 'cat /proc/self/status >/dev/null; echo x >>"$HOME/.bashrc"' 2>&1)
rc=$?
diag "$(cat "$work/home.profile")"
[ "$rc" = 0 ] && [[ $out == *"corral: wrote $work/home.profile"* ]] &&
	grep -qx 'rw = ${HOME}/.bashrc' "$work/home.profile" &&
	! grep -q '^rw = ${HOME}$' "$work/home.profile" &&
	grep -q '^; not learned: read /proc/self/status ' "$work/home.profile" &&
	! grep -q '/proc/[0-9]' "$work/home.profile" &&
	ok "learn: ~/.bashrc written is that file, /proc/PID is /proc/self" ||
	not_ok "learn: ~/.bashrc written is that file, /proc/PID is /proc/self" \
		"exit $rc:" "$out"
is "$(HOME=$work/h "$CORRAL" check "$work/home.profile" 2>&1)" "$work/home.profile: ok" \
	"and that profile passes corral check"
out=$("$CORRAL" learn -o "$work/none.profile" -- no-such-command-corral -x 2>&1)
rc=$?
[ "$rc" = 127 ] && [ ! -e "$work/none.profile" ] &&
	ok "learn: a command not found exits 127 and writes no file" ||
	not_ok "learn: a command not found exits 127 and writes no file" \
		"exit $rc:" "$out"
done_testing
