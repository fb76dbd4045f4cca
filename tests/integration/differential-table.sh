# shellcheck shell=bash
# differential-table.sh: the scenarios of differential.sh, one after the
# other, as the TABLE its parse_table reads.  Sourced by differential.sh:
#
#   . "$(dirname "$0")/differential-table.sh"
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

# shellcheck disable=SC2034 # TABLE: read by differential.sh
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
