/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe: run file-system operations in one process and report each result.
 *
 *   probe OP ARGS [+ OP ARGS ...]
 *
 * prints one line per operation, in order:
 *
 *   <op> <args>: OK          the operation succeeded
 *   <op> <args>: EACCES      it failed; the errno by name (E<num> if unknown)
 *   <op> <args>: <value>     information ops (pid, children) print a value
 *
 * Exit status 0 whatever the results; 2 on a usage error.  Used by the
 * integration suites under corral and under ll-exec (the Landlock oracle).
 * Static on purpose: a dynamic binary would need the loader and libc allowed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "oplist.h"
/* the OP_ kinds of each op function below, made from probe.ops */
#include "probe-ops.h"

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

extern char **environ;

/* ---- open-based operations ---------------------------------------- */

/* open(2) then the one follow-up call the op is about */
static int op_open(int op, char **arg, char *info)
{
	static const int flags[] = {
		[OP_READ] = O_RDONLY,
		[OP_WRITE] = O_WRONLY,
		[OP_READDIR] = O_RDONLY | O_DIRECTORY,
		[OP_CREATE] = O_WRONLY | O_CREAT | O_EXCL,
		[OP_OTRUNC] = O_WRONLY | O_TRUNC,
		[OP_FTRUNCATE] = O_WRONLY,
		[OP_OPATH] = O_PATH,
		[OP_REOPEN] = O_PATH,
		[OP_IOCTL] = O_RDONLY | O_NONBLOCK,
	};
	char buf[256];
	struct termios tio;
	int fd, fd2, r = 0;

	(void)info;
	fd = open(arg[0], flags[op] | O_CLOEXEC, 0644);
	if (fd < 0)
		return err();
	switch (op) {
	case OP_READ:
		if (read(fd, buf, 1) < 0)
			r = err();
		break;
	case OP_READDIR:
		if (syscall(SYS_getdents64, fd, buf, sizeof(buf)) < 0)
			r = err();
		break;
	case OP_FTRUNCATE:
		if (ftruncate(fd, 0) < 0)
			r = err();
		break;
	case OP_REOPEN:
		snprintf(buf, sizeof(buf), "/proc/self/fd/%d", fd);
		fd2 = open(buf, O_RDONLY | O_CLOEXEC);
		if (fd2 < 0)
			r = err();
		else
			close(fd2);
		break;
	case OP_IOCTL:
		/* TCGETS is not one of the ioctls Landlock always allows */
		if (ioctl(fd, TCGETS, &tio) < 0)
			r = err();
		break;
	default:
		break;
	}
	close(fd);
	return r;
}

/*
 * ---- operations on a descriptor the caller opened ---------------------
 * fd-read N, fd-write N, fd-ftruncate N, fd-ioctl N: the one call on
 * descriptor N, inherited from outside the sandbox (Landlock decides
 * truncate and ioctl when a file is opened, so these keep working).
 */
static int op_fd(int op, char **arg, char *info)
{
	int fd = atoi(arg[0]);
	struct termios tio;
	char c = 'x';
	long r = -1;

	(void)info;
	switch (op) {
	case OP_FD_READ: r = pread(fd, &c, 1, 0); break;
	case OP_FD_WRITE: r = pwrite(fd, &c, 1, 0); break;
	case OP_FD_FTRUNCATE: r = ftruncate(fd, 0); break;
	case OP_FD_IOCTL: r = ioctl(fd, TCGETS, &tio); break;
	default: break;
	}
	return r < 0 ? err() : 0;
}

/* ---- path operations ----------------------------------------------- */

static int op_path(int op, char **arg, char *info)
{
	char buf[256];
	struct stat st;
	long r = -1;

	(void)info;
	switch (op) {
	case OP_MKDIR: r = mkdir(arg[0], 0755); break;
	case OP_MKREG: r = mknod(arg[0], S_IFREG | 0644, 0); break;
	case OP_MKFIFO: r = mkfifo(arg[0], 0644); break;
	case OP_MKSOCK: r = mknod(arg[0], S_IFSOCK | 0644, 0); break;
	case OP_SYMLINK: r = symlink(arg[0], arg[1]); break;
	case OP_UNLINK: r = unlink(arg[0]); break;
	case OP_RMDIR: r = rmdir(arg[0]); break;
	case OP_RENAME: r = rename(arg[0], arg[1]); break;
	case OP_EXCHANGE:
		r = syscall(SYS_renameat2, AT_FDCWD, arg[0], AT_FDCWD, arg[1],
			    RENAME_EXCHANGE);
		break;
	case OP_LINK: r = link(arg[0], arg[1]); break;
	case OP_TRUNCATE: r = truncate(arg[0], 0); break;
	case OP_STAT: r = stat(arg[0], &st); break;
	case OP_CHDIR: r = chdir(arg[0]); break;
	case OP_READLINK: r = readlink(arg[0], buf, sizeof(buf)); break;
	default: errno = EINVAL; break;
	}
	return r < 0 ? err() : 0;
}

/* ---- mount operations ---------------------------------------------- */

static int op_mount(int op, char **arg, char *info)
{
	int r = -1;

	(void)info;
	switch (op) {
	case OP_MOUNT_TMPFS:
		r = mount("tmpfs", arg[0], "tmpfs", 0, "size=1m");
		if (r == 0)	/* the op was allowed: do not leave it behind */
			umount2(arg[0], MNT_DETACH);
		break;
	case OP_UMOUNT:
		r = umount2(arg[0], 0);
		break;
	case OP_BIND:
		r = mount(arg[0], arg[1], NULL, MS_BIND, NULL);
		if (r == 0)
			umount2(arg[1], MNT_DETACH);
		break;
	default:
		errno = EINVAL;
		break;
	}
	return r < 0 ? err() : 0;
}

/* ---- exec and other processes --------------------------------------- */

/* fork, execve PATH without arguments, report execve's errno */
static int op_exec(int op, char **arg, char *info)
{
	char *argv[] = { arg[0], NULL };
	int pfd[2], e, devnull;
	pid_t pid;

	(void)op;
	(void)info;
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	pid = exec_fork(pfd);
	if (pid < 0)
		return err();
	if (pid == 0) {
		if (devnull >= 0) {
			dup2(devnull, 1);
			dup2(devnull, 2);
		} else {
			close(1);
			close(2);
		}
		execve(arg[0], argv, environ);
		exec_failed(pfd[1]);
	}
	if (devnull >= 0)
		close(devnull);
	e = exec_errno(pfd);
	waitpid(pid, NULL, 0);
	return e;
}

static void *read_thread(void *path)
{
	char *arg[] = { path };

	return (void *)(long)op_open(OP_READ, arg, NULL);
}

static int op_proc(int op, char **arg, char *info)
{
	pthread_t t;
	void *res;
	pid_t pid;
	int status;

	(void)info;
	switch (op) {
	case OP_FORK_READ:
		fflush(NULL);
		pid = fork();
		if (pid < 0)
			return err();
		if (pid == 0)
			_exit(op_open(OP_READ, arg, NULL));
		if (waitpid(pid, &status, 0) < 0)
			return err();
		return WIFEXITED(status) ? WEXITSTATUS(status) : EINTR;
	case OP_THREAD_READ:
		if ((errno = pthread_create(&t, NULL, read_thread, arg[0])))
			return err();
		pthread_join(t, &res);
		return (int)(long)res;
	case OP_SLEEP_READ:
		sleep((unsigned)atoi(arg[0]));
		return op_open(OP_READ, arg + 1, NULL);
	case OP_WAIT_FILE:
		return wait_file(arg[0], 10);
	default:
		return EINVAL;
	}
}

/* pid: "<pid> <ppid>"; children: "none" when there is nothing to reap */
static int op_info(int op, char **arg, char *info)
{
	(void)arg;
	if (op == OP_PID) {
		snprintf(info, INFO_LEN, "%d %d", (int)getpid(), (int)getppid());
		return 0;
	}
	if (waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD)
		snprintf(info, INFO_LEN, "none");
	else
		snprintf(info, INFO_LEN, "some");
	return 0;
}

/* ---- table and driver ----------------------------------------------- */

/* made from probe.ops: here, after the static op functions its rows name */
static const struct op ops[] = {
#include "probe-table.h"
};

static const struct oplist list = OPLIST("probe", "", ops);

int main(int argc, char **argv)
{
	return oplist_main(&list, argc, argv);
}
