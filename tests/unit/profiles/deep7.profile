[profile]
description = level 7
include = deep8
[filesystem]
ro = /deep7
