/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * netprobe: run socket operations in one process and report each result.
 *
 *   netprobe OP ARGS [+ OP ARGS ...]
 *
 * prints one line per operation, "<op> <args>: RESULT", RESULT being OK or
 * the errno by name (as probe does).  ADDR is an IPv4 or IPv6 literal; an
 * IPv6 one (::ffff:127.0.0.1 included) makes an AF_INET6 socket.
 *
 *   connect-tcp ADDR PORT    TCP connect (then close)
 *   connect-mptcp ADDR PORT  the same over IPPROTO_MPTCP
 *   fastopen ADDR PORT       TCP sendto(MSG_FASTOPEN): connects from send
 *   bind-tcp ADDR PORT       bind (then close); bind-udp the same for UDP
 *   bind-udp ADDR PORT
 *   connect-udp ADDR PORT    UDP connect
 *   sendto-udp ADDR PORT     unconnected UDP sendto
 *   unspec-connect ADDR PORT TCP connect with sa_family AF_UNSPEC but the
 *                            address filled in: OK must mean "disconnected",
 *                            CONNECTED says it reached the address
 *   unspec-bind PORT         IPv4 TCP bind with AF_UNSPEC, INADDR_ANY
 *   unspec-sendto ADDR PORT  IPv4 UDP sendto with sa_family AF_UNSPEC
 *   reconnect ADDR P1 P2     TCP connect to P1, AF_UNSPEC disconnect, then
 *                            connect the same socket to P2 (P2's result)
 *   uring-connect ADDR PORT  TCP connect submitted through io_uring
 *   fork-connect ADDR PORT   a forked child connects; its result
 *   exec-connect ADDR PORT   a child execs netprobe connect-tcp; its result
 *   listen                   listen(2) on an unbound IPv4 TCP socket (the
 *                            kernel binds an ephemeral port)
 *   raw | packet | sctp | ping   make such a socket
 *   rthdr6-sockopt ADDR PORT UDP sendto ADDR with a source route through
 *   srr4-sockopt ADDR PORT   loopback (::1 / 127.0.0.1) set as a socket
 *                            option (IPV6_RTHDR / IP_OPTIONS): the errno
 *                            of setsockopt, or send=ERRNO of the sendto
 *   rthdr6-cmsg ADDR PORT    the same route as sendmsg ancillary data
 *   srr4-cmsg ADDR PORT      (IPV6_RTHDR / IP_RETOPTS): sendmsg's errno
 *   rthdr6-cmsg2292 ADDR PORT  the same as IPV6_2292RTHDR
 *   rthdr6-deliver ADDR PORT rthdr6-sockopt with a UDP listener on
 *                            [::1]:PORT: OK only if the datagram sent "to"
 *                            ADDR arrives there (LOST if not in 1 s,
 *                            bind=ERRNO if the listener cannot bind)
 *   fd-sendto FD ADDR PORT   sendto / connect on an inherited socket
 *   fd-connect FD ADDR PORT
 *   route-exec 4|6 CMD...    makes a UDP socket carrying the source route
 *                            above as fd 3, then execs CMD (not an op)
 *   bench ADDR PORT N        N x (socket, connect, close); prints
 *                            "connect NS", the mean per round, and exits
 *   serve PORT...            listen on [::]:PORT (dual stack) for each and
 *                            accept forever; prints "serving" once ready
 *   serve-udp PORT           bind a UDP socket to [::]:PORT (dual stack),
 *                            print "serving", then "received N" (N bytes)
 *                            for each datagram, forever
 *
 * Exit status 0 whatever the results; 2 on a usage error.  Static on
 * purpose (see probe.c).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/io_uring.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "inet_addr.h"
#include "oplist.h"
#include "uring.h"
/* the OP_ kinds of each op function below, made from netprobe.ops */
#include "netprobe-ops.h"

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif
#ifndef MSG_FASTOPEN
#define MSG_FASTOPEN 0x20000000
#endif

static int sock_for(const char *addr, const char *port, int type, int proto,
		    struct sockaddr_storage *ss, socklen_t *len)
{
	int family = sockaddr_of(addr, port, ss, len);

	if (!family) {
		fprintf(stderr, "netprobe: bad address %s\n", addr);
		exit(2);
	}
	return socket(family, type | SOCK_CLOEXEC, proto);
}

/* Runs @fn on a fresh socket; returns 0 or an errno. */
static int with_socket(char **a, int type, int proto,
		       int (*fn)(int fd, struct sockaddr *sa, socklen_t len))
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd = sock_for(a[0], a[1], type, proto, &ss, &len), r;

	if (fd < 0)
		return err();
	r = fn(fd, (struct sockaddr *)&ss, len);
	close(fd);
	return r;
}

static int do_connect(int fd, struct sockaddr *sa, socklen_t len)
{
	return connect(fd, sa, len) < 0 ? err() : 0;
}

static int do_bind(int fd, struct sockaddr *sa, socklen_t len)
{
	return bind(fd, sa, len) < 0 ? err() : 0;
}

static int do_sendto(int fd, struct sockaddr *sa, socklen_t len)
{
	return sendto(fd, "x", 1, 0, sa, len) < 0 ? err() : 0;
}

static int do_fastopen(int fd, struct sockaddr *sa, socklen_t len)
{
	return sendto(fd, "x", 1, MSG_FASTOPEN, sa, len) < 0 ? err() : 0;
}

/* AF_UNSPEC with a real address: the kernel must only disconnect. */
static int do_unspec_connect(int fd, struct sockaddr *sa, socklen_t len)
{
	struct sockaddr_storage peer;
	socklen_t plen = sizeof(peer);

	sa->sa_family = AF_UNSPEC;
	if (connect(fd, sa, len) < 0)
		return err();
	return getpeername(fd, (struct sockaddr *)&peer, &plen) == 0 ? -1 : 0;
}

static int do_unspec_sendto(int fd, struct sockaddr *sa, socklen_t len)
{
	sa->sa_family = AF_UNSPEC;
	return sendto(fd, "x", 1, 0, sa, len) < 0 ? err() : 0;
}

static int unspec_bind(const char *port)
{
	struct sockaddr_in in = { .sin_family = AF_UNSPEC,
				  .sin_port = htons((uint16_t)atoi(port)),
				  .sin_addr.s_addr = htonl(INADDR_ANY) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), r;

	if (fd < 0)
		return err();
	r = bind(fd, (struct sockaddr *)&in, sizeof(in)) < 0 ? err() : 0;
	close(fd);
	return r;
}

static int reconnect(char **a)
{
	struct sockaddr_storage ss;
	struct sockaddr unspec = { .sa_family = AF_UNSPEC };
	socklen_t len;
	int fd = sock_for(a[0], a[1], SOCK_STREAM, 0, &ss, &len), r;

	if (fd < 0)
		return err();
	if (connect(fd, (struct sockaddr *)&ss, len) < 0 ||
	    connect(fd, &unspec, sizeof(unspec)) < 0) {
		r = err();
		close(fd);
		return r == 0 ? EIO : r;
	}
	sockaddr_of(a[0], a[2], &ss, &len);
	r = connect(fd, (struct sockaddr *)&ss, len) < 0 ? err() : 0;
	close(fd);
	return r;
}

/* ---- io_uring, by raw syscalls (no liburing in a static helper) ----- */

static int uring_connect(int fd, struct sockaddr *sa, socklen_t len)
{
	struct io_uring_sqe sqe;
	struct ring ring;
	int r, res;

	r = ring_setup(&ring, 0, 0);
	if (r) {
		if (ring.fd >= 0)
			close(ring.fd);
		return r;
	}
	memset(&sqe, 0, sizeof(sqe));
	sqe.opcode = IORING_OP_CONNECT;
	sqe.fd = fd;
	sqe.addr = (unsigned long)sa;
	sqe.off = len;
	ring_queue(&ring, &sqe);
	r = ring_enter(&ring, IORING_ENTER_GETEVENTS, 1);
	if (!r && !ring_reap(&ring, &res))
		r = EIO;
	close(ring.fd);
	if (r)
		return r;
	return res < 0 ? -res : 0;
}

/* ---- children -------------------------------------------------------- */

static int child_status(pid_t pid)
{
	int status;

	if (pid < 0)
		return err();
	if (waitpid(pid, &status, 0) < 0)
		return err();
	return WIFEXITED(status) ? WEXITSTATUS(status) : EIO;
}

static int fork_connect(char **a)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(with_socket(a, SOCK_STREAM, 0, do_connect));
	return child_status(pid);
}

/* The child's own line says what it got; its status carries the errno. */
static int exec_connect(char **a)
{
	pid_t pid = fork();

	if (pid == 0) {
		char *argv[] = { "netprobe", "--status", "connect-tcp", a[0],
				 a[1], NULL };

		execv("/proc/self/exe", argv);
		_exit(err());
	}
	return child_status(pid);
}

static int bench(char **a)
{
	struct sockaddr_storage ss;
	struct timespec t0, t1;
	socklen_t len;
	long n = atol(a[2]);

	if (!sockaddr_of(a[0], a[1], &ss, &len) || n <= 0)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < n; i++) {
		int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);

		/* close with RST: no TIME_WAIT to use up the ephemeral ports */
		struct linger rst = { .l_onoff = 1, .l_linger = 0 };

		if (fd < 0 || connect(fd, (struct sockaddr *)&ss, len) < 0 ||
		    setsockopt(fd, SOL_SOCKET, SO_LINGER, &rst, sizeof(rst))) {
			perror("netprobe bench");
			return 1;
		}
		close(fd);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("connect %lld\n", ((t1.tv_sec - t0.tv_sec) * 1000000000LL +
				  (t1.tv_nsec - t0.tv_nsec)) / n);
	return 0;
}

static void serve(int argc, char **argv)
{
	struct pollfd fds[16];
	int n = 0, one = 1, zero = 0;

	for (int i = 0; i < argc && n < 16; i++, n++) {
		struct sockaddr_in6 in6 = { .sin6_family = AF_INET6,
			.sin6_port = htons((uint16_t)atoi(argv[i])),
			.sin6_addr = IN6ADDR_ANY_INIT };
		int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC |
				SOCK_NONBLOCK, 0);

		if (fd < 0 ||
		    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, 4) < 0 ||
		    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, 4) < 0 ||
		    bind(fd, (struct sockaddr *)&in6, sizeof(in6)) < 0 ||
		    listen(fd, 4096) < 0) {
			perror("netprobe serve");
			exit(1);
		}
		fds[n] = (struct pollfd){ .fd = fd, .events = POLLIN };
	}
	printf("serving\n");
	fflush(stdout);
	for (;;) {
		if (poll(fds, (nfds_t)n, -1) < 0)
			continue;
		for (int i = 0; i < n; i++) {
			int c;

			if (!(fds[i].revents & POLLIN))
				continue;
			/* drain the queue: a full backlog drops SYNs */
			while ((c = accept4(fds[i].fd, NULL, NULL,
					    SOCK_CLOEXEC)) >= 0)
				close(c);
		}
	}
}

static void serve_udp(const char *port)
{
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6,
		.sin6_port = htons((uint16_t)atoi(port)),
		.sin6_addr = IN6ADDR_ANY_INIT };
	int fd = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0), zero = 0;
	char buf[2048];
	ssize_t got;

	if (fd < 0 ||
	    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, 4) < 0 ||
	    bind(fd, (struct sockaddr *)&in6, sizeof(in6)) < 0) {
		perror("netprobe serve-udp");
		exit(1);
	}
	printf("serving\n");
	fflush(stdout);
	for (;;) {
		got = recv(fd, buf, sizeof(buf), 0);
		if (got >= 0)
			printf("received %zd\n", got);
		fflush(stdout);
	}
}

/* ---- source routes ---------------------------------------------------- */

/*
 * IPv4: a loose source route (LSRR) naming 127.0.0.1.  The kernel takes
 * the first address as the first hop and writes the real destination in
 * its place.  IPv6 socket option: a segment routing header (type 4) whose
 * active segment is ::1; the kernel puts the destination in segment 0 and
 * sends to ::1.  IPv6 ancillary data accepts type 2 only (mobile IPv6, one
 * address, again ::1 as the first hop).
 */
static const unsigned char lsrr[8] = { IPOPT_LSRR, 7, 4, 127, 0, 0, 1,
				       IPOPT_END };
static const unsigned char srh[24] = { 0, 2, 4, 0, 0, 0, 0, 0,
				       [23] = 1 };	/* segment ::1 */
static const unsigned char rt2[24] = { 0, 2, 2, 1, 0, 0, 0, 0,
				       [23] = 1 };	/* address ::1 */

static int set_route(int fd, int family)
{
	if (family == AF_INET)
		return setsockopt(fd, SOL_IP, IP_OPTIONS, lsrr, sizeof(lsrr));
	return setsockopt(fd, SOL_IPV6, IPV6_RTHDR, srh, sizeof(srh));
}

/* info := "STEP=ERRNO" for the step that failed (not the route's own) */
static void step_failed(char *info, const char *step)
{
	char ebuf[16];
	int e = err();

	snprintf(info, 32, "%s=%s", step, errno_name(e, ebuf, sizeof(ebuf)));
}

static int route_sockopt(int fd, struct sockaddr *sa, socklen_t len,
			 char *info)
{
	if (set_route(fd, sa->sa_family) < 0)
		return err();
	if (sendto(fd, "x", 1, 0, sa, len) < 0)
		step_failed(info, "send");
	return 0;
}

static int route_cmsg(int fd, struct sockaddr *sa, socklen_t len, int type)
{
	union {
		char buf[CMSG_SPACE(sizeof(rt2))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = "x", .iov_len = 1 };
	struct msghdr msg = { .msg_name = sa, .msg_namelen = len,
			      .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = u.buf };
	struct cmsghdr *c = (struct cmsghdr *)u.buf;
	int v4 = sa->sa_family == AF_INET;

	memset(&u, 0, sizeof(u));
	c->cmsg_level = v4 ? SOL_IP : SOL_IPV6;
	c->cmsg_type = v4 ? IP_RETOPTS : type;
	c->cmsg_len = CMSG_LEN(v4 ? sizeof(lsrr) : sizeof(rt2));
	memcpy(CMSG_DATA(c), v4 ? lsrr : rt2, v4 ? sizeof(lsrr) : sizeof(rt2));
	msg.msg_controllen = CMSG_SPACE(v4 ? sizeof(lsrr) : sizeof(rt2));
	return sendmsg(fd, &msg, 0) < 0 ? err() : 0;
}

/* The route ops; the listener of rthdr6-deliver binds ::1, same port. */
static int op_route(int op, char **a, char *info)
{
	struct sockaddr_storage ss, ls;
	socklen_t len, llen;
	struct pollfd p = { .events = POLLIN };
	int fd = sock_for(a[0], a[1], SOCK_DGRAM, 0, &ss, &len), r = 0;
	char buf[8];

	if (fd < 0)
		return err();
	if (op == OP_ROUTE_CMSG || op == OP_ROUTE_CMSG2292) {
		r = route_cmsg(fd, (struct sockaddr *)&ss, len,
			       op == OP_ROUTE_CMSG ? IPV6_RTHDR : IPV6_2292RTHDR);
		close(fd);
		return r;
	}
	p.fd = -1;
	if (op == OP_ROUTE_DELIVER) {
		sockaddr_of(ss.ss_family == AF_INET ? "127.0.0.1" : "::1",
			    a[1], &ls, &llen);
		p.fd = socket(ls.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (p.fd < 0 || bind(p.fd, (struct sockaddr *)&ls, llen) < 0) {
			step_failed(info, "bind");
			goto out;
		}
	}
	r = route_sockopt(fd, (struct sockaddr *)&ss, len, info);
	if (!r && !info[0] && p.fd >= 0 &&
	    (poll(&p, 1, 1000) != 1 || recv(p.fd, buf, sizeof(buf), 0) != 1))
		strcpy(info, "LOST");
out:
	if (p.fd >= 0)
		close(p.fd);
	close(fd);
	return r;
}

/* FD ADDR PORT: a socket inherited from route-exec */
static int op_fd(int op, char **a, char *info)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd = atoi(a[0]);

	(void)info;
	if (!sockaddr_of(a[1], a[2], &ss, &len))
		return EINVAL;
	if (op == OP_FD_CONNECT)
		return connect(fd, (struct sockaddr *)&ss, len) < 0 ? err() : 0;
	return sendto(fd, "x", 1, 0, (struct sockaddr *)&ss, len) < 0 ?
	       err() : 0;
}

static int route_exec(char **argv)
{
	int family = !strcmp(argv[0], "4") ? AF_INET : AF_INET6;
	int fd = socket(family, SOCK_DGRAM, 0);

	if (fd < 0 || set_route(fd, family) < 0 || dup2(fd, 3) < 0) {
		perror("netprobe route-exec");
		return 1;
	}
	execv(argv[1], argv + 1);
	perror("netprobe route-exec");
	return 1;
}

/* ---- table and driver ----------------------------------------------- */

/* ADDR PORT ops: the socket made for the address, what is done with it */
static int op_sock(int op, char **arg, char *info)
{
	static const struct {
		int type, proto;
		int (*fn)(int fd, struct sockaddr *sa, socklen_t len);
	} sock[] = {
		[OP_CONNECT_TCP] = { SOCK_STREAM, 0, do_connect },
		[OP_CONNECT_MPTCP] = { SOCK_STREAM, IPPROTO_MPTCP, do_connect },
		[OP_FASTOPEN] = { SOCK_STREAM, 0, do_fastopen },
		[OP_BIND_TCP] = { SOCK_STREAM, 0, do_bind },
		[OP_BIND_UDP] = { SOCK_DGRAM, 0, do_bind },
		[OP_CONNECT_UDP] = { SOCK_DGRAM, 0, do_connect },
		[OP_SENDTO_UDP] = { SOCK_DGRAM, 0, do_sendto },
		[OP_UNSPEC_CONNECT] = { SOCK_STREAM, 0, do_unspec_connect },
		[OP_UNSPEC_SENDTO] = { SOCK_DGRAM, 0, do_unspec_sendto },
		[OP_URING_CONNECT] = { SOCK_STREAM, 0, uring_connect },
	};

	(void)info;
	return with_socket(arg, sock[op].type, sock[op].proto, sock[op].fn);
}

/* make a socket of the kind (then close it) */
static int op_make(int op, char **arg, char *info)
{
	static const int kind[][3] = {
		[OP_RAW] = { AF_INET, SOCK_RAW, IPPROTO_ICMP },
		[OP_PACKET] = { AF_PACKET, SOCK_RAW, 0 },
		[OP_SCTP] = { AF_INET, SOCK_STREAM, IPPROTO_SCTP },
		[OP_PING] = { AF_INET, SOCK_DGRAM, IPPROTO_ICMP },
	};
	int fd = socket(kind[op][0], kind[op][1] | SOCK_CLOEXEC, kind[op][2]);

	(void)arg;
	(void)info;
	if (fd < 0)
		return err();
	close(fd);
	return 0;
}

/* listen(2) on an unbound socket: the kernel binds an ephemeral port */
static int listen_unbound(void)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), r;

	if (fd < 0)
		return err();
	r = listen(fd, 1) < 0 ? err() : 0;
	close(fd);
	return r;
}

static int op_other(int op, char **arg, char *info)
{
	(void)info;
	switch (op) {
	case OP_UNSPEC_BIND:
		return unspec_bind(arg[0]);
	case OP_RECONNECT:
		return reconnect(arg);
	case OP_FORK_CONNECT:
		return fork_connect(arg);
	case OP_EXEC_CONNECT:
		return exec_connect(arg);
	default:
		return listen_unbound();
	}
}

/* made from netprobe.ops: here, after the static op functions its rows name */
static const struct op ops[] = {
#include "netprobe-table.h"
};

static const struct oplist list = OPLIST("netprobe", "", ops);

static int bad_op(const char *word)
{
	fprintf(stderr, "netprobe: bad operation at '%s'\n", word);
	return 2;
}

/*
 * Not oplist_main: netprobe has always run each op as it came, so a bad
 * one stops the line only after the ops before it ran and printed, and a
 * trailing '+' passes.  Kept so that its output stays the same.
 */
int main(int argc, char **argv)
{
	const struct op *op;
	char info[32];
	int i = 1, status_mode = 0, last = 0, end, n, result;

	if (argc == 5 && !strcmp(argv[1], "bench"))
		return bench(argv + 2);
	if (argc > 1 && !strcmp(argv[1], "serve")) {
		serve(argc - 2, argv + 2);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "serve-udp"))
		serve_udp(argv[2]);
	if (argc > 3 && !strcmp(argv[1], "route-exec"))
		return route_exec(argv + 2);
	if (argc > 1 && !strcmp(argv[1], "--status")) {
		status_mode = 1;   /* exec-connect: the result is the status */
		i++;
	}
	for (; i < argc; i = end + 1) {
		end = oplist_end(argc, argv, i + 1);
		n = end - i - 1;
		op = oplist_find(&list, argv[i]);
		if (!op || n < op->nargs)
			return bad_op(argv[i]);
		/* too many words: refused after the op ran, as ever */
		info[0] = 0;
		result = op->fn(op->op, argv + i + 1, info);
		if (n != op->nargs)
			return bad_op(argv[i]);
		/* result < 0: unspec-connect reached the address */
		if (!status_mode)
			oplist_print(op, argv + i + 1, result > 0 ? result : 0,
				     result < 0 ? "CONNECTED" : info);
		last = result < 0 ? 1 : result;
	}
	return status_mode ? last : 0;
}
