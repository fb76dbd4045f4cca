/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hooks.h - what the LSM programs of every concern share: the rights a
 * domain has on a path (its directory's mark, or a walk on a miss, plus
 * a file's own rule), whether they cover an access, and the refusal of
 * operations no sandboxed task may do at all.  bpf/README.md explains
 * the decision path.
 */
#ifndef CORRAL_HOOKS_H
#define CORRAL_HOOKS_H

#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "corral_abi.h"
#include "maps.h"
#include "marks.h"
#include "events.h"

extern int LINUX_KERNEL_VERSION __kconfig;

/* For operations no sandboxed task may do at all. */
static __always_inline int deny_in_domain(__u32 hook)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t = task_dom(&tbuf);

	return t ? report(t, NULL, NULL, 0, hook, -EPERM) : 0;
}

/*
 * Pipes, sockets and anonymous inodes live on internal mounts: not paths.
 * @dentry is a BTF pointer the hook was given (or one field from it): a
 * direct load, not a probe-read helper call, as on every hit below.
 */
static __always_inline int is_internal(struct dentry *dentry)
{
	return !!(dentry->d_sb->s_flags & SB_NOUSER);
}

/*
 * Rights granted on the object @path names: those of its directory (one
 * mark lookup, or a walk on a miss), plus for a non-directory its own
 * rule, if the domain has rules on files at all.  The directory is the
 * parent of the dentry actually used, so a hard link elsewhere is judged
 * by where it is.  Negative: deny.
 */
static __always_inline long object_granted(struct corral_task *t,
					   const struct path *path)
{
	struct dentry *dentry = path->dentry;
	struct vfsmount *mnt = path->mnt;
	struct inode *inode = dentry->d_inode;
	struct dentry *dir;
	long granted;

	if (!inode)
		return -EACCES;
	if (S_ISDIR(inode->i_mode))
		return dir_granted(t, mnt, dentry, inode);
	if (dentry == mnt->mnt_root)    /* a file mounted on its own */
		return path_granted(t, mnt, dentry, CORRAL_ACCESS_ALL);
	dir = dentry->d_parent;
	granted = dir_granted(t, mnt, dir, dir->d_inode);
	if (granted >= 0 && (t->flags & CORRAL_TASK_FILE_RULES))
		granted |= filtered_access(t, inode, 1);
	return granted;
}

/* @granted: a rule word (walk.h), or negative to deny. */
static __always_inline int covers(long granted, __u32 want)
{
	return granted >= 0 && (corral_rights(granted) & want) == want;
}

static __always_inline __u32 missing(long granted, __u32 want)
{
	return granted < 0 ? want : want & ~corral_rights(granted);
}

/* @child: see report_child(); NULL when @path itself is the object. */
static __always_inline int check_path_child(struct corral_task *t,
					    const struct path *path,
					    struct dentry *child, __u32 want,
					    __u32 hook)
{
	long granted;

	if (!want || is_internal(path->dentry))
		return 0;
	granted = object_granted(t, path);
	if (covers(granted, want))
		return 0;
	return report_child(t, path->mnt, path->dentry, child,
			    missing(granted, want), hook, -EACCES);
}

static __always_inline int check_path(struct corral_task *t,
				      const struct path *path, __u32 want,
				      __u32 hook)
{
	return check_path_child(t, path, NULL, want, hook);
}

static __always_inline int is_dir_dentry(struct dentry *dentry)
{
	struct inode *inode = BPF_CORE_READ(dentry, d_inode);

	return inode && S_ISDIR(BPF_CORE_READ(inode, i_mode));
}

/* A count zeroed on first use, in read-only data (stack is short). */
static const __s64 zero_count = 0;

/*
 * @uid's count in the per-user charge map @map (denied_creds_by_uid,
 * creds_by_uid, fown_by_uid), made at 0 on its first entry; NULL if the
 * map has no room for another user.
 */
static __always_inline __s64 *uid_count(void *map, __u32 *uid)
{
	__s64 *n = bpf_map_lookup_elem(map, uid);

	if (n)
		return n;
	bpf_map_update_elem(map, uid, &zero_count, BPF_NOEXIST);
	return bpf_map_lookup_elem(map, uid);
}

/* Adds one to @count if it is below @limit: 1, or 0 if not. */
static __always_inline int charge(__s64 *count, __s64 limit)
{
	if (__sync_fetch_and_add(count, 1) < limit)
		return 1;
	__sync_fetch_and_add(count, -1);
	return 0;
}

#endif /* CORRAL_HOOKS_H */
