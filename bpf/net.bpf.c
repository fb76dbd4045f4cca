// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * net.bpf.c - network rules ([network] in a profile): which TCP and UDP
 * binds, connects and sends a domain may make, by port and address.
 *
 * Only domains whose tasks carry CORRAL_TASK_NET (net = rules or none)
 * are judged; every other task, sandboxed or not, returns after the task
 * lookup.  Within such a domain:
 *
 *   - socket(2) of an IP socket other than TCP, MPTCP or UDP (raw, SCTP,
 *     ICMP, UDP-Lite...) and of packet sockets is refused, as are other
 *     families that reach off the machine; unix, netlink and AF_ALG
 *     sockets stay allowed.
 *   - bind(2) and connect(2) of TCP/MPTCP (bind-tcp, connect-tcp) and UDP
 *     (bind-udp, connect-udp) sockets need a rule for the address and
 *     port; sendto/sendmsg with an address on a UDP socket needs
 *     connect-udp, and TCP fast open (MSG_FASTOPEN) connect-tcp.  io_uring
 *     connect and send go through the same hooks.
 *   - IPv4-mapped IPv6 addresses are judged as the IPv4 address.
 *   - AF_UNSPEC: connect dissolves an association (allowed, as Landlock);
 *     bind of an IPv4 socket means 0.0.0.0 (judged, as the kernel treats
 *     it as AF_INET) and is EAFNOSUPPORT otherwise; sendmsg of an IPv4 UDP
 *     socket sends to the address given (judged), of an IPv6 socket to
 *     the connected peer (judged at connect).
 *   - bind to port 0 (an ephemeral port) needs a rule allowing port 0,
 *     and so does listen(2) on an unbound TCP socket, which binds one,
 *     and a UDP connect or send on an unbound socket (Landlock ABI 10
 *     judges that implicit bind too; a TCP connect's is not judged,
 *     by either).
 *   - a missing policy entry denies (fail closed).
 *   - source routes are refused (EACCES): a packet must go first where
 *     its judged destination says, not through a hop the rules never saw
 *     (an IPv6 routing header with ::1 as a segment delivered to ::1
 *     what was sent to an allowed address).  So setting IP_OPTIONS or an
 *     IPv6 routing header (setsockopt, also through io_uring), sending
 *     one as ancillary data (IP_RETOPTS, IPV6_RTHDR, IPV6_2292RTHDR),
 *     and connecting or sending on a socket that already carries one
 *     (made before the sandbox) are all refused.  Interface choices
 *     (SO_BINDTODEVICE, IPV6_PKTINFO) keep the destination and stay
 *     allowed.
 */
#include "hooks.h"
#include <bpf/bpf_endian.h>

enum sock_kind {
	SOCK_NOT_IP = 0,   /* not ours to judge */
	SOCK_TCP,
	SOCK_UDP,
	SOCK_OTHER_IP,     /* raw, SCTP...: refused */
};

struct net_access {
	__u32 addr[4];     /* network byte order; IPv4 in addr[0] */
	__u16 port;        /* host byte order */
	__u8 family;       /* 4 or 6 */
	__u8 op;           /* enum corral_net_op */
};

struct net_match {
	struct corral_net_policy *policy;
	struct net_access *access;
	int allowed;
};

/* @buf: where task_dom() may copy the task's domain; must outlive t. */
static __always_inline struct corral_task *net_task(struct corral_task *buf)
{
	struct corral_task *t = task_dom(buf);

	return t && (t->flags & CORRAL_TASK_NET) ? t : NULL;
}

static __always_inline int report_net(struct corral_task *t,
				      const struct net_access *a,
				      __u32 hook, int family, int type,
				      int protocol, int error)
{
	struct corral_event *ev = scratch_event();
	int verdict = (t->flags & CORRAL_TASK_AUDIT) ? 0 : error;

	if (!ev)
		return verdict;
	__builtin_memset(ev, 0, sizeof(struct corral_event) -
			 sizeof(ev->names));
	__builtin_memset(&ev->net, 0, sizeof(ev->net));
	ev->domain = t->domain;
	ev->time_ns = bpf_ktime_get_ns();
	ev->pid = bpf_get_current_pid_tgid() >> 32;
	ev->hook = hook;
	ev->error = error;
	ev->net.socket_family = family;
	ev->net.socket_type = type;
	ev->net.protocol = protocol;
	if (a) {
		ev->access = a->op;
		ev->net.family = a->family;
		ev->net.port = a->port;
		__builtin_memcpy(ev->net.addr, a->addr, 16);
	}
	bpf_get_current_comm(ev->comm, sizeof(ev->comm));
	if (bpf_ringbuf_output(&events, ev, sizeof(*ev), 0))
		count_lost();
	return verdict;
}

static long net_rule_step(__u32 i, void *data)
{
	struct net_match *m = data;
	struct corral_net_policy *p = m->policy;
	struct net_access *a = m->access;
	struct corral_net_rule *r;

	if (i >= CORRAL_MAX_NET_RULES || i >= p->n_rules)
		return 1;
	/* Keep the mask: the compiler would index with the unchecked copy. */
	asm volatile("" : "+r"(i));
	r = &p->rule[i & (CORRAL_MAX_NET_RULES - 1)];
	if (!(r->ops & a->op) || a->port < r->port_lo || a->port > r->port_hi)
		return 0;
	if (r->family) {
		if (r->family != a->family)
			return 0;
		for (int j = 0; j < 4; j++)
			if ((a->addr[j] & r->mask[j]) != r->addr[j])
				return 0;
	}
	m->allowed = 1;
	return 1;
}

static __always_inline int check_net(struct corral_task *t,
				     struct net_access *a, int family,
				     int type, int protocol)
{
	struct net_match m = { .access = a };
	__u64 domain = t->domain;

	m.policy = bpf_map_lookup_elem(&net_policy, &domain);
	if (m.policy)
		bpf_loop(CORRAL_MAX_NET_RULES, net_rule_step, &m, 0);
	if (m.allowed)
		return 0;
	return report_net(t, a, CORRAL_HOOK_NET, family, type, protocol,
			  -EACCES);
}

static __always_inline enum sock_kind sock_kind(struct socket *sock,
						int *family, int *type,
						int *protocol)
{
	struct sock *sk = BPF_CORE_READ(sock, sk);

	*family = BPF_CORE_READ(sk, __sk_common.skc_family);
	*type = BPF_CORE_READ(sock, type);
	*protocol = BPF_CORE_READ(sk, sk_protocol);
	if (*family != AF_INET && *family != AF_INET6)
		return SOCK_NOT_IP;
	if (*type == SOCK_STREAM &&
	    (*protocol == IPPROTO_TCP || *protocol == IPPROTO_MPTCP))
		return SOCK_TCP;
	if (*type == SOCK_DGRAM && *protocol == IPPROTO_UDP)
		return SOCK_UDP;
	return SOCK_OTHER_IP;
}

enum net_call { NET_BIND, NET_CONNECT, NET_SEND };

/* ::ffff:a.b.c.d is judged as a.b.c.d. */
static __always_inline void unmap_v4(struct net_access *a)
{
	if (a->addr[0] || a->addr[1] || a->addr[2] != bpf_htonl(0xffff))
		return;
	a->family = 4;
	a->addr[0] = a->addr[3];
	a->addr[1] = a->addr[2] = a->addr[3] = 0;
}

/*
 * Reads the address of a bind, connect or send into @a.  Returns 0 to
 * judge it, 1 to let it through unjudged (AF_UNSPEC disconnects, sends to
 * the connected peer), or -errno to refuse it as the kernel would.
 */
static __always_inline int read_addr(const void *uaddr, int len,
				     int sock_family, enum net_call call,
				     struct net_access *a)
{
	__u16 family = 0xffff;
	__u32 v4 = 0;

	if (len < 2)
		return -EINVAL;
	bpf_probe_read_kernel(&family, sizeof(family), uaddr);
	if (family == AF_UNSPEC) {
		if (call == NET_CONNECT)
			return 1;
		if (call == NET_SEND && sock_family == AF_INET6)
			return 1;
		if (call == NET_BIND) {
			if (sock_family != AF_INET || len < 16)
				return sock_family != AF_INET ? -EAFNOSUPPORT
							      : -EINVAL;
			bpf_probe_read_kernel(&v4, 4, uaddr + 4);
			if (v4)
				return -EAFNOSUPPORT;
		}
		family = AF_INET;
	}
	if (family == AF_INET) {
		if (len < 16)
			return -EINVAL;
		bpf_probe_read_kernel(&a->port, 2, uaddr + 2);
		bpf_probe_read_kernel(&a->addr[0], 4, uaddr + 4);
		a->family = 4;
	} else if (family == AF_INET6) {
		if (len < 24)
			return -EINVAL;
		bpf_probe_read_kernel(&a->port, 2, uaddr + 2);
		bpf_probe_read_kernel(a->addr, 16, uaddr + 8);
		a->family = 6;
		unmap_v4(a);
	} else {
		return -EAFNOSUPPORT;
	}
	a->port = bpf_ntohs(a->port);
	return 0;
}

/* The socket a hook is about, in a network-confined task. */
struct net_sock {
	struct corral_task *t;          /* may point at buf */
	struct corral_task buf;
	enum sock_kind kind;
	int family, type, protocol;
};

/* 1: judge it; 0: not ours (no confinement, not IP); <0: refuse. */
static __always_inline int net_sock(struct socket *sock, struct net_sock *s)
{
	s->t = net_task(&s->buf);
	if (!s->t)
		return 0;
	s->kind = sock_kind(sock, &s->family, &s->type, &s->protocol);
	if (s->kind == SOCK_NOT_IP)
		return 0;
	if (s->kind == SOCK_OTHER_IP)   /* made before the sandbox */
		return report_net(s->t, NULL, CORRAL_HOOK_SOCKET, s->family,
				  s->type, s->protocol, -EACCES);
	return 1;
}

#define SOL_IP               0
#define IP_OPTIONS           4
#define IP_RETOPTS           7
#define SOL_IPV6             41
#define IPV6_2292RTHDR       5
#define IPV6_2292PKTOPTIONS  6
#define IPV6_RTHDR           57

/* An option or ancillary message that picks a packet's first hop. */
static __always_inline int is_source_route(int level, int name)
{
	if (level == SOL_IP)
		return name == IP_OPTIONS || name == IP_RETOPTS;
	if (level == SOL_IPV6)
		return name == IPV6_RTHDR || name == IPV6_2292RTHDR ||
		       name == IPV6_2292PKTOPTIONS;
	return 0;
}

static __always_inline int report_route(const struct net_sock *s, int level,
					int name)
{
	struct net_access a = { .port = (__u16)name };

	return report_net(s->t, &a, CORRAL_HOOK_ROUTE, s->family, s->type,
			  level, -EACCES);
}

/*
 * The level of a source route set on the socket before (IPv4 options,
 * an IPv6 routing header), or -1 if it carries none (SOL_IP is 0).
 */
static __always_inline int carried_source_route(struct socket *sock)
{
	struct inet_sock *inet = (void *)BPF_CORE_READ(sock, sk);
	struct ipv6_txoptions *v6 = BPF_CORE_READ(inet, pinet6, opt);

	if (BPF_CORE_READ(inet, inet_opt, opt.srr))
		return SOL_IP;
	return v6 && BPF_CORE_READ(v6, srcrt) ? SOL_IPV6 : -1;
}

/* A sendmsg's ancillary data, a kernel copy by now (____sys_sendmsg). */
struct cmsg_walk {
	void *buf;
	__u64 len;
	__u64 off;
	int level, type;   /* of the source route found */
	int verdict;       /* 1 found, -1 unreadable or too many, 0 clean */
};

#define CMSG_MAX_WALK 64

static long cmsg_step(__u32 i, void *data)
{
	struct cmsg_walk *w = data;
	struct corral_cmsghdr h;

	if (w->off + sizeof(h) > w->len)
		return 1;
	if (i == CMSG_MAX_WALK - 1 ||
	    bpf_probe_read_kernel(&h, sizeof(h), w->buf + w->off)) {
		w->verdict = -1;
		return 1;
	}
	if (h.cmsg_len < sizeof(h))
		return 1;       /* the kernel stops here too (CMSG_OK) */
	if (is_source_route(h.cmsg_level, h.cmsg_type)) {
		w->level = h.cmsg_level;
		w->type = h.cmsg_type;
		w->verdict = 1;
		return 1;
	}
	w->off += (h.cmsg_len + 7) & ~7ull;
	return 0;
}

static __always_inline int judge_cmsgs(const struct net_sock *s,
				       struct msghdr *msg)
{
	struct cmsg_walk w = {
		.buf = BPF_CORE_READ(msg, msg_control),
		.len = BPF_CORE_READ(msg, msg_controllen),
	};

	if (!w.buf || !w.len)
		return 0;
	bpf_loop(CMSG_MAX_WALK, cmsg_step, &w, 0);
	if (!w.verdict)
		return 0;
	return report_route(s, w.verdict > 0 ? w.level : -1,
			    w.verdict > 0 ? w.type : -1);
}

/* Refuses a socket that would send through a hop of its own choosing. */
static __always_inline int judge_route(const struct net_sock *s,
				       struct socket *sock)
{
	int level = carried_source_route(sock);

	return level >= 0 ? report_route(s, level, -1) : 0;
}

/*
 * UDP connect and send bind a socket not bound yet to an ephemeral port
 * on every address (inet_autobind): judged as bind-udp to port 0, as
 * Landlock (ABI 10) does, and as listen(2) is for TCP.
 */
static __always_inline int judge_autobind(const struct net_sock *s,
					  struct socket *sock)
{
	struct net_access a = { .op = CORRAL_NET_BIND_UDP };

	if (s->kind != SOCK_UDP ||
	    BPF_CORE_READ(sock, sk, __sk_common.skc_num))
		return 0;
	a.family = s->family == AF_INET6 ? 6 : 4;
	return check_net(s->t, &a, s->family, s->type, s->protocol);
}

/*
 * The address of a bind, connect or send, then for a connect or send
 * the port it binds on the way.
 */
static __always_inline int judge_addr(const struct net_sock *s,
				      struct socket *sock,
				      const void *uaddr, int len,
				      enum net_call call)
{
	struct net_access a = {};
	int r = read_addr(uaddr, len, s->family, call, &a);

	if (r)
		return r < 0 ? r : 0;
	if (s->kind == SOCK_TCP)
		a.op = call == NET_BIND ? CORRAL_NET_BIND_TCP
					: CORRAL_NET_CONNECT_TCP;
	else
		a.op = call == NET_BIND ? CORRAL_NET_BIND_UDP
					: CORRAL_NET_CONNECT_UDP;
	r = check_net(s->t, &a, s->family, s->type, s->protocol);
	if (r || call == NET_BIND)
		return r;
	return judge_autobind(s, sock);
}

static __always_inline int judge_sock(struct socket *sock, const void *uaddr,
				      int len, enum net_call call)
{
	struct net_sock s;
	int r = net_sock(sock, &s);

	if (r <= 0)
		return r;
	r = call == NET_CONNECT ? judge_route(&s, sock) : 0;
	return r ?: judge_addr(&s, sock, uaddr, len, call);
}

SEC("lsm/socket_bind")
int BPF_PROG(corral_socket_bind, struct socket *sock, void *address,
	     int addrlen, int ret)
{
	return ret ? ret : judge_sock(sock, address, addrlen, NET_BIND);
}

SEC("lsm/socket_connect")
int BPF_PROG(corral_socket_connect, struct socket *sock, void *address,
	     int addrlen, int ret)
{
	return ret ? ret : judge_sock(sock, address, addrlen, NET_CONNECT);
}

/* Setting a source route, by setsockopt(2) or io_uring. */
SEC("lsm/socket_setsockopt")
int BPF_PROG(corral_socket_setsockopt, struct socket *sock, int level,
	     int optname, int ret)
{
	struct net_sock s;
	int r;

	if (ret || !is_source_route(level, optname))
		return ret;
	r = net_sock(sock, &s);
	return r <= 0 ? r : report_route(&s, level, optname);
}

/*
 * listen(2) on a TCP socket never bound binds an ephemeral port on every
 * address: judged as bind-tcp to port 0, as an explicit bind would be.
 */
/* listen(2) on an unbound TCP socket binds an ephemeral port. */
static __always_inline int check_listen(struct socket *sock)
{
	struct net_access a = { .op = CORRAL_NET_BIND_TCP };
	struct net_sock s;
	int r = net_sock(sock, &s);

	if (r <= 0)
		return r;
	if (s.kind != SOCK_TCP)
		return 0;       /* UDP has no listen(2): the kernel refuses */
	if (BPF_CORE_READ(sock, sk, __sk_common.skc_num))
		return 0;       /* bound: judged at bind */
	a.family = s.family == AF_INET6 ? 6 : 4;
	return check_net(s.t, &a, s.family, s.type, s.protocol);
}

SEC("lsm/socket_listen")
int BPF_PROG(corral_socket_listen, struct socket *sock, int backlog, int ret)
{
	return ret ? ret : check_listen(sock);
}

/*
 * A send with an address: UDP sendto/sendmsg, and TCP fast open, which
 * connects from sendmsg without passing through socket_connect.  A send
 * without an address goes to the peer judged at connect; on an unbound
 * UDP socket it binds a port first, judged as bind-udp 0.
 */
SEC("lsm/socket_sendmsg")
int BPF_PROG(corral_socket_sendmsg, struct socket *sock, struct msghdr *msg,
	     int size, int ret)
{
	struct net_sock s;
	void *name;
	int r;

	if (ret)
		return ret;
	r = net_sock(sock, &s);
	if (r <= 0)
		return r;
	r = judge_route(&s, sock) ?: judge_cmsgs(&s, msg);
	name = BPF_CORE_READ(msg, msg_name);
	if (r)
		return r;
	/* A send without an address still binds an unbound UDP socket
	 * (inet_send_prepare, before udp_sendmsg finds it has no peer): the
	 * port stays, and later sends with an address find it bound. */
	if (!name)
		return judge_autobind(&s, sock);
	if (s.kind == SOCK_TCP &&
	    !(BPF_CORE_READ(msg, msg_flags) & MSG_FASTOPEN))
		return 0;       /* TCP ignores the address once connected */
	return judge_addr(&s, sock, name, BPF_CORE_READ(msg, msg_namelen),
			  NET_SEND);
}

/*
 * Under net = rules|none only sockets the rules can judge, or that stay
 * on this machine, can be made.  Kernel-internal sockets are not ours.
 */
SEC("lsm/socket_create")
int BPF_PROG(corral_socket_create, int family, int type, int protocol,
	     int kern, int ret)
{
	struct corral_task tbuf;  /* see task_dom_of() */
	struct corral_task *t;

	if (ret)
		return ret;
	if (kern)
		return 0;
	t = net_task(&tbuf);
	if (!t)
		return 0;
	type &= SOCK_TYPE_MASK;
	switch (family) {
	case AF_UNIX:
	case AF_NETLINK:
	case AF_ALG:
		return 0;
	case AF_INET:
	case AF_INET6:
		if (type == SOCK_STREAM && (!protocol ||
		    protocol == IPPROTO_TCP || protocol == IPPROTO_MPTCP))
			return 0;
		if (type == SOCK_DGRAM && (!protocol || protocol == IPPROTO_UDP))
			return 0;
		break;
	default:
		break;
	}
	return report_net(t, NULL, CORRAL_HOOK_SOCKET, family, type, protocol,
			  -EACCES);
}
