// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ipc.bpf.c - between tasks and sockets: ptrace, signals, another
 * task's limits and priority, and SysV IPC objects only within the
 * domain (kill(2) here, signals through file ownership in fown.h), no
 * bpf(2) at all, and unix sockets scoped to the domain that made them or
 * judged by their path.
 */
#include "hooks.h"
#include "fown.h"


/*
 * Beyond Landlock's filesystem rules: a sandboxed task may ptrace, read
 * the memory of, or signal only tasks of its own domain, and may not use
 * bpf(2) at all (corral's own maps are the first thing to protect).
 */
static __always_inline int same_domain(struct corral_task *t,
				       struct task_struct *other)
{
	struct corral_task obuf;
	struct corral_task *o = task_dom_of(other, &obuf);

	return o && o->domain == t->domain;
}

/* EPERM, reported as @hook, if the current task is sandboxed and @other
 * is not of its domain. */
static __always_inline int own_domain_only(struct task_struct *other,
					   __u32 hook)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t = task_dom(&tbuf);

	if (!t || same_domain(t, other))
		return 0;
	return report(t, NULL, NULL, 0, hook, -EPERM);
}

SEC("lsm/ptrace_access_check")
int BPF_PROG(corral_ptrace_access_check, struct task_struct *child,
	     unsigned int mode, int ret)
{
	return ret ? ret : own_domain_only(child, CORRAL_HOOK_PTRACE);
}

/* PTRACE_TRACEME: the parent becomes the tracer; it must not be outside
 * looking in from another domain, nor a sandbox reaching out. */
SEC("lsm/ptrace_traceme")
int BPF_PROG(corral_ptrace_traceme, struct task_struct *parent, int ret)
{
	struct corral_task tbuf, pbuf;  /* see task_dom_of() */
	struct corral_task *tracer, *t;

	if (ret)
		return ret;
	tracer = task_dom_of(parent, &pbuf);
	if (!tracer)
		return 0;
	t = task_dom(&tbuf);
	return t && t->domain == tracer->domain ? 0 : -EPERM;
}

SEC("lsm/task_kill")
int BPF_PROG(corral_task_kill, struct task_struct *p, void *info, int sig,
	     const struct cred *cred, int ret)
{
	return ret ? ret : own_domain_only(p, CORRAL_HOOK_SIGNAL);
}

/*
 * Another task's resource limits, nice value, I/O priority, scheduling
 * (policy or CPU affinity) and memory placement: only within the domain.
 * A sandbox that could prlimit(2) an outside process of its user could
 * kill it without a signal of its own (RLIMIT_CPU's hard limit ends in
 * SIGKILL, RLIMIT_FSIZE in SIGXFSZ) or starve it (RLIMIT_NOFILE of 0).
 * A task changing its own settings is of its own domain.
 */
SEC("lsm/task_setrlimit")
int BPF_PROG(corral_task_setrlimit, struct task_struct *p,
	     unsigned int resource, void *new_rlim, int ret)
{
	return ret ? ret : own_domain_only(p, CORRAL_HOOK_LIMITS);
}

SEC("lsm/task_setnice")
int BPF_PROG(corral_task_setnice, struct task_struct *p, int nice, int ret)
{
	return ret ? ret : own_domain_only(p, CORRAL_HOOK_LIMITS);
}

SEC("lsm/task_setioprio")
int BPF_PROG(corral_task_setioprio, struct task_struct *p, int ioprio,
	     int ret)
{
	return ret ? ret : own_domain_only(p, CORRAL_HOOK_LIMITS);
}

SEC("lsm/task_setscheduler")
int BPF_PROG(corral_task_setscheduler, struct task_struct *p, int ret)
{
	return ret ? ret : own_domain_only(p, CORRAL_HOOK_LIMITS);
}

SEC("lsm/task_movememory")
int BPF_PROG(corral_task_movememory, struct task_struct *p, int ret)
{
	return ret ? ret : own_domain_only(p, CORRAL_HOOK_LIMITS);
}

/*
 * SysV IPC: a sandbox uses only the objects its domain made (ipc_owner in
 * maps.h).  ipc_permission runs for every use that the object's mode
 * governs (shmget of an existing key, shmat, msgsnd, msgrcv, semop,
 * IPC_STAT); the *ctl hooks for what the owner may do without it
 * (IPC_RMID, IPC_SET, SHM_LOCK, SHM_STAT_ANY).  A NULL object is a
 * system-wide query (IPC_INFO), which names none.
 */
static __always_inline int own_ipc_only(struct kern_ipc_perm *perm, int err)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t = task_dom(&tbuf);
	__u64 key = (__u64)perm;  /* 6.1: a map key must be on the stack */
	__u64 *owner;

	if (!t || !perm)
		return 0;
	owner = bpf_map_lookup_elem(&ipc_owner, &key);
	if (owner && *owner == t->domain)
		return 0;
	return report(t, NULL, NULL, 0, CORRAL_HOOK_IPC, err);
}

/* An object made inside a domain: charged to it, remembered as its own. */
static __always_inline int ipc_made(struct kern_ipc_perm *perm)
{
	struct corral_task tbuf;
	struct corral_task *t = task_dom(&tbuf);
	struct corral_domain *dom;
	__u64 key = (__u64)perm, domain;

	if (!t)
		return 0;
	domain = t->domain;
	dom = bpf_map_lookup_elem(&domains, &domain);
	if (!dom || !charge(&dom->ipc_objects, CORRAL_IPC_PER_DOMAIN))
		return report(t, NULL, NULL, 0, CORRAL_HOOK_IPC, -ENOSPC);
	if (bpf_map_update_elem(&ipc_owner, &key, &domain, BPF_ANY)) {
		__sync_fetch_and_add(&dom->ipc_objects, -1);
		return report(t, NULL, NULL, 0, CORRAL_HOOK_IPC, -ENOSPC);
	}
	return 0;
}

/* Any object freed (in any context, RCU callbacks included). */
static __always_inline void ipc_freed(struct kern_ipc_perm *perm)
{
	struct corral_domain *dom;
	__u64 key = (__u64)perm, domain;
	__u64 *owner = bpf_map_lookup_elem(&ipc_owner, &key);

	if (!owner)
		return;
	domain = *owner;
	bpf_map_delete_elem(&ipc_owner, &key);
	dom = bpf_map_lookup_elem(&domains, &domain);
	if (dom)
		__sync_fetch_and_add(&dom->ipc_objects, -1);
}

SEC("lsm/ipc_permission")
int BPF_PROG(corral_ipc_permission, struct kern_ipc_perm *perm, short flag,
	     int ret)
{
	return ret ? ret : own_ipc_only(perm, -EACCES);
}

/*
 * Each check comes in three hooks of one signature, one a kind of object
 * (shm, msg_queue, sem): one program each, the same body.
 */
#define IPC_CTL_HOOK(hook)						\
SEC("lsm/" #hook)							\
int BPF_PROG(corral_##hook, struct kern_ipc_perm *perm, int cmd, int ret) \
{									\
	return ret ? ret : own_ipc_only(perm, -EPERM);			\
}
#define IPC_ALLOC_HOOK(hook)						\
SEC("lsm/" #hook)							\
int BPF_PROG(corral_##hook, struct kern_ipc_perm *perm, int ret)	\
{									\
	return ret ? ret : ipc_made(perm);				\
}
#define IPC_FREE_HOOK(hook)						\
SEC("lsm/" #hook)							\
int BPF_PROG(corral_##hook, struct kern_ipc_perm *perm)			\
{									\
	ipc_freed(perm);						\
	return 0;							\
}

IPC_CTL_HOOK(shm_shmctl)
IPC_CTL_HOOK(msg_queue_msgctl)
IPC_CTL_HOOK(sem_semctl)
IPC_ALLOC_HOOK(shm_alloc_security)
IPC_ALLOC_HOOK(msg_queue_alloc_security)
IPC_ALLOC_HOOK(sem_alloc_security)
IPC_FREE_HOOK(shm_free_security)
IPC_FREE_HOOK(msg_queue_free_security)
IPC_FREE_HOOK(sem_free_security)

/* The hook's arguments changed across kernels; only the verdict matters. */
SEC("lsm/bpf")
int BPF_PROG(corral_bpf)
{
	return deny_in_domain(CORRAL_HOOK_BPF);
}

/*
 * Unix sockets made in a domain remember it (abstract-socket scoping), in
 * the socket's own storage (maps.h: nothing shared to fill).  socketpair
 * comes here for both ends.  The socket a listener gets from accept is
 * never connected to, so it needs no owner.
 */
SEC("lsm/socket_post_create")
int BPF_PROG(corral_socket_post_create, struct socket *sock, int family,
	     int type, int protocol, int kern, int ret)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t;
	struct sock *sk = sock->sk;
	__u64 *owner;

	if (ret)
		return ret;
	t = task_dom(&tbuf);
	if (!t || family != AF_UNIX || kern)
		return 0;
	if (!sk)
		return -ENOMEM;
	owner = bpf_sk_storage_get(&unix_owner, sk, 0,
				   BPF_SK_STORAGE_GET_F_CREATE);
	if (!owner)
		return -ENOMEM;         /* cannot scope it: no socket */
	*owner = t->domain;
	return 0;
}

/*
 * Connecting (or sending) to a unix socket made in the same domain is
 * allowed.  Otherwise an abstract one is refused (as Landlock ABI 6
 * scopes them), and a named one needs its own right on the socket file,
 * connect-unix, which no group of rights holds: a directory the sandbox
 * may write (a shared /tmp) does not hand it the servers bound there
 * (tmux, ssh-agent, X11, D-Bus).  Landlock ABI 9's RESOLVE_UNIX, which
 * also lets a domain reach the servers it made itself.
 */
static __always_inline int check_unix_peer(struct sock *other)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t = task_dom(&tbuf);
	struct unix_sock *us;
	struct unix_address *addr;
	__u64 *owner;
	char first = 1;
	int len;
	long granted;

	if (!t || !other || (t->flags & CORRAL_TASK_UNIX_ANY))
		return 0;
	us = bpf_skc_to_unix_sock(other);
	if (!us)
		return report(t, NULL, NULL, 0, CORRAL_HOOK_CONNECT, -EPERM);
	addr = us->addr;
	if (!addr)
		return 0;       /* unbound peer: nothing to reach by name */
	owner = bpf_sk_storage_get(&unix_owner, other, 0, 0);
	if (owner && *owner == t->domain)
		return 0;
	len = BPF_CORE_READ(addr, len);
	bpf_probe_read_kernel(&first, 1, &addr->name[0].sun_path[0]);
	if (len > (int)sizeof(unsigned short) && first == 0)
		return report(t, NULL, NULL, 0, CORRAL_HOOK_CONNECT, -EPERM);
	if (!us->path.dentry)
		return 0;
	granted = object_granted(t, &us->path);
	if (covers(granted, CORRAL_ACCESS_CONNECT_UNIX))
		return 0;
	return report(t, us->path.mnt, us->path.dentry,
		      CORRAL_ACCESS_CONNECT_UNIX, CORRAL_HOOK_CONNECT, -EACCES);
}

SEC("lsm/unix_stream_connect")
int BPF_PROG(corral_unix_stream_connect, struct sock *sock, struct sock *other,
	     struct sock *newsk, int ret)
{
	return ret ? ret : check_unix_peer(other);
}

SEC("lsm/unix_may_send")
int BPF_PROG(corral_unix_may_send, struct socket *sock, struct socket *other,
	     int ret)
{
	return ret ? ret : check_unix_peer(other->sk);
}

/*
 * Signals through file ownership (fown.h): configured only toward the
 * caller itself, the setter's domain recorded, judged at delivery.
 */
SEC("lsm/file_fcntl")
int BPF_PROG(corral_file_fcntl, struct file *file, unsigned int cmd,
	     unsigned long arg, int ret)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t;

	if (ret)
		return ret;
	t = task_dom(&tbuf);
	if (!t)
		return 0;
	if (!fown_fcntl_allowed(file, cmd, arg))
		return report(t, NULL, NULL, 0, CORRAL_HOOK_SIGNAL, -EPERM);
	if (fown_fcntl_may_set(cmd, arg) && !fown_reserve(hook_arg(ctx, 0)))
		return report(t, NULL, NULL, 0, CORRAL_HOOK_SIGNAL, -ENOSPC);
	return 0;
}

/*
 * In the setter's context, on every route (__f_setown), before the owner
 * changes or under its lock (from 6.12, and 6.1.y with the backport, only
 * when a non-NULL owner is set).  Cannot refuse: the entry was reserved
 * by file_fcntl or file_ioctl; a route that reserved none gets one here
 * if there is room.
 */
SEC("lsm/file_set_fowner")
int BPF_PROG(corral_file_set_fowner, struct file *file)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t = task_dom(&tbuf);
	__u64 addr = hook_arg(ctx, 0);
	struct fown_setter *s = fown_entry(addr);

	if (!t) {
		if (s)
			s->domain = 0;  /* an outside setter takes it back */
		return 0;
	}
	if (!s && fown_reserve(addr))
		s = fown_entry(addr);
	if (s)
		s->domain = t->domain;
	return 0;
}

/* At delivery, for each task the signal would reach (in any context). */
SEC("lsm/file_send_sigiotask")
int BPF_PROG(corral_file_send_sigiotask, struct task_struct *tsk,
	     struct fown_struct *fown, int sig, int ret)
{
	struct corral_task obuf;  /* see task_dom_of() */
	struct corral_task *o;
	struct fown_setter *s;
	__u64 domain;

	if (ret)
		return ret;
	s = fown_entry(fown_file_addr(ctx, 1, fown));
	if (!s)
		return 0;
	domain = s->domain;
	if (!domain)
		return 0;
	o = task_dom_of(tsk, &obuf);
	return o && o->domain == domain ? 0 : -EPERM;
}

/* Every file freed on the machine: one array load unless the file's
 * bucket holds an entry. */
SEC("lsm/file_free_security")
int BPF_PROG(corral_file_free_security, struct file *file)
{
	fown_forget(hook_arg(ctx, 0));
	return 0;
}
