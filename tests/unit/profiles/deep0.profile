[profile]
description = level 0
include = deep1
[filesystem]
ro = /deep0
