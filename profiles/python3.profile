# python3.profile - Python 3 running scripts in the current project.
#
#   corral --profile python3 -- python3 tool.py data.csv
#
# The interpreter and the standard library come from /usr (base).  The
# project, ${PROJECT} (the nearest directory above the current one holding
# .git, else the current one), is writable: scripts write their output
# there and Python keeps its __pycache__ next to the modules.  Your home,
# other projects and /tmp are out of reach.  ${TMPDIR}, where the tempfile
# module writes, is writable: it is this sandbox's own 0700 directory, not
# the shared /tmp (or your TMPDIR, if that is a directory of yours that is
# neither sticky nor writable by others; corral(1)).
#
# A virtual environment inside the project (python3 -m venv .venv) works
# as it is: its python is a symlink into /usr/bin.  Packages installed with
# pip --user live in ~/.local/lib and are readable; to install packages use
# the pip profile.

[profile]
description = python3 running scripts in the current project, which it may change
include = base
include = secrets

[filesystem]
rw = ${PROJECT}
     ${TMPDIR}

# Debian's sitecustomize.py lives in /etc/python3.X (for Debian 12, 3.11);
# /usr/lib/python3.11/sitecustomize.py is a symlink to it.  Add your
# version if it differs.
ro = -/etc/python3
     -/etc/python3.11
     -/etc/python3.12
     -/etc/python3.13
     -/etc/mime.types            ; the mimetypes module
     -${HOME}/.local/lib         ; packages from pip install --user

[network]
# No host at all: a script cannot send the project anywhere.  The pip
# profile adds the ports pip needs; --connect-tcp PORT adds one.
net = none
