/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * attack's race-symlink op: a symlink swapped between an allowed and a
 * denied file while the sandboxed process reads it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
