# gcc.profile - the C compiler (gcc, cc, g++, as, ld) in the current
# project.
#
#   corral --profile gcc -- cc -O2 -o hello hello.c
#
# Sources are read and objects written in ${PROJECT} (the nearest
# directory above the current one holding .git, else the current one);
# headers and libraries come from /usr (base).
#
# gcc writes intermediate files to $TMPDIR, so ${TMPDIR} is writable.  It
# is never a shared /tmp (other programs' files and sockets: tmux's,
# ssh-agent's): unless your TMPDIR is a directory of yours that is neither
# sticky nor writable by others, corral gives each sandbox a 0700
# directory of its own and sets TMPDIR to it (corral(1), TMPDIR).

[profile]
description = gcc and binutils compiling in the current project
include = base

[filesystem]
rw = ${PROJECT}
     ${TMPDIR}

[network]
# No host at all: a compile has nothing to fetch or send (--net=all
# lifts it for one run).
net = none
