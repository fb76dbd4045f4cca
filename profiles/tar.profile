# tar.profile - tar creating and extracting archives in the current
# directory.
#
#   corral --profile tar -- tar xzf release.tar.gz
#
# An archive can only be extracted into ${CWD}: a hostile archive with
# "../" or absolute names, or a symlink pointing out, cannot write outside
# it.  To unpack an archive kept elsewhere, add --ro with its path.
# Compression programs (gzip, xz, zstd, bzip2) run from /usr.

[profile]
description = tar creating and extracting archives in the current directory
include = base

[filesystem]
rw = ${CWD}

[network]
# No host at all: an archive is unpacked, not fetched (--net=all lifts
# it for one run).
net = none
