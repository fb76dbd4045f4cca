// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seccomp_net.c - what the Landlock engine cannot refuse of the network,
 * refused by socket(2)'s arguments (issue 35, point 4).
 *
 * Under net = rules or none the bpf engine's socket_create hook lets a
 * sandbox make unix, netlink and AF_ALG sockets, and IP sockets only of
 * TCP (or MPTCP) and UDP; everything else gives EACCES.  Landlock refuses
 * no socket type at any ABI, and judges UDP only from ABI 10, so on that
 * engine corral installs one of these filters (seccomp_load.c):
 *
 *   rules   the bpf engine's socket rule, as above
 *   no-udp  the same and no UDP socket: rules that allow no UDP at all,
 *           below ABI 10, where Landlock cannot refuse a send
 *   none    no IP socket at all (net = none; also closes TCP below ABI 4)
 *
 * A family, type or protocol a rule does not name is refused, so a
 * value with its upper 32 bits set (the kernel reads an int) is too.
 * socketpair(2) is judged as socket(2), as the hook sees both.
 * io_uring_setup is refused with EPERM (what kernel.io_uring_disabled
 * answers): IORING_OP_SOCKET makes sockets where no filter looks.
 * socketcall(2), where the architecture has it, carries its arguments
 * in memory: its socket and socketpair calls are refused outright.
 */
#include "config.h"

#include "seccomp_rules.h"

#include <errno.h>
#include <linux/net.h>
#include <netinet/in.h>
#include <seccomp.h>
#include <stdint.h>
#include <sys/socket.h>

#include "util.h"

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif

/* a run of values an argument may take: [lo, hi] */
struct span {
	uint64_t lo, hi;
};

/* Families allowed: unix, inet, inet6, netlink, alg; the rest refused. */
static const struct span bad_families[] = {
	{ 0, AF_UNIX - 1 }, { AF_INET + 1, AF_INET6 - 1 },
	{ AF_INET6 + 1, AF_NETLINK - 1 }, { AF_NETLINK + 1, AF_ALG - 1 },
	{ AF_ALG + 1, UINT64_MAX },
};

/* Types other than stream and datagram (the low four bits; the rest
 * are SOCK_NONBLOCK and SOCK_CLOEXEC) */
static const struct span bad_types[] = {
	{ 0, SOCK_STREAM - 1 }, { SOCK_DGRAM + 1, 15 },
};

/* Protocols of a stream socket other than the default, TCP and MPTCP */
static const struct span bad_stream_protos[] = {
	{ 1, IPPROTO_TCP - 1 }, { IPPROTO_TCP + 1, IPPROTO_MPTCP - 1 },
	{ IPPROTO_MPTCP + 1, UINT64_MAX },
};

/* Protocols of a datagram socket other than the default and UDP (ICMP
 * "ping" sockets, UDP-Lite) */
static const struct span bad_dgram_protos[] = {
	{ 1, IPPROTO_UDP - 1 }, { IPPROTO_UDP + 1, UINT64_MAX },
};

#define N(a) (sizeof(a) / sizeof(*(a)))
#define REFUSED SCMP_ACT_ERRNO(EACCES)

/* The size of the largest aligned block of values from @lo within @hi
 * and @field (a low-bit mask: 0xf or every bit). */
static uint64_t block_size(uint64_t lo, uint64_t hi, uint64_t field)
{
	uint64_t size = 1;

	while (size * 2 - 1 <= field && !(lo & size) && hi - lo >= size * 2 - 1)
		size *= 2;
	return size;
}

/*
 * Refuses @nr when argument @arg (its bits in @field) is in @s and the
 * comparisons in @pre (up to two) hold: one rule per aligned block, or
 * one "at least" rule for a run to the top of a full argument.
 */
static int refuse_span(scmp_filter_ctx ctx, int nr, unsigned arg,
		       uint64_t field, struct span s,
		       const struct scmp_arg_cmp *pre, unsigned n_pre)
{
	struct scmp_arg_cmp cmp[3];
	uint64_t lo = s.lo, size;
	int r;

	for (unsigned i = 0; i < n_pre; i++)
		cmp[i] = pre[i];
	for (;;) {
		if (field == UINT64_MAX && s.hi == UINT64_MAX) {
			cmp[n_pre] = (struct scmp_arg_cmp){ arg, SCMP_CMP_GE,
							    lo, 0 };
			size = s.hi - lo + 1;   /* the rest: 0 when lo is 0 */
		} else {
			size = block_size(lo, s.hi, field);
			cmp[n_pre] = (struct scmp_arg_cmp){ arg,
				SCMP_CMP_MASKED_EQ, field & ~(size - 1), lo };
		}
		r = seccomp_rule_add_array(ctx, REFUSED, nr, n_pre + 1, cmp);
		if (r < 0)
			return error_errno(r, "seccomp: refusing socket "
					   "argument %u in 0x%llx-0x%llx", arg,
					   (unsigned long long)s.lo,
					   (unsigned long long)s.hi);
		if (s.hi - lo <= size - 1)
			return 0;
		lo += size;
	}
}

static int refuse_spans(scmp_filter_ctx ctx, int nr, unsigned arg,
			uint64_t field, const struct span *s, size_t n,
			const struct scmp_arg_cmp *pre, unsigned n_pre)
{
	int r = 0;

	for (size_t i = 0; !r && i < n; i++)
		r = refuse_span(ctx, nr, arg, field, s[i], pre, n_pre);
	return r;
}

/* What @family's sockets may be under @kind. */
static int refuse_ip(scmp_filter_ctx ctx, int nr, int family,
		     enum seccomp_net kind)
{
	struct scmp_arg_cmp pre[2] = {
		SCMP_A0(SCMP_CMP_EQ, (uint64_t)family),
		SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, SOCK_STREAM),
	};
	int r;

	if (kind == SECCOMP_NET_NONE) {
		r = seccomp_rule_add_array(ctx, REFUSED, nr, 1, pre);
		if (r < 0)
			return error_errno(r, "seccomp: refusing family %d",
					   family);
		return 0;
	}
	r = refuse_spans(ctx, nr, 1, 0xf, bad_types, N(bad_types), pre, 1);
	if (!r)
		r = refuse_spans(ctx, nr, 2, UINT64_MAX, bad_stream_protos,
				 N(bad_stream_protos), pre, 2);
	pre[1] = SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, SOCK_DGRAM);
	if (!r && kind == SECCOMP_NET_NO_UDP)
		r = refuse_spans(ctx, nr, 1, 0xf, &(struct span){ SOCK_DGRAM,
				 SOCK_DGRAM }, 1, pre, 1);
	else if (!r)
		r = refuse_spans(ctx, nr, 2, UINT64_MAX, bad_dgram_protos,
				 N(bad_dgram_protos), pre, 2);
	return r;
}

static int refuse_sockets(scmp_filter_ctx ctx, int nr, enum seccomp_net kind)
{
	int r = refuse_spans(ctx, nr, 0, UINT64_MAX, bad_families,
			     N(bad_families), NULL, 0);

	if (!r)
		r = refuse_ip(ctx, nr, AF_INET, kind);
	if (!r)
		r = refuse_ip(ctx, nr, AF_INET6, kind);
	return r;
}

static int refuse_socketcall(scmp_filter_ctx ctx)
{
	int nr = seccomp_syscall_resolve_name("socketcall");
	int r;

	if (nr == __NR_SCMP_ERROR)
		return 0;       /* not on this architecture */
	r = seccomp_rule_add(ctx, REFUSED, nr, 1,
			     SCMP_A0(SCMP_CMP_EQ, SYS_SOCKET));
	if (!r)
		r = seccomp_rule_add(ctx, REFUSED, nr, 1,
				     SCMP_A0(SCMP_CMP_EQ, SYS_SOCKETPAIR));
	if (r < 0)
		return error_errno(r, "seccomp: refusing socketcall's socket");
	return 0;
}

static const char *const io_uring[] = { "io_uring_setup" };

scmp_filter_ctx seccomp_net_filter(enum seccomp_net kind)
{
	scmp_filter_ctx ctx = seccomp_filter_list(SCMP_ACT_ALLOW,
						  SCMP_ACT_ERRNO(EPERM),
						  io_uring, N(io_uring),
						  NULL, 0);
	int r;

	if (!ctx)
		return NULL;
	r = refuse_sockets(ctx, SCMP_SYS(socket), kind);
	if (!r)
		r = refuse_sockets(ctx, SCMP_SYS(socketpair), kind);
	if (!r)
		r = refuse_socketcall(ctx);
	if (!r)
		return ctx;
	seccomp_release(ctx);
	return NULL;
}
