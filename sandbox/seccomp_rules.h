/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * seccomp_rules.h - the two filters as libseccomp builds them, at build
 * time (seccomp-gen); corral itself loads the exported BPF.
 */
#ifndef CORRAL_SECCOMP_RULES_H
#define CORRAL_SECCOMP_RULES_H

#include <seccomp.h>
#include <stdint.h>

/* The sandbox's deny list (seccomp_sandbox.c); NULL after a message. */
scmp_filter_ctx seccomp_sandbox_filter(void);
/* The parser child's allowlist (seccomp_child.c); NULL after a message. */
scmp_filter_ctx seccomp_child_filter(void);

/*
 * Shared by both.  A rule with @action for the system call @name
 * (skipped where the architecture has none), or for ioctl @cmd (low 32
 * bits); 0 or -errno after a message.
 */
int seccomp_rule_by_name(scmp_filter_ctx ctx, uint32_t action,
			 const char *name);
int seccomp_rule_ioctl(scmp_filter_ctx ctx, uint32_t action,
		       unsigned long cmd);
/*
 * A filter with @def_action for what no rule names, its checks sorted
 * into a binary tree: the kernel emulates a new filter once per system
 * call number when it is loaded (its action cache), and down a linear
 * list of 40-odd checks that was a measurable part of a launch, twice
 * (tests/bench/RESULTS.md).  NULL after a message.
 */
scmp_filter_ctx seccomp_filter_new(uint32_t def_action);
/* @ctx if the rules added to it gave @r == 0, else NULL (and @ctx is
 * released). */
scmp_filter_ctx seccomp_filter_done(scmp_filter_ctx ctx, int r);

#endif /* CORRAL_SECCOMP_RULES_H */
