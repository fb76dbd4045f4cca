/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * walk.h - the slow path of a decision: from a dentry up to the real root,
 * Landlock's way (d_parent, and at a mount root on from the mount point in
 * the parent mount), OR-ing the word (allows and denies,
 * corral_rule_word()) of every rule met.  Every function here that
 * returns rights returns such a word: corral_rights() of it is what is
 * granted.
 */
#ifndef CORRAL_WALK_H
#define CORRAL_WALK_H

#include "maps.h"
#include <bpf/bpf_core_read.h>

/* Filesystems whose (s_dev, i_ino, i_generation) names one file for
 * good; see struct corral_rule_key for why the others need more. */
#define EXT4_SUPER_MAGIC  0xEF53
#define XFS_SUPER_MAGIC   0x58465342
#define F2FS_SUPER_MAGIC  0xF2F52010
#define TMPFS_MAGIC       0x01021994

static __always_inline int stable_inode_numbers(unsigned long magic)
{
	return magic == EXT4_SUPER_MAGIC || magic == XFS_SUPER_MAGIC ||
	       magic == F2FS_SUPER_MAGIC || magic == TMPFS_MAGIC;
}

static __always_inline void rule_key(struct corral_rule_key *key,
				     __u64 domain, struct inode *inode)
{
	struct super_block *sb = BPF_CORE_READ(inode, i_sb);

	key->domain = domain;
	key->ino = BPF_CORE_READ(inode, i_ino);
	key->inode = stable_inode_numbers(BPF_CORE_READ(sb, s_magic)) ?
		     0 : (__u64)inode;
	key->dev = BPF_CORE_READ(sb, s_dev);
	key->generation = BPF_CORE_READ(inode, i_generation);
}

/* One step of the name rule's hash (fmix64 of MurmurHash3 on a sum). */
static __always_inline __u64 name_mix(__u64 h, __u64 v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	return h ^ (h >> 33);
}

/*
 * The key of the name rule on @name (two words of the NUL-padded name)
 * in the directory @dir: see CORRAL_NAME_RULE_INODE.  The directory's
 * address is left out of the hash (the verifier forbids arithmetic on a
 * trusted pointer): where (s_dev, i_ino, i_generation) repeat, the rule
 * also denies that name in the other directory, which only denies more.
 */
static __always_inline void name_key(struct corral_rule_key *key,
				     __u64 domain, struct inode *dir,
				     const __u64 name[2])
{
	__u64 h;

	rule_key(key, domain, dir);
	h = name_mix(key->ino, ((__u64)key->dev << 32) | key->generation);
	h = name_mix(h, name[0]);
	key->ino = name_mix(h, name[1]);
	key->inode = CORRAL_NAME_RULE_INODE;
}

/* The word of a rule found, 0 for none; a pin is no right. */
static __always_inline __u32 rule_word(const struct corral_rule *rule)
{
	return rule ? corral_rule_word(rule->access & CORRAL_ACCESS_ALL,
				       rule->deny) : 0;
}

/* The word of the rule on @inode itself, 0 if none. */
static __always_inline __u32 inode_access(__u64 domain, struct inode *inode)
{
	struct corral_rule_key key = {};

	rule_key(&key, domain, inode);
	return rule_word(bpf_map_lookup_elem(&rules, &key));
}

/* The word of the rule on this very dentry's inode, 0 if none. */
static __always_inline __u32 own_access(__u64 domain, struct dentry *dentry)
{
	struct inode *inode = BPF_CORE_READ(dentry, d_inode);

	return inode ? inode_access(domain, inode) : 0;
}

/* The domain's list of file tags as if 32 long, 0xffff past its end. */
static __always_inline int tag_at(const struct corral_task *t, __u32 i)
{
	/* opaque: else clang, knowing @i's low bits clear, ORs them into
	 * the stack pointer, which the verifier refuses (6.18) */
	barrier_var(i);
	return i < CORRAL_FILE_TAGS ? t->file_tags[i] : 0xffff;
}

/*
 * May @t have a rule on the non-directory numbered @ino?  0 proves it
 * has none: its tag is not in the domain's sorted list (a search of five
 * steps, no map lookup).
 */
static __always_inline int file_rule_possible(const struct corral_task *t,
					      __u64 ino)
{
	__u16 tag = corral_file_tag(ino);
	__u32 k = 0;

	if (!(t->flags & CORRAL_TASK_FILE_TAGS))
		return 1;
	if (tag_at(t, 15) < tag)
		k = 16;
	if (tag_at(t, k + 7) < tag)
		k += 8;
	if (tag_at(t, k + 3) < tag)
		k += 4;
	if (tag_at(t, k + 1) < tag)
		k += 2;
	if (tag_at(t, k) < tag)
		k += 1;
	/* past the end: every tag is smaller, or @tag is 0xffff (a lookup) */
	return tag_at(t, k) == tag;
}

/*
 * inode_access() for @t's domain, looked up only where the domain's
 * filter of rule inode numbers allows a rule (corral_ino_bit()) and, for
 * a non-directory (@file), its list of file tags too.
 * @inode is a BTF pointer: the key is built with plain loads, not
 * rule_key()'s probe-read helper calls (a file's open pays this on every
 * false positive of the filter).
 */
static __always_inline __u32 filtered_access(const struct corral_task *t,
					     struct inode *inode, int file)
{
	struct corral_rule_key key = {};
	struct super_block *sb;

	key.ino = inode->i_ino;
	if (!(t->rule_inos & corral_ino_bit(key.ino)))
		return 0;
	if (file && !file_rule_possible(t, key.ino))
		return 0;
	sb = inode->i_sb;
	key.domain = t->domain;
	key.inode = stable_inode_numbers(sb->s_magic) ? 0 : (__u64)inode;
	key.dev = sb->s_dev;
	key.generation = inode->i_generation;
	return rule_word(bpf_map_lookup_elem(&rules, &key));
}

/*
 * Walk state.  Pointers are kernel addresses read with probe reads, as
 * the verifier does not track BTF pointers through the loop context.
 */
struct walk {
	__u64 domain;
	__u64 rule_inos;   /* the domain's corral_ino_bit()s */
	struct dentry *dentry;
	struct vfsmount *mnt;
	/*
	 * Read once per mount and per filesystem crossed, not at every
	 * level: a miss walks up to 64 levels, and each read is a helper
	 * call (the walk is most of a miss: bench (c) and (g) in
	 * tests/bench/RESULTS.md).
	 */
	struct dentry *mnt_root;   /* mnt's */
	struct super_block *sb;    /* the last inode's, then its: */
	__u64 dev;
	int stable;                /* stable_inode_numbers(s_magic) */
	__u32 want;       /* stop early once these are all granted */
	__u32 granted;    /* word of the unions seen so far */
	int finished;     /* reached the root, or granted covers want */
};

/* Never a right: a walk in a domain with denies goes to the root. */
#define WALK_TO_THE_ROOT (1u << 31)
#define WORD_DENIES (CORRAL_ACCESS_ALL << CORRAL_DENY_SHIFT)

enum step { STEP_PARENT, STEP_MOUNT, STEP_ROOT };

/*
 * One step up from (*dentry, *vfsmnt), Landlock's way: to d_parent, or at
 * a mount root to the mount point in the parent mount (STEP_MOUNT: the
 * same place, seen from above).  STEP_ROOT at the real root or the root
 * of a detached tree.  Pointers are probe-read kernel addresses.
 */
static __always_inline enum step step_up_from(struct dentry **dentry,
					      struct vfsmount **vfsmnt,
					      struct dentry *mnt_root)
{
	struct mount *mnt, *mnt_parent;
	struct dentry *parent;

	if (*dentry == mnt_root) {
		mnt = (void *)*vfsmnt - bpf_core_field_offset(struct mount, mnt);
		mnt_parent = BPF_CORE_READ(mnt, mnt_parent);
		if (mnt_parent == mnt)
			return STEP_ROOT;
		*dentry = BPF_CORE_READ(mnt, mnt_mountpoint);
		*vfsmnt = (void *)mnt_parent +
			  bpf_core_field_offset(struct mount, mnt);
		return STEP_MOUNT;
	}
	parent = BPF_CORE_READ(*dentry, d_parent);
	if (parent == *dentry)
		return STEP_ROOT;
	*dentry = parent;
	return STEP_PARENT;
}

static __always_inline enum step step_up(struct dentry **dentry,
					 struct vfsmount **vfsmnt)
{
	return step_up_from(dentry, vfsmnt, BPF_CORE_READ(*vfsmnt, mnt_root));
}

/* own_access() for the walk, with its superblock cache. */
static __always_inline __u32 walk_access(struct walk *w, struct dentry *dentry)
{
	struct corral_rule_key key = {};
	struct inode *inode = BPF_CORE_READ(dentry, d_inode);
	struct super_block *sb;

	if (!inode)
		return 0;
	key.ino = BPF_CORE_READ(inode, i_ino);
	if (!(w->rule_inos & corral_ino_bit(key.ino)))
		return 0;
	sb = BPF_CORE_READ(inode, i_sb);
	if (sb != w->sb) {
		w->sb = sb;
		w->dev = BPF_CORE_READ(sb, s_dev);
		w->stable = stable_inode_numbers(BPF_CORE_READ(sb, s_magic));
	}
	key.domain = w->domain;
	key.inode = w->stable ? 0 : (__u64)inode;
	key.dev = (__u32)w->dev;
	key.generation = BPF_CORE_READ(inode, i_generation);
	return rule_word(bpf_map_lookup_elem(&rules, &key));
}

static long walk_step(__u32 index, void *data)
{
	struct walk *w = data;
	/* locals: CO-RE relocations apply to kernel types only */
	struct dentry *dentry = w->dentry;
	struct vfsmount *vfsmnt = w->mnt;

	enum step step;

	w->granted |= walk_access(w, dentry);
	if ((w->granted & w->want) == w->want)
		goto done;
	step = step_up_from(&dentry, &vfsmnt, w->mnt_root);
	if (step == STEP_ROOT)
		goto done;
	if (step == STEP_MOUNT)
		w->mnt_root = BPF_CORE_READ(vfsmnt, mnt_root);
	w->dentry = dentry;
	w->mnt = vfsmnt;
	return 0;
done:
	w->finished = 1;
	return 1;
}

/* One step of walk_above_detached(): denies only, by d_parent. */
static long walk_denies_step(__u32 index, void *data)
{
	struct walk *w = data;
	struct dentry *dentry = w->dentry;
	struct dentry *parent;

	w->granted |= walk_access(w, dentry) & WORD_DENIES;
	parent = BPF_CORE_READ(dentry, d_parent);
	if (parent == dentry) {
		w->finished = 1;
		return 1;
	}
	w->dentry = parent;
	return 0;
}

/*
 * The root of a detached tree (open_tree(OPEN_TREE_CLONE), fsmount, a
 * descriptor of one handed in) is a directory of its filesystem like any
 * other: a deny above it must still hold, or cloning an allowed
 * directory below a deny would shed the deny.  A domain with denies goes
 * on up the filesystem's own d_parent chain from where @w stopped,
 * taking denies only (the allows there are not on the way the object
 * was reached).  At the real root there is nothing above: no step.  A
 * second loop, not a state of walk_step(): newer verifiers go over a
 * loop's callback until its states converge, and path_rename, which
 * walks twice, then ran past their million instructions.  0, or -EACCES
 * if cut short.
 */
static __always_inline int walk_above_detached(struct walk *w)
{
	/* a local: CO-RE relocations apply to kernel types only */
	struct dentry *dentry = w->dentry;
	struct dentry *parent = BPF_CORE_READ(dentry, d_parent);

	if (parent == dentry)
		return 0;
	w->dentry = parent;
	w->finished = 0;
	bpf_loop(CORRAL_MAX_DEPTH, walk_denies_step, w, 0);
	return w->finished ? 0 : -EACCES;
}

/*
 * Word of the rules on the path from @dentry (in @mnt) up to the root,
 * stopping early once @want is allowed, unless the domain has deny rules
 * (one above could take it back: the walk then wants bit 31, which no
 * rule has).  Returns -EACCES if the walk was cut short by
 * CORRAL_MAX_DEPTH: an unfinished walk never allows.
 */
static __always_inline long path_granted(const struct corral_task *t,
					 struct vfsmount *mnt,
					 struct dentry *dentry, __u32 want)
{
	struct walk w = {
		.domain = t->domain,
		.rule_inos = t->rule_inos,
		.dentry = dentry,
		.mnt = mnt,
		.mnt_root = BPF_CORE_READ(mnt, mnt_root),
		.want = t->flags & CORRAL_TASK_DENY ? WALK_TO_THE_ROOT : want,
	};

	bpf_loop(CORRAL_MAX_DEPTH, walk_step, &w, 0);
	if (!w.finished)
		return -EACCES;
	if (w.want == WALK_TO_THE_ROOT && walk_above_detached(&w))
		return -EACCES;
	return w.granted;
}

#endif /* CORRAL_WALK_H */
