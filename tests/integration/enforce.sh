#!/bin/bash
# enforce.sh: what a user of corral sees, one behaviour per TAP line.
#
# Every right allowed and denied (by errno), mounts, inheritance by children,
# threads and grandchildren, isolation between concurrent sandboxes and from
# unsandboxed processes, and the exit status conventions.  Runs as root in
# the guest after `corral setup`; with CORRAL=.../ll-exec it runs against
# kernel Landlock instead (tests of rights the running Landlock ABI lacks
# are then skipped; corral itself must pass them on every kernel).
#
# Environment: CORRAL, CORRAL_HELPERS, CORRAL_TEST_TMP (see lib.sh).

. "$(dirname "$0")/lib.sh"

need_helpers
ABI=$(landlock_abi)
make_tmp BASE enforce || skip_all "cannot make a temp dir"
W=$BASE/w
fixture_template "$W" || skip_all "cannot build the fixture in $W"
GO=$BASE/go
SYS=$(system_rx)
S1=$W/s1d1 S2=$W/s2d1

# oracle_lacks RIGHT MIN_ABI: true (and says why in $why) when CORRAL is the
# Landlock oracle and the kernel's ABI does not handle RIGHT
oracle_lacks() {
	why="CORRAL is ll-exec and Landlock ABI $ABI lacks $1"
	is_oracle_corral && [ "$ABI" -lt "$2" ]
}

# t NAME "RULES" "OPS" "RESULTS": expect_probe under corral on a fresh tree
t() {
	fixture_reset "$W"
	expect_probe corral "$@"
}

# ---- each right -----------------------------------------------------------

t "read: --ro allows reading below the rule, EACCES outside" \
	"--ro $S1" "read $S1/s1d2/f1 + read $S2/f1" "OK EACCES"
t "readdir: --ro lists dirs below the rule, EACCES outside" \
	"--ro $S1" "readdir $S1/s1d2 + readdir $S2" "OK EACCES"
t "readdir: --allow read alone cannot list the directory (EACCES)" \
	"--allow read:$S1" "read $S1/f1 + readdir $S1" "OK EACCES"
t "write: --rw allows opening for writing, --ro gives EACCES" \
	"--rw $S1 --ro $S2" "write $S1/f1 + write $S2/f1 + read $S2/f1" "OK EACCES OK"
t "exec: --rx allows exec, EACCES outside the rule and under --ro" \
	"--rx $S1 --ro $S2" "exec $S1/x1 + exec $S2/x2" "OK EACCES"
t "exec: --allow exec without read is EACCES" \
	"--allow exec:$S1" "exec $S1/x1" "EACCES"
t "exec: a shebang script whose interpreter is outside --rx is EACCES" \
	"--rx $S1" "exec $S1/sh_out + exec $S1/sh_sys" "EACCES EACCES"
t "exec: a shebang script whose interpreter is inside --rx runs" \
	"--rx $S1" "exec $S1/sh_in" "OK"
t "exec: a /bin/sh script runs with --rx on the system dirs" \
	"--rx $S1 $SYS" "exec $S1/sh_sys" "OK"
t "groups: --rwx reads, writes, creates and executes" \
	"--rwx $S1" "read $S1/f1 + write $S1/f1 + mknod-reg $S1/n + exec $S1/x1" "OK OK OK OK"

if oracle_lacks truncate 3; then
	skip "truncate: truncate(2), O_TRUNC and ftruncate allowed with write,truncate" "$why"
	skip "truncate: truncate(2), O_TRUNC and ftruncate EACCES with write only" "$why"
	skip "truncate: truncate(2) needs only the truncate right" "$why"
else
	t "truncate: truncate(2), O_TRUNC and ftruncate allowed with write,truncate" \
		"--allow write,truncate:$S1" \
		"truncate $S1/f1 + otrunc $S1/f2 + ftruncate $S1/s1d2/f1" "OK OK OK"
	t "truncate: truncate(2), O_TRUNC and ftruncate EACCES with write only" \
		"--allow write:$S1" \
		"write $S1/f1 + truncate $S1/f1 + otrunc $S1/f2 + ftruncate $S1/s1d2/f1" \
		"OK EACCES EACCES EACCES"
	t "truncate: truncate(2) needs only the truncate right" \
		"--allow truncate:$S1" "truncate $S1/f1 + write $S1/f1" "OK EACCES"
fi

t "create: --rw creates a file, dir, fifo, socket and symlink" \
	"--rw $S1" \
	"create $S1/n1 + mkdir $S1/n2 + mkfifo $S1/n3 + mknod-sock $S1/n4 + symlink f1 $S1/n5" \
	"OK OK OK OK OK"
t "create: --ro gives EACCES for a file, dir, fifo, socket and symlink" \
	"--ro $S1" \
	"create $S1/n1 + mkdir $S1/n2 + mkfifo $S1/n3 + mknod-sock $S1/n4 + symlink f1 $S1/n5" \
	"EACCES EACCES EACCES EACCES EACCES"
t "remove: --rw unlinks a file and removes an empty dir" \
	"--rw $S1" "unlink $S1/f1 + rmdir $S1/e1" "OK OK"
t "remove: --ro gives EACCES for unlink and rmdir" \
	"--ro $S1 --ro $S2" "unlink $S1/f1 + rmdir $S1/e1 + rmdir $S2/s2d2/e2" \
	"EACCES EACCES EACCES"
t "refer: cross-dir rename and link are allowed with --rw on both dirs" \
	"--rw $S1 --rw $S2" "rename $S1/f1 $S2/n1 + link $S1/f2 $S2/n2" "OK OK"
t "refer: without refer, cross-dir rename and link are EXDEV" \
	"--allow read,write,create,remove:$S1 --allow read,write,create,remove:$S2" \
	"rename $S1/f1 $S2/n1 + link $S1/f2 $S2/n2 + rename $S1/f1 $S1/n3" \
	"EXDEV EXDEV OK"
t "refer: renaming an outside file into the rw dir is EACCES, linking it EXDEV" \
	"--rw $S1" "rename $S2/f1 $S1/n1 + link $S2/f1 $S1/n2" "EACCES EXDEV"

if oracle_lacks ioctl 5; then
	skip "ioctl: a device ioctl is allowed with the ioctl right" "$why"
	skip "ioctl: a device ioctl is EACCES without the ioctl right" "$why"
else
	t "ioctl: a device ioctl is allowed with the ioctl right" \
		"--allow read,ioctl:/dev/null" "ioctl /dev/null" "ENOTTY"
	t "ioctl: a device ioctl is EACCES without the ioctl right" \
		"--ro /dev/null" "ioctl /dev/null" "EACCES"
fi

# corral remembers which devices a sandboxed process opened without the
# ioctl right, per opener, and runs nothing when a file is freed (that
# would cost every close of every process): as many such descriptors as
# the sandbox's fd limit allows (4096 in the guest, CAP_SYS_RESOURCE is
# dropped) held at once, then closed, leave a new open working, with the
# same denial.  Its memory goes with the opener's credentials: none is
# left once it exited.
if oracle_lacks ioctl 5; then
	skip "ioctl: thousands of denied /dev/null descriptors held then closed leave open and denial working" "$why"
	skip "ioctl: nothing remembered once the sandboxed process is gone" "$why"
else
	got=$(sandboxed corral "--ro /dev/null" "$CORRAL_HELPERS/openbench" devfill /dev/null 20000 2>&1)
	held=${got#held }
	held=${held%% *}
	if [[ $got == "held "*" (then -) reopen OK ioctl EACCES" && $held =~ ^[0-9]+$ ]] && [ "$held" -ge 4000 ]; then
		ok "ioctl: thousands of denied /dev/null descriptors held then closed leave open and denial working ($got)"
	else
		not_ok "ioctl: thousands of denied /dev/null descriptors held then closed leave open and denial working" \
			"want: held 4000 or more (then -) reopen OK ioctl EACCES" "got: $got"
	fi
	pin=/sys/fs/bpf/corral/open_denied
	if is_oracle_corral || [ ! -e "$pin" ]; then
		skip "ioctl: nothing remembered once the sandboxed process is gone" "not the bpf engine"
	else
		sleep 0.3	# earlier tests' credentials go after an RCU grace period
		before=$("$CORRAL_HELPERS/openbench" count "$pin")
		sandboxed corral "--ro /dev/null" "$PROBE" ioctl /dev/null + read /dev/null >/dev/null
		sleep 0.3
		is "$("$CORRAL_HELPERS/openbench" count "$pin")" "$before" \
			"ioctl: nothing remembered once the sandboxed process is gone (entries: $before)"
	fi
fi

# ---- mounts ------------------------------------------------------------------

if is_root; then
	fixture_reset "$W"
	fixture_mount "$S2" "$W/s3d1/m2"
	expect_probe corral "mount, bind and umount are EPERM even under --rw" \
		"--rw $W" \
		"mount-tmpfs $S1/e1 + bind $S2 $S1/e1 + umount $W/s3d1/m2 + read $W/s3d1/m2/f1" \
		"EPERM EPERM EPERM OK"
	fixture_umount_all
else
	skip "mount, bind and umount are EPERM even under --rw" \
		"needs root (as a user they fail with EPERM anyway)"
fi

# ---- inode identity -----------------------------------------------------------

# A rule names one inode.  On an overlayfs over two filesystems (the guest's
# root: 9p under a tmpfs upper, no xino) a directory and a file can carry
# the same i_ino, s_dev and i_generation; a rule on the file must not grant
# anything beneath the directory.  Regression test: corral read ~/secret
# under the shell profile because ~/.bashrc and ~ had one inode number.
make_tmp COLLIDE inocollide /var/tmp || skip_all "cannot make a temp dir"
if [ "$(stat -f -c %T "$COLLIDE" 2>/dev/null)" != overlayfs ] ||
   [ ! -x "$FIXTURE" ]; then
	skip "a file rule grants nothing under a directory with its inode number" \
		"needs an overlayfs temp dir (have $(stat -f -c %T "$COLLIDE")) and the fixture helper"
elif ! read -r CDIR CFILE < <("$FIXTURE" inocollide "$COLLIDE"); then
	skip "a file rule grants nothing under a directory with its inode number" \
		"no inode number collision could be made in $COLLIDE"
else
	echo secret >"$CDIR/secret" && echo shared >"$CFILE"
	expect_probe corral \
		"a file rule grants nothing under a directory with its inode number" \
		"--ro $CFILE" "read $CFILE + read $CDIR/secret + readdir $CDIR" \
		"OK EACCES EACCES"
fi

# ---- inheritance ----------------------------------------------------------

t "a forked child carries the sandbox" \
	"--ro $S1" "fork-read $S1/f1 + fork-read $S2/f1" "OK EACCES"
t "a thread carries the sandbox" \
	"--ro $S1" "thread-read $S1/f1 + thread-read $S2/f1" "OK EACCES"

fixture_reset "$W"
got=$(sandboxed corral "$SYS --ro $S1" sh -c \
	"sh -c '$PROBE read $S1/f1 + read $S2/f1; :'; :" 2>&1)
is "$got" "$(probe_lines "read $S1/f1 + read $S2/f1" OK EACCES)" \
	"a grandchild started through sh -c carries the sandbox"

# ---- concurrency ---------------------------------------------------------------

fixture_reset "$W"
rm -f "$GO" "$BASE"/out.*
sandboxed corral "--ro $S1" "$PROBE" \
	read "$S2/f1" + wait-file "$GO" + read "$S2/f1" >"$BASE/out.a" 2>&1 &
pa=$!
if wait_lines "$BASE/out.a" 1; then
	free=$("$PROBE" read "$S2/f1" + write "$S2/f1" 2>&1)
else
	free="sandbox did not start: $(cat "$BASE/out.a")"
fi
: >"$GO"
wait $pa
is "$free" "$(probe_lines "read $S2/f1 + write $S2/f1" OK OK)" \
	"an unsandboxed process reads and writes a file a running sandbox denies"
is "$(cat "$BASE/out.a")" \
	"$(probe_lines "read $S2/f1 + wait-file $GO + read $S2/f1" EACCES OK EACCES)" \
	"the running sandbox still denies it meanwhile"

rm -f "$GO" "$BASE"/out.*
ops_ab="read $S1/f1 + read $S2/f1 + wait-file $GO + sleep-read 0 $S1/f1 + read $S2/f1"
# shellcheck disable=SC2086
sandboxed corral "--ro $S1" "$PROBE" $ops_ab >"$BASE/out.a" 2>&1 &
pa=$!
# shellcheck disable=SC2086
sandboxed corral "--ro $S2" "$PROBE" $ops_ab >"$BASE/out.b" 2>&1 &
pb=$!
wait_lines "$BASE/out.a" 2 && wait_lines "$BASE/out.b" 2
: >"$GO"
wait $pa $pb
is "$(cat "$BASE/out.a")" "$(probe_lines "$ops_ab" OK EACCES OK OK EACCES)" \
	"two concurrent sandboxes: the first sees only its own rule (--ro s1d1)"
is "$(cat "$BASE/out.b")" "$(probe_lines "$ops_ab" EACCES OK OK EACCES OK)" \
	"two concurrent sandboxes: the second sees only its own rule (--ro s2d1)"

# A directory rule follows its inode (DESIGN.md section 2).
fixture_reset "$W"
rm -f "$GO" "$BASE"/out.*
ops_mv="read $S1/s1d2/f1 + wait-file $GO + read $S1/moved/f1 + read $S1/s1d2/f1"
# shellcheck disable=SC2086
sandboxed corral "--ro $S1/s1d2" "$PROBE" $ops_mv >"$BASE/out.a" 2>&1 &
pa=$!
wait_lines "$BASE/out.a" 1
"$PROBE" rename "$S1/s1d2" "$S1/moved" + mkdir "$S1/s1d2" + \
	mknod-reg "$S1/s1d2/f1" >"$BASE/out.setup" 2>&1
: >"$GO"
wait $pa
is "$(cat "$BASE/out.a")" "$(probe_lines "$ops_mv" OK OK OK EACCES)" \
	"a ruled dir renamed from outside stays allowed; a new dir of its old name is not"

# ---- exit status and process -------------------------------------------------------

fixture_reset "$W"
sandboxed corral "$SYS" sh -c 'exit 7' >/dev/null 2>&1
is "$?" 7 "exit status: the command's own status passes through (sh -c 'exit 7')"
sandboxed corral "" "$PROBE" >/dev/null 2>&1
is "$?" 2 "exit status: a static command's status passes through (probe usage: 2)"

# shellcheck disable=SC2086
err=$("$CORRAL" ${CORRAL_ARGS:-} --rx "$CORRAL_HELPERS" --ro "$W/no-such-dir" -- "$PROBE" stat / 2>&1)
rc=$?
is "$rc" 125 "exit status: a rule path that does not exist is 125"
if [[ $err == *"$W/no-such-dir"* ]]; then
	ok "the error message for a missing rule path names the path"
else
	not_ok "the error message for a missing rule path names the path" "got: $err"
fi

sandboxed corral "" "$W/no-such-cmd" >/dev/null 2>&1
is "$?" 127 "exit status: a command path that does not exist is 127"
# (a fixed PATH: a PATH entry this user may not search would give EACCES, 126)
PATH=/usr/local/bin:/usr/bin:/bin sandboxed corral "" corral-test-no-such-command >/dev/null 2>&1
is "$?" 127 "exit status: a command name not found in PATH is 127"
sandboxed corral "--rx $S1" "$S1/nx" >/dev/null 2>&1
is "$?" 126 "exit status: a command without the x bit (mode 644) is 126"
sandboxed corral "--ro $S1" "$S1/x1" >/dev/null 2>&1
is "$?" 126 "exit status: a command whose exec the sandbox denies is 126"
sandboxed corral "--rx $S1" "$S1/sh_out" >/dev/null 2>&1
is "$?" 126 "exit status: a script whose interpreter the sandbox denies is 126"

# The parser looks the command up in PATH so that the launcher execs it
# at once; what runs, and its argv[0], must stay what execvp(3) gives.
PD=$W/pathdirs
mkdir -p "$PD/a/corral-path-probe" "$PD/b" "$PD/c" "$PD/d"
printf '#!/bin/sh\n' >"$PD/b/corral-path-probe"      # not executable
ln -s "$PROBE" "$PD/c/corral-path-probe"
cp "$PROBE" "$PD/d/corral-path-probe"                 # no rule covers d
PATH=$PD/a:$PD/b:$PD/d:$PD/c sandboxed corral "" corral-path-probe pid >"$W/path.out" 2>&1
rc=$?
if [ "$rc" = 0 ] && grep -q '^pid: ' "$W/path.out"; then
	ok "PATH: a directory, a non-executable file and a file the sandbox denies earlier in PATH are passed over, as by execvp"
else
	not_ok "PATH: passing over what execvp passes over" "exit $rc" "$(cat "$W/path.out")"
fi
got=$(sandboxed corral "$SYS" sh -c 'echo "$0"' 2>&1)
is "$got" sh "PATH: the command's argv[0] stays as typed (sh, not /usr/bin/sh)"
if strace=$(command -v strace) && engine_bin corral; then
	PATH=$PD/e1:$PD/e2:$PD/c "$strace" -f -qq -e trace=execve -o "$W/path.strace" \
		"$engine_bin" $engine_args --rx "$CORRAL_HELPERS" -- corral-path-probe pid >/dev/null 2>&1
	is "$(grep -c 'execve("[^"]*/corral-path-probe"' "$W/path.strace")" 1 \
		"PATH: the command is exec'd once, not once per PATH entry before it"
else
	skip "PATH: the command is exec'd once (needs strace)"
fi

# Quiet, the command replaces corral: same pid as the shell that exec'd
# corral, parent unchanged, and nothing of corral left as a child to reap
# (without -q a bpf launch stays as its parent, to count the denials:
# admin.sh).
# shellcheck disable=SC2086
got=$(echo "pid: $BASHPID $$"; echo "children: none"; CORRAL_QUIET=1 exec "$CORRAL" ${CORRAL_ARGS:-} --rx "$CORRAL_HELPERS" -- "$PROBE" pid + children)
want=$(head -2 <<<"$got")
is "$(tail -n +3 <<<"$got")" "$want" \
	"no corral process remains: the command has corral's pid and parent, and no child"

done_testing
