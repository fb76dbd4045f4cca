# jq.profile - jq reading JSON files of the current directory.
#
#   corral --profile jq -- jq .version package.json
#
# jq only reads (it writes to its standard output): ${CWD} is read-only,
# and your home, with its keys and tokens, is out of reach of a filter
# using --rawfile or input_filename tricks.  Your ~/.jq module file is
# readable.

[profile]
description = jq reading JSON in the current directory (read-only)
include = base

[filesystem]
ro = ${CWD}
     -${HOME}/.jq

[network]
# No host at all: a filter cannot send what it reads (--net=all lifts
# it for one run).
net = none
