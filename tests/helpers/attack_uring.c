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
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "attack.h"
#include "oplist.h"
#include "uring.h"

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
