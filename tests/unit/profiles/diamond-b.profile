[profile]
include = base
[filesystem]
ro = /b
