/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * attack's fown and fd3 ops and fown-prep: signals sent through file
 * ownership, aimed at a process outside the sandbox.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "attack.h"
#include "oplist.h"

#ifndef F_SETSIG
#define F_SETSIG 10
#endif

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

/* fown-* PID: make PID the owner of a fresh pipe or socket, arm, fire */
int op_fown(int op, char **arg, char *info)
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
int op_fown_self(int op, char **arg, char *info)
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
int op_tty_async(int op, char **arg, char *info)
{
	(void)op;
	(void)arg;
	(void)info;
	if (!isatty(0))
		return ENOTTY;
	return fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_ASYNC) < 0 ? err() : 0;
}

/* fown-sigurg PID: SIGURG from TCP urgent data on loopback */
int op_sigurg(int op, char **arg, char *info)
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
int op_fd3(int op, char **arg, char *info)
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

int fown_prep(char **argv)
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
