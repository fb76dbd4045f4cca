# make.profile - make building the project the current directory is in
# with gcc (see gcc.profile for the compiler's needs and the note on $TMPDIR).
#
#   corral --profile make -- make -j4
#   corral --profile make -- make check
#
# The build may read, write and run anything under ${PROJECT} (the nearest
# directory above the current one holding .git, else the current one, so
# make -C sub and a make in a subdirectory reach the whole tree): "make check"
# runs the programs it built, and recipes run scripts of the project.  It
# cannot touch your home or other projects.  A build that installs
# ("make install" into /usr/local) is denied; install with a DESTDIR
# inside the project, or outside the sandbox.

[profile]
description = make and gcc building (and testing) the current project
include = gcc
include = secrets

[filesystem]
rwx = ${PROJECT}

[network]
# No host at all: a build script cannot send the project anywhere
# (--net=all lifts it for one run).
net = none
