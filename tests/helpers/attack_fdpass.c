/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * attack's fd-* ops: descriptors passed over unix sockets, into and out
 * of a sandbox.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "attack.h"
#include "oplist.h"

static socklen_t unix_path(struct sockaddr_un *sa, const char *path)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	snprintf(sa->sun_path, sizeof(sa->sun_path), "%s", path);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
			   strlen(sa->sun_path) + 1);
}

/* Sends @n descriptors (at most 64) with one byte over @sock. */
static int send_fds(int sock, const int *fds, int n)
{
	union {
		char buf[CMSG_SPACE(64 * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = "x", .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = u.buf,
			      .msg_controllen = CMSG_SPACE(n * sizeof(int)) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	memset(&u, 0, sizeof(u));
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(n * sizeof(int));
	memcpy(CMSG_DATA(c), fds, n * sizeof(int));
	return sendmsg(sock, &msg, 0) < 0 ? err() : 0;
}

/* Receives one message; returns the first descriptor, or -errno. */
static int recv_fd(int sock)
{
	union {
		char buf[CMSG_SPACE(64 * sizeof(int))];
		struct cmsghdr align;
	} u;
	char b;
	struct iovec iov = { .iov_base = &b, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = u.buf,
			      .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, &msg, 0) <= 0)
		return -err();
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_type != SCM_RIGHTS)
		return -EBADF;
	memcpy(&fd, CMSG_DATA(c), sizeof(fd));
	return fd;
}

static int connect_path(const char *path)
{
	struct sockaddr_un sa;
	socklen_t len = unix_path(&sa, path);
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (s < 0)
		return -err();
	if (connect(s, (struct sockaddr *)&sa, len) < 0) {
		int e = err();

		close(s);
		return -e;
	}
	return s;
}

/* Binds and listens on @path (mode 0666), then touches PATH.ready. */
static int listen_path(const char *path)
{
	struct sockaddr_un sa;
	socklen_t len = unix_path(&sa, path);
	char ready[sizeof(sa.sun_path) + 8];
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), fd;

	if (s < 0)
		return -err();
	if (bind(s, (struct sockaddr *)&sa, len) < 0 || listen(s, 8) < 0) {
		int e = err();

		close(s);
		return -e;
	}
	chmod(path, 0666);
	snprintf(ready, sizeof(ready), "%s.ready", path);
	fd = open(ready, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	return s;
}

/*
 * fd-send PATH SOCK: PATH opened for writing, sent over SOCK.
 * fd-recv-trunc SOCK: listens on SOCK, takes one descriptor, ftruncate.
 * fd-pass-out N PATH SOCK: PATH opened for writing N times, each under
 *   new credentials, every descriptor sent over SOCK; info: how many.
 * fd-hold SOCK SECONDS: listens on SOCK, keeps what it is sent.
 */
int op_fdpass(int op, char **arg, char *info)
{
	int s, c, fd, r = 0, fds[64];
	long n, i, got = 0;
	char ebuf[16];
	time_t until;

	switch (op) {
	case OP_FD_SEND:
		fd = open(arg[0], O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return err();
		s = connect_path(arg[1]);
		if (s < 0)
			r = -s;
		else
			r = send_fds(s, &fd, 1);
		if (s >= 0)
			close(s);
		close(fd);
		usleep(200000);
		return r;
	case OP_FD_RECV_TRUNC:
		s = listen_path(arg[0]);
		if (s < 0)
			return -s;
		c = accept(s, NULL, NULL);
		if (c < 0)
			return err();
		fd = recv_fd(c);
		if (fd < 0)
			return -fd;
		return ftruncate(fd, 0) < 0 ? err() : 0;
	case OP_FD_PASS_OUT:
		n = strtol(arg[0], NULL, 10);
		s = connect_path(arg[2]);
		if (s < 0)
			return -s;
		for (i = 0; i < n && !r; i++) {
			r = new_creds();
			fd = r ? -1 : open(arg[1], O_WRONLY | O_CLOEXEC);
			if (fd < 0 && !r)
				r = err();
			if (fd < 0)
				break;
			fds[got % 64] = fd;
			got++;
			if (got % 64 == 0 || i == n - 1) {
				r = send_fds(s, fds, (int)((got - 1) % 64 + 1));
				for (int j = 0; j < (int)((got - 1) % 64 + 1); j++)
					close(fds[j]);
			}
		}
		if (r && got % 64) {
			send_fds(s, fds, (int)(got % 64));
		}
		snprintf(info, INFO_LEN, "%ld%s%s", got, r ? " " : "",
			 r ? errno_name(r, ebuf, sizeof(ebuf)) : "");
		close(s);
		return 0;
	case OP_FD_HOLD:
		raise_nofile();
		s = listen_path(arg[0]);
		if (s < 0)
			return -s;
		fcntl(s, F_SETFL, O_NONBLOCK);
		until = time(NULL) + atoi(arg[1]);
		while (time(NULL) < until) {
			c = accept(s, NULL, NULL);
			if (c < 0) {
				usleep(20000);
				continue;
			}
			/* keep every descriptor: never close them */
			while (recv_fd(c) >= 0)
				;
		}
		return 0;
	default:
		return EINVAL;
	}
}
