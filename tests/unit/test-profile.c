// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests: INI profiles (sandbox/profile.c, expand.c), their
 * command-line side (--profile, --print-profile, check, profiles, argv[0]
 * mode) and the shipped profiles in profiles/.  This file holds what the
 * test-profile-*.c files share (test-profile.h) and main(), which runs
 * their tests in one TAP stream.
 *
 * Fixtures live in tests/unit/profiles/ (TEST_PROFILES); inline profiles
 * are parsed from memory as "t.profile".
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "expand.h"
#include "policy.h"
#include "profile.h"
#include "tap.h"
#include "test-vars.h"
#include "test-profile.h"

struct vars vars;
static char *fixture_dirs[] = { TEST_PROFILES };
struct profile_env env = {
	.vars = &vars, .search = fixture_dirs, .n_search = 1,
};

void parsed_free(struct parsed *p)
{
	policy_free(&p->policy);
	profile_result_free(&p->result);
}

struct parsed parse_text(const char *text)
{
	struct parsed p = { 0 };

	p.r = profile_load_buffer(&env, "t.profile", text, strlen(text),
				  &p.policy, &p.result);
	return p;
}

/* parse_text, and a test that @text parses: "@what (first error)" */
struct parsed parse_ok(const char *text, const char *what)
{
	struct parsed p = parse_text(text);

	TAP_EQ(0, p.r, "%s (%s)", what, first_error(&p));
	return p;
}

struct parsed load(const char *spec)
{
	struct parsed p = { 0 };

	p.r = profile_load(&env, spec, &p.policy, &p.result);
	return p;
}

const char *first_error(const struct parsed *p)
{
	return p->result.n_errors ? p->result.errors[0] : "no error";
}

/* One TAP line: parsing @text fails with exactly @want as first error. */
void expect_error(const char *text, const char *want, const char *name)
{
	struct parsed p = parse_text(text);

	TAP_OK(p.r == -EINVAL && !strcmp(first_error(&p), want), "%s", name);
	if (strcmp(first_error(&p), want))
		printf("#   want: %s\n#   got:  %s\n", want, first_error(&p));
	parsed_free(&p);
}

void expect_errors(const struct error_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++)
		expect_error(cases[i].text, cases[i].error, cases[i].name);
}

bool rule_is(const struct policy *policy, size_t i, const char *path,
	     uint32_t access, bool optional, const char *origin)
{
	const struct policy_rule *r = &policy->rules[i];

	if (i >= policy->n_rules)
		return false;
	if (strcmp(r->path, path) || r->access != access ||
	    r->optional != optional || strcmp(r->origin, origin)) {
		printf("#   rule %zu: %s %#x %d (%s)\n", i, r->path, r->access,
		       r->optional, r->origin);
		return false;
	}
	return true;
}

int main(void)
{
	test_vars(&vars, true);
	test_design_example();
	test_syntax_errors();
	test_nul();
	test_long_lines();
	test_continuation_and_comments();
	test_rights_keys();
	test_variables();
	test_project_root();
	test_project_not_home();
	test_paths();
	test_settings();
	test_environment();
	test_includes();
	test_files();
	test_messages();
	test_flags_merge();
	test_print_round_trip();
	test_error_order();
	test_quoting();
	test_print_nasty_paths();
	test_print_sysv_ipc();
	test_cli();
	test_find_program();
	test_list();
	test_shipped();
	test_deny();
	test_key_errors();
	test_secrets_agree();
	vars_free(&vars);
	return tap_done();
}
