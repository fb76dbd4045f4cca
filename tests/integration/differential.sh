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
#
#   scenario NAME        starts a scenario; NAME states the behaviour
#   rules ARGS...        corral/ll-exec rule flags (may be empty)
#   op OP ARGS... RESULT a probe operation and Landlock's answer
#   corral N RESULT WHY  corral intentionally answers op N (1-based)
#                        differently; WHY is the justification.  (None so far:
#                        on every operation here corral promises Landlock's
#                        answer, DESIGN.md section 2.)
#   fs both              also run with the fixture on CORRAL_TEST_ROOTFS
#   bind SRC DST         bind-mount SRC on DST (as root, before sandboxing)
#   abi N RIGHT          the scenario is about RIGHT, handled from ABI N
#   require PATH         skip unless the fixture has PATH (e.g. s1d1/dyn)
#   inherit N PATH       PATH opened read-write on descriptor N outside the
#                        sandbox and inherited by it (fd-* probe ops use N)
#   helper escape        run the escape helper instead of probe (its unix
#                        socket ops)
#
# Tokens: @ the fixture root; @D01 / @D40 the deep directories d01 and
# d01/.../d40 under @/deep; @SYSRX --rx on the system dirs (/usr, /lib*);
# @SYSX --allow exec (without read) on the same dirs; @SOCK a directory
# outside the fixture where a named unix socket "s" (stream, and "s.d"
# datagram) listens, made outside the sandbox.

read -r -d '' TABLE <<'EOF'
# --- each right, allowed and denied -------------------------------------
scenario ro reads files and lists dirs below the rule and nothing else
fs both
rules --ro @/s1d1
op read @/s1d1/f1                       OK
op read @/s1d1/s1d2/s1d3/f1             OK
op readdir @/s1d1/s1d2                  OK
op read @/s2d1/f1                       EACCES
op readdir @/s2d1                       EACCES
op write @/s1d1/f1                      EACCES

scenario readdir alone lists directories but opens no file
rules --allow readdir:@/s1d1
op readdir @/s1d1                       OK
op readdir @/s1d1/s1d2                  OK
op read @/s1d1/f1                       EACCES
op readdir @/s2d1                       EACCES

scenario read alone opens files but neither lists nor opens directories
rules --allow read:@/s1d1
op read @/s1d1/f1                       OK
op readdir @/s1d1                       EACCES
op read @/s1d1/s1d2                     EACCES

scenario write alone opens files for writing only
fs both
rules --allow write:@/s1d1
op write @/s1d1/f1                      OK
op write @/s1d1/s1d2/f2                 OK
op read @/s1d1/f1                       EACCES
op write @/s2d1/f1                      EACCES
op mknod-reg @/s1d1/n1                  EACCES

scenario rx executes binaries below the rule, not outside, not without the x bit
fs both
rules --rx @/s1d1
op exec @/s1d1/x1                       OK
op exec @/s1d1/nx                       EACCES
op exec @/s2d1/x2                       EACCES

scenario exec without read cannot execute
rules --allow exec,readdir:@/s1d1
op exec @/s1d1/x1                       EACCES
op exec @/s1d1/sh_in                    EACCES

scenario read and exec are enough to execute
rules --allow read,exec:@/s1d1
op exec @/s1d1/x1                       OK
op exec @/s1d1/sh_in                    OK

scenario a script needs exec on its interpreter
rules --rx @/s1d1
op exec @/s1d1/sh_in                    OK
op exec @/s1d1/sh_out                   EACCES

scenario a script runs once its interpreter's dir is rx as well
rules --rx @/s1d1 --rx @/s2d1
op exec @/s1d1/sh_out                   OK

scenario a dynamic ELF is denied when its loader is not executable
require s1d1/dyn
rules --rx @/s1d1
op exec @/s1d1/dyn                      EACCES

scenario a dynamic ELF runs with rx on the loader's dirs
require s1d1/dyn
rules --rx @/s1d1 @SYSRX
op exec @/s1d1/dyn                      OK

scenario exec without read on the loader's dirs is not enough
require s1d1/dyn
rules --rx @/s1d1 @SYSX
op exec @/s1d1/dyn                      EACCES

scenario truncate(2) needs only truncate
abi 3 truncate
rules --allow truncate:@/s1d1
op truncate @/s1d1/f1                   OK
op write @/s1d1/f1                      EACCES
op otrunc @/s1d1/f1                     EACCES
op truncate @/s2d1/f1                   EACCES

scenario write without truncate denies truncate(2), O_TRUNC and ftruncate
abi 3 truncate
rules --allow write:@/s1d1
op write @/s1d1/f1                      OK
op otrunc @/s1d1/f1                     EACCES
op ftruncate @/s1d1/f1                  EACCES
op truncate @/s1d1/f1                   EACCES

scenario write and truncate allow all three ways of truncating
abi 3 truncate
fs both
rules --allow write,truncate:@/s1d1
op otrunc @/s1d1/f1                     OK
op ftruncate @/s1d1/f2                  OK
op truncate @/s1d1/s1d2/f1              OK

scenario ftruncate is decided by the rights the file was opened with
abi 3 truncate
rules --allow write:@/s1d1 --allow write,truncate:@/s1d1/s1d2
op ftruncate @/s1d1/f1                  EACCES
op ftruncate @/s1d1/s1d2/f1             OK
op otrunc @/s1d1/s1d2/s1d3/f1           OK

scenario create makes files, dirs, fifos, sockets and symlinks but removes nothing
fs both
rules --allow create:@/s1d1
op mknod-reg @/s1d1/n0                  OK
op mkdir @/s1d1/n2                      OK
op mkfifo @/s1d1/n3                     OK
op mknod-sock @/s1d1/n4                 OK
op symlink f1 @/s1d1/n5                 OK
op mkdir @/s1d1/s1d2/n6                 OK
op mknod-reg @/s2d1/n7                  EACCES
op unlink @/s1d1/n0                     EACCES

scenario open(O_CREAT|O_WRONLY) with create only makes the file but fails to open it
rules --allow create:@/s1d1
op create @/s1d1/n1                     EACCES
op stat @/s1d1/n1                       OK

scenario open(O_CREAT|O_WRONLY) succeeds with create and write
rules --allow create,write:@/s1d1
op create @/s1d1/n1                     OK

scenario ro denies every kind of creation
rules --ro @/s1d1
op create @/s1d1/n1                     EACCES
op mknod-reg @/s1d1/n2                  EACCES
op mkdir @/s1d1/n3                      EACCES
op mkfifo @/s1d1/n4                     EACCES
op mknod-sock @/s1d1/n5                 EACCES
op symlink f1 @/s1d1/n6                 EACCES

scenario remove unlinks files and symlinks and removes empty dirs below the rule
fs both
rules --allow remove:@/s1d1
op unlink @/s1d1/f1                     OK
op unlink @/s1d1/ln_out                 OK
op rmdir @/s1d1/e1                      OK
op unlink @/s1d1/s1d2/s1d3/f1           OK
op unlink @/s2d1/f1                     EACCES
op rmdir @/s2d1/s2d2/e2                 EACCES

scenario ro denies unlink and rmdir
rules --ro @/s1d1
op unlink @/s1d1/f1                     EACCES
op rmdir @/s1d1/e1                      EACCES

scenario rmdir of a non-empty dir is ENOTEMPTY under rw, EACCES under ro
rules --rw @/s1d1 --ro @/s2d1
op rmdir @/s1d1/s1d2                    ENOTEMPTY
op rmdir @/s2d1/s2d2                    EACCES

scenario the kernel's EEXIST, ENOENT and EISDIR come first, even outside the rules
rules --ro @/s1d1
op create @/s1d1/f1                     EEXIST
op mkdir @/s1d1/s1d2                    EEXIST
op mkdir @/s2d1/s2d2                    EEXIST
op symlink x @/s1d1/f1                  EEXIST
op unlink @/s1d1/nope                   ENOENT
op read @/s2d1/nope                     ENOENT
op rename @/s1d1/nope @/s2d1/x          ENOENT
op create @/nodir/x                     ENOENT
op write @/s1d1/s1d2                    EISDIR
op write @/s2d1/s2d2                    EISDIR

scenario unlink of a dir and rmdir of a file are EACCES under ro (the sandbox answers first)
rules --ro @/s1d1
op unlink @/s1d1/s1d2                   EACCES
op rmdir @/s1d1/f1                      EACCES

scenario unlink of a dir and rmdir of a file are EISDIR and ENOTDIR under rw
rules --rw @/s1d1
op unlink @/s1d1/s1d2                   EISDIR
op rmdir @/s1d1/f1                      ENOTDIR

scenario no rules: every file access is denied
rules
op read @/s1d1/f1                       EACCES
op readdir @                            EACCES
op write @/s1d1/f1                      EACCES
op mknod-reg @/s1d1/n                   EACCES
op mkdir @/n                            EACCES
op exec @/s1d1/x1                       EACCES

# --- rules combined -----------------------------------------------------
scenario rights add up along the path: --rw p --ro p/c leaves p/c writable
fs both
rules --rw @/s1d1 --ro @/s1d1/s1d2
op write @/s1d1/s1d2/f1                 OK
op unlink @/s1d1/s1d2/f2                OK
op mknod-reg @/s1d1/s1d2/n              OK
op write @/s1d1/s1d2/s1d3/f1            OK

scenario a nested rw rule widens its own subtree only
rules --ro @/s1d1 --rw @/s1d1/s1d2
op read @/s1d1/f2                       OK
op write @/s1d1/f1                      EACCES
op mknod-reg @/s1d1/n                   EACCES
op write @/s1d1/s1d2/f1                 OK
op write @/s1d1/s1d2/s1d3/f1            OK

scenario two rules on one directory add up
rules --allow read:@/s1d1 --allow write:@/s1d1
op read @/s1d1/f1                       OK
op write @/s1d1/f1                      OK
op readdir @/s1d1                       EACCES

# --- file rules -----------------------------------------------------------
scenario a file rule allows that file only
fs both
rules --ro @/s1d1/f1
op read @/s1d1/f1                       OK
op read @/s1d1/f2                       EACCES
op readdir @/s1d1                       EACCES
op write @/s1d1/f1                      EACCES

scenario rw on a file writes it but cannot unlink or rename it
rules --rw @/s1d1/f1
op write @/s1d1/f1                      OK
op read @/s1d1/f1                       OK
op unlink @/s1d1/f1                     EACCES
op rename @/s1d1/f1 @/s1d1/f9           EACCES
op read @/s1d1/f2                       EACCES

scenario rw on a file truncates it
abi 3 truncate
rules --rw @/s1d1/f1
op truncate @/s1d1/f1                   OK
op otrunc @/s1d1/f1                     OK
op truncate @/s1d1/f2                   EACCES

scenario --allow on a file keeps only its file rights
rules --allow read,create,remove:@/s1d1/f1
op read @/s1d1/f1                       OK
op unlink @/s1d1/f1                     EACCES

scenario a file rule follows the inode: a hard link elsewhere is readable
fs both
rules --ro @/s3d1/f1
op read @/s2d1/hl                       OK
op read @/s3d1/f1                       OK
op read @/s2d1/f1                       EACCES
op readdir @/s3d1                       EACCES

scenario a rule named through a symlink lands on the link's target
rules --ro @/s2d1/ln_in
op read @/s1d1/f1                       OK
op read @/s2d1/ln_in                    OK
op read @/s2d1/f1                       EACCES

# --- rename, link, exchange -----------------------------------------------
scenario rename, link and exchange across dirs inside one rw tree
fs both
abi 2 refer
rules --rw @/s1d1
op rename @/s1d1/f1 @/s1d1/s1d2/f9      OK
op link @/s1d1/f2 @/s1d1/s1d2/l2        OK
op rename @/s1d1/s1d2/s1d3 @/s1d1/d9    OK
op exchange @/s1d1/f2 @/s1d1/s1d2/f1    OK

scenario into the rw tree from outside: rename EACCES (remove first), link EXDEV
fs both
abi 2 refer
rules --rw @/s1d1
op rename @/s2d1/f1 @/s1d1/n            EACCES
op link @/s2d1/f1 @/s1d1/n              EXDEV
op rename @/s2d1/s2d2 @/s1d1/d          EACCES

scenario out of the rw tree to outside: rename and link EACCES
abi 2 refer
rules --rw @/s1d1
op rename @/s1d1/f1 @/s2d1/n            EACCES
op link @/s1d1/f1 @/s2d1/n              EACCES
op exchange @/s1d1/f2 @/s2d1/f1         EACCES

scenario rw on both dirs allows cross-dir rename, link and exchange
abi 2 refer
rules --rw @/s1d1 --rw @/s2d1
op rename @/s1d1/f1 @/s2d1/n            OK
op link @/s1d1/f2 @/s2d1/l              OK
op rename @/s2d1/s2d2 @/s1d1/d          OK
op exchange @/s1d1/f2 @/s2d1/f1         OK

scenario without refer every cross-dir rename, link and exchange is EXDEV
abi 2 refer
rules --allow read,write,create,remove:@/s1d1 --allow read,write,create,remove:@/s2d1
op rename @/s1d1/f1 @/s2d1/n            EXDEV
op link @/s1d1/f2 @/s2d1/l              EXDEV
op exchange @/s1d1/f2 @/s2d1/f1         EXDEV
op rename @/s1d1/s1d2/f1 @/s1d1/f8      EXDEV

scenario without refer a same-dir rename or link is allowed
rules --allow read,write,create,remove:@/s1d1
op rename @/s1d1/f1 @/s1d1/f9           OK
op link @/s1d1/f2 @/s1d1/l              OK
op exchange @/s1d1/f2 @/s1d1/f9         OK

scenario a rename or link that would gain rights is EXDEV, one that loses rights is allowed
abi 2 refer
rules --rw @/s1d1 --allow create,remove,refer:@/s2d1
op rename @/s2d1/f1 @/s1d1/n            EXDEV
op link @/s2d1/hl @/s1d1/hl             EXDEV
op rename @/s1d1/f1 @/s2d1/n            OK
op link @/s1d1/f2 @/s2d1/l              OK

scenario EXDEV or EACCES when the other side is ro
abi 2 refer
rules --rw @/s1d1 --ro @/s2d1
op rename @/s1d1/f1 @/s2d1/n            EACCES
op link @/s1d1/f1 @/s2d1/n              EACCES
op rename @/s2d1/f1 @/s1d1/n            EACCES
op link @/s2d1/f1 @/s1d1/n              EXDEV
op exchange @/s1d1/f1 @/s2d1/f1         EACCES

scenario an exchange that gives either file more rights is EXDEV
abi 2 refer
rules --rw @/s1d1 --allow read,create,remove,refer:@/s2d1
op exchange @/s1d1/f1 @/s2d1/f1         EXDEV
op exchange @/s1d1/f1 @/s1d1/f2         OK
op exchange @/s2d1/f1 @/s2d1/hl         OK

scenario moving a dir or file where it would gain exec is EXDEV
abi 2 refer
rules --rwx @/s1d1 --rw @/s2d1
op rename @/s1d1/s1d2 @/s2d1/d          OK
op rename @/s2d1/s2d2 @/s1d1/d          EXDEV
op link @/s2d1/f1 @/s1d1/l              EXDEV
op link @/s1d1/f1 @/s2d1/l              OK

scenario inside one rw tree, a move into a subtree with extra rights is EXDEV
abi 2 refer
rules --rw @/s1d1 --allow read,exec:@/s1d1/s1d2
op rename @/s1d1/f1 @/s1d1/s1d2/f9      EXDEV
op link @/s1d1/f2 @/s1d1/s1d2/l         EXDEV
op rename @/s1d1/e1 @/s1d1/s1d2/e1      EXDEV
op rename @/s1d1/s1d2/f1 @/s1d1/f8      OK

scenario a moved directory keeps its own rule
abi 2 refer
rules --ro @/s1d1 --rw @/s1d1/s1d2 --rw @/s2d1
op rename @/s2d1/f1 @/s1d1/s1d2/f9      OK
op rename @/s1d1/s1d2/f1 @/s1d1/f9      EACCES
op rename @/s1d1/s1d2/f2 @/s2d1/f8      OK

scenario the ruled directory itself cannot be removed or renamed
rules --rw @/s1d1/e1
op rmdir @/s1d1/e1                      EACCES
op rename @/s1d1/e1 @/s1d1/e9           EACCES
op mkdir @/s1d1/e1/x                    OK
op rmdir @/s1d1/e1/x                    OK

# --- path resolution --------------------------------------------------------
scenario symlinks: the target's path decides, readlink is not checked
fs both
rules --ro @/s1d1
op read @/s1d1/ln_out                   EACCES
op readlink @/s1d1/ln_out               OK
op read @/s2d1/ln_in                    OK
op readlink @/s2d1/ln_in                OK

scenario stat, O_PATH, chdir and readlink are not checked
rules
op stat @/s2d1/f1                       OK
op opath @/s2d1/f1                      OK
op chdir @/s2d1/s2d2                    OK
op readlink @/s2d1/ln_in                OK
op read @/s2d1/f1                       EACCES

scenario reopening /proc/self/fd/N is checked against the file's real path
fs both
rules --ro @/s1d1
op reopen @/s1d1/f1                     OK
op reopen @/s2d1/f1                     EACCES
op reopen @/s1d1/ln_out                 EACCES
op reopen @/s1d1                        OK

scenario .. is resolved before the check
rules --ro @/s1d1/s1d2
op read @/s1d1/s1d2/../f1               EACCES
op read @/s1d1/s1d2/s1d3/../f1          OK
op read @/s2d1/../s1d1/s1d2/f1          OK

scenario a rule 40 directories up still applies
rules --ro @/deep
op read @D40/f1                         OK
op read @D01/f1                         OK

scenario a rule 40 directories down applies there only
fs both
rules --ro @D40
op read @D40/f1                         OK
op read @D01/f1                         EACCES
op read @D40/../f1                      ENOENT

scenario a rule on the fixture root reaches 41 levels down
rules --ro @
op read @D40/f1                         OK
op write @D40/f1                        EACCES

# --- processes ---------------------------------------------------------------
scenario a forked child and a thread carry the rules
rules --ro @/s1d1
op fork-read @/s1d1/f1                  OK
op fork-read @/s2d1/f1                  EACCES
op thread-read @/s1d1/f1                OK
op thread-read @/s2d1/f1                EACCES

# --- mounts ----------------------------------------------------------------------
scenario a bind of the ruled directory is allowed where it is mounted
fs both
bind @/s1d1 @/s3d1/m1
rules --ro @/s1d1
op read @/s3d1/m1/f1                    OK
op readdir @/s3d1/m1/s1d2               OK
op read @/s3d1/f1                       EACCES

scenario a bind of a subdirectory of the rule mounted outside is denied
bind @/s1d1/s1d2 @/s3d1/m1
rules --ro @/s1d1
op read @/s3d1/m1/f1                    EACCES
op read @/s1d1/s1d2/f1                  OK

scenario an outside directory bound into the allowed tree is allowed
bind @/s2d1 @/s1d1/e1
rules --ro @/s1d1
op read @/s1d1/e1/f1                    OK
op read @/s2d1/f1                       EACCES

scenario mount, bind and umount are EPERM even with rw everywhere
fs both
bind @/s2d1 @/s3d1/m2
rules --rw @
op mount-tmpfs @/s1d1/e1                EPERM
op umount @/s3d1/m2                     EPERM
op bind @/s2d1 @/s1d1/e1                EPERM
op read @/s3d1/m2/f1                    OK

# --- ioctl -----------------------------------------------------------------------
scenario ioctl on a device is denied without the ioctl right
abi 5 ioctl
rules --ro /dev/null
op ioctl /dev/null                      EACCES

scenario ioctl on a device is allowed with the ioctl right
abi 5 ioctl
rules --allow read,ioctl:/dev/null
op ioctl /dev/null                      ENOTTY

scenario ioctl on a regular file is not a device ioctl
rules --ro @/s1d1
op ioctl @/s1d1/f1                      ENOTTY

# --- descriptors opened outside keep the rights they were opened with -----
scenario a file opened outside can be read, written and truncated inside
abi 3 truncate
inherit 7 @/s2d1/f1
rules --ro @/s1d1
op fd-read 7                            OK
op fd-write 7                           OK
op fd-ftruncate 7                       OK
op ftruncate @/s2d1/f1                  EACCES

scenario a file opened outside keeps truncate under a rule that withholds it
abi 3 truncate
inherit 7 @/s1d1/f1
rules --allow read,write:@/s1d1
op fd-ftruncate 7                       OK
op ftruncate @/s1d1/f1                  EACCES
op fd-ftruncate 7                       OK

scenario a device opened outside keeps ioctl
abi 5 ioctl
inherit 7 /dev/null
rules --ro /dev/null
op fd-ioctl 7                           ENOTTY
op ioctl /dev/null                      EACCES
op fd-write 7                           OK

# --- named unix sockets (Landlock ABI 9: RESOLVE_UNIX, corral's write) -----
scenario a named unix socket made outside needs write to connect or send
abi 9 resolve_unix
helper escape
rules --ro @SOCK
op connect-unix @SOCK/s                 EACCES
op send-unix @SOCK/s                    EACCES

scenario write on a named unix socket's directory allows connect and send
abi 9 resolve_unix
helper escape
rules --allow write:@SOCK
op connect-unix @SOCK/s                 OK
op send-unix @SOCK/s                    OK

scenario write on the socket file itself allows connecting to it
abi 9 resolve_unix
helper escape
rules --allow write:@SOCK/s --allow write:@SOCK/s.d
op connect-unix @SOCK/s                 OK
op send-unix @SOCK/s                    OK

scenario a named unix socket the sandbox made is reachable without write
abi 9 resolve_unix
helper escape
rules --allow create,remove:@/s1d1
op self-unix @/s1d1/own                 OK
EOF

# ---- parsing ------------------------------------------------------------

n_sc=0
sc_name=() sc_rules=() sc_ops=() sc_exp=() sc_corral=() sc_fs=() sc_bind=()
sc_abi=() sc_abi_right=() sc_require=() sc_corral_why=() sc_inherit=()
sc_helper=()

parse_table() {
	local kw rest i=-1 line
	local -a words
	while IFS= read -r line; do
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
		*) echo "differential.sh: bad table line: $line" >&2; exit 2 ;;
		esac
	done <<<"$TABLE"
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
