// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * profile_show.c - what a user sees of profiles: `corral --print-profile`
 * (the merged policy as INI, each rule naming where it came from) and
 * `corral profiles` (the search path, first match wins).
 */
#include "config.h"

#include "profile.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "netrule.h"
#include "util.h"

const char *profile_rights_key(uint32_t access, char *buf, size_t size)
{
	const char *group = rights_group_name(access);

	return group ? group : rights_format(access, buf, size);
}

/* "profile npm.profile:9" prints as "npm.profile:9". */
static const char *short_origin(const char *origin)
{
	return strncmp(origin, "profile ", 8) ? origin : origin + 8;
}

/* ---- quoting (the rule is in profile.h and corral.profile(5)) -------- */

struct text {
	char *buf;
	size_t len, size;
};

static void text_add(struct text *t, const char *s, size_t n)
{
	if (t->len + n + 1 > t->size) {
		t->size = 2 * (t->len + n + 1) + 64;
		t->buf = xrealloc(t->buf, t->size, 1);
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
}

static void text_adds(struct text *t, const char *s)
{
	text_add(t, s, strlen(s));
}

/*
 * The character at @s (@n bytes left) as written inside quotes, in @tok;
 * returns the bytes of @s it stands for.  At the start of a continuation
 * line, inih would skip a blank and take ';' or '#' for a comment.
 */
static size_t quoted_char(const char *s, size_t n, bool line_start,
			  char tok[8])
{
	static const char plain[] = "\"\\\n\t\r", named[] = "\"\\ntr";
	const char *esc = strchr(plain, s[0]);
	size_t len = text_printable_len(s, n);

	if (esc && s[0]) {
		snprintf(tok, 8, "\\%c", named[esc - plain]);
		return 1;
	}
	if (!len || (line_start && strchr(" ;#", s[0]))) {
		snprintf(tok, 8, "\\x%02x", (unsigned char)s[0]);
		return 1;
	}
	memcpy(tok, s, len);
	tok[len] = '\0';
	return len;
}

/* Whether @s would not read back as itself written bare. */
static bool needs_quotes(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > PROFILE_QUOTE_WIDTH || strchr("\"-", s[0]) ||
	    isspace((unsigned char)s[0]) || isspace((unsigned char)s[n - 1]))
		return true;
	for (size_t i = 0; i < n; i++) {
		if (!text_printable_len(s + i, n - i))
			return true;
		if (s[i] == ';' && i && isspace((unsigned char)s[i - 1]))
			return true;   /* inih: an inline comment */
	}
	return false;
}

static void add_quoted(struct text *t, const char *s)
{
	size_t n = strlen(s), width = 0;
	bool line_start = false;
	char tok[8];

	text_adds(t, "\"");
	for (size_t i = 0, used; i < n; i += used) {
		used = quoted_char(s + i, n - i, line_start, tok);
		if (width && width + strlen(tok) > PROFILE_QUOTE_WIDTH) {
			text_adds(t, "\\\n\t");
			width = 0;
			used = quoted_char(s + i, n - i, true, tok);
		}
		text_adds(t, tok);
		width += strlen(tok);
		line_start = false;
	}
	text_adds(t, "\"");
}

char *profile_quote(const char *prefix, const char *literal, bool optional)
{
	struct text value = { 0 }, out = { 0 };

	text_adds(&value, prefix);
	for (const char *p = literal; *p; p++)
		text_add(&value, *p == '$' ? "$$" : p, *p == '$' ? 2 : 1);
	text_adds(&out, optional ? "-" : "");
	if (needs_quotes(value.buf))
		add_quoted(&out, value.buf);
	else
		text_adds(&out, value.buf);
	free(value.buf);
	return out.buf;
}

char *profile_comment_text(const char *text, size_t max)
{
	struct text out = { 0 };
	size_t n = strlen(text);
	char tok[8];

	text_adds(&out, "");
	for (size_t i = 0, used; i < n; i += used) {
		used = text_printable_len(text + i, n - i);
		if (used)
			snprintf(tok, sizeof(tok), "%.*s", (int)used, text + i);
		else
			snprintf(tok, sizeof(tok), "\\x%02x",
				 (unsigned char)text[i]);
		used += !used;
		if (out.len + strlen(tok) + 3 > max) {
			text_adds(&out, "...");
			break;
		}
		text_adds(&out, tok);
	}
	return out.buf;
}

/* ---- --print-profile ---------------------------------------------------- */

/* One rule as "KEY = [-]PATH   ; origin", the path quoted when it needs
 * to be (its '$' doubled) so that the output reads back as the same
 * profile.  An origin that would not fit on the line goes above it. */
static void print_rule(FILE *out, const struct policy_rule *rule)
{
	char names[128], denied[136] = "";
	const char *key = rule->deny ? "deny" : rule->cache ? "cache" :
			  profile_rights_key(rule->access, names,
					     sizeof(names));
	_cleanup_free_ char *value = NULL;
	_cleanup_free_ char *origin =
		profile_comment_text(short_origin(rule->origin), 120);
	size_t len;

	/* deny = PATH takes every right, deny = RIGHTS:PATH some */
	if (rule->deny && rule->deny != CORRAL_ACCESS_ALL)
		snprintf(denied, sizeof(denied), "%s:",
			 profile_rights_key(rule->deny, names, sizeof(names)));
	value = profile_quote(denied, rule->path, rule->optional);
	len = strlen(key) + 3 + strlen(value);

	if (strchr(value, '\n') ||
	    (len > 40 ? len : 40) + 3 + strlen(origin) > PROFILE_MAX_LINE) {
		fprintf(out, "; %s\n%s = %s\n", origin, key, value);
		return;
	}
	fprintf(out, "%s = %-*s ; %s\n", key, (int)(37 - strlen(key)), value,
		origin);
}

/*
 * A rule on a host name as written, then, once resolved, a comment with
 * its addresses: what this launch would allow, not what the next will.
 */
static void print_host(FILE *out, const struct policy_net_host *h)
{
	char text[96], line[POLICY_HOST_NAME_MAX + 64];

	snprintf(line, sizeof(line), "%s = %s%s:%s", netrule_op_name(h->rule.op),
		 h->optional ? "-" : "", h->name,
		 netrule_format(&h->rule, text, sizeof(text)));
	fprintf(out, "%-40s ; %s\n", line, short_origin(h->origin));
	if (!h->resolved)
		return;
	if (h->error) {
		fprintf(out, ";   %s: %s%s\n", h->name, h->error,
			h->optional ? " (skipped)" : "");
		return;
	}
	fprintf(out, ";   %s:", h->name);
	for (size_t a = 0; a < h->n_addrs; a++) {
		const struct policy_net_rule *r = &h->addrs[a];

		if (!inet_ntop(r->family == 6 ? AF_INET6 : AF_INET, r->addr,
			       text, sizeof(text)))
			snprintf(text, sizeof(text), "?");
		fprintf(out, "%s %s", a ? "," : "", text);
	}
	fputs(" (resolved now; each launch resolves again)\n", out);
}

/* [network]: always, with the mode in force and where it comes from. */
static void print_network(FILE *out, const struct policy *policy)
{
	char text[96], line[160];

	fputs("\n[network]\n", out);
	snprintf(line, sizeof(line), "net = %s",
		 netrule_mode_name(policy_net_mode(policy)));
	fprintf(out, "%-40s ; %s\n", line, policy->net_mode_origin ?
		short_origin(policy->net_mode_origin) :
		POLICY_NET_DEFAULT_ALL);
	for (size_t i = 0; i < policy->n_net; i++) {
		snprintf(line, sizeof(line), "%s = %s",
			 netrule_op_name(policy->net[i].op),
			 netrule_format(&policy->net[i], text, sizeof(text)));
		fprintf(out, "%-40s ; %s\n", line,
			short_origin(policy->net_origin[i]));
	}
	for (size_t i = 0; i < policy->n_hosts; i++)
		print_host(out, &policy->hosts[i]);
}

/* "# PATH: description", as one comment line a profile may hold. */
static void print_file(FILE *out, const struct profile_file *pf)
{
	_cleanup_free_ char *line = NULL, *text = NULL;
	const char *description = pf->description ? pf->description
						  : "(no description)";

	line = xmalloc(strlen(pf->path) + strlen(description) + 3);
	sprintf(line, "%s: %s", pf->path, description);
	text = profile_comment_text(line, PROFILE_MAX_LINE - 2);
	fprintf(out, "# %s\n", text);
}

void profile_print(FILE *out, const struct policy *policy,
		   const struct profile_result *result)
{
	const struct policy_sandbox *sb = &policy->sandbox;
	bool any = false;

	fputs("# corral --print-profile: the merged, expanded policy\n", out);
	for (size_t i = 0; i < result->n_files; i++)
		print_file(out, &result->files[i]);
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
		fprintf(out, "%s = %-*s ; %s\n", policy_setting_key(i),
			(int)(37 - strlen(policy_setting_key(i))),
			policy_value_word(sb->value[i]),
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
