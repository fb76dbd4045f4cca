[profile]
description = level 1
include = deep2
[filesystem]
ro = /deep1
