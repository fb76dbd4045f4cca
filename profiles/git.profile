# git.profile - git working on the repository the current directory is in.
#
#   corral --profile git -- git commit -am 'message'
#   corral --profile git -- git pull
#
# ${PROJECT} is the work tree: the nearest directory above the current one
# that holds .git (or the current one), so git works from any
# subdirectory.  A linked worktree's .git file points into the main
# repository, which is outside: add --rw with that repository's .git.
# Your git configuration is readable; your other repositories, your home
# and ~/.ssh are not.
#
# Remotes over https work (network is included).  Remotes over ssh need
# the ssh client's keys too: add --profile ssh.  Hooks in .git/hooks
# cannot be executed (the project is writable, not executable): where one
# would run, git stops with "fatal: cannot exec '.git/hooks/pre-commit':
# Permission denied".  Use rwx on ${PROJECT} in a copy if you rely on hooks
# (they then run in this sandbox).  git commit without -m starts $EDITOR,
# which runs in this sandbox too.  Credentials (~/.git-credentials) are not
# readable: add that file to a copy if you use the store helper.

[profile]
description = git on the repository the current directory is in, with your git config
include = network

[filesystem]
rw = ${PROJECT}
ro = -${HOME}/.gitconfig
     -${XDG_CONFIG_HOME}/git     ; config, ignore, attributes
     -/etc/gitconfig
     -/etc/gitattributes

[network]
connect-tcp = 443, 80, 22, 9418 ; https, http, ssh and git:// remotes
