// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include "policy.h"

#include <ctype.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

struct name_bits {
	const char *name;
	uint32_t bits;
};

#define NAME_BITS(bits, name, ...) { name, bits },
static const struct name_bits right_names[] = { CORRAL_RIGHTS(NAME_BITS) };
static const struct name_bits group_names[] = { CORRAL_GROUPS(NAME_BITS) };
#undef NAME_BITS

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

static uint32_t lookup(const struct name_bits *table, size_t n,
		       const char *name, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(table[i].name) == len &&
		    !strncmp(table[i].name, name, len))
			return table[i].bits;
	return 0;
}

uint32_t rights_group(const char *name)
{
	return lookup(group_names, N_ELEMS(group_names), name, strlen(name));
}

static const char *name_of(const struct name_bits *table, size_t n,
			   uint32_t bits)
{
	for (size_t i = 0; i < n; i++)
		if (table[i].bits == bits)
			return table[i].name;
	return NULL;
}

const char *rights_group_name(uint32_t access)
{
	return name_of(group_names, N_ELEMS(group_names), access);
}

const char *right_name(uint32_t bit)
{
	return name_of(right_names, N_ELEMS(right_names), bit);
}

int right_landlock_abi(uint32_t bit)
{
#define RIGHT_ABI(bits, name, abi) if (bit == (bits)) return abi;
	CORRAL_RIGHTS(RIGHT_ABI)
#undef RIGHT_ABI
	return 0;
}

static size_t append_names(char *buf, size_t size, size_t used,
			   const struct name_bits *table, size_t n)
{
	for (size_t i = 0; i < n && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s",
					 table[i].name, i + 1 < n ? ", " : "");
	return used;
}

const char *rights_hint(void)
{
	static char hint[160];
	size_t used;

	if (hint[0])
		return hint;
	used = (size_t)snprintf(hint, sizeof(hint), "rights: ");
	used = append_names(hint, sizeof(hint), used, right_names,
			    N_ELEMS(right_names));
	if (used < sizeof(hint))
		used += (size_t)snprintf(hint + used, sizeof(hint) - used,
					 "; groups: ");
	append_names(hint, sizeof(hint), used, group_names,
		     N_ELEMS(group_names));
	return hint;
}

const char *policy_setting_key(enum policy_setting setting)
{
#define SETTING_KEY(e, key) [e] = key,
	static const char *const keys[POLICY_N_SETTINGS] = {
		POLICY_SETTINGS(SETTING_KEY)
	};
#undef SETTING_KEY

	return (unsigned)setting < POLICY_N_SETTINGS ? keys[setting] : "?";
}

const char *policy_value_word(enum policy_value value)
{
	switch (value) {
#define VALUE_WORD(e, word) case e: return word;
	POLICY_VALUES(VALUE_WORD)
#undef VALUE_WORD
	case POLICY_UNSET:
	default:
		return "?";
	}
}

int rights_parse(const char *text, uint32_t *access, const char **bad)
{
	uint32_t acc = 0;
	const char *p = text;

	for (;;) {
		size_t len = strcspn(p, ",");
		uint32_t bits = lookup(right_names, N_ELEMS(right_names), p,
				       len);

		if (!bits)
			bits = lookup(group_names, N_ELEMS(group_names), p,
				      len);
		if (!bits) {
			*bad = p;
			return -EINVAL;
		}
		acc |= bits;
		if (!p[len])
			break;
		p += len + 1;
	}
	*access = acc;
	return 0;
}

char *rights_format(uint32_t access, char *buf, size_t size)
{
	size_t used = 0;

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < N_ELEMS(right_names); i++) {
		int n;

		if (!(access & right_names[i].bits))
			continue;
		n = snprintf(buf + used, size - used, "%s%s",
			     used ? "," : "", right_names[i].name);
		if (n < 0 || (size_t)n >= size - used)
			break;
		used += (size_t)n;
	}
	return buf;
}

static struct policy_rule *policy_append(struct policy *policy,
					 const char *path, uint32_t access,
					 const char *origin)
{
	struct policy_rule *rule;

	if (policy->n_rules == policy->cap_rules) {
		policy->cap_rules = policy->cap_rules ? 2 * policy->cap_rules
						      : 16;
		policy->rules = xrealloc(policy->rules, policy->cap_rules,
					 sizeof(*policy->rules));
	}
	rule = &policy->rules[policy->n_rules++];
	rule->path = xstrdup(path);
	rule->access = access;
	rule->deny = 0;
	rule->origin = xstrdup(origin);
	rule->optional = false;
	rule->cache = 0;
	rule->name_only = false;
	return rule;
}

void policy_add(struct policy *policy, const char *path, uint32_t access,
		const char *origin)
{
	policy_append(policy, path, access, origin);
}

void policy_add_optional(struct policy *policy, const char *path,
			 uint32_t access, const char *origin)
{
	policy_append(policy, path, access, origin)->optional = true;
}

void policy_absolute(struct policy *policy, const char *cwd)
{
	for (size_t i = 0; cwd && i < policy->n_rules; i++) {
		struct policy_rule *rule = &policy->rules[i];
		const char *rel = rule->path;
		char *abs;

		if (rel[0] == '/')
			continue;
		while (rel[0] == '.' && rel[1] == '/')
			for (rel += 2; *rel == '/'; rel++)
				;
		if (!strcmp(rel, ".") || !rel[0])
			rel = "";
		abs = xmalloc(strlen(cwd) + strlen(rel) + 2);
		sprintf(abs, "%s%s%s", cwd, rel[0] && strcmp(cwd, "/") ? "/" :
			"", rel);
		free(rule->path);
		rule->path = abs;
	}
}

void policy_add_deny(struct policy *policy, const char *path, uint32_t deny,
		     bool optional, const char *origin)
{
	struct policy_rule *rule = policy_append(policy, path, 0, origin);

	rule->deny = deny;
	rule->optional = optional;
}

void policy_copy_rule(struct policy *policy, const struct policy_rule *rule)
{
	struct policy_rule *copy = policy_append(policy, rule->path,
						 rule->access, rule->origin);

	copy->deny = rule->deny;
	copy->optional = rule->optional;
	copy->cache = rule->cache;
	copy->name_only = rule->name_only;
}

bool policy_has_deny(const struct policy *policy)
{
	for (size_t i = 0; i < policy->n_rules; i++)
		if (policy->rules[i].deny)
			return true;
	return false;
}

void policy_set(struct policy *policy, enum policy_setting which,
		enum policy_value value, const char *origin)
{
	free(policy->sandbox.origin[which]);
	policy->sandbox.value[which] = value;
	policy->sandbox.origin[which] = xstrdup(origin);
}

bool policy_var_pattern_ok(const char *name)
{
	size_t n = strlen(name);

	if (!n || n > POLICY_VAR_NAME_MAX || isdigit((unsigned char)name[0]))
		return false;
	if (name[n - 1] == '*')
		n--;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_')
			return false;
	return n > 0 || name[0] == '*';
}

bool policy_var_matches(const char *pattern, const char *entry)
{
	size_t n = strlen(pattern);

	if (n && pattern[n - 1] == '*')
		return !strncmp(pattern, entry, n - 1);
	return !strncmp(pattern, entry, n) && entry[n] == '=';
}

void policy_add_unset(struct policy *policy, const char *name,
		      const char *origin)
{
	struct policy_unset *u;

	policy->unset = xrealloc(policy->unset, policy->n_unset + 1,
				 sizeof(*policy->unset));
	u = &policy->unset[policy->n_unset++];
	u->name = xstrdup(name);
	u->origin = xstrdup(origin);
}

/* The first rule implies net = rules (over none: a rule asks for more). */
static void imply_rules(struct policy *policy, const char *origin)
{
	if (policy->net_mode == POLICY_NET_UNSET ||
	    policy->net_mode == POLICY_NET_NONE) {
		char implied[PATH_MAX + 48];

		snprintf(implied, sizeof(implied), "implied by %s",
			 strncmp(origin, "profile ", 8) ? origin : origin + 8);
		policy_set_net_mode(policy, POLICY_NET_RULES, implied);
	}
}

int policy_add_net(struct policy *policy, const struct policy_net_rule *rule,
		   const char *origin)
{
	if (policy->n_net >= POLICY_MAX_NET_RULES)
		return -ENOSPC;
	policy->net[policy->n_net] = *rule;
	policy->net_origin[policy->n_net++] = xstrdup(origin);
	imply_rules(policy, origin);
	return 0;
}

/* Whether a rule (an address's or a host name's) has op @op on port 0 or
 * any port (@port0), or at all. */
static bool has_net_op(const struct policy *policy, uint8_t op)
{
	for (size_t i = 0; i < policy->n_net; i++)
		if (policy->net[i].op == op)
			return true;
	for (size_t i = 0; i < policy->n_hosts; i++)
		if (policy->hosts[i].rule.op == op)
			return true;
	return false;
}

int policy_imply_udp_bind(struct policy *policy)
{
	const struct policy_net_rule any0 = { .op = CORRAL_NET_BIND_UDP };

	if (policy->net_mode != POLICY_NET_RULES ||
	    !has_net_op(policy, CORRAL_NET_CONNECT_UDP) ||
	    has_net_op(policy, CORRAL_NET_BIND_UDP))
		return 0;
	return policy_add_net(policy, &any0, POLICY_UDP_BIND_IMPLIED);
}

void policy_add_host(struct policy *policy, const char *name,
		     const struct policy_net_rule *rule, bool optional,
		     const char *origin)
{
	struct policy_net_host *h;

	policy->hosts = xrealloc(policy->hosts, policy->n_hosts + 1,
				 sizeof(*policy->hosts));
	h = &policy->hosts[policy->n_hosts++];
	memset(h, 0, sizeof(*h));
	snprintf(h->name, sizeof(h->name), "%s", name);
	h->rule = *rule;
	h->optional = optional;
	h->origin = xstrdup(origin);
	imply_rules(policy, origin);
}

int policy_add_host_addrs(struct policy *policy,
			  const struct policy_net_host **full)
{
	for (size_t i = 0; i < policy->n_hosts; i++) {
		const struct policy_net_host *h = &policy->hosts[i];

		for (size_t a = 0; a < h->n_addrs; a++) {
			if (policy_add_net(policy, &h->addrs[a], h->origin)) {
				*full = h;
				return -ENOSPC;
			}
		}
	}
	return 0;
}

void policy_set_net_mode(struct policy *policy, enum policy_net_mode mode,
			 const char *origin)
{
	free(policy->net_mode_origin);
	policy->net_mode = mode;
	policy->net_mode_origin = xstrdup(origin);
}

enum policy_net_mode policy_net_mode(const struct policy *policy)
{
	return policy->net_mode == POLICY_NET_UNSET ? POLICY_NET_ALL
						     : policy->net_mode;
}

/*
 * Frees the strings @a and @b of each of the @n elements of @array, then
 * the array, and leaves it empty: a macro, as the arrays that
 * policy_free empties this way are of three types.
 */
#define FREE_ARRAY(array, n, a, b) do {				\
	for (size_t i_ = 0; i_ < (n); i_++) {			\
		free((array)[i_].a);				\
		free((array)[i_].b);				\
	}							\
	free(array);						\
	(array) = NULL;						\
	(n) = 0;						\
} while (0)

void policy_free(struct policy *policy)
{
	FREE_ARRAY(policy->unset, policy->n_unset, name, origin);
	for (size_t i = 0; i < policy->n_net; i++) {
		free(policy->net_origin[i]);
		policy->net_origin[i] = NULL;
	}
	policy->n_net = 0;
	FREE_ARRAY(policy->hosts, policy->n_hosts, origin, error);
	free(policy->net_mode_origin);
	policy->net_mode_origin = NULL;
	policy->net_mode = POLICY_NET_UNSET;
	for (int i = 0; i < POLICY_N_SETTINGS; i++) {
		free(policy->sandbox.origin[i]);
		policy->sandbox.origin[i] = NULL;
		policy->sandbox.value[i] = POLICY_UNSET;
	}
	FREE_ARRAY(policy->rules, policy->n_rules, path, origin);
	policy->cap_rules = 0;
}

const struct policy_net_rule *
policy_first_net_rule(const struct policy *policy, uint8_t ops)
{
	for (size_t i = 0; i < policy->n_net; i++)
		if (ops ? policy->net[i].op & ops : policy->net[i].family)
			return &policy->net[i];
	return NULL;
}
