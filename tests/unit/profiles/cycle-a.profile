[profile]
include = cycle-b
