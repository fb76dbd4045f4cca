/* SPDX-License-Identifier: GPL-2.0-or-later */
/* seccomp_filter.h - the filter every sandboxed command runs under. */
#ifndef CORRAL_SECCOMP_FILTER_H
#define CORRAL_SECCOMP_FILTER_H

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

#endif /* CORRAL_SECCOMP_FILTER_H */
