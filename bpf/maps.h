/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * maps.h - every map of corral's BPF programs, one per concern.  Keys and
 * values shared with the launcher are defined in corral_abi.h.
 *
 * Who can fill each map, and who pays when it is full.  No sandboxed
 * task can write a map itself (bpf(2) is refused in a domain); it can
 * only make the programs add entries for it.
 *
 *   task_domain, task_register  task storage: part of each task, no
 *       global bound.  A failed allocation refuses that sandbox's fork.
 *   rules, domain_rules, rules_by_uid  65,536, global, charged per
 *       user.  Written only by launchers, before exec: a sandbox adds
 *       nothing.  Each new rule is charged to the user who launched its
 *       domain, at most rules_per_uid (a quarter of the map: it takes
 *       four users holding their whole share to fill it), and given back
 *       when the domain dies.  A launcher killed at any point leaves
 *       nothing (task_free, launcher_died).  A user past its share gets
 *       "your sandboxes hold N rules, your share", exit 125, and never
 *       runs unconfined; a full map (four users at their share) gets
 *       "the rules map is full", the same way.
 *   domains, domain_nrules, net_policy  4,096, one entry per domain, the
 *       same as rules: launchers only, reclaimed when the last task (or
 *       the launcher that never entered) goes.
 *   open_denied, denied_creds_by_uid  charged per domain and per user
 *       (see below): a sandbox past either share is refused its own
 *       open.
 *   cred_domain, creds_by_uid   charged per domain and per user, like
 *       open_denied: a sandbox past either share is refused its own fork,
 *       exec or credential change (ENOMEM).
 *   fown_setter, fown_by_uid    charged per user (files outlive their
 *       domain), reserved before an owner is set: past the share the
 *       sandbox's own fcntl or ioctl is refused (fown.h).
 *   unix_owner                  socket storage: part of each socket.
 *   marks                       65,536, global, CORRAL_MARK_SLOTS slots a
 *       directory; a domain claims at most a quarter (mark_charge).
 *       A sandbox can take the slots of a directory others use too:
 *       they then miss and walk (slower, never wrong).
 *   events                      1 MiB ring shared by the watched
 *       domains (--log, learn; the others emit nothing): a watched
 *       sandbox that floods denials makes the other watched domains'
 *       events be dropped (counted in events_lost; --log says how many
 *       while it ran), never their decisions.
 *   topology, info, events_lost, event_scratch  fixed size, written by
 *       the programs only.
 */
#ifndef CORRAL_MAPS_H
#define CORRAL_MAPS_H

#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "corral_abi.h"

/*
 * The programs are built as one object per concern (fs, task, topology,
 * ipc, net), which `bpftool gen object` links into one: its linker makes
 * one map of each name for all of them.  task.bpf.c defines
 * CORRAL_MAPS_HERE and so holds the definitions; the others see extern
 * declarations of the same types.
 */
#ifdef CORRAL_MAPS_HERE
#define CORRAL_MAP
#define CORRAL_RODATA(type, name, value) const volatile type name = value
#else
#define CORRAL_MAP extern
#define CORRAL_RODATA(type, name, value) extern const volatile type name
#endif

/* The shapes of corral's maps, each spelled once (libbpf's BTF-defined
 * maps); a map's comment says what it holds. */
#define HASH_MAP(key_type, value_type, entries, flags) struct {		\
	__uint(type, BPF_MAP_TYPE_HASH);				\
	__uint(map_flags, flags);					\
	__uint(max_entries, entries);					\
	__type(key, key_type);						\
	__type(value, value_type);					\
}
#define ONE_ELEMENT_OF(map_type, value_type) struct {			\
	__uint(type, map_type);						\
	__uint(max_entries, 1);						\
	__type(key, __u32);						\
	__type(value, value_type);					\
}
#define ONE_ELEMENT(value_type) \
	ONE_ELEMENT_OF(BPF_MAP_TYPE_ARRAY, value_type)
#define ONE_PERCPU_ELEMENT(value_type) \
	ONE_ELEMENT_OF(BPF_MAP_TYPE_PERCPU_ARRAY, value_type)
/* task or socket storage: part of each object, no global bound */
#define LOCAL_STORAGE(map_type, value_type) struct {			\
	__uint(type, map_type);						\
	__uint(map_flags, BPF_F_NO_PREALLOC);				\
	__type(key, int);						\
	__type(value, value_type);					\
}

/* task -> struct corral_task; present only on sandboxed tasks. */
CORRAL_MAP LOCAL_STORAGE(BPF_MAP_TYPE_TASK_STORAGE,
			 struct corral_task) task_domain SEC(".maps");

/* task -> struct corral_register; the launcher's rule registration slot. */
CORRAL_MAP LOCAL_STORAGE(BPF_MAP_TYPE_TASK_STORAGE,
			 struct corral_register) task_register SEC(".maps");

/* {domain, dev, ino, generation} -> rights granted beneath that inode. */
CORRAL_MAP HASH_MAP(struct corral_rule_key, struct corral_rule,
		    CORRAL_MAX_RULES, BPF_F_NO_PREALLOC) rules SEC(".maps");

/* The rules of each domain, for domain_died(): see corral_abi.h. */
CORRAL_MAP HASH_MAP(struct corral_rule_index, struct corral_rule_key,
		    CORRAL_MAX_RULES, BPF_F_NO_PREALLOC)
	domain_rules SEC(".maps");

/* domain id -> how many rules domain_rules lists for it: as many as
 * its user was charged for in rules_by_uid, given back when it dies. */
CORRAL_MAP HASH_MAP(__u64, __u32,
		    CORRAL_MAX_DOMAINS, 0) domain_nrules SEC(".maps");

/* real uid -> rules its live domains hold.  One entry per user who ever
 * launched a sandbox with rules; a user it has no room for is refused
 * like one over its share. */
CORRAL_MAP HASH_MAP(__u32, __s64,
		    CORRAL_MAX_DOMAINS, 0) rules_by_uid SEC(".maps");

/*
 * The share of each user, CORRAL_RULES_PER_UID; set lower at load by
 * corral's tests only (CORRAL_TEST_RULES_PER_UID in `corral setup`'s
 * environment), so that a guest suite can spend it.
 */
CORRAL_RODATA(__s64, rules_per_uid, CORRAL_RULES_PER_UID);

/* domain id -> struct corral_domain (task count, owner). */
CORRAL_MAP HASH_MAP(__u64, struct corral_domain,
		    CORRAL_MAX_DOMAINS, 0) domains SEC(".maps");

/*
 * Rights a file opened inside a domain did not get at open.  Landlock
 * decides IOCTL_DEV and TRUNCATE when a file is opened, so descriptors
 * opened before the sandbox (the terminal, a log file handed in) keep
 * every right; so does corral, keyed by who opened the file: opener
 * credentials (file->f_cred) -> the inodes they opened without the ioctl
 * right (devices) or without the truncate right (regular files opened
 * for writing), and which of the two.  An entry is keyed by credentials,
 * not files (file_free_security, which fown.h needs, returns at once for
 * files that never had an owner: it cannot find these); it goes when its
 * credentials are freed (cred_free),
 * which no file they opened can outlive, since each holds a reference on
 * them.  So an entry never outlives its files and no address is ever
 * reused under it.  The price: the decision is per inode and opener, not
 * per open file, so a file opened by the same process through another
 * path that grants the right is denied it too (fail closed).  More inodes
 * per opener than there are slots is a refused open.
 *
 * Who can fill it: a sandbox, by opening files under ever new
 * credentials.  Each entry is charged to the domain that made it
 * (corral_domain.denied_creds), at most CORRAL_DENIED_CREDS_PER_DOMAIN,
 * and to the real uid of the credentials (denied_creds_by_uid), at most
 * denied_creds_per_uid; both are given back at cred_free.  Credentials
 * outlive their domain when the sandbox hands a descriptor out (to a
 * process outside, over a unix socket) and exits: the domain's charge is
 * gone with it, its user's stays.  A sandbox over either share gets
 * EACCES on its own open, and it takes sixteen users holding their whole
 * share to find the map full.
 */
#define CORRAL_DENIED_FILES 16
/* A slot is an inode's address with these in its low bits (an inode is
 * at least 8-byte aligned), claimed and added to with atomics. */
#define DENIED_IOCTL    1ULL
#define DENIED_TRUNCATE 2ULL
#define DENIED_BITS     7ULL

struct open_denied_files {
	__u64 domain;                       /* charged for this entry */
	__u64 slot[CORRAL_DENIED_FILES];    /* struct inode * | DENIED_* */
};

/* the opener's credentials (struct cred *) -> what their opens withheld */
CORRAL_MAP HASH_MAP(__u64, struct open_denied_files,
		    CORRAL_MAX_DENIED_CREDS, BPF_F_NO_PREALLOC)
	open_denied SEC(".maps");

/* real uid -> open_denied entries charged to that user's domains.  One
 * entry per user who ever made one: a machine would need 4,096 users
 * running sandboxes to fill it, and a user it has no room for is refused
 * like one over its share. */
CORRAL_MAP HASH_MAP(__u32, __s64,
		    CORRAL_MAX_DOMAINS, 0) denied_creds_by_uid SEC(".maps");

/*
 * The share of each user, CORRAL_DENIED_CREDS_PER_UID; set lower at load
 * by corral's tests only (CORRAL_TEST_DENIED_CREDS_PER_UID in `corral
 * setup`'s environment), so that a guest suite can spend it.
 */
CORRAL_RODATA(__s64, denied_creds_per_uid, CORRAL_DENIED_CREDS_PER_UID);

/*
 * Unix sockets made inside a domain remember it, so that abstract sockets
 * are reachable only from the same domain.  Socket storage, not a table
 * keyed by address: it is part of the socket, goes with it, and there is
 * nothing shared for one sandbox to fill (a global map of 16,384 did let
 * one sandbox refuse every other its unix sockets).  Value: the domain id.
 */
CORRAL_MAP LOCAL_STORAGE(BPF_MAP_TYPE_SK_STORAGE,
			 __u64) unix_owner SEC(".maps");

/*
 * SysV IPC objects made inside a domain: struct kern_ipc_perm * -> the
 * domain id.  A sandbox may use only the objects its own domain made, as
 * it may ptrace only its own tasks: the others belong to processes
 * outside, whose memory a shared segment is.  Added when an object is
 * made (*_alloc_security), deleted when it is freed (*_free_security,
 * after an RCU grace period, so no address is reused under an entry).
 *
 * Who can fill it: a sandbox, by making objects, in new IPC namespaces
 * too (it may make a user namespace).  Each entry is charged to its domain
 * (corral_domain.ipc_objects), at most CORRAL_IPC_PER_DOMAIN, given back
 * when the object goes; past that the sandbox's own shmget, msgget or
 * semget fails with ENOSPC.  Objects outlive their domain only in an IPC
 * namespace that outlives it, and one namespace holds at most IPCMNI of
 * each kind: the map has room for those on top of every domain's share.
 */
CORRAL_MAP HASH_MAP(__u64, __u64, CORRAL_MAX_IPC_OBJECTS, BPF_F_NO_PREALLOC)
	ipc_owner SEC(".maps");

/*
 * domain id -> struct corral_net_policy: the network rules of a domain
 * whose tasks carry CORRAL_TASK_NET.  Written by the launcher, deleted
 * when the domain's last task goes (task_free).
 */
CORRAL_MAP HASH_MAP(__u64, struct corral_net_policy,
		    CORRAL_MAX_DOMAINS, BPF_F_NO_PREALLOC)
	net_policy SEC(".maps");

/*
 * The domain lives on the credentials, as Landlock's does: every struct
 * cred made from one that carries a domain carries it too (cred_prepare,
 * cred_transfer), and the entry goes when the cred is freed (cred_free).
 * So work the kernel does under borrowed credentials (overlayfs acting
 * as its mounter, io_uring running a request as its submitter, a file
 * system's helper overriding with a sandboxed caller's creds) is judged
 * under the domain those credentials carry, and work done for a sandbox
 * under credentials from outside (an overlay root mounted) under none.
 *
 * Value: the domain as the tasks carry it (struct corral_task), and the
 * user charged.  Who can fill it: a sandbox, by keeping many credentials
 * alive (processes, and files they opened, which hold their opener's
 * creds); each entry is charged to its domain (corral_domain.creds, at
 * most CORRAL_CREDS_PER_DOMAIN) and to the user who launched it
 * (creds_by_uid, at most creds_per_uid), given back at cred_free.
 */
struct cred_entry {
	struct corral_task task;
	__u32 uid;        /* creds_by_uid key charged */
	__u32 reserved;
};

CORRAL_MAP HASH_MAP(__u64, struct cred_entry, CORRAL_MAX_CREDS,
		    BPF_F_NO_PREALLOC) cred_domain SEC(".maps");

/* launcher's real uid -> cred_domain entries charged to it */
CORRAL_MAP HASH_MAP(__u32, __s64, CORRAL_MAX_DOMAINS, 0)
	creds_by_uid SEC(".maps");

/* Set lower at load by corral's tests only (CORRAL_TEST_CREDS_PER_UID). */
CORRAL_RODATA(__s64, creds_per_uid, CORRAL_CREDS_PER_UID);

/* [0] -> struct corral_info, written by `corral setup` after load. */
CORRAL_MAP ONE_ELEMENT(struct corral_info) info SEC(".maps");

/*
 * The interest mask (marks.h): a hash map keyed by the directory's inode,
 * not inode storage, since kernels from 6.18 refuse inode storage on an
 * inode the program reached by reading pointers (even file->f_path's).  A
 * slot caches, for one domain reaching the directory through one mount,
 * the unions of allows and of denies from the directory up to the root
 * (a rule word: corral_rule_word()), valid
 * while the topology generation is unchanged (see bpf/README.md).  Why a
 * freed and reallocated inode never meets an old mark: marks.h.
 */
#define CORRAL_MARK_SLOTS 4
#define CORRAL_MAX_MARKS  65536
/* No domain creates more than this many: the others keep room. */
#define CORRAL_MARKS_PER_DOMAIN (CORRAL_MAX_MARKS / 4)

/* Which inode: its address while it lives, and who it is on its fs. */
struct mark_key {
	__u64 inode;      /* struct inode * */
	__u64 ino;        /* i_ino */
	__u32 dev;        /* i_sb->s_dev */
	__u32 generation; /* i_generation */
};

struct mark_slot {
	__u64 domain;     /* 0: free */
	__u64 mnt;        /* struct vfsmount * the walk went through */
	__u64 generation; /* topology generation read before the walk */
	__u32 access;     /* rule word for the directory's contents: both
			   * unions, so that a child's allow composes */
	__u32 reserved;
};

struct mark {
	struct bpf_spin_lock lock;  /* id and slots are read and written whole */
	__u32 reserved;
	__u64 owner;      /* the domain charged for the entry (mark_charge) */
	__u64 stores;     /* atomic: orders a store before its recheck */
	struct mark_key id;  /* the key again, 0 until claimed: see marks.h */
	struct mark_slot slot[CORRAL_MARK_SLOTS];
};

/* struct mark_key -> struct mark, on directories under allowed subtrees. */
CORRAL_MAP HASH_MAP(struct mark_key, struct mark,
		    CORRAL_MAX_MARKS, BPF_F_NO_PREALLOC) marks SEC(".maps");

/*
 * Zeros, never written: what a new entry is inserted from (not a struct
 * mark: a helper may not read a value holding a spin lock; the stack has
 * no room for one).
 */
struct mark_bytes {
	__u8 zero[sizeof(struct mark)];
};

CORRAL_MAP ONE_ELEMENT(struct mark_bytes) mark_zero SEC(".maps");

/* [0] -> when the marks map was last found full, and last swept. */
struct mark_sweep {
	__u64 full_ns;    /* bpf_ktime_get_ns() of a failed insert, or 0 */
	__u64 swept_ns;   /* of the last sweep */
};

CORRAL_MAP ONE_ELEMENT(struct mark_sweep) mark_swept SEC(".maps");

/* domain id -> marks entries it claimed that still exist (<= the cap). */
CORRAL_MAP HASH_MAP(__u64, __u32,
		    CORRAL_MAX_DOMAINS, 0) mark_charge SEC(".maps");

/*
 * [0] -> the topology generation: bumped after every change that can move
 * a directory relative to the root (directory rename, mount moves and
 * unmounts, pivot_root, a mount freed).  A mark of another generation is
 * a miss.
 */
CORRAL_MAP ONE_ELEMENT(__u64) topology SEC(".maps");

/* Denials, for `corral --log` and `corral learn` (struct corral_event). */
CORRAL_MAP struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, CORRAL_EVENTS_BYTES);
} events SEC(".maps");

/* [0] -> events the ring buffer had no room for. */
CORRAL_MAP ONE_ELEMENT(__u64) events_lost SEC(".maps");

/* Per-CPU scratch where an event is built before it is copied out. */
CORRAL_MAP ONE_PERCPU_ELEMENT(struct corral_event) event_scratch SEC(".maps");

/*
 * Who set a file's owner (fown.h): struct file * -> struct fown_setter,
 * for the files whose owner a sandboxed task set or may set.  Reserved in
 * file_fcntl and file_ioctl before the kernel acts, written in place by
 * file_set_fowner (so the hook that cannot refuse never needs room),
 * read by file_send_sigiotask, deleted by file_free_security.
 * Preallocated: an insert never allocates, it fails only when the map is
 * full.
 *
 * Who can fill it: a sandbox, by configuring the owner of ever more open
 * files.  Each entry is charged to the real uid of the task that
 * reserved it (fown_by_uid), at most CORRAL_FOWN_PER_UID, and given back
 * when the file is freed; files outlive their domain when handed out, so
 * the charge is the user's, not the domain's.  A sandbox over its user's
 * share is refused the fcntl or ioctl (ENOSPC); sixteen users must hold
 * their whole share for the map to be full.
 */
#define CORRAL_MAX_FOWN     16384
#define CORRAL_FOWN_PER_UID (CORRAL_MAX_FOWN / 16)
/* Counters of entries by a hash of the file's address: a file freed in a
 * bucket at 0 has no entry, and file_free_security returns at once. */
#define CORRAL_FOWN_BUCKETS 1024

struct fown_setter {
	__u64 domain;     /* the domain of the last setter; 0: not sandboxed */
	__u32 uid;        /* charged in fown_by_uid */
	__u32 reserved;
};

CORRAL_MAP HASH_MAP(__u64, struct fown_setter, CORRAL_MAX_FOWN, 0)
	fown_setter SEC(".maps");

/* real uid -> fown_setter entries charged to it */
CORRAL_MAP HASH_MAP(__u32, __s64, CORRAL_MAX_DOMAINS, 0)
	fown_by_uid SEC(".maps");

/* fown_bucket(file) -> fown_setter entries in that bucket */
CORRAL_MAP struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, CORRAL_FOWN_BUCKETS);
	__type(key, __u32);
	__type(value, __s64);
} fown_buckets SEC(".maps");

/*
 * Copies @task's corral_task into @copy by walking its storage list
 * under RCU (the BPF program runs inside rcu_read_lock), without the
 * helper.  On 6.1, bpf_task_storage_get() answers NULL, as if the task
 * had no storage, whenever any task-storage call is already in progress
 * on this CPU (a per-CPU trylock that 6.2 dropped for LSM programs): a
 * task_free run by an RCU softirq that interrupted some hook's lookup
 * lost its domain's task count, so the domain and its rules outlived
 * their last task (about one launch in a thousand with /proc being read
 * beside), and a sandboxed task preempted inside such a call (preempt=full)
 * would have been judged unsandboxed.  A task has one element per
 * task-storage map that holds a value for it: corral's two, and those of
 * other BPF tools.
 */
#define TASK_STORAGE_MAX_WALK 8

/*
 * Set at load by corral's tests only (CORRAL_TEST_TASK_STORAGE_WALK in
 * `corral setup`'s environment): every lookup takes the walk, so that the
 * guest suites check it on each kernel rather than in the rare race it is
 * for.  Read-only data: with 0 the verifier drops the branch.
 */
CORRAL_RODATA(__u32, test_task_storage_walk, 0);

/*
 * Copies @task's element of the task-storage map @map (@size bytes) into
 * @copy by walking the task's storage list.  NULL if the whole list holds
 * none; a list cut short or unreadable gives @copy zero-filled, which for
 * task_domain is domain 0: no launcher creates it, so nothing is granted
 * and no fork allowed.  One read on both paths keeps one verifier state.
 */
static __always_inline void *storage_walk(struct task_struct *task, void *map,
					  void *copy, __u32 size)
{
	struct hlist_node *node = BPF_CORE_READ(task, bpf_storage, list.first);
	__u64 snode = bpf_core_field_offset(struct bpf_local_storage_elem,
					    snode);
	__u64 data = bpf_core_field_offset(struct bpf_local_storage_elem,
					   sdata) +
		     bpf_core_field_offset(struct bpf_local_storage_data, data);
	__u64 elem = 0;

	for (int i = 0; i < TASK_STORAGE_MAX_WALK && node; i++) {
		struct bpf_local_storage_elem *e = (void *)((__u64)node - snode);

		if ((__u64)BPF_CORE_READ(e, sdata.smap) == (__u64)map) {
			elem = (__u64)e;
			break;
		}
		node = BPF_CORE_READ(node, next);
	}
	if (!elem && !node)
		return NULL;
	bpf_probe_read_kernel(copy, size, (void *)(elem ? elem + data : 0));
	return copy;
}

static __always_inline struct corral_task *
task_dom_unlocked(struct task_struct *task, struct corral_task *copy)
{
	return storage_walk(task, &task_domain, copy, sizeof(*copy));
}

/*
 * @task's domain, or NULL if it has none.  Every hook of every task
 * starts here.  A task without any BPF local storage (nearly all of them:
 * only sandboxed tasks and a registering launcher get some) has no
 * domain; reading the pointer spares the helper call and its per-CPU
 * lock on that path.  The result is @copy, filled, or NULL.
 */
static __always_inline struct corral_task *
task_dom_of(struct task_struct *task, struct corral_task *copy)
{
	struct corral_task *t;

	if (!task->bpf_storage)
		return NULL;
	if (test_task_storage_walk)
		return task_dom_unlocked(task, copy);
	t = bpf_task_storage_get(&task_domain, task, 0, 0);
	if (!t)
		return task_dom_unlocked(task, copy);
	/* One pointer kind for the caller, whichever way it was found: the
	 * verifier then checks the rest of a hook once, not once per kind. */
	*copy = *t;
	return copy;
}

/*
 * The domain of credentials @cred (a struct cred *) from cred_domain,
 * copied into @copy; NULL if they carry none.  The key is built in @copy
 * itself: every byte of stack counts in the hooks that come here.
 */
static __always_inline struct corral_task *cred_dom(__u64 cred,
						    struct corral_task *copy)
{
	struct cred_entry *e;

	copy->domain = cred;
	e = bpf_map_lookup_elem(&cred_domain, &copy->domain);
	if (!e)
		return NULL;
	*copy = e->task;
	return copy;
}

/*
 * The domain of the credentials the current task acts with
 * (current_cred()): every decision is made on it.  A task's own
 * credentials (cred == real_cred) carry the domain its task storage holds:
 * the launcher enters both at once (its storage; its credentials at the
 * next prepare_creds(), before the command runs: dropping privileges,
 * then exec), a child gets its parent's storage at task_alloc and
 * credentials prepared from its parent's, and a task only ever commits
 * credentials prepared from its own.  So the storage answers there
 * without a hash lookup, as before, and an unsandboxed task pays two
 * loads more.  Overridden credentials (override_creds()) are looked up.
 */
static __always_inline struct corral_task *task_dom(struct corral_task *copy)
{
	struct task_struct *task = bpf_get_current_task_btf();

	if (task->cred != task->real_cred)
		return cred_dom((__u64)task->cred, copy);
	return task_dom_of(task, copy);
}

/* The domain credentials @cred carry, when they are the current task's
 * subjective ones (prepare_creds()'s @old) or any others. */
static __always_inline struct corral_task *
cred_dom_any(const struct cred *cred, struct corral_task *copy)
{
	struct task_struct *task = bpf_get_current_task_btf();

	if ((__u64)cred == (__u64)task->real_cred)
		return task_dom_of(task, copy);
	return cred_dom((__u64)cred, copy);
}

#endif /* CORRAL_MAPS_H */
