/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bpf_admin.h - corral setup, status and teardown: loading, pinning and
 * removing the BPF programs (bpf_admin.c).  Each returns an exit status.
 */
#ifndef CORRAL_BPF_ADMIN_H
#define CORRAL_BPF_ADMIN_H

#include <stdbool.h>

int bpf_admin_setup(bool debug);
int bpf_admin_status(void);
int bpf_admin_teardown(bool force);

#endif /* CORRAL_BPF_ADMIN_H */
