/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * escape.h - what the files of the escape helper share: the ops its
 * table (escape.c) runs, grouped by file, and the operations each op
 * function tells apart.
 */
#ifndef CORRAL_HELPERS_ESCAPE_H
#define CORRAL_HELPERS_ESCAPE_H

/* escape_files.c */
enum { OP_READ, OP_WRITE, OP_LINK, OP_RENAME, OP_SYMLINK, OP_TOUCH,
	OP_WAIT_FILE };
int op_file(int op, char **arg, char *info);
enum { OP_URING_OPEN, OP_URING_OPEN_ASYNC };
int op_uring(int op, char **arg, char *info);
enum { OP_NAME_TO_HANDLE, OP_OPEN_BY_HANDLE };
int op_handle(int op, char **arg, char *info);
enum { OP_SLEEP, OP_OPENAT_FD };
int op_misc(int op, char **arg, char *info);

/* escape_procs.c */
enum { OP_PTRACE, OP_PROC_MEM, OP_VM_WRITE, OP_VM_READ, OP_KILL,
	OP_PIDFD_KILL, OP_VICTIM };
int op_other(int op, char **arg, char *info);

/* escape_unix.c */
enum { OP_CONNECT_ABSTRACT, OP_SEND_ABSTRACT, OP_CONNECT_UNIX, OP_SEND_UNIX,
	OP_LISTEN_ABSTRACT, OP_LISTEN_UNIX, OP_SELF_ABSTRACT, OP_SELF_UNIX };
int op_unix(int op, char **arg, char *info);

/* escape_tty.c */
enum { OP_TIOCSTI, OP_TIOCSTI_NEW };
int op_tty(int op, char **arg, char *info);
/* escape pty-run CMD [ARGS...]: @argv is CMD */
int pty_run(char **argv);

/* escape_bpf.c */
enum { OP_BPF_GET, OP_BPF_LOOKUP, OP_BPF_DELETE };
int op_bpf(int op, char **arg, char *info);

/* escape_privs.c */
enum { OP_MOUNT_TMPFS, OP_UNSHARE_USERNS, OP_BIND_MOUNT };
int op_mount(int op, char **arg, char *info);
enum { OP_IDS, OP_SUID_EXEC, OP_MEMFD_EXEC };
int op_exec(int op, char **arg, char *info);
int op_status(int op, char **arg, char *info);

#endif
