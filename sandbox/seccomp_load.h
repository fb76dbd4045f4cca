/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * seccomp_load.h - installing corral's seccomp filters.
 *
 * They are built by libseccomp when corral is built (seccomp-gen, from
 * seccomp_sandbox.c and seccomp_child.c) and loaded here as BPF: building
 * them at every launch cost more CPU time than the rest of the launcher's
 * own work (sandbox/README.md; the figures are in tests/bench/RESULTS.md).
 */
#ifndef CORRAL_SECCOMP_LOAD_H
#define CORRAL_SECCOMP_LOAD_H

#include <stdbool.h>

/*
 * Installs the sandbox's deny list.  Sets NO_NEW_PRIVS first (the kernel
 * requires it without CAP_SYS_ADMIN).  Returns 0 or -errno after a message.
 */
int seccomp_install_sandbox(void);

/* Refuses new user namespaces (the Landlock engine without userns = yes). */
int seccomp_install_userns(void);

/*
 * Refuses, where the Landlock engine runs, what it cannot scope and an
 * argument decides: another process's limits, nice value, I/O priority,
 * scheduling and memory placement (a process names itself as 0); and,
 * unless @sysv_ipc (sysv-ipc = yes), every SysV IPC call (EPERM).
 */
int seccomp_install_landlock(bool sysv_ipc);

/*
 * Refuses, where the Landlock engine runs without exec-anonymous = yes,
 * to make a memfd that could be executed (ENOSYS; seccomp_sandbox.c).
 */
int seccomp_install_anon_exec(void);

/*
 * What the Landlock engine cannot refuse of the network, refused by
 * socket(2)'s arguments (sandbox/seccomp_net.c): under net = rules, the
 * sockets the bpf engine refuses; NO_UDP also UDP, NONE every IP socket.
 */
enum corral_seccomp_net {
	CORRAL_SECCOMP_NET_OFF,         /* net = all: nothing to install */
	CORRAL_SECCOMP_NET_RULES,
	CORRAL_SECCOMP_NET_NO_UDP,
	CORRAL_SECCOMP_NET_NONE,
};
int seccomp_install_net(enum corral_seccomp_net kind);

/*
 * The parser child's allowlist: every system call not on it kills the
 * process.  Returns 0 or -errno after a message.
 */
int seccomp_install_parser(void);

#endif /* CORRAL_SECCOMP_LOAD_H */
