// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * explain_net.c - `corral explain --op connect-tcp ADDR:PORT`: the
 * network rules judged as bpf/net.bpf.c judges them (net_rule_step): the
 * op, the port within the range, and, for a rule with an address, the
 * same family and the prefix; an IPv4-mapped address is its IPv4
 * address (netrule_parse() unmaps it as the hook does).
 */
#include "config.h"

#include "explain.h"

#include <arpa/inet.h>
#include <limits.h>
#include <string.h>

#include "engine_landlock.h"
#include "netrule.h"
#include "util.h"

bool explain_is_addr(const char *text)
{
	const char *colon = strrchr(text, ':');
	char addr[INET_ADDRSTRLEN];
	unsigned char bin[4];

	if (text[0] == '[')
		return strstr(text, "]:") != NULL;
	if (!colon || (size_t)(colon - text) >= sizeof(addr))
		return false;
	memcpy(addr, text, (size_t)(colon - text));
	addr[colon - text] = '\0';
	return inet_pton(AF_INET, addr, bin) == 1;
}

static bool rule_matches(const struct policy_net_rule *r,
			 const struct policy_net_rule *q)
{
	unsigned bits = r->prefix_len;

	if (r->op != q->op || q->port_lo < r->port_lo ||
	    q->port_lo > r->port_hi)
		return false;
	if (!r->family)
		return true;
	if (r->family != q->family)
		return false;
	if (memcmp(r->addr, q->addr, bits / 8))
		return false;
	return bits % 8 == 0 ||
	       !((r->addr[bits / 8] ^ q->addr[bits / 8]) &
		 (0xff00 >> (bits % 8)));
}

/* "--connect-tcp 443 on the command line", "connect-tcp = 443 at p:3" */
static const char *net_origin_text(const char *origin, const char *key,
				   const char *value, char *buf, size_t size)
{
	if (!strncmp(origin, "profile ", 8))
		snprintf(buf, size, "%s = %s at %s", key, value, origin + 8);
	else if (!strncmp(origin, "--", 2))
		snprintf(buf, size, "--%s%s%s %s", key,
			 strcmp(key, "net") ? " " : "=", value,
			 strchr(origin, ' ') ? strchr(origin, ' ') + 1 : "");
	else
		snprintf(buf, size, "%s %s (%s)", key, value, origin);
	return buf;
}

/*
 * What set net = none.  A rule lifts a profile's none, or the default;
 * only --net=none must be dropped as well (the caller says so).
 */
static const char *none_text(const char *origin, char *buf, size_t size)
{
	if (!strcmp(origin, POLICY_NET_DEFAULT_NONE))
		return "no profile asks for the network, so net = none";
	return net_origin_text(origin, "net", "none", buf, size);
}

/* The rule a user would add: a bind by its port (any local address), a
 * connect or send by address and port. */
static void add_hint(const struct policy_net_rule *q, const char *what,
		     char *buf, size_t size)
{
	const char *op = netrule_op_name(q->op);
	char port[8];

	snprintf(port, sizeof(port), "%u", q->port_lo);
	if (q->op & (CORRAL_NET_BIND_TCP | CORRAL_NET_BIND_UDP))
		what = port;
	snprintf(buf, size, "add: --%s %s or '%s = %s' in [network]", op,
		 what, op, what);
}

static int parse_query(uint8_t op, const char *text,
		       struct policy_net_rule *q)
{
	char why[256];

	if (netrule_parse(text, op, q, why, sizeof(why)) < 0 || !q->family ||
	    q->port_lo != q->port_hi ||
	    q->prefix_len != (q->family == 6 ? 128 : 32)) {
		warn_msg("explain: %s: expected one address and one port, "
			 "e.g. 127.0.0.1:5432 or [::1]:8080 (host names are "
			 "resolved only at launch)", text);
		return -1;
	}
	return 0;
}

static int answer_rules(const struct policy *policy,
			const struct policy_net_rule *q, const char *what,
			FILE *out)
{
	const char *op = netrule_op_name(q->op);
	char value[96], text[PATH_MAX + 128], hint[256];

	for (size_t i = 0; i < policy->n_net; i++) {
		if (!rule_matches(&policy->net[i], q))
			continue;
		netrule_format(&policy->net[i], value, sizeof(value));
		fprintf(out, "allowed: %s %s (%s)\n", op, what,
			net_origin_text(policy->net_origin[i], op, value,
					text, sizeof(text)));
		return EXPLAIN_ALLOWED;
	}
	add_hint(q, what, hint, sizeof(hint));
	if (!q->port_lo)
		fprintf(out, "denied: %s %s (port 0 is an ephemeral port, and "
			"only a rule for port 0 allows it; %s)\n", op, what,
			hint);
	else
		fprintf(out, "denied: %s %s (no network rule allows %s to "
			"%s; %s)\n", op, what, op, what, hint);
	return EXPLAIN_DENIED;
}

/* Does a rule for @q's op allow its port, whatever its address? */
static bool port_ruled(const struct policy *policy,
		       const struct policy_net_rule *q)
{
	for (size_t i = 0; i < policy->n_net; i++) {
		const struct policy_net_rule *r = &policy->net[i];

		if (r->op == q->op && q->port_lo >= r->port_lo &&
		    q->port_lo <= r->port_hi)
			return true;
	}
	return false;
}

/*
 * The second line under the Landlock engine at @abi (engine_landlock.c
 * and seccomp_net.c): what refuses @q there, or that it is allowed after
 * all, or that it would not launch (launch.c's choose_engine).  Returns
 * that engine's answer.
 */
static int answer_landlock(const struct policy *policy,
			   const struct policy_net_rule *q, int verdict,
			   int abi, bool best_effort, FILE *out)
{
	bool udp = q->op & (CORRAL_NET_CONNECT_UDP | CORRAL_NET_BIND_UDP);
	int first = udp ? 10 : 4;
	char gap[256];

	fprintf(out, "engine: Landlock ABI %d", abi);
	if (!best_effort && landlock_net_gap(policy, abi, gap, sizeof(gap))) {
		fprintf(out, " would not launch: it cannot enforce %s "
			"(--net-best-effort runs the rules unenforced)\n", gap);
		return EXPLAIN_DENIED;
	}
	switch (policy_net_mode(policy)) {
	case POLICY_NET_NONE:
		fprintf(out, "; corral's seccomp filter refuses every IPv4 and "
			"IPv6 socket (EACCES)\n");
		return verdict;
	case POLICY_NET_RULES:
		break;
	default:
		fprintf(out, "\n");
		return verdict;
	}
	if (udp && abi < first && !policy_first_net_rule(policy, CORRAL_NET_CONNECT_UDP |
						    CORRAL_NET_BIND_UDP)) {
		fprintf(out, "; corral's seccomp filter refuses every UDP "
			"socket (EACCES), as no rule allows UDP\n");
		return verdict;
	}
	if (abi < first) {
		fprintf(out, ", which has no %s rules (ABI %d): allowed there\n",
			udp ? "UDP" : "TCP", first);
		return EXPLAIN_ALLOWED;
	}
	if (verdict == EXPLAIN_DENIED && port_ruled(policy, q)) {
		fprintf(out, ", which judges ports only: port %u has a rule, "
			"so allowed there\n", q->port_lo);
		return EXPLAIN_ALLOWED;
	}
	fprintf(out, ", whose port rules give the same answer\n");
	return verdict;
}

static int answer_mode(const struct policy *policy,
		       const struct policy_net_rule *q, const char *what,
		       FILE *out)
{
	char mode[PATH_MAX + 64], hint[256];
	uint8_t op = q->op;

	switch (policy_net_mode(policy)) {
	case POLICY_NET_RULES:
		return answer_rules(policy, q, what, out);
	case POLICY_NET_NONE:
		add_hint(q, what, hint, sizeof(hint));
		fprintf(out, "denied: %s %s (%s refuses every bind, connect "
			"and send; %s%s)\n", netrule_op_name(op), what,
			none_text(policy->net_mode_origin, mode, sizeof(mode)),
			strncmp(policy->net_mode_origin, "--", 2) ? "" :
			"drop it and ", hint);
		return EXPLAIN_DENIED;
	default:
		fprintf(out, "allowed: %s %s (the network is not confined: %s)\n",
			netrule_op_name(op), what, policy->net_mode_origin ?
			net_origin_text(policy->net_mode_origin, "net", "all",
					mode, sizeof(mode)) :
			"no network rule");
		return EXPLAIN_ALLOWED;
	}
}

int explain_net(const struct policy *policy, uint8_t op, const char *text,
		bool landlock, int abi, bool best_effort, FILE *out)
{
	struct policy_net_rule q;
	char what[80];
	int verdict;

	if (parse_query(op, text, &q) < 0)
		return CORRAL_EXIT_FAILURE;
	netrule_format_addr(q.family, q.addr, q.port_lo, what, sizeof(what));
	verdict = answer_mode(policy, &q, what, out);
	return landlock ? answer_landlock(policy, &q, verdict, abi,
					  best_effort, out) : verdict;
}
