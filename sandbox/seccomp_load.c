// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seccomp_load.c - installs the filters libseccomp built at build time
 * (seccomp_filters.h, made by seccomp-gen).
 */
#include "config.h"

#include "seccomp_load.h"

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "seccomp_filters.h"
#include "util.h"

#define N_INSNS(a) (sizeof(a) / sizeof(*(a)))

static int install(const struct sock_filter *filter, size_t n,
		   const char *what)
{
	struct sock_fprog prog = {
		.len = (unsigned short)n,
		.filter = (struct sock_filter *)filter,
	};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return error_errno(errno, "setting NO_NEW_PRIVS for the %s "
				   "seccomp filter", what);
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
		return error_errno(errno, "seccomp: loading the %s filter",
				   what);
	return 0;
}

int seccomp_install_sandbox(void)
{
	return install(corral_sandbox_filter, N_INSNS(corral_sandbox_filter),
		       "sandbox");
}

int seccomp_install_userns(void)
{
	return install(corral_userns_filter, N_INSNS(corral_userns_filter),
		       "user namespace");
}

int seccomp_install_landlock(bool sysv_ipc)
{
	if (sysv_ipc)
		return install(corral_landlock_filter,
			       N_INSNS(corral_landlock_filter),
			       "Landlock engine's");
	return install(corral_landlock_no_ipc_filter,
		       N_INSNS(corral_landlock_no_ipc_filter),
		       "Landlock engine's");
}

int seccomp_install_anon_exec(void)
{
	return install(corral_anon_exec_filter,
		       N_INSNS(corral_anon_exec_filter), "memfd");
}

int seccomp_install_parser(void)
{
	return install(corral_parser_filter, N_INSNS(corral_parser_filter),
		       "parser");
}

int seccomp_install_net(enum corral_seccomp_net kind)
{
	switch (kind) {
	case CORRAL_SECCOMP_NET_RULES:
		return install(corral_net_rules_filter,
			       N_INSNS(corral_net_rules_filter), "network");
	case CORRAL_SECCOMP_NET_NO_UDP:
		return install(corral_net_no_udp_filter,
			       N_INSNS(corral_net_no_udp_filter), "network");
	case CORRAL_SECCOMP_NET_NONE:
		return install(corral_net_none_filter,
			       N_INSNS(corral_net_none_filter), "network");
	case CORRAL_SECCOMP_NET_OFF:
	default:
		return 0;       /* net = all: nothing to refuse */
	}
}
