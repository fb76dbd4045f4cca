# pip.profile - pip installing Python packages.
#
#   corral --profile pip -- python3 -m pip install --target vendor pkg
#   corral --profile pip -- .venv/bin/pip install -r requirements.txt
#
# Everything python3.profile allows (the project, ${PROJECT}, writable),
# plus pip's cache and configuration, and running the scripts of a venv
# in the project (.venv/bin/pip; its python links to /usr/bin).  pip install --user writes ~/.local: that
# is allowed when ~/.local exists, and it is where every later Python run
# looks for modules, so consider installing into a venv in the project
# instead and removing the ~/.local line from a copy of this profile.
# Installing into the system (/usr/lib/python3) is denied; Debian refuses
# that anyway (PEP 668).
#
# Credentials for private indexes (~/.netrc, keyring) are not readable:
# add them to a copy if you need them.

[profile]
description = pip installing packages into the project (a venv, --target) or ~/.local
include = python3
include = network
include = secrets

[filesystem]
cache = -${XDG_CACHE_HOME}/pip   ; the wheel and HTTP cache (made if missing)
rw = -${HOME}/.local             ; pip install --user
rx = -${PROJECT}/.venv/bin       ; the venv's scripts: .venv/bin/pip
ro = -${XDG_CONFIG_HOME}/pip     ; pip.conf
     -${HOME}/.pip
     -/etc/pip.conf
     -/etc/xdg/pip

[network]
connect-tcp = 443, 80          ; the index (HTTPS); HTTP for old mirrors
