[profile]
include = base
include = diamond-b
