/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * walk.h - the slow path of a decision: from a dentry up to the real root,
 * Landlock's way (d_parent, and at a mount root on from the mount point in
 * the parent mount), OR-ing the rights of every rule met.
 */
#ifndef CORRAL_WALK_H
#define CORRAL_WALK_H

#include "maps.h"
#include <bpf/bpf_core_read.h>

static __always_inline void rule_key(struct corral_rule_key *key,
				     __u64 domain, struct inode *inode)
{
	key->domain = domain;
	key->ino = BPF_CORE_READ(inode, i_ino);
	key->dev = BPF_CORE_READ(inode, i_sb, s_dev);
	key->generation = BPF_CORE_READ(inode, i_generation);
}

/* Rights a rule gives on this very dentry's inode, 0 if none. */
static __always_inline __u32 own_access(__u64 domain, struct dentry *dentry)
{
	struct corral_rule_key key = {};
	struct corral_rule *rule;
	struct inode *inode = BPF_CORE_READ(dentry, d_inode);

	if (!inode)
		return 0;
	rule_key(&key, domain, inode);
	rule = bpf_map_lookup_elem(&rules, &key);
	return rule ? rule->access : 0;
}

/*
 * Walk state.  Pointers are kernel addresses read with probe reads, as
 * the verifier does not track BTF pointers through the loop context.
 */
struct walk {
	__u64 domain;
	struct dentry *dentry;
	struct vfsmount *mnt;
	__u32 want;       /* stop early once these are all granted */
	__u32 granted;    /* union of rights seen so far */
	int finished;     /* reached the root, or granted covers want */
};

static long walk_step(__u32 index, void *data)
{
	struct walk *w = data;
	struct dentry *dentry = w->dentry;
	struct vfsmount *vfsmnt = w->mnt;   /* locals: CO-RE only on kernel types */
	struct dentry *parent;
	struct mount *mnt, *mnt_parent;

	w->granted |= own_access(w->domain, dentry);
	if ((w->granted & w->want) == w->want) {
		w->finished = 1;
		return 1;
	}
	if (dentry == BPF_CORE_READ(vfsmnt, mnt_root)) {
		mnt = (void *)vfsmnt - bpf_core_field_offset(struct mount, mnt);
		mnt_parent = BPF_CORE_READ(mnt, mnt_parent);
		if (mnt_parent == mnt) {
			w->finished = 1;        /* the real root */
			return 1;
		}
		w->dentry = BPF_CORE_READ(mnt, mnt_mountpoint);
		w->mnt = (void *)mnt_parent +
			 bpf_core_field_offset(struct mount, mnt);
		return 0;
	}
	parent = BPF_CORE_READ(dentry, d_parent);
	if (parent == dentry) {
		w->finished = 1;                /* root of a detached tree */
		return 1;
	}
	w->dentry = parent;
	return 0;
}

/*
 * Union of the rights granted on the path from @dentry (in @mnt) up to
 * the root, stopping early once @want is covered.  Returns -EACCES if the
 * walk was cut short by CORRAL_MAX_DEPTH: an unfinished walk never allows.
 */
static __always_inline long path_granted(__u64 domain, struct vfsmount *mnt,
					 struct dentry *dentry, __u32 want)
{
	struct walk w = {
		.domain = domain,
		.dentry = dentry,
		.mnt = mnt,
		.want = want,
	};

	bpf_loop(CORRAL_MAX_DEPTH, walk_step, &w, 0);
	if (!w.finished)
		return -EACCES;
	return w.granted;
}

#endif /* CORRAL_WALK_H */
