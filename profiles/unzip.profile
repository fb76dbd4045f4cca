# unzip.profile - unzip (and zip) in the current directory.
#
#   corral --profile unzip -- unzip release.zip
#
# As tar.profile: an archive can only write into ${CWD}, whatever names
# or symlinks it holds.  Add --ro for an archive kept elsewhere.

[profile]
description = unzip and zip in the current directory
include = base

[filesystem]
rw = ${CWD}

[network]
# No host at all, as tar.profile (--net=all lifts it for one run).
net = none
