# wget.profile - wget downloading into the current directory.
#
#   corral --profile wget -- wget https://example.org/file.tar.gz
#
# Downloads land in ${CWD}; nothing else of yours is writable except the
# HSTS database (~/.wget-hsts, when it exists).  -O elsewhere or -P to
# another directory is denied.

[profile]
description = wget downloading into the current directory
include = network

[filesystem]
rw = ${CWD}
     -${HOME}/.wget-hsts         ; HSTS cache: create it (touch) to keep one
ro = -/etc/wgetrc
     -${HOME}/.wgetrc

[network]
connect-tcp = 443, 80          ; HTTPS and HTTP; other ports need --connect-tcp PORT
