/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * attack's fill-*, hold and linger ops: one sandbox holding many objects,
 * or outliving its command, while the suite checks another.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <unistd.h>

#include "attack.h"
#include "oplist.h"

void raise_nofile(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl)) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/*
 * A SysV shared memory segment of one page, attached and marked removed:
 * held until this process exits.  0 or -1 (errno set).
 */
static int held_segment(void)
{
	int id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600), e;

	if (id < 0)
		return -1;
	if (shmat(id, NULL, 0) == (void *)-1) {
		e = errno;      /* not left behind unattached */
		shmctl(id, IPC_RMID, NULL);
		errno = e;
		return -1;
	}
	return shmctl(id, IPC_RMID, NULL);
}

/*
 * fill-unix N: N unix sockets held open.  fill-ioctl N PATH: PATH (a
 * device) opened N times, each under new credentials.  fill-ipc N: N
 * SysV segments held.  The info is how many it got, and the first error
 * if it stopped short.
 */
int op_fill(int op, char **arg, char *info)
{
	long n = strtol(arg[0], NULL, 10), i;
	char ebuf[16];
	int e = 0;

	raise_nofile();
	for (i = 0; i < n && !e; i++) {
		int fd;

		if (op == OP_FILL_UNIX) {
			fd = socket(AF_UNIX, SOCK_DGRAM, 0);
		} else if (op == OP_FILL_IPC) {
			fd = held_segment();
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
int op_linger(int op, char **arg, char *info)
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

int op_hold(int op, char **arg, char *info)
{
	(void)op;
	(void)info;
	sleep((unsigned)atoi(arg[0]));
	return 0;
}
