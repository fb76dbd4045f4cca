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
 *
 * This file is the driver and its commands; the ops are listed in
 * attack.ops, whose rows the build makes into attack-table.h (gen-ops.sh),
 * and are in attack_*.c, one file for each kind (attack.h).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "attack.h"
#include "oplist.h"

static const struct op ops[] = {
#include "attack-table.h"
};

static int kill_sweep(char **argv);

static const struct opcmd cmds[] = {
	{ "fown-prep", 3, fown_prep, "fown-prep needs PATH PID CMD" },
	{ "kill-sweep", 4, kill_sweep, "kill-sweep needs FROM TO STEP CMD" },
};

static const struct oplist list =
	OPLIST_CMDS("attack", "       attack fown-prep PATH|pipe PID CMD...\n"
		    "       attack kill-sweep FROM TO STEP CMD...\n", ops, cmds);

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
	return oplist_main(&list, argc, argv);
}
