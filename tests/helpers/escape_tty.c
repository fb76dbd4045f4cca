/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * escape's terminal ops (TIOCSTI into the terminal's input) and pty-run,
 * which gives a command a terminal to try it on.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "escape.h"
#include "oplist.h"

#ifndef TIOCGPTPEER
#define TIOCGPTPEER _IO('T', 0x41)
#endif


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


int op_tty(int op, char **arg, char *info)
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
int pty_run(char **argv)
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
