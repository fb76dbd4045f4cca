[profile]
description = my own npm,
  shadowing the one below
[filesystem]
ro = /mine
