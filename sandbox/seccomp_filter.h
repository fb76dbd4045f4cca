/* SPDX-License-Identifier: GPL-2.0-or-later */
/* seccomp_filter.h - the filter every sandboxed command runs under. */
#ifndef CORRAL_SECCOMP_FILTER_H
#define CORRAL_SECCOMP_FILTER_H

#include <seccomp.h>
#include <stdint.h>

/*
 * Installs the sandbox's deny list (needs NO_NEW_PRIVS, already set).
 * Returns 0 or -errno after a message.
 */
int seccomp_install_sandbox(void);

/*
 * The parser child's allowlist (seccomp_parser.c): every system call not
 * on it kills the process.  Returns 0 or -errno.
 */
int seccomp_install_parser(void);

/*
 * Shared by both filters.  A rule with @action for the system call
 * @name (skipped where the architecture has none), or for ioctl @cmd
 * (low 32 bits); 0 or -errno after a message.
 */
int seccomp_rule_by_name(scmp_filter_ctx ctx, uint32_t action,
			 const char *name);
int seccomp_rule_ioctl(scmp_filter_ctx ctx, uint32_t action,
		       unsigned long cmd);
/* Loads @ctx unless @r already failed, then frees it; returns the result. */
int seccomp_load_and_release(scmp_filter_ctx ctx, int r, const char *what);

#endif /* CORRAL_SECCOMP_FILTER_H */
