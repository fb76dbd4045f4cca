/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-profile.h - what the files of the test-profile program share: the
 * fixture the profiles are parsed with, helpers to parse one and check
 * it, and each file's tests, which main() (test-profile.c) runs in order.
 */
#ifndef CORRAL_TEST_PROFILE_H
#define CORRAL_TEST_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "expand.h"
#include "policy.h"
#include "profile.h"

#define ARGV(...) ((char *[]){ "corral", __VA_ARGS__, NULL })

/* HOME=/home/u, CWD=PROJECT=/home/u/proj; TEST_PROFILES is the search path */
extern struct vars vars;
extern struct profile_env env;

struct parsed {
	struct policy policy;
	struct profile_result result;
	int r;
};

/* A profile text, the first error it must give, and what the case is. */
struct error_case {
	const char *text, *error, *name;
};

#define N_CASES(table) (sizeof(table) / sizeof((table)[0]))

void parsed_free(struct parsed *p);
/* @text parsed as "t.profile" */
struct parsed parse_text(const char *text);
/* the same, and a test that it parses (@what, with the first error) */
struct parsed parse_ok(const char *text, const char *what);
/* a profile NAME from TEST_PROFILES, or a FILE */
struct parsed load(const char *spec);
const char *first_error(const struct parsed *p);
void expect_error(const char *text, const char *want, const char *name);
void expect_errors(const struct error_case *cases, size_t n);
/* rule @i is @path with @access, @optional and @origin (else says why) */
bool rule_is(const struct policy *policy, size_t i, const char *path,
	     uint32_t access, bool optional, const char *origin);

/* test-profile-syntax.c */
void test_syntax_errors(void);
void test_nul(void);
void test_long_lines(void);
void test_continuation_and_comments(void);
void test_messages(void);
void test_error_order(void);
void test_quoting(void);

/* test-profile-keys.c */
void test_rights_keys(void);
void test_variables(void);
void test_project_root(void);
void test_project_not_home(void);
void test_paths(void);
void test_settings(void);
void test_environment(void);
void test_deny(void);
void test_key_errors(void);

/* test-profile-files.c */
void test_design_example(void);
void test_includes(void);
void test_files(void);
void test_list(void);
void test_shipped(void);
void test_secrets_agree(void);

/* test-profile-cli.c */
void test_flags_merge(void);
void test_cli(void);
void test_find_program(void);

/* test-profile-print.c */
void test_print_nasty_paths(void);
void test_print_round_trip(void);
void test_print_sysv_ipc(void);

#endif
