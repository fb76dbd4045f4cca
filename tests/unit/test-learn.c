// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests: what `corral learn` writes (sandbox/learn.c), read
 * back with the profile parser, and its warnings about secrets
 * (sandbox/secrets.c).
 *
 * The learned paths do not exist here, so each is a file: its rule is on
 * itself when read, on its directory when changed.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expand.h"
#include "learn.h"
#include "policy.h"
#include "profile.h"
#include "secrets.h"
#include "tap.h"
#include "test-vars.h"

#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })

/* learn_record's only use of events.c; these tests call learn_add. */
char *event_path(const struct corral_event *ev, char *buf, size_t size);
char *event_path(const struct corral_event *ev, char *buf, size_t size)
{
	(void)ev;
	snprintf(buf, size, "%s", "");
	return buf;
}

static struct vars vars;
static struct profile_env env = { .vars = &vars, .no_includes = true };

struct learned {
	char *profile, *warnings;
	struct policy policy;
	struct profile_result result;
	size_t written;
	int r;
};

/* Learns @paths (NULL-ended, each read), writes, reads the profile back. */
static struct learned learn_paths(const char *const *paths,
				  const uint32_t *access,
				  char *const *command)
{
	struct learn l = { .home = "/home/u", .cwd = "/home/u/proj" };
	struct learned out = { 0 };
	size_t size = 0, wsize = 0;
	FILE *f = open_memstream(&out.profile, &size);
	FILE *w = open_memstream(&out.warnings, &wsize);

	if (!f || !w)
		abort();
	for (size_t i = 0; paths[i]; i++)
		learn_add(&l, paths[i], access ? access[i] : CORRAL_ACCESS_READ);
	out.written = learn_write(&l, f, w, command, NULL);
	fclose(f);
	fclose(w);
	learn_free(&l);
	out.r = profile_load_buffer(&env, "ml.profile", out.profile,
				    strlen(out.profile), &out.policy,
				    &out.result);
	return out;
}

static void learned_free(struct learned *l)
{
	free(l->profile);
	free(l->warnings);
	policy_free(&l->policy);
	profile_result_free(&l->result);
}

static const char *first_error(const struct learned *l)
{
	return l->result.n_errors ? l->result.errors[0] : "no error";
}

/* Commands that broke the header comment or the description. */
static void test_commands_read_back(void)
{
	static char long_arg[] =
		"for f in a b c; do echo \"$f\" ; done; "
		"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";
	const struct { char *const *command; const char *name; } cases[] = {
		{ ARGV("sh", "-c", "cat /etc/hostname\nls /\n# done"),
		  "a multi-line sh -c script" },
		{ ARGV("sh", "-c", long_arg), "a 230-byte argument" },
		{ ARGV("\"quoted", " lead", "trail ", "; semi", "\xff\xfe"),
		  "quotes, blanks, ';', bad UTF-8 in arguments" },
		{ ARGV("echo", "\r\t\x01", "$HOME"), "control bytes and '$'" },
	};
	static const char *const paths[] = { "/etc/hostname", NULL };

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct learned l = learn_paths(paths, NULL, cases[i].command);

		TAP_OK(l.r == 0 && l.policy.n_rules == 1 &&
		       !strcmp(l.policy.rules[0].path, "/etc/hostname"),
		       "learned from %s: the profile reads back (%s)",
		       cases[i].name, first_error(&l));
		if (l.r)
			printf("%s", l.profile);
		learned_free(&l);
	}
}

/* Paths that broke a rule or its "e.g." comment. */
static void test_paths_read_back(void)
{
	static const char *const paths[] = {
		"/data/new\nline", "/data2/semi ;colon", "/data3/trail ",
		"/data4/cost$x", "/data5/q\"uote", "/home/u/proj/a b/\xff", NULL,
	};
	struct learned l = learn_paths(paths, NULL, ARGV("true"));
	size_t found = 0;

	TAP_OK(l.r == 0 && l.written == 6, "learned nasty paths: the profile "
	       "reads back (%s, %zu rules)", first_error(&l), l.written);
	for (size_t i = 0; paths[i]; i++)
		for (size_t j = 0; j < l.policy.n_rules; j++)
			found += !strcmp(paths[i], l.policy.rules[j].path);
	TAP_EQ(6, found, "learned nasty paths: each rule is its path");
	TAP_OK(strstr(l.profile, "ro = \"${CWD}/a b/\\xff\"") != NULL,
	       "${CWD} stays a variable inside quotes");
	if (l.r || found != 6)
		printf("%s", l.profile);
	learned_free(&l);
}

/*
 * A path learned, the rule it becomes and the warning it must get (what
 * follows the rule in "corral: learn: RULE WARNING: review it"), NULL
 * for a path that is not a secret.
 */
static const struct secret_case {
	const char *path, *rule, *warning;
} secret_cases[] = {
	{ "/home/u/.ssh/id_rsa", "ro = ${HOME}/.ssh/id_rsa",
	  "is in ~/.ssh (SSH keys)" },
	{ "/home/u/.gnupg/private-keys-v1.d/k.key",
	  "ro = ${HOME}/.gnupg/private-keys-v1.d/k.key",
	  "is in ~/.gnupg (GnuPG keys)" },
	{ "/home/u/.aws/credentials", "ro = ${HOME}/.aws/credentials",
	  "is in ~/.aws (AWS credentials)" },
	{ "/home/u/.config/gcloud/credentials.db",
	  "ro = ${HOME}/.config/gcloud/credentials.db",
	  "is in ~/.config/gcloud (Google Cloud credentials)" },
	{ "/home/u/.azure/msal_token_cache.json",
	  "ro = ${HOME}/.azure/msal_token_cache.json",
	  "is in ~/.azure (Azure credentials)" },
	{ "/home/u/.kube/config", "ro = ${HOME}/.kube/config",
	  "is in ~/.kube (Kubernetes credentials)" },
	{ "/home/u/.netrc", "ro = ${HOME}/.netrc",
	  "is in ~/.netrc (netrc passwords)" },
	{ "/home/u/.git-credentials", "ro = ${HOME}/.git-credentials",
	  "is in ~/.git-credentials (git credentials)" },
	{ "/home/u/.password-store/bank.gpg",
	  "ro = ${HOME}/.password-store/bank.gpg",
	  "is in ~/.password-store (a pass password store)" },
	{ "/home/u/.local/share/keyrings/login.keyring",
	  "ro = ${HOME}/.local/share/keyrings/login.keyring",
	  "is in ~/.local/share/keyrings (GNOME keyrings)" },
	{ "/home/u/.mozilla/firefox/x.default/cookies.sqlite",
	  "ro = ${HOME}/.mozilla/firefox/x.default/cookies.sqlite",
	  "is in ~/.mozilla (Firefox profiles (cookies, saved "
	  "passwords))" },
	{ "/home/u/.config/chromium/Default/Cookies",
	  "ro = ${HOME}/.config/chromium/Default/Cookies",
	  "is in ~/.config/chromium (Chromium profiles (cookies, "
	  "saved passwords))" },
	{ "/home/u/.config/google-chrome/Default/Login Data",
	  "ro = ${HOME}/.config/google-chrome/Default/Login Data",
	  "is in ~/.config/google-chrome (Chrome profiles (cookies, "
	  "saved passwords))" },
	{ "/home/u/.bash_history", "ro = ${HOME}/.bash_history",
	  "is in ~/.bash_history (shell history)" },
	{ "/home/u/.zsh_history", "ro = ${HOME}/.zsh_history",
	  "is in ~/.zsh_history (shell history)" },
	{ "/home/u/.sshfoo", "ro = ${HOME}/.sshfoo", NULL },
	{ "/home/u/proj/src/main.c", "ro = ${CWD}/src/main.c", NULL },
};

/* One warning line and one comment for each rule reaching a secret. */
static void test_secrets(void)
{
	const struct secret_case *cases = secret_cases;
	size_t n = sizeof(secret_cases) / sizeof(*secret_cases), lines = 0;
	const char *paths[sizeof(secret_cases) / sizeof(*secret_cases) + 1];
	struct learned l;

	for (size_t i = 0; i < n; i++)
		paths[i] = cases[i].path;
	paths[n] = NULL;
	l = learn_paths(paths, NULL, ARGV("untrusted.sh"));
	TAP_OK(l.r == 0, "a profile with secrets reads back (%s)",
	       first_error(&l));
	for (const char *p = l.warnings; *p; p++)
		lines += *p == '\n';
	for (size_t i = 0; i < n; i++) {
		char warning[256], comment[256];
		const char *rule = strstr(l.profile, cases[i].rule);
		bool commented = false;

		snprintf(warning, sizeof(warning), "corral: learn: %s %s: "
			 "review it\n", cases[i].rule, cases[i].warning ?
			 cases[i].warning : "");
		snprintf(comment, sizeof(comment), "; SECRET: %s",
			 cases[i].warning ? cases[i].warning + 3 : "");
		/* the comment is the line just above the rule */
		if (rule && rule > l.profile) {
			const char *above = rule - 1;

			while (above > l.profile && above[-1] != '\n')
				above--;
			commented = !strncmp(above, comment, strlen(comment));
		}
		if (cases[i].warning)
			TAP_OK(rule && strstr(l.warnings, warning) && commented,
			       "secret %s: one warning line, a comment above "
			       "its rule", cases[i].path);
		else
			TAP_OK(rule && !strstr(l.warnings, cases[i].rule) &&
			       !commented, "not a secret: %s", cases[i].path);
	}
	TAP_EQ(n - 2, lines, "one warning line per secret, no more");
	if (lines != n - 2 || l.r)
		printf("%s---\n%s", l.warnings, l.profile);
	learned_free(&l);
}

/* A rule on ~ itself covers every secret in it; a listing does not. */
static void test_secret_ancestors(void)
{
	static const char *const paths[] = { "/home/u/notes.txt", "/home/u",
					     NULL };
	static const uint32_t access[] = { CORRAL_ACCESS_WRITE,
					   CORRAL_ACCESS_READDIR };
	struct learned l = learn_paths(paths, access, ARGV("editor"));
	bool holds;

	TAP_OK(l.r == 0 && !strcmp(l.warnings, "corral: learn: rw = ${HOME} "
				   "covers ~/.ssh (SSH keys): review it\n"),
	       "rw = ${HOME}: one warning, that it covers ~/.ssh (%s)",
	       l.warnings);
	TAP_OK(strstr(l.profile, "; SECRET: covers ~/.ssh (SSH keys): keep "
		      "this rule only if the command must have them\nrw = "
		      "${HOME}\n") != NULL, "and the comment above the rule");
	learned_free(&l);
	TAP_OK(!secret_find("/home/u/.ssh", "/", &holds) &&
	       !secret_find("/home/u/.ssh", NULL, &holds) &&
	       secret_find("/home/u/.ssh/x", "/home/u/", &holds) && !holds,
	       "HOME unset or '/' matches nothing; a trailing '/' is fine");
}

/* A socket connected to is learned as connect-unix on the socket alone,
 * never as a group on it or on its directory (/tmp and its servers). */
static void test_socket_connect(void)
{
	static const char *const paths[] = {
		"/tmp/tmux-1000/default", "/tmp/out.o", NULL,
	};
	static const uint32_t access[] = {
		CORRAL_ACCESS_CONNECT_UNIX, CORRAL_ACCESS_WRITE,
	};
	struct learned l = learn_paths(paths, access, ARGV("make"));
	uint32_t on_socket = 0, on_tmp = 0;

	for (size_t j = 0; j < l.policy.n_rules; j++) {
		if (!strcmp(l.policy.rules[j].path, paths[0]))
			on_socket |= l.policy.rules[j].access;
		else if (!strncmp(paths[0], l.policy.rules[j].path,
				  strlen(l.policy.rules[j].path)))
			on_tmp |= l.policy.rules[j].access;
	}
	TAP_OK(l.r == 0 && on_socket == CORRAL_ACCESS_CONNECT_UNIX,
	       "a socket connected to is learned as connect-unix on it (%s)",
	       first_error(&l));
	TAP_OK(!(on_tmp & CORRAL_ACCESS_CONNECT_UNIX),
	       "no rule on a directory above it grants connect-unix");
	if (l.r || on_socket != CORRAL_ACCESS_CONNECT_UNIX)
		printf("%s", l.profile);
	learned_free(&l);
}

int main(void)
{
	test_vars(&vars, false);
	test_commands_read_back();
	test_paths_read_back();
	test_secrets();
	test_secret_ancestors();
	test_socket_connect();
	vars_free(&vars);
	return tap_done();
}
