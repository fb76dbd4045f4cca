[profile]
description = half of a cycle
include = cycle-a
