/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * escape: the attack attempts of the escape suite, one process,
 * each result reported by errno name, like probe.
 *
 *   escape OP ARGS [+ OP ARGS ...]     prints "<op> <args>: <result>"
 *   escape pty-run CMD [ARGS...]       runs CMD with a new pty as its
 *                                      controlling terminal (stdin, stdout,
 *                                      stderr), copies what CMD writes to
 *                                      stdout, exits with CMD's status
 *
 * A result is OK, an errno name (E<num> if unknown), or for the ops that
 * report what they saw (ids, status, suid-exec, victim) a short value.
 * Exit status 0 whatever the results; 2 on a usage error.
 *
 * The attacks run inside a sandbox as an unprivileged user; the victims
 * and listeners (victim, listen-*) run outside it as the same user.  Static
 * on purpose: a dynamic binary would need the loader and libc allowed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/capability.h>
#include <linux/io_uring.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "oplist.h"

#ifndef MFD_CLOEXEC
#define MFD_CLOEXEC 0x0001U
#endif
#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif
#ifndef TIOCGPTPEER
#define TIOCGPTPEER _IO('T', 0x41)
#endif

extern char **environ;

/*
 * What process_vm_writev aims at: the same static (non-PIE) binary runs
 * as the victim, so this buffer has the same address in both processes.
 */
static volatile char victim_mark[16] = "intact";

static pid_t pid_arg(const char *s)
{
	return (pid_t)strtol(s, NULL, 10);
}

/* ---- files ------------------------------------------------------------ */

enum { OP_READ, OP_WRITE, OP_LINK, OP_RENAME, OP_SYMLINK, OP_TOUCH,
	OP_WAIT_FILE };

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

static int op_file(int op, char **arg, char *info)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	struct stat st;
	int fd, r = 0, i;

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
	case OP_SYMLINK:
		return symlink(arg[0], arg[1]) < 0 ? err() : 0;
	case OP_WAIT_FILE:	/* stat is not checked by a sandbox */
		for (i = 0; i < 3000; i++) {
			if (stat(arg[0], &st) == 0)
				return 0;
			nanosleep(&ts, NULL);
		}
		return ETIMEDOUT;
	default:
		return EINVAL;
	}
}

/* ---- other processes ------------------------------------------------ */

enum { OP_PTRACE, OP_PROC_MEM, OP_VM_WRITE, OP_VM_READ, OP_KILL,
	OP_PIDFD_KILL, OP_VICTIM };

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static int op_victim(char **arg, char *info)
{
	struct sigaction sa = { .sa_handler = on_term };
	int fd, i, n = atoi(arg[1]) * 10;
	struct timespec ts = { 0, 100 * 1000 * 1000 };

	sigaction(SIGTERM, &sa, NULL);
	fd = open(arg[0], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return err();
	close(fd);
	for (i = 0; i < n && !stop; i++)
		nanosleep(&ts, NULL);
	snprintf(info, INFO_LEN, "%s",
		 strcmp((const char *)victim_mark, "intact") ? "changed" :
		 "intact");
	return 0;
}

static int op_other(int op, char **arg, char *info)
{
	char path[64], buf[8];
	struct iovec local, remote;
	pid_t pid = pid_arg(arg[0]);
	int fd, status;

	switch (op) {
	case OP_PTRACE:
		if (ptrace(PTRACE_ATTACH, pid, NULL, NULL) < 0)
			return err();
		waitpid(pid, &status, 0);
		ptrace(PTRACE_DETACH, pid, NULL, NULL);
		return 0;
	case OP_PROC_MEM:
		snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			return err();
		close(fd);
		return 0;
	case OP_VM_WRITE:
		local.iov_base = "PWNED";
		local.iov_len = 6;
		remote.iov_base = (void *)victim_mark;
		remote.iov_len = 6;
		return process_vm_writev(pid, &local, 1, &remote, 1, 0) < 0 ?
		       err() : 0;
	case OP_VM_READ:
		local.iov_base = buf;
		local.iov_len = 6;
		remote.iov_base = (void *)victim_mark;
		remote.iov_len = 6;
		return process_vm_readv(pid, &local, 1, &remote, 1, 0) < 0 ?
		       err() : 0;
	case OP_KILL:
		return kill(pid, SIGKILL) < 0 ? err() : 0;
	case OP_PIDFD_KILL:
		fd = (int)syscall(SYS_pidfd_open, pid, 0);
		if (fd < 0)
			return err();
		status = (int)syscall(SYS_pidfd_send_signal, fd, SIGKILL,
				      NULL, 0);
		status = status < 0 ? err() : 0;
		close(fd);
		return status;
	case OP_VICTIM:
		return op_victim(arg, info);
	default:
		return EINVAL;
	}
}

/* ---- unix sockets ---------------------------------------------------- */

enum { OP_CONNECT_ABSTRACT, OP_SEND_ABSTRACT, OP_CONNECT_UNIX, OP_SEND_UNIX,
	OP_LISTEN_ABSTRACT, OP_LISTEN_UNIX, OP_SELF_ABSTRACT, OP_SELF_UNIX };

/*
 * The address of a socket: "\0NAME" (abstract) or PATH; the datagram
 * twin of each listener is NAME.d / PATH.d.
 */
static socklen_t unix_addr(struct sockaddr_un *sa, const char *name,
			   int abstract, int dgram)
{
	size_t off = abstract ? 1 : 0;

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	snprintf(sa->sun_path + off, sizeof(sa->sun_path) - off, "%s%s", name,
		 dgram ? ".d" : "");
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + off +
			   strlen(sa->sun_path + off) + (abstract ? 0 : 1));
}

static int bind_listener(const char *name, int abstract, int dgram)
{
	struct sockaddr_un sa;
	socklen_t len = unix_addr(&sa, name, abstract, dgram);
	int fd = socket(AF_UNIX, (dgram ? SOCK_DGRAM : SOCK_STREAM) |
			SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	if (!abstract)
		unlink(sa.sun_path);
	if (bind(fd, (struct sockaddr *)&sa, len) < 0 ||
	    (!dgram && listen(fd, 16) < 0)) {
		close(fd);
		return -1;
	}
	return fd;
}

static int op_unix(int op, char **arg, char *info)
{
	struct sockaddr_un sa;
	struct timespec ts = { 0, 100 * 1000 * 1000 };
	int abstract = op == OP_CONNECT_ABSTRACT || op == OP_SEND_ABSTRACT ||
		       op == OP_LISTEN_ABSTRACT || op == OP_SELF_ABSTRACT;
	socklen_t len;
	int fd, fd2, r = 0, i, n;

	(void)info;
	switch (op) {
	case OP_CONNECT_ABSTRACT:
	case OP_CONNECT_UNIX:
		len = unix_addr(&sa, arg[0], abstract, 0);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return err();
		if (connect(fd, (struct sockaddr *)&sa, len) < 0)
			r = err();
		close(fd);
		return r;
	case OP_SEND_ABSTRACT:
	case OP_SEND_UNIX:
		len = unix_addr(&sa, arg[0], abstract, 1);
		fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return err();
		if (sendto(fd, "x", 1, 0, (struct sockaddr *)&sa, len) < 0)
			r = err();
		close(fd);
		return r;
	case OP_SELF_ABSTRACT:	/* a listener of the sandbox's own */
	case OP_SELF_UNIX:
		fd2 = bind_listener(arg[0], abstract, 0);
		if (fd2 < 0)
			return err();
		len = unix_addr(&sa, arg[0], abstract, 0);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0 || connect(fd, (struct sockaddr *)&sa, len) < 0)
			r = err();
		if (fd >= 0)
			close(fd);
		close(fd2);
		return r;
	case OP_LISTEN_ABSTRACT:
	case OP_LISTEN_UNIX:
		/* stream NAME and datagram NAME.d, for arg[1] seconds */
		fd = bind_listener(arg[0], abstract, 0);
		if (fd < 0)
			return err();
		fd2 = bind_listener(arg[0], abstract, 1);
		if (fd2 < 0) {
			r = err();
			close(fd);
			return r;
		}
		if (!abstract) {	/* anyone of this user may connect */
			chmod(arg[0], 0666);
			unix_addr(&sa, arg[0], 0, 1);
			chmod(sa.sun_path, 0666);
		}
		n = atoi(arg[1]) * 10;
		for (i = 0; i < n; i++)
			nanosleep(&ts, NULL);
		close(fd);
		close(fd2);
		return 0;
	default:
		return EINVAL;
	}
}

/* ---- the terminal ----------------------------------------------------- */

/* TIOCSTI on FD: push one byte into the terminal's input queue */
static int tiocsti(int fd)
{
	char c = '#';

	return ioctl(fd, TIOCSTI, &c) < 0 ? err() : 0;
}

/*
 * A new pty made this process's (a forked child's) controlling terminal,
 * then TIOCSTI on it: for when the sandbox has no terminal of its own.
 */
static int tiocsti_new(void)
{
	int m, s, pfd[2], e = 0;
	pid_t pid;

	m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (m < 0)
		return err();
	if (grantpt(m) < 0 || unlockpt(m) < 0 || pipe2(pfd, O_CLOEXEC) < 0) {
		e = err();
		close(m);
		return e;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		if (setsid() < 0)
			e = err();
		s = e ? -1 : ioctl(m, TIOCGPTPEER, O_RDWR | O_CLOEXEC);
		if (!e && s < 0)
			e = err();
		if (!e && ioctl(s, TIOCSCTTY, 0) < 0)
			e = err();
		/* a failed set-up reports as a negative errno */
		e = e ? -e : tiocsti(s);
		if (write(pfd[1], &e, sizeof(e)) < 0)
			_exit(1);
		_exit(0);
	}
	close(pfd[1]);
	if (pid < 0 || read(pfd[0], &e, sizeof(e)) != (ssize_t)sizeof(e))
		e = pid < 0 ? err() : EIO;
	close(pfd[0]);
	close(m);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return e;
}

enum { OP_TIOCSTI, OP_TIOCSTI_NEW };

static int op_tty(int op, char **arg, char *info)
{
	char ebuf[16];
	pid_t sid;
	int e;

	if (op == OP_TIOCSTI) {
		if (!isatty(atoi(arg[0])))
			return ENOTTY;
		sid = tcgetsid(atoi(arg[0]));
		if (sid < 0)
			return err();
		if (sid != getsid(0))
			return ENXIO;	/* not our controlling terminal */
		return tiocsti(atoi(arg[0]));
	}
	e = tiocsti_new();
	if (e < 0) {
		snprintf(info, INFO_LEN, "pty set-up failed: %s",
			 errno_name(-e, ebuf, sizeof(ebuf)));
		return 0;
	}
	return e;
}

/*
 * pty-run CMD...: CMD's controlling terminal is a new pty whose output is
 * copied here (CRs dropped); what TIOCSTI pushed would be echoed into it.
 */
static int pty_run(char **argv)
{
	char buf[4096], out[4096];
	ssize_t n, i, k;
	int m, s, status;
	pid_t pid;

	m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0) {
		perror("escape pty-run: posix_openpt");
		return 125;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("escape pty-run: fork");
		return 125;
	}
	if (pid == 0) {
		s = ioctl(m, TIOCGPTPEER, O_RDWR);
		if (setsid() < 0 || s < 0 || ioctl(s, TIOCSCTTY, 0) < 0 ||
		    dup2(s, 0) < 0 || dup2(s, 1) < 0 || dup2(s, 2) < 0) {
			perror("escape pty-run: controlling terminal");
			_exit(125);
		}
		if (s > 2)
			close(s);
		execvp(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	for (;;) {
		n = read(m, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;	/* EIO: every slave fd is closed */
		for (i = k = 0; i < n; i++)
			if (buf[i] != '\r')
				out[k++] = buf[i];
		if (write(1, out, (size_t)k) < 0)
			break;
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* ---- corral's maps ------------------------------------------------------ */

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

enum { OP_BPF_GET, OP_BPF_LOOKUP, OP_BPF_DELETE };

/* BPF_OBJ_GET on the pinned map; then look up or delete its first key */
static int op_bpf(int op, char **arg, char *info)
{
	unsigned char key[512], next[512], value[4096];
	struct bpf_map_info mi;
	union bpf_attr a;
	int fd, r = 0;

	(void)info;
	memset(&a, 0, sizeof(a));
	a.pathname = (uint64_t)(uintptr_t)arg[0];
	fd = (int)sys_bpf(BPF_OBJ_GET, &a);
	if (fd < 0)
		return err();
	if (op == OP_BPF_GET)
		goto out;
	memset(&mi, 0, sizeof(mi));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (uint32_t)fd;
	a.info.info_len = sizeof(mi);
	a.info.info = (uint64_t)(uintptr_t)&mi;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a) < 0) {
		r = err();
		goto out;
	}
	if (mi.key_size > sizeof(key) || mi.value_size > sizeof(value)) {
		r = E2BIG;
		goto out;
	}
	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)fd;
	a.key = 0;	/* the first key */
	a.next_key = (uint64_t)(uintptr_t)next;
	if (sys_bpf(BPF_MAP_GET_NEXT_KEY, &a) < 0) {
		r = errno == ENOENT ? 0 : err();	/* empty map */
		goto out;
	}
	memcpy(key, next, mi.key_size);
	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)fd;
	a.key = (uint64_t)(uintptr_t)key;
	if (op == OP_BPF_LOOKUP) {
		a.value = (uint64_t)(uintptr_t)value;
		if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &a) < 0)
			r = err();
	} else if (sys_bpf(BPF_MAP_DELETE_ELEM, &a) < 0) {
		r = err();
	}
out:
	close(fd);
	return r;
}

/* ---- mounts and namespaces -------------------------------------------- */

enum { OP_MOUNT_TMPFS, OP_UNSHARE_USERNS, OP_BIND_MOUNT };

static int op_mount(int op, char **arg, char *info)
{
	(void)info;
	if (op == OP_UNSHARE_USERNS)
		return unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0 ? err() : 0;
	if (op == OP_BIND_MOUNT)	/* bind-mount SRC DST, left in place */
		return mount(arg[0], arg[1], NULL, MS_BIND | MS_REC, NULL) < 0 ?
		       err() : 0;
	if (mount("tmpfs", arg[0], "tmpfs", 0, "size=1m") < 0)
		return err();
	umount2(arg[0], MNT_DETACH);	/* allowed: do not leave it behind */
	return 0;
}

/* ---- exec ------------------------------------------------------------- */

/* "euid=N egid=N CapEff=HEX": what an exec'd copy reports about itself */
static void ids_info(char *info)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];
	unsigned long long eff = 0;

	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d) == 0)
		eff = d[0].effective | (unsigned long long)d[1].effective << 32;
	snprintf(info, INFO_LEN, "euid=%d egid=%d CapEff=%llx",
		 (int)geteuid(), (int)getegid(), eff);
}

/*
 * Fork; the child execs PATH (or the fd, for memfd) as "PATH ids" with
 * stdout on a pipe.  Returns exec's errno, or 0 with what the new program
 * printed (its ids) in info.
 */
static int exec_ids(const char *path, int fd, char *info)
{
	char *argv[] = { (char *)(path ? path : "escape"), "ids", NULL };
	int epipe[2], opipe[2], e = 0;
	ssize_t n;
	pid_t pid;

	if (pipe2(epipe, O_CLOEXEC) < 0)
		return err();
	if (pipe(opipe) < 0)
		return err();
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return err();
	if (pid == 0) {
		close(epipe[0]);
		close(opipe[0]);
		dup2(opipe[1], 1);
		close(opipe[1]);
		if (path)
			execve(path, argv, environ);
		else
			syscall(SYS_execveat, fd, "", argv, environ,
				AT_EMPTY_PATH);
		e = errno;
		if (write(epipe[1], &e, sizeof(e)) < 0)
			_exit(126);
		_exit(127);
	}
	close(epipe[1]);
	close(opipe[1]);
	if (read(epipe[0], &e, sizeof(e)) != (ssize_t)sizeof(e))
		e = 0;	/* closed by a successful exec */
	close(epipe[0]);
	n = e ? 0 : read(opipe[0], info, INFO_LEN - 1);
	close(opipe[0]);
	waitpid(pid, NULL, 0);
	if (e)
		return e;
	if (n <= 0)
		snprintf(info, INFO_LEN, "no output");
	else
		info[n] = 0;
	info[strcspn(info, "\n")] = 0;
	/* "ids: euid=..." */
	if (strncmp(info, "ids: ", 5) == 0)
		memmove(info, info + 5, strlen(info + 5) + 1);
	return 0;
}

/* a copy of this very (static) program in a memfd, executed from there */
static int memfd_exec(char *info)
{
	char buf[65536];
	ssize_t n;
	int in, fd, r;

	fd = (int)syscall(SYS_memfd_create, "escape", 0);
	if (fd < 0)
		return err();
	in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		r = err();
		close(fd);
		return r;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(fd, buf, (size_t)n) != n)
			break;
	r = n < 0 ? err() : 0;
	close(in);
	if (!r)
		r = exec_ids(NULL, fd, info);
	close(fd);
	return r;
}

enum { OP_IDS, OP_SUID_EXEC, OP_MEMFD_EXEC };

static int op_exec(int op, char **arg, char *info)
{
	switch (op) {
	case OP_IDS:
		ids_info(info);
		return 0;
	case OP_SUID_EXEC:
		return exec_ids(arg[0], -1, info);
	case OP_MEMFD_EXEC:
		return memfd_exec(info);
	default:
		return EINVAL;
	}
}

/* ---- io_uring ----------------------------------------------------------- */

/*
 * IORING_OP_OPENAT of PATH through a ring made with raw system calls;
 * "async" forces the open into an io-wq worker thread (IOSQE_ASYNC).
 * If the ring cannot be set up, info says so.
 */
static int uring_open(const char *path, int async, char *info)
{
	struct io_uring_params p;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	unsigned *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
	size_t sq_len, cq_len, sqe_len;
	void *sq, *cq, *sqes;
	char ebuf[16], c;
	int ring, r, res, fd;

	memset(&p, 0, sizeof(p));
	ring = (int)syscall(SYS_io_uring_setup, 4, &p);
	if (ring < 0) {
		r = err();
		snprintf(info, INFO_LEN, "io_uring_setup %s",
			 errno_name(r, ebuf, sizeof(ebuf)));
		return 0;
	}
	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (p.features & IORING_FEAT_SINGLE_MMAP)
		sq_len = cq_len = sq_len > cq_len ? sq_len : cq_len;
	sqe_len = p.sq_entries * sizeof(struct io_uring_sqe);
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_SQ_RING);
	cq = (p.features & IORING_FEAT_SINGLE_MMAP) ? sq :
	     mmap(NULL, cq_len, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_CQ_RING);
	sqes = mmap(NULL, sqe_len, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED) {
		r = err();
		close(ring);
		return r;
	}
	sq_tail = (unsigned *)((char *)sq + p.sq_off.tail);
	sq_mask = (unsigned *)((char *)sq + p.sq_off.ring_mask);
	sq_array = (unsigned *)((char *)sq + p.sq_off.array);
	cq_head = (unsigned *)((char *)cq + p.cq_off.head);
	cq_tail = (unsigned *)((char *)cq + p.cq_off.tail);
	cq_mask = (unsigned *)((char *)cq + p.cq_off.ring_mask);

	sqe = (struct io_uring_sqe *)sqes;
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_OPENAT;
	sqe->fd = AT_FDCWD;
	sqe->addr = (uint64_t)(uintptr_t)path;
	sqe->open_flags = O_RDONLY | O_CLOEXEC;
	sqe->flags = async ? IOSQE_ASYNC : 0;
	sq_array[*sq_tail & *sq_mask] = 0;
	__atomic_store_n(sq_tail, *sq_tail + 1, __ATOMIC_RELEASE);

	if (syscall(SYS_io_uring_enter, ring, 1, 1, IORING_ENTER_GETEVENTS,
		    NULL, 0) < 0) {
		r = err();
		snprintf(info, INFO_LEN, "io_uring_enter %s",
			 errno_name(r, ebuf, sizeof(ebuf)));
		close(ring);
		return 0;
	}
	if (__atomic_load_n(cq_tail, __ATOMIC_ACQUIRE) == *cq_head) {
		close(ring);
		return ETIMEDOUT;
	}
	cqe = (struct io_uring_cqe *)((char *)cq + p.cq_off.cqes) +
	      (*cq_head & *cq_mask);
	res = cqe->res;
	__atomic_store_n(cq_head, *cq_head + 1, __ATOMIC_RELEASE);
	close(ring);
	if (res < 0)
		return -res;
	fd = res;
	r = read(fd, &c, 1) < 0 ? err() : 0;	/* really opened: read it */
	close(fd);
	return r;
}

enum { OP_URING_OPEN, OP_URING_OPEN_ASYNC };

static int op_uring(int op, char **arg, char *info)
{
	return uring_open(arg[0], op == OP_URING_OPEN_ASYNC, info);
}

/* ---- file handles ----------------------------------------------------- */

enum { OP_NAME_TO_HANDLE, OP_OPEN_BY_HANDLE };

/*
 * name-to-handle PATH: name_to_handle_at alone.  open-by-handle PATH: a
 * handle for PATH (a made-up one if name_to_handle_at is refused: the
 * refusal must come from open_by_handle_at too), then open_by_handle_at.
 */
static int op_handle(int op, char **arg, char *info)
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

/* ---- this process ------------------------------------------------------ */

/* status: the /proc/self/status lines about privileges, "Key=value ..." */
static int op_status(int op, char **arg, char *info)
{
	static const char *const keys[] = {
		"CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs",
		"Uid", "Gid", "Groups", "Seccomp",
	};
	char line[512], *v, *e;
	size_t off = 0, i, klen;
	FILE *f;

	(void)op;
	(void)arg;
	f = fopen("/proc/self/status", "re");
	if (!f)
		return err();
	info[0] = 0;
	while (fgets(line, sizeof(line), f)) {
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			klen = strlen(keys[i]);
			if (strncmp(line, keys[i], klen) || line[klen] != ':')
				continue;
			v = line + klen + 1;
			v += strspn(v, " \t");
			e = v + strcspn(v, "\n");
			while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
				e--;
			*e = 0;
			for (e = v; *e; e++)	/* one word per value */
				if (*e == '\t' || *e == ' ')
					*e = ',';
			off += (size_t)snprintf(info + off,
				INFO_LEN > off ? INFO_LEN - off : 0,
				"%s%s=%s", off ? " " : "", keys[i], v);
		}
	}
	fclose(f);
	return 0;
}

enum { OP_SLEEP, OP_OPENAT_FD };

/*
 * sleep SECONDS; openat-fd FD NAME: open NAME relative to the inherited
 * directory descriptor FD and read a byte
 */
static int op_misc(int op, char **arg, char *info)
{
	(void)info;
	if (op == OP_SLEEP) {
		sleep((unsigned)atoi(arg[0]));
		return 0;
	}
	return read_byte_at(atoi(arg[0]), arg[1]);
}

/* ---- table and driver ------------------------------------------------- */

static const struct op ops[] = {
	{ "read", 1, op_file, OP_READ },
	{ "write", 1, op_file, OP_WRITE },
	{ "touch", 1, op_file, OP_TOUCH },
	{ "link", 2, op_file, OP_LINK },
	{ "rename", 2, op_file, OP_RENAME },
	{ "symlink", 2, op_file, OP_SYMLINK },
	{ "wait-file", 1, op_file, OP_WAIT_FILE },
	{ "ptrace", 1, op_other, OP_PTRACE },
	{ "proc-mem", 1, op_other, OP_PROC_MEM },
	{ "vm-write", 1, op_other, OP_VM_WRITE },
	{ "vm-read", 1, op_other, OP_VM_READ },
	{ "kill", 1, op_other, OP_KILL },
	{ "pidfd-kill", 1, op_other, OP_PIDFD_KILL },
	{ "victim", 2, op_other, OP_VICTIM },
	{ "connect-abstract", 1, op_unix, OP_CONNECT_ABSTRACT },
	{ "send-abstract", 1, op_unix, OP_SEND_ABSTRACT },
	{ "connect-unix", 1, op_unix, OP_CONNECT_UNIX },
	{ "send-unix", 1, op_unix, OP_SEND_UNIX },
	{ "self-abstract", 1, op_unix, OP_SELF_ABSTRACT },
	{ "self-unix", 1, op_unix, OP_SELF_UNIX },
	{ "listen-abstract", 2, op_unix, OP_LISTEN_ABSTRACT },
	{ "listen-unix", 2, op_unix, OP_LISTEN_UNIX },
	{ "tiocsti", 1, op_tty, OP_TIOCSTI },
	{ "tiocsti-new", 0, op_tty, OP_TIOCSTI_NEW },
	{ "bpf-get", 1, op_bpf, OP_BPF_GET },
	{ "bpf-lookup", 1, op_bpf, OP_BPF_LOOKUP },
	{ "bpf-delete", 1, op_bpf, OP_BPF_DELETE },
	{ "mount-tmpfs", 1, op_mount, OP_MOUNT_TMPFS },
	{ "unshare-userns", 0, op_mount, OP_UNSHARE_USERNS },
	{ "ids", 0, op_exec, OP_IDS },
	{ "suid-exec", 1, op_exec, OP_SUID_EXEC },
	{ "memfd-exec", 0, op_exec, OP_MEMFD_EXEC },
	{ "uring-open", 1, op_uring, OP_URING_OPEN },
	{ "uring-open-async", 1, op_uring, OP_URING_OPEN_ASYNC },
	{ "name-to-handle", 1, op_handle, OP_NAME_TO_HANDLE },
	{ "open-by-handle", 1, op_handle, OP_OPEN_BY_HANDLE },
	{ "status", 0, op_status, 0 },
	{ "sleep", 1, op_misc, OP_SLEEP },
	{ "openat-fd", 2, op_misc, OP_OPENAT_FD },
	{ "bind-mount", 2, op_mount, OP_BIND_MOUNT },
};

static const struct oplist list =
	OPLIST("escape", "       escape pty-run CMD [ARGS...]\n", ops);

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "pty-run") == 0) {
		if (argc < 3)
			return oplist_usage(&list, "pty-run needs a command",
					    NULL);
		return pty_run(argv + 2);
	}
	return oplist_main(&list, argc, argv);
}
