/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * escape's ops on other processes: ptrace, /proc/PID/mem,
 * process_vm_writev and readv, signals, and the victim they aim at.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "escape.h"
#include "oplist.h"

/*
 * What process_vm_writev aims at: the same static (non-PIE) binary runs
 * as the victim, so this buffer has the same address in both processes.
 */
static volatile char victim_mark[16] = "intact";

static pid_t pid_arg(const char *s)
{
	return (pid_t)strtol(s, NULL, 10);
}

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

/* Writes "PWNED" over the victim's mark, or reads the mark. */
static int vm_rw(pid_t pid, int poke)
{
	char buf[8] = "PWNED";
	struct iovec local = { buf, 6 };
	struct iovec remote = { (void *)victim_mark, 6 };
	ssize_t n = poke ? process_vm_writev(pid, &local, 1, &remote, 1, 0) :
			    process_vm_readv(pid, &local, 1, &remote, 1, 0);

	return n < 0 ? err() : 0;
}

/*
 * A copy of descriptor @fd of @pid, taken with pidfd_getfd(2) and dropped:
 * a file the other process opened, reached without opening it.
 */
static int steal_fd(pid_t pid, int fd)
{
	int pidfd, got, e = 0;

	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0)
		return err();
	got = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	if (got < 0)
		e = err();
	else
		close(got);
	close(pidfd);
	return e;
}

int op_other(int op, char **arg, char *info)
{
	char path[64];
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
	case OP_VM_READ:
		return vm_rw(pid, op == OP_VM_WRITE);
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
	case OP_PIDFD_GETFD:
		return steal_fd(pid, atoi(arg[1]));
	case OP_VICTIM:
		return op_victim(arg, info);
	default:
		return EINVAL;
	}
}

/*
 * Another process's settings, each set to the value it already has: the
 * kernel asks the LSM all the same, so the attempt is judged without
 * harming the target when it is allowed (outside a sandbox).
 */
static int set_limits(int op, pid_t pid)
{
	struct rlimit rl;
	struct sched_param sp;
	cpu_set_t cpus;
	long prio;
	int policy;

	errno = 0;
	switch (op) {
	case OP_PRLIMIT:
		if (prlimit(pid, RLIMIT_NOFILE, NULL, &rl) < 0)
			return err();
		return prlimit(pid, RLIMIT_NOFILE, &rl, NULL) < 0 ? err() : 0;
	case OP_RENICE:
		prio = getpriority(PRIO_PROCESS, (id_t)pid);
		if (prio == -1 && errno)
			return err();
		return setpriority(PRIO_PROCESS, (id_t)pid, (int)prio) < 0 ?
		       err() : 0;
	case OP_IOPRIO:
		/* IOPRIO_WHO_PROCESS is 1 */
		prio = syscall(SYS_ioprio_get, 1, pid);
		if (prio < 0)
			return err();
		return syscall(SYS_ioprio_set, 1, pid, prio) < 0 ? err() : 0;
	case OP_AFFINITY:
		if (sched_getaffinity(pid, sizeof(cpus), &cpus) < 0)
			return err();
		return sched_setaffinity(pid, sizeof(cpus), &cpus) < 0 ?
		       err() : 0;
	case OP_SCHEDULER:
		policy = sched_getscheduler(pid);
		if (policy < 0 || sched_getparam(pid, &sp) < 0)
			return err();
		return sched_setscheduler(pid, policy, &sp) < 0 ? err() : 0;
	default:
		return EINVAL;
	}
}

/* renice-user N: the nice value of every process of the caller's user */
int op_limits(int op, char **arg, char *info)
{
	(void)info;
	if (op == OP_RENICE_USER)
		return setpriority(PRIO_USER, getuid(), atoi(arg[0])) < 0 ?
		       err() : 0;
	return set_limits(op, pid_arg(arg[0]));
}
