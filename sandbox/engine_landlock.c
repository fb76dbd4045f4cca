// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engine_landlock.c - corral's policy through kernel Landlock.
 *
 * Every right the running ABI knows is handled (denied unless a rule
 * grants it); rights of newer ABIs are simply not enforced, and the
 * fallback warning says which.  ABI 6 also scopes signals and abstract
 * unix sockets to the sandbox, ABI 9 makes a named unix socket need the
 * connect-unix right (RESOLVE_UNIX) and ABI 10 confines UDP ports, as
 * the bpf engine does.
 */
#include "config.h"

#include "engine_landlock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <linux/landlock.h>
#include <stdio.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "corral_abi.h"
#include "inode_way.h"
#include "landlock_deny.h"
#include "netrule.h"
#include "seccomp_load.h"
#include "util.h"

/* Newer than Debian 12's UAPI header. */
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif
/* Connecting or sending to a named unix socket (ABI 9). */
#define CORRAL_LL_FS_RESOLVE_UNIX (1ULL << 16)
/* Network rights and rules (TCP: ABI 4, Linux 6.7; UDP: ABI 10). */
#define CORRAL_LL_NET_BIND_TCP    (1ULL << 0)
#define CORRAL_LL_NET_CONNECT_TCP (1ULL << 1)
#define CORRAL_LL_NET_BIND_UDP    (1ULL << 2)
#define CORRAL_LL_NET_CONNECT_SEND_UDP (1ULL << 3)
#define CORRAL_LL_RULE_NET_PORT   2
#define CORRAL_LL_ABI_UDP         10

struct net_port_attr {
	__u64 allowed_access;
	__u64 port;
} __attribute__((packed));

#define CORRAL_LL_SCOPE_ABSTRACT_UNIX (1ULL << 0)
#define CORRAL_LL_SCOPE_SIGNAL        (1ULL << 1)

/* struct landlock_ruleset_attr as of ABI 6; its size tells the ABI. */
struct ruleset_attr {
	__u64 handled_access_fs;
	__u64 handled_access_net;
	__u64 scoped;
};

#define LL_MAKE (LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | \
		 LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK | \
		 LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK | \
		 LANDLOCK_ACCESS_FS_MAKE_SYM)

/* What each right is in Landlock; a row with an ABI of its own is a
 * later part of the right (from that ABI), not a right of its own. */
static const struct {
	uint32_t corral;
	__u64 landlock;
	int abi;              /* 0: the right's own (right_landlock_abi) */
} right_map[] = {
	{ CORRAL_ACCESS_READ, LANDLOCK_ACCESS_FS_READ_FILE, 0 },
	{ CORRAL_ACCESS_READDIR, LANDLOCK_ACCESS_FS_READ_DIR, 0 },
	{ CORRAL_ACCESS_WRITE, LANDLOCK_ACCESS_FS_WRITE_FILE, 0 },
	{ CORRAL_ACCESS_EXEC, LANDLOCK_ACCESS_FS_EXECUTE, 0 },
	{ CORRAL_ACCESS_CREATE, LL_MAKE, 0 },
	{ CORRAL_ACCESS_REMOVE, LANDLOCK_ACCESS_FS_REMOVE_DIR |
				LANDLOCK_ACCESS_FS_REMOVE_FILE, 0 },
	{ CORRAL_ACCESS_REFER, LANDLOCK_ACCESS_FS_REFER, 0 },
	{ CORRAL_ACCESS_TRUNCATE, LANDLOCK_ACCESS_FS_TRUNCATE, 0 },
	{ CORRAL_ACCESS_IOCTL, LANDLOCK_ACCESS_FS_IOCTL_DEV, 0 },
	{ CORRAL_ACCESS_CONNECT_UNIX, CORRAL_LL_FS_RESOLVE_UNIX, 0 },
};

#define N_RIGHTS (sizeof(right_map) / sizeof(right_map[0]))
/* The newest ABI that brought a file right (connect-unix) */
#define LANDLOCK_RIGHTS_ABI 9

int landlock_abi(void)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
			   LANDLOCK_CREATE_RULESET_VERSION);

	return abi < 0 ? 0 : (int)abi;
}

static __u64 to_landlock(uint32_t access, int abi)
{
	__u64 ll = 0;

	for (size_t i = 0; i < N_RIGHTS; i++) {
		int first = right_map[i].abi ? right_map[i].abi :
			    right_landlock_abi(right_map[i].corral);

		if ((access & right_map[i].corral) && abi >= first)
			ll |= right_map[i].landlock;
	}
	return ll;
}

const char *landlock_limits(int abi, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	/* in the order Landlock added them */
	for (int level = abi + 1; level <= LANDLOCK_RIGHTS_ABI; level++)
		for (uint32_t bit = 1; bit & CORRAL_ACCESS_ALL && used < size;
		     bit <<= 1)
			if (right_landlock_abi(bit) == level)
				used += (size_t)snprintf(buf + used,
							 size - used,
							 "the %s right, ",
							 right_name(bit));
	if (abi < 6 && used < size)
		used += (size_t)snprintf(buf + used, size - used,
					 "signal and abstract-socket scoping, ");
	if (used < size)
		snprintf(buf + used, size - used, "the refusal of writes to "
			 "another process's /proc/PID files (/proc allowed "
			 "rw), confining SysV IPC to the sandbox (refused, or "
			 "unscoped under sysv-ipc = yes; prlimit, renice, "
			 "ionice and scheduling may name only the caller; "
			 "memfds that could be executed are refused unless "
			 "exec-anonymous = yes)");
	return buf;
}

static size_t attr_size(int abi)
{
	if (abi >= 6)
		return sizeof(struct ruleset_attr);
	if (abi >= 4)
		return offsetof(struct ruleset_attr, scoped);
	return offsetof(struct ruleset_attr, handled_access_net);
}

static int add_rule(int ruleset, const struct opened_rule *rule, int abi)
{
	struct landlock_path_beneath_attr beneath = {
		.allowed_access = to_landlock(rule->access, abi),
		.parent_fd = rule->fd,
	};
	char buf[PATH_MAX];

	if (!beneath.allowed_access)
		return 0;       /* nothing this ABI can grant */
	if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH,
		    &beneath, 0) < 0)
		return error_errno(errno, "%s: adding its Landlock rule",
				   fd_name(rule->fd, buf, sizeof(buf)));
	return 0;
}

enum corral_seccomp_net landlock_net_filter(const struct policy *policy,
					    int abi)
{
	switch (policy_net_mode(policy)) {
	case POLICY_NET_NONE:
		return CORRAL_SECCOMP_NET_NONE;
	case POLICY_NET_RULES:
		if (abi < CORRAL_LL_ABI_UDP &&
		    !policy_first_net_rule(policy, CORRAL_NET_CONNECT_UDP |
					    CORRAL_NET_BIND_UDP))
			return CORRAL_SECCOMP_NET_NO_UDP;
		return CORRAL_SECCOMP_NET_RULES;
	default:
		return CORRAL_SECCOMP_NET_OFF;
	}
}

/*
 * Does an allow with the write right reach /proc (on it, above it, or on
 * a file of a procfs)?  Under Landlock the sandbox may then write other
 * processes' /proc/PID files (comm, oom_score_adj): their pids come after
 * the launch, so no rule can leave them out, and a write(2) shows seccomp
 * no path.
 */
bool landlock_writes_proc(const struct opened_rule *rules, size_t n)
{
	static struct inode_way proc;
	struct statfs sfs;
	struct stat st;
	int fd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);

	proc.n = 0;
	if (fd >= 0) {
		inode_way_up(fd, &proc);
		close(fd);
	}
	for (size_t i = 0; i < n; i++) {
		if (rules[i].deny || !(rules[i].access & CORRAL_ACCESS_WRITE))
			continue;
		if (!fstatfs(rules[i].fd, &sfs) && sfs.f_type == PROC_SUPER_MAGIC)
			return true;
		if (!fstat(rules[i].fd, &st) &&
		    inode_way_has(&proc, st.st_dev, st.st_ino))
			return true;
	}
	return false;
}

const char *landlock_net_gap(const struct policy *policy, int abi,
			     char *buf, size_t size)
{
	/* the first gap that applies, naming the first rule it concerns */
	const struct {
		bool applies;
		uint8_t ops;            /* 0: a rule with an address */
		const char *why;        /* an address rule's port follows */
	} gaps[] = {
		{ abi < 4, 0xff, "it has no network rights (TCP needs ABI 4, "
				 "UDP ABI 10)" },
		{ abi < CORRAL_LL_ABI_UDP,
		  CORRAL_NET_CONNECT_UDP | CORRAL_NET_BIND_UDP,
		  "it has no UDP rights (ABI 10)" },
		{ true, 0, "it checks ports only, so the rule would allow "
			   "port" },
	};
	const struct policy_net_rule *r;
	char rule[96];

	_Static_assert(CORRAL_LL_ABI_UDP == 10, "the gaps' text says 10");
	if (policy_net_mode(policy) != POLICY_NET_RULES)
		return NULL;
	for (size_t i = 0; i < sizeof(gaps) / sizeof(*gaps); i++) {
		if (!gaps[i].applies ||
		    !(r = policy_first_net_rule(policy, gaps[i].ops)))
			continue;
		if (gaps[i].ops)
			snprintf(buf, size, "'%s = %s': %s",
				 netrule_op_name(r->op),
				 netrule_format(r, rule, sizeof(rule)),
				 gaps[i].why);
		else
			snprintf(buf, size, "'%s = %s': %s %u on every address",
				 netrule_op_name(r->op),
				 netrule_format(r, rule, sizeof(rule)),
				 gaps[i].why, r->port_lo);
		return buf;
	}
	return NULL;
}

const char *landlock_net_brief(const struct policy *policy, int abi)
{
	static char buf[64];
	bool tcp, udp, addr;

	if (policy_net_mode(policy) != POLICY_NET_RULES)
		return NULL;    /* all: asked for none; none: all refused */
	tcp = abi < 4;
	udp = abi < CORRAL_LL_ABI_UDP &&
	      landlock_net_filter(policy, abi) != CORRAL_SECCOMP_NET_NO_UDP;
	addr = policy_first_net_rule(policy, 0);
	if (!tcp && !udp && !addr)
		return NULL;
	snprintf(buf, sizeof(buf), "%s%s%s%s%s", tcp ? "TCP unconfined" : "",
		 tcp && (udp || addr) ? ", " : "", udp ? "UDP unconfined" : "",
		 udp && addr ? ", " : "", addr ? "addresses unchecked" : "");
	return buf;
}

const char *landlock_net_limits(int abi, char *buf, size_t size)
{
	if (abi < 4)
		snprintf(buf, size, "Landlock ABI %d has no network rights "
			 "(TCP needs ABI 4, Linux 6.7): net = none refuses every "
			 "IP socket (seccomp); network rules do not launch "
			 "(--net-best-effort: unenforced)", abi);
	else if (abi < CORRAL_LL_ABI_UDP)
		snprintf(buf, size, "Landlock ABI %d confines TCP ports only: "
			 "addresses are not checked (a rule allows its port on "
			 "every address); net = none, and rules without UDP, "
			 "refuse UDP sockets (seccomp); UDP rules (ABI 10) and "
			 "address rules do not launch (--net-best-effort: "
			 "unenforced); raw, packet and SCTP sockets are "
			 "refused (seccomp)", abi);
	else
		snprintf(buf, size, "Landlock ABI %d confines TCP and UDP "
			 "ports only: address rules do not launch "
			 "(--net-best-effort: the port on every address); raw, "
			 "packet and SCTP sockets are refused (seccomp)", abi);
	return buf;
}

static __u64 net_handled(const struct policy *policy, int abi)
{
	if (abi < 4 || policy_net_mode(policy) == POLICY_NET_ALL)
		return 0;
	if (abi < CORRAL_LL_ABI_UDP)
		return CORRAL_LL_NET_BIND_TCP | CORRAL_LL_NET_CONNECT_TCP;
	return CORRAL_LL_NET_BIND_TCP | CORRAL_LL_NET_CONNECT_TCP |
	       CORRAL_LL_NET_BIND_UDP | CORRAL_LL_NET_CONNECT_SEND_UDP;
}

static __u64 net_right(uint32_t op)
{
	switch (op) {
	case CORRAL_NET_CONNECT_TCP: return CORRAL_LL_NET_CONNECT_TCP;
	case CORRAL_NET_BIND_TCP: return CORRAL_LL_NET_BIND_TCP;
	case CORRAL_NET_CONNECT_UDP: return CORRAL_LL_NET_CONNECT_SEND_UDP;
	case CORRAL_NET_BIND_UDP: return CORRAL_LL_NET_BIND_UDP;
	default: return 0;
	}
}

/* One Landlock rule per port: Landlock has no ranges. */
static int add_net_rule(int ruleset, const struct policy_net_rule *r,
			__u64 handled)
{
	struct net_port_attr port = { 0 };
	char text[96];

	port.allowed_access = net_right(r->op) & handled;
	if (!port.allowed_access)
		return 0;       /* UDP before ABI 10: the warning says so */
	for (unsigned p = r->port_lo; p <= r->port_hi; p++) {
		port.port = p;
		if (syscall(SYS_landlock_add_rule, ruleset,
			    CORRAL_LL_RULE_NET_PORT, &port, 0) < 0)
			return error_errno(errno, "%s = %s: adding its "
					   "Landlock rule for port %u",
					   netrule_op_name(r->op),
					   netrule_format(r, text,
							  sizeof(text)), p);
	}
	return 0;
}

static int add_net_rules(int ruleset, const struct policy *policy, int abi)
{
	__u64 handled = net_handled(policy, abi);

	if (!handled || policy_net_mode(policy) != POLICY_NET_RULES)
		return 0;
	for (size_t i = 0; i < policy->n_net; i++) {
		int r = add_net_rule(ruleset, &policy->net[i], handled);

		if (r < 0)
			return r;
	}
	return 0;
}

struct grant_ctx {
	int ruleset;
	int abi;
};

static int grant_rule(void *ctx, int fd, uint32_t access)
{
	const struct grant_ctx *c = ctx;
	const struct opened_rule rule = { .fd = fd, .access = access };

	return add_rule(c->ruleset, &rule, c->abi);
}

int engine_landlock_apply(const struct opened_rule *rules, size_t n,
			  const struct policy *policy)
{
	int abi = landlock_abi();
	struct ruleset_attr attr = {
		.handled_access_fs = to_landlock(CORRAL_ACCESS_ALL, abi),
		.handled_access_net = net_handled(policy, abi),
		.scoped = abi >= 6 ? CORRAL_LL_SCOPE_ABSTRACT_UNIX |
				     CORRAL_LL_SCOPE_SIGNAL : 0,
	};
	_cleanup_close_ int ruleset = -1;
	struct grant_ctx ctx;

	if (!abi) {
		warn_msg("Landlock is not available in this kernel (hint: boot "
			 "with lsm=...,landlock, see corral-setup(8))");
		return -EOPNOTSUPP;
	}
	ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr,
			       attr_size(abi), 0);
	if (ruleset < 0)
		return error_errno(errno, "creating a Landlock ruleset (ABI %d)",
				   abi);
	ctx.ruleset = ruleset;
	ctx.abi = abi;
	if (landlock_expand_denies(rules, n, grant_rule, &ctx, NULL, 0) < 0)
		return -EOPNOTSUPP;
	if (add_net_rules(ruleset, policy, abi) < 0)
		return -EINVAL;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return error_errno(errno, "setting NO_NEW_PRIVS");
	if (syscall(SYS_landlock_restrict_self, ruleset, 0) < 0)
		return error_errno(errno, "entering the Landlock ruleset");
	return 0;
}
