[filesystem]
ro = /inner
