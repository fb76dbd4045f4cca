/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fown.h - signals sent through file ownership: SIGIO and SIGURG, or the
 * signal F_SETSIG names (SIGKILL included), to the owner of a file when
 * it becomes ready, when a lease is broken (F_SETLEASE) or a directory
 * changes (F_NOTIFY).  kill(2) to a task outside the domain is refused in
 * task_kill; without this file the same task could be killed by making
 * it the owner of a pipe and writing to it.
 *
 * Judged at delivery, as Landlock does.  Every route that sets an owner
 * (F_SETOWN, F_SETOWN_EX, FIOSETOWN, SIOCSPGRP, and the leases, dnotify,
 * terminals and tun devices that make the caller or its terminal's
 * foreground group the owner) goes through __f_setown(), which calls
 * file_set_fowner in the setter's context: the setter's domain is
 * recorded there (map fown_setter, keyed by the file's address; an
 * unsandboxed setter clears it), and file_send_sigiotask refuses each
 * task the signal would reach that is not of that domain.  A process
 * group is thus judged task by task, and what the owner is does not
 * matter: only who set it.  Nothing is decided on what a task wrote in
 * its own memory, which the kernel reads again after the hook (a second
 * thread can change it in between: issue 33).
 *
 * file_set_fowner cannot refuse, so it must never need room: the fcntl or
 * ioctl that may set an owner reserves the file's entry first (charged to
 * the caller's user) and is refused with ENOSPC (ioctl: EPERM) when there
 * is none; file_set_fowner then writes in place.  An entry goes when its
 * file is freed (file_free_security: a file address is reused only after
 * that), and the program returns after a few instructions and one array
 * load for a file whose hash bucket holds no entry, which is nearly every
 * file closed on the machine.
 *
 * The checks when the owner is configured stay, for an early and clear
 * EPERM, and for what delivery cannot tell (an owner an outside process
 * set, which the sandbox must not re-arm):
 *
 *   - F_SETOWN, F_SETOWN_EX, FIOSETOWN, SIOCSPGRP may name only the
 *     calling thread or its own process (or clear the owner); a process
 *     group or another pid is EPERM.  F_SETOWN's is a register; the
 *     others read user memory, which the kernel reads again, so they are
 *     a courtesy: delivery decides.
 *   - F_SETSIG, F_SETLEASE and F_NOTIFY (which make the caller the owner
 *     only if there is none), F_SETFL with O_ASYNC and FIOASYNC need the
 *     file's owner to be the caller's process or thread; F_SETSIG,
 *     F_SETLEASE and F_NOTIFY also accept a file with no owner yet.
 *     O_ASYNC needs an owner already: on a terminal it would otherwise
 *     make the terminal's foreground process group the owner.  FIOASYNC
 *     is judged so whatever its value, which lives in user memory: turning
 *     it off on a file owned by another is refused too.
 *
 * The owner keeps a reference on its struct pid, so a pid number reused
 * after the owner exits never receives anything.
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

/*
 * Entries are keyed by the file's address as a number.  The verifier
 * allows no arithmetic on a pointer, so a hook takes its file argument
 * as a number with bpf_get_func_arg() (inlined: two loads), and code
 * that has only the pointer reads it back from the stack with a helper
 * (fown_addr()).
 */
static __always_inline __u64 fown_addr(struct file *file)
{
	__u64 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), &file);
	return v;
}

/* Argument @n of the hook, as a number. */
static __always_inline __u64 hook_arg(void *ctx, __u32 n)
{
	__u64 v = 0;

	bpf_get_func_arg(ctx, n, &v);
	return v;
}

/* The address of the file whose owner record is argument @n of the hook
 * (@fown, the same pointer): from 6.12 the record points back at it,
 * before it was embedded in the file. */
static __always_inline __u64 fown_file_addr(void *ctx, __u32 n,
					    struct fown_struct *fown)
{
	if (bpf_core_field_exists(struct fown_struct, file))
		return (__u64)BPF_CORE_READ(fown, file);
	return hook_arg(ctx, n) -
	       bpf_core_field_offset(struct file___fown_embedded, f_owner);
}

/* The counter in fown_buckets of the file at @addr: a multiplicative
 * hash (the low bits are alignment). */
static __always_inline __s64 *fown_bucket(__u64 addr)
{
	__u32 i = (__u32)(((addr >> 4) * 0x9e3779b97f4a7c15ULL) >> 32) %
		  CORRAL_FOWN_BUCKETS;

	return bpf_map_lookup_elem(&fown_buckets, &i);
}

/* The entry of the file at @addr in fown_setter, or NULL; one array load
 * when its bucket is empty. */
static __always_inline struct fown_setter *fown_entry(__u64 addr)
{
	__s64 *bucket = fown_bucket(addr);

	if (!bucket || !*bucket)
		return NULL;
	return bpf_map_lookup_elem(&fown_setter, &addr);
}

/*
 * Makes sure the file at @addr has an entry, charged to the caller's
 * real uid, so that file_set_fowner finds one: 1, or 0 if the user is
 * over its share or the map is full.
 */
static __always_inline int fown_reserve(__u64 addr)
{
	struct fown_setter s = { .uid = (__u32)bpf_get_current_uid_gid() };
	__s64 *n, *bucket;
	__u32 uid = s.uid;
	long err;

	if (fown_entry(addr))
		return 1;
	n = uid_count(&fown_by_uid, &uid);
	if (!n || !charge(n, CORRAL_FOWN_PER_UID))
		return 0;
	bucket = fown_bucket(addr);
	if (!bucket) {
		__sync_fetch_and_add(n, -1);
		return 0;
	}
	/* The bucket first: a file freed is looked up whenever its bucket
	 * may hold it. */
	__sync_fetch_and_add(bucket, 1);
	err = bpf_map_update_elem(&fown_setter, &addr, &s, BPF_NOEXIST);
	if (!err)
		return 1;
	__sync_fetch_and_add(bucket, -1);
	__sync_fetch_and_add(n, -1);
	return err == -EEXIST;  /* another thread of the sandbox made it */
}

/* The file at @addr freed: its entry, if any, goes, and its user's
 * charge. */
static __always_inline void fown_forget(__u64 addr)
{
	struct fown_setter *s = fown_entry(addr);
	__s64 *n, *bucket;
	__u32 uid;

	if (!s)
		return;
	uid = s->uid;
	if (bpf_map_delete_elem(&fown_setter, &addr))
		return;         /* not ours to count down */
	bucket = fown_bucket(addr);
	if (bucket)
		__sync_fetch_and_add(bucket, -1);
	n = bpf_map_lookup_elem(&fown_by_uid, &uid);
	if (n)
		__sync_fetch_and_add(n, -1);
}

static __always_inline int read_user_int(unsigned long arg, int *v)
{
	return bpf_probe_read_user(v, sizeof(*v), (void *)arg);
}

/*
 * May a task of a domain make this ownership change?  1 yes, 0 no.  What
 * F_SETOWN_EX reads here the kernel reads again: a refusal is final, an
 * allow is checked again at delivery.
 */
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

/* The fcntl commands on which the kernel may call __f_setown(). */
static __always_inline int fown_fcntl_may_set(unsigned int cmd,
					      unsigned long arg)
{
	switch (cmd) {
	case F_SETOWN:
	case F_SETOWN_EX:
	case F_SETLEASE:
	case F_NOTIFY:
		return 1;
	case F_SETFL:
		return !!(arg & O_ASYNC);
	default:
		return 0;
	}
}

/*
 * The same for ioctl, and the entry reserved where the kernel may set an
 * owner (one answer for both: fs.bpf.c reports either as EPERM).
 * FIOSETOWN's and SIOCSPGRP's value is a courtesy, as F_SETOWN_EX's;
 * FIOASYNC's is not read at all (see the top of this file).
 */
static __always_inline int fown_ioctl_allowed(struct file *file,
					      unsigned int cmd,
					      unsigned long arg)
{
	int v = 1;

	switch (cmd) {
	case FIOSETOWN:
	case SIOCSPGRP:
		if (read_user_int(arg, &v) || !is_own_pid(v))
			return 0;
		return fown_reserve(fown_addr(file));
	case FIOASYNC:
		return owner_is_own(file, 0) && fown_reserve(fown_addr(file));
	default:
		return 1;
	}
}

#endif /* CORRAL_FOWN_H */
