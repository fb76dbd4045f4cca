# base.profile - the runtime every corral profile includes.
#
# What a dynamically linked Debian program needs just to start and behave
# normally: the installed programs and libraries (execute), a handful of
# system files in /etc (read-only), the harmless character devices, and the
# read-only CPU topology libc consults.  Deliberately NOT here: $HOME, /tmp,
# /run, /proc and the rest of /etc.  Each program's profile adds what that
# program works on (usually ${CWD}, the directory it was started in).
#
# Adapt it: copy it to ~/.config/corral/profiles/base.profile, which then
# shadows this one for every profile that includes base, and edit the copy.
# Paths starting with '-' are optional: skipped when they do not exist.

[profile]
description = the runtime every profile includes: /usr, some /etc files, /dev/null and friends

[filesystem]
# Programs, libraries, locales, time zones, terminfo, CA bundles.  Debian
# 12 merges /usr: /bin, /sbin and /lib are symlinks into it.  On systems
# where they are real directories the optional lines below cover them.
rx = /usr
     -/bin
     -/sbin
     -/lib
     -/lib64

# Read by the dynamic loader, by libc's getpwuid/getgrgid (ls -l, id,
# git's author fallback, shells' prompts), by time functions and by any
# program linked with OpenSSL.  None of these holds a secret; /etc/shadow
# and the rest of /etc stay out of reach.
ro = /etc/ld.so.cache
     -/etc/ld.so.preload
     -/etc/locale.alias          ; /usr/share/locale/locale.alias links here
     -/etc/localtime
     -/etc/timezone
     -/etc/nsswitch.conf
     /etc/passwd
     /etc/group
     -/etc/ssl/openssl.cnf
     -/etc/os-release            ; which system this is (pip, npm, python's
     -/etc/debian_version        ; platform module ask)
     -/etc/lsb-release

# /dev/null, /dev/zero and the random devices: read and write (writing to
# /dev/null is how programs discard output).  /dev/tty is the controlling
# terminal, for password prompts (ssh, git) and pagers; /dev/pts is left
# out so a sandbox cannot write to your other terminals.
rw = /dev/null
     /dev/zero
     /dev/full
     /dev/random
     /dev/urandom
     -/dev/tty

# System-wide, non-secret facts: the number of CPUs (libc's sysconf, make
# -j, Python's os.cpu_count, node's os.cpus), memory and load.  Nothing
# under /proc/PID (other processes' command lines and environments) is
# reachable: /proc/self cannot be granted, since it names a different
# directory in every process.  Programs that read /proc/self/maps (node,
# for its stack bounds) fall back without it.
ro = -/sys/devices/system/cpu
     -/proc/cpuinfo
     -/proc/meminfo
     -/proc/stat
     -/proc/loadavg
     -/proc/filesystems
     -/proc/sys/vm/overcommit_memory

[sandbox]
# The defaults, spelled out: no exec of memory-only files, abstract unix
# sockets scoped to the sandbox, no user namespaces (no shipped profile
# needs one; bubblewrap and Chromium's own sandbox do), and no SysV IPC
# under the Landlock engine, which cannot scope it to the sandbox (the
# bpf engine does, whatever this says).
exec-anonymous = no
unix-connect = scoped
userns = no
sysv-ipc = no
