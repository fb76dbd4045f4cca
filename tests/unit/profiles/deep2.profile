[profile]
description = level 2
include = deep3
[filesystem]
ro = /deep2
