# node.profile - Node.js running scripts in the current project.
#
#   corral --profile node -- node server.js
#
# The project (${PROJECT}: the nearest directory above the current one
# holding .git, else the current one) is writable; node itself and its global modules
# come from /usr (base).  Your home, other projects and /tmp are out of
# reach.  For npm, use the npm profile (it includes this one).

[profile]
description = node running scripts in the current project, which it may change
include = base
include = secrets

[filesystem]
rw = ${PROJECT}
ro = -${HOME}/.node_modules      ; searched by require() after the project
     -${HOME}/.node_libraries
rw = -${HOME}/.node_repl_history ; the REPL's history (a file: create it)

[network]
# No host at all: a script cannot send the project anywhere.  The npm
# profile adds the ports npm needs; --connect-tcp PORT adds one.
net = none
