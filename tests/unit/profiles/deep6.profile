[profile]
description = level 6
include = deep7
[filesystem]
ro = /deep6
