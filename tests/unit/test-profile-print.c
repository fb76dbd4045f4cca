// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests of --print-profile's text (sandbox/profile_show.c): it
 * reads back as the rules it was printed from, whatever their paths hold.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "profile.h"
#include "tap.h"
#include "test-profile.h"

static char *printed(const struct policy *policy,
		     const struct profile_result *result)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	if (!out)
		return strdup("");
	profile_print(out, policy, result);
	fclose(out);
	return text;
}

/*
 * print -> parse -> print for paths --print-profile wrote unreadably
 * before: each nasty path reads back as itself, and the text printed from
 * a printed profile is that profile, byte for byte (the first print has
 * no "# FILE" line yet, so its rules name other line numbers).
 */
void test_print_nasty_paths(void)
{
	static const char *const paths[] = {
		"/t/new\nline", "/t/semi ;colon", "/t/hash#mark", "/t/#lead",
		"/t/trailing ", "/t/-leading-dash", "/t/q\"uote\"",
		"/t/back\\slash", "/t/bad\xff\xfe-utf8", "/t/\xc3\xa9t\xc3\xa9",
		"/t/tab\there", "/t/dollar$x", "/t/  ;#  ", NULL /* long */,
	};
	char longpath[1001];
	struct parsed p = { 0 }, q, r, t;
	char *one, *two, *three, *four;
	size_t lines_ok = 1, n = sizeof(paths) / sizeof(*paths);
	bool same = true;

	memset(longpath, 'x', 1000);
	longpath[0] = '/';
	for (int i = 100; i < 1000; i += 100)
		longpath[i] = i == 300 ? ' ' : i == 500 ? ';' : '/';
	longpath[1000] = '\0';
	for (size_t i = 0; i < n; i++)
		policy_add(&p.policy, paths[i] ? paths[i] : longpath,
			   i % 3 ? CORRAL_GROUP_RO : CORRAL_GROUP_RW,
			   "--ro on the command line");
	policy_add_optional(&p.policy, "/t/opt ional\n", CORRAL_GROUP_RX,
			    "--rx on the command line");
	one = printed(&p.policy, &p.result);
	q = parse_text(one);
	TAP_EQ(0, q.r, "nasty paths: the printed profile reads back (%s)",
	       first_error(&q));
	for (size_t i = 0; i < p.policy.n_rules && same; i++) {
		same = i < q.policy.n_rules &&
		       !strcmp(p.policy.rules[i].path, q.policy.rules[i].path) &&
		       p.policy.rules[i].access == q.policy.rules[i].access &&
		       p.policy.rules[i].optional == q.policy.rules[i].optional;
		if (!same)
			printf("#   rule %zu differs: '%s'\n", i,
			       p.policy.rules[i].path);
	}
	TAP_OK(same && q.policy.n_rules == p.policy.n_rules,
	       "nasty paths: newline, ' ;', '#', blanks, '-', quotes, '\\', "
	       "bad UTF-8, '$', a 1000-byte path: the same rules");
	two = printed(&q.policy, &q.result);
	r = parse_text(two);
	three = printed(&r.policy, &r.result);
	t = parse_text(three);
	four = printed(&t.policy, &t.result);
	TAP_OK(r.r == 0 && t.r == 0 && !strcmp(three, four),
	       "nasty paths: print -> parse -> print is identical");
	for (const char *l = one; *l; l = strchr(l, '\n') + 1)
		lines_ok &= strcspn(l, "\n") <= PROFILE_MAX_LINE;
	TAP_OK(lines_ok && strstr(one, "/t/hash#mark ") &&
	       strstr(one, "rw = /t/-leading-dash") == NULL,
	       "nasty paths: every line fits, plain paths stay bare");
	if (!same || strcmp(three, four))
		printf("# %s\n# %s", three, four);
	free(one);
	free(two);
	free(three);
	free(four);
	parsed_free(&p);
	parsed_free(&q);
	parsed_free(&r);
	parsed_free(&t);
}

/* --print-profile output parses back to the same rules. */
void test_print_round_trip(void)
{
	struct parsed p = load("npm"), q;
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	bool same = true;
	char want[128];

	policy_add(&p.policy, "/odd$name", CORRAL_ACCESS_READ |
		   CORRAL_ACCESS_TRUNCATE, "--allow on the command line");
	profile_print(out, &p.policy, &p.result);
	fclose(out);
	snprintf(want, sizeof(want), "\n%-40s ; npm.profile:10\n",
		 "rw = /home/u/proj");
	TAP_OK(strstr(text, want) != NULL,
	       "each rule names where it came from");
	TAP_OK(strstr(text, "rw = -/home/u/.cache/node-gyp") != NULL,
	       "optional rules keep their '-'");
	TAP_OK(strstr(text, "[sandbox]\nexec-anonymous = no") != NULL,
	       "settings are printed");
	q = parse_text(text);
	TAP_EQ(0, q.r, "the output is a valid profile (%s)", first_error(&q));
	for (size_t i = 0; i < p.policy.n_rules && same; i++)
		same = i < q.policy.n_rules &&
		       !strcmp(p.policy.rules[i].path, q.policy.rules[i].path) &&
		       p.policy.rules[i].access == q.policy.rules[i].access &&
		       p.policy.rules[i].optional == q.policy.rules[i].optional;
	TAP_OK(same && p.policy.n_rules == q.policy.n_rules &&
	       !memcmp(p.policy.sandbox.value, q.policy.sandbox.value,
		       sizeof(p.policy.sandbox.value)),
	       "and reads back as the same policy");
	if (!same)
		printf("# %s", text);
	free(text);
	parsed_free(&p);
	parsed_free(&q);
}

/* sysv-ipc = yes is printed back, and reads back as itself. */
void test_print_sysv_ipc(void)
{
	struct parsed p = parse_text("[sandbox]\nsysv-ipc = yes\n"), q;
	char *text = printed(&p.policy, &p.result);

	TAP_OK(strstr(text, "\nsysv-ipc = yes") != NULL,
	       "sysv-ipc = yes is printed");
	q = parse_text(text);
	TAP_OK(q.r == 0 && q.policy.sandbox.value[POLICY_SYSV_IPC] ==
			   POLICY_YES,
	       "and reads back as yes (%s)", first_error(&q));
	free(text);
	parsed_free(&p);
	parsed_free(&q);
}
