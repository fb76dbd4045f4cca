// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * explain_judge.c - the arithmetic of a walk, as bpf/walk.h and Landlock
 * do it, and the name of a rule in explain's answers.  No system calls:
 * tests/unit/test-explain.c feeds it inodes of its own.
 */
#include "config.h"

#include "explain.h"

#include <string.h>

#include "profile.h"

static void cite(const struct explain_rule **list, size_t *n,
		 const struct explain_rule *rule)
{
	for (size_t i = 0; i < *n; i++)
		if (list[i] == rule)
			return;
	if (*n < EXPLAIN_MAX_CITED)
		list[(*n)++] = rule;
}

/*
 * A rule counts wherever its inode is met on the walk: on a directory
 * it covers everything beneath, on a file only that file (whose rule
 * holds only file rights).  Allows and denies are both unions, so the
 * order of the walk does not change the rights, only which rule is
 * named first (the nearest, as a user reads the path).
 */
void explain_judge(const struct explain_rule *rules, size_t n_rules,
		   const struct explain_node *nodes, size_t n, uint32_t need,
		   struct explain_verdict *v)
{
	memset(v, 0, sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		for (size_t r = 0; r < n_rules; r++) {
			const struct explain_rule *rule = &rules[r];

			if (rule->dev != nodes[i].dev ||
			    rule->ino != nodes[i].ino)
				continue;
			v->allow |= rule->allow;
			v->deny |= rule->deny;
			if (rule->allow & need)
				cite(v->granted, &v->n_granted, rule);
			if (rule->deny & need)
				cite(v->denied, &v->n_denied, rule);
		}
	}
}

/*
 * A rename removes the entry from SRC's directory and creates it in
 * DST's, replacing (removing) what DST names; an exchange does both on
 * each side; a link only creates.  Across directories, refer on both
 * sides as well (Landlock's current_check_refer_path(), bpf's
 * check_refer()).
 */
void explain_move_needs(int kind, bool replaces, bool same_dir,
			uint32_t *src, uint32_t *dst)
{
	*src = 0;
	*dst = CORRAL_ACCESS_CREATE;
	if (kind != EXPLAIN_MOVE_LINK)
		*src |= CORRAL_ACCESS_REMOVE;
	if (kind == EXPLAIN_MOVE_EXCHANGE)
		*src |= CORRAL_ACCESS_CREATE;
	if (kind == EXPLAIN_MOVE_EXCHANGE ||
	    (kind == EXPLAIN_MOVE_RENAME && replaces))
		*dst |= CORRAL_ACCESS_REMOVE;
	if (same_dir)
		return;
	*src |= CORRAL_ACCESS_REFER;
	*dst |= CORRAL_ACCESS_REFER;
}

/*
 * Directory rights (readdir, create, remove, refer) mean nothing on a
 * file, so a file's move compares only file rights; a directory hands
 * them all down to what it holds.
 */
uint32_t explain_gained(const struct explain_verdict *here,
			const struct explain_verdict *there, bool is_dir)
{
	uint32_t mask = is_dir ? CORRAL_ACCESS_ALL : CORRAL_ACCESS_FILE;
	uint32_t now = here->allow & ~here->deny;

	return there->allow & ~there->deny & ~now & mask;
}

static const char *after_space(const char *s)
{
	const char *sp = strchr(s, ' ');

	return sp ? sp + 1 : "";
}

/*
 * Flags read back as typed ("--rw /p", "--allow read,exec:/usr",
 * "--deny /h/.ssh"); profile lines as their key and value
 * ("rw = /p at git.profile:6").  Anything else keeps its origin.
 */
const char *explain_rule_text(const struct policy_rule *rule, uint32_t deny,
			      char *buf, size_t size)
{
	const char *origin = rule->origin;
	char names[128];
	size_t flag = strcspn(origin, " ");

	if (!strncmp(origin, "--", 2)) {
		const char *rights = "";

		if (!strncmp(origin, "--allow ", 8))
			rights = rights_format(rule->access, names,
					       sizeof(names));
		else if (!strncmp(origin, "--deny ", 7) &&
			 deny != CORRAL_ACCESS_ALL)
			rights = rights_format(deny, names, sizeof(names));
		snprintf(buf, size, "%.*s %s%s%s %s", (int)flag, origin,
			 rights, rights[0] ? ":" : "", rule->path,
			 after_space(origin));
	} else if (!strncmp(origin, "profile ", 8)) {
		const char *key = deny ? "deny" :
			profile_rights_key(rule->access, names, sizeof(names));
		char rights[128] = "";

		if (deny && deny != CORRAL_ACCESS_ALL)
			snprintf(rights, sizeof(rights), "%s:",
				 rights_format(deny, names, sizeof(names)));
		snprintf(buf, size, "%s = %s%s%s at %s", key,
			 rule->optional ? "-" : "", rights, rule->path,
			 origin + 8);
	} else {
		snprintf(buf, size, "%s (%s)", rule->path, origin);
	}
	return buf;
}
