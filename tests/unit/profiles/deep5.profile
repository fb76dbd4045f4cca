[profile]
description = level 5
include = deep6
[filesystem]
ro = /deep5
