// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests: INI profiles (sandbox/profile.c, expand.c), their
 * command-line side (--profile, --print-profile, check, profiles, argv[0]
 * mode) and the shipped profiles in profiles/.
 *
 * Fixtures live in tests/unit/profiles/ (TEST_PROFILES); inline profiles
 * are parsed from memory as "t.profile".
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "expand.h"
#include "policy.h"
#include "profile.h"
#include "secrets.h"
#include "tap.h"

#define ARGV(...) ((char *[]){ "corral", __VA_ARGS__, NULL })

static struct vars vars;
static char *fixture_dirs[] = { TEST_PROFILES };
static struct profile_env env = {
	.vars = &vars, .search = fixture_dirs, .n_search = 1,
};

struct parsed {
	struct policy policy;
	struct profile_result result;
	int r;
};

static void parsed_free(struct parsed *p)
{
	policy_free(&p->policy);
	profile_result_free(&p->result);
}

static struct parsed parse_text(const char *text)
{
	struct parsed p = { 0 };

	p.r = profile_load_buffer(&env, "t.profile", text, strlen(text),
				  &p.policy, &p.result);
	return p;
}

static struct parsed load(const char *spec)
{
	struct parsed p = { 0 };

	p.r = profile_load(&env, spec, &p.policy, &p.result);
	return p;
}

static const char *first_error(const struct parsed *p)
{
	return p->result.n_errors ? p->result.errors[0] : "no error";
}

/* One TAP line: parsing @text fails with exactly @want as first error. */
static void expect_error(const char *text, const char *want,
			 const char *name)
{
	struct parsed p = parse_text(text);

	TAP_OK(p.r == -EINVAL && !strcmp(first_error(&p), want), "%s", name);
	if (strcmp(first_error(&p), want))
		printf("#   want: %s\n#   got:  %s\n", want, first_error(&p));
	parsed_free(&p);
}

/* A profile text, the first error it must give, and what the case is. */
struct error_case {
	const char *text, *error, *name;
};

#define N_CASES(table) (sizeof(table) / sizeof((table)[0]))

static void expect_errors(const struct error_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++)
		expect_error(cases[i].text, cases[i].error, cases[i].name);
}

static bool rule_is(const struct policy *policy, size_t i, const char *path,
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

static void test_design_example(void)
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

static const struct error_case syntax_errors[] = {
	{ "[filesytem]\nrw = /x\n",
	  "t.profile:1: unknown section [filesytem] (sections: "
	  "[profile], [filesystem], [network], [sandbox], [environment])",
	  "unknown section, named once at its line" },
	{ "[filesystem]\nro = /a\n[networking]\n",
	  "t.profile:3: unknown section [networking] (sections: "
	  "[profile], [filesystem], [network], [sandbox], [environment])",
	  "an empty unknown section is refused too" },
	{ "rw = /x\n",
	  "t.profile:1: 'rw' is outside any section (put it under "
	  "[profile], [filesystem], [network], [sandbox] or [environment])",
	  "a key before any section" },
	{ "[profile]\nname = x\n",
	  "t.profile:2: unknown key 'name' in [profile] (keys: "
	  "description, include)",
	  "unknown key in [profile]" },
	{ "[sandbox]\nexec-anon = yes\n",
	  "t.profile:2: unknown key 'exec-anon' in [sandbox] (keys: "
	  "exec-anonymous, unix-connect, require, quiet)",
	  "unknown key in [sandbox]" },
	{ "[filesystem]\n\nraed = /x\n",
	  "t.profile:3: unknown right 'raed' in key 'raed' (rights: "
	  "read, readdir, write, exec, truncate, create, remove, "
	  "refer, ioctl; groups: ro, rx, rw, rwx)",
	  "unknown right" },
	{ "[filesystem]\nread,wirte = /x\n",
	  "t.profile:2: unknown right 'wirte' in key 'read,wirte' "
	  "(rights: read, readdir, write, exec, truncate, create, "
	  "remove, refer, ioctl; groups: ro, rx, rw, rwx)",
	  "unknown right in a comma list" },
	{ "[filesystem]\nthis is not ini\n",
	  "t.profile:2: syntax error (expected [section], KEY = "
	  "VALUE, an indented continuation line or a comment)",
	  "a line that is not INI" },
	{ "[filesystem\n",
	  "t.profile:1: missing ']' at the end of the section name "
	  "(write [NAME] on a line of its own)",
	  "an unclosed section header" },
	{ "[filesystem]\nrw =\n",
	  "t.profile:2: 'rw' has no value (write it after the '=')",
	  "an empty value" },
	{ "[filesystem]\nrw = ; only a comment\n",
	  "t.profile:2: 'rw' has no value (write it after the '=')",
	  "a value that is only a comment" },
};

static void test_syntax_errors(void)
{
	char line[256];

	expect_errors(syntax_errors, N_CASES(syntax_errors));
	snprintf(line, sizeof(line), "[filesystem]\n%s = /x\n",
		 "read,read,read,read,read,read,read,read,read,read,read");
	expect_error(line, "t.profile:2: key 'read,read,read,read,...' is too "
		     "long", "a key inih would cut short");
}

static void test_nul(void)
{
	static const char text[] = "[filesystem]\nro = /a\0/b\nrw = /c\n";
	struct parsed p = { 0 };

	p.r = profile_load_buffer(&env, "t.profile", text, sizeof(text) - 1,
				  &p.policy, &p.result);
	TAP_OK(p.r == -EINVAL && !strcmp(first_error(&p),
		"t.profile:2: NUL byte in the line (is this a text file?)"),
	       "a NUL byte in a line is refused, not cut (%s)",
	       first_error(&p));
	parsed_free(&p);
}

static void test_long_lines(void)
{
	char text[512];
	struct parsed p;

	/* STYLE.md habit 15: inih 55 would split this line silently */
	snprintf(text, sizeof(text), "[filesystem]\nro = /%0193d\nrw = /\n", 0);
	TAP_EQ(199, strchr(text + 13, '\n') - (text + 13), "(line 2 is 199 "
	       "bytes)");
	expect_error(text, "t.profile:2: line too long (max 198 bytes; a quoted "
		     "value can go on over several lines)",
		     "a 199-byte line is refused with its line number");
	snprintf(text, sizeof(text), "ro = /%0193d\nrw = /\n", 0);
	expect_error(text, "t.profile:1: line too long (max 198 bytes; a quoted "
		     "value can go on over several lines)",
		     "'ro = <194 chars>' then 'rw = /': refused as file:1");
	snprintf(text, sizeof(text), "[filesystem]\nro = /%0192d\n", 0);
	p = parse_text(text);
	TAP_OK(p.r == 0 && p.policy.n_rules == 1 &&
	       strlen(p.policy.rules[0].path) == 193,
	       "a 198-byte line is read whole (%s)", first_error(&p));
	parsed_free(&p);
	snprintf(text, sizeof(text), "[filesystem]\r\nro = /%0192d\r\n", 0);
	p = parse_text(text);
	TAP_OK(p.r == 0 && p.policy.n_rules == 1 &&
	       strlen(p.policy.rules[0].path) == 193,
	       "CRLF: the \\r is not part of the line (%s)", first_error(&p));
	parsed_free(&p);
}

static void test_continuation_and_comments(void)
{
	struct parsed p = parse_text(
		"# a comment\n"
		"; another\n"
		"[filesystem] ; a section with a comment\n"
		"rw = /a   ; inline\n"
		"     /b\n"
		"\t/c ; tab-indented, with a comment\n"
		"  # an indented comment is a comment\n"
		"ro = /d\n"
		"ro: /e\n");

	TAP_EQ(0, p.r, "continuations and comments parse (%s)",
	       first_error(&p));
	TAP_OK(rule_is(&p.policy, 0, "/a", CORRAL_GROUP_RW, false,
		       "profile t.profile:4") &&
	       rule_is(&p.policy, 1, "/b", CORRAL_GROUP_RW, false,
		       "profile t.profile:5") &&
	       rule_is(&p.policy, 2, "/c", CORRAL_GROUP_RW, false,
		       "profile t.profile:6"),
	       "each continuation line adds a path with the same rights");
	TAP_OK(rule_is(&p.policy, 3, "/d", CORRAL_GROUP_RO, false,
		       "profile t.profile:8"), "a new key ends the list");
	TAP_OK(rule_is(&p.policy, 4, "/e", CORRAL_GROUP_RO, false,
		       "profile t.profile:9"), "KEY: VALUE as inih allows");
	TAP_EQ(5, p.policy.n_rules, "no rule from a comment");
	parsed_free(&p);
}

static void test_rights_keys(void)
{
	struct parsed p = parse_text(
		"[filesystem]\n"
		"read = /r\n"
		"readdir = /rd\n"
		"write,truncate = /wt\n"
		"read, exec = /opt/x\n"
		"rwx = /all\n"
		"ioctl,ro = /dev/x\n");

	TAP_EQ(0, p.r, "single rights and lists parse (%s)", first_error(&p));
	TAP_EQ(CORRAL_ACCESS_READ, p.policy.rules[0].access, "read");
	TAP_EQ(CORRAL_ACCESS_READDIR, p.policy.rules[1].access, "readdir");
	TAP_EQ(CORRAL_ACCESS_WRITE | CORRAL_ACCESS_TRUNCATE,
	       p.policy.rules[2].access, "write,truncate");
	TAP_EQ(CORRAL_ACCESS_READ | CORRAL_ACCESS_EXEC,
	       p.policy.rules[3].access, "'read, exec' (spaces allowed)");
	TAP_EQ(CORRAL_ACCESS_ALL, p.policy.rules[4].access, "rwx is all");
	TAP_EQ(CORRAL_GROUP_RO | CORRAL_ACCESS_IOCTL, p.policy.rules[5].access,
	       "a group in a list");
	parsed_free(&p);
}

static const struct error_case variables_errors[] = {
	{ "[filesystem]\nrw = ${XDG_RUNTIME_DIR}/bus\n",
	  "t.profile:2: ${XDG_RUNTIME_DIR} is not set (prefix the "
	  "path with '-' to skip it when unset)",
	  "an unset variable in a required path" },
	{ "[filesystem]\nrw = ${HOMEDIR}/x\n",
	  "t.profile:2: unknown variable ${HOMEDIR} (variables: "
	  "HOME, CWD, USER, UID, TMPDIR, XDG_RUNTIME_DIR, "
	  "XDG_CONFIG_HOME, XDG_CACHE_HOME, XDG_DATA_HOME, PROJECT)",
	  "an unknown variable" },
	{ "[filesystem]\nrw = -${PATH}\n",
	  "t.profile:2: unknown variable ${PATH} (variables: "
	  "HOME, CWD, USER, UID, TMPDIR, XDG_RUNTIME_DIR, "
	  "XDG_CONFIG_HOME, XDG_CACHE_HOME, XDG_DATA_HOME, PROJECT)",
	  "an unknown variable is an error even when optional" },
	{ "[filesystem]\nrw = $HOME/x\n",
	  "t.profile:2: bad '$' in '$HOME/x' (write ${NAME}, or $$ "
	  "for a literal '$')",
	  "$HOME without braces" },
	{ "[filesystem]\nrw = ${HOME\n",
	  "t.profile:2: bad '$' in '${HOME' (write ${NAME}, or $$ "
	  "for a literal '$')",
	  "an unclosed ${" },
};

static void test_variables(void)
{
	struct parsed p = parse_text(
		"[filesystem]\n"
		"ro = ${HOME}/${USER}-${UID}\n"
		"rw = ${TMPDIR}\n"
		"     ${XDG_CONFIG_HOME}/x ${XDG_DATA_HOME}\n"
		"     -${XDG_RUNTIME_DIR}/bus\n"
		"ro = /cost$$\n");

	TAP_EQ(0, p.r, "variables expand (%s)", first_error(&p));
	TAP_OK(p.policy.n_rules == 4 &&
	       !strcmp(p.policy.rules[0].path, "/home/u/u-1000") &&
	       !strcmp(p.policy.rules[1].path, "/tmp") &&
	       !strcmp(p.policy.rules[2].path,
		       "/home/u/.config/x /home/u/.local/share") &&
	       !strcmp(p.policy.rules[3].path, "/cost$"),
	       "HOME, USER, UID, TMPDIR, XDG_* defaults and $$");
	TAP_EQ(4, p.policy.n_rules,
	       "an optional path with an unset variable is skipped");
	parsed_free(&p);
	expect_errors(variables_errors, N_CASES(variables_errors));
}

/* mkdir -p for the project_root fixture. */
static void make_dirs(const char *base, const char *rel)
{
	char path[PATH_MAX];

	for (const char *p = rel;; p++) {
		if (*p == '/' || !*p) {
			snprintf(path, sizeof(path), "%s/%.*s", base,
				 (int)(p - rel), rel);
			mkdir(path, 0755);
		}
		if (!*p)
			break;
	}
}

/*
 * ${PROJECT} (corral.profile(5)): the nearest ancestor holding .git,
 * else CWD; never HOME, its ancestors or "/".
 *
 *   T/repo/.git/    T/repo/sub/deeper/   T/wt/.git (a file: a worktree)
 *   T/plain/x/      T/home/.git/         T/home/proj/
 */
static void test_project_root(void)
{
	char t[] = "/tmp/corral-project.XXXXXX", cwd[PATH_MAX], want[PATH_MAX];
	char got[PATH_MAX], home[PATH_MAX];
	static const struct { const char *cwd, *want, *name; } cases[] = {
		{ "repo", "repo", "at the top of a repository: itself" },
		{ "repo/sub/deeper", "repo",
		  "two levels down: the directory holding .git" },
		{ "wt/src", "wt", ".git as a file (worktree, submodule) counts" },
		{ "plain/x", "plain/x", "no .git above: CWD itself" },
		{ "home/proj", "home/proj",
		  "a .git in HOME (dotfiles) is not a project root" },
		{ "home", "home", "HOME itself stays HOME" },
	};
	struct parsed p;
	FILE *f;

	if (!mkdtemp(t)) {
		TAP_OK(0, "mkdtemp for the project_root fixture");
		return;
	}
	make_dirs(t, "repo/.git");
	make_dirs(t, "repo/sub/deeper");
	make_dirs(t, "wt/src");
	make_dirs(t, "plain/x");
	make_dirs(t, "home/.git");
	make_dirs(t, "home/proj");
	snprintf(cwd, sizeof(cwd), "%s/wt/.git", t);
	f = fopen(cwd, "w");
	if (f)
		fclose(f);
	snprintf(home, sizeof(home), "%s/home", t);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		snprintf(cwd, sizeof(cwd), "%s/%s", t, cases[i].cwd);
		snprintf(want, sizeof(want), "%s/%s", t, cases[i].want);
		TAP_OK(project_root(cwd, home, got, sizeof(got)) == 0 &&
		       !strcmp(got, want), "PROJECT: %s", cases[i].name);
		if (strcmp(got, want))
			printf("#   want %s\n#   got  %s\n", want, got);
	}
	snprintf(cwd, sizeof(cwd), "%s/repo/sub", t);
	vars_set(&vars, VAR_PROJECT, cwd);
	p = parse_text("[filesystem]\nrw = ${PROJECT}\n");
	TAP_OK(p.r == 0 && p.policy.n_rules == 1 &&
	       !strcmp(p.policy.rules[0].path, cwd),
	       "${PROJECT} expands in a profile (%s)", first_error(&p));
	parsed_free(&p);
	vars_set(&vars, VAR_PROJECT, "/home/u/proj");
	snprintf(cwd, sizeof(cwd), "rm -rf '%s'", t);
	if (system(cwd) != 0)
		printf("# could not remove %s\n", t);
}

static const struct error_case paths_errors[] = {
	{ "[filesystem]\nrw = build\n",
	  "t.profile:2: 'build' is not an absolute path (start it "
	  "with '/' or a variable such as ${HOME} or ${CWD})",
	  "a relative path" },
	{ "[filesystem]\nrw = ~/.npm\n",
	  "t.profile:2: '~/.npm' is not an absolute path (write "
	  "${HOME} instead of ~)",
	  "~ is not expanded" },
	{ "[filesystem]\nrw = -\n",
	  "t.profile:2: '' is not an absolute path (start it with "
	  "'/' or a variable such as ${HOME} or ${CWD})",
	  "'-' alone" },
};

static void test_paths(void)
{
	struct parsed p;

	expect_errors(paths_errors, N_CASES(paths_errors));
	p = parse_text("[filesystem]\nrw = -/maybe\n");
	TAP_OK(p.r == 0 && rule_is(&p.policy, 0, "/maybe", CORRAL_GROUP_RW,
				   true, "profile t.profile:2"),
	       "'-/path' is an optional rule");
	parsed_free(&p);
}

static const struct error_case settings_errors[] = {
	{ "[sandbox]\nexec-anonymous = maybe\n",
	  "t.profile:2: bad value 'maybe' for exec-anonymous (use "
	  "no or yes)",
	  "a bad yes/no" },
	{ "[sandbox]\nunix-connect = Scoped\n",
	  "t.profile:2: bad value 'Scoped' for unix-connect (use "
	  "scoped or allow)",
	  "words are case-sensitive" },
	{ "[sandbox]\nrequire = landlock\n",
	  "t.profile:2: bad value 'landlock' for require (use any "
	  "or bpf)",
	  "a bad require" },
};

static void test_settings(void)
{
	struct parsed p = parse_text("[sandbox]\nexec-anonymous = yes\n"
				     "unix-connect = allow\nrequire = bpf\n");

	TAP_EQ(0, p.r, "[sandbox] parses (%s)", first_error(&p));
	TAP_OK(p.policy.sandbox.value[POLICY_EXEC_ANONYMOUS] == POLICY_YES &&
	       p.policy.sandbox.value[POLICY_UNIX_CONNECT] == POLICY_ALLOW &&
	       p.policy.sandbox.value[POLICY_REQUIRE] == POLICY_BPF,
	       "each setting is stored in struct policy_sandbox");
	parsed_free(&p);
	expect_errors(settings_errors, N_CASES(settings_errors));
}

static const struct error_case environment_errors[] = {
	{ "[environment]\nunset = A-B\n",
	  "t.profile:2: bad variable name 'A-B' for unset (letters, "
	  "digits and '_', at most 63 bytes; a trailing '*' unsets "
	  "every variable with that prefix)",
	  "a bad variable name" },
	{ "[environment]\nunset = 1A\n",
	  "t.profile:2: bad variable name '1A' for unset (letters, "
	  "digits and '_', at most 63 bytes; a trailing '*' unsets "
	  "every variable with that prefix)",
	  "a name starting with a digit" },
	{ "[environment]\nset = A\n",
	  "t.profile:2: unknown key 'set' in [environment] (keys: "
	  "unset)",
	  "unknown key in [environment]" },
};

static void test_environment(void)
{
	struct parsed p = parse_text("[environment]\nunset = NPM_TOKEN\n"
				     "        AWS_*\nunset = _x1\n");

	TAP_EQ(0, p.r, "[environment] parses (%s)", first_error(&p));
	TAP_OK(p.policy.n_unset == 3 &&
	       !strcmp(p.policy.unset[0].name, "NPM_TOKEN") &&
	       !strcmp(p.policy.unset[1].name, "AWS_*") &&
	       !strcmp(p.policy.unset[1].origin, "profile t.profile:3") &&
	       !strcmp(p.policy.unset[2].name, "_x1"),
	       "unset names, a continuation line and a PREFIX*, with origins");
	TAP_OK(policy_var_matches("AWS_*", "AWS_KEY=1") &&
	       !policy_var_matches("AWS_*", "AWSX=1") &&
	       policy_var_matches("NPM_TOKEN", "NPM_TOKEN=") &&
	       !policy_var_matches("NPM_TOKEN", "NPM_TOKENS=1"),
	       "NAME matches that variable only, PREFIX* every variable "
	       "starting so");
	parsed_free(&p);
	expect_errors(environment_errors, N_CASES(environment_errors));
}

static void test_includes(void)
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

static void test_files(void)
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

/* Everything profile_print_errors writes to stderr, as one string. */
static char *captured_errors(const struct profile_result *result)
{
	char path[] = "/tmp/corral-test-XXXXXX";
	int fd = mkstemp(path), saved = dup(2);
	static char buf[4096];
	ssize_t n;

	fflush(stderr);
	dup2(fd, 2);
	profile_print_errors(result);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
	return buf;
}

static void test_messages(void)
{
	struct parsed p = parse_text("[filesystem]\nrw = ${NOPE}\n"
				     "ro = rel\n");

	TAP_EQ(2, p.result.n_errors, "every error is collected");
	TAP_OK(!strcmp(captured_errors(&p.result),
		"corral: profile t.profile:2: unknown variable ${NOPE} "
		"(variables: HOME, CWD, USER, UID, TMPDIR, XDG_RUNTIME_DIR, "
		"XDG_CONFIG_HOME, XDG_CACHE_HOME, XDG_DATA_HOME, PROJECT)\n"
		"corral: profile t.profile:3: 'rel' is not an absolute path "
		"(start it with '/' or a variable such as ${HOME} or "
		"${CWD})\n"),
	       "printed as 'corral: profile FILE:LINE: what (hint)'");
	parsed_free(&p);
}

static void test_flags_merge(void)
{
	char **argv = ARGV("--rw", "/flag", "--profile", "npm", "--profile",
			   TEST_PROFILES "/sub/inner.profile", "--", "npm",
			   "install");
	struct corral_opts o;
	struct profile_result res = { 0 };

	TAP_EQ(0, cli_parse(9, argv, &o, stdout), "--profile parses");
	TAP_EQ(2, o.n_profiles, "two --profile");
	TAP_EQ(0, cli_load_profiles(&o, &env, &res), "profiles load");
	TAP_EQ(9, o.policy.n_rules, "7 + 1 profile rules and 1 flag");
	TAP_OK(rule_is(&o.policy, 7, "/inner", CORRAL_GROUP_RO, false,
		       "profile " TEST_PROFILES "/sub/inner.profile:2"),
	       "profiles in the order given");
	TAP_OK(rule_is(&o.policy, 8, "/flag", CORRAL_GROUP_RW, false,
		       "--rw on the command line"),
	       "command-line flags add to the profiles");
	TAP_OK(!strcmp(o.argv[0], "npm"), "the command follows --");
	cli_free(&o);
	profile_result_free(&res);

	TAP_EQ(0, cli_parse(4, ARGV("--profile", "nosuch", "true"), &o,
			    stdout), "an unknown profile parses");
	TAP_EQ(-EINVAL, cli_load_profiles(&o, &env, &res),
	       "and fails to load");
	cli_free(&o);
	profile_result_free(&res);
}

/* Each syntax error at its own line, in line order;
 * a broken section header silences the keys under it. */
static void test_error_order(void)
{
	static const struct {
		const char *text, *want, *name;
		size_t n_errors;
	} cases[] = {
		{ "[profile]\ndescription = x\n[filesystem\nro = /usr\n",
		  "t.profile:3: missing ']' at the end of the section name "
		  "(write [NAME] on a line of its own)",
		  "'[filesystem': the missing ']' only, not line 4's key", 1 },
		{ "[filesystem ; a comment]\nro = /usr\n",
		  "t.profile:1: missing ']' at the end of the section name "
		  "(write [NAME] on a line of its own)",
		  "a ']' after ' ;' is a comment's, as inih reads it", 1 },
		{ "[filesystem]\nthis is not ini\nfoo = /x\n",
		  "t.profile:2: syntax error (expected [section], KEY = "
		  "VALUE, an indented continuation line or a comment)",
		  "a syntax error comes before a later line's bad key", 2 },
		{ "[filesystem]\nro = /a\n[bogus]\nx = 1\n[sandbox]\nnope = 1\n",
		  "t.profile:3: unknown section [bogus] (sections: [profile], "
		  "[filesystem], [network], [sandbox], [environment])",
		  "an unknown section, then the next section's bad key", 2 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct parsed p = parse_text(cases[i].text);

		TAP_OK(p.r == -EINVAL && !strcmp(first_error(&p), cases[i].want) &&
		       p.result.n_errors == cases[i].n_errors,
		       "%s (%zu error(s))", cases[i].name, p.result.n_errors);
		for (size_t e = 0; e < p.result.n_errors; e++)
			if (strcmp(first_error(&p), cases[i].want) ||
			    p.result.n_errors != cases[i].n_errors)
				printf("#   got: %s\n", p.result.errors[e]);
		parsed_free(&p);
	}
	/* a profile found on the search path is named by its path */
	{
		struct parsed p = load("bad-key");

		TAP_OK(p.r == -EINVAL && !strcmp(first_error(&p),
			TEST_PROFILES "/bad-key.profile:4: unknown key 'name' "
			"in [profile] (keys: description, include)"),
		       "a profile NAME's errors name its file with its "
		       "directory (%s)", first_error(&p));
		parsed_free(&p);
	}
}

/* Quoted values. */
static void test_quoting(void)
{
	static const struct {
		const char *text, *path;
		bool optional;
		const char *name;
	} good[] = {
		{ "rw = \"/a b \"\n", "/a b ", false, "trailing blank kept" },
		{ "rw = \"/a ;b\" ; a comment\n", "/a ;b", false,
		  "' ;' inside quotes is not a comment; after them it is" },
		{ "rw = -\"/x y\"\n", "/x y", true, "-\"...\": optional" },
		{ "rw = \"/l\\nm\\tn\\r\"\n", "/l\nm\tn\r", false,
		  "\\n \\t \\r" },
		{ "rw = \"/q\\\"b\\\\s\"\n", "/q\"b\\s", false, "\\\" and \\\\" },
		{ "rw = \"/h\\xff\\x3B\"\n", "/h\xff;", false, "\\xHH" },
		{ "rw = \"/#x\"\n", "/#x", false, "'#' inside quotes" },
		{ "rw = \"/aaa\\\n\tbbb\\\n  ccc\"\n", "/aaabbbccc", false,
		  "'\\' at the end of a line goes on on the next" },
		{ "rw = \"/cost$$\"\n", "/cost$", false,
		  "variables expand inside quotes ($$)" },
		{ "rw = /plain\"quote\\\n", "/plain\"quote\\", false,
		  "unquoted values stay as they were (backwards compatible)" },
	};
	static const struct { const char *text, *want, *name; } bad[] = {
		{ "rw = \" /a\"\n",
		  "t.profile:2: ' /a' is not an absolute path (start it with "
		  "'/' or a variable such as ${HOME} or ${CWD})",
		  "a leading blank inside quotes is the path's own" },
		{ "rw = \"-/x\"\n",
		  "t.profile:2: '-/x' is not an absolute path (start it with "
		  "'/' or a variable such as ${HOME} or ${CWD})",
		  "\"-...\": the '-' is the path's own, not 'optional'" },
		{ "rw = \"/a\n",
		  "t.profile:2: unterminated quoted value (close it with '\"', "
		  "or end the line with '\\' to go on on the next, indented "
		  "line)", "an unterminated quote" },
		{ "rw = \"/a\"b\n",
		  "t.profile:2: 'b' after the closing quote (only a '; "
		  "comment' may follow it)", "text after the closing quote" },
		{ "rw = \"/a\\q\"\n",
		  "t.profile:2: bad escape '\\q' in a quoted value (write \\\\, "
		  "\\\", \\n, \\t, \\r or \\xHH, HH not 00)", "a bad escape" },
		{ "rw = \"/a\\x00\"\n",
		  "t.profile:2: bad escape '\\x00' in a quoted value (write "
		  "\\\\, \\\", \\n, \\t, \\r or \\xHH, HH not 00)",
		  "no NUL byte in a value" },
		{ "rw = \"/a\\\nro = /b\n",
		  "t.profile:2: the quoted value ends in '\\' but line 3 does "
		  "not go on with it (indent that line, or close the value "
		  "with '\"')", "a '\\' line followed by a key" },
		{ "rw = \"/a\\\n",
		  "t.profile:2: the file ends inside this quoted value (close "
		  "it with '\"')", "the file ends inside quotes" },
	};
	char text[512];

	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++) {
		struct parsed p;

		snprintf(text, sizeof(text), "[filesystem]\n%s", good[i].text);
		p = parse_text(text);
		TAP_OK(p.policy.n_rules == 1 &&
		       !strcmp(p.policy.rules[0].path, good[i].path) &&
		       p.policy.rules[0].optional == good[i].optional &&
		       !strcmp(p.policy.rules[0].origin, "profile t.profile:2"),
		       "quoting: %s", good[i].name);
		if (p.policy.n_rules != 1)
			printf("#   %s\n", first_error(&p));
		parsed_free(&p);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		snprintf(text, sizeof(text), "[filesystem]\n%s", bad[i].text);
		expect_error(text, bad[i].want, bad[i].name);
	}
	{
		struct parsed p = parse_text("[profile]\ndescription = \"a ; "
					     "b \"\n[filesystem]\nro = /a\n"
					     "     \"/b c\" ; d\n");

		TAP_OK(p.r == 0 && p.policy.n_rules == 2 &&
		       !strcmp(p.policy.rules[1].path, "/b c") &&
		       !strcmp(p.result.files[0].description, "a ; b "),
		       "quotes in a description and on a continuation line "
		       "(%s)", first_error(&p));
		parsed_free(&p);
	}
}

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
static void test_print_nasty_paths(void)
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
static void test_print_round_trip(void)
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

static void test_cli(void)
{
	char **check = ARGV("check", "a.profile", "b");
	char *as_npm[] = { "/home/u/bin/npm", "--rw", "/", NULL };
	struct corral_opts o;
	char *text = NULL;
	size_t size = 0, lines = 0, widest = 0, len = 0;
	FILE *out = open_memstream(&text, &size);

	TAP_EQ(0, cli_parse(2, ARGV("--help"), &o, out), "--help");
	fclose(out);
	for (const char *p = text; *p; p++, len++)
		if (*p == '\n') {
			lines++;
			widest = len > widest ? len : widest;
			len = (size_t)-1;
		}
	TAP_OK(lines <= 23 && widest <= 79,
	       "--help fits one 24-line screen (%zu lines, %zu columns)",
	       lines, widest);
	free(text);
	cli_free(&o);
	TAP_EQ(0, cli_parse(2, ARGV("--print-profile=npm"), &o, stdout),
	       "--print-profile=NAME");
	TAP_OK(o.command == CORRAL_CMD_PRINT_PROFILE && o.n_profiles == 1,
	       "prints, with NAME as a profile");
	cli_free(&o);
	TAP_EQ(-EINVAL, cli_parse(3, ARGV("--print-profile", "ls"), &o,
				  stdout), "--print-profile runs nothing");
	cli_free(&o);
	TAP_EQ(0, cli_parse(4, check, &o, stdout), "check FILE...");
	TAP_OK(o.command == CORRAL_CMD_CHECK && !strcmp(o.argv[1], "b"),
	       "check keeps its files");
	cli_free(&o);
	TAP_EQ(-EINVAL, cli_parse(2, ARGV("check"), &o, stdout),
	       "check without a FILE");
	cli_free(&o);
	TAP_EQ(-EINVAL, cli_parse(3, ARGV("profiles", "x"), &o, stdout),
	       "profiles takes no argument");
	cli_free(&o);
	TAP_EQ(0, cli_parse(3, as_npm, &o, stdout),
	       "argv[0] mode parses nothing");
	TAP_OK(o.invoked_as && !strcmp(o.invoked_as, "npm") &&
	       !strcmp(o.argv[1], "--rw") && o.policy.n_rules == 0,
	       "run as npm: every argument is npm's");
	cli_free(&o);
}

/* argv[0] mode: PATH entries that are corral itself are skipped. */
static void test_find_program(void)
{
	char dir[] = "/tmp/corral-find-XXXXXX", self[PATH_MAX + 64];
	char other[PATH_MAX + 64], path[2 * PATH_MAX + 200];
	char *found = NULL;
	ssize_t n;
	int fd;

	if (!mkdtemp(dir)) {
		TAP_OK(0, "mkdtemp");
		return;
	}
	snprintf(self, sizeof(self), "%s/a", dir);
	mkdir(self, 0755);
	snprintf(other, sizeof(other), "%s/b", dir);
	mkdir(other, 0755);
	n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	path[n > 0 ? n : 0] = '\0';
	strcat(self, "/prog");
	strcat(other, "/prog");
	fd = open(other, O_WRONLY | O_CREAT, 0755);
	/* "prog -> us", as npm -> corral */
	TAP_OK(fd >= 0 && symlink(path, self) == 0, "fixture: %s -> %s",
	       self, path);
	close(fd);
	snprintf(path, sizeof(path), "relative:%s/a:%s/b", dir, dir);
	TAP_EQ(0, cli_find_program("prog", path, &found), "prog is found");
	TAP_OK(found && !strcmp(found, other),
	       "the PATH entry that is ourselves is skipped (%s)", found);
	free(found);
	snprintf(path, sizeof(path), "%s/a", dir);
	TAP_EQ(-ENOENT, cli_find_program("prog", path, &found),
	       "only ourselves in PATH: not found");
	unlink(self);
	unlink(other);
	snprintf(path, sizeof(path), "%s/a", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/b", dir);
	rmdir(path);
	rmdir(dir);
}

/* corral profiles: first match wins, later ones are marked shadowed. */
static void test_list(void)
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

/* deny = PATH and deny = RIGHTS:PATH, errors naming file:line. */
static const struct error_case deny_errors[] = {
	{ "[filesystem]\n\ndeny = bogus:/x\n",
	  "t.profile:3: unknown right 'bogus' in deny = bogus:/x "
	  "(rights: read, readdir, write, exec, truncate, create, "
	  "remove, refer, ioctl; groups: ro, rx, rw, rwx)",
	  "deny with an unknown right names file:line" },
	{ "[filesystem]\ndeny = read:relative\n",
	  "t.profile:2: 'relative' is not an absolute path (start "
	  "it with '/' or a variable such as ${HOME} or ${CWD})",
	  "deny of a relative path names file:line" },
	{ "[filesystem]\ndeny = :/x\n",
	  "t.profile:2: ':/x': expected deny = PATH or deny = "
	  "RIGHTS:PATH",
	  "deny with an empty rights list" },
};

static void test_deny(void)
{
	struct parsed p = parse_text("[filesystem]\nrw = /h\n"
				     "deny = /h/.ssh\n"
				     "deny = read, write:${HOME}/.aws\n"
				     "deny = -/h/none\n"
				     "       -\"/h/a b\"\n");
	const struct policy *pol = &p.policy;

	TAP_EQ(0, p.r, "deny rules load (%s)", first_error(&p));
	TAP_OK(pol->n_rules == 5 && pol->rules[1].access == 0 &&
	       pol->rules[1].deny == CORRAL_ACCESS_ALL &&
	       !strcmp(pol->rules[1].origin, "profile t.profile:3"),
	       "deny = PATH denies every right, origin file:line");
	TAP_OK(pol->n_rules == 5 && pol->rules[2].deny ==
	       (CORRAL_ACCESS_READ | CORRAL_ACCESS_WRITE) &&
	       !strcmp(pol->rules[2].path, "/home/u/.aws"),
	       "deny = RIGHTS:PATH, spaces in the list, a variable");
	TAP_OK(pol->n_rules == 5 && pol->rules[3].optional &&
	       pol->rules[4].optional &&
	       !strcmp(pol->rules[4].path, "/h/a b") &&
	       pol->rules[4].deny == CORRAL_ACCESS_ALL,
	       "'-' makes a deny optional, quoted or not, on continuation "
	       "lines");
	parsed_free(&p);
	expect_errors(deny_errors, N_CASES(deny_errors));
}

/*
 * profiles/secrets.profile denies exactly the table `corral learn` warns
 * about (sandbox/secrets.c), each optional and with every right.
 */
static void test_secrets_agree(void)
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

/* Every shipped profile loads, from the real search order. */
static void test_shipped(void)
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

int main(void)
{
	vars_set(&vars, VAR_HOME, "/home/u");
	vars_set(&vars, VAR_CWD, "/home/u/proj");
	vars_set(&vars, VAR_PROJECT, "/home/u/proj");
	vars_set(&vars, VAR_USER, "u");
	vars_set(&vars, VAR_UID, "1000");
	vars_fill_defaults(&vars);
	test_design_example();
	test_syntax_errors();
	test_nul();
	test_long_lines();
	test_continuation_and_comments();
	test_rights_keys();
	test_variables();
	test_project_root();
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
	test_cli();
	test_find_program();
	test_list();
	test_shipped();
	test_deny();
	test_secrets_agree();
	vars_free(&vars);
	return tap_done();
}
