/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * attack.h - what the files of the attack helper share: the ops its
 * table (attack.c) runs, grouped by file, the operations each op
 * function tells apart, and the steps several use (the io_uring ring is
 * in uring.h).
 */
#ifndef CORRAL_HELPERS_ATTACK_H
#define CORRAL_HELPERS_ATTACK_H

#include <sys/types.h>

/* attack_uring.c */
/* A new struct cred, same ids: what makes io_uring override them later. */
int new_creds(void);

enum { OP_URING_INLINE, OP_URING_ASYNC, OP_URING_SQPOLL,
	OP_URING_PERSONALITY };
int op_uring(int op, char **arg, char *info);

/* attack_fown.c */
enum { OP_FOWN_SETOWN, OP_FOWN_SETOWN_EX, OP_FOWN_PGRP, OP_FOWN_FIOSETOWN,
	OP_FOWN_SIOCSPGRP, OP_FOWN_SIGURG, OP_FD3_SETSIG, OP_FD3_ASYNC,
	OP_FD3_LEASE, OP_FD3_NOTIFY, OP_FD3_FIRE };
int op_fown(int op, char **arg, char *info);
int op_fown_self(int op, char **arg, char *info);
int op_tty_async(int op, char **arg, char *info);
int op_sigurg(int op, char **arg, char *info);
int op_fd3(int op, char **arg, char *info);
/* attack fown-prep PATH|pipe PID CMD...: @argv is PATH */
int fown_prep(char **argv);

/* attack_compat.c */
int op_ioctl32(int op, char **arg, char *info);
/* int $0x80 with up to three arguments: a 32-bit system call */
long syscall32(long nr, long a, long b, long c);

/* attack_fill.c */
/* RLIMIT_NOFILE's soft limit raised to the hard one */
void raise_nofile(void);
enum { OP_FILL_UNIX, OP_FILL_IOCTL, OP_HOLD };
int op_fill(int op, char **arg, char *info);
int op_linger(int op, char **arg, char *info);
int op_hold(int op, char **arg, char *info);

/* attack_trunc.c */
enum { OP_TRUNC_FTRUNCATE, OP_TRUNC_OTRUNC, OP_TRUNC_PROC, OP_TRUNC_PATH,
	OP_TRUNC_URING, OP_TRUNC_PUNCH, OP_TRUNC_COLLAPSE, OP_TRUNC_DUP,
	OP_TRUNC_32 };
int op_trunc(int op, char **arg, char *info);

/* attack_fdpass.c */
enum { OP_FD_SEND, OP_FD_RECV_TRUNC, OP_FD_PASS_OUT, OP_FD_HOLD };
int op_fdpass(int op, char **arg, char *info);

/* attack_race.c */
int op_race(int op, char **arg, char *info);

/* attack_udp.c */
enum { OP_UDP_SENDMSG, OP_UDP_SENDMMSG, OP_UDP_URING_SENDMSG,
	OP_UDP_URING_SEND, OP_UDP_UNSPEC_SENDTO, OP_UDP_NOADDR_SENDTO,
	OP_UDP_NOADDR_BOUND, OP_UDP_SENDFILE_SENDTO, OP_UDP_FD_SENDTO };
int op_udp(int op, char **arg, char *info);

#endif
