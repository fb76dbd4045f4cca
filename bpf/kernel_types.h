/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The few kernel structures corral's BPF programs read, declared with only
 * the fields used.  preserve_access_index makes every access a CO-RE
 * relocation resolved against the running kernel's BTF at load time, so
 * the object does not depend on the build machine's kernel and no
 * vmlinux.h is needed.
 */
#ifndef CORRAL_KERNEL_TYPES_H
#define CORRAL_KERNEL_TYPES_H

#include <linux/types.h>
#include <linux/bpf.h>

typedef unsigned short umode_t;
typedef unsigned int fmode_t;
typedef __u32 dev_t;

#pragma clang attribute push(__attribute__((preserve_access_index)), apply_to = record)

struct super_block {
	dev_t s_dev;
	unsigned long s_flags;
	unsigned long s_magic;
};

struct inode {
	umode_t i_mode;
	unsigned long i_ino;
	__u32 i_generation;
	struct super_block *i_sb;
};

struct qstr {
	const unsigned char *name;
};

struct dentry {
	struct dentry *d_parent;
	struct qstr d_name;
	struct inode *d_inode;
	struct super_block *d_sb;
};

struct vfsmount {
	struct dentry *mnt_root;
	struct super_block *mnt_sb;
};

struct mnt_namespace;
struct kern_ipc_perm;

/* fs/mount.h: the vfsmount is embedded; we climb to the parent. */
struct mount {
	struct mount *mnt_parent;
	struct dentry *mnt_mountpoint;
	struct vfsmount mnt;
	struct mnt_namespace *mnt_ns;
};

struct renamedata {
	struct dentry *old_dentry;
	struct dentry *new_dentry;
	unsigned int flags;
};

struct path {
	struct vfsmount *mnt;
	struct dentry *dentry;
};

struct unix_sock {
	struct unix_address *addr;
	struct path path;
};

typedef struct {
	__u32 val;
} kuid_t;

struct cred {
	kuid_t uid;         /* real uid: open_denied is charged to it */
};

struct upid {
	int nr;
};

struct hlist_node {
	struct hlist_node *next;
};

struct hlist_head {
	struct hlist_node *first;
};

struct pid {
	unsigned int level;
	struct hlist_head tasks[4];  /* PIDTYPE_MAX */
	struct upid numbers[];
};

/* fs/proc/internal.h: a /proc inode; pid is set under /proc/PID/ only */
struct proc_inode {
	struct pid *pid;
	struct inode vfs_inode;
};

/* Since 6.12 a file points at its owner, allocated on demand, and the
 * owner points back (fown_struct.file); before, it was embedded. */
enum pid_type { PIDTYPE_PID, PIDTYPE_TGID, PIDTYPE_PGID, PIDTYPE_SID };

struct fown_struct {
	struct file *file;
	struct pid *pid;
	enum pid_type pid_type;
};

struct file {
	struct path f_path;
	struct inode *f_inode;
	unsigned int f_flags;
	fmode_t f_mode;
	const struct cred *f_cred;
	struct fown_struct *f_owner;
};

struct file___fown_embedded {
	struct fown_struct f_owner;
};

struct io_uring_cmd {
	struct file *file;
};

struct sock_common {
	unsigned short skc_family;
	__u16 skc_num;          /* local port, host order; 0: unbound */
};

struct sock {
	struct sock_common __sk_common;
	__u16 sk_protocol;
};

/* What can send a packet somewhere before its destination (net.bpf.c). */
struct ip_options {
	unsigned char srr;      /* offset of a source route option, or 0 */
};

struct ip_options_rcu {
	struct ip_options opt;
};

struct ipv6_rt_hdr;

struct ipv6_txoptions {
	struct ipv6_rt_hdr *srcrt;
};

struct ipv6_pinfo {
	struct ipv6_txoptions *opt;
};

struct inet_sock {
	struct sock sk;
	struct ipv6_pinfo *pinet6;
	struct ip_options_rcu *inet_opt;
};

struct socket {
	short type;
	struct sock *sk;
};

struct msghdr {
	void *msg_name;
	int msg_namelen;
	void *msg_control;      /* a kernel copy by the time of the hook */
	__kernel_size_t msg_controllen;
	unsigned int msg_flags;
};


struct sockaddr_un {
	unsigned short sun_family;
	char sun_path[108];
};

struct unix_address {
	int len;
	struct sockaddr_un name[];
};

/* Task storage as the kernel keeps it: read by task_dom_of() (maps.h). */
struct bpf_local_storage_map;

struct bpf_local_storage_data {
	struct bpf_local_storage_map *smap;
	__u8 data[];
};

struct bpf_local_storage_elem {
	struct hlist_node snode;        /* in bpf_local_storage.list */
	struct bpf_local_storage_data sdata;
};

struct bpf_local_storage {
	struct hlist_head list;         /* of bpf_local_storage_elem.snode */
};

struct bpf_map;

/* x86 system-call entry registers (bpf_task_pt_regs). */
struct pt_regs {
	unsigned long bx;
	unsigned long di;
	unsigned long orig_ax;
};

struct fdtable {
	unsigned int max_fds;
	struct file **fd;
};

struct files_struct {
	struct fdtable *fdt;
};

struct task_struct {
	int pid;
	int tgid;
	struct task_struct *group_leader;
	struct pid *thread_pid;
	const struct cred *real_cred;
	const struct cred *cred;
	struct files_struct *files;
	struct bpf_local_storage *bpf_storage;
	struct hlist_node pid_links[4];  /* PIDTYPE_MAX */
};

#pragma clang attribute pop

/* UAPI layout, read from a kernel copy with bpf_probe_read_kernel(). */
struct corral_cmsghdr {
	__u64 cmsg_len;
	int cmsg_level;
	int cmsg_type;
};

/* Stable UAPI/kernel constants (include/linux/fs.h, uapi/linux/stat.h). */
#define PROC_SUPER_MAGIC 0x9fa0

#define S_IFMT   00170000
#define S_IFDIR  0040000
#define S_IFCHR  0020000
#define S_IFBLK  0060000
#define S_IFREG  0100000
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
#define S_ISDIR(m) (((m) & S_IFMT) == S_IFDIR)
#define S_ISDEV(m) (((m) & S_IFMT) == S_IFCHR || ((m) & S_IFMT) == S_IFBLK)

#define FMODE_READ   0x1
#define FMODE_WRITE  0x2
#define __FMODE_EXEC 0x20        /* in f_flags, not f_mode */
#define O_TRUNC      01000       /* in f_flags until the open completes */
#define SB_NOUSER    (1UL << 31) /* internal mounts: pipes, sockets, anon */
#define S_PRIVATE    (1 << 9)    /* inode->i_flags: fs-internal inode */
#define RENAME_EXCHANGE (1 << 1)
#define AF_UNSPEC  0
#define AF_UNIX    1
#define AF_INET    2
#define AF_INET6   10
#define AF_NETLINK 16
#define AF_PACKET  17
#define AF_ALG     38
#define SOCK_STREAM 1
#define SOCK_DGRAM  2
#define SOCK_TYPE_MASK 0xf
#define IPPROTO_TCP   6
#define IPPROTO_UDP   17
#define IPPROTO_MPTCP 262
#define MSG_FASTOPEN  0x20000000

/* ftruncate's system-call numbers: x86-64 (and x32, with its bit), i386. */
#define X32_SYSCALL_BIT    0x40000000UL
#define NR_FTRUNCATE_64    77
#define NR_FTRUNCATE_32    93
#define NR_FTRUNCATE64_32  194

#define EPERM   1
#define ENOENT  2
#define ESRCH   3
#define ENOMEM  12
#define EACCES  13
#define EXDEV   18
#define ENOTDIR 20
#define ENOSPC  28
#define EINVAL  22
#define EEXIST  17
#define EAFNOSUPPORT 97
#define EDQUOT  122

#endif /* CORRAL_KERNEL_TYPES_H */
