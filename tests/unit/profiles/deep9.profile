[filesystem]
ro = /deep9
