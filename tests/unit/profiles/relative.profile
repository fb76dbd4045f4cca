[profile]
include = sub/inner.profile
