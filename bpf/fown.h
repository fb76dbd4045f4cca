/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fown.h - signals sent through file ownership: SIGIO and SIGURG, or the
 * signal F_SETSIG names (SIGKILL included), to the owner of a file when
 * it becomes ready, when a lease is broken (F_SETLEASE) or a directory
 * changes (F_NOTIFY).  kill(2) to a task outside the domain is refused in
 * task_kill; without this file the same task could be killed by making
 * it the owner of a pipe and writing to it.
 *
 * Landlock remembers who set the owner in the file's security blob and
 * judges at delivery.  BPF has no per-file storage, and a table keyed by
 * file address would need a hook on every file freed on the machine, so
 * corral judges when the ownership is configured instead, which every
 * route does through fcntl(2) or ioctl(2) (native, 32-bit, both hooked)
 * before the kernel acts:
 *
 *   - F_SETOWN, F_SETOWN_EX, FIOSETOWN, SIOCSPGRP may name only the
 *     calling thread or its own process (or clear the owner); a process
 *     group, which may hold tasks of any domain, or another pid is EPERM.
 *   - F_SETSIG, F_SETLEASE and F_NOTIFY (which make the caller the owner
 *     only if there is none), F_SETFL with O_ASYNC and FIOASYNC need the
 *     file's owner to be the caller's process or thread; F_SETSIG,
 *     F_SETLEASE and F_NOTIFY also accept a file with no owner yet.
 *     O_ASYNC needs an owner already: on a terminal it would otherwise
 *     make the terminal's foreground process group the owner.
 *
 * So a file configured inside a domain signals only its own process, and
 * one an outside process owns cannot be retargeted or re-armed from
 * inside.  The owner keeps a reference on its struct pid, so a pid number
 * reused after the owner exits never receives anything.
 */
#ifndef CORRAL_FOWN_H
#define CORRAL_FOWN_H

#define F_SETFL           4
#define F_SETOWN          8
#define F_SETSIG          10
#define F_SETOWN_EX       15
#define F_SETLEASE        1024
#define F_NOTIFY          1026
#define O_ASYNC           020000
#define F_OWNER_TID       0
#define F_OWNER_PID       1
#define F_OWNER_PGRP      2
#define FIOSETOWN         0x8901
#define SIOCSPGRP         0x8902
#define FIOASYNC          0x5452

struct f_owner_ex {
	int type;
	int pid;
};

/* @pid's number as seen from its own (the innermost) namespace. */
static __always_inline int pid_vnr(struct pid *pid)
{
	unsigned int level = BPF_CORE_READ(pid, level);
	int nr = 0;

	bpf_probe_read_kernel(&nr, sizeof(nr),
			      (void *)pid +
			      bpf_core_field_offset(struct pid, numbers) +
			      (__u64)(level & 63) *
			      bpf_core_type_size(struct upid));
	return nr;
}

/* @nr names the caller's thread or process (in its own pid namespace,
 * as fcntl reads it); 0 clears the owner. */
static __always_inline int is_own_pid(int nr)
{
	struct task_struct *task = bpf_get_current_task_btf();

	return nr == 0 ||
	       nr == pid_vnr(BPF_CORE_READ(task, thread_pid)) ||
	       nr == pid_vnr(BPF_CORE_READ(task, group_leader, thread_pid));
}

/* The file's owner record, wherever this kernel keeps it (or NULL). */
static __always_inline struct fown_struct *file_owner(struct file *file)
{
	if (bpf_core_field_exists(struct fown_struct, file))
		return BPF_CORE_READ(file, f_owner);
	return (void *)file +
	       bpf_core_field_offset(struct file___fown_embedded, f_owner);
}

/* 1: the owner is the caller's thread or process; 0: another, or none
 * and @none_ok is 0. */
static __always_inline int owner_is_own(struct file *file, int none_ok)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct fown_struct *fown = file_owner(file);
	struct pid *pid = fown ? BPF_CORE_READ(fown, pid) : NULL;

	if (!pid)
		return none_ok;
	if (BPF_CORE_READ(fown, pid_type) >= PIDTYPE_PGID)
		return 0;
	return pid == BPF_CORE_READ(task, thread_pid) ||
	       pid == BPF_CORE_READ(task, group_leader, thread_pid);
}

static __always_inline int read_user_int(unsigned long arg, int *v)
{
	return bpf_probe_read_user(v, sizeof(*v), (void *)arg);
}

/* May a task of a domain make this ownership change?  1 yes, 0 no. */
static __always_inline int fown_fcntl_allowed(struct file *file,
					      unsigned int cmd,
					      unsigned long arg)
{
	struct f_owner_ex ex;

	switch (cmd) {
	case F_SETOWN:
		return is_own_pid((int)arg);
	case F_SETOWN_EX:
		if (bpf_probe_read_user(&ex, sizeof(ex), (void *)arg))
			return 0;
		if (ex.type == F_OWNER_PGRP)
			return ex.pid == 0;
		return is_own_pid(ex.pid);
	case F_SETSIG:
	case F_SETLEASE:
	case F_NOTIFY:
		return owner_is_own(file, 1);
	case F_SETFL:
		return !(arg & O_ASYNC) || owner_is_own(file, 0);
	default:
		return 1;
	}
}

static __always_inline int fown_ioctl_allowed(struct file *file,
					      unsigned int cmd,
					      unsigned long arg)
{
	int v = 1;

	switch (cmd) {
	case FIOSETOWN:
	case SIOCSPGRP:
		return !read_user_int(arg, &v) && is_own_pid(v);
	case FIOASYNC:
		if (read_user_int(arg, &v))
			return 0;
		return !v || owner_is_own(file, 0);
	default:
		return 1;
	}
}

#endif /* CORRAL_FOWN_H */
