/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * seccomp_rules.h - corral's filters as libseccomp builds them, at build
 * time (seccomp-gen); corral itself loads the exported BPF.
 */
#ifndef CORRAL_SECCOMP_RULES_H
#define CORRAL_SECCOMP_RULES_H

#include <seccomp.h>
#include <stddef.h>
#include <stdint.h>

/* The sandbox's deny list (seccomp_sandbox.c); NULL after a message. */
scmp_filter_ctx seccomp_sandbox_filter(void);
/* No new user namespaces (seccomp_sandbox.c); NULL after a message. */
scmp_filter_ctx seccomp_userns_filter(void);
/* Other processes' limits and scheduling, for the Landlock engine, and
 * SysV IPC unless the profile allows it (seccomp_sandbox.c); NULL after
 * a message. */
enum seccomp_ipc {
	SECCOMP_IPC_ALLOWED,    /* sysv-ipc = yes */
	SECCOMP_IPC_REFUSED,    /* every SysV IPC call is EPERM */
};
scmp_filter_ctx seccomp_landlock_filter(enum seccomp_ipc ipc);
/* memfds that could be executed, for the Landlock engine without
 * exec-anonymous = yes (seccomp_sandbox.c). */
scmp_filter_ctx seccomp_anon_exec_filter(void);
/* Sockets the Landlock engine cannot judge (seccomp_net.c). */
enum seccomp_net {
	SECCOMP_NET_RULES,      /* the bpf engine's socket_create rule */
	SECCOMP_NET_NO_UDP,     /* and no UDP socket */
	SECCOMP_NET_NONE,       /* and no IP socket */
};
scmp_filter_ctx seccomp_net_filter(enum seccomp_net kind);
/* The parser child's allowlist (seccomp_child.c); NULL after a message. */
scmp_filter_ctx seccomp_child_filter(void);

/*
 * Shared by both: a filter with @def_action for what no rule names, and
 * @action for each system call in @names (skipped where the architecture
 * has none), then for each ioctl in @cmds (their low 32 bits).  NULL
 * after a message.
 */
scmp_filter_ctx seccomp_filter_list(uint32_t def_action, uint32_t action,
				    const char *const *names, size_t n_names,
				    const unsigned long *cmds, size_t n_cmds);

#endif /* CORRAL_SECCOMP_RULES_H */
