# git.profile - git working on the repository in the current directory.
#
#   corral --profile git -- git commit -am 'message'
#   corral --profile git -- git pull
#
# Run it from the top of the work tree: only ${CWD} is writable, so from a
# subdirectory git cannot reach the .git directory above it (add --rw
# with the top directory).  Your git configuration is readable; your
# other repositories, your home and ~/.ssh are not.
#
# Remotes over https work (network is included).  Remotes over ssh need
# the ssh client's keys too: add --profile ssh.  Hooks in .git/hooks
# cannot be executed (the project is writable, not executable): where one
# would run, git stops with "fatal: cannot exec '.git/hooks/pre-commit':
# Permission denied".  Use rwx on ${CWD} in a copy if you rely on hooks
# (they then run in this sandbox).  git commit without -m starts $EDITOR,
# which runs in this sandbox too.  Credentials (~/.git-credentials) are not
# readable: add that file to a copy if you use the store helper.

[profile]
description = git on the repository in the current directory, with your git config
include = network

[filesystem]
rw = ${CWD}
ro = -${HOME}/.gitconfig
     -${XDG_CONFIG_HOME}/git     ; config, ignore, attributes
     -/etc/gitconfig
     -/etc/gitattributes

[network]
connect-tcp = 443, 80, 22, 9418 ; https, http, ssh and git:// remotes
