/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * escape's ops on privileges: mounts and namespaces, set-id and memfd
 * exec (what ids the new program gets), and this process's own
 * (/proc/self/status).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "escape.h"
#include "oplist.h"

#ifndef MFD_CLOEXEC
#define MFD_CLOEXEC 0x0001U
#endif
#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

extern char **environ;


/* ---- mounts and namespaces -------------------------------------------- */

int op_mount(int op, char **arg, char *info)
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
	int epipe[2], opipe[2], e;
	ssize_t n;
	pid_t pid;

	if (pipe(opipe) < 0)
		return err();
	pid = exec_fork(epipe);
	if (pid < 0)
		return err();
	if (pid == 0) {
		close(opipe[0]);
		dup2(opipe[1], 1);
		close(opipe[1]);
		if (path)
			execve(path, argv, environ);
		else
			syscall(SYS_execveat, fd, "", argv, environ,
				AT_EMPTY_PATH);
		exec_failed(epipe[1]);
	}
	close(opipe[1]);
	e = exec_errno(epipe);
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

int op_exec(int op, char **arg, char *info)
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

/* ---- core dumps ---------------------------------------------------------- */

/*
 * coredump DIR: a child in DIR, with no limit on its core's size, kills
 * itself with SIGSEGV; "core" if the kernel says it wrote one, "nocore"
 * otherwise.
 */
int op_core(int op, char **arg, char *info)
{
	struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };
	int status;
	pid_t pid;

	(void)op;
	pid = fork();
	if (pid < 0)
		return err();
	if (pid == 0) {
		if (chdir(arg[0]) < 0 || setrlimit(RLIMIT_CORE, &unlimited) < 0)
			_exit(errno);
		signal(SIGSEGV, SIG_DFL);
		raise(SIGSEGV);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0)
		return err();
	if (WIFEXITED(status))
		return WEXITSTATUS(status) ? WEXITSTATUS(status) : ECHILD;
	snprintf(info, INFO_LEN, "%s", WCOREDUMP(status) ? "core" : "nocore");
	return 0;
}

/* ---- the kernel keyring -------------------------------------------------- */

/*
 * add-key: a "user" key in this process's keyring; request-key: a key
 * that does not exist, which makes the kernel run /sbin/request-key (as
 * root, outside any sandbox) where keyutils is installed.
 */
int op_key(int op, char **arg, char *info)
{
	long r;

	(void)arg;
	(void)info;
	if (op == OP_ADD_KEY)
		r = syscall(SYS_add_key, "user", "corral-escape", "x", 1,
			    -2 /* KEY_SPEC_PROCESS_KEYRING */);
	else
		r = syscall(SYS_request_key, "user", "corral-escape-none",
			    "callout", 0);
	return r < 0 ? err() : 0;
}

/* ---- this process ------------------------------------------------------ */

/* status: the /proc/self/status lines about privileges, "Key=value ..." */
int op_status(int op, char **arg, char *info)
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
