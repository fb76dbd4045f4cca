/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * attack: the escape routes escape.sh and escape-recent.sh take beyond
 * escape's, one process, each result reported by errno name, like
 * escape.
 *
 *   attack OP ARGS [+ OP ARGS ...]      prints "<op> <args>: <result>"
 *   attack fown-prep PATH PID CMD...    outside: opens PATH (a pipe if
 *                                       PATH is "pipe") as fd 3 (write end
 *                                       4), makes PID its owner, runs CMD
 *   attack kill-sweep FROM TO STEP CMD...
 *                                       runs CMD again and again, SIGKILLed
 *                                       FROM, FROM+STEP, ... TO microseconds
 *                                       after the fork; prints how many
 *                                       were killed and how many had exited
 *
 * io_uring ops change the process's credentials first (a new struct cred
 * with the same ids, PR_SET_KEEPCAPS), so that the request runs under
 * overridden credentials, then open PATH through a ring: "inline" as
 * submitted, "async" in an io-wq worker, "sqpoll" in a polling thread
 * shared with a ring made before the change (IORING_SETUP_ATTACH_WQ),
 * "personality" under credentials registered before the change.
 *
 * fown ops try to make an outside process the target of a signal sent
 * through file ownership and, if every step passes, send it (SIGKILL).
 *
 * fill ops hold many objects at once in one sandbox, then sleep (the
 * suite checks a second sandbox meanwhile).  Static, as escape.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <netinet/in.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "inet_addr.h"
#include "oplist.h"

#ifndef F_SETSIG
#define F_SETSIG 10
#endif

/* ---- io_uring ----------------------------------------------------------- */

struct ring {
	int fd;
	struct io_uring_params p;
	void *sq, *cq;
	struct io_uring_sqe *sqes;
};

static int ring_setup(struct ring *r, unsigned flags, int wq_fd)
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

/* Submits one IORING_OP_OPENAT and returns its result (fd or -errno). */
static int ring_open(struct ring *r, const char *path, int flags,
		     unsigned sqe_flags, unsigned personality)
{
	unsigned *tail = RING_U32(r, sq, sq_off.tail);
	unsigned *mask = RING_U32(r, sq, sq_off.ring_mask);
	unsigned *array = RING_U32(r, sq, sq_off.array);
	unsigned *cq_head = RING_U32(r, cq, cq_off.head);
	unsigned *cq_tail = RING_U32(r, cq, cq_off.tail);
	unsigned *cq_mask = RING_U32(r, cq, cq_off.ring_mask);
	struct io_uring_sqe *sqe = &r->sqes[0];
	struct io_uring_cqe *cqe;
	int res;

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_OPENAT;
	sqe->fd = AT_FDCWD;
	sqe->addr = (uint64_t)(uintptr_t)path;
	sqe->open_flags = (unsigned)flags | O_CLOEXEC;
	sqe->len = 0;
	sqe->flags = (uint8_t)sqe_flags;
	sqe->personality = (uint16_t)personality;
	array[*tail & *mask] = 0;
	__atomic_store_n(tail, *tail + 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 500; i++) {
		if (syscall(SYS_io_uring_enter, r->fd, 1, 1,
			    IORING_ENTER_GETEVENTS | IORING_ENTER_SQ_WAKEUP,
			    NULL, 0) < 0)
			return -err();
		if (__atomic_load_n(cq_tail, __ATOMIC_ACQUIRE) != *cq_head)
			break;
		usleep(10000);
	}
	if (__atomic_load_n(cq_tail, __ATOMIC_ACQUIRE) == *cq_head)
		return -ETIMEDOUT;
	cqe = (struct io_uring_cqe *)((char *)r->cq + r->p.cq_off.cqes) +
	      (*cq_head & *cq_mask);
	res = cqe->res;
	__atomic_store_n(cq_head, *cq_head + 1, __ATOMIC_RELEASE);
	return res;
}

/* A new struct cred, same ids: what makes io_uring override them later. */
static int new_creds(void)
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

enum { OP_URING_INLINE, OP_URING_ASYNC, OP_URING_SQPOLL,
	OP_URING_PERSONALITY };

/* uring-* HOW PATH: HOW is read, append or list */
static int op_uring(int op, char **arg, char *info)
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

/* ---- signals through file ownership ----------------------------------- */

static int setown_ex(int fd, int type, pid_t pid)
{
	struct f_owner_ex ex = { .type = type, .pid = pid };

	return fcntl(fd, F_SETOWN_EX, &ex) < 0 ? err() : 0;
}

/* Arms @fd (owner already set) to SIGKILL its owner, then makes it ready
 * by writing to @wfd. */
static int arm_and_fire(int fd, int wfd)
{
	int on = 1;

	if (fcntl(fd, F_SETSIG, SIGKILL) < 0)
		return err();
	if (ioctl(fd, FIOASYNC, &on) < 0)
		return err();
	if (write(wfd, "x", 1) != 1)
		return err();
	usleep(100000);
	return 0;
}

enum { OP_FOWN_SETOWN, OP_FOWN_SETOWN_EX, OP_FOWN_PGRP, OP_FOWN_FIOSETOWN,
	OP_FOWN_SIOCSPGRP, OP_FOWN_SIGURG, OP_FD3_SETSIG, OP_FD3_ASYNC,
	OP_FD3_LEASE, OP_FD3_NOTIFY, OP_FD3_FIRE };

/* fown-* PID: make PID the owner of a fresh pipe or socket, arm, fire */
static int op_fown(int op, char **arg, char *info)
{
	pid_t pid = (pid_t)strtol(arg[0], NULL, 10);
	int p[2], r;

	(void)info;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, p) < 0)
		return err();
	switch (op) {
	case OP_FOWN_SETOWN:
		r = fcntl(p[0], F_SETOWN, pid) < 0 ? err() : 0;
		break;
	case OP_FOWN_SETOWN_EX:
		r = setown_ex(p[0], F_OWNER_PID, pid);
		break;
	case OP_FOWN_PGRP:
		r = setown_ex(p[0], F_OWNER_PGRP, pid);
		break;
	case OP_FOWN_FIOSETOWN:
		r = ioctl(p[0], FIOSETOWN, &pid) < 0 ? err() : 0;
		break;
	default:
		r = ioctl(p[0], SIOCSPGRP, &pid) < 0 ? err() : 0;
		break;
	}
	return r ? r : arm_and_fire(p[0], p[1]);
}

/* fown-self: the lawful use, owner first: SIGURG (ignored) to itself */
static int op_fown_self(int op, char **arg, char *info)
{
	int p[2], on = 1;

	(void)op;
	(void)arg;
	(void)info;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, p) < 0 ||
	    fcntl(p[0], F_SETOWN, getpid()) < 0 ||
	    fcntl(p[0], F_SETSIG, SIGURG) < 0 ||
	    fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_ASYNC) < 0 ||
	    ioctl(p[0], FIOASYNC, &on) < 0 || write(p[1], "x", 1) != 1)
		return err();
	return 0;
}

/*
 * tty-async: O_ASYNC on the controlling terminal (fd 0) with no owner
 * set: the terminal would make its foreground process group the owner,
 * outside processes of the job included.
 */
static int op_tty_async(int op, char **arg, char *info)
{
	(void)op;
	(void)arg;
	(void)info;
	if (!isatty(0))
		return ENOTTY;
	return fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_ASYNC) < 0 ? err() : 0;
}

/* fown-sigurg PID: SIGURG from TCP urgent data on loopback */
static int op_sigurg(int op, char **arg, char *info)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	pid_t pid = (pid_t)strtol(arg[0], NULL, 10);
	int l, c, s;

	(void)op;
	(void)info;
	l = socket(AF_INET, SOCK_STREAM, 0);
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0 || c < 0 || bind(l, (void *)&a, sizeof(a)) < 0 ||
	    listen(l, 1) < 0 || getsockname(l, (void *)&a, &len) < 0 ||
	    connect(c, (void *)&a, sizeof(a)) < 0)
		return err();
	s = accept(l, NULL, NULL);
	if (s < 0)
		return err();
	if (fcntl(s, F_SETOWN, pid) < 0 || fcntl(s, F_SETSIG, SIGKILL) < 0)
		return err();
	if (send(c, "!", 1, MSG_OOB) != 1)
		return err();
	usleep(100000);
	return 0;
}

/* fd3-*: fd 3 (and 4) from fown-prep, owned by an outside process */
static int op_fd3(int op, char **arg, char *info)
{
	int on = 1;

	(void)arg;
	(void)info;
	switch (op) {
	case OP_FD3_SETSIG:
		return fcntl(3, F_SETSIG, SIGKILL) < 0 ? err() : 0;
	case OP_FD3_ASYNC:
		return fcntl(3, F_SETFL, fcntl(3, F_GETFL) | O_ASYNC) < 0 ?
		       err() : 0;
	case OP_FD3_LEASE:
		return fcntl(3, F_SETLEASE, F_RDLCK) < 0 ? err() : 0;
	case OP_FD3_NOTIFY:
		return fcntl(3, F_NOTIFY, DN_CREATE | DN_MULTISHOT) < 0 ?
		       err() : 0;
	default:
		if (fcntl(3, F_SETSIG, SIGKILL) < 0 ||
		    ioctl(3, FIOASYNC, &on) < 0)
			return err();
		return write(4, "x", 1) != 1 ? err() : (usleep(100000), 0);
	}
}

static int fown_prep(char **argv)
{
	pid_t pid = (pid_t)strtol(argv[1], NULL, 10);
	int p[2];

	if (!strcmp(argv[0], "pipe")) {
		if (pipe(p) < 0 || dup2(p[0], 3) < 0 || dup2(p[1], 4) < 0)
			return perror("attack: fown-prep: pipe"), 2;
	} else {
		p[0] = open(argv[0], O_RDONLY);
		if (p[0] < 0 || dup2(p[0], 3) < 0)
			return perror(argv[0]), 2;
	}
	if (fcntl(3, F_SETOWN, pid) < 0)
		return perror("attack: fown-prep: F_SETOWN"), 2;
	execvp(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}

/* ---- 32-bit entry ------------------------------------------------------ */

/*
 * ioctl32 PATH: PATH opened for reading, then TCGETS on it through the
 * 32-bit system call entry (int $0x80 works from a 64-bit process), which
 * the kernel routes to the compat ioctl path.  Not a terminal: a driver
 * reached says ENOTTY.
 */
static int op_ioctl32(int op, char **arg, char *info)
{
	long ret;
	int fd = open(arg[0], O_RDONLY);

	(void)op;
	(void)info;
	if (fd < 0)
		return err();
	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(54L), "b"((long)fd), "c"(0x5401L), "d"(0L)
			 : "memory");
	close(fd);
	return ret < 0 ? (int)-ret : 0;
}

/* ---- filling shared tables -------------------------------------------- */

static void raise_nofile(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl)) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

enum { OP_FILL_UNIX, OP_FILL_IOCTL, OP_HOLD };

/*
 * fill-unix N: N unix sockets held open.  fill-ioctl N PATH: PATH (a
 * device) opened N times, each under new credentials.  The info is how
 * many it got, and the first error if it stopped short.
 */
static int op_fill(int op, char **arg, char *info)
{
	long n = strtol(arg[0], NULL, 10), i;
	char ebuf[16];
	int e = 0;

	raise_nofile();
	for (i = 0; i < n && !e; i++) {
		int fd;

		if (op == OP_FILL_UNIX) {
			fd = socket(AF_UNIX, SOCK_DGRAM, 0);
		} else {
			e = new_creds();
			fd = e ? -1 : open(arg[1], O_RDONLY);
		}
		if (fd < 0 && !e)
			e = err();
	}
	if (e)
		i--;
	snprintf(info, INFO_LEN, "%ld%s%s", i, e ? " " : "",
		 e ? errno_name(e, ebuf, sizeof(ebuf)) : "");
	return 0;
}

/*
 * linger FILE OUT SECONDS: returns at once, leaving a process that after
 * SECONDS forks and has the child read FILE, writing "read FILE: RESULT"
 * to OUT: does the sandbox still hold once the command it ran is gone?
 */
static int op_linger(int op, char **arg, char *info)
{
	pid_t pid;

	(void)op;
	(void)info;
	pid = fork();
	if (pid < 0)
		return err();
	if (pid > 0)
		return 0;
	setsid();
	sleep((unsigned)atoi(arg[2]));
	pid = fork();
	if (pid == 0) {
		char ebuf[16], c;
		int fd = open(arg[0], O_RDONLY), e = 0;
		FILE *out = fopen(arg[1], "w");

		if (fd < 0 || read(fd, &c, 1) < 0)
			e = err();
		if (out) {
			fprintf(out, "read %s: %s\n", arg[0],
				e ? errno_name(e, ebuf, sizeof(ebuf)) : "OK");
			fclose(out);
		}
		_exit(0);
	}
	if (pid < 0) {
		FILE *out = fopen(arg[1], "w");
		char ebuf[16];

		if (out) {
			fprintf(out, "fork: %s\n",
				errno_name(errno, ebuf, sizeof(ebuf)));
			fclose(out);
		}
	}
	_exit(0);
}

static int op_hold(int op, char **arg, char *info)
{
	(void)op;
	(void)info;
	sleep((unsigned)atoi(arg[0]));
	return 0;
}

/* ---- truncate decided at open ------------------------------------------ */

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
 * Submits @sqe (copied into slot 0) and waits for its completion; returns
 * its result (>= 0 or -errno).
 */
static int ring_submit(struct ring *r, const struct io_uring_sqe *in)
{
	unsigned *tail = RING_U32(r, sq, sq_off.tail);
	unsigned *mask = RING_U32(r, sq, sq_off.ring_mask);
	unsigned *array = RING_U32(r, sq, sq_off.array);
	unsigned *cq_head = RING_U32(r, cq, cq_off.head);
	unsigned *cq_tail = RING_U32(r, cq, cq_off.tail);
	unsigned *cq_mask = RING_U32(r, cq, cq_off.ring_mask);
	struct io_uring_cqe *cqe;
	int res;

	r->sqes[0] = *in;
	array[*tail & *mask] = 0;
	__atomic_store_n(tail, *tail + 1, __ATOMIC_RELEASE);
	if (syscall(SYS_io_uring_enter, r->fd, 1, 1, IORING_ENTER_GETEVENTS,
		    NULL, 0) < 0)
		return -err();
	if (__atomic_load_n(cq_tail, __ATOMIC_ACQUIRE) == *cq_head)
		return -ETIMEDOUT;
	cqe = (struct io_uring_cqe *)((char *)r->cq + r->p.cq_off.cqes) +
	      (*cq_head & *cq_mask);
	res = cqe->res;
	__atomic_store_n(cq_head, *cq_head + 1, __ATOMIC_RELEASE);
	return res;
}

/* int $0x80 with up to three arguments: a 32-bit system call */
static long syscall32(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(nr), "b"(a), "c"(b), "d"(c)
			 : "memory");
	return ret;
}

enum { OP_TRUNC_FTRUNCATE, OP_TRUNC_OTRUNC, OP_TRUNC_PROC, OP_TRUNC_PATH,
	OP_TRUNC_URING, OP_TRUNC_PUNCH, OP_TRUNC_COLLAPSE, OP_TRUNC_DUP,
	OP_TRUNC_32 };

/*
 * trunc-ROUTE PATH: opens PATH for writing (without O_TRUNC), then tries
 * to cut it to 0 bytes (punch: to zero its first 4 KiB; collapse: to
 * remove them) by ROUTE.  Reports the route's errno; OK only if the call
 * succeeded.
 */
static int op_trunc(int op, char **arg, char *info)
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

/* ---- descriptors over unix sockets ------------------------------------- */

static socklen_t unix_path(struct sockaddr_un *sa, const char *path)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	snprintf(sa->sun_path, sizeof(sa->sun_path), "%s", path);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
			   strlen(sa->sun_path) + 1);
}

/* Sends @n descriptors (at most 64) with one byte over @sock. */
static int send_fds(int sock, const int *fds, int n)
{
	union {
		char buf[CMSG_SPACE(64 * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = "x", .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = u.buf,
			      .msg_controllen = CMSG_SPACE(n * sizeof(int)) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	memset(&u, 0, sizeof(u));
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(n * sizeof(int));
	memcpy(CMSG_DATA(c), fds, n * sizeof(int));
	return sendmsg(sock, &msg, 0) < 0 ? err() : 0;
}

/* Receives one message; returns the first descriptor, or -errno. */
static int recv_fd(int sock)
{
	union {
		char buf[CMSG_SPACE(64 * sizeof(int))];
		struct cmsghdr align;
	} u;
	char b;
	struct iovec iov = { .iov_base = &b, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = u.buf,
			      .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, &msg, 0) <= 0)
		return -err();
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_type != SCM_RIGHTS)
		return -EBADF;
	memcpy(&fd, CMSG_DATA(c), sizeof(fd));
	return fd;
}

static int connect_path(const char *path)
{
	struct sockaddr_un sa;
	socklen_t len = unix_path(&sa, path);
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (s < 0)
		return -err();
	if (connect(s, (struct sockaddr *)&sa, len) < 0) {
		int e = err();

		close(s);
		return -e;
	}
	return s;
}

/* Binds and listens on @path (mode 0666), then touches PATH.ready. */
static int listen_path(const char *path)
{
	struct sockaddr_un sa;
	socklen_t len = unix_path(&sa, path);
	char ready[sizeof(sa.sun_path) + 8];
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), fd;

	if (s < 0)
		return -err();
	if (bind(s, (struct sockaddr *)&sa, len) < 0 || listen(s, 8) < 0) {
		int e = err();

		close(s);
		return -e;
	}
	chmod(path, 0666);
	snprintf(ready, sizeof(ready), "%s.ready", path);
	fd = open(ready, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	return s;
}

enum { OP_FD_SEND, OP_FD_RECV_TRUNC, OP_FD_PASS_OUT, OP_FD_HOLD };

/*
 * fd-send PATH SOCK: PATH opened for writing, sent over SOCK.
 * fd-recv-trunc SOCK: listens on SOCK, takes one descriptor, ftruncate.
 * fd-pass-out N PATH SOCK: PATH opened for writing N times, each under
 *   new credentials, every descriptor sent over SOCK; info: how many.
 * fd-hold SOCK SECONDS: listens on SOCK, keeps what it is sent.
 */
static int op_fdpass(int op, char **arg, char *info)
{
	int s, c, fd, r = 0, fds[64];
	long n, i, got = 0;
	char ebuf[16];
	time_t until;

	switch (op) {
	case OP_FD_SEND:
		fd = open(arg[0], O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return err();
		s = connect_path(arg[1]);
		if (s < 0)
			r = -s;
		else
			r = send_fds(s, &fd, 1);
		if (s >= 0)
			close(s);
		close(fd);
		usleep(200000);
		return r;
	case OP_FD_RECV_TRUNC:
		s = listen_path(arg[0]);
		if (s < 0)
			return -s;
		c = accept(s, NULL, NULL);
		if (c < 0)
			return err();
		fd = recv_fd(c);
		if (fd < 0)
			return -fd;
		return ftruncate(fd, 0) < 0 ? err() : 0;
	case OP_FD_PASS_OUT:
		n = strtol(arg[0], NULL, 10);
		s = connect_path(arg[2]);
		if (s < 0)
			return -s;
		for (i = 0; i < n && !r; i++) {
			r = new_creds();
			fd = r ? -1 : open(arg[1], O_WRONLY | O_CLOEXEC);
			if (fd < 0 && !r)
				r = err();
			if (fd < 0)
				break;
			fds[got % 64] = fd;
			got++;
			if (got % 64 == 0 || i == n - 1) {
				r = send_fds(s, fds, (int)((got - 1) % 64 + 1));
				for (int j = 0; j < (int)((got - 1) % 64 + 1); j++)
					close(fds[j]);
			}
		}
		if (r && got % 64) {
			send_fds(s, fds, (int)(got % 64));
		}
		snprintf(info, INFO_LEN, "%ld%s%s", got, r ? " " : "",
			 r ? errno_name(r, ebuf, sizeof(ebuf)) : "");
		close(s);
		return 0;
	case OP_FD_HOLD:
		raise_nofile();
		s = listen_path(arg[0]);
		if (s < 0)
			return -s;
		fcntl(s, F_SETFL, O_NONBLOCK);
		until = time(NULL) + atoi(arg[1]);
		while (time(NULL) < until) {
			c = accept(s, NULL, NULL);
			if (c < 0) {
				usleep(20000);
				continue;
			}
			/* keep every descriptor: never close them */
			while (recv_fd(c) >= 0)
				;
		}
		return 0;
	default:
		return EINVAL;
	}
}

/* ---- symlink swaps -------------------------------------------------------- */

/*
 * race-symlink LINK GOOD BAD N: a child swaps LINK between GOOD and BAD
 * (rename over it) while this process opens and reads LINK N times; info:
 * "read BAD K times" (K must be 0 in a sandbox denied BAD).
 */
static int op_race(int op, char **arg, char *info)
{
	char tmp[4096], want[256], buf[256];
	long n = strtol(arg[3], NULL, 10), i, bad = 0, good = 0;
	int fd, wl;
	ssize_t len;
	pid_t pid;

	(void)op;
	fd = open(arg[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err();
	len = read(fd, want, sizeof(want));
	close(fd);
	wl = len < 0 ? 0 : (int)len;
	snprintf(tmp, sizeof(tmp), "%s.swap", arg[0]);
	pid = fork();
	if (pid < 0)
		return err();
	if (pid == 0) {
		for (;;) {
			unlink(tmp);
			if (symlink(arg[2], tmp) == 0)
				rename(tmp, arg[0]);
			unlink(tmp);
			if (symlink(arg[1], tmp) == 0)
				rename(tmp, arg[0]);
		}
	}
	for (i = 0; i < n; i++) {
		fd = open(arg[0], O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		len = read(fd, buf, sizeof(buf));
		close(fd);
		if (len == wl && !memcmp(buf, want, (size_t)wl))
			good++;
		else if (len > 0)
			bad++;
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	snprintf(info, INFO_LEN, "read BAD %ld times%s", bad,
		 good ? "" : " (GOOD never read)");
	return 0;
}

/* ---- UDP sends and the port they bind ----------------------------------- */

/* The port @fd is bound to, 0 if none */
static int udp_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
		return 0;
	return ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

enum { OP_UDP_SENDMSG, OP_UDP_SENDMMSG, OP_UDP_URING_SENDMSG,
	OP_UDP_URING_SEND, OP_UDP_UNSPEC_SENDTO, OP_UDP_NOADDR_SENDTO,
	OP_UDP_NOADDR_BOUND, OP_UDP_SENDFILE_SENDTO, OP_UDP_FD_SENDTO };

/*
 * udp-* ADDR PORT: an unbound UDP socket (of ADDR's family) sends one
 * byte to ADDR:PORT by the route; the send's errno.
 *   sendmsg, sendmmsg (two messages), uring-sendmsg, uring-send (address
 *   in addr2): the address with the message
 *   unspec-sendto: connect(AF_UNSPEC) first, then sendto
 *   noaddr-sendto: send() without an address first (fails: no peer),
 *   then sendto;  noaddr-bound: info "bound" if that first send() left
 *   the socket bound to a port, "unbound" if not
 *   sendfile-sendto: sendfile() of one byte to the socket first
 * udp-fd-sendto FD ADDR PORT: sendto on inherited descriptor FD.
 */
static int op_udp(int op, char **arg, char *info)
{
	struct sockaddr_storage ss;
	struct sockaddr_storage un = { .ss_family = AF_UNSPEC };
	struct io_uring_sqe sqe;
	struct iovec iov = { .iov_base = "x", .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct mmsghdr mm[2];
	struct ring r;
	socklen_t len;
	int fd, family, res = 0, mfd;

	if (op == OP_UDP_FD_SENDTO) {
		if (!sockaddr_of(arg[1], arg[2], &ss, &len))
			return EINVAL;
		return sendto(atoi(arg[0]), "x", 1, 0, (struct sockaddr *)&ss,
			      len) < 0 ? err() : 0;
	}
	family = sockaddr_of(arg[0], arg[1], &ss, &len);
	if (!family)
		return EINVAL;
	fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return err();
	msg.msg_name = &ss;
	msg.msg_namelen = len;
	switch (op) {
	case OP_UDP_SENDMSG:
		res = sendmsg(fd, &msg, 0) < 0 ? err() : 0;
		break;
	case OP_UDP_SENDMMSG:
		memset(mm, 0, sizeof(mm));
		mm[0].msg_hdr = msg;
		mm[1].msg_hdr = msg;
		res = (int)sendmmsg(fd, mm, 2, 0);
		res = res < 0 ? err() : res == 2 ? 0 : EIO;
		break;
	case OP_UDP_URING_SENDMSG:
	case OP_UDP_URING_SEND:
		res = ring_setup(&r, 0, 0);
		if (res)
			break;
		memset(&sqe, 0, sizeof(sqe));
		sqe.fd = fd;
		if (op == OP_UDP_URING_SENDMSG) {
			sqe.opcode = IORING_OP_SENDMSG;
			sqe.addr = (uint64_t)(uintptr_t)&msg;
			sqe.len = 1;
		} else {
			sqe.opcode = IORING_OP_SEND;
			sqe.addr = (uint64_t)(uintptr_t)"x";
			sqe.len = 1;
			sqe.addr2 = (uint64_t)(uintptr_t)&ss;
			sqe.addr_len = (uint16_t)len;
		}
		res = ring_submit(&r, &sqe);
		res = res < 0 ? -res : 0;
		close(r.fd);
		break;
	case OP_UDP_UNSPEC_SENDTO:
		connect(fd, (struct sockaddr *)&un, sizeof(un.ss_family));
		res = sendto(fd, "x", 1, 0, (struct sockaddr *)&ss, len) < 0 ?
		      err() : 0;
		break;
	case OP_UDP_NOADDR_SENDTO:
	case OP_UDP_NOADDR_BOUND:
		send(fd, "x", 1, MSG_DONTWAIT);
		if (op == OP_UDP_NOADDR_BOUND) {
			snprintf(info, INFO_LEN, "%s",
				 udp_port(fd) ? "bound" : "unbound");
			break;
		}
		res = sendto(fd, "x", 1, 0, (struct sockaddr *)&ss, len) < 0 ?
		      err() : 0;
		break;
	case OP_UDP_SENDFILE_SENDTO:
		mfd = (int)syscall(SYS_memfd_create, "x", 0);
		if (mfd >= 0 && write(mfd, "x", 1) == 1 &&
		    lseek(mfd, 0, SEEK_SET) == 0)
			sendfile(fd, mfd, NULL, 1);
		if (mfd >= 0)
			close(mfd);
		res = sendto(fd, "x", 1, 0, (struct sockaddr *)&ss, len) < 0 ?
		      err() : 0;
		break;
	default:
		res = EINVAL;
		break;
	}
	close(fd);
	return res;
}

/* ---- table and driver ------------------------------------------------- */

static const struct op ops[] = {
	{ "uring-inline", 2, op_uring, OP_URING_INLINE },
	{ "uring-async", 2, op_uring, OP_URING_ASYNC },
	{ "uring-sqpoll", 2, op_uring, OP_URING_SQPOLL },
	{ "uring-personality", 2, op_uring, OP_URING_PERSONALITY },
	{ "fown-setown", 1, op_fown, OP_FOWN_SETOWN },
	{ "fown-setown-ex", 1, op_fown, OP_FOWN_SETOWN_EX },
	{ "fown-pgrp", 1, op_fown, OP_FOWN_PGRP },
	{ "fown-fiosetown", 1, op_fown, OP_FOWN_FIOSETOWN },
	{ "fown-siocspgrp", 1, op_fown, OP_FOWN_SIOCSPGRP },
	{ "fown-sigurg", 1, op_sigurg, OP_FOWN_SIGURG },
	{ "fown-self", 0, op_fown_self, 0 },
	{ "tty-async", 0, op_tty_async, 0 },
	{ "fd3-setsig", 0, op_fd3, OP_FD3_SETSIG },
	{ "fd3-async", 0, op_fd3, OP_FD3_ASYNC },
	{ "fd3-lease", 0, op_fd3, OP_FD3_LEASE },
	{ "fd3-notify", 0, op_fd3, OP_FD3_NOTIFY },
	{ "fd3-fire", 0, op_fd3, OP_FD3_FIRE },
	{ "ioctl32", 1, op_ioctl32, 0 },
	{ "fill-unix", 1, op_fill, OP_FILL_UNIX },
	{ "fill-ioctl", 2, op_fill, OP_FILL_IOCTL },
	{ "hold", 1, op_hold, OP_HOLD },
	{ "linger", 3, op_linger, 0 },
	{ "trunc-ftruncate", 1, op_trunc, OP_TRUNC_FTRUNCATE },
	{ "trunc-otrunc", 1, op_trunc, OP_TRUNC_OTRUNC },
	{ "trunc-proc", 1, op_trunc, OP_TRUNC_PROC },
	{ "trunc-path", 1, op_trunc, OP_TRUNC_PATH },
	{ "trunc-uring", 1, op_trunc, OP_TRUNC_URING },
	{ "trunc-punch", 1, op_trunc, OP_TRUNC_PUNCH },
	{ "trunc-collapse", 1, op_trunc, OP_TRUNC_COLLAPSE },
	{ "trunc-dup", 1, op_trunc, OP_TRUNC_DUP },
	{ "trunc-32", 1, op_trunc, OP_TRUNC_32 },
	{ "fd-send", 2, op_fdpass, OP_FD_SEND },
	{ "fd-recv-trunc", 1, op_fdpass, OP_FD_RECV_TRUNC },
	{ "fd-pass-out", 3, op_fdpass, OP_FD_PASS_OUT },
	{ "fd-hold", 2, op_fdpass, OP_FD_HOLD },
	{ "race-symlink", 4, op_race, 0 },
	{ "udp-sendmsg", 2, op_udp, OP_UDP_SENDMSG },
	{ "udp-sendmmsg", 2, op_udp, OP_UDP_SENDMMSG },
	{ "udp-uring-sendmsg", 2, op_udp, OP_UDP_URING_SENDMSG },
	{ "udp-uring-send", 2, op_udp, OP_UDP_URING_SEND },
	{ "udp-unspec-sendto", 2, op_udp, OP_UDP_UNSPEC_SENDTO },
	{ "udp-noaddr-sendto", 2, op_udp, OP_UDP_NOADDR_SENDTO },
	{ "udp-noaddr-bound", 2, op_udp, OP_UDP_NOADDR_BOUND },
	{ "udp-sendfile-sendto", 2, op_udp, OP_UDP_SENDFILE_SENDTO },
	{ "udp-fd-sendto", 3, op_udp, OP_UDP_FD_SENDTO },
};

static const struct oplist list =
	OPLIST("attack", "       attack fown-prep PATH|pipe PID CMD...\n"
		"       attack kill-sweep FROM TO STEP CMD...\n", ops);

/* ---- killing a launcher at every point ------------------------------- */

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000ll + ts.tv_nsec / 1000;
}

/* 1 if CMD was killed, 0 if it had exited first, -1 on error. */
static int kill_after(long long us, char **cmd)
{
	long long start = now_us();
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execvp(cmd[0], cmd);
		_exit(127);
	}
	while (now_us() - start < us)
		if (waitpid(pid, &status, WNOHANG) == pid)
			return 0;
	kill(pid, SIGKILL);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

static int kill_sweep(char **argv)
{
	long long from = atoll(argv[0]), to = atoll(argv[1]);
	long long step = atoll(argv[2]);
	long killed = 0, exited = 0;

	if (step <= 0 || from < 0 || to < from)
		return oplist_usage(&list, "kill-sweep needs FROM <= TO, STEP > 0",
				    NULL);
	for (long long us = from; us <= to; us += step) {
		int r = kill_after(us, argv + 3);

		if (r < 0)
			return perror("attack: kill-sweep"), 2;
		if (r)
			killed++;
		else
			exited++;
	}
	printf("killed %ld exited %ld\n", killed, exited);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "fown-prep") == 0) {
		if (argc < 5)
			return oplist_usage(&list, "fown-prep needs PATH PID CMD",
					    NULL);
		return fown_prep(argv + 2);
	}
	if (argc > 1 && strcmp(argv[1], "kill-sweep") == 0) {
		if (argc < 6)
			return oplist_usage(&list, "kill-sweep needs FROM TO "
					    "STEP CMD", NULL);
		return kill_sweep(argv + 2);
	}
	return oplist_main(&list, argc, argv);
}
