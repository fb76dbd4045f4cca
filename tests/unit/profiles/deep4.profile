[profile]
description = level 4
include = deep5
[filesystem]
ro = /deep4
