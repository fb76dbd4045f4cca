/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * attack: the escape routes of issue 22, one process, each result
 * reported by errno name, like escape.
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
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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
