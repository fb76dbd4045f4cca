[profile]
description = level 3
include = deep4
[filesystem]
ro = /deep3
