// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * profile_keys.c - the sections and keys a profile may hold, each
 * declared once in keys[], and what each value does to the policy:
 * [filesystem] rules, [sandbox] settings, [environment] unsets,
 * [network] rules, [profile] descriptions (includes are profile.c's).
 */
#include "config.h"

#include "profile_internal.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "netrule.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the keys ---------------------------------------------------------- */

enum key_kind {
	KEY_DESCRIPTION,   /* free text, continuation lines joined */
	KEY_INCLUDE,       /* another profile, read at this line */
	KEY_RIGHTS,        /* [filesystem]: the key is a rights list */
	KEY_SETTING,       /* [sandbox]: one word from key->words */
	KEY_UNSET,         /* [environment]: a variable name or PREFIX* */
	KEY_NET_MODE,      /* [network] net = all|none|rules */
	KEY_NET_RULE,      /* [network] connect-tcp = 443, ... */
};

/* The values a setting takes, POLICY_UNSET-terminated. */
static const enum policy_value yes_no[] = {
	POLICY_NO, POLICY_YES, POLICY_UNSET,
};
static const enum policy_value scoped_allow[] = {
	POLICY_SCOPED, POLICY_ALLOW, POLICY_UNSET,
};
static const enum policy_value any_bpf[] = {
	POLICY_ANY, POLICY_BPF, POLICY_UNSET,
};

struct key {
	const char *section;
	const char *name;            /* NULL: any rights list, or a
					setting (policy_setting_key) */
	enum key_kind kind;
	enum policy_setting setting; /* KEY_SETTING only */
	const enum policy_value *words; /* KEY_SETTING only */
};

#define KEY(section, name, kind) { section, name, kind, 0, NULL }
#define SETTING(setting, words) \
	{ "sandbox", NULL, KEY_SETTING, setting, words }

static const struct key keys[] = {
	KEY("profile", "description", KEY_DESCRIPTION),
	KEY("profile", "include", KEY_INCLUDE),
	KEY("filesystem", NULL, KEY_RIGHTS),
	SETTING(POLICY_EXEC_ANONYMOUS, yes_no),
	SETTING(POLICY_UNIX_CONNECT, scoped_allow),
	SETTING(POLICY_REQUIRE, any_bpf),
	SETTING(POLICY_QUIET, yes_no),
	SETTING(POLICY_USERNS, yes_no),
	SETTING(POLICY_SYSV_IPC, yes_no),
	KEY("environment", "unset", KEY_UNSET),
	KEY("network", "net", KEY_NET_MODE),
	KEY("network", "connect-tcp", KEY_NET_RULE),
	KEY("network", "bind-tcp", KEY_NET_RULE),
	KEY("network", "connect-udp", KEY_NET_RULE),
	KEY("network", "bind-udp", KEY_NET_RULE),
};

static bool known_section(const char *name, size_t len)
{
	for (size_t i = 0; i < N_ELEMS(keys); i++)
		if (strlen(keys[i].section) == len &&
		    !memcmp(keys[i].section, name, len))
			return true;
	return false;
}

/* The key's name; NULL for [filesystem]'s "any rights list". */
static const char *key_name(const struct key *key)
{
	return key->kind == KEY_SETTING ? policy_setting_key(key->setting)
					: key->name;
}

const struct key *profile_key_find(const char *section, const char *name)
{
	for (size_t i = 0; i < N_ELEMS(keys); i++) {
		const char *key = key_name(&keys[i]);

		if (strcmp(keys[i].section, section))
			continue;
		if (!key || !strcmp(key, name))
			return &keys[i];
	}
	return NULL;
}

/* "description, include" for the keys of @section. */
static const char *keys_of(const char *section, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < N_ELEMS(keys) && used < size; i++)
		if (!strcmp(keys[i].section, section) && key_name(&keys[i]))
			used += (size_t)snprintf(buf + used, size - used,
						 "%s%s", used ? ", " : "",
						 key_name(&keys[i]));
	return buf;
}

static const char *words_of(const enum policy_value *words, char *buf,
			    size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; words[i] != POLICY_UNSET && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s",
					 i ? " or " : "",
					 policy_value_word(words[i]));
	return buf;
}

/* inih calls the handler only for keys, so an empty unknown section
 * would pass: its name is checked here. */
bool profile_section_check(struct frame *f, const char *name, size_t len)
{
	if (known_section(name, len))
		return true;
	error_at(f, "unknown section [%.*s] (sections: [profile], "
		 "[filesystem], [network], [sandbox], [environment])",
		 (int)len, name);
	return false;
}

/* The key @name names in @section, or NULL after saying why not. */
const struct key *profile_key_check(struct frame *f, const char *section,
				    const char *name)
{
	const struct key *key = NULL;
	char hint[128];

	if (!known_section(section, strlen(section)))
		error_at(f, "'%s' is outside any section (put it under "
			 "[profile], [filesystem], [network], [sandbox] or "
			 "[environment])", name);
	else if (strlen(name) >= INIH_NAME_MAX)
		error_at(f, "key '%.20s...' is too long", name);
	else if (!(key = profile_key_find(section, name)))
		error_at(f, "unknown key '%s' in [%s] (keys: %s)", name,
			 section, keys_of(section, hint, sizeof(hint)));
	return key;
}

bool profile_key_optional(const struct key *key)
{
	return key->kind == KEY_RIGHTS;
}

/* ---- values ------------------------------------------------------------ */

void profile_too_wide(struct frame *f, const struct expand_error *err)
{
	bool cwd = !strcmp(err->name, "CWD");

	error_at(f, "${%s} would be %s, %s, and no profile may give all of "
		 "it (%s)", err->name, err->value, err->what,
		 cwd ? "cd into the directory the command should work in" :
		       "cd into the project, or give --project DIR");
}

static void add_path(struct frame *f, uint32_t access, uint32_t deny,
		     const char *raw, bool optional)
{
	_cleanup_free_ char *path = NULL;
	struct expand_error err;
	char origin[PATH_MAX + 32];

	switch (expand(raw, f->ld->env->vars, &path, &err)) {
	case EXPAND_OK:
		break;
	case EXPAND_UNSET:
		if (!optional)
			error_at(f, "${%s} is not set (prefix the path with "
				 "'-' to skip it when unset)", err.name);
		return;
	case EXPAND_UNKNOWN:
		error_at(f, "unknown variable ${%s} (variables: %s)",
			 err.name, var_list());
		return;
	case EXPAND_SYNTAX:
		error_at(f, "bad '$' in '%s' (write ${NAME}, or $$ for a "
			 "literal '$')", raw);
		return;
	case EXPAND_TOO_WIDE:
		profile_too_wide(f, &err);
		return;
	case EXPAND_TOO_LONG:
	default:
		error_at(f, "'%s' is longer than %d bytes once expanded", raw,
			 PATH_MAX);
		return;
	}
	if (path[0] != '/') {
		error_at(f, "'%s' is not an absolute path (%s)", path,
			 path[0] == '~' ? "write ${HOME} instead of ~"
					: "start it with '/' or a variable such "
					  "as ${HOME} or ${CWD}");
		return;
	}
	snprintf(origin, sizeof(origin), "profile %s:%d", f->name, f->at);
	if (deny)
		policy_add_deny(f->ld->policy, path, deny, optional, origin);
	else if (optional)
		policy_add_optional(f->ld->policy, path, access, origin);
	else
		policy_add(f->ld->policy, path, access, origin);
}

/*
 * deny = PATH or deny = RIGHTS:PATH.  A path starts with '/' or '$' (a
 * variable), rights never do, so the first ':' of anything else ends
 * the rights.
 */
static void on_deny(struct frame *f, const char *value, bool optional)
{
	const char *colon = strchr(value, ':');
	const char *bad = NULL;
	char list[128];
	uint32_t deny;
	size_t n;

	if (value[0] == '/' || value[0] == '$' || !colon) {
		add_path(f, 0, CORRAL_ACCESS_ALL, value, optional);
		return;
	}
	if ((size_t)(colon - value) >= sizeof(list) || colon == value) {
		error_at(f, "'%s': expected deny = PATH or deny = RIGHTS:PATH",
			 value);
		return;
	}
	n = 0;          /* "read, write" reads as "read,write" */
	for (const char *p = value; p < colon; p++)
		if (*p != ' ' && *p != '\t')
			list[n++] = *p;
	list[n] = '\0';
	if (rights_parse(list, &deny, &bad) < 0) {
		error_at(f, "unknown right '%.*s' in deny = %s (%s)",
			 (int)strcspn(bad, ","), bad, value, rights_hint());
		return;
	}
	add_path(f, 0, deny, colon + 1, optional);
}

/*
 * cache = PATH: rw, and made (0700, as the user) when missing at launch,
 * if below ${HOME}: only a directory of the user's own is made (an
 * ${XDG_CACHE_HOME} elsewhere is a plain rw rule).
 */
static void on_cache(struct frame *f, const char *value, bool optional)
{
	struct policy *policy = f->ld->policy;
	const char *home = f->ld->env->vars->value[VAR_HOME];
	size_t n = policy->n_rules, len = home ? strlen(home) : 0;
	const char *path;

	add_path(f, CORRAL_GROUP_RW, 0, value, optional);
	if (policy->n_rules == n || !len)
		return;
	path = policy->rules[n].path;
	if (!strncmp(path, home, len) && path[len] == '/' && path[len + 1] &&
	    !strstr(path + len, "/.."))
		policy->rules[n].cache = len;
}

static void on_rights(struct frame *f, const char *name, const char *value,
		      bool optional)
{
	char list[INIH_NAME_MAX + 1];
	const char *bad = NULL;
	uint32_t access;
	size_t n = 0;

	/* "read, exec" reads as "read,exec" */
	for (const char *p = name; *p && n < sizeof(list) - 1; p++)
		if (*p != ' ' && *p != '\t')
			list[n++] = *p;
	list[n] = '\0';
	if (!strcmp(list, "deny")) {
		on_deny(f, value, optional);
		return;
	}
	if (!strcmp(list, "cache")) {
		on_cache(f, value, optional);
		return;
	}
	if (rights_parse(list, &access, &bad) < 0) {
		error_at(f, "unknown right '%.*s' in key '%s' (%s)",
			 (int)strcspn(bad, ","), bad, name, rights_hint());
		return;
	}
	add_path(f, access, 0, value, optional);
}

static void on_setting(struct frame *f, const struct key *key,
		       const char *value)
{
	char origin[PATH_MAX + 32], words[64];

	for (size_t i = 0; key->words[i] != POLICY_UNSET; i++) {
		if (strcmp(policy_value_word(key->words[i]), value))
			continue;
		snprintf(origin, sizeof(origin), "profile %s:%d", f->name,
			 f->at);
		policy_set(f->ld->policy, key->setting, key->words[i], origin);
		return;
	}
	error_at(f, "bad value '%s' for %s (use %s)", value, key_name(key),
		 words_of(key->words, words, sizeof(words)));
}

static void on_unset(struct frame *f, const char *value)
{
	char origin[PATH_MAX + 32];

	if (!policy_var_pattern_ok(value)) {
		error_at(f, "bad variable name '%s' for unset (letters, digits "
			 "and '_', at most %d bytes; a trailing '*' unsets "
			 "every variable with that prefix)", value,
			 POLICY_VAR_NAME_MAX);
		return;
	}
	snprintf(origin, sizeof(origin), "profile %s:%d", f->name, f->at);
	policy_add_unset(f->ld->policy, value, origin);
}

static void on_net_mode(struct frame *f, const char *value)
{
	enum policy_net_mode mode;
	char origin[PATH_MAX + 32];

	if (netrule_mode(value, &mode) < 0) {
		error_at(f, "bad value '%s' for net (use all, none or rules)",
			 value);
		return;
	}
	/* Profiles add up: one that needs no network takes nothing from
	 * the rules (or all) another gives, read before it or after. */
	if (mode == POLICY_NET_NONE &&
	    f->ld->policy->net_mode != POLICY_NET_UNSET)
		return;
	snprintf(origin, sizeof(origin), "profile %s:%d", f->name, f->at);
	policy_set_net_mode(f->ld->policy, mode, origin);
}

static void on_net_rule(struct frame *f, const char *name, const char *value)
{
	char origin[PATH_MAX + 32], why[256];

	snprintf(origin, sizeof(origin), "profile %s:%d", f->name, f->at);
	if (netrule_add_list(f->ld->policy, netrule_op(name), value, origin,
			     why, sizeof(why)) < 0)
		error_at(f, "%s: %s", name, why);
}

static void on_description(struct frame *f, const char *value)
{
	struct profile_file *pf = &f->ld->result->files[f->file];
	size_t old = pf->description ? strlen(pf->description) : 0;

	pf->description = xrealloc(pf->description, old + strlen(value) + 2,
				   1);
	if (old)
		pf->description[old++] = ' ';
	strcpy(pf->description + old, value);
}

bool profile_key_take(struct frame *f, const struct key *key,
		      const char *name, const char *value, bool optional)
{
	size_t before = f->ld->result->n_errors;

	switch (key->kind) {
	case KEY_DESCRIPTION:
		on_description(f, value);
		break;
	case KEY_INCLUDE:
		profile_include(f, value);
		/* an error in the included file is not this line's */
		return true;
	case KEY_RIGHTS:
		on_rights(f, name, value, optional);
		break;
	case KEY_UNSET:
		on_unset(f, value);
		break;
	case KEY_NET_MODE:
		on_net_mode(f, value);
		break;
	case KEY_NET_RULE:
		on_net_rule(f, name, value);
		break;
	case KEY_SETTING:
	default:
		on_setting(f, key, value);
		break;
	}
	return f->ld->result->n_errors == before;
}
