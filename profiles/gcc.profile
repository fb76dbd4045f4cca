# gcc.profile - the C compiler (gcc, cc, g++, as, ld) in the current
# project.
#
#   corral --profile gcc -- cc -O2 -o hello hello.c
#
# Sources are read and objects written in ${PROJECT} (the nearest
# directory above the current one holding .git, else the current one);
# headers and libraries come from /usr (base).
#
# gcc writes intermediate files to $TMPDIR (default /tmp), so ${TMPDIR} is
# writable.  A shared /tmp holds other programs' files and sockets (an
# ssh-agent socket, for one), so prefer a directory of your own:
#     mkdir -p .tmp && TMPDIR=$PWD/.tmp corral --profile gcc -- make
# makes the rule below name that directory instead.

[profile]
description = gcc and binutils compiling in the current project
include = base

[filesystem]
rw = ${PROJECT}
     ${TMPDIR}
