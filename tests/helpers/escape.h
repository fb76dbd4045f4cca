/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * escape.h - what the files of the escape helper share: the op functions
 * escape.ops names, grouped by file and declared with oplist.h's op_fn
 * (their one signature).  The OP_ kinds each tells apart are made from
 * escape.ops by the build (escape-ops.h, gen-ops.sh).
 */
#ifndef CORRAL_HELPERS_ESCAPE_H
#define CORRAL_HELPERS_ESCAPE_H

#include "escape-ops.h"
#include "oplist.h"

/* escape_files.c */
op_fn op_file, op_uring, op_handle, op_misc;

/* escape_procs.c */
op_fn op_other, op_limits;

/* escape_ipc.c */
op_fn op_ipc;

/* escape_unix.c */
op_fn op_unix;

/* escape_tty.c */
op_fn op_tty;
/* escape pty-run CMD [ARGS...]: @argv is CMD */
int pty_run(char **argv);

/* escape_bpf.c */
op_fn op_bpf;

/* escape_privs.c */
op_fn op_mount, op_exec, op_core, op_key, op_status;

/* escape_overlay.c */
op_fn op_overlay;

#endif
