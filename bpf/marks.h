/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * marks.h - the fast path of a decision: one inode-storage lookup on the
 * directory of the dentry used.  The scheme and the races it closes are
 * explained at the top of corral.bpf.c.
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

/* Copies the rights of @domain's valid slot through @mnt; 0 if none. */
static __always_inline int mark_find(struct mark *m, __u64 domain, __u64 mnt,
				     __u64 gen, __u32 *access)
{
	__u32 value = 0;
	int found = 0;

	bpf_spin_lock(&m->lock);
#pragma unroll
	for (int i = 0; i < CORRAL_MARK_SLOTS; i++) {
		struct mark_slot *s = &m->slot[i];

		if (s->domain == domain && s->mnt == mnt &&
		    s->generation == gen) {
			value = s->access;
			found = 1;
		}
	}
	bpf_spin_unlock(&m->lock);
	*access = value;
	return found;
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

/*
 * Remembers @access for @domain through @mnt at generation @gen.  Best
 * effort: no storage, a full slot table or a generation that moved on
 * leave the directory unmarked, and the next access walks again.
 */
static __always_inline void mark_store(struct inode *dir, __u64 domain,
				       __u64 mnt, __u64 gen, __u32 access)
{
	__u64 *now = topology_generation();
	__u64 seen[CORRAL_MARK_SLOTS] = {};
	struct mark *m;
	__u32 dead;
	int same = -1, reusable = -1, pick;

	if (!now)
		return;
	m = bpf_inode_storage_get(&marks, dir, 0,
				  BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!m)
		return;
	dead = dead_slots(m, seen);
	bpf_spin_lock(&m->lock);
#pragma unroll
	for (int i = 0; i < CORRAL_MARK_SLOTS; i++) {
		struct mark_slot *s = &m->slot[i];

		if (s->domain == domain && s->mnt == mnt)
			same = i;
		else if (!s->domain || s->generation != *now ||
			 ((dead & (1u << i)) && s->domain == seen[i]))
			reusable = i;
	}
	pick = same >= 0 ? same : reusable;
	if (pick >= 0 && pick < CORRAL_MARK_SLOTS && *now == gen) {
		m->slot[pick].domain = domain;
		m->slot[pick].mnt = mnt;
		m->slot[pick].generation = gen;
		m->slot[pick].access = access;
	}
	bpf_spin_unlock(&m->lock);
}

/*
 * A mark met by a walk that denies keeps nothing worth keeping if every
 * slot is free or of a dead domain: give the storage back now rather than
 * when the inode is evicted.  Racing a mark_store on another CPU can only
 * drop a fresh slot, which is a miss later, never an allow.
 */
static __always_inline void mark_drop_if_dead(struct mark *m,
					      struct inode *dir)
{
	__u64 seen[CORRAL_MARK_SLOTS] = {};
	__u32 used = 0;

#pragma unroll
	for (int i = 0; i < CORRAL_MARK_SLOTS; i++)
		if (m->slot[i].domain)
			used |= 1u << i;
	if ((dead_slots(m, seen) & used) == used)
		bpf_inode_storage_delete(&marks, dir);
}

/*
 * The miss path: rights on the contents of unmarked directory @dir are
 * its own rule's plus its parent's, and the parent's come from the
 * parent's mark when valid, else from a walk that starts at the parent
 * and marks it.  So a fresh directory beside marked ones (tar, npm, a
 * build's output tree) costs one mark lookup and one filtered rule lookup
 * instead of a walk to the root, and a walk marks two directories.  The
 * parent's mark is checked against the same generation @gen, read before
 * either lookup, so the race argument at the top of corral.bpf.c holds
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

	parent_inode = parent->d_inode;
	if (dir == mnt->mnt_root || parent == dir || !parent_inode)
		return path_granted(t, mnt, dir, CORRAL_ACCESS_ALL);
	m = bpf_inode_storage_get(&marks, parent_inode, 0, 0);
	if (m && mark_find(m, t->domain, (__u64)mnt, gen, &access)) {
		granted = access;
	} else {
		granted = path_granted(t, mnt, parent, CORRAL_ACCESS_ALL);
		if (granted > 0)
			mark_store(parent_inode, t->domain, (__u64)mnt, gen,
				   granted);
		else if (m)
			mark_drop_if_dead(m, parent_inode);
		if (granted < 0)
			return granted;
	}
	return granted | filtered_access(t, dir_inode);
}

/*
 * Rights granted to the contents of directory @dir (reached through
 * @mnt): from its mark if valid, else from its parent's (see
 * parent_granted), then marked.  @dir_inode is the same directory's inode
 * as a BTF pointer (inode storage needs one), or NULL to bypass the
 * cache.  Negative: deny.
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

	if (!genp)
		return -EACCES;
	gen = *genp;            /* before any lookup: see corral.bpf.c */
	if (!dir_inode)
		return path_granted(t, mnt, dir, CORRAL_ACCESS_ALL);
	m = bpf_inode_storage_get(&marks, dir_inode, 0, 0);
	if (m && mark_find(m, t->domain, (__u64)mnt, gen, &access))
		return access;
	granted = parent_granted(t, mnt, dir, dir_inode, gen);
	/* Only allowed subtrees get marks: a denial leaves no trace. */
	if (granted > 0)
		mark_store(dir_inode, t->domain, (__u64)mnt, gen, granted);
	else if (m)
		mark_drop_if_dead(m, dir_inode);
	return granted;
}

#endif /* CORRAL_MARKS_H */
