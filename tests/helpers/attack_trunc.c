/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * attack's trunc-* ops: a file opened for writing without O_TRUNC, then
 * cut by every other route to truncation.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/io_uring.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "attack.h"
#include "oplist.h"
#include "uring.h"

#ifndef IORING_OP_FTRUNCATE
#define IORING_OP_FTRUNCATE 55          /* since 6.9 */
#endif
#ifndef FALLOC_FL_KEEP_SIZE
#define FALLOC_FL_KEEP_SIZE 0x01
#endif
#ifndef FALLOC_FL_PUNCH_HOLE
#define FALLOC_FL_PUNCH_HOLE 0x02
#endif
#ifndef FALLOC_FL_COLLAPSE_RANGE
#define FALLOC_FL_COLLAPSE_RANGE 0x08
#endif


/*
 * trunc-ROUTE PATH: opens PATH for writing (without O_TRUNC), then tries
 * to cut it to 0 bytes (punch: to zero its first 4 KiB; collapse: to
 * remove them) by ROUTE.  Reports the route's errno; OK only if the call
 * succeeded.
 */
int op_trunc(int op, char **arg, char *info)
{
	struct io_uring_sqe sqe;
	struct ring r;
	char proc[64];
	int fd, fd2, res = 0;

	(void)info;
	if (op == OP_TRUNC_PATH)
		return truncate(arg[0], 0) < 0 ? err() : 0;
	if (op == OP_TRUNC_OTRUNC) {
		fd = open(arg[0], O_WRONLY | O_TRUNC | O_CLOEXEC);
		if (fd < 0)
			return err();
		close(fd);
		return 0;
	}
	fd = open(arg[0], O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return err();
	switch (op) {
	case OP_TRUNC_FTRUNCATE:
		res = ftruncate(fd, 0) < 0 ? err() : 0;
		break;
	case OP_TRUNC_PROC:
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		fd2 = open(proc, O_WRONLY | O_TRUNC | O_CLOEXEC);
		if (fd2 < 0)
			res = err();
		else
			close(fd2);
		break;
	case OP_TRUNC_URING:
		res = ring_setup(&r, 0, 0);
		if (res)
			break;
		memset(&sqe, 0, sizeof(sqe));
		sqe.opcode = IORING_OP_FTRUNCATE;
		sqe.fd = fd;
		sqe.off = 0;
		res = ring_submit(&r, &sqe);
		res = res < 0 ? -res : 0;
		close(r.fd);
		break;
	case OP_TRUNC_PUNCH:
		res = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				0, 4096) < 0 ? err() : 0;
		break;
	case OP_TRUNC_COLLAPSE:
		res = fallocate(fd, FALLOC_FL_COLLAPSE_RANGE, 0, 4096) < 0 ?
		      err() : 0;
		break;
	case OP_TRUNC_DUP:
		fd2 = dup(fd);
		close(fd);
		fd = fd2;
		res = fd < 0 ? err() : ftruncate(fd, 0) < 0 ? err() : 0;
		break;
	case OP_TRUNC_32:
		/* ftruncate is 93 in the i386 table */
		res = (int)-syscall32(93, fd, 0, 0);
		break;
	default:
		res = EINVAL;
		break;
	}
	if (fd >= 0)
		close(fd);
	return res;
}
