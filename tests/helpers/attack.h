/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * attack.h - what the files of the attack helper share: the op functions
 * attack.ops names, grouped by file and declared with oplist.h's op_fn
 * (their one signature), and the steps several use (the io_uring ring is
 * in uring.h).  The OP_ kinds each function tells apart are made from
 * attack.ops by the build (attack-ops.h, gen-ops.sh).
 */
#ifndef CORRAL_HELPERS_ATTACK_H
#define CORRAL_HELPERS_ATTACK_H

#include <sys/types.h>

#include "attack-ops.h"
#include "oplist.h"

/* attack_uring.c */
/* A new struct cred, same ids: what makes io_uring override them later. */
int new_creds(void);
op_fn op_uring;

/* attack_fown.c */
op_fn op_fown, op_fown_self, op_tty_async, op_sigurg, op_fd3;
/* attack fown-prep PATH|pipe PID CMD...: @argv is PATH */
int fown_prep(char **argv);

/* attack_compat.c */
op_fn op_ioctl32;
/* int $0x80 with up to three arguments: a 32-bit system call */
long syscall32(long nr, long a, long b, long c);

/* attack_fill.c */
/* RLIMIT_NOFILE's soft limit raised to the hard one */
void raise_nofile(void);
op_fn op_fill, op_linger, op_hold;

/* attack_trunc.c */
op_fn op_trunc;

/* attack_fdpass.c */
op_fn op_fdpass;

/* attack_race.c */
op_fn op_race, op_race_fown;

/* attack_udp.c */
op_fn op_udp;

#endif
