/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * escape's bpf ops: corral's pinned maps, reached from inside a sandbox.
 */
#define _GNU_SOURCE
#include <linux/bpf.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "escape.h"
#include "oplist.h"

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

/* BPF_OBJ_GET on the pinned map; then look up or delete its first key */
int op_bpf(int op, char **arg, char *info)
{
	unsigned char key[512], next[512], value[4096];
	struct bpf_map_info mi;
	union bpf_attr a;
	int fd, r = 0;

	(void)info;
	memset(&a, 0, sizeof(a));
	a.pathname = (uint64_t)(uintptr_t)arg[0];
	fd = (int)sys_bpf(BPF_OBJ_GET, &a);
	if (fd < 0)
		return err();
	if (op == OP_BPF_GET)
		goto out;
	memset(&mi, 0, sizeof(mi));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (uint32_t)fd;
	a.info.info_len = sizeof(mi);
	a.info.info = (uint64_t)(uintptr_t)&mi;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a) < 0) {
		r = err();
		goto out;
	}
	if (mi.key_size > sizeof(key) || mi.value_size > sizeof(value)) {
		r = E2BIG;
		goto out;
	}
	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)fd;
	a.key = 0;	/* the first key */
	a.next_key = (uint64_t)(uintptr_t)next;
	if (sys_bpf(BPF_MAP_GET_NEXT_KEY, &a) < 0) {
		r = errno == ENOENT ? 0 : err();	/* empty map */
		goto out;
	}
	memcpy(key, next, mi.key_size);
	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)fd;
	a.key = (uint64_t)(uintptr_t)key;
	if (op == OP_BPF_LOOKUP) {
		a.value = (uint64_t)(uintptr_t)value;
		if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &a) < 0)
			r = err();
	} else if (sys_bpf(BPF_MAP_DELETE_ELEM, &a) < 0) {
		r = err();
	}
out:
	close(fd);
	return r;
}
