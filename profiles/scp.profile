# scp.profile - scp and sftp copying to and from the current directory.
#
#   corral --profile scp -- scp host:backup.tar.gz .
#
# The ssh client's access (see ssh.profile), plus ${CWD}: files are copied
# from and into the directory you run it in, nowhere else.

[profile]
description = scp and sftp copying into and out of the current directory
include = ssh

[filesystem]
rw = ${CWD}
