#!/bin/bash
# explain.sh: `corral explain` on the host: the exact
# line it prints and its exit status (0 allowed, 1 denied, 125 usage or
# profile error) for
#
#   - file operations under flags and profiles (${HOME}, includes,
#     optional paths, file:line), judged on the object or, for create,
#     remove and refer, on its directory; a rule on a file by its inode
#     (a hard link elsewhere); symlinks and ".." resolved as open(2)
#   - the smallest rule to add when denied, as a flag and a profile line
#   - exec through a #! interpreter; what the kernel refuses first
#     (no x bit, write on a directory); ioctl on a non-device
#   - rename, link and exchange SRC DST: one directory (create, remove),
#     across directories (refer on both, EACCES before EXDEV), a move
#     that would gain rights (EXDEV), a deny rule that blocks one, a rule
#     on / (which Landlock counts only on /'s mount), a deny that pins
#     the name moved or replaced, and what the kernel
#     refuses first (ENOENT, EEXIST, EINVAL, across mounts)
#   - network rules: ports, prefixes, IPv4-mapped addresses, port 0,
#     net = none, an unconfined network
#   - usage and profile errors
#
# Nothing runs in a sandbox, so no Landlock or bpf is needed.  Whether
# explain agrees with the sandbox is differential.sh --explain
# (explain-differential.sh).
. "$(dirname "$0")/../integration/lib.sh"

[ -x "$CORRAL" ] || { echo "Bail out! CORRAL=$CORRAL is not built"; exit 1; }
make_tmp T explain || skip_all "cannot make a temp dir"
cd "$T" || exit 1
mkdir -p a/b c proj/src e &&
	echo x >a/f && echo y >c/g && ln c/g a/hl && ln -s ../a/f c/ln &&
	printf '#!%s/c/x\n' "$T" >a/s && cp /bin/sh c/x 2>/dev/null &&
	echo : >c/plain && chmod 0755 a/s c/x c/plain && echo n >a/nx && chmod 0644 a/nx || exit 1
cat >inc.profile <<EOF
[filesystem]
rx = $T/c
EOF
cat >p.profile <<'EOF'
[profile]
include = ./inc.profile

[filesystem]
rw = ${HOME}/proj
ro = -${HOME}/missing
EOF

# expect NAME "STATUS TEXT" ARGS...: `corral explain ARGS` exits STATUS
# and prints TEXT on stdout; or, for a usage or profile error (125), TEXT
# on stderr and nothing on stdout
expect() {
	local name=$1 status=${2%% *} text=${2#* } out err got rc
	shift 2
	out=$(HOME=$T "$CORRAL" explain "$@" 2>"$T/err")
	rc=$?
	err=$(cat "$T/err")
	got=$out
	if [ "$status" -eq 125 ]; then
		got=$err
		[ -z "$out" ] || got="(stdout not empty) $out"
	fi
	if [ "$got" == "$text" ] && [ "$rc" -eq "$status" ]; then
		ok "$name"
	else
		not_ok "$name" "corral explain $*" "expected (exit $status): $text" \
			"got (exit $rc):      $got" "stderr: $err"
	fi
}

# cases: expect for each case on stdin, a case being its name, the
# command (explain and its arguments, split at spaces: none has one), its
# exit status and what it prints, and a blank line
cases() {
	local name text args
	while read -r name && read -ra args && read -r text; do
		expect "$name" "$text" "${args[@]:1}" </dev/null
		read -r || break
	done
}

# ---- files -------------------------------------------------------------------
cases <<EOF
read under --ro names the flag
explain --ro $T/a $T/a/f
0 allowed: read $T/a/f (--ro $T/a on the command line)

read is the default op; a relative path shows where it leads
explain --ro a a/b/../f
0 allowed: read a/b/../f -> $T/a/f (--ro a on the command line)

write under --ro: denied, with the rule to add on the file
explain --ro $T/a --op write $T/a/f
1 denied: write $T/a/f (no rule grants write on $T/a/f or a directory above it; add: --allow write:$T/a/f or 'write = $T/a/f' in [filesystem])

a new file: the rule to add names its directory
explain --op write $T/a/new
1 denied: write $T/a/new (no rule grants write on $T/a/new or a directory above it; add: --allow write:$T/a or 'write = $T/a' in [filesystem])

read of a directory is readdir
explain --allow read:$T/a $T/a
1 denied: read $T/a (no rule grants readdir on $T/a or a directory above it; add: --allow readdir:$T/a or 'readdir = $T/a' in [filesystem])

a deny under an allow: the deny that takes the right is named
explain --ro $T --deny $T/a $T/a/f
1 denied: read $T/a/f (read granted by --ro $T on the command line is taken away by --deny $T/a on the command line)

a deny of write only leaves read
explain --ro $T --deny write:$T/a $T/a/f
0 allowed: read $T/a/f (--ro $T on the command line)

two rules on one directory add up; the one granting is named
explain --ro $T/a --allow write:$T/a --op write $T/a/f
0 allowed: write $T/a/f (--allow write:$T/a on the command line)

exec with read and exec from two rules names both, nearest first
explain --ro $T --allow exec:$T/c --op exec $T/c/plain
0 allowed: exec $T/c/plain (--allow exec:$T/c on the command line; --ro $T on the command line)

a file that does not exist, no --op: asks for create, on its directory
explain --ro $T $T/a/new
1 denied: create $T/a/new (no rule grants create on $T/a or a directory above it; add: --allow create:$T/a or 'create = $T/a' in [filesystem])

a file that does not exist, no --op, allowed: create, with the rule
explain --rw $T $T/a/new
0 allowed: create $T/a/new (--rw $T on the command line)

a deny that would take the right away is named before the allow to add
explain --ro $T --deny write:$T/a --op write $T/a/f
1 denied: write $T/a/f (no rule grants write on $T/a/f or a directory above it; --deny write:$T/a on the command line would take it away: narrow that first, then add: --allow write:$T/a/f or 'write = $T/a/f' in [filesystem])

a missing file under a deny of everything: create, the deny named first
explain --ro $T --deny $T/a $T/a/new
1 denied: create $T/a/new (no rule grants create on $T/a or a directory above it; --deny $T/a on the command line would take it away: narrow that first, then add: --allow create:$T/a or 'create = $T/a' in [filesystem])

create is judged on the directory
explain --allow create:$T/a --op create $T/a/new
0 allowed: create $T/a/new (--allow create:$T/a on the command line)

remove of the ruled directory itself needs remove above it
explain --rw $T/a/b --op remove $T/a/b
1 denied: remove $T/a/b (no rule grants remove on $T/a or a directory above it; add: --allow remove:$T/a or 'remove = $T/a' in [filesystem])

refer is judged on the directory
explain --rw $T --op refer $T/a/f
0 allowed: refer $T/a/f (--rw $T on the command line)

a file rule follows the inode to a hard link
explain --ro $T/c/g $T/a/hl
0 allowed: read $T/a/hl (--ro $T/c/g on the command line)

a symlink is judged where it leads
explain --ro $T/c $T/c/ln
1 denied: read $T/c/ln -> $T/a/f (no rule grants read on $T/a/f or a directory above it; add: --allow read:$T/a/f or 'read = $T/a/f' in [filesystem])

remove of a symlink judges the link's directory
explain --rw $T/c --op remove $T/c/ln
0 allowed: remove $T/c/ln (--rw $T/c on the command line)

truncate
explain --allow read,write:$T/a --op truncate $T/a/f
1 denied: truncate $T/a/f (no rule grants truncate on $T/a/f or a directory above it; add: --allow truncate:$T/a/f or 'truncate = $T/a/f' in [filesystem])

ioctl on a regular file is not judged
explain --op ioctl $T/a/f
0 allowed: ioctl $T/a/f (not a device: only ioctls on devices are judged)

ioctl on a device needs the right
explain --ro /dev/null --op ioctl /dev/null
1 denied: ioctl /dev/null (no rule grants ioctl on /dev/null or a directory above it; add: --allow ioctl:/dev/null or 'ioctl = /dev/null' in [filesystem])

write on a directory: the kernel refuses first
explain --rw $T --op write $T/a
1 denied: write $T/a (a directory cannot be opened for writing (EISDIR), whatever the rules)

exec of a file without an x bit: the kernel refuses first
explain --rx $T --op exec $T/a/nx
1 denied: exec $T/a/nx (the file's permissions do not allow it to you, whatever the rules)

exec needs read as well
explain --allow exec:$T/c --op exec $T/c/x
1 denied: exec $T/c/x (no rule grants read on $T/c/x or a directory above it; add: --allow read:$T/c/x or 'read = $T/c/x' in [filesystem])

a script's interpreter needs read and exec
explain --rx $T/a --op exec $T/a/s
1 denied: exec $T/a/s (its interpreter $T/c/x: no rule grants read,exec on $T/c/x or a directory above it; add: --allow read,exec:$T/c/x or 'read,exec = $T/c/x' in [filesystem])
EOF

# ---- rename, link, exchange ------------------------------------------------------
cases <<EOF
a rename within one directory needs no refer
explain --rw $T/a --op rename a/f a/f2
0 allowed: rename a/f -> $T/a/f to a/f2 -> $T/a/f2 (within $T/a, no refer needed: --rw $T/a on the command line)

a rename within one directory needs create and remove there
explain --rw $T/a/b --op rename $T/a/b $T/a/b2
1 denied: rename $T/a/b to $T/a/b2 (no rule grants create,remove on $T/a or a directory above it; add: --allow create,remove:$T/a or 'create,remove = $T/a' in [filesystem])

across directories without refer: EXDEV, refer to add
explain --allow create,remove,refer:$T/a --allow create,remove:$T/c --op rename $T/a/f $T/c/f
1 denied: rename $T/a/f to $T/c/f (EXDEV: a move across directories needs refer on both; no rule grants refer on $T/c or a directory above it; add: --allow refer:$T/c or 'refer = $T/c' in [filesystem])

across directories, a missing remove is EACCES before EXDEV
explain --rw $T/a --op rename $T/c/g $T/a/g
1 denied: rename $T/c/g to $T/a/g (no rule grants remove,refer on $T/c or a directory above it; add: --allow remove,refer:$T/c or 'remove,refer = $T/c' in [filesystem])

a rename over an existing file also removes it
explain --rw $T/c --allow create,refer:$T/a --op rename $T/c/g $T/a/f
1 denied: rename $T/c/g to $T/a/f (no rule grants remove on $T/a or a directory above it; add: --allow remove:$T/a or 'remove = $T/a' in [filesystem])

a deny pins the name: the denied file and the directory above it inside the allow cannot be moved away or replaced
explain --rw $T --deny write:$T/a/b --op rename $T/a $T/a2
1 denied: rename $T/a to $T/a2 (a deny pins the name $T/a: --deny write:$T/a/b on the command line)

a deny pins the name: an exchange with it too
explain --rw $T --deny write:$T/a/b --op exchange $T/c $T/a/b
1 denied: exchange $T/c with $T/a/b (a deny pins the name $T/a/b: --deny write:$T/a/b on the command line)

a deny pins no name beside it
explain --rw $T --deny write:$T/a/b --op rename $T/c $T/c2
0 allowed: rename $T/c to $T/c2 (within $T, no refer needed: --rw $T on the command line)

a file that would gain rights: EXDEV names them and the rule
explain --rw $T/a --allow create,remove,refer:$T/c --op rename $T/c/g $T/a/g
1 denied: rename $T/c/g to $T/a/g (EXDEV: the file $T/c/g would gain read,write,truncate,ioctl from --rw $T/a on the command line, which $T/c lacks; add: --allow read,write,truncate,ioctl:$T/c/g or 'read,write,truncate,ioctl = $T/c/g' in [filesystem])

a directory that would gain a right: EXDEV
explain --rw $T --allow exec:$T/a --op rename $T/e $T/a/e
1 denied: rename $T/e to $T/a/e (EXDEV: the directory $T/e would gain exec from --allow exec:$T/a on the command line, which $T lacks; add: --allow exec:$T/e or 'exec = $T/e' in [filesystem])

a move that loses rights is allowed; both sides named
explain --rw $T/a --allow create,remove,refer:$T/c --op rename $T/a/f $T/c/f
0 allowed: rename $T/a/f to $T/c/f (from $T/a: --rw $T/a on the command line; into $T/c: --allow create,remove,refer:$T/c on the command line; it gains no right)

a link needs create and refer where it lands, only refer where it is
explain --allow read,write,truncate,ioctl,refer:$T/a --rw $T/c --op link $T/a/f $T/c/l
0 allowed: link $T/a/f to $T/c/l (from $T/a: --allow read,write,truncate,refer,ioctl:$T/a on the command line; into $T/c: --rw $T/c on the command line; it gains no right)

a link from a directory without refer: EXDEV
explain --rw $T/a --op link $T/c/g $T/a/l
1 denied: link $T/c/g to $T/a/l (EXDEV: a move across directories needs refer on both; no rule grants refer on $T/c or a directory above it; add: --allow refer:$T/c or 'refer = $T/c' in [filesystem])

an exchange across directories under one rw rule
explain --rw $T --op exchange $T/a/f $T/c/g
0 allowed: exchange $T/a/f with $T/c/g (in $T/a: --rw $T on the command line; in $T/c: --rw $T on the command line; neither gains a right)

an exchange where the other file would gain rights: EXDEV
explain --rw $T/a --allow read,create,remove,refer:$T/c --op exchange $T/a/f $T/c/g
1 denied: exchange $T/a/f with $T/c/g (EXDEV: the file $T/c/g would gain write,truncate,ioctl from --rw $T/a on the command line, which $T/c lacks; add: --allow write,truncate,ioctl:$T/c/g or 'write,truncate,ioctl = $T/c/g' in [filesystem])

a deny of write: moving out from under it would gain write
explain --rw $T --deny write:$T/c --op rename $T/c/g $T/a/g
1 denied: rename $T/c/g to $T/a/g (EXDEV: the file $T/c/g would gain write from --rw $T on the command line, which --deny write:$T/c on the command line takes away in $T/c)

a deny of everything takes remove away: EACCES
explain --rw $T --deny $T/c --op rename $T/c/g $T/a/g
1 denied: rename $T/c/g to $T/a/g (remove,refer granted by --rw $T on the command line is taken away by --deny $T/c on the command line)
EOF

# Landlock compares the two sides up to the root of the mount the move is
# on, then only while going up: a rule on / itself never counts for a move
# on another mount (the guest's tmpfs /tmp), and does on /'s own
if [ "$(stat -c %m "$T")" = / ]; then
	name="a rule on / counts for a move on /'s mount"
	text="0 allowed: rename $T/c/g to $T/a/g (from $T/c: --allow create,remove,refer:$T/c on the command line; into $T/a: --allow read,create,remove,refer:$T/a on the command line; it gains no right)"
else
	name="a rule on / does not count for a move on another mount"
	text="1 denied: rename $T/c/g to $T/a/g (EXDEV: the file $T/c/g would gain read from --allow read,create,remove,refer:$T/a on the command line, which $T/c lacks (a rule on / does not count for a move on another mount); add: --allow read:$T/c/g or 'read = $T/c/g' in [filesystem])"
fi
expect "$name" "$text" \
	--ro / --allow "read,create,remove,refer:$T/a" --allow "create,remove,refer:$T/c" \
	--op rename "$T/c/g" "$T/a/g"

cases <<EOF
a missing source: the kernel answers first
explain --rw $T --op rename $T/a/nope $T/c/n
1 denied: rename $T/a/nope to $T/c/n ($T/a/nope does not exist (ENOENT), whatever the rules)

a link onto an existing name: the kernel answers first
explain --rw $T --op link $T/a/f $T/c/g
1 denied: link $T/a/f to $T/c/g ($T/c/g exists (EEXIST), whatever the rules)

a directory into itself: the kernel answers first
explain --rw $T --op rename $T/a $T/a/b/a
1 denied: rename $T/a to $T/a/b/a ($T/a/b/a is inside $T/a (EINVAL), whatever the rules)

across mounts: the kernel answers first
explain --rw $T --op rename $T/a/f /proc/nope
1 denied: rename $T/a/f to /proc/nope (they are on different mounts (EXDEV), whatever the rules)
EOF

# ---- profiles ----------------------------------------------------------------
cases <<EOF
a profile rule: key, expanded path, file:line
explain --profile ./p.profile --op write $T/proj/src/a.c
0 allowed: write $T/proj/src/a.c (rw = $T/proj at ./p.profile:5)

an included profile's rule names the included file
explain --profile ./p.profile $T/c/g
0 allowed: read $T/c/g (rx = $T/c at ././inc.profile:2)

denied under a profile: the profile line to add
explain --profile ./p.profile --op create $T/e/n
1 denied: create $T/e/n (no rule grants create on $T/e or a directory above it; add: --allow create:$T/e or 'create = $T/e' in [filesystem])
EOF

# ---- network -------------------------------------------------------------------
# The rules' answer, as the bpf engine enforces them; what the Landlock
# engine adds (a second line) is in landlock-net-gaps.sh.
cases <<EOF
no network rule: not confined
explain --engine=bpf 127.0.0.1:80
0 allowed: connect-tcp 127.0.0.1:80 (the network is not confined: no network rule)

a port rule allows any address
explain --engine=bpf --connect-tcp 443 1.2.3.4:443
0 allowed: connect-tcp 1.2.3.4:443 (--connect-tcp 443 on the command line)

an IPv4-mapped address is judged as IPv4
explain --engine=bpf --connect-tcp 10.0.0.0/8:443 [::ffff:10.1.2.3]:443
0 allowed: connect-tcp 10.1.2.3:443 (--connect-tcp 10.0.0.0/8:443 on the command line)

outside the prefix: denied, with the rule to add
explain --engine=bpf --connect-tcp 10.0.0.0/8:443 11.0.0.1:443
1 denied: connect-tcp 11.0.0.1:443 (no network rule allows connect-tcp to 11.0.0.1:443; add: --connect-tcp 11.0.0.1:443 or 'connect-tcp = 11.0.0.1:443' in [network])

IPv6 in a range
explain --engine=bpf --connect-udp 8000-8099 --op connect-udp [::1]:8050
0 allowed: connect-udp [::1]:8050 (--connect-udp 8000-8099 on the command line)

a connect-udp rule implies bind-udp = 0: a send from an unbound socket binds port 0
explain --engine=bpf --connect-udp 127.0.0.53:53 --op bind-udp 0.0.0.0:0
0 allowed: bind-udp 0.0.0.0:0 (bind-udp 0 (implied by connect-udp: a send from an unbound socket binds port 0))

the implied bind-udp is port 0 only
explain --engine=bpf --connect-udp 127.0.0.53:53 --op bind-udp 0.0.0.0:5353
1 denied: bind-udp 0.0.0.0:5353 (no network rule allows bind-udp to 0.0.0.0:5353; add: --bind-udp 5353 or 'bind-udp = 5353' in [network])

a bind-udp rule for port 0 of the user's own: nothing implied
explain --engine=bpf --connect-udp 53 --bind-udp 0 --op bind-udp [::]:0
0 allowed: bind-udp [::]:0 (--bind-udp 0 on the command line)

bind to port 0 needs a rule for port 0
explain --engine=bpf --bind-tcp 8080 --op bind-tcp 0.0.0.0:0
1 denied: bind-tcp 0.0.0.0:0 (port 0 is an ephemeral port, and only a rule for port 0 allows it; add: --bind-tcp 0 or 'bind-tcp = 0' in [network])

net = none refuses everything
explain --engine=bpf --net=none --op bind-udp 0.0.0.0:53
1 denied: bind-udp 0.0.0.0:53 (--net=none on the command line refuses every bind, connect and send; drop it and add: --bind-udp 53 or 'bind-udp = 53' in [network])

the op must match
explain --engine=bpf --connect-tcp 443 --op bind-tcp 127.0.0.1:443
1 denied: bind-tcp 127.0.0.1:443 (no network rule allows bind-tcp to 127.0.0.1:443; add: --bind-tcp 443 or 'bind-tcp = 443' in [network])
EOF

# ---- errors ------------------------------------------------------------------------
cases <<EOF
connect-unix is its own right: rw on the directory is not it
explain --rw $T/a --op connect-unix $T/a/f
1 denied: connect-unix $T/a/f (no rule grants connect-unix on $T/a/f or a directory above it; add: --allow connect-unix:$T/a/f or 'connect-unix = $T/a/f' in [filesystem])

connect-unix named on the socket grants it
explain --allow connect-unix:$T/a/f --op connect-unix $T/a/f
0 allowed: connect-unix $T/a/f (--allow connect-unix:$T/a/f on the command line)

an unknown --op
explain --op frob $T/a
125 corral: explain: --op frob: unknown operation (read, write, exec, readdir, create, remove, truncate, ioctl, refer, connect-unix, rename, link, exchange, connect-tcp, bind-tcp, connect-udp, bind-udp)

no target
explain
125 corral: explain: no PATH or ADDR:PORT given (corral explain [RULES] [--op OP] PATH|ADDR:PORT)

two targets
explain $T/a x
125 corral: explain: unexpected argument 'x' (one PATH or ADDR:PORT; options go before it)

a rule on a missing path fails as a launch would
explain --ro $T/nope $T/a
125 corral: $T/nope: No such file or directory (--ro on the command line); create it, or leave the flag out

a move needs two paths
explain --op exchange $T/a/f
125 corral: explain: --op exchange needs two paths (corral explain [RULES] --op exchange A B)

a move takes no third path
explain --op rename $T/a/f $T/c/f x
125 corral: explain: unexpected argument 'x' (two paths; options go before them)

a missing directory on the way of a move
explain --op link $T/a/f $T/nope/x
125 corral: explain: $T/nope/x: cannot resolve the path as link(2) would: No such file or directory

a missing directory on the way
explain $T/nope/x
125 corral: explain: $T/nope/x: cannot resolve the path as open(2) would: No such file or directory

a network op needs an address and a port
explain --op connect-tcp 443
125 corral: explain: 443: expected one address and one port, e.g. 127.0.0.1:5432 or [::1]:8080 (host names are resolved only at launch)
EOF

out=$("$CORRAL" --op read true 2>&1)
is "$out (exit $?)" "corral: --op only applies to 'corral explain' (exit 125)" \
	"--op outside explain is an error"
out=$("$CORRAL" --help)
[[ $out == *"  explain [--op OP] PATH|ADDR:PORT"* ]] && ok "--help names explain" ||
	not_ok "--help names explain" "$out"
[[ $out == *"  explain [--op OP] PATH|ADDR:PORT|SRC DST"* ]] &&
	ok "--help names explain's moves" || not_ok "--help names explain's moves" "$out"

done_testing
