/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * privs.h - capabilities.  corral runs with CAP_BPF permitted (file
 * capability cap_bpf+p, or root); it is effective only between
 * privs_raise_bpf() and privs_drop_all(), which drops every capability
 * for good before the command runs.
 */
#ifndef CORRAL_PRIVS_H
#define CORRAL_PRIVS_H

#include <stdbool.h>

/*
 * First thing main() does: the effective and inheritable sets emptied,
 * ambient cleared; for a user (not root) the permitted set reduced to
 * CAP_BPF, or emptied when CAP_BPF is not permitted.
 */
void privs_at_start(void);
/* setup, status, teardown: whatever is permitted becomes effective. */
void privs_raise_admin(void);

/*
 * First step of a bpf launch: effective set emptied, permitted reduced to
 * CAP_BPF.  Returns 0, or -EPERM when CAP_BPF is not permitted at all
 * (privs_missing_reason() says so in words, with a hint).
 */
int privs_init_launcher(void);
const char *privs_missing_reason(void);
/* Whether CAP_BPF is permitted to this process (changes nothing). */
bool privs_bpf_permitted(void);
/* Makes CAP_BPF effective; dies if it cannot. */
void privs_raise_bpf(void);
/*
 * Clears every capability set, sets NO_NEW_PRIVS, and reads the state
 * back; dies if anything is left.
 */
void privs_drop_all(void);

#endif /* CORRAL_PRIVS_H */
