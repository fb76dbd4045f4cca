// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * netrule.c - parsing and printing network rules (see netrule.h).
 *
 * Strict on purpose: a typo in a port or an address must be an error on
 * its profile line, never a rule that allows something else.
 */
#include "config.h"

#include "netrule.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "corral_abi.h"
#include "util.h"

static const struct {
	const char *name;
	uint8_t op;
} ops[] = {
	{ "connect-tcp", CORRAL_NET_CONNECT_TCP },
	{ "bind-tcp", CORRAL_NET_BIND_TCP },
	{ "connect-udp", CORRAL_NET_CONNECT_UDP },
	{ "bind-udp", CORRAL_NET_BIND_UDP },
};

#define N_OPS (sizeof(ops) / sizeof(ops[0]))

uint8_t netrule_op(const char *name)
{
	for (size_t i = 0; i < N_OPS; i++)
		if (!strcmp(ops[i].name, name))
			return ops[i].op;
	return 0;
}

const char *netrule_op_name(uint8_t op)
{
	for (size_t i = 0; i < N_OPS; i++)
		if (ops[i].op == op)
			return ops[i].name;
	return "?";
}

static const char *const mode_names[] = {
	[POLICY_NET_UNSET] = "all",
	[POLICY_NET_ALL] = "all",
	[POLICY_NET_NONE] = "none",
	[POLICY_NET_RULES] = "rules",
};

int netrule_mode(const char *word, enum policy_net_mode *mode)
{
	for (int m = POLICY_NET_ALL; m <= POLICY_NET_RULES; m++)
		if (!strcmp(word, mode_names[m])) {
			*mode = (enum policy_net_mode)m;
			return 0;
		}
	return -EINVAL;
}

const char *netrule_mode_name(enum policy_net_mode mode)
{
	return mode <= POLICY_NET_RULES ? mode_names[mode] : "?";
}

/* A decimal number in [0, @max], the whole of @s[0..len). */
static bool parse_number(const char *s, size_t len, unsigned long max,
			 unsigned long *out)
{
	unsigned long v = 0;

	if (!len || len > 6)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	if (len > 1 && s[0] == '0')
		return false;           /* "080" is a typo, not octal */
	if (v > max)
		return false;
	*out = v;
	return true;
}

static int parse_ports(const char *s, struct policy_net_rule *rule,
		       char *why, size_t size)
{
	const char *dash = strchr(s, '-');
	size_t len_lo = dash ? (size_t)(dash - s) : strlen(s);
	unsigned long lo, hi;

	if (!s[0]) {
		snprintf(why, size, "no port (write ADDRESS:PORT, or PORT)");
		return -EINVAL;
	}
	if (!strcmp(s, "*")) {
		rule->port_lo = 0;
		rule->port_hi = 65535;
		return 0;
	}
	if (!parse_number(s, len_lo, 65535, &lo) ||
	    (dash && !parse_number(dash + 1, strlen(dash + 1), 65535, &hi))) {
		snprintf(why, size, "bad port '%s' (a port is 0 to 65535, "
			 "a range LOW-HIGH, or * for all)", s);
		return -EINVAL;
	}
	if (!dash)
		hi = lo;
	if (lo > hi) {
		snprintf(why, size, "bad port range '%s' (write the lower "
			 "port first)", s);
		return -EINVAL;
	}
	rule->port_lo = (uint16_t)lo;
	rule->port_hi = (uint16_t)hi;
	return 0;
}

/* Host bits beyond the prefix must be zero: 10.1.0.0/8 is a typo. */
static bool host_bits_zero(const uint8_t *addr, unsigned bytes,
			   unsigned prefix)
{
	for (unsigned i = 0; i < bytes; i++) {
		unsigned keep = prefix >= 8 * (i + 1) ? 8 :
				prefix > 8 * i ? prefix - 8 * i : 0;
		uint8_t mask = keep ? (uint8_t)(0xff << (8 - keep)) : 0;

		if (addr[i] & ~mask)
			return false;
	}
	return true;
}

static int parse_addr(const char *text, bool v6,
		      struct policy_net_rule *rule, char *why, size_t size)
{
	char buf[64];
	const char *slash = strchr(text, '/');
	size_t len = slash ? (size_t)(slash - text) : strlen(text);
	unsigned long prefix = v6 ? 128 : 32;

	if (len >= sizeof(buf)) {
		snprintf(why, size, "address '%s' is too long", text);
		return -EINVAL;
	}
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (inet_pton(v6 ? AF_INET6 : AF_INET, buf, rule->addr) != 1) {
		snprintf(why, size, "bad %s address '%s'%s", v6 ? "IPv6" : "IPv4",
			 buf, v6 ? "" : " (IPv6 goes in brackets: [::1]:80)");
		return -EINVAL;
	}
	if (slash && !parse_number(slash + 1, strlen(slash + 1), prefix,
				   &prefix)) {
		snprintf(why, size, "bad prefix length '/%s' (0 to %d)",
			 slash + 1, v6 ? 128 : 32);
		return -EINVAL;
	}
	rule->family = v6 ? 6 : 4;
	rule->prefix_len = (uint8_t)prefix;
	if (!host_bits_zero(rule->addr, v6 ? 16 : 4, (unsigned)prefix)) {
		snprintf(why, size, "'%s' has bits set past the /%lu prefix "
			 "(write the network address)", text, prefix);
		return -EINVAL;
	}
	return 0;
}

/* ::ffff:a.b.c.d/96+N is the IPv4 prefix a.b.c.d/N, judged as such. */
static void unmap_v4(struct policy_net_rule *rule)
{
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };

	if (rule->family != 6 || rule->prefix_len < 96 ||
	    memcmp(rule->addr, mapped, sizeof(mapped)))
		return;
	memmove(rule->addr, rule->addr + 12, 4);
	memset(rule->addr + 4, 0, 12);
	rule->family = 4;
	rule->prefix_len -= 96;
}

int netrule_parse(const char *text, uint8_t op, struct policy_net_rule *rule,
		  char *why, size_t size)
{
	const char *port;
	char addr[80];
	int r;

	memset(rule, 0, sizeof(*rule));
	rule->op = op;
	if (text[0] == '[') {
		const char *close = strchr(text, ']');

		if (!close || close[1] != ':') {
			snprintf(why, size, "'%s': expected [IPV6]:PORT, "
				 "e.g. [::1]:8080", text);
			return -EINVAL;
		}
		if ((size_t)(close - text) >= sizeof(addr)) {
			snprintf(why, size, "address in '%s' is too long", text);
			return -EINVAL;
		}
		memcpy(addr, text + 1, (size_t)(close - text - 1));
		addr[close - text - 1] = '\0';
		r = parse_addr(addr, true, rule, why, size);
		port = close + 2;
	} else if ((port = strrchr(text, ':'))) {
		if ((size_t)(port - text) >= sizeof(addr) ||
		    memchr(text, ':', (size_t)(port - text))) {
			snprintf(why, size, "'%s': an IPv6 address goes in "
				 "brackets, e.g. [::1]:8080", text);
			return -EINVAL;
		}
		memcpy(addr, text, (size_t)(port - text));
		addr[port - text] = '\0';
		r = parse_addr(addr, false, rule, why, size);
		port++;
	} else {
		r = 0;
		port = text;
	}
	if (r < 0)
		return r;
	unmap_v4(rule);
	return parse_ports(port, rule, why, size);
}

/* One DNS label: 1-63 letters, digits and '-', no '-' at either end. */
static bool label_ok(const char *s, size_t len)
{
	if (!len || len > 63 || s[0] == '-' || s[len - 1] == '-')
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '-')
			return false;
	return true;
}

bool netrule_host_ok(const char *name)
{
	size_t len = strlen(name);
	const char *last = strrchr(name, '.');

	if (!len || len > POLICY_HOST_NAME_MAX)
		return false;
	for (const char *p = name;; ) {
		size_t n = strcspn(p, ".");

		if (!label_ok(p, n))
			return false;
		if (!p[n])
			break;
		p += n + 1;
	}
	/* A top-level label is never all digits (RFC 3696): "1.2.3" is a
	 * mistyped address, which getaddrinfo would read as 1.2.0.3. */
	last = last ? last + 1 : name;
	return strspn(last, "0123456789") != strlen(last);
}

/* Does the address part of an item look like a name (has a letter)? */
static bool looks_like_name(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (isalpha((unsigned char)text[i]))
			return true;
	return false;
}

/*
 * "[-]NAME:PORTS": 1 with @name and @rule's op and ports filled; 0 when
 * @text is no host rule (an address, a port, brackets); -EINVAL with
 * @why when it is a bad one.
 */
static int parse_host(const char *text, uint8_t op, char *name,
		      struct policy_net_rule *rule, bool *optional, char *why,
		      size_t size)
{
	const char *colon;
	size_t len;

	*optional = text[0] == '-';
	text += *optional;
	colon = strchr(text, ':');
	if (text[0] == '[' || !colon || strchr(colon + 1, ':'))
		return 0;
	len = (size_t)(colon - text);
	if (!looks_like_name(text, len)) {
		if (!*optional)
			return 0;
		snprintf(why, size, "'-%s': only a host name can be made "
			 "optional with '-'", text);
		return -EINVAL;
	}
	if (len > POLICY_HOST_NAME_MAX) {
		snprintf(why, size, "host name '%.20s...' is too long", text);
		return -EINVAL;
	}
	memcpy(name, text, len);
	name[len] = '\0';
	if (!netrule_host_ok(name)) {
		snprintf(why, size, "bad host name '%s' (letters, digits, '-' "
			 "and '.', e.g. github.com:443)", name);
		return -EINVAL;
	}
	memset(rule, 0, sizeof(*rule));
	rule->op = op;
	return parse_ports(colon + 1, rule, why, size) < 0 ? -EINVAL : 1;
}

/* Has @rule's address already been seen among @out[0..n)? */
static bool seen(const struct policy_net_rule *out, size_t n,
		 const struct policy_net_rule *rule)
{
	for (size_t i = 0; i < n; i++)
		if (out[i].family == rule->family &&
		    !memcmp(out[i].addr, rule->addr, sizeof(rule->addr)))
			return true;
	return false;
}

/* One getaddrinfo answer as a rule on its address alone (/32, /128). */
static bool addr_rule(const struct addrinfo *ai, struct policy_net_rule *rule)
{
	memset(rule, 0, sizeof(*rule));
	if (ai->ai_family == AF_INET) {
		const struct sockaddr_in *sin = (const void *)ai->ai_addr;

		memcpy(rule->addr, &sin->sin_addr, 4);
		rule->family = 4;
		rule->prefix_len = 32;
	} else if (ai->ai_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = (const void *)ai->ai_addr;

		memcpy(rule->addr, &sin6->sin6_addr, 16);
		rule->family = 6;
		rule->prefix_len = 128;
	} else {
		return false;
	}
	unmap_v4(rule);
	return true;
}

int netrule_resolve(const char *name, struct policy_net_rule *out,
		    size_t max, size_t *n, char *why, size_t size)
{
	/* SOCK_STREAM: one answer per address, not one per socket type.
	 * No AI_ADDRCONFIG: localhost must give ::1 on a host without a
	 * global IPv6 address too. */
	const struct addrinfo hints = { .ai_family = AF_UNSPEC,
					.ai_socktype = SOCK_STREAM };
	struct addrinfo *res = NULL;
	int r;

	*n = 0;
	if (!netrule_host_ok(name)) {
		snprintf(why, size, "bad host name");
		return -EINVAL;
	}
	r = getaddrinfo(name, NULL, &hints, &res);
	if (r) {
		snprintf(why, size, "%s", r == EAI_SYSTEM ? strerror(errno)
							  : gai_strerror(r));
		return -ENOENT;
	}
	for (const struct addrinfo *ai = res; ai && *n < max; ai = ai->ai_next)
		if (addr_rule(ai, &out[*n]) && !seen(out, *n, &out[*n]))
			(*n)++;
	freeaddrinfo(res);
	if (!*n) {
		snprintf(why, size, "no IPv4 or IPv6 address");
		return -ENOENT;
	}
	return 0;
}

size_t netrule_resolvers(const char *path, char addrs[][48], size_t max)
{
	FILE *f = fopen(path, "re");
	char line[256];
	size_t n = 0;

	while (f && n < max && fgets(line, sizeof(line), f)) {
		char word[16], addr[64];
		uint8_t bytes[16];
		bool v6;

		if (sscanf(line, "%15s %63s", word, addr) != 2 ||
		    strcmp(word, "nameserver"))
			continue;
		addr[strcspn(addr, "%")] = '\0';   /* fe80::1%eth0 */
		v6 = strchr(addr, ':') != NULL;
		if (inet_pton(v6 ? AF_INET6 : AF_INET, addr, bytes) != 1)
			continue;
		snprintf(addrs[n++], 48, v6 ? "[%s]" : "%s", addr);
	}
	if (f)
		fclose(f);
	if (!n && max >= 2) {
		/* glibc's default when none is listed */
		snprintf(addrs[n++], 48, "127.0.0.1");
		snprintf(addrs[n++], 48, "[::1]");
	}
	return n;
}

/* "resolvers:53": one rule per nameserver of /etc/resolv.conf. */
static int parse_resolvers(const char *port, uint8_t op,
			   int (*add)(const struct policy_net_rule *rule,
				      void *data),
			   void *data, char *why, size_t size)
{
	char addrs[NETRULE_MAX_RESOLVERS][48], item[48 + POLICY_HOST_NAME_MAX + 16];
	size_t n = netrule_resolvers("/etc/resolv.conf", addrs,
				     NETRULE_MAX_RESOLVERS);

	for (size_t i = 0; i < n; i++) {
		struct policy_net_rule rule;
		int r;

		/* a cut item would be another port: refuse it (gcc 16's
		 * -Wformat-truncation asks the same) */
		if ((size_t)snprintf(item, sizeof(item), "%s:%s", addrs[i],
				     port) >= sizeof(item)) {
			snprintf(why, size, "bad port '%s' (a port is 0 to 65535)",
				 port);
			return -EINVAL;
		}
		if (netrule_parse(item, op, &rule, why, size) < 0)
			return -EINVAL;
		r = add(&rule, data);
		if (r < 0)
			return r;
	}
	return 0;
}

/* One item of a list: a host rule, resolvers:PORT or an address rule. */
static int parse_item(const char *item, uint8_t op,
		      const struct netrule_sink *sink, char *why, size_t size)
{
	char name[POLICY_HOST_NAME_MAX + 1];
	struct policy_net_rule rule;
	bool optional;
	int r;

	if (!strncmp(item, "resolvers:", 10))
		return parse_resolvers(item + 10, op, sink->add, sink->data,
				       why, size);
	r = parse_host(item, op, name, &rule, &optional, why, size);
	if (r < 0)
		return r;
	if (r)
		return sink->add_host(name, &rule, optional, sink->data);
	if (netrule_parse(item, op, &rule, why, size) < 0)
		return -EINVAL;
	return sink->add(&rule, sink->data);
}

int netrule_parse_list(const char *text, uint8_t op,
		       const struct netrule_sink *sink, char *why, size_t size)
{
	static const char seps[] = ", \t";
	bool any = false;

	for (const char *p = text + strspn(text, seps); *p;
	     p += strspn(p, seps)) {
		size_t len = strcspn(p, seps);
		char item[POLICY_HOST_NAME_MAX + 16];
		int r;

		if (len >= sizeof(item)) {
			snprintf(why, size, "'%.20s...' is too long", p);
			return -EINVAL;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		r = parse_item(item, op, sink, why, size);
		if (r < 0)
			return r;
		any = true;
		p += len;
	}
	if (!any) {
		snprintf(why, size, "no rule (write a port, e.g. 443)");
		return -EINVAL;
	}
	return 0;
}

struct add_ctx {
	struct policy *policy;
	const char *origin;
};

static int add_one(const struct policy_net_rule *rule, void *data)
{
	struct add_ctx *c = data;

	return policy_add_net(c->policy, rule, c->origin);
}

static int add_host(const char *name, const struct policy_net_rule *rule,
		    bool optional, void *data)
{
	struct add_ctx *c = data;

	policy_add_host(c->policy, name, rule, optional, c->origin);
	return 0;
}

int netrule_add_list(struct policy *policy, uint8_t op, const char *text,
		     const char *origin, char *why, size_t size)
{
	struct add_ctx c = { policy, origin };
	const struct netrule_sink sink = { add_one, add_host, &c };
	int r = netrule_parse_list(text, op, &sink, why, size);

	if (r == -ENOSPC)
		snprintf(why, size, "more than %d network rules (use port "
			 "ranges or prefixes)", POLICY_MAX_NET_RULES);
	return r;
}

/* One line for a name that did not resolve, where the rule was written. */
static void host_error(const struct policy_net_host *h)
{
	const char *op = netrule_op_name(h->rule.op);
	char ports[32];

	netrule_format(&h->rule, ports, sizeof(ports));
	if (!strncmp(h->origin, "profile ", 8))
		warn_msg("%s: %s: host name '%s' did not resolve (%s); fix "
			 "it, or write -%s:%s to skip it when it does not",
			 h->origin, op, h->name, h->error, h->name, ports);
	else
		warn_msg("--%s %s:%s: host name '%s' did not resolve (%s); "
			 "fix it, or write -%s:%s to skip it when it does not",
			 op, h->name, ports, h->name, h->error, h->name, ports);
}

int netrule_hosts_check(const struct policy *policy)
{
	int r = 0;

	for (size_t i = 0; i < policy->n_hosts; i++) {
		const struct policy_net_host *h = &policy->hosts[i];

		if (!h->error || h->optional)
			continue;
		host_error(h);
		r = -ENOENT;
	}
	return r;
}

char *netrule_format_addr(int family, const uint8_t addr[16], uint16_t port,
			  char *buf, size_t size)
{
	char text[INET6_ADDRSTRLEN];

	if (!inet_ntop(family == 6 ? AF_INET6 : AF_INET, addr, text,
		       sizeof(text)))
		snprintf(text, sizeof(text), "?");
	snprintf(buf, size, family == 6 ? "[%s]:%u" : "%s:%u", text, port);
	return buf;
}

char *netrule_format(const struct policy_net_rule *rule, char *buf,
		     size_t size)
{
	char text[INET6_ADDRSTRLEN + 8], ports[16];
	int max = rule->family == 6 ? 128 : 32;

	if (rule->port_lo == rule->port_hi)
		snprintf(ports, sizeof(ports), "%u", rule->port_lo);
	else if (!rule->port_lo && rule->port_hi == 65535)
		snprintf(ports, sizeof(ports), "*");
	else
		snprintf(ports, sizeof(ports), "%u-%u", rule->port_lo,
			 rule->port_hi);
	if (!rule->family) {
		snprintf(buf, size, "%s", ports);
		return buf;
	}
	if (!inet_ntop(rule->family == 6 ? AF_INET6 : AF_INET, rule->addr,
		       text, sizeof(text)))
		snprintf(text, sizeof(text), "?");
	if (rule->prefix_len != max)
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			 "/%u", rule->prefix_len);
	snprintf(buf, size, rule->family == 6 ? "[%s]:%s" : "%s:%s", text,
		 ports);
	return buf;
}
