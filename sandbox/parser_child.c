// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parser_child.c - the unprivileged parser child: see parser_child.h for
 * what it does and launch_msg.h for what it may say to the launcher.
 */
#include "config.h"

#include "parser_child.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cache_dir.h"
#include "cli.h"
#include "command_found.h"
#include "expand.h"
#include "explain.h"
#include "launch_msg.h"
#include "parser_env.h"
#include "log_rules.h"
#include "privs.h"
#include "netrule.h"
#include "private_tmp.h"
#include "protected.h"
#include "profile.h"
#include "resolve.h"
#include "seccomp_load.h"
#include "user_env.h"
#include "util.h"

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/share/corral"
#endif

/*
 * Where the shipped profiles are: PKGDATADIR/profiles once installed;
 * run from the build tree (this process is the file make built), the
 * source tree's profiles/, so that `./corral --profile git` works
 * before `make install` (and tests the profiles beside the binary).
 */
static const char *data_dir(void)
{
#if defined(BUILD_TREE_CORRAL) && defined(BUILD_TREE_DATADIR)
	struct stat self, built;

	if (stat("/proc/self/exe", &self) == 0 &&
	    stat(BUILD_TREE_CORRAL, &built) == 0 &&
	    self.st_dev == built.st_dev && self.st_ino == built.st_ino)
		return BUILD_TREE_DATADIR;
#endif
	return PKGDATADIR;
}

#ifdef CORRAL_TEST_HOOKS
extern char **environ;

/*
 * For corral's own tests (tests/unit/parser-child.sh, escape.sh): show
 * what the parser holds, or make a system call it must not make.  Both
 * only concern this unprivileged child.  Compiled into tests/hooked/corral
 * alone, never into the corral that is installed: a switch that makes a
 * setgid, cap_bpf+p program print its state has no place there, however
 * harmless it looks.
 */
static void run_test_hook(const char *test)
{
	char line[256];
	FILE *status;
	size_t n;

	if (!test)
		return;
	if (!strcmp(test, "bpf")) {
		syscall(SYS_bpf, 0, NULL, 0);
		die("the parser survived bpf(2)");
	}
	if (strcmp(test, "status"))
		return;
	status = fopen("/proc/self/status", "re");
	if (!status)
		die_errno("/proc/self/status");
	while (fgets(line, sizeof(line), status))
		if (!strncmp(line, "Cap", 3) || !strncmp(line, "NoNewPrivs", 10) ||
		    !strncmp(line, "Seccomp:", 8) || !strncmp(line, "Gid", 3))
			fputs(line, stderr);
	fclose(status);
	for (n = 0; environ && environ[n]; n++)
		;
	fprintf(stderr, "Environ:\t%zu variables\n", n);
}
#endif

/* A rule from a command-line flag (its origin says "on the command line"),
 * where no '-' prefix makes a path optional. */
static bool is_flag(const struct policy_rule *rule)
{
	return strstr(rule->origin, "on the command line") != NULL;
}

enum rule_outcome { RULE_KEPT, RULE_DROPPED, RULE_REFUSED };

/*
 * A name rule (protected.c): its directory, which was there when it was
 * made; the name still missing.  Dropped when either changed since, and
 * when the user cannot make entries there anyway.
 */
static enum rule_outcome open_name_rule(const struct policy_rule *rule,
					int *fd, uint32_t *access,
					uint32_t *deny)
{
	char dir[PATH_MAX], *slash;
	struct stat st;

	snprintf(dir, sizeof(dir), "%s", rule->path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir || lstat(rule->path, &st) == 0)
		return RULE_DROPPED;
	*slash = '\0';
	*fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (*fd < 0)
		return RULE_DROPPED;
	*access = 0;
	*deny = rule->deny;
	if (launch_rule_usable(*fd, CORRAL_ACCESS_CREATE))
		return RULE_KEPT;
	close(*fd);
	return RULE_DROPPED;
}

/*
 * Opens @rule's path as the user; a rule on a file keeps file rights.
 * Dropped: an optional rule whose path does not exist, and a rule on
 * something the user cannot reach anyway (a sandbox narrows DAC, never
 * widens it, so such a rule grants nothing; the launcher would refuse
 * it).  Refused: said on stderr.
 */
static enum rule_outcome open_rule(const struct policy_rule *rule, int *fd,
				   uint32_t *access, uint32_t *deny)
{
	struct stat st;
	char names[128];

	if (rule->name_only)
		return open_name_rule(rule, fd, access, deny);
	*fd = open(rule->path, O_PATH | O_CLOEXEC);
	/* a cache not made yet (explain): a launch makes it first */
	if (*fd < 0 && errno == ENOENT && (rule->optional || rule->cache))
		return RULE_DROPPED;
	if (*fd < 0) {
		warn_msg("%s: %s (%s)%s", rule->path, strerror(errno),
			 rule->origin, errno != ENOENT ? "" : is_flag(rule) ?
			 "; create it, or leave the flag out" :
			 "; prefix the path with '-' in the profile to make it "
			 "optional");
		return RULE_REFUSED;
	}
	if (fstat(*fd, &st) < 0) {
		error_errno(errno, "%s: fstat (%s)", rule->path, rule->origin);
		close(*fd);
		return RULE_REFUSED;
	}
	*access = rule->access;
	*deny = rule->deny;
	if (!S_ISDIR(st.st_mode)) {
		*access &= CORRAL_ACCESS_FILE;
		*deny &= CORRAL_ACCESS_FILE;
	}
	if (!(*access | *deny)) {
		warn_msg("%s: is not a directory, and %s are directory rights "
			 "(%s)", rule->path,
			 rights_format(rule->access | rule->deny, names,
				       sizeof(names)),
			 rule->origin);
		close(*fd);
		return RULE_REFUSED;
	}
	/* a deny of rights the user has not got anyway takes nothing */
	if (launch_rule_usable(*fd, *access | *deny))
		return RULE_KEPT;
	close(*fd);
	return RULE_DROPPED;
}

/*
 * parser_child.h: what `corral explain` judges (explain.c), each rule opened as
 * a launch opens it; a rule a launch would refuse is fatal here too.
 */
bool parser_open_rule(const struct policy_rule *rule, int *fd,
		      uint32_t *access)
{
	uint32_t deny;

	if (rule->name_only)
		return false;   /* explain_path.c weighs them by name */
	switch (open_rule(rule, fd, access, &deny)) {
	case RULE_KEPT:
		return true;
	case RULE_REFUSED:
		exit(CORRAL_EXIT_FAILURE);
	default:        /* RULE_DROPPED */
		return false;
	}
}

/* Rule @n of @msg, a name rule, is for the last name of @rule's path. */
static int add_name(struct launch_msg *msg, size_t n,
		    const struct policy_rule *rule)
{
	struct launch_name_rule *r = &msg->names[msg->n_names];

	if (msg->n_names == LAUNCH_MAX_NAMES) {
		warn_msg("%s: more than %d protected paths missing (%s)",
			 rule->path, LAUNCH_MAX_NAMES, rule->origin);
		return -1;
	}
	r->rule = (uint32_t)n;
	snprintf(r->name, sizeof(r->name), "%s", strrchr(rule->path, '/') + 1);
	msg->n_names++;
	return 0;
}

/* The kept rules' fds not sent yet, and where they go (-1: nowhere). */
struct rule_batch {
	int sock;
	uint32_t sent;
	size_t n;
	int fds[LAUNCH_FDS_PER_MSG];
};

static void batch_flush(struct rule_batch *b)
{
	int r = 0;

	if (b->n && b->sock >= 0)
		r = launch_msg_send_rules(b->sock, b->sent, b->fds, b->n);
	if (r < 0)
		die("sending the rules' files to the launcher: %s",
		    strerror(-r));
	for (size_t i = 0; i < b->n; i++)
		close(b->fds[i]);
	b->sent += (uint32_t)b->n;
	b->n = 0;
}

/*
 * The launcher holds every rule's fd at once, besides its own (stdio,
 * the pinned maps, pidfds): at most this many rules fit under the hard
 * open-files limit it raises itself to (fd_limit_raise).
 */
#define LAUNCHER_OWN_FDS 64

static size_t rules_fd_room(void)
{
	unsigned long long hard = fd_limit_hard();

	return hard > LAUNCHER_OWN_FDS ? (size_t)(hard - LAUNCHER_OWN_FDS) : 0;
}

/*
 * Everything of @policy a launch checks before the launcher sees it,
 * for `corral run` and `corral check` alike, so that check refuses what
 * a launch would, in the same words: each rule opened as the user (see
 * open_rule), the limits on rules and on variables to unset.  Kept
 * rules get their rights in msg->access and their fds sent to @sock
 * LAUNCH_FDS_PER_MSG at a time (closed at once when @sock is -1, and
 * no cache = directory made).  Every refusal is said; returns how many.
 */
static int prepare_rules(const struct policy *policy, struct launch_msg *msg,
			 int sock, uint32_t *kept)
{
	static struct rule_batch batch;
	size_t room = rules_fd_room(), n = 0;
	int refused = 0;

	batch.sock = sock;
	batch.sent = 0;
	batch.n = 0;
	msg->n_names = 0;
	for (size_t i = 0; i < policy->n_rules; i++) {
		const struct policy_rule *rule = &policy->rules[i];
		int *fd = &batch.fds[batch.n];

		if (n == LAUNCH_MAX_RULES || n == room) {
			warn_msg("%s: more than %zu rules after merging the "
				 "profiles and flags (%s); merge rules on a "
				 "common directory", rule->origin, n,
				 n == LAUNCH_MAX_RULES ?
				 "corral's limit for one sandbox" :
				 "what the open-files hard limit, ulimit -Hn, "
				 "leaves room for");
			refused++;
			break;
		}
		if (rule->cache && sock >= 0 && cache_dir_make(rule) < 0) {
			refused++;
			continue;
		}
		switch (open_rule(rule, fd, &msg->access[n], &msg->deny[n])) {
		case RULE_KEPT:
			if (rule->name_only && add_name(msg, n, rule) < 0) {
				close(*fd);
				refused++;
				break;
			}
			if (kept)
				kept[n] = (uint32_t)i;
			n++;
			if (++batch.n == LAUNCH_FDS_PER_MSG)
				batch_flush(&batch);
			break;
		case RULE_REFUSED:
			refused++;
			break;
		default:        /* RULE_DROPPED */
			break;
		}
	}
	batch_flush(&batch);
	msg->n_rules = (uint32_t)n;
	if (policy->n_unset > LAUNCH_MAX_UNSET) {
		warn_msg("%s: more than %d variables to unset",
			 policy->unset[LAUNCH_MAX_UNSET].origin,
			 LAUNCH_MAX_UNSET);
		refused++;
	}
	for (size_t i = 0; i < policy->n_unset && i < LAUNCH_MAX_UNSET; i++)
		snprintf(msg->unset[i], sizeof(msg->unset[i]), "%s",
			 policy->unset[i].name);
	msg->n_unset = (uint32_t)(policy->n_unset < LAUNCH_MAX_UNSET ?
				  policy->n_unset : LAUNCH_MAX_UNSET);
	return refused;
}

/*
 * corral check FILE...: "FILE: ok", or every error, those a launch with
 * the profile would refuse included; 125 if any failed.
 */
static int check_files(const struct profile_env *env, char **files)
{
	static struct launch_msg msg;
	int status = 0;

	for (; *files; files++) {
		struct policy policy = { 0 };
		struct profile_result result = { 0 };

		if (profile_load_file(env, *files, &policy, &result) < 0) {
			profile_print_errors(&result);
			status = CORRAL_EXIT_FAILURE;
		} else if (prepare_rules(&policy, &msg, -1, NULL)) {
			status = CORRAL_EXIT_FAILURE;
		} else {
			printf("%s: ok\n", *files);
		}
		profile_result_free(&result);
		policy_free(&policy);
	}
	return status;
}

/* The profile's [sandbox] switches, as the BPF side reads them. */
static uint32_t sandbox_flags(const struct policy *policy)
{
	uint32_t flags = 0;

	if (policy->sandbox.value[POLICY_EXEC_ANONYMOUS] == POLICY_YES)
		flags |= CORRAL_TASK_EXEC_ANON;
	if (policy->sandbox.value[POLICY_UNIX_CONNECT] == POLICY_ALLOW)
		flags |= CORRAL_TASK_UNIX_ANY;
	if (policy->sandbox.value[POLICY_USERNS] == POLICY_YES)
		flags |= CORRAL_TASK_USERNS;
	if (policy->sandbox.value[POLICY_SYSV_IPC] == POLICY_YES)
		flags |= CORRAL_TASK_SYSV_IPC;
	return flags;
}

static uint32_t engine_of(const struct corral_opts *opts)
{
	if (opts->engine == CORRAL_ENGINE_BPF ||
	    (opts->engine == CORRAL_ENGINE_AUTO &&
	     opts->policy.sandbox.value[POLICY_REQUIRE] == POLICY_BPF))
		return LAUNCH_ENGINE_BPF;
	if (opts->engine == CORRAL_ENGINE_LANDLOCK)
		return LAUNCH_ENGINE_LANDLOCK;
	return LAUNCH_ENGINE_AUTO;
}

/* argv[0] mode: run the real program of that name, not ourselves. */
static void find_real_program(const struct corral_opts *opts,
			      const char *path, struct launch_msg *msg)
{
	char *found = NULL;
	int r = cli_find_program(opts->invoked_as, path, &found);

	if (r == -ENOENT)
		die_with_status(CORRAL_EXIT_NOT_FOUND, "%s: command not found "
				"in PATH (other than corral itself)",
				opts->invoked_as);
	if (r < 0)
		exit(CORRAL_EXIT_FAILURE);
	if (strlen(found) >= sizeof(msg->exec_path))
		die("%s: path too long", found);
	strcpy(msg->exec_path, found);
	free(found);
}

/*
 * The file execvp(3) would run for @name, looked up here so that the
 * launcher execs it at once: each PATH entry execvp tries in vain costs
 * a failed execve, and the kernel builds the new process image before it
 * opens the file (measured in tests/bench/RESULTS.md, "Figures quoted by
 * the design notes").  Only when the answer is plain: a bare name, PATH
 * set, no relative entry before the match.  The launcher falls back to
 * execvpe when the execve fails, so a wrong guess costs time, not
 * behaviour.
 */
static void resolve_command(const char *name, const char *path,
			    struct launch_msg *msg)
{
	if (!path || strchr(name, '/') || !name[0])
		return;
	if (!cli_path_search(name, path, NULL, PATH_STOP_AT_UNCERTAIN,
			     msg->exec_path, sizeof(msg->exec_path)))
		msg->flags |= LAUNCH_PATH_FOUND;
}

static int open_output(const char *path, int flags, const char *what)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY | flags,
		      0666);

	if (fd < 0)
		die_errno("%s: %s", path, what);
	return fd;
}

static void msg_init(struct launch_msg *msg, uint32_t kind)
{
	memset(msg, 0, sizeof(*msg));
	msg->magic = LAUNCH_MSG_MAGIC;
	msg->version = LAUNCH_MSG_VERSION;
	msg->size = sizeof(*msg);
	msg->kind = kind;
}

static int send_or_die(int sock, const struct launch_msg *msg, const int *fds,
		       size_t n_fds)
{
	int r = launch_msg_send(sock, msg, fds, n_fds);

	if (r < 0)
		die("sending the parsed command line to the launcher: %s",
		    strerror(-r));
	return 0;
}

static int send_run(int sock, char **argv, struct corral_opts *opts,
		    const struct parser_env *penv)
{
	const struct policy_net_host *full = NULL;
	const char *path = penv->path;
	const struct policy *policy = &opts->policy;
	static struct launch_msg msg;
	static uint32_t kept[LAUNCH_MAX_RULES];
	int fds[LAUNCH_MAX_OUTPUTS];
	size_t n = 0;

	msg_init(&msg, opts->command == CORRAL_CMD_LEARN ? LAUNCH_LEARN :
							   LAUNCH_RUN);
	if (prepare_rules(policy, &msg, sock, kept))
		exit(CORRAL_EXIT_FAILURE);
	if (policy_add_host_addrs(&opts->policy, &full) < 0)
		die("%s: more than %d network rules with the addresses of "
		    "'%s' (use prefixes, or fewer names)", full->origin,
		    POLICY_MAX_NET_RULES, full->name);
	msg.net_mode = policy->net_mode;
	msg.n_net = policy->n_net;
	memcpy(msg.net, policy->net, policy->n_net * sizeof(*policy->net));
	msg.engine = engine_of(opts);
	msg.task_flags = sandbox_flags(policy);
	msg.cmd_index = opts->argv - argv;
	if (opts->invoked_as)
		find_real_program(opts, path, &msg);
	else
		resolve_command(opts->argv[0] ? opts->argv[0] : "", path, &msg);
	if (opts->quiet || penv->quiet ||
	    policy->sandbox.value[POLICY_QUIET] == POLICY_YES)
		msg.flags |= LAUNCH_QUIET;
	if (opts->net_best_effort)
		msg.flags |= LAUNCH_NET_BEST_EFFORT;
	if (opts->log)
		msg.flags |= LAUNCH_LOG;
	if (opts->log_all)
		msg.flags |= LAUNCH_LOG_ALL;
	if (opts->log_file) {
		msg.flags |= LAUNCH_LOG_FD;
		fds[n++] = open_output(opts->log_file, O_TRUNC,
				       "opening the --log file");
	}
	if (opts->log) {
		fds[n] = log_rules_write(policy, kept, msg.n_rules);
		if (fds[n++] < 0)
			exit(CORRAL_EXIT_FAILURE);
	}
	if (opts->command == CORRAL_CMD_LEARN) {
		/* a run that never starts has nothing to learn: no file */
		if (!(msg.flags & LAUNCH_PATH_FOUND) &&
		    command_missing(opts->argv[0] ? opts->argv[0] : "", path))
			die_with_status(CORRAL_EXIT_NOT_FOUND, "%s: command not "
					"found; nothing was run or learned",
					opts->argv[0] ? opts->argv[0] : "");
		fds[n++] = open_output(opts->learn_output, 0,
				       "opening the learn output");
		if (opts->n_profiles)
			snprintf(msg.learn_base, sizeof(msg.learn_base), "%s",
				 opts->profiles[0]);
	}
	if (penv->tmp_fd >= 0) {
		msg.flags |= LAUNCH_TMPDIR;
		snprintf(msg.tmpdir, sizeof(msg.tmpdir), "%s", penv->tmp_path);
		fds[n++] = penv->tmp_fd;
	}
	return send_or_die(sock, &msg, fds, n);
}

static int send_admin(int sock, const struct corral_opts *opts)
{
	struct launch_msg msg;
	uint32_t kind = opts->command == CORRAL_CMD_SETUP ? LAUNCH_SETUP :
			opts->command == CORRAL_CMD_STATUS ? LAUNCH_STATUS :
							     LAUNCH_TEARDOWN;

	msg_init(&msg, kind);
	msg.flags = (opts->force ? LAUNCH_FORCE : 0) |
		    (opts->debug ? LAUNCH_DEBUG : 0);
	return send_or_die(sock, &msg, NULL, 0);
}

/*
 * --project DIR: ${PROJECT} is DIR, as realpath(3) resolves it (the
 * on-demand answer, given in advance).  It must be a directory, and no
 * more "/", HOME or above it than a ${PROJECT} found from CWD may be.
 * A relative DIR is taken from CWD here: realpath would ask getcwd(2),
 * which the parser's seccomp filter refuses.
 */
static int take_project(const char *dir, const struct parser_env *penv)
{
	const char *cwd = penv->vars.value[VAR_CWD];
	_cleanup_free_ char *abs = NULL, *real = NULL;
	const char *what;
	struct stat st;

	if (dir[0] != '/' && !cwd) {
		warn_msg("--project %s: the current directory is unknown "
			 "(give an absolute path)", dir);
		return -1;
	}
	abs = xmalloc(strlen(dir) + (cwd ? strlen(cwd) : 0) + 2);
	sprintf(abs, "%s/%s", dir[0] == '/' ? "" : cwd, dir);
	real = realpath(abs, NULL);
	if (!real || stat(real, &st) < 0) {
		warn_msg("--project %s: %s (give the project's directory)",
			 dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		warn_msg("--project %s: not a directory (give the directory "
			 "the project is in)", dir);
		return -1;
	}
	what = dir_holds_home(real, penv->vars.value[VAR_HOME]);
	if (what) {
		warn_msg("--project %s: that is %s, and no profile may give "
			 "all of it (give the project's own directory)", dir,
			 what);
		return -1;
	}
	free(penv->user_db->project);
	penv->user_db->project = steal_pointer(&real);
	return 0;
}

/*
 * ${TMPDIR} and the command's TMPDIR (private_tmp.h): the user's own
 * TMPDIR if it is a private directory of theirs; else, for a command to
 * run, a directory of this launch's own, locked, and for subcommands
 * that run nothing (check, explain, --print-profile), the per-user base
 * those are made in.  Never a shared sticky directory such as /tmp.
 */
static void take_tmpdir(struct parser_env *penv, bool runs)
{
	struct vars *vars = &penv->vars;
	char base_path[PATH_MAX];
	int base;

	if (private_tmp_is_private(vars->value[VAR_TMPDIR]))
		return;
	base = private_tmp_base(vars->value[VAR_XDG_RUNTIME_DIR], base_path,
				sizeof(base_path));
	if (runs)
		penv->tmp_fd = private_tmp_make(base, base_path,
						penv->tmp_path,
						sizeof(penv->tmp_path));
	close(base);
	vars_set(vars, VAR_TMPDIR, runs ? penv->tmp_path : base_path);
}

static int with_profiles(int sock, char **argv, struct corral_opts *opts,
			 struct parser_env *penv)
{
	struct profile_env env;
	struct profile_result result = { 0 };

	if (opts->project && take_project(opts->project, penv) < 0)
		return CORRAL_EXIT_FAILURE;
	if (opts->command != CORRAL_CMD_PROFILES)
		take_tmpdir(penv, opts->command == CORRAL_CMD_RUN ||
				  opts->command == CORRAL_CMD_LEARN);
	profile_env_init(&env, &penv->vars, penv->profile_path, data_dir());
	if (opts->command == CORRAL_CMD_PROFILES) {
		profile_list(stdout, &env);
		protected_list(stdout, &penv->vars);
		return fflush(stdout) ? CORRAL_EXIT_FAILURE : 0;
	}
	if (opts->command == CORRAL_CMD_CHECK)
		return check_files(&env, opts->argv);
	if (cli_load_profiles(opts, &env, &result) < 0) {
		profile_print_errors(&result);
		return CORRAL_EXIT_FAILURE;
	}
	/* Host names: resolved by the launcher's unprivileged resolver,
	 * never here (resolve.h says why); check above only parses. */
	if (opts->policy.n_hosts &&
	    (resolve_hosts(sock, &opts->policy) < 0 ||
	     netrule_hosts_check(&opts->policy) < 0))
		return CORRAL_EXIT_FAILURE;
	if (opts->command != CORRAL_CMD_LEARN)  /* learn denies nothing */
		protected_add(&opts->policy, &penv->vars);
	if (opts->command == CORRAL_CMD_EXPLAIN)
		return explain_run(opts, penv->vars.value[VAR_CWD],
				   &penv->engine, stdout);
	if (opts->command == CORRAL_CMD_PRINT_PROFILE) {
		policy_absolute(&opts->policy, penv->vars.value[VAR_CWD]);
		profile_print(stdout, &opts->policy, &result);
		return fflush(stdout) ? CORRAL_EXIT_FAILURE : 0;
	}
	return send_run(sock, argv, opts, penv);
}

static int parse(int sock, int argc, char **argv, struct parser_env *penv)
{
	struct corral_opts opts;

	if (cli_parse(argc, argv, &opts, stdout) < 0)
		return CORRAL_EXIT_FAILURE;
	switch (opts.command) {
	case CORRAL_CMD_HELP:
		return 0;
	case CORRAL_CMD_SETUP:
	case CORRAL_CMD_STATUS:
	case CORRAL_CMD_TEARDOWN:
		return send_admin(sock, &opts);
	case CORRAL_CMD_RUN:
	case CORRAL_CMD_PROFILES:
	case CORRAL_CMD_CHECK:
	case CORRAL_CMD_PRINT_PROFILE:
	case CORRAL_CMD_LEARN:
	case CORRAL_CMD_EXPLAIN:
		return with_profiles(sock, argv, &opts, penv);
	default:
		break;
	}
	die("internal error: unknown command %d", (int)opts.command);
}

static _Noreturn void parser_child(int sock, int argc, char **argv,
				   char **envp,
				   const struct explain_engine *engine)
{
	struct parser_env penv;

	privs_drop_all();
	take_environment(&penv, envp);
	if (engine)
		penv.engine = *engine;
	if (seccomp_install_parser() < 0)
		die("could not confine the profile parser; nothing was run");
#ifdef CORRAL_TEST_HOOKS
	run_test_hook(penv.test);
#endif
	exit(parse(sock, argc, argv, &penv));
}

int parser_start(int argc, char **argv, char **envp,
		 const struct explain_engine *engine, pid_t *pid)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		die_errno("socketpair for the profile parser");
	*pid = fork();
	if (*pid < 0)
		die_errno("fork for the profile parser");
	if (*pid == 0) {
		close(sv[0]);
		parser_child(sv[1], argc, argv, envp, engine);
	}
	close(sv[1]);
	return sv[0];
}

int parser_wait(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die_errno("waiting for the profile parser");
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	warn_msg("the profile parser was killed by signal %d (%s)%s",
		 WTERMSIG(status), strsignal(WTERMSIG(status)),
		 WTERMSIG(status) == SIGSYS ?
		 ": it made a system call outside its seccomp allowlist; "
		 "nothing was run (please report this as a bug)" :
		 "; nothing was run");
	return CORRAL_EXIT_FAILURE;
}
