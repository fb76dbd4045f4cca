[profile]
description = a small base for the tests
[filesystem]
ro = /etc/ld.so.cache
[sandbox]
exec-anonymous = yes
require = any
