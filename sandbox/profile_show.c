// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * profile_show.c - what a user sees of profiles: `corral --print-profile`
 * (the merged policy as INI, each rule naming where it came from) and
 * `corral profiles` (the search path, first match wins).
 */
#include "config.h"

#include "profile.h"

#include <dirent.h>
#include <limits.h>
#include <string.h>

#include "netrule.h"
#include "util.h"

static const char *const setting_keys[POLICY_N_SETTINGS] = {
	[POLICY_EXEC_ANONYMOUS] = "exec-anonymous",
	[POLICY_UNIX_CONNECT] = "unix-connect",
	[POLICY_REQUIRE] = "require",
	[POLICY_QUIET] = "quiet",
};

static const char *value_word(enum policy_value value)
{
	switch (value) {
	case POLICY_NO:     return "no";
	case POLICY_YES:    return "yes";
	case POLICY_SCOPED: return "scoped";
	case POLICY_ALLOW:  return "allow";
	case POLICY_ANY:    return "any";
	case POLICY_BPF:    return "bpf";
	case POLICY_UNSET:
	default:            return "?";
	}
}

/* The shortest key for @access: a group name, else a list of rights. */
static const char *rights_key(uint32_t access, char *buf, size_t size)
{
	static const char *const groups[] = { "rwx", "rw", "rx", "ro" };

	for (size_t i = 0; i < sizeof(groups) / sizeof(*groups); i++)
		if (rights_group(groups[i]) == access)
			return groups[i];
	return rights_format(access, buf, size);
}

/* "profile npm.profile:9" prints as "npm.profile:9". */
static const char *short_origin(const char *origin)
{
	return strncmp(origin, "profile ", 8) ? origin : origin + 8;
}

/* One rule as "KEY = [-]PATH   ; origin"; each '$' in the path is doubled
 * so that the output reads back as the same profile. */
static void print_rule(FILE *out, const struct policy_rule *rule)
{
	char names[128], line[2 * PATH_MAX + 160];
	const char *key = rights_key(rule->access, names, sizeof(names));
	size_t n = (size_t)snprintf(line, sizeof(line), "%s = %s", key,
				    rule->optional ? "-" : "");

	for (const char *p = rule->path; *p && n + 3 < sizeof(line); p++) {
		if (*p == '$')
			line[n++] = '$';
		line[n++] = *p;
	}
	line[n] = '\0';
	fprintf(out, "%-40s ; %s\n", line, short_origin(rule->origin));
}

/* [network]: shown only when a rule or a setting says something. */
static void print_network(FILE *out, const struct policy *policy)
{
	char text[96], line[160];

	if (policy->net_mode == POLICY_NET_UNSET && !policy->n_net)
		return;
	fputs("\n[network]\n", out);
	snprintf(line, sizeof(line), "net = %s",
		 netrule_mode_name(policy->net_mode));
	fprintf(out, "%-40s ; %s\n", line, policy->net_mode_origin ?
		short_origin(policy->net_mode_origin) : "?");
	for (size_t i = 0; i < policy->n_net; i++) {
		snprintf(line, sizeof(line), "%s = %s",
			 netrule_op_name(policy->net[i].op),
			 netrule_format(&policy->net[i], text, sizeof(text)));
		fprintf(out, "%-40s ; %s\n", line,
			short_origin(policy->net_origin[i]));
	}
}

void profile_print(FILE *out, const struct policy *policy,
		   const struct profile_result *result)
{
	const struct policy_sandbox *sb = &policy->sandbox;
	bool any = false;

	fputs("# corral --print-profile: the merged, expanded policy\n", out);
	for (size_t i = 0; i < result->n_files; i++)
		fprintf(out, "# %s: %s\n", result->files[i].path,
			result->files[i].description ? result->files[i].description
						     : "(no description)");
	fputs("\n[filesystem]\n", out);
	for (size_t i = 0; i < policy->n_rules; i++)
		print_rule(out, &policy->rules[i]);
	print_network(out, policy);
	for (int i = 0; i < POLICY_N_SETTINGS; i++) {
		if (sb->value[i] == POLICY_UNSET)
			continue;
		if (!any)
			fputs("\n[sandbox]\n", out);
		any = true;
		fprintf(out, "%s = %-*s ; %s\n", setting_keys[i],
			(int)(37 - strlen(setting_keys[i])),
			value_word(sb->value[i]),
			short_origin(sb->origin[i] ? sb->origin[i] : "?"));
	}
	if (policy->n_unset)
		fputs("\n[environment]\n", out);
	for (size_t i = 0; i < policy->n_unset; i++)
		fprintf(out, "unset = %-*s ; %s\n", 37 - 5,
			policy->unset[i].name,
			short_origin(policy->unset[i].origin));
}

/* ---- corral profiles -------------------------------------------------- */

struct entry {
	char *name;      /* without ".profile" */
	char *path;
	size_t dir;      /* index in the search path: lower wins */
};

static int by_name_then_dir(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int r = strcmp(x->name, y->name);

	if (r)
		return r;
	return x->dir < y->dir ? -1 : x->dir > y->dir;
}

static void collect(const char *dir, size_t index, struct entry **entries,
		    size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		struct entry *e;

		if (de->d_name[0] == '.' || len <= 8 ||
		    strcmp(de->d_name + len - 8, ".profile"))
			continue;
		*entries = xrealloc(*entries, *n + 1, sizeof(**entries));
		e = &(*entries)[(*n)++];
		e->name = xstrdup(de->d_name);
		e->name[len - 8] = '\0';
		e->path = xmalloc(strlen(dir) + len + 2);
		sprintf(e->path, "%s/%s", dir, de->d_name);
		e->dir = index;
	}
	closedir(d);
}

static void print_entry(FILE *out, const struct entry *e, bool shadowed)
{
	_cleanup_free_ char *description = NULL;

	if (shadowed) {
		fprintf(out, "%-14s %s (shadowed by the one above)\n", "",
			e->path);
		return;
	}
	if (profile_describe(e->path, &description) < 0)
		fprintf(out, "%-14s (unreadable or invalid: corral check "
			"FILE says why)\n", e->name);
	else
		fprintf(out, "%-14s %s\n", e->name,
			description ? description : "(no description)");
	fprintf(out, "%-14s %s\n", "", e->path);
}

int profile_list(FILE *out, const struct profile_env *env)
{
	struct entry *entries = NULL;
	size_t n = 0;

	for (size_t i = 0; i < env->n_search; i++)
		collect(env->search[i], i, &entries, &n);
	if (n)
		qsort(entries, n, sizeof(*entries), by_name_then_dir);
	for (size_t i = 0; i < n; i++)
		print_entry(out, &entries[i],
			    i && !strcmp(entries[i].name, entries[i - 1].name));
	if (!n) {
		_cleanup_free_ char *where = profile_search_text(env);

		fprintf(out, "no profiles in %s\n", where);
	}
	for (size_t i = 0; i < n; i++) {
		free(entries[i].name);
		free(entries[i].path);
	}
	free(entries);
	return 0;
}
