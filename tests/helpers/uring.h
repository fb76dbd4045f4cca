/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * uring.h: one io_uring ring by raw system calls (no liburing in a static
 * helper), shared by the helpers that submit through one: attack, escape
 * and netprobe.  Each request is alone in flight, in slot 0.
 *
 * A header for the reason oplist.h is one: each helper is built from its
 * own sources alone, and uses only some of these functions.
 */
#ifndef CORRAL_TESTS_URING_H
#define CORRAL_TESTS_URING_H

#include <linux/io_uring.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "oplist.h"

/* a ring of 4 entries, its rings and entries mapped */
struct ring {
	int fd;
	struct io_uring_params p;
	void *sq, *cq;
	struct io_uring_sqe *sqes;
};

#define RING_U32(r, base, off) ((unsigned *)((char *)(r)->base + (r)->p.off))

/*
 * 0 or an errno; r->fd < 0 tells that io_uring_setup itself failed (and
 * not a mapping).  The completion ring is mapped on its own where the
 * kernel does not share one mapping for both.
 */
static inline int ring_setup(struct ring *r, unsigned flags, int wq_fd)
{
	size_t sq_len, cq_len;
	int single;

	memset(r, 0, sizeof(*r));
	r->p.flags = flags;
	r->p.wq_fd = (unsigned)wq_fd;
	r->p.sq_thread_idle = 2000;
	r->fd = (int)syscall(SYS_io_uring_setup, 4, &r->p);
	if (r->fd < 0)
		return err();
	single = !!(r->p.features & IORING_FEAT_SINGLE_MMAP);
	sq_len = r->p.sq_off.array + r->p.sq_entries * sizeof(unsigned);
	cq_len = r->p.cq_off.cqes +
		 r->p.cq_entries * sizeof(struct io_uring_cqe);
	if (single && cq_len > sq_len)
		sq_len = cq_len;
	r->sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQ_RING);
	r->cq = single ? r->sq :
		mmap(NULL, cq_len, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_CQ_RING);
	r->sqes = mmap(NULL, r->p.sq_entries * sizeof(struct io_uring_sqe),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		       r->fd, IORING_OFF_SQES);
	if (r->sq == MAP_FAILED || r->cq == MAP_FAILED ||
	    r->sqes == MAP_FAILED)
		return err();
	return 0;
}

/* Copies @in into slot 0 and hands it to the kernel's side of the ring. */
static inline void ring_queue(struct ring *r, const struct io_uring_sqe *in)
{
	unsigned *tail = RING_U32(r, sq, sq_off.tail);
	unsigned *mask = RING_U32(r, sq, sq_off.ring_mask);
	unsigned *array = RING_U32(r, sq, sq_off.array);

	r->sqes[0] = *in;
	array[*tail & *mask] = 0;
	__atomic_store_n(tail, *tail + 1, __ATOMIC_RELEASE);
}

static inline int ring_done(struct ring *r)
{
	return __atomic_load_n(RING_U32(r, cq, cq_off.tail), __ATOMIC_ACQUIRE) !=
	       *RING_U32(r, cq, cq_off.head);
}

/*
 * Enters the ring up to @tries times, 10ms apart, until the request has
 * completed: a polling thread may not have seen it yet when
 * io_uring_enter returns.  0, or io_uring_enter's errno.
 */
static inline int ring_enter(struct ring *r, unsigned flags, int tries)
{
	while (tries--) {
		if (syscall(SYS_io_uring_enter, r->fd, 1, 1, flags, NULL, 0) < 0)
			return err();
		if (ring_done(r))
			break;
		if (tries)
			usleep(10000);
	}
	return 0;
}

/* The completion's result in @res; 0 if there is none yet. */
static inline int ring_reap(struct ring *r, int *res)
{
	unsigned *cq_head = RING_U32(r, cq, cq_off.head);
	unsigned *cq_mask = RING_U32(r, cq, cq_off.ring_mask);
	struct io_uring_cqe *cqe;

	if (!ring_done(r))
		return 0;
	cqe = (struct io_uring_cqe *)((char *)r->cq + r->p.cq_off.cqes) +
	      (*cq_head & *cq_mask);
	*res = cqe->res;
	__atomic_store_n(cq_head, *cq_head + 1, __ATOMIC_RELEASE);
	return 1;
}

/*
 * Submits @in, entering the ring up to @tries times with @flags (see
 * ring_enter), and returns its result (>= 0 or -errno), -ETIMEDOUT if it
 * has not completed.
 */
static inline int ring_run(struct ring *r, const struct io_uring_sqe *in,
			   unsigned flags, int tries)
{
	int res, e;

	ring_queue(r, in);
	e = ring_enter(r, flags, tries);
	if (e)
		return -e;
	return ring_reap(r, &res) ? res : -ETIMEDOUT;
}

/* Submits @in and waits for its completion: its result (>= 0 or -errno) */
static inline int ring_submit(struct ring *r, const struct io_uring_sqe *in)
{
	return ring_run(r, in, IORING_ENTER_GETEVENTS, 1);
}

#endif
