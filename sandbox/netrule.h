/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * netrule.h - network rules as a user writes them, to and from struct
 * policy_net_rule:
 *
 *   443                 port 443, any address
 *   8000-8099           a range of ports, inclusive
 *   0                   bind: an ephemeral port (as Landlock: only where
 *                       a rule allows port 0)
 *   127.0.0.1:5432      an IPv4 address and a port
 *   10.0.0.0/8:443      an IPv4 prefix (host bits must be zero)
 *   [::1]:8080          an IPv6 address, in brackets
 *   [fd00::/8]:443      an IPv6 prefix
 *   [::ffff:1.2.3.4]:80 an IPv4-mapped address: the same as 1.2.3.4:80
 *
 *   resolvers:53        each nameserver of /etc/resolv.conf (glibc's
 *                       127.0.0.1 and ::1 when it lists none), read when
 *                       the profile is
 *   github.com:443      each address the name has, resolved once at
 *                       launch (resolve.h); -name:443 skips a name that
 *                       does not resolve instead of refusing to run
 *
 * A value may hold several, separated by commas or blanks.
 */
#ifndef CORRAL_NETRULE_H
#define CORRAL_NETRULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy.h"

/* The CORRAL_NET_* bit of "connect-tcp", "bind-udp"...; 0 if unknown. */
uint8_t netrule_op(const char *name);
/* "connect-tcp" for CORRAL_NET_CONNECT_TCP; "?" if not one bit. */
const char *netrule_op_name(uint8_t op);

/*
 * Parses one rule @text for @op into @rule.  Returns 0, or -EINVAL with
 * a phrase in @why saying what is wrong and how to write it.
 */
int netrule_parse(const char *text, uint8_t op, struct policy_net_rule *rule,
		  char *why, size_t size);

/* Where netrule_parse_list() puts what it parses. */
struct netrule_sink {
	int (*add)(const struct policy_net_rule *rule, void *data);
	/* a rule on a host name: @rule has the op and ports */
	int (*add_host)(const char *name, const struct policy_net_rule *rule,
			bool optional, void *data);
	void *data;
};

/*
 * Parses a value holding rules separated by commas or blanks, passing
 * each to @sink.  Returns 0, the first negative result of a callback, or
 * -EINVAL with @why filled (naming the bad item).
 */
int netrule_parse_list(const char *text, uint8_t op,
		       const struct netrule_sink *sink, char *why,
		       size_t size);

/* Is @name a host name a rule may hold (RFC 1123 letters, digits, '-'
 * and '.'; a last label not all digits, which would be an address)? */
bool netrule_host_ok(const char *name);

/*
 * Resolves @name with getaddrinfo (the system resolver: nsswitch.conf,
 * /etc/hosts, DNS) into at most @max rules on one address each (/32 or
 * /128, IPv4-mapped addresses as IPv4, no duplicates), op and ports
 * left 0.  Returns 0 with *@n >= 1, or -ENOENT (-EINVAL for a bad name)
 * with @why saying why not ("Name or service not known").  Run it in an
 * unprivileged process only (resolve.h).
 */
int netrule_resolve(const char *name, struct policy_net_rule *out,
		    size_t max, size_t *n, char *why, size_t size);

/*
 * After resolve_hosts(): one line for each host name that did not
 * resolve and is not optional, naming its profile line or flag.
 * Returns 0, or -ENOENT if any.
 */
int netrule_hosts_check(const struct policy *policy);

/* Nameservers glibc uses at most (MAXNS). */
#define NETRULE_MAX_RESOLVERS 3

/*
 * The nameservers listed in the resolv.conf at @path, as rule addresses
 * ("10.0.0.53", "[fd00::53]"), at most @max; glibc's defaults 127.0.0.1
 * and [::1] when it lists none or cannot be read.  Returns how many.
 */
size_t netrule_resolvers(const char *path, char addrs[][48], size_t max);

/*
 * netrule_parse_list() into @policy, each rule with @origin.  Returns 0,
 * or -EINVAL (a bad rule) or -ENOSPC (past POLICY_MAX_NET_RULES) with
 * @why filled.
 */
int netrule_add_list(struct policy *policy, uint8_t op, const char *text,
		     const char *origin, char *why, size_t size);

/* "all", "none", "rules" <-> enum policy_net_mode; -EINVAL if unknown. */
int netrule_mode(const char *word, enum policy_net_mode *mode);
const char *netrule_mode_name(enum policy_net_mode mode);

/* @rule as it reads back: "127.0.0.0/8:5432", "[::1]:80", "8000-8099". */
char *netrule_format(const struct policy_net_rule *rule, char *buf,
		     size_t size);
/* An address and port as in a denial: "93.184.216.34:80", "[::1]:22". */
char *netrule_format_addr(int family, const uint8_t addr[16], uint16_t port,
			  char *buf, size_t size);

#endif /* CORRAL_NETRULE_H */
