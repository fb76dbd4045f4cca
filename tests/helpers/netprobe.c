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
 *   bench ADDR PORT N        N x (socket, connect, close); prints
 *                            "connect NS", the mean per round, and exits
 *   serve PORT...            listen on [::]:PORT (dual stack) for each and
 *                            accept forever; prints "serving" once ready
 *
 * Exit status 0 whatever the results; 2 on a usage error.  Static on
 * purpose (see probe.c).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/io_uring.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif
#ifndef MSG_FASTOPEN
#define MSG_FASTOPEN 0x20000000
#endif

static const char *errno_name(int e, char *buf, size_t len)
{
	static const struct {
		int e;
		const char *name;
	} names[] = {
		{ EACCES, "EACCES" }, { EPERM, "EPERM" }, { EINVAL, "EINVAL" },
		{ ECONNREFUSED, "ECONNREFUSED" },
		{ EAFNOSUPPORT, "EAFNOSUPPORT" },
		{ EPROTONOSUPPORT, "EPROTONOSUPPORT" },
		{ EADDRINUSE, "EADDRINUSE" }, { EADDRNOTAVAIL, "EADDRNOTAVAIL" },
		{ ENOTCONN, "ENOTCONN" }, { EISCONN, "EISCONN" },
		{ EINPROGRESS, "EINPROGRESS" }, { ENETUNREACH, "ENETUNREACH" },
		{ ENOSYS, "ENOSYS" }, { ESOCKTNOSUPPORT, "ESOCKTNOSUPPORT" },
		{ ENOENT, "ENOENT" }, { EALREADY, "EALREADY" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == e)
			return names[i].name;
	snprintf(buf, len, "E%d", e);
	return buf;
}

static int err(void)
{
	return errno ? errno : EIO;
}

/* ADDR PORT into @ss; returns the family, or 0 on a bad address. */
static int sockaddr_of(const char *addr, const char *port,
		       struct sockaddr_storage *ss, socklen_t *len)
{
	struct sockaddr_in *in = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (strchr(addr, ':')) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)atoi(port));
		*len = sizeof(*in6);
		return inet_pton(AF_INET6, addr, &in6->sin6_addr) == 1 ?
		       AF_INET6 : 0;
	}
	in->sin_family = AF_INET;
	in->sin_port = htons((uint16_t)atoi(port));
	*len = sizeof(*in);
	return inet_pton(AF_INET, addr, &in->sin_addr) == 1 ? AF_INET : 0;
}

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
	struct io_uring_params p = { 0 };
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	unsigned *sq_tail, *sq_array, *cq_head, *cq_tail;
	void *sq, *cq;
	int ring = (int)syscall(__NR_io_uring_setup, 1, &p), res;

	if (ring < 0)
		return err();
	sq = mmap(NULL, p.sq_off.array + p.sq_entries * sizeof(unsigned),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring,
		  IORING_OFF_SQ_RING);
	cq = mmap(NULL, p.cq_off.cqes + p.cq_entries * sizeof(*cqes),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring,
		  IORING_OFF_CQ_RING);
	sqes = mmap(NULL, p.sq_entries * sizeof(*sqes),
		    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring,
		    IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED) {
		res = err();
		close(ring);
		return res;
	}
	sq_tail = (unsigned *)((char *)sq + p.sq_off.tail);
	sq_array = (unsigned *)((char *)sq + p.sq_off.array);
	cq_head = (unsigned *)((char *)cq + p.cq_off.head);
	cq_tail = (unsigned *)((char *)cq + p.cq_off.tail);
	cqes = (struct io_uring_cqe *)((char *)cq + p.cq_off.cqes);
	memset(&sqes[0], 0, sizeof(sqes[0]));
	sqes[0].opcode = IORING_OP_CONNECT;
	sqes[0].fd = fd;
	sqes[0].addr = (unsigned long)sa;
	sqes[0].off = len;
	sq_array[0] = 0;
	__atomic_store_n(sq_tail, *sq_tail + 1, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, ring, 1, 1, IORING_ENTER_GETEVENTS,
		    NULL, 0) < 0) {
		res = err();
		close(ring);
		return res;
	}
	if (__atomic_load_n(cq_tail, __ATOMIC_ACQUIRE) == *cq_head) {
		close(ring);
		return EIO;
	}
	res = cqes[*cq_head & (p.cq_entries - 1)].res;
	close(ring);
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

static int make_socket(int family, int type, int proto)
{
	int fd = socket(family, type | SOCK_CLOEXEC, proto);

	if (fd < 0)
		return err();
	close(fd);
	return 0;
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

/* One op at @argv; returns how many words it used, or -1 on a usage error. */
static int run_op(char **argv, int argc, int *result)
{
	const char *op = argv[0];
	char **a = argv + 1;
	int n = argc - 1;

#define NEED(k) do { if (n < (k)) return -1; } while (0)
	if (!strcmp(op, "connect-tcp")) {
		NEED(2); *result = with_socket(a, SOCK_STREAM, 0, do_connect);
		return 3;
	}
	if (!strcmp(op, "connect-mptcp")) {
		NEED(2);
		*result = with_socket(a, SOCK_STREAM, IPPROTO_MPTCP, do_connect);
		return 3;
	}
	if (!strcmp(op, "fastopen")) {
		NEED(2); *result = with_socket(a, SOCK_STREAM, 0, do_fastopen);
		return 3;
	}
	if (!strcmp(op, "bind-tcp")) {
		NEED(2); *result = with_socket(a, SOCK_STREAM, 0, do_bind);
		return 3;
	}
	if (!strcmp(op, "bind-udp")) {
		NEED(2); *result = with_socket(a, SOCK_DGRAM, 0, do_bind);
		return 3;
	}
	if (!strcmp(op, "connect-udp")) {
		NEED(2); *result = with_socket(a, SOCK_DGRAM, 0, do_connect);
		return 3;
	}
	if (!strcmp(op, "sendto-udp")) {
		NEED(2); *result = with_socket(a, SOCK_DGRAM, 0, do_sendto);
		return 3;
	}
	if (!strcmp(op, "unspec-connect")) {
		NEED(2);
		*result = with_socket(a, SOCK_STREAM, 0, do_unspec_connect);
		return 3;
	}
	if (!strcmp(op, "unspec-bind")) {
		NEED(1); *result = unspec_bind(a[0]);
		return 2;
	}
	if (!strcmp(op, "unspec-sendto")) {
		NEED(2);
		*result = with_socket(a, SOCK_DGRAM, 0, do_unspec_sendto);
		return 3;
	}
	if (!strcmp(op, "reconnect")) {
		NEED(3); *result = reconnect(a);
		return 4;
	}
	if (!strcmp(op, "uring-connect")) {
		NEED(2);
		*result = with_socket(a, SOCK_STREAM, 0, uring_connect);
		return 3;
	}
	if (!strcmp(op, "fork-connect")) {
		NEED(2); *result = fork_connect(a);
		return 3;
	}
	if (!strcmp(op, "exec-connect")) {
		NEED(2); *result = exec_connect(a);
		return 3;
	}
	if (!strcmp(op, "listen")) {
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

		*result = fd < 0 ? err() : listen(fd, 1) < 0 ? err() : 0;
		if (fd >= 0)
			close(fd);
		return 1;
	}
	if (!strcmp(op, "raw")) {
		*result = make_socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
		return 1;
	}
	if (!strcmp(op, "packet")) {
		*result = make_socket(AF_PACKET, SOCK_RAW, 0);
		return 1;
	}
	if (!strcmp(op, "sctp")) {
		*result = make_socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP);
		return 1;
	}
	if (!strcmp(op, "ping")) {
		*result = make_socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP);
		return 1;
	}
#undef NEED
	return -1;
}

int main(int argc, char **argv)
{
	int i = 1, status_mode = 0, last = 0;

	if (argc == 5 && !strcmp(argv[1], "bench"))
		return bench(argv + 2);
	if (argc > 1 && !strcmp(argv[1], "serve")) {
		serve(argc - 2, argv + 2);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--status")) {
		status_mode = 1;   /* exec-connect: the result is the status */
		i++;
	}
	while (i < argc) {
		char buf[16];
		int used, result = 0, end = i;

		while (end < argc && strcmp(argv[end], "+"))
			end++;
		used = run_op(argv + i, end - i, &result);
		if (used != end - i) {
			fprintf(stderr, "netprobe: bad operation at '%s'\n",
				argv[i]);
			return 2;
		}
		if (!status_mode) {
			printf("%s", argv[i]);
			for (int k = i + 1; k < end; k++)
				printf(" %s", argv[k]);
			printf(": %s\n", result < 0 ? "CONNECTED" : result ?
			       errno_name(result, buf, sizeof(buf)) : "OK");
			fflush(stdout);
		}
		last = result < 0 ? 1 : result;
		i = end + 1;
	}
	return status_mode ? last : 0;
}
