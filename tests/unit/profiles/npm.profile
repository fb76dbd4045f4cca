# The example of DESIGN.md section 6, with a small base.
[profile]
description = npm confined to the project and its cache
include = base

[filesystem]
rx = /usr
ro = /etc/ssl
     /etc/resolv.conf
rw = ${CWD}
     ${HOME}/.npm
     -${XDG_CACHE_HOME}/node-gyp      ; leading "-": ignore if missing

[sandbox]
exec-anonymous = no
unix-connect = scoped
