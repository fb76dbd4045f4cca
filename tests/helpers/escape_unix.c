/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * escape's unix socket ops: connect and send to a listener outside the
 * sandbox, abstract or by path, and the listeners themselves.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "escape.h"
#include "oplist.h"

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

/* Connects to the listener @name, or sends a byte to its datagram twin. */
static int reach(const char *name, int abstract, int dgram)
{
	struct sockaddr_un sa;
	socklen_t len = unix_addr(&sa, name, abstract, dgram);
	int fd = socket(AF_UNIX, (dgram ? SOCK_DGRAM : SOCK_STREAM) |
			SOCK_CLOEXEC, 0), r = 0;

	if (fd < 0)
		return err();
	if (dgram ? sendto(fd, "x", 1, 0, (struct sockaddr *)&sa, len) < 0 :
	    connect(fd, (struct sockaddr *)&sa, len) < 0)
		r = err();
	close(fd);
	return r;
}

int op_unix(int op, char **arg, char *info)
{
	struct sockaddr_un sa;
	struct timespec ts = { 0, 100 * 1000 * 1000 };
	int abstract = op == OP_CONNECT_ABSTRACT || op == OP_SEND_ABSTRACT ||
		       op == OP_LISTEN_ABSTRACT || op == OP_SELF_ABSTRACT;
	int fd, fd2, r = 0, i, n;

	(void)info;
	switch (op) {
	case OP_CONNECT_ABSTRACT:
	case OP_CONNECT_UNIX:
		return reach(arg[0], abstract, 0);
	case OP_SEND_ABSTRACT:
	case OP_SEND_UNIX:
		return reach(arg[0], abstract, 1);
	case OP_SELF_ABSTRACT:	/* a listener of the sandbox's own */
	case OP_SELF_UNIX:
		fd2 = bind_listener(arg[0], abstract, 0);
		if (fd2 < 0)
			return err();
		r = reach(arg[0], abstract, 0);
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
