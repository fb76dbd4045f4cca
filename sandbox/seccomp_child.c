// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seccomp_child.c - the allowlist of the profile parser child.
 *
 * Unlike the sandbox's deny list, this one knows exactly what it runs:
 * reading files, allocating memory, writing messages, sending one
 * message with fds.  Any other system call kills the child (and the
 * launcher then refuses to go on), so a hostile profile that took the
 * parser over can do nothing the user could not, and not even that
 * beyond opening files.
 *
 * Used at build time only, like seccomp_sandbox.c.
 */
#include "config.h"

#include "seccomp_rules.h"

#include <errno.h>
#include <seccomp.h>
#include <stddef.h>
#include <sys/ioctl.h>

#include "util.h"

static const char *const allowed[] = {
	/* reading profiles, listing profile directories, opening rules */
	"read", "pread64", "readv", "openat", "open", "close", "lseek",
	"fstat", "newfstatat", "stat", "lstat", "statx", "getdents64",
	"readlink", "readlinkat", "access", "faccessat", "faccessat2",
	"fcntl",
	/* messages on stdout and stderr */
	"write", "writev",
	/* malloc; qsort asks for the memory size */
	"brk", "mmap", "munmap", "mremap", "sysinfo",
	/* the private TMPDIR (private_tmp.c): make it and lock it; remove
	 * those of sandboxes gone */
	"mkdirat", "fchmod", "flock", "unlinkat",
	/* identity, for messages and the DAC check on rules */
	"getuid", "geteuid", "getgid", "getegid", "getpid",
	/* the one message to the launcher; with --log, the rules' names
	 * in a sealed memfd (log_rules.c) */
	"sendmsg", "memfd_create",
	/* leaving */
	"exit", "exit_group", "rt_sigreturn",
};

/* stdio asks whether stdout is a terminal (TCGETS); nothing else. */
static const unsigned long allowed_ioctls[] = { TCGETS };

scmp_filter_ctx seccomp_child_filter(void)
{
	return seccomp_filter_list(SCMP_ACT_KILL_PROCESS, SCMP_ACT_ALLOW,
				   allowed, sizeof(allowed) / sizeof(*allowed),
				   allowed_ioctls, sizeof(allowed_ioctls) /
						   sizeof(*allowed_ioctls));
}
