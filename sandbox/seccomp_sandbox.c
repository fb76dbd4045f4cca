// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seccomp_sandbox.c - the sandbox's filter: system calls no sandboxed
 * command needs and an escape would.
 *
 * A deny list, not an allow list: the command is arbitrary software.
 * libseccomp resolves names for the build's architecture; a system call
 * of another ABI (i386, x32) fails the filter's architecture check and
 * kills the process, so a 32-bit entry point cannot dodge the list.
 *
 * Used at build time only: seccomp-gen turns this into BPF once, and
 * corral loads the result (seccomp_load.c).
 */
#include "config.h"

#include "seccomp_rules.h"

#include <errno.h>
#include <sched.h>

/* <linux/mount.h> clashes with glibc 2.36's <sys/mount.h> */
#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1
#endif
#include <seccomp.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/resource.h>

#include "util.h"

static const char *const denied[] = {
	/* replace the running kernel, load or unload kernel code */
	"kexec_load", "kexec_file_load", "init_module", "finit_module",
	"delete_module",
	/* the kernel keyring is shared outside the sandbox */
	"add_key", "request_key", "keyctl",
	/* opens files by handle, bypassing path checks; and what is only
	 * useful with it */
	"open_by_handle_at", "name_to_handle_at",
	/* observes other processes and the kernel */
	"perf_event_open",
	/* stalls kernel code paths: a race-widening tool */
	"userfaultfd",
	/* corral's own maps and programs (also refused in BPF) */
	"bpf",
	/* writes process accounting to a path of its choosing */
	"acct",
	/* system administration (quotactl: filesystem-wide) */
	"quotactl", "swapon", "swapoff", "reboot",
	/* reads the kernel log; kernel internals */
	"syslog", "lookup_dcookie",
	/* raw port I/O; legacy mode switching */
	"iopl", "ioperm", "vm86", "vm86old",
	/* loads a library bypassing exec checks */
	"uselib",
	/* the mount API beside mount(2), which every engine refuses: a
	 * detached mount (fsmount, open_tree's clones, below) is a tree whose
	 * walk to the root stops short of the rules above it, and an overlay
	 * made with fsopen copies files up between its layers */
	"fsopen", "fsconfig", "fsmount", "fspick", "move_mount",
	"mount_setattr",
};

/*
 * Terminal ioctls that push input into another process's terminal: the
 * classic escape of a sandbox sharing the user's tty.
 */
static const unsigned long denied_ioctls[] = {
	TIOCSTI,                /* fake input on the controlling terminal */
	TIOCLINUX,              /* virtual console: pastes selections too */
};

static int rule_by_name(scmp_filter_ctx ctx, uint32_t action,
			const char *name)
{
	int nr = seccomp_syscall_resolve_name(name);
	int r;

	if (nr == __NR_SCMP_ERROR)
		return 0;       /* not on this architecture */
	r = seccomp_rule_add(ctx, action, nr, 0);
	if (r < 0)
		return error_errno(r, "seccomp: adding a rule for %s", name);
	return 0;
}

/*
 * personality(2) flags that weaken the command's own hardening.  Queries
 * (0xffffffff) and plain PER_LINUX stay allowed, as runtimes use them: a
 * flag is refused only when bit 31 is clear, which no query has.
 */
static const unsigned long denied_persona_flags[] = {
	0x0400000,              /* READ_IMPLIES_EXEC */
	0x0040000,              /* ADDR_NO_RANDOMIZE */
	0x0200000,              /* ADDR_COMPAT_LAYOUT */
	0x0100000,              /* MMAP_PAGE_ZERO */
};

static int deny_personality_changes(scmp_filter_ctx ctx)
{
	for (size_t i = 0; i < sizeof(denied_persona_flags) /
			       sizeof(*denied_persona_flags); i++) {
		unsigned long flag = denied_persona_flags[i];
		int r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM),
					 SCMP_SYS(personality), 1,
					 SCMP_A0(SCMP_CMP_MASKED_EQ,
						 flag | 0x80000000ul, flag));

		if (r < 0)
			return error_errno(r, "seccomp: denying personality "
					   "flag 0x%lx", flag);
	}
	return 0;
}

/*
 * The checks sorted into a binary tree: the kernel emulates a new filter
 * once per system call number when it is loaded (its action cache), and
 * down a linear list of 40-odd checks that was a measurable part of a
 * launch, twice (tests/bench/RESULTS.md).
 */
static scmp_filter_ctx filter_new(uint32_t def_action)
{
	scmp_filter_ctx ctx = seccomp_init(def_action);
	int r;

	if (!ctx) {
		error_errno(-ENOMEM, "seccomp: creating the filter");
		return NULL;
	}
	r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	if (r < 0) {
		error_errno(r, "seccomp: asking for a binary tree");
		seccomp_release(ctx);
		return NULL;
	}
	return ctx;
}

/* @ctx if the rules added to it gave @r == 0, else NULL (released) */
static scmp_filter_ctx filter_done(scmp_filter_ctx ctx, int r)
{
	if (!r)
		return ctx;
	seccomp_release(ctx);
	return NULL;
}

/* The command is an int in the kernel: compare the low 32 bits. */
static int rule_ioctl(scmp_filter_ctx ctx, uint32_t action,
		      unsigned long cmd)
{
	int r = seccomp_rule_add(ctx, action, SCMP_SYS(ioctl), 1,
				 SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu,
					 cmd));

	if (r < 0)
		return error_errno(r, "seccomp: adding a rule for ioctl 0x%lx",
				   cmd);
	return 0;
}

scmp_filter_ctx seccomp_filter_list(uint32_t def_action, uint32_t action,
				    const char *const *names, size_t n_names,
				    const unsigned long *cmds, size_t n_cmds)
{
	scmp_filter_ctx ctx = filter_new(def_action);
	int r = 0;

	if (!ctx)
		return NULL;
	for (size_t i = 0; !r && i < n_names; i++)
		r = rule_by_name(ctx, action, names[i]);
	for (size_t i = 0; !r && i < n_cmds; i++)
		r = rule_ioctl(ctx, action, cmds[i]);
	return filter_done(ctx, r);
}

/*
 * No user namespace, where the Landlock engine runs (the bpf engine
 * refuses it in its userns_create hook, and keeps clone3): clone and
 * unshare are refused with CLONE_NEWUSER in their flags, which are
 * registers, and clone3, whose flags are in memory a filter cannot read,
 * answers ENOSYS, so that the C library falls back to clone.
 */
scmp_filter_ctx seccomp_userns_filter(void)
{
	scmp_filter_ctx ctx = filter_new(SCMP_ACT_ALLOW);
	int r;

	if (!ctx)
		return NULL;
	r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(unshare), 1,
			     SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER,
				     CLONE_NEWUSER));
	if (!r)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM),
				     SCMP_SYS(clone), 1,
				     SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER,
					     CLONE_NEWUSER));
	if (!r)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
				     SCMP_SYS(clone3), 0);
	if (r < 0)
		error_errno(r, "seccomp: refusing new user namespaces");
	return filter_done(ctx, r);
}

/*
 * Other processes' limits, nice value, I/O priority, scheduling and
 * memory placement, where the Landlock engine runs (the bpf engine's
 * task_setrlimit, task_setnice, task_setioprio, task_setscheduler and
 * task_movememory hooks allow them within the sandbox): a process may
 * name only itself, as 0, whatever the call (EPERM, the hooks' answer).
 * The filter is built before any pid is known, so a process naming
 * itself or its own thread by its id, or a child of its own, is refused
 * too (pthread_setaffinity_np and pthread_setschedparam pass a thread
 * id); reading another's limits (prlimit without a new one) is allowed,
 * as the hooks do.
 */
static const struct {
	const char *name;
	unsigned arg;           /* the pid or who */
	int which_arg;          /* -1, or the argument that must be... */
	unsigned which;         /* ...this (the process itself, not a group
				   or a user) */
} task_calls[] = {
	{ "sched_setaffinity", 0, -1, 0 },
	{ "sched_setscheduler", 0, -1, 0 },
	{ "sched_setparam", 0, -1, 0 },
	{ "sched_setattr", 0, -1, 0 },
	{ "migrate_pages", 0, -1, 0 },
	{ "move_pages", 0, -1, 0 },
	{ "setpriority", 1, 0, PRIO_PROCESS },
	{ "ioprio_set", 1, 0, 1 /* IOPRIO_WHO_PROCESS */ },
};

static int refuse_other_tasks(scmp_filter_ctx ctx)
{
	int r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM),
				 SCMP_SYS(prlimit64), 2,
				 SCMP_A0(SCMP_CMP_NE, 0),
				 SCMP_A2(SCMP_CMP_NE, 0));

	for (size_t i = 0; !r && i < sizeof(task_calls) /
				      sizeof(*task_calls); i++) {
		int nr = seccomp_syscall_resolve_name(task_calls[i].name);
		struct scmp_arg_cmp pid = { task_calls[i].arg, SCMP_CMP_NE,
					    0, 0 };
		struct scmp_arg_cmp which = { (unsigned)task_calls[i].which_arg,
					      SCMP_CMP_NE, task_calls[i].which,
					      0 };

		if (nr == __NR_SCMP_ERROR)
			continue;       /* not on this architecture */
		r = seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EPERM), nr, 1,
					   &pid);
		if (!r && task_calls[i].which_arg >= 0)
			r = seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EPERM),
						   nr, 1, &which);
	}
	if (r < 0)
		return error_errno(r, "seccomp: refusing other processes' "
				   "limits and scheduling");
	return 0;
}

/*
 * SysV IPC, whose objects are shared by every process of the IPC
 * namespace: Landlock cannot tell the sandbox's own from another
 * process's (the bpf engine's ipc hooks do), so without sysv-ipc = yes
 * the Landlock engine refuses every call (EPERM), its own objects'
 * included.  The ipc multiplexer is where an architecture has one
 * (i386); libseccomp ignores a name the architecture lacks.
 */
static const char *const sysv_ipc_calls[] = {
	"shmget", "shmat", "shmctl", "shmdt",
	"msgget", "msgsnd", "msgrcv", "msgctl",
	"semget", "semop", "semtimedop", "semtimedop_time64", "semctl",
	"ipc",
};

static int refuse_sysv_ipc(scmp_filter_ctx ctx)
{
	int r = 0;

	for (size_t i = 0; !r && i < sizeof(sysv_ipc_calls) /
				      sizeof(*sysv_ipc_calls); i++)
		r = rule_by_name(ctx, SCMP_ACT_ERRNO(EPERM), sysv_ipc_calls[i]);
	return r;
}

/* What the Landlock engine cannot scope, decided by arguments alone. */
scmp_filter_ctx seccomp_landlock_filter(enum seccomp_ipc ipc)
{
	scmp_filter_ctx ctx = filter_new(SCMP_ACT_ALLOW);
	int r;

	if (!ctx)
		return NULL;
	r = refuse_other_tasks(ctx);
	if (!r && ipc == SECCOMP_IPC_REFUSED)
		r = refuse_sysv_ipc(ctx);
	return filter_done(ctx, r);
}

/*
 * Executing a memfd: Landlock allows every access to a file on an
 * internal mount, and no argument of execve or execveat tells a memfd
 * apart (execve of /proc/self/fd/N), so the Landlock engine without
 * exec-anonymous = yes refuses to make one that could be executed:
 * memfd_create without MFD_NOEXEC_SEAL (6.3+), or with MFD_EXEC, is
 * ENOSYS, what a kernel without memfd_create answers, so programs take
 * the fallback they have for one (a file in /dev/shm or $TMPDIR, whose
 * exec Landlock judges by path).  Below 6.3 that leaves no memfd at all.
 */
#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif
#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008U
#endif

scmp_filter_ctx seccomp_anon_exec_filter(void)
{
	static const uint64_t executable[] = {
		0, MFD_EXEC, MFD_EXEC | MFD_NOEXEC_SEAL,
	};
	scmp_filter_ctx ctx = filter_new(SCMP_ACT_ALLOW);
	int r = 0;

	if (!ctx)
		return NULL;
	for (size_t i = 0; !r && i < sizeof(executable) /
				      sizeof(*executable); i++)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
				     SCMP_SYS(memfd_create), 1,
				     SCMP_A1(SCMP_CMP_MASKED_EQ,
					     MFD_EXEC | MFD_NOEXEC_SEAL,
					     executable[i]));
	if (r < 0)
		error_errno(r, "seccomp: refusing executable memfds");
	return filter_done(ctx, r);
}

/* open_tree(2) may open a path (what O_PATH does), not clone a tree. */
static int deny_tree_clones(scmp_filter_ctx ctx)
{
	int r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM),
				 SCMP_SYS(open_tree), 1,
				 SCMP_A2(SCMP_CMP_MASKED_EQ, OPEN_TREE_CLONE,
					 OPEN_TREE_CLONE));

	if (r < 0)
		return error_errno(r, "seccomp: denying open_tree clones");
	return 0;
}

scmp_filter_ctx seccomp_sandbox_filter(void)
{
	scmp_filter_ctx ctx;
	int r;

	ctx = seccomp_filter_list(SCMP_ACT_ALLOW, SCMP_ACT_ERRNO(EPERM),
				  denied, sizeof(denied) / sizeof(*denied),
				  denied_ioctls, sizeof(denied_ioctls) /
						 sizeof(*denied_ioctls));
	if (!ctx)
		return NULL;
	r = deny_personality_changes(ctx);
	if (!r)
		r = deny_tree_clones(ctx);
	return filter_done(ctx, r);
}
