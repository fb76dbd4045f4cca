[profile]
description = level 8
include = deep9
[filesystem]
ro = /deep8
