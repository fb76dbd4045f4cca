// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fs.bpf.c - the filesystem hooks: open (and exec, which opens), ioctl,
 * truncate, create and remove, link and rename, and mount changes.  Each
 * judges the path actually used (hooks.h, walk.h, marks.h); what an open
 * did not get (ioctl, truncate) is remembered for the file's later use
 * (open_denied in maps.h).
 */
#include "hooks.h"
#include "fown.h"

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
 * /proc/PID/ of a task outside the domain is read-only to a sandbox,
 * whatever its rules say (a writable /proc, or `--rwx /`): the kernel
 * lets a process write oom_score_adj, autogroup, comm... of any other
 * process of its user, so it is the same rule as ptrace.  1 if @file is
 * under /proc/PID/ (or /proc/PID/task/TID/) of a task whose domain is not
 * @t's, or of a task gone; @scratch is stack the caller lends.
 */
static __always_inline int proc_of_outsider(struct corral_task *t,
					    struct file *file,
					    __u64 *scratch)
{
	struct inode *inode = file->f_inode;
	struct proc_inode *ei;
	struct hlist_node *link;
	struct pid *pid;

	if (inode->i_sb->s_magic != PROC_SUPER_MAGIC)
		return 0;
	ei = (void *)inode - bpf_core_field_offset(struct proc_inode,
						   vfs_inode);
	pid = BPF_CORE_READ(ei, pid);
	if (!pid)
		return 0;               /* not a process's directory */
	link = BPF_CORE_READ(pid, tasks[PIDTYPE_PID].first);
	if (!link)
		return 1;
	*scratch = 0;
	/* the domain is corral_task's first field: copy only it */
	if (!storage_walk((void *)link - bpf_core_field_offset(
				  struct task_struct, pid_links),
			  &task_domain, scratch, sizeof(*scratch)))
		return 1;
	return *scratch != t->domain;
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
	by_uid = uid_count(&denied_creds_by_uid, &uid);
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
 * A use of @file (reported at @mnt, @dentry; NULL for none) that needs
 * @right, which its open was denied (open_withheld()): -EACCES, else 0.
 */
static __always_inline int withheld_use(struct corral_task *t,
					struct file *file,
					struct vfsmount *mnt,
					struct dentry *dentry, __u32 right,
					__u32 hook)
{
	if (!file_denied(file, right))
		return 0;
	return report(t, mnt, dentry, right, hook, -EACCES);
}

/* withheld_use() for the current task, if it is sandboxed. */
static __always_inline int check_withheld(struct file *file,
					  struct vfsmount *mnt,
					  struct dentry *dentry, __u32 right,
					  __u32 hook)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t = task_dom(&tbuf);

	return t ? withheld_use(t, file, mnt, dentry, right, hook) : 0;
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
	/* Overlayfs opens its real files (6.6+: backing files) under its
	 * mounter's credentials: their domain, if any, judges the open. */
	if (!t)
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
	if ((want & CORRAL_ACCESS_WRITE) && proc_of_outsider(t, file, &cred))
		return report(t, file->f_path.mnt, file->f_path.dentry, 0,
			      CORRAL_HOOK_PTRACE, -EPERM);
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
	if (ioctl_always_allowed(cmd))
		return 0;
	return withheld_use(t, file, file->f_path.mnt, file->f_path.dentry,
			    CORRAL_ACCESS_IOCTL, CORRAL_HOOK_IOCTL);
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
	return ret ? ret : check_withheld(BPF_CORE_READ(ioucmd, file), NULL,
					  NULL, CORRAL_ACCESS_IOCTL,
					  CORRAL_HOOK_IOCTL);
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

/* truncate(2) is judged by the path; ftruncate(2) by the file's open. */
static __always_inline int check_truncate(const struct path *path)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t = task_dom(&tbuf);
	struct file *file;

	if (!t)
		return 0;
	file = ftruncate_file(path);
	if (!file)
		return check_path(t, path, CORRAL_ACCESS_TRUNCATE,
				  CORRAL_HOOK_TRUNCATE);
	return withheld_use(t, file, path->mnt, path->dentry,
			    CORRAL_ACCESS_TRUNCATE, CORRAL_HOOK_TRUNCATE);
}

/* truncate(2), and before 6.2 O_TRUNC and ftruncate(2) too. */
SEC("lsm/path_truncate")
int BPF_PROG(corral_path_truncate, const struct path *path, int ret)
{
	return ret ? ret : check_truncate(path);
}

/*
 * ftruncate(2) and O_TRUNC since 6.2 (not attached where the hook is
 * absent): decided when the file was opened (open_withheld), as Landlock
 * does, so a file opened outside the domain keeps the right.
 */
SEC("lsm/file_truncate")
int BPF_PROG(corral_file_truncate, struct file *file, int ret)
{
	return ret ? ret : check_withheld(file, file->f_path.mnt,
					  file->f_path.dentry,
					  CORRAL_ACCESS_TRUNCATE,
					  CORRAL_HOOK_TRUNCATE);
}

/*
 * Is the inode at @inode_addr pinned in @domain: a deny rule on it, or a
 * directory above one (CORRAL_RULE_PINNED)?  Global, so verified once
 * rather than at each of rename's, unlink's and rmdir's call sites
 * (path_rename is the program nearest the verifier's limits).
 */
__noinline int rule_pinned(__u64 domain, __u64 inode_addr)
{
	struct corral_rule_key key = {};
	struct corral_rule *rule;

	if (!inode_addr)
		return 0;
	rule_key(&key, domain, (struct inode *)inode_addr);
	rule = bpf_map_lookup_elem(&rules, &key);
	return rule && (rule->deny || (rule->access & CORRAL_RULE_PINNED));
}

/* Is the name of @dentry pinned?  Only domains with denies have pins,
 * so the others pay one test. */
static __always_inline int name_pinned(const struct corral_task *t,
				       struct dentry *dentry)
{
	if (!(t->flags & CORRAL_TASK_DENY))
		return 0;
	return rule_pinned(t->domain, (__u64)BPF_CORE_READ(dentry, d_inode));
}

/*
 * Does a name rule of @domain deny @want on making an entry named by
 * the string at @name_addr in the directory @dir_inode
 * (CORRAL_NAME_RULE_INODE)?  Global, as rule_pinned() is: path_rename
 * calls it too; so both addresses come probe-read (scalars).  A name too
 * long for a name rule has none.
 */
__noinline int name_denied(__u64 domain, __u64 dir_inode, __u64 name_addr,
			   __u32 want)
{
	struct corral_rule_key key = {};
	struct corral_rule *rule;
	/* a word more than a name rule's name: a longer one shows */
	__u64 name[3] = {};
	long n;

	if (!dir_inode || !name_addr)
		return 0;
	n = bpf_probe_read_kernel_str(name, sizeof(name),
				      (const void *)name_addr);
	if (n < 0)
		return 1;       /* unreadable: fail closed */
	if (n > CORRAL_NAME_LEN)
		return 0;       /* longer than any name rule's */
	name_key(&key, domain, (struct inode *)dir_inode, name);
	rule = bpf_map_lookup_elem(&rules, &key);
	return rule && (rule->deny & want);
}

/* Does a name rule deny making @dentry in @dir?  Only domains with
 * denies have name rules, so the others pay one test. */
static __always_inline int name_blocked(const struct corral_task *t,
					struct dentry *dir,
					struct dentry *dentry)
{
	if (!(t->flags & CORRAL_TASK_DENY))
		return 0;
	return name_denied(t->domain, (__u64)BPF_CORE_READ(dir, d_inode),
			   (__u64)BPF_CORE_READ(dentry, d_name.name),
			   CORRAL_ACCESS_CREATE);
}

/* Creating or removing @dentry in @dir. */
static __always_inline int check_dir_op(const struct path *dir,
					struct dentry *dentry, __u32 want)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t = task_dom(&tbuf);

	if (!t)
		return 0;
	if (want == CORRAL_ACCESS_REMOVE && name_pinned(t, dentry))
		return report(t, dir->mnt, dentry, CORRAL_ACCESS_REMOVE,
			      CORRAL_HOOK_REMOVE, -EACCES);
	if (want == CORRAL_ACCESS_CREATE &&
	    name_blocked(t, BPF_CORE_READ(dir, dentry), dentry))
		return report(t, dir->mnt, dentry, CORRAL_ACCESS_CREATE,
			      CORRAL_HOOK_CREATE, -EACCES);
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
 * over EXDEV: a missing create or remove is reported first.  @flags:
 * rename(2)'s (RENAME_EXCHANGE), 0 for a link.
 */
static __always_inline int check_refer(struct vfsmount *mnt,
				       struct dentry *src,
				       struct dentry *old_dentry,
				       struct dentry *dst,
				       struct dentry *new_dentry,
				       unsigned int flags, __u32 hook)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t = task_dom(&tbuf);
	int exchange = !!(flags & RENAME_EXCHANGE);
	__u32 src_want = CORRAL_ACCESS_REMOVE;
	__u32 dst_want = CORRAL_ACCESS_CREATE;
	long from, to;

	if (!t)
		return 0;
	if (hook == CORRAL_HOOK_LINK)
		src_want = 0;
	else if (exchange)
		src_want = dst_want = CORRAL_ACCESS_REMOVE | CORRAL_ACCESS_CREATE;
	else if (BPF_CORE_READ(new_dentry, d_inode))
		dst_want |= CORRAL_ACCESS_REMOVE;  /* replaces an entry */

	/* a deny pins the name: neither moved away nor replaced */
	if (src_want && name_pinned(t, old_dentry))
		return report(t, mnt, old_dentry, CORRAL_ACCESS_REMOVE, hook,
			      -EACCES);
	if (src_want && name_pinned(t, new_dentry))
		return report(t, mnt, new_dentry, CORRAL_ACCESS_REMOVE, hook,
			      -EACCES);
	/* nor made where a protected path is missing (a name rule) */
	if (name_blocked(t, dst, new_dentry))
		return report(t, mnt, new_dentry, CORRAL_ACCESS_CREATE, hook,
			      -EACCES);
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
	return ret ? ret : check_refer(new_dir->mnt, old_dentry->d_parent,
				       old_dentry, new_dir->dentry, new_dentry,
				       0, CORRAL_HOOK_LINK);
}

SEC("lsm/path_rename")
int BPF_PROG(corral_path_rename, const struct path *old_dir,
	     struct dentry *old_dentry, const struct path *new_dir,
	     struct dentry *new_dentry, unsigned int flags, int ret)
{
	return ret ? ret : check_refer(new_dir->mnt, old_dir->dentry,
				       old_dentry, new_dir->dentry, new_dentry,
				       flags, CORRAL_HOOK_RENAME);
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
