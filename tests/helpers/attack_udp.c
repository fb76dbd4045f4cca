/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * attack's udp-* ops: UDP sends by every route, to an address the
 * sandbox may deny, and the port a send binds.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <linux/io_uring.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "attack.h"
#include "inet_addr.h"
#include "oplist.h"
#include "uring.h"

/* The port @fd is bound to, 0 if none */
static int udp_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
		return 0;
	return ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

/*
 * udp-uring-sendmsg: @msg (one byte, to its msg_name) by IORING_OP_SENDMSG;
 * udp-uring-send: the byte by IORING_OP_SEND, msg_name in addr2.  The
 * send's errno.
 */
static int udp_uring(int op, int fd, const struct msghdr *msg)
{
	struct io_uring_sqe sqe;
	struct ring r;
	int res = ring_setup(&r, 0, 0);

	if (res)
		return res;
	memset(&sqe, 0, sizeof(sqe));
	sqe.fd = fd;
	if (op == OP_UDP_URING_SENDMSG) {
		sqe.opcode = IORING_OP_SENDMSG;
		sqe.addr = (uint64_t)(uintptr_t)msg;
		sqe.len = 1;
	} else {
		sqe.opcode = IORING_OP_SEND;
		sqe.addr = (uint64_t)(uintptr_t)"x";
		sqe.len = 1;
		sqe.addr2 = (uint64_t)(uintptr_t)msg->msg_name;
		sqe.addr_len = (uint16_t)msg->msg_namelen;
	}
	res = ring_submit(&r, &sqe);
	close(r.fd);
	return res < 0 ? -res : 0;
}

/*
 * udp-* ADDR PORT: an unbound UDP socket (of ADDR's family) sends one
 * byte to ADDR:PORT by the route; the send's errno.
 *   sendmsg, sendmmsg (two messages), uring-sendmsg, uring-send (address
 *   in addr2): the address with the message
 *   unspec-sendto: connect(AF_UNSPEC) first, then sendto
 *   noaddr-sendto: send() without an address first (fails: no peer),
 *   then sendto;  noaddr-bound: info "bound" if that first send() left
 *   the socket bound to a port, "unbound" if not
 *   sendfile-sendto: sendfile() of one byte to the socket first
 * udp-fd-sendto FD ADDR PORT: sendto on inherited descriptor FD.
 */
int op_udp(int op, char **arg, char *info)
{
	struct sockaddr_storage ss;
	struct sockaddr_storage un = { .ss_family = AF_UNSPEC };
	struct iovec iov = { .iov_base = "x", .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct mmsghdr mm[2];
	socklen_t len;
	int fd, family, res = 0, mfd;

	if (op == OP_UDP_FD_SENDTO) {
		if (!sockaddr_of(arg[1], arg[2], &ss, &len))
			return EINVAL;
		return sendto(atoi(arg[0]), "x", 1, 0, (struct sockaddr *)&ss,
			      len) < 0 ? err() : 0;
	}
	family = sockaddr_of(arg[0], arg[1], &ss, &len);
	if (!family)
		return EINVAL;
	fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return err();
	msg.msg_name = &ss;
	msg.msg_namelen = len;
	switch (op) {
	case OP_UDP_SENDMSG:
		res = sendmsg(fd, &msg, 0) < 0 ? err() : 0;
		break;
	case OP_UDP_SENDMMSG:
		memset(mm, 0, sizeof(mm));
		mm[0].msg_hdr = msg;
		mm[1].msg_hdr = msg;
		res = (int)sendmmsg(fd, mm, 2, 0);
		res = res < 0 ? err() : res == 2 ? 0 : EIO;
		break;
	case OP_UDP_URING_SENDMSG:
	case OP_UDP_URING_SEND:
		res = udp_uring(op, fd, &msg);
		break;
	case OP_UDP_UNSPEC_SENDTO:
		connect(fd, (struct sockaddr *)&un, sizeof(un.ss_family));
		res = sendto(fd, "x", 1, 0, (struct sockaddr *)&ss, len) < 0 ?
		      err() : 0;
		break;
	case OP_UDP_NOADDR_SENDTO:
	case OP_UDP_NOADDR_BOUND:
		send(fd, "x", 1, MSG_DONTWAIT);
		if (op == OP_UDP_NOADDR_BOUND) {
			snprintf(info, INFO_LEN, "%s",
				 udp_port(fd) ? "bound" : "unbound");
			break;
		}
		res = sendto(fd, "x", 1, 0, (struct sockaddr *)&ss, len) < 0 ?
		      err() : 0;
		break;
	case OP_UDP_SENDFILE_SENDTO:
		mfd = (int)syscall(SYS_memfd_create, "x", 0);
		if (mfd >= 0 && write(mfd, "x", 1) == 1 &&
		    lseek(mfd, 0, SEEK_SET) == 0)
			sendfile(fd, mfd, NULL, 1);
		if (mfd >= 0)
			close(mfd);
		res = sendto(fd, "x", 1, 0, (struct sockaddr *)&ss, len) < 0 ?
		      err() : 0;
		break;
	default:
		res = EINVAL;
		break;
	}
	close(fd);
	return res;
}
