// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests of the profile parser (sandbox/profile.c, expand.c):
 * what each key of each section gives (rights, variables and ${PROJECT},
 * paths, [sandbox], [environment], deny) and its errors.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "expand.h"
#include "policy.h"
#include "profile.h"
#include "tap.h"
#include "test-vars.h"
#include "test-profile.h"

void test_rights_keys(void)
{
	struct parsed p = parse_ok(
		"[filesystem]\n"
		"read = /r\n"
		"readdir = /rd\n"
		"write,truncate = /wt\n"
		"read, exec = /opt/x\n"
		"rwx = /all\n"
		"ioctl,ro = /dev/x\n",
		"single rights and lists parse");

	TAP_EQ(CORRAL_ACCESS_READ, p.policy.rules[0].access, "read");
	TAP_EQ(CORRAL_ACCESS_READDIR, p.policy.rules[1].access, "readdir");
	TAP_EQ(CORRAL_ACCESS_WRITE | CORRAL_ACCESS_TRUNCATE,
	       p.policy.rules[2].access, "write,truncate");
	TAP_EQ(CORRAL_ACCESS_READ | CORRAL_ACCESS_EXEC,
	       p.policy.rules[3].access, "'read, exec' (spaces allowed)");
	TAP_EQ(CORRAL_ACCESS_ALL & ~CORRAL_ACCESS_CONNECT_UNIX,
	       p.policy.rules[4].access, "rwx is all but connect-unix");
	TAP_EQ(CORRAL_GROUP_RO | CORRAL_ACCESS_IOCTL, p.policy.rules[5].access,
	       "a group in a list");
	parsed_free(&p);
}

/* ${TMPDIR} is never the shared /tmp by default: the parser makes it
 * private (private_tmp.h), so expansion alone leaves it unset. */
static void test_tmpdir_default(void)
{
	struct vars v = { 0 };

	vars_set(&v, VAR_HOME, "/home/u");
	vars_fill_defaults(&v);
	TAP_OK(!v.value[VAR_TMPDIR], "vars_fill_defaults leaves TMPDIR unset, "
	       "not /tmp");
	vars_free(&v);
}

void test_variables(void)
{
	struct parsed p = parse_ok(
		"[filesystem]\n"
		"ro = ${HOME}/${USER}-${UID}\n"
		"rw = ${TMPDIR}\n"
		"     ${XDG_CONFIG_HOME}/x ${XDG_DATA_HOME}\n"
		"     -${XDG_RUNTIME_DIR}/bus\n"
		"ro = /cost$$\n",
		"variables expand");

	TAP_OK(p.policy.n_rules == 4 &&
	       !strcmp(p.policy.rules[0].path, "/home/u/u-1000") &&
	       !strcmp(p.policy.rules[1].path, TEST_TMPDIR) &&
	       !strcmp(p.policy.rules[2].path,
		       "/home/u/.config/x /home/u/.local/share") &&
	       !strcmp(p.policy.rules[3].path, "/cost$"),
	       "HOME, USER, UID, TMPDIR, XDG_* defaults and $$");
	TAP_EQ(4, p.policy.n_rules,
	       "an optional path with an unset variable is skipped");
	parsed_free(&p);
	test_tmpdir_default();
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
void test_project_root(void)
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
	snprintf(cwd, sizeof(cwd), "%s/home/proj/..", t);
	TAP_OK(dir_holds_home(cwd, home) &&
	       !strcmp(dir_holds_home(cwd, home), "your home directory"),
	       "HOME spelt with '..' is HOME (by inode)");
	snprintf(cwd, sizeof(cwd), "%s/./", t);
	TAP_OK(dir_holds_home(cwd, home) != NULL,
	       "HOME's parent spelt with './' holds HOME (by inode)");
	snprintf(cwd, sizeof(cwd), "%s/repo", t);
	TAP_OK(!dir_holds_home(cwd, home), "a sibling of HOME is not above it");
	TAP_OK(dir_holds_home("//", NULL) != NULL, "'//' is / (no HOME)");
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

/*
 * ${PROJECT} and ${CWD} (HOME /home/u) that would be "/", HOME or above
 * it: an error naming the variable, its value, the line and the fix;
 * anything below HOME (or elsewhere) expands.
 */
void test_project_not_home(void)
{
	static const char fix_project[] = "and no profile may give all of it "
					  "(cd into the project, or give "
					  "--project DIR)";
	static const char fix_cwd[] = "and no profile may give all of it (cd "
				      "into the directory the command should "
				      "work in)";
	static const struct {
		enum var_id id;
		const char *value, *text, *what, *name;
	} cases[] = {
		{ VAR_PROJECT, "/", "rw = ${PROJECT}", "/, the root directory",
		  "${PROJECT} from /" },
		{ VAR_PROJECT, "/home/u", "rw = ${PROJECT}",
		  "/home/u, your home directory", "${PROJECT} from HOME" },
		{ VAR_PROJECT, "/home/u/", "rw = ${PROJECT}/x",
		  "/home/u/, your home directory",
		  "${PROJECT} HOME with a trailing '/'" },
		{ VAR_PROJECT, "/home", "rw = ${PROJECT}",
		  "/home, a directory holding your home directory",
		  "${PROJECT} from a parent of HOME" },
		{ VAR_PROJECT, "/home/u", "ro = -${PROJECT}/.venv",
		  "/home/u, your home directory",
		  "an optional path is no way around it" },
		{ VAR_CWD, "/home/u", "rw = ${CWD}",
		  "/home/u, your home directory", "${CWD} from HOME" },
		{ VAR_CWD, "/", "ro = ${CWD}", "/, the root directory",
		  "${CWD} from /" },
		{ VAR_CWD, "/home/u", "[profile]\ninclude = ${CWD}/x.profile",
		  "/home/u, your home directory", "an include from ${CWD}" },
		{ VAR_PROJECT, "/home/u/proj", "rw = ${PROJECT}", NULL,
		  "a project below HOME expands" },
		{ VAR_PROJECT, "/home/u/proj/sub", "rw = ${PROJECT}", NULL,
		  "its subdirectory expands" },
		{ VAR_PROJECT, "/home/uu", "rw = ${PROJECT}", NULL,
		  "/home/uu is no ancestor of /home/u" },
		{ VAR_CWD, "/tmp", "rw = ${CWD}", NULL,
		  "a directory outside HOME expands" },
	};
	char text[256], want[512];

	for (size_t i = 0; i < N_CASES(cases); i++) {
		const char *fix = cases[i].id == VAR_CWD ? fix_cwd : fix_project;
		bool section = cases[i].text[0] == '[';
		struct parsed p;

		vars_set(&vars, cases[i].id, cases[i].value);
		snprintf(text, sizeof(text), "%s%s\n",
			 section ? "" : "[filesystem]\n", cases[i].text);
		if (cases[i].what) {
			snprintf(want, sizeof(want), "t.profile:2: ${%s} would "
				 "be %s, %s", var_name(cases[i].id),
				 cases[i].what, fix);
			expect_error(text, want, cases[i].name);
		} else {
			p = parse_ok(text, cases[i].name);
			parsed_free(&p);
		}
	}
	vars_set(&vars, VAR_PROJECT, "/home/u/proj");
	vars_set(&vars, VAR_CWD, "/home/u/proj");
}

void test_paths(void)
{
	struct parsed p;

	p = parse_text("[filesystem]\nrw = -/maybe\n");
	TAP_OK(p.r == 0 && rule_is(&p.policy, 0, "/maybe", CORRAL_GROUP_RW,
				   true, "profile t.profile:2"),
	       "'-/path' is an optional rule");
	parsed_free(&p);
}

void test_settings(void)
{
	struct parsed p = parse_ok("[sandbox]\nexec-anonymous = yes\n"
				   "unix-connect = allow\nrequire = bpf\n",
				   "[sandbox] parses");

	TAP_OK(p.policy.sandbox.value[POLICY_EXEC_ANONYMOUS] == POLICY_YES &&
	       p.policy.sandbox.value[POLICY_UNIX_CONNECT] == POLICY_ALLOW &&
	       p.policy.sandbox.value[POLICY_REQUIRE] == POLICY_BPF,
	       "each setting is stored in struct policy_sandbox");
	TAP_OK(p.policy.sandbox.value[POLICY_SYSV_IPC] == POLICY_UNSET,
	       "sysv-ipc unsaid is unset (the default: no)");
	parsed_free(&p);
	p = parse_ok("[sandbox]\nsysv-ipc = yes\n", "sysv-ipc = yes parses");
	TAP_OK(p.policy.sandbox.value[POLICY_SYSV_IPC] == POLICY_YES &&
	       p.policy.sandbox.origin[POLICY_SYSV_IPC] &&
	       strstr(p.policy.sandbox.origin[POLICY_SYSV_IPC], "t.profile:2"),
	       "sysv-ipc = yes is stored, with where it was set (%s)",
	       p.policy.sandbox.origin[POLICY_SYSV_IPC] ?
	       p.policy.sandbox.origin[POLICY_SYSV_IPC] : "none");
	parsed_free(&p);
}

void test_environment(void)
{
	struct parsed p = parse_ok("[environment]\nunset = NPM_TOKEN\n"
				   "        AWS_*\nunset = _x1\n",
				   "[environment] parses");

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
}

void test_deny(void)
{
	struct parsed p = parse_ok("[filesystem]\nrw = /h\n"
				   "deny = /h/.ssh\n"
				   "deny = read, write:${HOME}/.aws\n"
				   "deny = -/h/none\n"
				   "       -\"/h/a b\"\n",
				   "deny rules load");
	const struct policy *pol = &p.policy;

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
}

/*
 * Every key's errors, one table: each names file:line and says what to
 * write instead.
 */
static const struct error_case key_errors[] = {
	/* variables: unset, unknown or unbraced */
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
	/* paths that are not absolute */
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
	/* [sandbox] values */
	{ "[sandbox]\nexec-anonymous = maybe\n",
	  "t.profile:2: bad value 'maybe' for exec-anonymous (use "
	  "no or yes)",
	  "a bad yes/no" },
	{ "[sandbox]\nsysv-ipc = on\n",
	  "t.profile:2: bad value 'on' for sysv-ipc (use no or yes)",
	  "sysv-ipc takes yes or no" },
	{ "[sandbox]\nunix-connect = Scoped\n",
	  "t.profile:2: bad value 'Scoped' for unix-connect (use "
	  "scoped or allow)",
	  "words are case-sensitive" },
	{ "[sandbox]\nrequire = landlock\n",
	  "t.profile:2: bad value 'landlock' for require (use any "
	  "or bpf)",
	  "a bad require" },
	/* [environment] */
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
	/* deny = PATH and deny = RIGHTS:PATH */
	{ "[filesystem]\n\ndeny = bogus:/x\n",
	  "t.profile:3: unknown right 'bogus' in deny = bogus:/x "
	  "(rights: read, readdir, write, exec, truncate, create, "
	  "remove, refer, ioctl, connect-unix; groups: ro, rx, rw, rwx)",
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

void test_key_errors(void)
{
	expect_errors(key_errors, N_CASES(key_errors));
}
