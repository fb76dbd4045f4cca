# curl.profile - curl downloading into the current directory.
#
#   corral --profile curl -- curl -fLO https://example.org/file.tar.gz
#
# curl may write files in ${CWD} (-o, -O) and read them there (-T, -d @f),
# and nothing else of yours: a URL or a config that asks for
# file:///home/you/.ssh/id_rsa, or -o ~/.bashrc, is denied.  ~/.netrc is
# not readable (add it to a copy for --netrc).

[profile]
description = curl downloading into (and uploading from) the current directory
include = network

[filesystem]
rw = ${CWD}
ro = -${HOME}/.curlrc
     -${XDG_CONFIG_HOME}/curlrc

[network]
connect-tcp = 443, 80          ; HTTPS and HTTP; other ports need --connect-tcp PORT
