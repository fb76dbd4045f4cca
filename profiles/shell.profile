# shell.profile - bash or sh working in the current directory.
#
#   corral --profile shell -- bash              an interactive shell
#   corral --profile shell -- sh ./configure    a script of the project
#
# The shell may read, write, create, remove and execute anything under the
# directory it was started in (${CWD}), and run the system's programs.
# Your home is out of reach except the start-up files it reads; so are
# /tmp and your other projects.  ${TMPDIR} is writable, for mktemp,
# here-documents and configure scripts: it is this sandbox's own 0700
# directory, not the shared /tmp (or your TMPDIR, if that is a directory
# of yours that is neither sticky nor writable by others; corral(1)).
#
# History is not saved: ~/.bash_history is denied with the other secrets
# (include = secrets).  To keep it, use a copy of this profile without that
# include and add "rw = -${HOME}/.bash_history" (the file must exist).

[profile]
description = bash or sh in the current directory: read, write and run what is there
include = base
include = secrets

[filesystem]
rwx = ${CWD}
rw  = ${TMPDIR}

# Start-up files, read-only: the system's, then yours.
ro = -/etc/profile
     -/etc/profile.d
     -/etc/bash.bashrc
     -/etc/bash_completion
     -/etc/bash_completion.d
     -/etc/inputrc
     -/etc/terminfo
     -/etc/environment
     -/etc/default/locale
     -${HOME}/.profile
     -${HOME}/.bash_profile
     -${HOME}/.bash_login
     -${HOME}/.bashrc
     -${HOME}/.bash_aliases
     -${HOME}/.inputrc
     -${XDG_CONFIG_HOME}/readline

[network]
# No host at all: what runs here cannot send the directory anywhere
# (--connect-tcp PORT adds a port, --net=all lifts it for one run).
net = none
