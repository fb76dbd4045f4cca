// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * task.bpf.c - the life of a domain: a task inherits its parent's at
 * fork, the last task gone takes the domain and its rules along, a
 * launcher that dies before entering gives its slot back, rules are
 * registered through statfs(2), and credentials: they carry the domain
 * (cred_domain in maps.h), their open_denied entry goes with them, and
 * io_uring may not run requests under registered ones.
 *
 * This object holds the maps and read-only data every other one uses
 * (CORRAL_MAPS_HERE, maps.h); `bpftool gen object` links them into one.
 */
#define CORRAL_MAPS_HERE
#include "hooks.h"

char LICENSE[] SEC("license") = "GPL";

/*
 * Inheritance: every new task (process or thread) of a sandboxed parent
 * carries the parent's domain.  Failing to store it fails the fork.
 */
SEC("lsm/task_alloc")
int BPF_PROG(corral_task_alloc, struct task_struct *task,
	     unsigned long clone_flags, int ret)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *parent, *child;
	struct corral_domain *dom;

	if (ret)
		return ret;
	parent = task_dom(&tbuf);
	if (!parent)
		return 0;
	dom = bpf_map_lookup_elem(&domains, &parent->domain);
	if (!dom)
		return -EPERM;          /* a domain must exist while used */
	child = bpf_task_storage_get(&task_domain, task, 0,
				     BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!child)
		return -ENOMEM;
	*child = *parent;
	__sync_fetch_and_add(&dom->tasks, 1);
	return 0;
}

static long drop_rule(__u32 i, void *data)
{
	struct corral_rule_index idx = { .domain = *(__u64 *)data, .i = i };
	struct corral_rule_key *key = bpf_map_lookup_elem(&domain_rules, &idx);

	if (key)
		bpf_map_delete_elem(&rules, key);
	bpf_map_delete_elem(&domain_rules, &idx);
	return 0;
}

/*
 * The last task of a domain is gone: nothing can use its rules again (a
 * domain id is never reused: the launcher inserts it with BPF_NOEXIST and
 * nobody enters a domain without an entry in "domains"), so they go now
 * rather than at the next launch.
 * Its mark slots are not looked for here (the marks map is keyed by
 * inode); they are dead slots, reused or forgotten when met, swept here
 * once the map was found full, and forgotten with their inode (marks.h).
 * Its charge goes now: entries it claimed are nobody's to count any more.
 * So does its rules' (@uid: its owner's), all at once: the count in
 * domain_nrules, whether or not each rule is still there to delete (one
 * a delete missed is reclaimed by a launcher that finds the map full,
 * and only this side can give a charge back).
 */
static __always_inline void domain_died(__u64 domain, __u32 uid)
{
	__u32 *n = bpf_map_lookup_elem(&domain_nrules, &domain);
	__s64 *by_uid = bpf_map_lookup_elem(&rules_by_uid, &uid);
	__u32 nrules = n ? *n : 0;

	bpf_map_delete_elem(&domains, &domain);
	if (by_uid && nrules)
		__sync_fetch_and_add(by_uid, -(__s64)nrules);
	if (nrules)
		bpf_loop(nrules, drop_rule, &domain, 0);
	bpf_map_delete_elem(&domain_nrules, &domain);
	bpf_map_delete_elem(&net_policy, &domain);
	bpf_map_delete_elem(&mark_charge, &domain);
	mark_sweep_if_full();
}

/* One task fewer carries @domain; the last one takes the domain along. */
static __always_inline void domain_put(__u64 domain)
{
	struct corral_domain *dom = bpf_map_lookup_elem(&domains, &domain);

	if (dom && __sync_fetch_and_add(&dom->tasks, -1) == 1)
		domain_died(domain, dom->uid);
}

/*
 * A launcher that dies before entering the domain it made: its
 * registration slot names the domain and the launch's nonce, and the
 * domain's count of 1 stands for it (see struct corral_domain).  A slot
 * naming a domain of another nonce (a failed insert) touches nothing.
 */
static __always_inline void launcher_died(struct task_struct *task)
{
	struct corral_register rbuf, *reg;
	struct corral_domain *dom;

	reg = bpf_task_storage_get(&task_register, task, 0, 0);
	if (!reg)
		reg = storage_walk(task, &task_register, &rbuf, sizeof(rbuf));
	if (!reg || !reg->domain)
		return;
	dom = bpf_map_lookup_elem(&domains, &reg->domain);
	if (dom && dom->nonce == reg->nonce)
		domain_put(reg->domain);
}

SEC("lsm/task_free")
void BPF_PROG(corral_task_free, struct task_struct *task)
{
	struct corral_task tbuf, *t;

	if (!task->bpf_storage)
		return;
	t = task_dom_of(task, &tbuf);
	if (t)
		domain_put(t->domain);
	else
		launcher_died(task);
}

/* Lists a new rule of its domain (domain_rules), for domain_died(). */
static __always_inline int index_rule(struct corral_rule_key *key)
{
	struct corral_rule_index idx = { .domain = key->domain };
	__u32 zero = 0, *n;

	n = bpf_map_lookup_elem(&domain_nrules, &key->domain);
	if (!n) {
		if (bpf_map_update_elem(&domain_nrules, &key->domain, &zero,
					BPF_NOEXIST))
			return -1;
		n = bpf_map_lookup_elem(&domain_nrules, &key->domain);
		if (!n)
			return -1;
	}
	idx.i = *n;
	if (bpf_map_update_elem(&domain_rules, &idx, key, BPF_NOEXIST))
		return -1;
	*n += 1;        /* single writer: the domain's launcher */
	return 0;
}

/*
 * A new rule @rule on @key, charged to the user who launched its domain
 * (rules_by_uid) and listed for domain_died(), which gives the charge
 * back.  Only the launcher writes its own domain's rules: no insert race,
 * and a launcher killed cannot stop this half way.  Returns the status:
 * DONE, or -ESRCH (no such domain), -EDQUOT (the user's share is spent),
 * -ENOSPC (a map is full); the launcher fails closed.
 */
static __always_inline int add_rule(struct corral_rule_key *key,
				    struct corral_rule *rule)
{
	struct corral_domain *dom = bpf_map_lookup_elem(&domains, &key->domain);
	__s64 *by_uid;
	__u32 uid;

	if (!dom)
		return -ESRCH;
	uid = dom->uid;
	by_uid = uid_count(&rules_by_uid, &uid);
	if (!by_uid || !charge(by_uid, rules_per_uid))
		return -EDQUOT;
	if (!bpf_map_update_elem(&rules, key, rule, BPF_NOEXIST)) {
		if (!index_rule(key))
			return CORRAL_REGISTER_DONE;
		bpf_map_delete_elem(&rules, key);  /* unlisted: uncharged */
	}
	__sync_fetch_and_add(by_uid, -1);
	return -ENOSPC;
}

/*
 * Rule registration: the launcher fstatfs()es an O_PATH fd with a pending
 * request in its task_register slot; the key is derived here, from the
 * inode the kernel will meet again on every walk.  statfs(2), not stat(2):
 * stat is among the most frequent syscalls of every process on the
 * machine, and a hook on it (inode_getattr, until ABI 7) cost every
 * stat a program run; statfs is rare, so nearly nobody pays for this one.
 */
SEC("lsm/sb_statfs")
int BPF_PROG(corral_sb_statfs, struct dentry *dentry, int ret)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct corral_register *reg;
	struct corral_rule_key key = {};
	struct corral_rule rule = {}, *old;
	struct inode *inode;

	/* every statfs(2) of every process: as cheap as task_dom() */
	if (ret || !task->bpf_storage)
		return ret;
	reg = bpf_task_storage_get(&task_register, task, 0, 0);
	if (!reg || reg->status != CORRAL_REGISTER_PENDING)
		return 0;
	inode = dentry->d_inode;
	if (!inode) {
		reg->status = -ENOENT;
		return 0;
	}
	rule.access = reg->access;
	rule.deny = reg->deny;
	if (reg->name[0]) {
		/* a name rule: deny only, known to no walk (no ino bit) */
		__u64 name[2];

		__builtin_memcpy(name, reg->name, sizeof(name));
		if (!S_ISDIR(inode->i_mode)) {
			reg->status = -ENOTDIR;
			return 0;
		}
		name_key(&key, reg->domain, inode, name);
		rule.access = 0;
		reg->ino_bit = 0;
		reg->file_tag = 0;
	} else {
		rule_key(&key, reg->domain, inode);
		reg->ino_bit = corral_ino_bit(key.ino);
		reg->file_tag = S_ISDIR(inode->i_mode) ? 0 :
				corral_file_tag(key.ino) + 1;
	}
	old = bpf_map_lookup_elem(&rules, &key);
	if (old) {
		old->access |= rule.access;  /* single writer: the launcher */
		old->deny |= rule.deny;
		reg->status = CORRAL_REGISTER_DONE;
		return 0;
	}
	reg->status = add_rule(&key, &rule);
	return 0;
}

/*
 * @cred carries @t's domain from now on, charged to the domain and to the
 * user who launched it.  @force: charge past the shares rather than fail
 * (a hook that cannot refuse: a cred without its entry would be judged
 * unsandboxed wherever the kernel borrows it).  0, or -ENOMEM when a
 * share is spent, -EPERM when the domain is gone (fail closed).
 */
static __always_inline int cred_carry(__u64 cred, struct corral_task *t,
				      int force)
{
	struct cred_entry e = { .task = *t };
	struct corral_domain *dom = bpf_map_lookup_elem(&domains, &t->domain);
	__s64 *by_uid;

	if (!dom)
		return -EPERM;
	e.uid = dom->uid;
	by_uid = uid_count(&creds_by_uid, &e.uid);
	if (!by_uid)
		return -ENOMEM;
	if (!force && !charge(&dom->creds, CORRAL_CREDS_PER_DOMAIN))
		return -ENOMEM;
	if (!force && !charge(by_uid, creds_per_uid)) {
		__sync_fetch_and_add(&dom->creds, -1);
		return -ENOMEM;
	}
	if (force) {
		__sync_fetch_and_add(&dom->creds, 1);
		__sync_fetch_and_add(by_uid, 1);
	}
	if (!bpf_map_update_elem(&cred_domain, &cred, &e, BPF_ANY))
		return 0;
	__sync_fetch_and_add(&dom->creds, -1);
	__sync_fetch_and_add(by_uid, -1);
	return -ENOMEM;
}

/*
 * New credentials are a copy of the current task's (@old): they carry its
 * domain.  Every prepare_creds() of the machine comes here (fork, exec,
 * setuid, access(2)); an unsandboxed task's own credentials cost one
 * compare and one load.
 */
SEC("lsm/cred_prepare")
int BPF_PROG(corral_cred_prepare, struct cred *new, const struct cred *old,
	     unsigned int gfp, int ret)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t;

	if (ret)
		return ret;
	t = cred_dom_any(old, &tbuf);
	if (!t)
		return 0;
	return cred_carry((__u64)new, t, 0);
}

/* keyctl(KEYCTL_SESSION_TO_PARENT) fills a blank cred from the parent's. */
SEC("lsm/cred_transfer")
void BPF_PROG(corral_cred_transfer, struct cred *new, const struct cred *old)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t = cred_dom_any(old, &tbuf);

	if (t)
		cred_carry((__u64)new, t, 1);
}

/*
 * An entry charged to @domain (its counter at byte @offset of struct
 * corral_domain) and to user @uid in @by_uid_map is gone: both get it
 * back, the domain only if it still lives.
 */
static __always_inline void give_back(__u64 domain, __u32 offset,
				      void *by_uid_map, __u32 uid)
{
	struct corral_domain *dom = bpf_map_lookup_elem(&domains, &domain);
	__s64 *by_uid = bpf_map_lookup_elem(by_uid_map, &uid);

	if (dom && offset <= sizeof(*dom) - sizeof(__s64))
		__sync_fetch_and_add((__s64 *)((void *)dom + offset), -1);
	if (by_uid)
		__sync_fetch_and_add(by_uid, -1);
}

/*
 * Credentials are freed: their domain goes with them (cred_domain), and
 * so does their open_denied entry (the files they opened are all gone);
 * each gives its charge back.
 */
SEC("lsm/cred_free")
void BPF_PROG(corral_cred_free, struct cred *cred)
{
	__u64 key = (__u64)cred;
	struct cred_entry *e = bpf_map_lookup_elem(&cred_domain, &key);
	struct open_denied_files *d;
	__u64 domain;
	__u32 uid;

	if (e) {
		domain = e->task.domain;
		uid = e->uid;
		if (!bpf_map_delete_elem(&cred_domain, &key))
			give_back(domain, offsetof(struct corral_domain, creds),
				  &creds_by_uid, uid);
	}
	d = bpf_map_lookup_elem(&open_denied, &key);
	if (!d)
		return;
	domain = d->domain;
	if (!bpf_map_delete_elem(&open_denied, &key))
		give_back(domain, offsetof(struct corral_domain, denied_creds),
			  &denied_creds_by_uid, BPF_CORE_READ(cred, uid.val));
}

/*
 * No user namespace unless the profile allows one (userns = yes): most
 * escapes start by gaining capabilities in a namespace of one's own
 * (mounting an overlay, a bind mount, a detached clone of a tree).  The
 * hook exists from 6.1; the Landlock engine uses a seccomp filter.
 */
SEC("lsm/userns_create")
int BPF_PROG(corral_userns_create, const struct cred *cred, int ret)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t;

	if (ret)
		return ret;
	t = task_dom(&tbuf);
	if (!t || (t->flags & CORRAL_TASK_USERNS))
		return 0;
	return report(t, NULL, NULL, 0, CORRAL_HOOK_USERNS, -EPERM);
}

/*
 * An io_uring personality would run requests with credentials registered
 * by whoever made the ring, maybe a process outside that handed the ring
 * in: refused in a domain, whatever those credentials carry.
 */
SEC("lsm/uring_override_creds")
int BPF_PROG(corral_uring_override_creds, const struct cred *new, int ret)
{
	return ret ? ret : deny_in_domain(CORRAL_HOOK_OPEN);
}
