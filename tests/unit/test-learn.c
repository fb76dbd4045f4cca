// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests: what `corral learn` writes (sandbox/learn.c), read
 * back with the profile parser, and its warnings about secrets
 * (sandbox/secrets.c).
 *
 * The learned paths under /home/u do not exist here, so each is a file:
 * its rule is on itself when read, on its directory when changed, and
 * optional ('-'), as a rule on a missing path would not load.  The tests
 * of what a user sees on a real home (test_home_*) make one in a
 * temporary directory, and run `$CORRAL check` on what was written.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "expand.h"
#include "learn.h"
#include "policy.h"
#include "profile.h"
#include "secrets.h"
#include "tap.h"
#include "test-vars.h"

#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })

/* learn_record's only use of events.c: the path of the event is
 * stub_path, which a test sets before calling learn_record. */
static const char *stub_path = "";
char *event_path(const struct corral_event *ev, char *buf, size_t size);
char *event_path(const struct corral_event *ev, char *buf, size_t size)
{
	(void)ev;
	snprintf(buf, size, "%s", stub_path);
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
	TAP_OK(strstr(l.profile, "ro = -\"${CWD}/a b/\\xff\"") != NULL,
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
	{ "/home/u/.ssh/id_rsa", "ro = -${HOME}/.ssh/id_rsa",
	  "is in ~/.ssh (SSH keys)" },
	{ "/home/u/.gnupg/private-keys-v1.d/k.key",
	  "ro = -${HOME}/.gnupg/private-keys-v1.d/k.key",
	  "is in ~/.gnupg (GnuPG keys)" },
	{ "/home/u/.aws/credentials", "ro = -${HOME}/.aws/credentials",
	  "is in ~/.aws (AWS credentials)" },
	{ "/home/u/.config/gcloud/credentials.db",
	  "ro = -${HOME}/.config/gcloud/credentials.db",
	  "is in ~/.config/gcloud (Google Cloud credentials)" },
	{ "/home/u/.azure/msal_token_cache.json",
	  "ro = -${HOME}/.azure/msal_token_cache.json",
	  "is in ~/.azure (Azure credentials)" },
	{ "/home/u/.kube/config", "ro = -${HOME}/.kube/config",
	  "is in ~/.kube (Kubernetes credentials)" },
	{ "/home/u/.netrc", "ro = -${HOME}/.netrc",
	  "is in ~/.netrc (netrc passwords)" },
	{ "/home/u/.git-credentials", "ro = -${HOME}/.git-credentials",
	  "is in ~/.git-credentials (git credentials)" },
	{ "/home/u/.password-store/bank.gpg",
	  "ro = -${HOME}/.password-store/bank.gpg",
	  "is in ~/.password-store (a pass password store)" },
	{ "/home/u/.local/share/keyrings/login.keyring",
	  "ro = -${HOME}/.local/share/keyrings/login.keyring",
	  "is in ~/.local/share/keyrings (GNOME keyrings)" },
	{ "/home/u/.mozilla/firefox/x.default/cookies.sqlite",
	  "ro = -${HOME}/.mozilla/firefox/x.default/cookies.sqlite",
	  "is in ~/.mozilla (Firefox profiles (cookies, saved "
	  "passwords))" },
	{ "/home/u/.config/chromium/Default/Cookies",
	  "ro = -${HOME}/.config/chromium/Default/Cookies",
	  "is in ~/.config/chromium (Chromium profiles (cookies, "
	  "saved passwords))" },
	{ "/home/u/.config/google-chrome/Default/Login Data",
	  "ro = -${HOME}/.config/google-chrome/Default/Login Data",
	  "is in ~/.config/google-chrome (Chrome profiles (cookies, "
	  "saved passwords))" },
	{ "/home/u/.bash_history", "ro = -${HOME}/.bash_history",
	  "is in ~/.bash_history (shell history)" },
	{ "/home/u/.zsh_history", "ro = -${HOME}/.zsh_history",
	  "is in ~/.zsh_history (shell history)" },
	{ "/home/u/.sshfoo", "ro = -${HOME}/.sshfoo", NULL },
	{ "/home/u/proj/src/main.c", "ro = -${CWD}/src/main.c", NULL },
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
	static const char *const paths[] = { "/home/u", "/home/u/notes.txt",
					     NULL };
	static const uint32_t access[] = { CORRAL_ACCESS_READ,
					   CORRAL_ACCESS_READ };
	struct learned l = learn_paths(paths, access, ARGV("indexer"));
	bool holds;

	TAP_OK(l.r == 0 && !strcmp(l.warnings, "corral: learn: ro = -${HOME} "
				   "covers ~/.ssh (SSH keys): review it\n"),
	       "ro = ${HOME}: one warning, that it covers ~/.ssh (%s)",
	       l.warnings);
	TAP_OK(strstr(l.profile, "; SECRET: covers ~/.ssh (SSH keys): keep "
		      "this rule only if the command must have them\nro = "
		      "-${HOME}\n") != NULL, "and the comment above the rule");
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

/* ---- what a user sees: the profile's text, and `corral check` on it ---- */

struct home {
	char dir[64], proj[80], file[96];
};

static void make_file(const char *dir, const char *name)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0 || close(fd) < 0)
		abort();
}

/* A home with a project directory and a few dot files. */
static void home_make(struct home *h)
{
	snprintf(h->dir, sizeof(h->dir), "/tmp/test-learn-XXXXXX");
	if (!mkdtemp(h->dir))
		abort();
	snprintf(h->proj, sizeof(h->proj), "%s/proj", h->dir);
	if (mkdir(h->proj, 0700) < 0)
		abort();
	make_file(h->dir, ".bashrc");
	make_file(h->dir, ".profile");
	make_file(h->dir, ".inputrc");
	make_file(h->dir, ".gitconfig");
	snprintf(h->file, sizeof(h->file), "%s/learned.profile", h->dir);
}

static void home_remove(const struct home *h)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", h->dir);
	if (system(cmd) != 0)
		abort();
}

/*
 * `$CORRAL check FILE` on @profile, run from @h's project with HOME=@h:
 * its exit status, and what it printed in @said.  -1 without $CORRAL
 * (the test is run by hand): then nothing is checked.
 */
static int corral_check(const struct home *h, const char *profile,
			char *said, size_t size)
{
	const char *corral = getenv("CORRAL");
	char cmd[512];
	FILE *f = fopen(h->file, "we"), *p;
	size_t got;
	int status;

	said[0] = '\0';
	if (!f || fputs(profile, f) < 0 || fclose(f))
		abort();
	if (!corral)
		return -1;
	snprintf(cmd, sizeof(cmd), "cd '%s' && HOME='%s' '%s' check '%s' 2>&1",
		 h->proj, h->dir, corral, h->file);
	p = popen(cmd, "r");
	if (!p)
		abort();
	got = fread(said, 1, size - 1, p);
	said[got] = '\0';
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* learn_write for @l on @h, and `corral check` on the result. */
static char *learn_on(struct learn *l, const struct home *h,
		      char *const *command, int *check, char *said,
		      size_t size)
{
	char *profile = NULL;
	size_t psize = 0;
	FILE *f = open_memstream(&profile, &psize);
	FILE *w = fopen("/dev/null", "we");

	if (!f || !w)
		abort();
	l->home = h->dir;
	l->cwd = h->proj;
	learn_write(l, f, w, command, NULL);
	fclose(f);
	fclose(w);
	*check = corral_check(h, profile, said, size);
	return profile;
}

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; p; p = strchr(p, '\n')) {
		p += *p == '\n';
		if (!strncmp(p, line, n) && (p[n] == '\n' || !p[n]))
			return true;
	}
	return false;
}

/* corral check passed on @profile (or could not run); then frees it all */
static void check_ok_and_free(int check, const char *said, char *profile,
			      struct learn *l, struct home *h)
{
	TAP_OK(check < 0 || (check == 0 && strstr(said, ": ok\n")),
	       "corral check on it: ok (exit %d)", check);
	if (check > 0)
		printf("# corral check said:\n%s# on:\n%s", said, profile);
	free(profile);
	learn_free(l);
	home_remove(h);
}

/*
 * One write attempt on ~/.bashrc is that file, never rw = ${HOME}; a
 * file created in ~ is that name, optional (it is not there); files read
 * in ~ are not folded into ro = ${HOME}.
 */
static void test_home_write(void)
{
	struct learn l = { 0 };
	struct home h;
	char path[256], said[4096];
	const char *dot[] = { ".profile", ".inputrc", ".gitconfig" };
	char *profile;
	int check;

	home_make(&h);
	snprintf(path, sizeof(path), "%s/.bashrc", h.dir);
	learn_add(&l, path, CORRAL_ACCESS_WRITE | CORRAL_ACCESS_TRUNCATE);
	snprintf(path, sizeof(path), "%s/new.txt", h.dir);
	learn_add(&l, path, CORRAL_ACCESS_CREATE);
	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", h.dir, dot[i]);
		learn_add(&l, path, CORRAL_ACCESS_READ);
	}
	profile = learn_on(&l, &h, ARGV("sh", "-c", "echo x >> ~/.bashrc"),
			   &check, said, sizeof(said));
	TAP_OK(has_line(profile, "rw = ${HOME}/.bashrc"),
	       "one write to ~/.bashrc learns rw = ${HOME}/.bashrc");
	TAP_OK(has_line(profile, "rw = -${HOME}/new.txt"),
	       "a file created in ~ learns rw = -${HOME}/new.txt");
	TAP_OK(has_line(profile, "ro = ${HOME}/.inputrc") &&
	       has_line(profile, "ro = ${HOME}/.gitconfig") &&
	       has_line(profile, "ro = ${HOME}/.profile"),
	       "three files read in ~ keep a rule each");
	TAP_OK(!strstr(profile, "= ${HOME}\n") &&
	       !strstr(profile, "= -${HOME}\n"),
	       "no rule on ~ itself");
	check_ok_and_free(check, said, profile, &l, &h);
}

/*
 * /proc/PID of the process refused is /proc/self, another's /proc/PID,
 * both as comments: the profile loads, and /proc/cpuinfo is a rule.
 */
static void test_home_proc(void)
{
	static const struct { const char *path, *line; } cases[] = {
		{ "/proc/4242/status", "; not learned: read /proc/self/status "
		  "(no rule can grant a process's /proc/PID files)" },
		{ "/proc/4242/task/4243/comm", "; not learned: read "
		  "/proc/self/task/4243/comm (no rule can grant a process's "
		  "/proc/PID files)" },
		{ "/proc/1/cmdline", "; not learned: read /proc/PID/cmdline (no "
		  "rule can grant a process's /proc/PID files)" },
		{ "/proc/cpuinfo", "ro = /proc/cpuinfo" },
	};
	struct corral_event ev = { .pid = 4242, .hook = CORRAL_HOOK_OPEN,
				   .access = CORRAL_ACCESS_READ };
	struct learn l = { 0 };
	struct home h;
	char said[4096];
	char *profile;
	int check;

	home_make(&h);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		stub_path = cases[i].path;
		learn_record(&ev, &l);
	}
	stub_path = "";
	profile = learn_on(&l, &h, ARGV("ps"), &check, said, sizeof(said));
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		TAP_OK(has_line(profile, cases[i].line), "%s is written as: "
		       "%s", cases[i].path, cases[i].line);
	TAP_OK(!strstr(profile, "4242/"), "the pid itself is nowhere");
	check_ok_and_free(check, said, profile, &l, &h);
}

/*
 * Arguments that start with '-', or need quotes, as a shell would show
 * them: in the description (its first four, then " ...") and the
 * header comment.
 */
static void test_dash_arguments(void)
{
	static const char *const paths[] = { "/etc/hostname", NULL };
	const char *want = "learned from: ls -- - \"-\\$HOME\" ...";
	struct learned l = learn_paths(paths, NULL, ARGV("ls", "--", "-",
		"-$HOME", "--color=auto", "-v x"));
	const char *got = l.result.n_files && l.result.files[0].description ?
			  l.result.files[0].description : "(none)";

	TAP_OK(l.r == 0 && !strcmp(got, want), "the description of ls -- - "
	       "'-$HOME' --color=auto '-v x' reads back as [%s] (%s)", got,
	       first_error(&l));
	TAP_OK(strstr(l.profile, "#   ls -- - \"-\\$HOME\" --color=auto "
		      "\"-v x\"\n") != NULL,
	       "the header comment shows every argument so");
	if (l.r || strcmp(got, want))
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
	test_home_write();
	test_home_proc();
	test_dash_arguments();
	vars_free(&vars);
	return tap_done();
}
