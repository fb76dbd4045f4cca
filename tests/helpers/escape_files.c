/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * escape's file ops: a path reached by the plain calls (read, write,
 * link, rename, symlink, touch), through io_uring, by a file handle, or
 * relative to an inherited directory descriptor.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/io_uring.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "escape.h"
#include "oplist.h"
#include "uring.h"

/* ---- files ------------------------------------------------------------ */

/* Opens PATH relative to DIR (AT_FDCWD: as open(2)) and reads a byte. */
static int read_byte_at(int dir, const char *path)
{
	int fd = openat(dir, path, O_RDONLY | O_CLOEXEC), r = 0;
	char c;

	if (fd < 0)
		return err();
	if (read(fd, &c, 1) < 0)
		r = err();
	close(fd);
	return r;
}

int op_file(int op, char **arg, char *info)
{
	int fd, r = 0;

	(void)info;
	switch (op) {
	case OP_READ:
		return read_byte_at(AT_FDCWD, arg[0]);
	case OP_WRITE:
	case OP_TOUCH:
		fd = open(arg[0], O_WRONLY | O_CLOEXEC |
			  (op == OP_TOUCH ? O_CREAT : 0), 0644);
		if (fd < 0)
			return err();
		if (write(fd, "w", 1) < 0)
			r = err();
		close(fd);
		return r;
	case OP_LINK:
		return link(arg[0], arg[1]) < 0 ? err() : 0;
	case OP_RENAME:
		return rename(arg[0], arg[1]) < 0 ? err() : 0;
	case OP_EXCHANGE:
		return renameat2(AT_FDCWD, arg[0], AT_FDCWD, arg[1],
				 RENAME_EXCHANGE) < 0 ? err() : 0;
	case OP_UNLINK:
		return unlink(arg[0]) < 0 ? err() : 0;
	case OP_SYMLINK:
		return symlink(arg[0], arg[1]) < 0 ? err() : 0;
	case OP_WAIT_FILE:
		return wait_file(arg[0], 20);
	default:
		return EINVAL;
	}
}

/* ---- io_uring ----------------------------------------------------------- */

/*
 * Submits @sqe alone through a ring made with raw system calls: 0 with
 * its result in @res, an errno, or 0 with @info saying why the ring could
 * not be set up or entered (a sandbox may refuse io_uring itself).
 */
static int uring_once(struct io_uring_sqe *sqe, int *res, char *info)
{
	struct ring ring;
	char ebuf[16];
	int r;

	r = ring_setup(&ring, 0, 0);
	if (r && ring.fd < 0) {
		snprintf(info, INFO_LEN, "io_uring_setup %s",
			 errno_name(r, ebuf, sizeof(ebuf)));
		return 0;
	}
	if (r) {
		close(ring.fd);
		return r;
	}
	ring_queue(&ring, sqe);
	r = ring_enter(&ring, IORING_ENTER_GETEVENTS, 1);
	if (r) {
		snprintf(info, INFO_LEN, "io_uring_enter %s",
			 errno_name(r, ebuf, sizeof(ebuf)));
		close(ring.fd);
		return 0;
	}
	r = ring_reap(&ring, res);
	close(ring.fd);
	return r ? 0 : ETIMEDOUT;
}

/*
 * IORING_OP_OPENAT of PATH; "async" forces the open into an io-wq worker
 * thread (IOSQE_ASYNC).  The file is read to prove the open.
 */
static int uring_open(const char *path, int async, char *info)
{
	struct io_uring_sqe sqe;
	int r, res = 0;
	char c;

	memset(&sqe, 0, sizeof(sqe));
	sqe.opcode = IORING_OP_OPENAT;
	sqe.fd = AT_FDCWD;
	sqe.addr = (uint64_t)(uintptr_t)path;
	sqe.open_flags = O_RDONLY | O_CLOEXEC;
	sqe.flags = async ? IOSQE_ASYNC : 0;
	r = uring_once(&sqe, &res, info);
	if (r || *info)
		return r;
	if (res < 0)
		return -res;
	r = read(res, &c, 1) < 0 ? err() : 0;
	close(res);
	return r;
}

/*
 * IORING_OP_RENAMEAT (with RENAME_EXCHANGE for uring-exchange) and
 * IORING_OP_UNLINKAT: the kernel runs both in an io-wq worker, whose
 * credentials are the submitter's.
 */
static int uring_move(int op, char **arg, char *info)
{
	struct io_uring_sqe sqe;
	int r, res = 0;

	memset(&sqe, 0, sizeof(sqe));
	sqe.fd = AT_FDCWD;
	sqe.addr = (uint64_t)(uintptr_t)arg[0];
	if (op == OP_URING_UNLINK) {
		sqe.opcode = IORING_OP_UNLINKAT;
	} else {
		sqe.opcode = IORING_OP_RENAMEAT;
		sqe.len = (unsigned)AT_FDCWD;
		sqe.addr2 = (uint64_t)(uintptr_t)arg[1];
		sqe.rename_flags = op == OP_URING_EXCHANGE ? RENAME_EXCHANGE : 0;
	}
	r = uring_once(&sqe, &res, info);
	if (r || *info)
		return r;
	return res < 0 ? -res : 0;
}

int op_uring(int op, char **arg, char *info)
{
	if (op == OP_URING_OPEN || op == OP_URING_OPEN_ASYNC)
		return uring_open(arg[0], op == OP_URING_OPEN_ASYNC, info);
	return uring_move(op, arg, info);
}

/* ---- file handles ----------------------------------------------------- */

/*
 * name-to-handle PATH: name_to_handle_at alone.  open-by-handle PATH: a
 * handle for PATH (a made-up one if name_to_handle_at is refused: the
 * refusal must come from open_by_handle_at too), then open_by_handle_at.
 */
int op_handle(int op, char **arg, char *info)
{
	struct {
		struct file_handle h;
		unsigned char bytes[128];
	} fh;
	struct stat st;
	char c, dir[4096], *slash;
	int mount_id, mfd, fd, r = 0;

	(void)info;
	memset(&fh, 0, sizeof(fh));
	fh.h.handle_bytes = sizeof(fh.bytes);
	if (name_to_handle_at(AT_FDCWD, arg[0], &fh.h, &mount_id, 0) < 0) {
		if (op == OP_NAME_TO_HANDLE)
			return err();
		/* FILEID_INO32_GEN: inode number and generation 0 */
		if (stat(arg[0], &st) < 0)
			return err();
		fh.h.handle_type = 1;
		fh.h.handle_bytes = 8;
		memcpy(fh.bytes, &st.st_ino, 4);
	} else if (op == OP_NAME_TO_HANDLE) {
		return 0;
	}
	/* the mount fd: the file's directory (open_by_handle_at refuses
	 * O_PATH fds); the working directory if the sandbox denies it */
	snprintf(dir, sizeof(dir), "%s", arg[0]);
	slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = 0;
	mfd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fd = open_by_handle_at(mfd < 0 ? AT_FDCWD : mfd, &fh.h,
			       O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		r = err();
	} else {
		if (read(fd, &c, 1) < 0)
			r = err();
		close(fd);
	}
	if (mfd >= 0)
		close(mfd);
	return r;
}

/*
 * sleep SECONDS; openat-fd FD NAME: open NAME relative to the inherited
 * directory descriptor FD and read a byte
 */
/*
 * fork-hold N: up to N children that live until this process goes (a
 * "sleep" op after it holds them); info "K", the children made, then the
 * errno of the fork that failed, if one did.  Each child holds
 * credentials of its own (the cred_domain share).
 */
static int fork_hold(int n, char *info)
{
	pid_t parent = getpid();
	int made = 0, e = 0;

	for (; made < n; made++) {
		pid_t pid = fork();

		if (pid < 0) {
			e = err();
			break;
		}
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			/* the parent may be gone before the line above ran: a
			 * child left pausing would hold the caller's stdout */
			if (getppid() != parent)
				_exit(0);
			pause();
			_exit(0);
		}
	}
	snprintf(info, INFO_LEN, "%d%s%s", made, e ? " " : "",
		 e ? strerrorname_np(e) : "");
	return 0;
}

int op_misc(int op, char **arg, char *info)
{
	if (op == OP_SLEEP) {
		sleep((unsigned)atoi(arg[0]));
		return 0;
	}
	if (op == OP_FORK_HOLD)
		return fork_hold(atoi(arg[0]), info);
	return read_byte_at(atoi(arg[0]), arg[1]);
}
