[filesystem]
rw = /ok
[profile]
name = bad-key
