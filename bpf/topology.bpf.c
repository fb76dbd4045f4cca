// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * topology.bpf.c - what keeps marks true (bpf/README.md, "Marks and the
 * topology generation"): the generation bumped after every change that
 * can move a directory relative to the root, and a directory's marks
 * forgotten with its inode.  It also holds mark_store(), the global
 * function every object calls to store a mark (marks.h).
 */
#include "hooks.h"

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
 * See marks.h.  @req's fields are read where they are used, not copied
 * to locals first: clang 19 spilled those copies, and this frame is
 * added to every walking hook's (tests/unit/bpf-stack.sh).
 */
__noinline int mark_store(struct mark_req *req)
{
	__u64 *now = topology_generation();
	__u64 seen[CORRAL_MARK_SLOTS] = {};
	struct mark_key key;    /* 6.1: a map key must be on the stack */
	struct mark *m;
	__u32 dead, *n;
	int same = -1, reusable = -1, pick, claimed = 0, stored = 0;

	if (!now || !req)
		return 0;
	key.inode = req->key.inode;
	key.ino = req->key.ino;
	key.dev = req->key.dev;
	key.generation = req->key.generation;
	m = mark_entry(&key, req->domain);
	if (!m)
		return 0;
	dead = dead_slots(m, seen);
	bpf_spin_lock(&m->lock);
	if (!m->id.inode) {
		/* a new entry (or a recycled one): claim it, clean */
#pragma unroll
		for (int i = 0; i < CORRAL_MARK_SLOTS; i++) {
			m->slot[i].domain = 0;
			m->slot[i].mnt = 0;
			m->slot[i].generation = 0;
			m->slot[i].access = 0;
		}
		m->id.inode = key.inode;
		m->id.ino = key.ino;
		m->id.dev = key.dev;
		m->id.generation = key.generation;
		m->owner = req->domain;
		claimed = 1;
	}
	if (same_key(&m->id, &key)) {
#pragma unroll
		for (int i = 0; i < CORRAL_MARK_SLOTS; i++) {
			struct mark_slot *s = &m->slot[i];

			if (s->domain == req->domain && s->mnt == req->mnt)
				same = i;
			else if (!s->domain || s->generation != *now ||
				 ((dead & (1u << i)) && s->domain == seen[i]))
				reusable = i;
		}
		pick = same >= 0 ? same : reusable;
		if (pick >= 0 && pick < CORRAL_MARK_SLOTS &&
		    *now == req->generation) {
			m->slot[pick].domain = req->domain;
			m->slot[pick].mnt = req->mnt;
			m->slot[pick].generation = req->generation;
			m->slot[pick].access = req->access;
			stored = 1;
		}
	}
	bpf_spin_unlock(&m->lock);
	if (claimed) {
		__u64 domain = req->domain;     /* a map key: on the stack */

		n = bpf_map_lookup_elem(&mark_charge, &domain);
		if (!n) {
			__u32 one = 1;

			bpf_map_update_elem(&mark_charge, &domain, &one,
					    BPF_NOEXIST);
		} else {
			__sync_fetch_and_add(n, 1);
		}
	}
	if (!stored && !claimed)
		return 0;
	/* orders the store before the caller's recheck (2. above) */
	__sync_fetch_and_add(&m->stores, 1);
	return 1;
}
