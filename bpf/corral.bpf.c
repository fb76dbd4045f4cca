// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * corral.bpf.c - the BPF-LSM programs shared by every corral sandbox.
 *
 * One program set, loaded once per boot by `corral setup`, serves all
 * sandboxes.  A sandbox is a domain: a random 64-bit id carried in task
 * storage by every task of the sandbox, and rules keyed by {domain, inode}.
 *
 * Every hook starts the same way:
 *   - a previous BPF-LSM program already denied: keep its answer;
 *   - the task carries no domain: return 0 at once.  An unsandboxed task
 *     pays one load (has it any BPF local storage at all?) per hook and
 *     nothing else, and no hook runs on the paths every process takes
 *     most (no file_free_security: see open_denied in maps.h).
 *
 * Inside a domain everything fails closed: a walk deeper than
 * CORRAL_MAX_DEPTH, a missing domain or a failed storage allocation is a
 * denial, never an allow.
 *
 * The decision is Landlock's: an access is allowed iff the union of the
 * rights of the rules found on the path actually used, from the object up
 * to the real root (walking d_parent, and at a mount root continuing from
 * the mount point in the parent mount), covers it (walk.h); beyond
 * Landlock, minus the union of the deny rules found on the same path
 * (corral_rights() in corral_abi.h).
 *
 * The interest mask (marks.h) makes that one lookup.  A walk that allows
 * something caches its result as a mark on the directory it started from
 * (an entry of the hash map "marks" keyed by that directory's inode; why
 * an entry never outlives its inode is explained in marks.h):
 * a slot {domain, vfsmount, topology generation, rights}.  The next access
 * in that directory, by the same domain through the same mount, reads the
 * slot and is done; denials leave no mark, so marks exist only on
 * directories under allowed subtrees.  An unmarked directory is judged
 * from its parent's mark plus its own rule, and a miss walks from the
 * parent and marks both, so a fresh directory beside marked ones costs
 * two lookups, not a walk (parent_granted in marks.h).  Files are judged through the
 * directory of the dentry used (plus the file's own rule, looked up only
 * when the domain's filter of rule inode numbers says one may exist: see
 * corral_ino_bit()), so a hard link cannot carry a mark.
 *
 * What can make a mark wrong is a directory moving relative to the root
 * while the mark lives.  One global generation counter ("topology") is
 * bumped AFTER every such change has happened: a directory renamed or
 * exchanged (fexit of vfs_rename: plain file renames change no ancestry
 * and do not bump), a mount added, moved or removed (fexit of path_mount,
 * path_umount, move_mount(2), pivot_root(2)), and a mount freed (fexit of
 * cleanup_mnt, so a later mount reusing the same struct vfsmount address
 * cannot meet an old mark).  A mark carries the generation read BEFORE its
 * walk began, and a slot of another generation is a miss.  The race this
 * closes: a sandboxed open walks while another task moves a directory out
 * of the allowed tree.  If the walk began before the move completed, it
 * read the old generation and the bump that follows the move makes its
 * mark stale before anyone can use it; if it began after the bump, it saw
 * the moved tree.  Either way no access after the move is decided by
 * pre-move ancestry, except the open racing the move itself, which
 * Landlock's lock-free walk shares.  The bump is global rather than per
 * superblock because a mark's walk may cross several filesystems; renames
 * of directories are rare next to opens, so the cost is a few extra walks.
 * Slots are read and written under the mark's spin lock, so a reader
 * never sees half a slot.
 */
#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "corral_abi.h"
#include "maps.h"
#include "marks.h"
#include "events.h"
#include "net.h"
#include "fown.h"

char LICENSE[] SEC("license") = "GPL";

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
	if (granted >= 0 && (t->flags & CORRAL_TASK_FILE_RULES) &&
	    file_filter_allows(t, inode->i_ino))
		granted |= filtered_access(t, inode);
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

/*
 * Since 6.6 overlayfs opens the real file as a "backing file" whose f_path
 * is the lower path; the overlay-level open was already judged, so judging
 * the backing one again would deny by the path nobody used.  FMODE_BACKING
 * moved from bit 25 to bit 24 in 6.12, and is still bit 24 on 6.18 and
 * 7.3 (the guest suites' root is an overlay: a wrong bit denies them all).
 */
static __always_inline int is_backing_file(struct file *file)
{
	fmode_t mode = file->f_mode;

	if (LINUX_KERNEL_VERSION >= KERNEL_VERSION(6, 12, 0))
		return !!(mode & (1u << 24));
	if (LINUX_KERNEL_VERSION >= KERNEL_VERSION(6, 6, 0))
		return !!(mode & (1u << 25));
	return 0;
}

/* @file is the hook's BTF pointer: direct loads, cheaper than probe reads */
static __always_inline __u32 open_access(struct file *file)
{
	fmode_t mode = file->f_mode;
	umode_t imode = file->f_inode->i_mode;
	__u32 want = 0;

	if (mode & FMODE_READ) {
		if (S_ISDIR(imode))
			return CORRAL_ACCESS_READDIR;
		want |= CORRAL_ACCESS_READ;
	}
	if (mode & FMODE_WRITE)
		want |= CORRAL_ACCESS_WRITE;
	if (file->f_flags & __FMODE_EXEC)
		want |= CORRAL_ACCESS_EXEC;
	return want;
}

/*
 * Opens the kernel makes on its own behalf for an access already judged:
 * overlayfs reading a lower directory or copying a file up does so under
 * the mounter's credentials (override_creds) through its layers' private
 * mounts (clone_private_mount), which belong to no mount namespace
 * (MNT_NS_INTERNAL).  Landlock, whose domain lives in the credentials,
 * lets them through for the same reason.
 *
 * Overridden credentials alone do not make an open the kernel's: io_uring
 * runs a request under the credentials its submitter had when it was
 * queued, so a task that changed its credentials (PR_SET_KEEPCAPS is
 * enough) then queued an IORING_OP_OPENAT ran it overridden, in io-wq, in
 * SQPOLL or inline, and was waved through.  What no task can do is name a
 * path on a private mount: such a mount is in no namespace, and no
 * descriptor on it reaches user space (overlayfs keeps its real files to
 * itself; /proc/PID/map_files needs CAP_SYS_ADMIN).  So an open under
 * overridden credentials on a mount of some namespace is judged like any
 * other, under the domain of the task doing it: io-wq workers and SQPOLL
 * threads are threads of the submitter and carry its domain from
 * task_alloc, and IORING_SETUP_ATTACH_WQ only shares a worker of the same
 * process.  Registered personalities are refused (uring_override_creds).
 */
#define MNT_NS_INTERNAL ((void *)-22L)    /* ERR_PTR(-EINVAL), fs/mount.h */

static __always_inline int kernel_private_open(struct file *file)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct mount *mnt;

	if (task->cred == task->real_cred)
		return 0;
	mnt = (void *)file->f_path.mnt -
	      bpf_core_field_offset(struct mount, mnt);
	return BPF_CORE_READ(mnt, mnt_ns) == MNT_NS_INTERNAL;
}

static __always_inline __u64 denied_bits(__u32 rights)
{
	return (rights & CORRAL_ACCESS_IOCTL ? DENIED_IOCTL : 0) |
	       (rights & CORRAL_ACCESS_TRUNCATE ? DENIED_TRUNCATE : 0);
}

/* What a new entry and a new count start from, in read-only data:
 * open_denied_note()'s frame and file_open's must fit 512 bytes together
 * on 6.1, and an entry on the stack is 136 of them. */
static const struct open_denied_files empty_entry;
static const __s64 no_charge = 0;

/* The count of open_denied entries of the user @uid points at, made at 0
 * on its first. */
static __always_inline __s64 *uid_charge(__u32 *uid)
{
	__s64 *n = bpf_map_lookup_elem(&denied_creds_by_uid, uid);

	if (n)
		return n;
	bpf_map_update_elem(&denied_creds_by_uid, uid, &no_charge,
			    BPF_NOEXIST);
	return bpf_map_lookup_elem(&denied_creds_by_uid, uid);
}

/* Adds one to @count if it is below @limit: 1, or 0 if not. */
static __always_inline int charge(__s64 *count, __s64 limit)
{
	if (__sync_fetch_and_add(count, 1) < limit)
		return 1;
	__sync_fetch_and_add(count, -1);
	return 0;
}

/*
 * The entry of opener @cred, whose real uid is @uid, made and charged to
 * @domain and to that user if it has none (see open_denied in maps.h):
 * NULL when either has used its share, or the domain is gone.
 * Credentials never change once in use, so cred_free finds the same uid.
 */
static __always_inline struct open_denied_files *
open_denied_entry(__u64 domain, __u64 cred, __u32 uid)
{
	struct open_denied_files *d;
	struct corral_domain *dom;
	__u64 key = cred;       /* 6.1: a map key must be on the stack */
	__s64 *by_uid;

	d = bpf_map_lookup_elem(&open_denied, &key);
	if (d)
		return d;
	dom = bpf_map_lookup_elem(&domains, &domain);
	if (!dom)
		return NULL;
	by_uid = uid_charge(&uid);
	if (!by_uid)
		return NULL;
	if (!charge(&dom->denied_creds, CORRAL_DENIED_CREDS_PER_DOMAIN))
		return NULL;
	if (!charge(by_uid, denied_creds_per_uid)) {
		__sync_fetch_and_add(&dom->denied_creds, -1);
		return NULL;
	}
	/* another thread of the same credentials (so of the same domain)
	 * may race us here: the loser gives its charges back */
	if (bpf_map_update_elem(&open_denied, &key, &empty_entry,
				BPF_NOEXIST)) {
		__sync_fetch_and_add(&dom->denied_creds, -1);
		__sync_fetch_and_add(by_uid, -1);
	}
	d = bpf_map_lookup_elem(&open_denied, &key);
	if (d)
		d->domain = domain;   /* read only at cred_free */
	return d;
}

/*
 * Records that opener @cred got @inode without @rights (ioctl on a
 * device, truncate on a regular file).  A global function, so that the
 * entry it builds on its stack is verified once and not added to the
 * stack of a walk in the same hook (6.1's limit of 512 bytes).  Returns
 * 0, or -EACCES when it cannot remember: the caller refuses the open
 * (fail closed).
 */
__noinline int open_denied_note(__u64 domain, __u64 cred, __u32 uid,
				__u64 inode, __u32 rights)
{
	struct open_denied_files *d = open_denied_entry(domain, cred, uid);
	__u64 bits = denied_bits(rights), cur;

	if (!d)
		return -EACCES;
#pragma unroll
	for (int i = 0; i < CORRAL_DENIED_FILES; i++) {
		cur = d->slot[i];
		if (!cur)
			cur = __sync_val_compare_and_swap(&d->slot[i], 0,
							  inode | bits);
		if (!cur)
			return 0;       /* claimed */
		if ((cur & ~DENIED_BITS) == inode) {
			__sync_fetch_and_or(&d->slot[i], bits);
			return 0;
		}
	}
	return -EACCES;
}

/* Did @cred open @inode without one of @rights? */
static __always_inline int open_was_denied(__u64 cred, __u64 inode,
					   __u32 rights)
{
	struct open_denied_files *d = bpf_map_lookup_elem(&open_denied, &cred);
	__u64 found = 0;

	if (!d)
		return 0;
#pragma unroll
	for (int i = 0; i < CORRAL_DENIED_FILES; i++) {
		if ((d->slot[i] & ~DENIED_BITS) == inode)
			found |= d->slot[i];
	}
	return (found & denied_bits(rights)) != 0;
}

/* Was @file opened without @rights, by whoever opened it? */
static __always_inline int file_denied(struct file *file, __u32 rights)
{
	return open_was_denied((__u64)BPF_CORE_READ(file, f_cred),
			       (__u64)BPF_CORE_READ(file, f_inode), rights);
}

/*
 * What an open inside a domain does not get, decided now, as Landlock
 * does: ioctl on a device, truncate on a regular file opened for
 * writing (ftruncate and O_TRUNC are judged from this record).
 */
static __always_inline __u32 open_withheld(struct file *file, long granted)
{
	umode_t imode = file->f_inode->i_mode;

	if (S_ISDEV(imode) && !covers(granted, CORRAL_ACCESS_IOCTL))
		return CORRAL_ACCESS_IOCTL;
	/* O_TRUNC is still in f_flags here; it truncates a file opened
	 * read-only too */
	if (S_ISREG(imode) &&
	    ((file->f_mode & FMODE_WRITE) || (file->f_flags & O_TRUNC)) &&
	    !covers(granted, CORRAL_ACCESS_TRUNCATE))
		return CORRAL_ACCESS_TRUNCATE;
	return 0;
}

SEC("lsm/file_open")
int BPF_PROG(corral_file_open, struct file *file, int ret)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t;
	__u32 want, withheld;
	__u64 cred = 0, inode = 0;
	long granted;

	if (ret)
		return ret;
	t = task_dom(&tbuf);
	if (!t)
		return 0;
	if (is_backing_file(file) || kernel_private_open(file))
		return 0;
	want = open_access(file);
	/* memfd and other files of internal mounts have no path to judge;
	 * executing them is refused unless the profile allows it. */
	if (is_internal(file->f_path.dentry)) {
		if (!(want & CORRAL_ACCESS_EXEC) ||
		    (t->flags & CORRAL_TASK_EXEC_ANON))
			return 0;
		return report(t, NULL, NULL, CORRAL_ACCESS_EXEC,
			      CORRAL_HOOK_OPEN, -EACCES);
	}
	granted = object_granted(t, &file->f_path);
	if (!covers(granted, want))
		return report(t, file->f_path.mnt, file->f_path.dentry,
			      missing(granted, want), CORRAL_HOOK_OPEN, -EACCES);
	withheld = open_withheld(file, granted);
	if (!withheld)
		return 0;
	/* plain numbers for the global function: newer verifiers refuse
	 * pointers there */
	bpf_probe_read_kernel(&cred, sizeof(cred), &file->f_cred);
	bpf_probe_read_kernel(&inode, sizeof(inode), &file->f_inode);
	if (!open_denied_note(t->domain, cred,
			      BPF_CORE_READ(file, f_cred, uid.val), inode,
			      withheld))
		return 0;
	return report(t, file->f_path.mnt, file->f_path.dentry, withheld,
		      CORRAL_HOOK_OPEN, -EACCES);
}

/*
 * The files these credentials opened are all gone: so is their entry, and
 * its charge goes back to its user, and to its domain if that still
 * lives.
 */
SEC("lsm/cred_free")
void BPF_PROG(corral_cred_free, struct cred *cred)
{
	__u64 key = (__u64)cred;
	struct open_denied_files *d = bpf_map_lookup_elem(&open_denied, &key);
	struct corral_domain *dom;
	__u32 uid = BPF_CORE_READ(cred, uid.val);
	__u64 domain;
	__s64 *by_uid;

	if (!d)
		return;
	domain = d->domain;
	if (bpf_map_delete_elem(&open_denied, &key))
		return;
	dom = bpf_map_lookup_elem(&domains, &domain);
	if (dom)
		__sync_fetch_and_add(&dom->denied_creds, -1);
	by_uid = bpf_map_lookup_elem(&denied_creds_by_uid, &uid);
	if (by_uid)
		__sync_fetch_and_add(by_uid, -1);
}

/* ioctl commands that never reach a driver's own code (as Landlock). */
static __always_inline int ioctl_always_allowed(unsigned int cmd)
{
	switch (cmd) {
	case 0x5451:            /* FIOCLEX */
	case 0x5450:            /* FIONCLEX */
	case 0x5421:            /* FIONBIO */
	case 0x5452:            /* FIOASYNC */
	case 0x5460:            /* FIOQSIZE */
	case 0xc0045877:        /* FIFREEZE */
	case 0xc0045878:        /* FITHAW */
	case 0xc020660b:        /* FS_IOC_FIEMAP */
	case 0x2:               /* FIGETBSZ */
	case 0x40049409:        /* FICLONE */
	case 0x4020940d:        /* FICLONERANGE */
	case 0xc0189436:        /* FIDEDUPERANGE */
	case 0x80111500:        /* FS_IOC_GETFSUUID */
	case 0x80811501:        /* FS_IOC_GETFSSYSFSPATH */
		return 1;
	default:
		return 0;
	}
}

/*
 * ioctl(2): a device opened without the ioctl right, and ownership
 * changes that could aim a signal outside the domain (fown.h).
 */
static __always_inline int check_ioctl(struct file *file, unsigned int cmd,
				       unsigned long arg)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t;

	t = task_dom(&tbuf);
	if (!t)
		return 0;
	if (!fown_ioctl_allowed(file, cmd, arg))
		return report(t, NULL, NULL, 0, CORRAL_HOOK_SIGNAL, -EPERM);
	if (ioctl_always_allowed(cmd) || !file_denied(file, CORRAL_ACCESS_IOCTL))
		return 0;
	return report(t, file->f_path.mnt, file->f_path.dentry,
		      CORRAL_ACCESS_IOCTL, CORRAL_HOOK_IOCTL, -EACCES);
}

SEC("lsm/file_ioctl")
int BPF_PROG(corral_file_ioctl, struct file *file, unsigned int cmd,
	     unsigned long arg, int ret)
{
	return ret ? ret : check_ioctl(file, cmd, arg);
}

/*
 * 32-bit ioctl(2) (since 6.8, and Debian's 6.1): without it a compat
 * task reached any device driver.  Not attached where the hook is absent.
 * The command numbers that matter here are the same in both ABIs.
 */
SEC("lsm/file_ioctl_compat")
int BPF_PROG(corral_file_ioctl_compat, struct file *file, unsigned int cmd,
	     unsigned long arg, int ret)
{
	return ret ? ret : check_ioctl(file, cmd, arg);
}

/*
 * IORING_OP_URING_CMD hands a command to the driver's own code, as an
 * ioctl would: refused on a device opened without the ioctl right.
 */
SEC("lsm/uring_cmd")
int BPF_PROG(corral_uring_cmd, struct io_uring_cmd *ioucmd, int ret)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t;
	struct file *file;

	if (ret)
		return ret;
	t = task_dom(&tbuf);
	if (!t)
		return 0;
	file = BPF_CORE_READ(ioucmd, file);
	if (!file_denied(file, CORRAL_ACCESS_IOCTL))
		return 0;
	return report(t, NULL, NULL, CORRAL_ACCESS_IOCTL, CORRAL_HOOK_IOCTL,
		      -EACCES);
}

/* An io_uring personality would run requests with other credentials. */
SEC("lsm/uring_override_creds")
int BPF_PROG(corral_uring_override_creds, const struct cred *new, int ret)
{
	return ret ? ret : deny_in_domain(CORRAL_HOOK_OPEN);
}

/*
 * Before 6.2, ftruncate(2) reaches path_truncate with its file's f_path
 * but not the file.  The system call's descriptor names it: the file is
 * the one whose f_path is @path (a pointer compare, so nothing else can
 * pass for it).  NULL for truncate(2) and O_TRUNC, judged by path.
 */
static __always_inline struct file *ftruncate_file(const struct path *path)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(task);
	unsigned long nr = BPF_CORE_READ(regs, orig_ax) & ~X32_SYSCALL_BIT;
	unsigned long fd, max, where = (unsigned long)path;
	struct file **fds;
	struct file *file = NULL;

	/* an opaque copy: else the compiler, knowing the two equal after
	 * the compare below, hands the caller the unverifiable one */
	barrier_var(where);

	if (nr == NR_FTRUNCATE_64)
		fd = BPF_CORE_READ(regs, di);
	else if (nr == NR_FTRUNCATE_32 || nr == NR_FTRUNCATE64_32)
		fd = BPF_CORE_READ(regs, bx);
	else
		return NULL;
	max = BPF_CORE_READ(task, files, fdt, max_fds);
	fds = BPF_CORE_READ(task, files, fdt, fd);
	if (fd >= max ||
	    bpf_probe_read_kernel(&file, sizeof(file), (void *)fds + fd * 8) ||
	    !file)
		return NULL;
	if ((unsigned long)file + bpf_core_field_offset(struct file, f_path) !=
	    where)
		return NULL;
	return file;
}

/* truncate(2), and before 6.2 O_TRUNC and ftruncate(2) too. */
SEC("lsm/path_truncate")
int BPF_PROG(corral_path_truncate, const struct path *path, int ret)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t;
	struct file *file;

	if (ret)
		return ret;
	t = task_dom(&tbuf);
	if (!t)
		return 0;
	file = ftruncate_file(path);
	if (!file)
		return check_path(t, path, CORRAL_ACCESS_TRUNCATE,
				  CORRAL_HOOK_TRUNCATE);
	if (!file_denied(file, CORRAL_ACCESS_TRUNCATE))
		return 0;
	return report(t, path->mnt, path->dentry, CORRAL_ACCESS_TRUNCATE,
		      CORRAL_HOOK_TRUNCATE, -EACCES);
}

/*
 * ftruncate(2) and O_TRUNC since 6.2 (not attached where the hook is
 * absent): decided when the file was opened (open_withheld), as Landlock
 * does, so a file opened outside the domain keeps the right.
 */
SEC("lsm/file_truncate")
int BPF_PROG(corral_file_truncate, struct file *file, int ret)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t;

	if (ret)
		return ret;
	t = task_dom(&tbuf);
	if (!t || !file_denied(file, CORRAL_ACCESS_TRUNCATE))
		return 0;
	return report(t, file->f_path.mnt, file->f_path.dentry,
		      CORRAL_ACCESS_TRUNCATE, CORRAL_HOOK_TRUNCATE, -EACCES);
}

/* Creating or removing @dentry in @dir. */
static __always_inline int check_dir_op(const struct path *dir,
					struct dentry *dentry, __u32 want)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t = task_dom(&tbuf);

	if (!t)
		return 0;
	return check_path_child(t, dir, dentry, want,
				want == CORRAL_ACCESS_CREATE ?
				CORRAL_HOOK_CREATE : CORRAL_HOOK_REMOVE);
}

SEC("lsm/path_mknod")
int BPF_PROG(corral_path_mknod, const struct path *dir, struct dentry *dentry,
	     umode_t mode, unsigned int dev, int ret)
{
	return ret ? ret : check_dir_op(dir, dentry, CORRAL_ACCESS_CREATE);
}

SEC("lsm/path_mkdir")
int BPF_PROG(corral_path_mkdir, const struct path *dir, struct dentry *dentry,
	     umode_t mode, int ret)
{
	return ret ? ret : check_dir_op(dir, dentry, CORRAL_ACCESS_CREATE);
}

SEC("lsm/path_symlink")
int BPF_PROG(corral_path_symlink, const struct path *dir,
	     struct dentry *dentry, const char *old_name, int ret)
{
	return ret ? ret : check_dir_op(dir, dentry, CORRAL_ACCESS_CREATE);
}

SEC("lsm/path_unlink")
int BPF_PROG(corral_path_unlink, const struct path *dir, struct dentry *dentry,
	     int ret)
{
	return ret ? ret : check_dir_op(dir, dentry, CORRAL_ACCESS_REMOVE);
}

SEC("lsm/path_rmdir")
int BPF_PROG(corral_path_rmdir, const struct path *dir, struct dentry *dentry,
	     int ret)
{
	return ret ? ret : check_dir_op(dir, dentry, CORRAL_ACCESS_REMOVE);
}

static __always_inline int is_dir_dentry(struct dentry *dentry)
{
	struct inode *inode = BPF_CORE_READ(dentry, d_inode);

	return inode && S_ISDIR(BPF_CORE_READ(inode, i_mode));
}

/*
 * Would moving @child from a directory of word @from to one of word @to
 * give it a right it did not have?  The child's own rule (allows and
 * denies) moves with its inode, so it counts on both sides; the denies
 * of the directories above do not, so a file leaving a denied subtree
 * gains what they took, and may not move.  A file only cares about file
 * rights.
 */
static __always_inline int gains_access(__u64 domain, struct dentry *child,
					__u32 from, __u32 to)
{
	__u32 mask = is_dir_dentry(child) ? CORRAL_ACCESS_ALL
					  : CORRAL_ACCESS_FILE;
	__u32 own = own_access(domain, child);

	return !!(corral_rights(to | own) & mask &
		  ~corral_rights(from | own));
}

/*
 * Link and rename (Landlock's refer rules).  Within one directory only
 * create/remove on it matter.  Across directories both sides also need
 * refer, and the moved entry must not gain rights (EXDEV).  EACCES wins
 * over EXDEV: a missing create or remove is reported first.
 */
static __always_inline int check_refer(struct corral_task *t,
				       struct vfsmount *mnt,
				       struct dentry *src,
				       struct dentry *old_dentry,
				       struct dentry *dst,
				       struct dentry *new_dentry,
				       __u32 src_want, __u32 dst_want,
				       int exchange, __u32 hook)
{
	long from, to;

	from = dir_granted(t, mnt, src, src->d_inode);
	if (src == dst) {
		if (covers(from, src_want | dst_want))
			return 0;
		return report(t, mnt, dst, missing(from, src_want | dst_want),
			      hook, -EACCES);
	}
	if (!covers(from, src_want))
		return report(t, mnt, src, missing(from, src_want), hook,
			      -EACCES);
	to = dir_granted(t, mnt, dst, dst->d_inode);
	if (!covers(to, dst_want))
		return report(t, mnt, dst, missing(to, dst_want), hook,
			      -EACCES);
	if (!(corral_rights(from) & corral_rights(to) & CORRAL_ACCESS_REFER) ||
	    gains_access(t->domain, old_dentry, from, to) ||
	    (exchange && gains_access(t->domain, new_dentry, to, from)))
		return report(t, mnt, old_dentry, CORRAL_ACCESS_REFER, hook,
			      -EXDEV);
	return 0;
}

/* link(2) and rename(2) never cross mounts: one vfsmount serves both. */
SEC("lsm/path_link")
int BPF_PROG(corral_path_link, struct dentry *old_dentry,
	     const struct path *new_dir, struct dentry *new_dentry, int ret)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t;

	if (ret)
		return ret;
	t = task_dom(&tbuf);
	if (!t)
		return 0;
	return check_refer(t, new_dir->mnt, old_dentry->d_parent, old_dentry,
			   new_dir->dentry, new_dentry,
			   0, CORRAL_ACCESS_CREATE, 0, CORRAL_HOOK_LINK);
}

SEC("lsm/path_rename")
int BPF_PROG(corral_path_rename, const struct path *old_dir,
	     struct dentry *old_dentry, const struct path *new_dir,
	     struct dentry *new_dentry, unsigned int flags, int ret)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t;
	__u32 src_want = CORRAL_ACCESS_REMOVE;
	__u32 dst_want = CORRAL_ACCESS_CREATE;
	int exchange = !!(flags & RENAME_EXCHANGE);

	if (ret)
		return ret;
	t = task_dom(&tbuf);
	if (!t)
		return 0;
	if (exchange) {
		src_want |= CORRAL_ACCESS_CREATE;
		dst_want |= CORRAL_ACCESS_REMOVE;
	} else if (BPF_CORE_READ(new_dentry, d_inode)) {
		dst_want |= CORRAL_ACCESS_REMOVE;  /* replaces an entry */
	}
	return check_refer(t, new_dir->mnt, old_dir->dentry, old_dentry,
			   new_dir->dentry, new_dentry, src_want, dst_want,
			   exchange, CORRAL_HOOK_RENAME);
}

/* Mount changes: EPERM inside any sandbox, as Landlock does. */

SEC("lsm/sb_mount")
int BPF_PROG(corral_sb_mount, const char *dev_name, const struct path *path,
	     const char *type, unsigned long flags, void *data, int ret)
{
	return ret ? ret : deny_in_domain(CORRAL_HOOK_MOUNT);
}

SEC("lsm/sb_umount")
int BPF_PROG(corral_sb_umount, struct vfsmount *mnt, int flags, int ret)
{
	return ret ? ret : deny_in_domain(CORRAL_HOOK_MOUNT);
}

SEC("lsm/sb_remount")
int BPF_PROG(corral_sb_remount, struct super_block *sb, void *mnt_opts, int ret)
{
	return ret ? ret : deny_in_domain(CORRAL_HOOK_MOUNT);
}

SEC("lsm/sb_pivotroot")
int BPF_PROG(corral_sb_pivotroot, const struct path *old_path,
	     const struct path *new_path, int ret)
{
	return ret ? ret : deny_in_domain(CORRAL_HOOK_MOUNT);
}

SEC("lsm/move_mount")
int BPF_PROG(corral_move_mount, const struct path *from_path,
	     const struct path *to_path, int ret)
{
	return ret ? ret : deny_in_domain(CORRAL_HOOK_MOUNT);
}

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
	child->domain = parent->domain;
	child->flags = parent->flags;
	child->rule_inos = parent->rule_inos;
	__builtin_memcpy(child->file_filter, parent->file_filter,
			 sizeof(child->file_filter));
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
 */
static __always_inline void domain_died(__u64 domain)
{
	__u32 *n = bpf_map_lookup_elem(&domain_nrules, &domain);

	bpf_map_delete_elem(&domains, &domain);
	if (n)
		bpf_loop(*n, drop_rule, &domain, 0);
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
		domain_died(domain);
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

/*
 * A directory inode is freed: its mark goes with it, so that an inode
 * allocated at the same address never meets it (marks.h).  Runs for
 * every inode freed on the machine; for all but directories it is one
 * load.
 */
SEC("lsm/inode_free_security")
void BPF_PROG(corral_inode_free, struct inode *inode)
{
	mark_inode_freed(inode);
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
	rule_key(&key, reg->domain, inode);
	reg->ino_bit = corral_ino_bit(key.ino);
	reg->file_filter_index = S_ISDIR(inode->i_mode) ? 0 :
				 corral_file_filter_index(key.ino) + 1;
	old = bpf_map_lookup_elem(&rules, &key);
	if (old) {
		old->access |= reg->access;  /* single writer: the launcher */
		old->deny |= reg->deny;
		reg->status = CORRAL_REGISTER_DONE;
		return 0;
	}
	rule.access = reg->access;
	rule.deny = reg->deny;
	/* Only the launcher writes its own domain's rules: no insert race. */
	if (index_rule(&key) ||
	    bpf_map_update_elem(&rules, &key, &rule, BPF_NOEXIST))
		reg->status = -ENOSPC;  /* map full: the launcher fails closed */
	else
		reg->status = CORRAL_REGISTER_DONE;
	return 0;
}

/*
 * Topology changes (see the top of this file): bump after the fact.
 * These are tracing programs, not LSM hooks: they run for every task but
 * do nothing unless the change really happened.
 */
SEC("fexit/vfs_rename")
int BPF_PROG(corral_rename_done, struct renamedata *rd, int ret)
{
	if (ret)
		return 0;
	if (is_dir_dentry(BPF_CORE_READ(rd, old_dentry)) ||
	    ((BPF_CORE_READ(rd, flags) & RENAME_EXCHANGE) &&
	     is_dir_dentry(BPF_CORE_READ(rd, new_dentry))))
		topology_bump();
	return 0;
}

SEC("fexit/path_mount")
int BPF_PROG(corral_mount_done)
{
	topology_bump();
	return 0;
}

SEC("fexit/path_umount")
int BPF_PROG(corral_umount_done)
{
	topology_bump();
	return 0;
}

SEC("fexit/__x64_sys_move_mount")
int BPF_PROG(corral_move_mount_done)
{
	topology_bump();
	return 0;
}

SEC("fexit/__x64_sys_pivot_root")
int BPF_PROG(corral_pivot_root_done)
{
	topology_bump();
	return 0;
}

SEC("fexit/cleanup_mnt")
int BPF_PROG(corral_mount_freed)
{
	topology_bump();
	return 0;
}

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

SEC("lsm/ptrace_access_check")
int BPF_PROG(corral_ptrace_access_check, struct task_struct *child,
	     unsigned int mode, int ret)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t;

	if (ret)
		return ret;
	t = task_dom(&tbuf);
	if (!t || same_domain(t, child))
		return 0;
	return report(t, NULL, NULL, 0, CORRAL_HOOK_PTRACE, -EPERM);
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
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t;

	if (ret)
		return ret;
	t = task_dom(&tbuf);
	if (!t || same_domain(t, p))
		return 0;
	return report(t, NULL, NULL, 0, CORRAL_HOOK_SIGNAL, -EPERM);
}

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
 * scopes them), and a named one needs write on the socket file, which
 * closes the D-Bus and systemd --user escape through a socket outside
 * the allowed tree (Landlock ABI 9's RESOLVE_UNIX, which also lets a
 * domain reach the servers it made itself).
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
	if (covers(granted, CORRAL_ACCESS_WRITE))
		return 0;
	return report(t, us->path.mnt, us->path.dentry, CORRAL_ACCESS_WRITE,
		      CORRAL_HOOK_CONNECT, -EACCES);
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
