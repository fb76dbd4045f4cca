/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * escape: the attack attempts of the escape suite, one process,
 * each result reported by errno name, like probe.
 *
 *   escape OP ARGS [+ OP ARGS ...]     prints "<op> <args>: <result>"
 *   escape pty-run CMD [ARGS...]       runs CMD with a new pty as its
 *                                      controlling terminal (stdin, stdout,
 *                                      stderr), copies what CMD writes to
 *                                      stdout, exits with CMD's status
 *
 * A result is OK, an errno name (E<num> if unknown), or for the ops that
 * report what they saw (ids, status, suid-exec, victim) a short value.
 * Exit status 0 whatever the results; 2 on a usage error.
 *
 * The attacks run inside a sandbox as an unprivileged user; the victims
 * and listeners (victim, listen-*) run outside it as the same user.  Static
 * on purpose: a dynamic binary would need the loader and libc allowed.
 *
 * This file is the table of ops and the driver; the ops are in
 * escape_*.c, one file for each kind (escape.h).
 */
#define _GNU_SOURCE
#include "escape.h"
#include "oplist.h"

static const struct op ops[] = {
	{ "read", 1, op_file, OP_READ },
	{ "write", 1, op_file, OP_WRITE },
	{ "touch", 1, op_file, OP_TOUCH },
	{ "link", 2, op_file, OP_LINK },
	{ "rename", 2, op_file, OP_RENAME },
	{ "symlink", 2, op_file, OP_SYMLINK },
	{ "wait-file", 1, op_file, OP_WAIT_FILE },
	{ "ptrace", 1, op_other, OP_PTRACE },
	{ "proc-mem", 1, op_other, OP_PROC_MEM },
	{ "vm-write", 1, op_other, OP_VM_WRITE },
	{ "vm-read", 1, op_other, OP_VM_READ },
	{ "kill", 1, op_other, OP_KILL },
	{ "pidfd-kill", 1, op_other, OP_PIDFD_KILL },
	{ "victim", 2, op_other, OP_VICTIM },
	{ "connect-abstract", 1, op_unix, OP_CONNECT_ABSTRACT },
	{ "send-abstract", 1, op_unix, OP_SEND_ABSTRACT },
	{ "connect-unix", 1, op_unix, OP_CONNECT_UNIX },
	{ "send-unix", 1, op_unix, OP_SEND_UNIX },
	{ "self-abstract", 1, op_unix, OP_SELF_ABSTRACT },
	{ "self-unix", 1, op_unix, OP_SELF_UNIX },
	{ "listen-abstract", 2, op_unix, OP_LISTEN_ABSTRACT },
	{ "listen-unix", 2, op_unix, OP_LISTEN_UNIX },
	{ "tiocsti", 1, op_tty, OP_TIOCSTI },
	{ "tiocsti-new", 0, op_tty, OP_TIOCSTI_NEW },
	{ "bpf-get", 1, op_bpf, OP_BPF_GET },
	{ "bpf-lookup", 1, op_bpf, OP_BPF_LOOKUP },
	{ "bpf-delete", 1, op_bpf, OP_BPF_DELETE },
	{ "mount-tmpfs", 1, op_mount, OP_MOUNT_TMPFS },
	{ "unshare-userns", 0, op_mount, OP_UNSHARE_USERNS },
	{ "ids", 0, op_exec, OP_IDS },
	{ "suid-exec", 1, op_exec, OP_SUID_EXEC },
	{ "memfd-exec", 0, op_exec, OP_MEMFD_EXEC },
	{ "uring-open", 1, op_uring, OP_URING_OPEN },
	{ "uring-open-async", 1, op_uring, OP_URING_OPEN_ASYNC },
	{ "name-to-handle", 1, op_handle, OP_NAME_TO_HANDLE },
	{ "open-by-handle", 1, op_handle, OP_OPEN_BY_HANDLE },
	{ "status", 0, op_status, 0 },
	{ "sleep", 1, op_misc, OP_SLEEP },
	{ "openat-fd", 2, op_misc, OP_OPENAT_FD },
	{ "bind-mount", 2, op_mount, OP_BIND_MOUNT },
};

static const struct opcmd cmds[] = {
	{ "pty-run", 1, pty_run, "pty-run needs a command" },
};

static const struct oplist list =
	OPLIST_CMDS("escape", "       escape pty-run CMD [ARGS...]\n", ops,
		    cmds);

int main(int argc, char **argv)
{
	return oplist_main(&list, argc, argv);
}
