[profile]
include = bad-key
