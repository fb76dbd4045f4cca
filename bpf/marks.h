/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * marks.h - the fast path of a decision: one hash lookup keyed by the
 * directory of the dentry used.  The scheme and the rename and mount
 * races it closes are explained in bpf/README.md; this file
 * explains why a mark belongs to one inode for good.
 *
 * Why not inode storage: from 6.18 the verifier accepts an inode as a
 * storage owner only if the hook was given it (a trusted pointer), and
 * every inode a decision needs is reached by reading pointers (d_parent,
 * even file->f_path.dentry).  So marks live in the hash map "marks",
 * keyed by struct mark_key: the inode's address plus its number,
 * generation and device.  An address is reused when an inode is freed,
 * and on filesystems without stable inode numbers (proc, 9p, overlayfs)
 * so may the rest; so an entry must never outlive its inode:
 *
 *  1. lsm/inode_free_security (corral_inode_free) forgets the entry of
 *     every directory inode freed.  The memory is reused only after an
 *     RCU grace period, and every program runs inside an RCU read-side
 *     section, so within one program run an inode address seen alive
 *     names that inode.
 *  2. A store racing the free: a walk read the inode from a dentry, the
 *     directory was then removed and its inode freed (the hook found no
 *     entry yet), then the walk stored its mark.  So after storing, the
 *     store reads the dentry's d_inode again (an atomic add in between
 *     orders the two).  A dentry's d_inode is cleared before the inode
 *     can be freed (every positive dentry holds a reference on it): if
 *     it still names the inode, the free and its hook come after the
 *     store and forget it; if not, the store forgets its own entry.
 *  3. Forgetting clears the entry's id under its lock before deleting
 *     it, so an entry that could not be deleted is a miss, never a hit.
 *  4. Hash map elements are recycled for other keys as soon as deleted,
 *     possibly while a lookup still holds the pointer.  So an entry
 *     carries its key again (id), a hit needs id == key under the lock,
 *     new entries are inserted zeroed (a copy racing a reader can only
 *     mix the old contents with zeros: no right, no domain) and claimed
 *     under the lock, which clears every slot before setting the id.
 *
 * Room: a domain claims at most CORRAL_MARKS_PER_DOMAIN entries (a
 * quarter of the map), so one sandbox cannot take the room of the others;
 * entries of dead domains are reused in place, forgotten when a denying
 * walk meets them, and, once the map was found full, swept when a domain
 * dies (at most once a second).
 * A full map or an exhausted charge only leaves a directory unmarked: the
 * next access walks again, it is never granted more.
 */
#ifndef CORRAL_MARKS_H
#define CORRAL_MARKS_H

#include "walk.h"

static __always_inline __u64 *topology_generation(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&topology, &zero);
}

/* After the topology changed: every mark written before is now stale. */
static __always_inline void topology_bump(void)
{
	__u64 *gen = topology_generation();

	if (gen)
		__sync_fetch_and_add(gen, 1);
}

/*
 * Set at load by corral's tests only (CORRAL_TEST_MARK_ADDRESS_ONLY in
 * `corral setup`'s environment): marks are keyed by the inode's address
 * alone, so that only 1.-3. above keep a reallocated inode from an old
 * mark, as on a filesystem that reuses inode numbers; the marks suite's
 * recycled-inode test then tests them on tmpfs, which never reuses one.
 */
CORRAL_RODATA(__u32, test_mark_address_only, 0);

/* @inode is a BTF pointer: plain loads, no helper calls. */
static __always_inline void mark_key_of(struct mark_key *key,
					struct inode *inode)
{
	key->inode = (__u64)inode;
	if (test_mark_address_only)
		return;
	key->ino = inode->i_ino;
	key->dev = inode->i_sb->s_dev;
	key->generation = inode->i_generation;
}

static __always_inline int same_key(const struct mark_key *a,
				    const struct mark_key *b)
{
	return a->inode == b->inode && a->ino == b->ino && a->dev == b->dev &&
	       a->generation == b->generation;
}

/* Copies the rights of @domain's valid slot through @mnt; 0 if none. */
static __always_inline int mark_find(struct mark *m,
				     const struct mark_key *key, __u64 domain,
				     __u64 mnt, __u64 gen, __u32 *access)
{
	__u32 value = 0;
	int found = 0;

	bpf_spin_lock(&m->lock);
	if (same_key(&m->id, key)) {
#pragma unroll
		for (int i = 0; i < CORRAL_MARK_SLOTS; i++) {
			struct mark_slot *s = &m->slot[i];

			if (s->domain == domain && s->mnt == mnt &&
			    s->generation == gen) {
				value = s->access;
				found = 1;
			}
		}
	}
	bpf_spin_unlock(&m->lock);
	*access = value;
	return found;
}

static __always_inline void uncharge(__u64 owner)
{
	__u32 *n = bpf_map_lookup_elem(&mark_charge, &owner);

	if (n && *n)
		__sync_fetch_and_add(n, -1);
}

/*
 * The entry of @key is no mark at all from now on (see 3. above).  Not
 * inlined (it is called from four places), and mark_store() is a global
 * function: the verifier checks it once, not at each of the four call
 * sites of a hook that decides twice (rename, link), which had taken
 * 6.1's and 6.18's verifiers past their limit.
 */
static __noinline void mark_forget(const struct mark_key *key)
{
	struct mark *m = bpf_map_lookup_elem(&marks, key);
	__u64 owner = 0;

	if (!m)
		return;
	bpf_spin_lock(&m->lock);
	if (same_key(&m->id, key)) {
		owner = m->owner;
		m->id.inode = 0;
		m->id.ino = 0;
		m->id.dev = 0;
		m->id.generation = 0;
		m->owner = 0;
	}
	bpf_spin_unlock(&m->lock);
	if (owner)
		uncharge(owner);
	bpf_map_delete_elem(&marks, key);
}

/*
 * Slots whose domain is gone may be reused; the lookups cannot run under
 * the spin lock, so collect candidates first (recheck under the lock).
 */
static __always_inline __u32 dead_slots(struct mark *m, __u64 *seen)
{
	__u32 dead = 0;

#pragma unroll
	for (int i = 0; i < CORRAL_MARK_SLOTS; i++) {
		__u64 domain = m->slot[i].domain;

		seen[i] = domain;
		if (domain && !bpf_map_lookup_elem(&domains, &domain))
			dead |= 1u << i;
	}
	return dead;
}

/* bpf_for_each_map_elem callback: forget entries with no live slot. */
static long sweep_one(struct bpf_map *map, struct mark_key *key,
		      struct mark *m, void *ctx)
{
#pragma unroll
	for (int i = 0; i < CORRAL_MARK_SLOTS; i++) {
		__u64 domain = m->slot[i].domain;

		/* unlocked reads: a slot taken meanwhile is lost, a miss later */
		if (domain && bpf_map_lookup_elem(&domains, &domain))
			return 0;
	}
	mark_forget(key);
	return 0;
}

/*
 * An insert found the map full: say so; the next domain to die sweeps
 * it (mark_sweep_if_full()), where the stack is shallow.
 */
static __always_inline void mark_map_full(void)
{
	__u32 zero = 0;
	struct mark_sweep *sw = bpf_map_lookup_elem(&mark_swept, &zero);

	if (sw)
		sw->full_ns = bpf_ktime_get_ns();
}

/*
 * A domain died (task_free): if the map was found full since the last
 * sweep, forget every entry no live domain holds a slot in; at most once
 * a second, as a sweep reads the whole map.
 */
static __always_inline void mark_sweep_if_full(void)
{
	__u32 zero = 0;
	struct mark_sweep *sw = bpf_map_lookup_elem(&mark_swept, &zero);
	__u64 now = bpf_ktime_get_ns();

	if (!sw || !sw->full_ns || now - sw->swept_ns < 1000000000ull)
		return;
	sw->full_ns = 0;
	sw->swept_ns = now;
	bpf_for_each_map_elem(&marks, sweep_one, NULL, 0);
}

/*
 * The entry of @key, inserted zeroed if there is none, if @domain may
 * still claim one; NULL if not (no room, or the charge is spent).
 */
static __always_inline struct mark *mark_entry(const struct mark_key *key,
					       __u64 domain)
{
	__u32 zero = 0, *n;
	struct mark *m = bpf_map_lookup_elem(&marks, key);
	void *fresh;
	long r;

	if (m)
		return m;
	n = bpf_map_lookup_elem(&mark_charge, &domain);
	if (n && *n >= CORRAL_MARKS_PER_DOMAIN)
		return NULL;
	fresh = bpf_map_lookup_elem(&mark_zero, &zero);
	if (!fresh)
		return NULL;
	r = bpf_map_update_elem(&marks, key, fresh, BPF_NOEXIST);
	if (r && r != -EEXIST) {
		mark_map_full();
		return NULL;
	}
	return bpf_map_lookup_elem(&marks, key);
}

/* What mark_store() is to remember: plain numbers, on the caller's stack. */
struct mark_req {
	struct mark_key key;    /* the directory's inode */
	__u64 domain;
	__u64 mnt;              /* struct vfsmount * */
	__u64 generation;       /* topology generation read before the walk */
	__u32 access;
	__u32 reserved;
};

/*
 * Remembers @req's rights for its domain through its mount at its
 * generation in the entry of its key.  Best effort: no room, a full slot
 * table, an entry of another inode or a generation that moved on leave
 * the directory unmarked, and the next access walks again.  A global
 * function (see mark_forget()): it takes memory of plain numbers, so the
 * caller rereads the dentry (mark_remember()).  Returns 1 if the entry
 * was claimed or a slot written, else 0.
 * Defined once, in topology.bpf.c; every object calls that one.
 */
int mark_store(struct mark_req *req);

/*
 * mark_store() on directory @dir, whose inode @req->key names; then 2.
 * above: if the dentry no longer holds that inode, it may be on its way
 * to being freed, after its free hook looked: forget the entry.
 */
static __always_inline void mark_remember(struct dentry *dir,
					  struct mark_req *req, __u64 domain,
					  struct vfsmount *mnt, __u64 gen,
					  __u32 access)
{
	req->domain = domain;
	req->mnt = (__u64)mnt;
	req->generation = gen;
	req->access = access;
	if (mark_store(req) &&
	    (__u64)BPF_CORE_READ(dir, d_inode) != req->key.inode)
		mark_forget(&req->key);
}

/*
 * A mark met by a walk that denies keeps nothing worth keeping if every
 * slot is free or of a dead domain: forget it now rather than when the
 * inode is freed.  Racing a mark_store on another CPU can only drop a
 * fresh slot, which is a miss later, never an allow.
 */
static __always_inline void mark_drop_if_dead(struct mark *m,
					      const struct mark_key *key)
{
	__u64 seen[CORRAL_MARK_SLOTS] = {};
	__u32 used = 0;

#pragma unroll
	for (int i = 0; i < CORRAL_MARK_SLOTS; i++)
		if (m->slot[i].domain)
			used |= 1u << i;
	if ((dead_slots(m, seen) & used) == used)
		mark_forget(key);
}

/*
 * Does walk result @granted grant anything?  Only then is it marked.  A
 * mark keeps the whole word, denies included: a child judged from it
 * (parent_granted) ORs its own rule in, and an allow there must not give
 * back what a deny above took.
 */
static __always_inline int grants(long granted)
{
	return granted > 0 && corral_rights((__u32)granted);
}

/*
 * The mark of @inode (NULL if none), and whether it holds rights for
 * @domain through @mnt at generation @gen (in *@access).  The key is on
 * the stack for the lookup only, and mark_after_walk() builds it again
 * (mark_key_of() is plain loads): a key kept across the walk that may
 * follow, two deep in dir_granted(), cost every hook that walks 56 bytes
 * of its 448 (tests/unit/bpf-stack.sh).
 */
static __always_inline struct mark *mark_of(struct inode *inode,
					    __u64 domain, __u64 mnt, __u64 gen,
					    __u32 *access, int *found)
{
	struct mark_key key = {};
	struct mark *m;

	mark_key_of(&key, inode);
	m = bpf_map_lookup_elem(&marks, &key);
	*found = m && mark_find(m, &key, domain, mnt, gen, access);
	return m;
}

/*
 * After a walk from @dir (whose inode is @inode, whose mark mark_of()
 * found is @m) granted @granted: only allowed subtrees get marks, a
 * denial leaves no trace.
 */
static __always_inline void mark_after_walk(const struct corral_task *t,
					    struct vfsmount *mnt,
					    struct dentry *dir,
					    struct inode *inode,
					    struct mark *m, __u64 gen,
					    long granted)
{
	struct mark_req req = {};

	mark_key_of(&req.key, inode);
	if (grants(granted))
		mark_remember(dir, &req, t->domain, mnt, gen, granted);
	else if (m)
		mark_drop_if_dead(m, &req.key);
}

/*
 * The miss path: rights on the contents of unmarked directory @dir are
 * its own rule's plus its parent's, and the parent's come from the
 * parent's mark when valid, else from a walk that starts at the parent
 * and marks it.  So a fresh directory beside marked ones (tar, npm, a
 * build's output tree) costs one mark lookup and one filtered rule lookup
 * instead of a walk to the root, and a walk marks two directories.  The
 * parent's mark is checked against the same generation @gen, read before
 * either lookup, so the race argument of bpf/README.md holds
 * unchanged.  A mount root (the walk crosses to the mount point there,
 * not to d_parent) and a detached root walk as before.
 */
static __always_inline long parent_granted(const struct corral_task *t,
					   struct vfsmount *mnt,
					   struct dentry *dir,
					   struct inode *dir_inode, __u64 gen)
{
	struct dentry *parent = dir->d_parent;
	struct inode *parent_inode;
	struct mark *m;
	__u32 access = 0;
	long granted;
	int found;

	parent_inode = parent->d_inode;
	if (dir == mnt->mnt_root || parent == dir || !parent_inode)
		return path_granted(t, mnt, dir, CORRAL_ACCESS_ALL);
	m = mark_of(parent_inode, t->domain, (__u64)mnt, gen, &access, &found);
	if (found) {
		granted = access;
	} else {
		granted = path_granted(t, mnt, parent, CORRAL_ACCESS_ALL);
		mark_after_walk(t, mnt, parent, parent_inode, m, gen, granted);
		if (granted < 0)
			return granted;
	}
	return granted | filtered_access(t, dir_inode, 0);
}

/*
 * Rights granted to the contents of directory @dir (reached through
 * @mnt): from its mark if valid, else from its parent's (see
 * parent_granted), then marked.  @dir_inode is @dir's d_inode, or NULL
 * to bypass the cache.  Negative: deny.
 */
static __always_inline long dir_granted(const struct corral_task *t,
					struct vfsmount *mnt,
					struct dentry *dir,
					struct inode *dir_inode)
{
	__u64 *genp = topology_generation();
	__u64 gen;
	struct mark *m;
	__u32 access = 0;
	long granted;
	int found;

	if (!genp)
		return -EACCES;
	gen = *genp;            /* before any lookup: see bpf/README.md */
	if (!dir_inode)
		return path_granted(t, mnt, dir, CORRAL_ACCESS_ALL);
	m = mark_of(dir_inode, t->domain, (__u64)mnt, gen, &access, &found);
	if (found)
		return access;
	granted = parent_granted(t, mnt, dir, dir_inode, gen);
	mark_after_walk(t, mnt, dir, dir_inode, m, gen, granted);
	return granted;
}

/* lsm/inode_free_security: 1. at the top of this file. */
static __always_inline void mark_inode_freed(struct inode *inode)
{
	struct mark_key key = {};

	if (!S_ISDIR(inode->i_mode))
		return;         /* only directories are marked */
	mark_key_of(&key, inode);
	mark_forget(&key);
}

#endif /* CORRAL_MARKS_H */
