/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * policy.h - what a sandbox may touch: a list of {path, rights} rules,
 * built from the command line (and later profiles), engine-independent.
 */
#ifndef CORRAL_POLICY_H
#define CORRAL_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "corral_abi.h"

/*
 * Every right once: its bit, the name flags, profiles and messages use,
 * and the first Landlock ABI that enforces it (engine_landlock.c).
 */
#define CORRAL_RIGHTS(X)				\
	X(CORRAL_ACCESS_READ, "read", 1)		\
	X(CORRAL_ACCESS_READDIR, "readdir", 1)		\
	X(CORRAL_ACCESS_WRITE, "write", 1)		\
	X(CORRAL_ACCESS_EXEC, "exec", 1)		\
	X(CORRAL_ACCESS_TRUNCATE, "truncate", 3)	\
	X(CORRAL_ACCESS_CREATE, "create", 1)		\
	X(CORRAL_ACCESS_REMOVE, "remove", 1)		\
	X(CORRAL_ACCESS_REFER, "refer", 2)		\
	X(CORRAL_ACCESS_IOCTL, "ioctl", 5)		\
	X(CORRAL_ACCESS_CONNECT_UNIX, "connect-unix", 9)

/* The groups of rights, smallest first: --ro, ro = ... (DESIGN.md
 * section 2).  None holds connect-unix: a directory the sandbox may
 * write does not hand it the servers bound there (tmux, ssh-agent,
 * X11, D-Bus); a socket it needs is named with connect-unix. */
#define CORRAL_GROUPS(X)		\
	X(CORRAL_GROUP_RO, "ro")	\
	X(CORRAL_GROUP_RX, "rx")	\
	X(CORRAL_GROUP_RW, "rw")	\
	X(CORRAL_GROUP_RWX, "rwx")

#define CORRAL_GROUP_RO  (CORRAL_ACCESS_READ | CORRAL_ACCESS_READDIR)
#define CORRAL_GROUP_RX  (CORRAL_GROUP_RO | CORRAL_ACCESS_EXEC)
#define CORRAL_GROUP_RW  (CORRAL_GROUP_RO | CORRAL_ACCESS_WRITE | \
			  CORRAL_ACCESS_TRUNCATE | CORRAL_ACCESS_IOCTL | \
			  CORRAL_ACCESS_CREATE | CORRAL_ACCESS_REMOVE | \
			  CORRAL_ACCESS_REFER)
#define CORRAL_GROUP_RWX (CORRAL_GROUP_RW | CORRAL_ACCESS_EXEC)

/*
 * A rule allows (access) or denies (deny) rights beneath its path: the
 * rights on a path are the union of the allows on the way to it minus
 * the union of the denies (corral_rights() in corral_abi.h).
 */
struct policy_rule {
	char *path;        /* as the user wrote it */
	uint32_t access;   /* enum corral_access bits allowed */
	uint32_t deny;     /* enum corral_access bits denied (deny rules) */
	char *origin;      /* "--rw on the command line", "profile x.profile:7" */
	bool optional;     /* "-" prefix: skipped if the path does not exist */
	size_t cache;      /* cache = PATH: the length of the ${HOME} it is
			      below, made if missing (cache_dir.h); or 0 */
	bool name_only;    /* a deny of making path's last name in its
			      directory, which exists; path does not
			      (protected.c, CORRAL_NAME_LEN) */
};

/* A rule whose path the launcher opened O_PATH, ready for an engine. */
struct opened_rule {
	int fd;
	uint32_t access;   /* file rights only if fd is not a directory */
	uint32_t deny;     /* the same, denied */
	const char *name;  /* a name rule: fd is the directory, deny is of
			      making this entry in it; else NULL */
};

/*
 * [sandbox] settings of a profile (DESIGN.md sections 2 and 5):
 *
 *   exec-anonymous = yes|no       exec of memfd and other anonymous files
 *   unix-connect   = scoped|allow abstract unix sockets scoped like
 *                                 Landlock ABI 6, or not
 *   require        = bpf|any      refuse to run without the BPF engine
 *   quiet          = yes|no       no warning line when Landlock is used
 *   userns         = yes|no       the command may make user namespaces
 *   sysv-ipc       = yes|no       on the Landlock engine, SysV IPC is
 *                                 allowed (unscoped) rather than refused
 *
 * profile_keys.c parses and merges them (a later setting replaces an
 * earlier one) and --print-profile prints them; launch.c hands them to
 * the engines (exec-anonymous and unix-connect to the BPF programs,
 * userns and sysv-ipc to the Landlock engine's seccomp filters, require
 * to --engine=auto).  POLICY_UNSET means no profile said anything: the
 * default applies (exec-anonymous no, unix-connect scoped, require any,
 * userns no, sysv-ipc no).
 */
/* Each [sandbox] setting: its enum and its key. */
#define POLICY_SETTINGS(X)				\
	X(POLICY_EXEC_ANONYMOUS, "exec-anonymous")	\
	X(POLICY_UNIX_CONNECT, "unix-connect")		\
	X(POLICY_REQUIRE, "require")			\
	X(POLICY_QUIET, "quiet")			\
	X(POLICY_USERNS, "userns")			\
	X(POLICY_SYSV_IPC, "sysv-ipc")

/* Each value a setting can take, and its word. */
#define POLICY_VALUES(X)			\
	X(POLICY_NO, "no")       /* the yes|no settings */ \
	X(POLICY_YES, "yes")				\
	X(POLICY_SCOPED, "scoped") /* unix-connect */	\
	X(POLICY_ALLOW, "allow")			\
	X(POLICY_ANY, "any")     /* require */		\
	X(POLICY_BPF, "bpf")

#define POLICY_ENUM(e, word) e,
enum policy_setting {
	POLICY_SETTINGS(POLICY_ENUM)
	POLICY_N_SETTINGS,
};

enum policy_value {
	POLICY_UNSET = 0,
	POLICY_VALUES(POLICY_ENUM)
};
#undef POLICY_ENUM

/* "exec-anonymous"; "yes", or "?" for POLICY_UNSET. */
const char *policy_setting_key(enum policy_setting setting);
const char *policy_value_word(enum policy_value value);

struct policy_sandbox {
	enum policy_value value[POLICY_N_SETTINGS];
	char *origin[POLICY_N_SETTINGS];   /* where each was set, or NULL */
};

/*
 * [environment] unset = NAME or PREFIX*: variables the command does not
 * get (it gets the rest of the user's environment).
 */
struct policy_unset {
	char *name;          /* "NPM_TOKEN", or "AWS_*" */
	char *origin;
};

#define POLICY_VAR_NAME_MAX 63   /* bytes, '*' included */

/*
 * [network] (netrule.h parses it):
 *
 *   net = all      no network rules: IP sockets are not confined (the
 *                  default when no rule is given anywhere and no
 *                  profile is read)
 *   net = none     no bind, connect or send on IP sockets at all (the
 *                  default when profiles are read and none of them, nor
 *                  the command line, says anything about the network)
 *   net = rules    only what the rules allow (implied by a rule)
 *
 *   connect-tcp = [ADDR[/N]:]PORT[-PORT]   and bind-tcp, connect-udp,
 *   bind-udp; IPv6 addresses in brackets: [::1]:8080, [fd00::/8]:443
 *
 * The rules are a plain array of fixed-size structs (no pointers), so the
 * policy can cross a process boundary as it is; where each came from is
 * kept beside them for --print-profile and messages only.
 */
enum policy_net_mode {
	POLICY_NET_UNSET = 0,   /* no setting and no rule: as all (profiles
				   make it none: cli_load_profiles()) */
	POLICY_NET_ALL,
	POLICY_NET_NONE,
	POLICY_NET_RULES,
};

/*
 * Where the mode comes from when nothing set it: none for a launch with
 * profiles (cli_load_profiles()), all for rules from the command line
 * alone (--print-profile says which).
 */
#define POLICY_NET_DEFAULT_NONE "default: no profile asks for the network"
#define POLICY_NET_DEFAULT_ALL "default: no network rule, not confined"

struct policy_net_rule {
	uint8_t op;          /* one CORRAL_NET_* bit (corral_abi.h) */
	uint8_t family;      /* 0 any address, 4 IPv4, 6 IPv6 */
	uint8_t prefix_len;  /* bits of addr that count: 0-32 or 0-128 */
	uint8_t reserved;
	uint16_t port_lo;    /* inclusive, host byte order */
	uint16_t port_hi;
	uint8_t addr[16];    /* network byte order; IPv4 in the first 4 */
};

#define POLICY_MAX_NET_RULES CORRAL_MAX_NET_RULES

/*
 * A rule on a host name ("github.com:443"), kept as written until the
 * name is resolved at launch (resolve.h); each address it resolves to
 * then becomes one policy_net_rule.  Parser-side only: never crosses to
 * the launcher as such.
 */
#define POLICY_HOST_NAME_MAX 253        /* bytes, as in DNS */
#define POLICY_MAX_HOST_ADDRS 16        /* addresses kept per name */

struct policy_net_host {
	char name[POLICY_HOST_NAME_MAX + 1];
	struct policy_net_rule rule;    /* op and ports; no address yet */
	bool optional;                  /* written -NAME:PORT */
	char *origin;
	/* filled by resolve_hosts(): */
	bool resolved;
	char *error;                    /* why it did not resolve, or NULL */
	size_t n_addrs;
	struct policy_net_rule addrs[POLICY_MAX_HOST_ADDRS];
};

struct policy {
	struct policy_rule *rules;
	size_t n_rules;
	size_t cap_rules;
	struct policy_sandbox sandbox;
	struct policy_unset *unset;
	size_t n_unset;
	enum policy_net_mode net_mode;
	size_t n_net;
	struct policy_net_rule net[POLICY_MAX_NET_RULES];
	/* for --print-profile and messages only, beside the fixed structs */
	char *net_mode_origin;
	char *net_origin[POLICY_MAX_NET_RULES];
	/* rules on host names, resolved at launch (parser side only) */
	struct policy_net_host *hosts;
	size_t n_hosts;
};

/*
 * Parses "read,exec" or a group name ("rw") into access bits.  Returns 0,
 * or -EINVAL with *bad pointing at the first unknown name.
 */
int rights_parse(const char *text, uint32_t *access, const char **bad);
/* Writes "read,readdir,exec" for @access into @buf; returns @buf. */
char *rights_format(uint32_t access, char *buf, size_t size);
/* Access bits of a group name ("ro", "rx", "rw", "rwx"), or 0. */
uint32_t rights_group(const char *name);
/* The group @access is exactly ("rw"), or NULL. */
const char *rights_group_name(uint32_t access);
/* The name of the one right @bit ("truncate"), or NULL. */
const char *right_name(uint32_t bit);
/* The first Landlock ABI that enforces the right @bit. */
int right_landlock_abi(uint32_t bit);
/* "rights: read, ..., ioctl; groups: ro, rx, rw, rwx", for errors. */
const char *rights_hint(void);

void policy_add(struct policy *policy, const char *path, uint32_t access,
		const char *origin);
void policy_add_optional(struct policy *policy, const char *path,
			 uint32_t access, const char *origin);
/* A deny rule: @deny rights are taken away beneath @path. */
void policy_add_deny(struct policy *policy, const char *path, uint32_t deny,
		     bool optional, const char *origin);
/*
 * Each rule whose path is relative (a flag's: profiles refuse them)
 * made absolute from @cwd, "./" dropped, so that --print-profile's
 * output reads back from any directory.  @cwd NULL: left as they are.
 */
void policy_absolute(struct policy *policy, const char *cwd);
/* Appends a copy of @rule (allow or deny, optional or not). */
void policy_copy_rule(struct policy *policy, const struct policy_rule *rule);
/* Does any rule deny? */
bool policy_has_deny(const struct policy *policy);
/* Sets a [sandbox] setting, replacing any earlier value and origin. */
void policy_set(struct policy *policy, enum policy_setting which,
		enum policy_value value, const char *origin);
/* Is @name a variable name, optionally ending in '*' (a prefix)? */
bool policy_var_pattern_ok(const char *name);
/* Does variable @entry ("NAME=value") match @pattern? */
bool policy_var_matches(const char *pattern, const char *entry);
void policy_add_unset(struct policy *policy, const char *name,
		      const char *origin);
/*
 * Adds a network rule; the first one implies net = rules unless a later
 * setting says otherwise.  Returns 0, or -ENOSPC past
 * POLICY_MAX_NET_RULES.
 */
int policy_add_net(struct policy *policy, const struct policy_net_rule *rule,
		   const char *origin);
/*
 * A connect-udp rule implies bind-udp = 0 (an ephemeral port, any
 * address) when there is no bind-udp rule (with one, binding is the
 * rules' to say, port 0 included): a send from a socket
 * never bound binds one, which Landlock (ABI 10's rule) and the bpf
 * engine judge as a bind to port 0, so every such send would fail.
 * 0, or -ENOSPC.
 */
#define POLICY_UDP_BIND_IMPLIED "implied by connect-udp: a send from an " \
				"unbound socket binds port 0"
int policy_imply_udp_bind(struct policy *policy);
/*
 * Adds a rule on a host name, to be resolved at launch; like
 * policy_add_net(), it implies net = rules.
 */
void policy_add_host(struct policy *policy, const char *name,
		     const struct policy_net_rule *rule, bool optional,
		     const char *origin);
/*
 * Adds the addresses each resolved host name gave as network rules, with
 * the name's origin.  Returns 0, or -ENOSPC past POLICY_MAX_NET_RULES
 * with *@full set to the host whose addresses did not fit.
 */
int policy_add_host_addrs(struct policy *policy,
			  const struct policy_net_host **full);
/* Sets net = all|none|rules, replacing any earlier setting. */
void policy_set_net_mode(struct policy *policy, enum policy_net_mode mode,
			 const char *origin);
/* The mode in force: POLICY_NET_UNSET reads as POLICY_NET_ALL. */
enum policy_net_mode policy_net_mode(const struct policy *policy);

/* The first network rule of @policy that carries one of @ops
 * (CORRAL_NET_*), or (@ops 0) that names an address; NULL if none. */
const struct policy_net_rule *
policy_first_net_rule(const struct policy *policy, uint8_t ops);
void policy_free(struct policy *policy);

#endif /* CORRAL_POLICY_H */
