/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * events.h - every denial goes through report(): it emits a struct
 * corral_event and returns the verdict (0 in an audit-only domain).
 */
#ifndef CORRAL_EVENTS_H
#define CORRAL_EVENTS_H

#include "walk.h"

struct name_walk {
	struct dentry *dentry;
	struct vfsmount *mnt;
};

static __always_inline struct corral_event *scratch_event(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&event_scratch, &zero);
}

/* One path component per call, leaf first, crossing mounts as walk.h. */
static long name_step(__u32 index, void *data)
{
	struct name_walk *w = data;
	struct dentry *dentry = w->dentry, *leaf = w->dentry;
	struct vfsmount *vfsmnt = w->mnt;
	struct corral_event *ev = scratch_event();
	enum step step;
	__u32 n;

	if (!ev)
		return 1;
	step = step_up(&dentry, &vfsmnt);
	if (step == STEP_ROOT)
		return 1;
	w->dentry = dentry;
	w->mnt = vfsmnt;
	if (step == STEP_MOUNT)
		return 0;       /* a mount root has no name of its own */
	n = ev->n_names;
	if (n >= CORRAL_EVENT_NAMES) {
		ev->flags |= CORRAL_EVENT_TRUNCATED;
		return 1;
	}
	bpf_probe_read_kernel_str(ev->names[n], CORRAL_EVENT_NAME_LEN,
				  BPF_CORE_READ(leaf, d_name.name));
	ev->n_names = n + 1;
	return 0;
}

static __always_inline void count_lost(void)
{
	__u32 zero = 0;
	__u64 *lost = bpf_map_lookup_elem(&events_lost, &zero);

	if (lost)
		__sync_fetch_and_add(lost, 1);
}

/*
 * Records that @t was refused @access on the object at @dentry (in @mnt;
 * both may be NULL for pathless operations) and returns the verdict.
 * @child, if not NULL, is the entry of directory @dentry being created
 * or removed: its name leads the path, so that the log says what was
 * being made, not only where (CORRAL_EVENT_CHILD).
 */
static __always_inline int report_child(struct corral_task *t,
					struct vfsmount *mnt,
					struct dentry *dentry,
					struct dentry *child, __u32 access,
					__u32 hook, int error)
{
	struct corral_event *ev = scratch_event();
	struct name_walk w = { .dentry = dentry, .mnt = mnt };
	int verdict = (t->flags & CORRAL_TASK_AUDIT) ? 0 : error;

	if (!ev || !(t->flags & (CORRAL_TASK_WATCHED | CORRAL_TASK_AUDIT)))
		return verdict;
	ev->domain = t->domain;
	ev->time_ns = bpf_ktime_get_ns();
	ev->pid = bpf_get_current_pid_tgid() >> 32;
	ev->access = access;
	ev->hook = hook;
	ev->error = error;
	ev->n_names = 0;
	ev->flags = 0;
	bpf_get_current_comm(ev->comm, sizeof(ev->comm));
	if (child && dentry && mnt) {
		bpf_probe_read_kernel_str(ev->names[0], CORRAL_EVENT_NAME_LEN,
					  BPF_CORE_READ(child, d_name.name));
		ev->n_names = 1;
		ev->flags = CORRAL_EVENT_CHILD;
	}
	if (dentry && mnt)
		bpf_loop(CORRAL_MAX_DEPTH, name_step, &w, 0);
	if (bpf_ringbuf_output(&events, ev, sizeof(*ev), 0))
		count_lost();
	return verdict;
}

static __always_inline int report(struct corral_task *t, struct vfsmount *mnt,
				  struct dentry *dentry, __u32 access,
				  __u32 hook, int error)
{
	return report_child(t, mnt, dentry, NULL, access, hook, error);
}

#endif /* CORRAL_EVENTS_H */
