# shell.profile - bash or sh working in the current directory.
#
#   corral --profile shell -- bash              an interactive shell
#   corral --profile shell -- sh ./configure    a script of the project
#
# The shell may read, write, create, remove and execute anything under the
# directory it was started in (${CWD}), and run the system's programs.
# Your home is out of reach except the start-up files it reads; so are
# /tmp and your other projects.  Bash keeps small here-documents in pipes;
# a script that needs a temporary directory can use one inside ${CWD}
# (TMPDIR=$PWD/.tmp), or add "rw = ${TMPDIR}" to a copy of this profile.
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
