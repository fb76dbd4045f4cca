/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * attack's io_uring ops (uring-*): open a path through a ring under
 * credentials the ring overrides, and the ring other ops submit through.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/io_uring.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "attack.h"
#include "oplist.h"

int ring_setup(struct ring *r, unsigned flags, int wq_fd)
{
	size_t sq_len, cq_len;

	memset(r, 0, sizeof(*r));
	r->p.flags = flags;
	r->p.wq_fd = (unsigned)wq_fd;
	r->p.sq_thread_idle = 2000;
	r->fd = (int)syscall(SYS_io_uring_setup, 4, &r->p);
	if (r->fd < 0)
		return err();
	sq_len = r->p.sq_off.array + r->p.sq_entries * sizeof(unsigned);
	cq_len = r->p.cq_off.cqes +
		 r->p.cq_entries * sizeof(struct io_uring_cqe);
	if (cq_len > sq_len)
		sq_len = cq_len;
	r->sq = r->cq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_POPULATE, r->fd,
			     IORING_OFF_SQ_RING);
	r->sqes = mmap(NULL, r->p.sq_entries * sizeof(struct io_uring_sqe),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		       r->fd, IORING_OFF_SQES);
	if (r->sq == MAP_FAILED || r->sqes == MAP_FAILED)
		return err();
	return 0;
}

#define RING_U32(r, base, off) ((unsigned *)((char *)(r)->base + (r)->p.off))

/* The completion of the one request in flight: its result, or -ETIMEDOUT. */
static int ring_reap(struct ring *r)
{
	unsigned *cq_head = RING_U32(r, cq, cq_off.head);
	unsigned *cq_tail = RING_U32(r, cq, cq_off.tail);
	unsigned *cq_mask = RING_U32(r, cq, cq_off.ring_mask);
	struct io_uring_cqe *cqe;
	int res;

	if (__atomic_load_n(cq_tail, __ATOMIC_ACQUIRE) == *cq_head)
		return -ETIMEDOUT;
	cqe = (struct io_uring_cqe *)((char *)r->cq + r->p.cq_off.cqes) +
	      (*cq_head & *cq_mask);
	res = cqe->res;
	__atomic_store_n(cq_head, *cq_head + 1, __ATOMIC_RELEASE);
	return res;
}

/*
 * Queues @in (copied into slot 0) and enters the ring up to @tries times,
 * 10ms apart, until it completes: a polling thread may not have seen the
 * request yet when io_uring_enter returns.  Returns the result or -errno.
 */
static int ring_run(struct ring *r, const struct io_uring_sqe *in,
		    unsigned enter_flags, int tries)
{
	unsigned *tail = RING_U32(r, sq, sq_off.tail);
	unsigned *mask = RING_U32(r, sq, sq_off.ring_mask);
	unsigned *array = RING_U32(r, sq, sq_off.array);
	unsigned *cq_head = RING_U32(r, cq, cq_off.head);
	unsigned *cq_tail = RING_U32(r, cq, cq_off.tail);

	r->sqes[0] = *in;
	array[*tail & *mask] = 0;
	__atomic_store_n(tail, *tail + 1, __ATOMIC_RELEASE);
	while (tries--) {
		if (syscall(SYS_io_uring_enter, r->fd, 1, 1, enter_flags,
			    NULL, 0) < 0)
			return -err();
		if (__atomic_load_n(cq_tail, __ATOMIC_ACQUIRE) != *cq_head)
			break;
		if (tries)
			usleep(10000);
	}
	return ring_reap(r);
}

/* Submits one IORING_OP_OPENAT and returns its result (fd or -errno). */
static int ring_open(struct ring *r, const char *path, int flags,
		     unsigned sqe_flags, unsigned personality)
{
	struct io_uring_sqe sqe;

	memset(&sqe, 0, sizeof(sqe));
	sqe.opcode = IORING_OP_OPENAT;
	sqe.fd = AT_FDCWD;
	sqe.addr = (uint64_t)(uintptr_t)path;
	sqe.open_flags = (unsigned)flags | O_CLOEXEC;
	sqe.len = 0;
	sqe.flags = (uint8_t)sqe_flags;
	sqe.personality = (uint16_t)personality;
	return ring_run(r, &sqe, IORING_ENTER_GETEVENTS |
			IORING_ENTER_SQ_WAKEUP, 500);
}

/*
 * Submits @sqe (copied into slot 0) and waits for its completion; returns
 * its result (>= 0 or -errno).
 */
int ring_submit(struct ring *r, const struct io_uring_sqe *in)
{
	return ring_run(r, in, IORING_ENTER_GETEVENTS, 1);
}

/* A new struct cred, same ids: what makes io_uring override them later. */
int new_creds(void)
{
	return prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0 ? err() : 0;
}

/* Proves the open: reads a byte, appends a line, or lists an entry. */
static int use_fd(int fd, const char *how)
{
	char buf[4096];
	int r = 0;

	if (!strcmp(how, "read"))
		r = read(fd, buf, 1) < 0 ? err() : 0;
	else if (!strcmp(how, "append"))
		r = write(fd, "attack\n", 7) != 7 ? err() : 0;
	else
		r = syscall(SYS_getdents64, fd, buf, sizeof(buf)) < 0 ? err() : 0;
	close(fd);
	return r;
}

static int open_flags(const char *how)
{
	if (!strcmp(how, "append"))
		return O_WRONLY | O_APPEND;
	if (!strcmp(how, "list"))
		return O_RDONLY | O_DIRECTORY;
	return O_RDONLY;
}

/* uring-* HOW PATH: HOW is read, append or list */
int op_uring(int op, char **arg, char *info)
{
	struct ring r, primed;
	int res, id = 0, flags = open_flags(arg[0]);
	unsigned sqe_flags = op == OP_URING_ASYNC ? IOSQE_ASYNC : 0;

	(void)info;
	res = ring_setup(op == OP_URING_SQPOLL ? &primed : &r,
			 op == OP_URING_SQPOLL ? IORING_SETUP_SQPOLL : 0, 0);
	if (res)
		return res;
	if (op == OP_URING_PERSONALITY) {
		id = (int)syscall(SYS_io_uring_register, r.fd,
				  IORING_REGISTER_PERSONALITY, NULL, 0);
		if (id < 0)
			return err();
	}
	res = new_creds();
	if (res)
		return res;
	if (op == OP_URING_SQPOLL) {
		res = ring_setup(&r, IORING_SETUP_SQPOLL |
				 IORING_SETUP_ATTACH_WQ, primed.fd);
		if (res)
			return res;
	}
	res = ring_open(&r, arg[1], flags, sqe_flags, (unsigned)id);
	if (res < 0)
		return -res;
	return use_fd(res, arg[0]);
}
