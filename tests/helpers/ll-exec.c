/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ll-exec: the Landlock oracle for corral's differential tests.
 *
 *   ll-exec [--ro P] [--rx P] [--rw P] [--rwx P] [--allow RIGHTS:P]...
 *           [--connect-tcp PORT[-PORT]] [--bind-tcp PORT[-PORT]]
 *           [--connect-udp PORT[-PORT]] [--bind-udp PORT[-PORT]]
 *           [--net=none] [--] CMD ARGS
 *   ll-exec --abi
 *
 * LL_EXEC_ABI=N in the environment makes it act as a kernel with Landlock
 * ABI N (if lower than the real one): a host check of the ABI 2 code paths.
 *
 * Takes corral's rule flags, builds a Landlock ruleset that handles every
 * file-system right the running kernel supports, adds one path-beneath rule
 * per flag (rules on non-directories keep only file rights), sets
 * NO_NEW_PRIVS, restricts itself and execvp()s CMD.  corral's connect-unix
 * right is RESOLVE_UNIX (ABI 9+), which no group of rights holds.  Any network flag or --net=none also makes the ruleset
 * handle every network right the ABI knows (TCP bind and connect from
 * ABI 4, UDP bind and connect/send from ABI 10), with one port rule per
 * port named.
 *
 * Exit status: CMD's own; 125 ll-exec failed (bad flag, missing path,
 * Landlock unavailable); 126 CMD found but not executable; 127 not found.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <linux/landlock.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Debian 12's UAPI header stops at ABI 2; newer rights are fixed numbers. */
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

#define LL_FS_RESOLVE_UNIX (1ULL << 16)     /* ABI 9 */

/* Network rights (ABI 4 and 10), newer than Debian 12's header. */
#define LL_NET_BIND_TCP    (1ULL << 0)
#define LL_NET_CONNECT_TCP (1ULL << 1)
#define LL_NET_BIND_UDP    (1ULL << 2)
#define LL_NET_CONNECT_SEND_UDP (1ULL << 3)
#define LL_RULE_NET_PORT   2

struct ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
};

struct ll_net_port {
	uint64_t allowed_access;
	uint64_t port;
} __attribute__((packed));

#define EXIT_FAIL 125
#define EXIT_NOEXEC 126
#define EXIT_NOTFOUND 127

#define MAKE_ALL                                                            \
	(LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR |       \
	 LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK |       \
	 LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |     \
	 LANDLOCK_ACCESS_FS_MAKE_SYM)

#define FILE_RIGHTS                                                         \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |       \
	 LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_TRUNCATE |       \
	 LANDLOCK_ACCESS_FS_IOCTL_DEV | LL_FS_RESOLVE_UNIX)

/* corral's right names and the Landlock bits they map to */
static const struct {
	const char *name;
	uint64_t bits;
} rights[] = {
	{ "read", LANDLOCK_ACCESS_FS_READ_FILE },
	{ "readdir", LANDLOCK_ACCESS_FS_READ_DIR },
	{ "write", LANDLOCK_ACCESS_FS_WRITE_FILE },
	{ "exec", LANDLOCK_ACCESS_FS_EXECUTE },
	{ "truncate", LANDLOCK_ACCESS_FS_TRUNCATE },
	{ "create", MAKE_ALL },
	{ "remove", LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR },
	{ "refer", LANDLOCK_ACCESS_FS_REFER },
	{ "ioctl", LANDLOCK_ACCESS_FS_IOCTL_DEV },
	{ "connect-unix", LL_FS_RESOLVE_UNIX },
};

#define R_RO (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
#define R_RW                                                                \
	(R_RO | LANDLOCK_ACCESS_FS_WRITE_FILE |                             \
	 LANDLOCK_ACCESS_FS_TRUNCATE |                                      \
	 LANDLOCK_ACCESS_FS_IOCTL_DEV | MAKE_ALL |                          \
	 LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |   \
	 LANDLOCK_ACCESS_FS_REFER)

static const struct {
	const char *flag;
	uint64_t bits;
} groups[] = {
	{ "--ro", R_RO },
	{ "--rx", R_RO | LANDLOCK_ACCESS_FS_EXECUTE },
	{ "--rw", R_RW },
	{ "--rwx", R_RW | LANDLOCK_ACCESS_FS_EXECUTE },
};

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	fputs("ll-exec: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_FAIL);
}

/* The kernel's ABI, capped by $LL_EXEC_ABI (to act as an older kernel). */
static int landlock_abi(void)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
			   LANDLOCK_CREATE_RULESET_VERSION);
	const char *cap = getenv("LL_EXEC_ABI");

	if (abi < 0)
		die("Landlock is not available: %s (hint: boot with lsm=...,landlock)",
		    strerror(errno));
	if (cap && *cap && atoi(cap) > 0 && atoi(cap) < abi)
		abi = atoi(cap);
	return (int)abi;
}

/* Every file-system right the running ABI knows (the sandboxer's switch). */
static uint64_t handled_fs(int abi)
{
	uint64_t h = ((LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1); /* ABI 1 */

	if (abi >= 2)
		h |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		h |= LANDLOCK_ACCESS_FS_TRUNCATE;
	if (abi >= 5)
		h |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
	if (abi >= 9)
		h |= LL_FS_RESOLVE_UNIX;
	return h;
}

/* "read,exec" -> bits; dies on an unknown name */
static uint64_t parse_rights(const char *list, size_t len, const char *arg)
{
	uint64_t bits = 0;
	size_t i, n;
	const char *p = list;

	while (p < list + len) {
		n = strcspn(p, ",");
		if (p + n > list + len)
			n = (size_t)(list + len - p);
		for (i = 0; i < sizeof(rights) / sizeof(rights[0]); i++)
			if (strlen(rights[i].name) == n &&
			    strncmp(rights[i].name, p, n) == 0)
				break;
		if (i == sizeof(rights) / sizeof(rights[0]))
			die("--allow %s: unknown right '%.*s'", arg, (int)n, p);
		bits |= rights[i].bits;
		p += n + 1;
	}
	if (!bits)
		die("--allow %s: no rights before ':'", arg);
	return bits;
}

static void add_rule(int ruleset, const char *path, uint64_t bits,
		     uint64_t handled)
{
	struct landlock_path_beneath_attr pb = { 0 };
	struct stat st;

	pb.parent_fd = open(path, O_PATH | O_CLOEXEC);
	if (pb.parent_fd < 0)
		die("cannot open rule path %s: %s", path, strerror(errno));
	if (fstat(pb.parent_fd, &st) < 0)
		die("cannot stat rule path %s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		bits &= FILE_RIGHTS;
	pb.allowed_access = bits & handled;
	if (pb.allowed_access &&
	    syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH,
		    &pb, 0) < 0)
		die("cannot add a rule for %s: %s", path, strerror(errno));
	close(pb.parent_fd);
}

static const struct {
	const char *flag;
	uint64_t right;
	int abi;
} net_flags[] = {
	{ "--connect-tcp", LL_NET_CONNECT_TCP, 4 },
	{ "--bind-tcp", LL_NET_BIND_TCP, 4 },
	{ "--connect-udp", LL_NET_CONNECT_SEND_UDP, 10 },
	{ "--bind-udp", LL_NET_BIND_UDP, 10 },
};

/* The Landlock right of a network flag, 0 if @arg is none */
static uint64_t net_flag_right(const char *arg)
{
	for (size_t i = 0; i < sizeof(net_flags) / sizeof(net_flags[0]); i++)
		if (!strcmp(arg, net_flags[i].flag))
			return net_flags[i].right;
	return 0;
}

static int is_net_flag(const char *arg)
{
	return net_flag_right(arg) || !strcmp(arg, "--net=none");
}

/* Every network right Landlock @abi knows. */
static uint64_t handled_net(int abi)
{
	uint64_t h = 0;

	for (size_t i = 0; i < sizeof(net_flags) / sizeof(net_flags[0]); i++)
		if (abi >= net_flags[i].abi)
			h |= net_flags[i].right;
	return h;
}

/* --connect-tcp 80 or 8000-8099: one Landlock rule per port. */
static void add_net_rule(int ruleset, const char *flag, const char *ports,
			 uint64_t handled)
{
	struct ll_net_port np = { 0 };
	char *end;
	unsigned long lo = strtoul(ports, &end, 10), hi = lo;

	if (*end == '-')
		hi = strtoul(end + 1, &end, 10);
	if (*end || hi > 65535 || lo > hi)
		die("%s %s: expected PORT or PORT-PORT", flag, ports);
	np.allowed_access = net_flag_right(flag) & handled;
	if (!np.allowed_access)
		die("%s: this kernel's Landlock has no such right", flag);
	for (unsigned long p = lo; p <= hi; p++) {
		np.port = p;
		if (syscall(SYS_landlock_add_rule, ruleset, LL_RULE_NET_PORT,
			    &np, 0) < 0)
			die("cannot add a rule for %s %lu: %s", flag, p,
			    strerror(errno));
	}
}

/* Returns the index of CMD in argv after adding every rule. */
static int parse_rules(int argc, char **argv, int ruleset, uint64_t handled,
		       uint64_t net)
{
	const char *colon;
	size_t g;
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return i + 1;
		if (strncmp(argv[i], "--", 2) != 0)
			return i;
		if (!strcmp(argv[i], "--net=none"))
			continue;
		if (i + 1 >= argc)
			die("%s needs an argument", argv[i]);
		if (is_net_flag(argv[i])) {
			add_net_rule(ruleset, argv[i], argv[i + 1], net);
			i++;
			continue;
		}
		if (strcmp(argv[i], "--allow") == 0) {
			colon = strchr(argv[i + 1], ':');
			if (!colon || !colon[1])
				die("--allow %s: expected RIGHTS:PATH", argv[i + 1]);
			add_rule(ruleset, colon + 1,
				 parse_rights(argv[i + 1],
					      (size_t)(colon - argv[i + 1]),
					      argv[i + 1]),
				 handled);
			i++;
			continue;
		}
		for (g = 0; g < sizeof(groups) / sizeof(groups[0]); g++)
			if (strcmp(argv[i], groups[g].flag) == 0)
				break;
		if (g == sizeof(groups) / sizeof(groups[0]))
			die("unknown option %s", argv[i]);
		add_rule(ruleset, argv[i + 1], groups[g].bits, handled);
		i++;
	}
	return i;
}

int main(int argc, char **argv)
{
	struct ll_ruleset_attr attr = { 0 };
	size_t size = sizeof(attr.handled_access_fs);
	int abi, ruleset, cmd;

	if (argc == 2 && strcmp(argv[1], "--abi") == 0) {
		printf("%d\n", landlock_abi());
		return 0;
	}
	abi = landlock_abi();
	attr.handled_access_fs = handled_fs(abi);
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (is_net_flag(argv[i])) {
			if (abi < 4)
				die("%s: Landlock ABI %d has no network rights "
				    "(4 needed)", argv[i], abi);
			attr.handled_access_net = handled_net(abi);
			size = sizeof(attr);
		}
	ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
	if (ruleset < 0)
		die("cannot create a Landlock ruleset (ABI %d): %s", abi,
		    strerror(errno));
	cmd = parse_rules(argc, argv, ruleset, attr.handled_access_fs,
			  attr.handled_access_net);
	if (cmd >= argc)
		die("no command given (usage: ll-exec [--ro|--rx|--rw|--rwx PATH] "
		    "[--allow RIGHTS:PATH]... [--] CMD [ARGS...])");
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		die("cannot set no_new_privs: %s", strerror(errno));
	if (syscall(SYS_landlock_restrict_self, ruleset, 0) < 0)
		die("cannot enforce the Landlock ruleset: %s", strerror(errno));
	close(ruleset);
	execvp(argv[cmd], argv + cmd);
	fprintf(stderr, "ll-exec: %s: %s\n", argv[cmd], strerror(errno));
	return errno == ENOENT ? EXIT_NOTFOUND : EXIT_NOEXEC;
}
