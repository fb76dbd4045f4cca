// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests of profiles as files (sandbox/profile.c): loading one
 * by name or path, includes, the list `corral profiles` prints, and the
 * shipped profiles in profiles/.
 */
#include "config.h"

#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "profile.h"
#include "secrets.h"
#include "tap.h"
#include "test-profile.h"

void test_design_example(void)
{
	struct parsed p = load("npm");
	const struct policy *pol = &p.policy;

	TAP_EQ(0, p.r, "the DESIGN.md example loads (%s)", first_error(&p));
	TAP_EQ(7, pol->n_rules, "base's rule and npm's six");
	TAP_OK(rule_is(pol, 0, "/etc/ld.so.cache", CORRAL_GROUP_RO, false,
		       "profile base.profile:4"),
	       "the included profile's rules come at the include line");
	TAP_OK(rule_is(pol, 1, "/usr", CORRAL_GROUP_RX, false,
		       "profile npm.profile:7"), "rx = /usr");
	TAP_OK(rule_is(pol, 3, "/etc/resolv.conf", CORRAL_GROUP_RO, false,
		       "profile npm.profile:9"),
	       "a continuation line is a rule with its own line number");
	TAP_OK(rule_is(pol, 4, "/home/u/proj", CORRAL_GROUP_RW, false,
		       "profile npm.profile:10"), "${CWD} expands");
	TAP_OK(rule_is(pol, 5, "/home/u/.npm", CORRAL_GROUP_RW, false,
		       "profile npm.profile:11"), "${HOME}/.npm expands");
	TAP_OK(rule_is(pol, 6, "/home/u/.cache/node-gyp", CORRAL_GROUP_RW,
		       true, "profile npm.profile:12"),
	       "'-' is optional; XDG_CACHE_HOME defaults to ~/.cache; the "
	       "inline comment of a continuation line is dropped");
	TAP_EQ(POLICY_NO, pol->sandbox.value[POLICY_EXEC_ANONYMOUS],
	       "exec-anonymous = no, after base's yes: the later one wins");
	TAP_OK(pol->sandbox.origin[POLICY_EXEC_ANONYMOUS] &&
	       !strcmp(pol->sandbox.origin[POLICY_EXEC_ANONYMOUS],
		       "profile npm.profile:15"), "a setting keeps its origin");
	TAP_EQ(POLICY_SCOPED, pol->sandbox.value[POLICY_UNIX_CONNECT],
	       "unix-connect = scoped");
	TAP_EQ(POLICY_ANY, pol->sandbox.value[POLICY_REQUIRE],
	       "require = any, from base");
	TAP_EQ(2, p.result.n_files, "two files were read");
	TAP_OK(p.result.n_files == 2 && p.result.files[0].description &&
	       !strcmp(p.result.files[0].description,
		       "npm confined to the project and its cache"),
	       "the description is kept");
	parsed_free(&p);
}

void test_includes(void)
{
	struct parsed p;

	p = load("cycle-a");
	TAP_OK(p.r == -EINVAL && !strcmp(first_error(&p),
		TEST_PROFILES "/cycle-b.profile:3: include cycle: cycle-a.profile -> "
		"cycle-b.profile -> cycle-a.profile (remove one of these "
		"includes)"), "an include cycle (%s)", first_error(&p));
	parsed_free(&p);
	p = load("deep1");
	TAP_OK(p.r == 0 && p.policy.n_rules == 9,
	       "8 levels of include below a profile are fine (%s)",
	       first_error(&p));
	parsed_free(&p);
	p = load("deep0");
	TAP_OK(p.r == -EINVAL && !strcmp(first_error(&p),
		TEST_PROFILES "/deep8.profile:3: include 'deep9.profile': includes nest "
		"deeper than 8 levels (flatten them)"),
	       "a 9th level is refused (%s)", first_error(&p));
	parsed_free(&p);
	p = load("relative");
	TAP_OK(p.r == 0 && p.policy.n_rules == 1 &&
	       !strcmp(p.policy.rules[0].origin,
		       "profile " TEST_PROFILES "/sub/inner.profile:2"),
	       "include with a '/' is relative to the including file (%s)",
	       first_error(&p));
	parsed_free(&p);
	p = load("diamond");
	TAP_OK(p.r == 0 && p.policy.n_rules == 2,
	       "a profile included twice is read once (%s)", first_error(&p));
	parsed_free(&p);
	p = load("broken-include");
	TAP_OK(p.r == -EINVAL && !strcmp(first_error(&p),
		TEST_PROFILES "/bad-key.profile:4: unknown key 'name' in [profile] (keys: "
		"description, include)"),
	       "an error in an included file names that file (%s)",
	       first_error(&p));
	parsed_free(&p);
	p = parse_text("[profile]\ninclude = nosuch\n");
	TAP_OK(p.r == -EINVAL && !strcmp(first_error(&p),
		"t.profile:2: include 'nosuch': no nosuch.profile in "
		TEST_PROFILES " (see 'corral profiles')"),
	       "include of a missing profile (%s)", first_error(&p));
	parsed_free(&p);
}

void test_files(void)
{
	struct parsed p;

	p = load("/nonexistent/x.profile");
	TAP_OK(p.r == -EINVAL && !strcmp(first_error(&p),
		"/nonexistent/x.profile: No such file or directory"),
	       "a missing file (%s)", first_error(&p));
	parsed_free(&p);
	p = load(TEST_PROFILES "/sub");
	TAP_OK(p.r == -EINVAL && !strcmp(first_error(&p),
		TEST_PROFILES "/sub: not a regular file"),
	       "a directory (%s)", first_error(&p));
	parsed_free(&p);
	p = load("nosuch");
	TAP_OK(p.r == -EINVAL && !strcmp(first_error(&p),
		"nosuch: no such profile in " TEST_PROFILES " (list them "
		"with 'corral profiles'; a FILE needs a '/', e.g. ./nosuch.profile)"),
	       "an unknown profile name (%s)", first_error(&p));
	parsed_free(&p);
	p = load(TEST_PROFILES "/npm.profile");
	TAP_OK(p.r == 0 && p.policy.n_rules == 7 &&
	       !strcmp(p.policy.rules[1].origin,
		       "profile " TEST_PROFILES "/npm.profile:7"),
	       "a FILE's rules name its path (%s)", first_error(&p));
	parsed_free(&p);
}

/* corral profiles: first match wins, later ones are marked shadowed. */
void test_list(void)
{
	char *dirs[] = { TEST_PROFILES "/shadow", TEST_PROFILES };
	struct profile_env two = { .vars = &vars, .search = dirs,
				   .n_search = 2 };
	char *text = NULL, *found = profile_find(&two, "npm");
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	TAP_OK(found && !strcmp(found, TEST_PROFILES "/shadow/npm.profile"),
	       "profile_find: the first directory wins (%s)", found);
	free(found);
	TAP_EQ(0, profile_list(out, &two), "profile_list");
	fclose(out);
	TAP_OK(strstr(text, "npm            my own npm, shadowing the one "
			    "below\n               " TEST_PROFILES
			    "/shadow/npm.profile\n               "
			    TEST_PROFILES "/npm.profile (shadowed by the one "
			    "above)\n") != NULL,
	       "each name once with its description and file; the "
	       "shadowed file is marked");
	TAP_OK(strstr(text, "base           a small base for the tests\n") !=
	       NULL, "profiles are listed by name");
	if (!strstr(text, "(shadowed"))
		printf("# %s", text);
	free(text);
}

/* Every shipped profile loads, from the real search order. */
void test_shipped(void)
{
	char *dirs[] = { TOP_SRCDIR "/profiles" };
	struct profile_env shipped = { .vars = &vars, .search = dirs,
				       .n_search = 1 };
	glob_t g;

	if (glob(TOP_SRCDIR "/profiles/*.profile", 0, NULL, &g) != 0) {
		TAP_OK(0, "no profiles in " TOP_SRCDIR "/profiles");
		return;
	}
	TAP_OK(g.gl_pathc >= 12, "at least 12 shipped profiles (%zu)",
	       g.gl_pathc);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct parsed p = { 0 };
		char *description = NULL;

		p.r = profile_load(&shipped, g.gl_pathv[i], &p.policy,
				   &p.result);
		profile_describe(g.gl_pathv[i], &description);
		TAP_OK(p.r == 0 && description && p.policy.n_rules,
		       "%s loads, has rules and a description (%s)",
		       strrchr(g.gl_pathv[i], '/') + 1, first_error(&p));
		free(description);
		parsed_free(&p);
	}
	globfree(&g);
}

/*
 * profiles/secrets.profile denies exactly the table `corral learn` warns
 * about (sandbox/secrets.c), each optional and with every right.
 */
void test_secrets_agree(void)
{
	char *dirs[] = { TOP_SRCDIR "/profiles" };
	struct profile_env shipped = { .vars = &vars, .search = dirs,
				       .n_search = 1 };
	struct parsed p = { 0 };
	size_t n = 0, found = 0;

	p.r = profile_load(&shipped, "secrets", &p.policy, &p.result);
	TAP_EQ(0, p.r, "secrets.profile loads (%s)", first_error(&p));
	for (const struct secret *s = secrets; s->path; s++, n++) {
		char want[PATH_MAX];

		snprintf(want, sizeof(want), "/home/u/%s", s->path);
		for (size_t i = 0; i < p.policy.n_rules; i++) {
			const struct policy_rule *r = &p.policy.rules[i];

			if (!strcmp(r->path, want) && r->optional &&
			    r->deny == CORRAL_ACCESS_ALL && !r->access) {
				found++;
				break;
			}
		}
	}
	TAP_OK(n && found == n && p.policy.n_rules == n,
	       "secrets.profile denies each of the %zu secrets of "
	       "sandbox/secrets.c and nothing else (%zu found, %zu rules)",
	       n, found, p.policy.n_rules);
	parsed_free(&p);
}
