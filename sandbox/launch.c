// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * launch.c - the privileged flow of `corral [rules] -- CMD`, top to bottom:
 *
 *   1. choose the engine; for bpf, capabilities become: effective none,
 *      permitted CAP_BPF only (privs.c)
 *   2. open every rule path O_PATH, as the user, before any privilege
 *   3. bpf: raise CAP_BPF; open the pinned maps; create our own domain;
 *      register each rule from its fd; enter the domain
 *   4. drop every capability for good, NO_NEW_PRIVS, read back
 *   5. landlock: build the ruleset from the same fds and restrict self
 *   6. exec the command: no corral process stays behind
 */
#include "config.h"

#include "launch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine_bpf.h"
#include "engine_landlock.h"
#include "events.h"
#include "learn.h"
#include "privs.h"
#include "seccomp_filter.h"
#include "util.h"

/*
 * Opens @rule's path as the user; a rule on a file keeps file rights.
 * Returns false for an optional rule whose path does not exist.
 */
static bool open_rule(const struct policy_rule *rule, struct opened_rule *out)
{
	struct stat st;
	char names[128];

	out->path = rule->path;
	out->fd = open(rule->path, O_PATH | O_CLOEXEC);
	if (out->fd < 0 && errno == ENOENT && rule->optional)
		return false;
	if (out->fd < 0)
		die("%s: %s (%s)%s", rule->path, strerror(errno), rule->origin,
		    errno == ENOENT ? "; prefix the path with '-' to make it "
				      "optional" : "");
	if (fstat(out->fd, &st) < 0)
		die_errno("%s: fstat (%s)", rule->path, rule->origin);
	out->access = rule->access;
	if (!S_ISDIR(st.st_mode))
		out->access &= CORRAL_ACCESS_FILE;
	if (!out->access)
		die("%s: is not a directory, and %s are directory rights (%s)",
		    rule->path,
		    rights_format(rule->access, names, sizeof(names)),
		    rule->origin);
	return true;
}

/*
 * Is the bpf engine usable by this process?  Returns 1, or 0 with the
 * reason in @why.  On 1, capabilities are already reduced to CAP_BPF.
 */
static int bpf_engine_usable(char *why, size_t size)
{
	if (!bpf_lsm_active(why, size))
		return 0;
	if (privs_init_launcher() < 0) {
		snprintf(why, size, "%s", privs_missing_reason());
		return 0;
	}
	if (!bpf_engine_pinned()) {
		snprintf(why, size, "corral's BPF programs are not set up "
			 "(hint: run 'corral setup' as root, or enable "
			 "corral-setup.service)");
		return 0;
	}
	return 1;
}

/*
 * --engine=auto: bpf when usable, else Landlock with exactly one line
 * saying why and what Landlock cannot enforce.  --engine=bpf never falls
 * back.
 */
static enum corral_engine choose_engine(enum corral_engine wanted)
{
	char why[320], limits[320];
	int abi;

	if (wanted == CORRAL_ENGINE_LANDLOCK)
		return wanted;
	if (bpf_engine_usable(why, sizeof(why)))
		return CORRAL_ENGINE_BPF;
	if (wanted == CORRAL_ENGINE_BPF)
		die("--engine=bpf (or require = bpf in a profile): %s", why);
	abi = landlock_abi();
	if (!abi)
		die("no engine available: %s; and Landlock is not enabled "
		    "either (see corral-setup(8))", why);
	warn_msg("using Landlock ABI %d, not bpf: %s; Landlock cannot "
		 "enforce %s", abi, why,
		 landlock_limits(abi, limits, sizeof(limits)));
	return CORRAL_ENGINE_LANDLOCK;
}

/* --log and learn: a watcher stays behind to read the domain's events. */
struct watch {
	bool on;
	struct log_printer printer;
	struct learn learn;
	struct event_reader *reader;
};

static void watch_init(struct watch *w, const struct corral_opts *opts)
{
	memset(w, 0, sizeof(*w));
	w->on = opts->log || opts->command == CORRAL_CMD_LEARN;
	w->printer.out = stderr;
	w->printer.per_second = 20;
	if (opts->log_file) {
		w->printer.out = fopen(opts->log_file, "we");
		if (!w->printer.out)
			die_errno("--log=%s: opening the log", opts->log_file);
	}
	w->learn.home = getenv("HOME");
	w->learn.cwd = getcwd(NULL, 0);
}

static int watch_open(struct watch *w, const struct corral_opts *opts,
		      uint64_t domain)
{
	if (opts->command == CORRAL_CMD_LEARN)
		w->reader = events_open(domain, learn_record, &w->learn);
	else
		w->reader = events_open(domain, log_print_event, &w->printer);
	return w->reader ? 0 : -EIO;
}

static _Noreturn void watch_finish(struct watch *w,
				   const struct corral_opts *opts, int status)
{
	FILE *out;
	size_t n;

	events_close(w->reader);
	if (opts->command != CORRAL_CMD_LEARN) {
		log_finish(&w->printer);
		exit(status);
	}
	out = fopen(opts->learn_output, "we");
	if (!out)
		die_errno("%s: writing the learned profile",
			  opts->learn_output);
	n = learn_write(&w->learn, out, opts->argv,
			opts->n_profiles ? opts->profiles[0] : NULL);
	if (fclose(out))
		die_errno("%s: writing the learned profile",
			  opts->learn_output);
	fprintf(stderr, "corral: wrote %s: %zu rule%s from %zu refused "
		"path%s (the command exited with %d)\n", opts->learn_output,
		n, n == 1 ? "" : "s", w->learn.n, w->learn.n == 1 ? "" : "s",
		status);
	exit(status);
}

/*
 * Watched runs fork: the child enters the domain and execs; the parent,
 * outside the sandbox and without capabilities, reads the events and
 * exits with the child's status.  Killing the parent changes nothing for
 * the child's confinement.
 */
static pid_t fork_watched(struct bpf_engine *engine)
{
	pid_t child = fork();

	if (child < 0)
		die_errno("fork for the watched command");
	if (child > 0)
		return child;
	if (engine_bpf_enter(engine) < 0)
		_exit(CORRAL_EXIT_FAILURE);
	return 0;
}

/* The profile's [sandbox] switches, as the BPF side reads them. */
static uint32_t sandbox_flags(const struct policy *policy)
{
	uint32_t flags = 0;

	if (policy->sandbox.value[POLICY_EXEC_ANONYMOUS] == POLICY_YES)
		flags |= CORRAL_TASK_EXEC_ANON;
	if (policy->sandbox.value[POLICY_UNIX_CONNECT] == POLICY_ALLOW)
		flags |= CORRAL_TASK_UNIX_ANY;
	return flags;
}

static pid_t apply_bpf(const struct opened_rule *rules, size_t n,
		       struct watch *watch, const struct corral_opts *opts)
{
	struct bpf_engine engine;
	pid_t child = 0;

	privs_raise_bpf();
	if (engine_bpf_open(&engine) < 0 ||
	    engine_bpf_create_domain(&engine) < 0)
		goto fail;
	engine.audit = opts->command == CORRAL_CMD_LEARN;
	engine.task_flags = sandbox_flags(&opts->policy);
	for (size_t i = 0; i < n; i++)
		if (engine_bpf_add_rule(&engine, rules[i].fd, rules[i].access,
					rules[i].path) < 0)
			goto fail;
	if (engine_bpf_set_network(&engine, &opts->policy) < 0)
		goto fail;
	if (watch->on) {
		if (watch_open(watch, opts, engine.domain) < 0)
			goto fail;
		child = fork_watched(&engine);
	} else if (engine_bpf_enter(&engine) < 0) {
		goto fail;
	}
	engine_bpf_close(&engine);
	return child;
fail:
	engine_bpf_abort(&engine);
	engine_bpf_close(&engine);
	die("could not set up the sandbox; the command was not run");
}

static _Noreturn void exec_command(char **argv)
{
	execvp(argv[0], argv);
	if (errno == ENOENT)
		die_with_status(CORRAL_EXIT_NOT_FOUND, "%s: command not found",
				argv[0]);
	die_with_status(CORRAL_EXIT_CANNOT_EXEC, "%s: cannot execute: %s%s",
			argv[0], strerror(errno),
			errno == EACCES ? " (the sandbox needs exec on it, "
					  "e.g. --rx on its directory)" : "");
}

void launch(const struct corral_opts *opts)
{
	const struct policy *policy = &opts->policy;
	struct opened_rule *rules;
	enum corral_engine engine = choose_engine(
		opts->engine == CORRAL_ENGINE_AUTO &&
		policy->sandbox.value[POLICY_REQUIRE] == POLICY_BPF ?
		CORRAL_ENGINE_BPF : opts->engine);
	struct watch watch;
	size_t n = 0;

	rules = xcalloc(policy->n_rules, sizeof(*rules));
	for (size_t i = 0; i < policy->n_rules; i++)
		n += open_rule(&policy->rules[i], &rules[n]);
	watch_init(&watch, opts);
	if (watch.on && engine != CORRAL_ENGINE_BPF)
		die("%s needs the bpf engine (Landlock reports no denials to "
		    "corral)", opts->log ? "--log" : "learn");
	if (engine == CORRAL_ENGINE_BPF) {
		pid_t child = apply_bpf(rules, n, &watch, opts);

		privs_drop_all();
		if (child > 0)
			watch_finish(&watch, opts,
				     events_follow(watch.reader, child));
	} else {
		privs_drop_all();
		if (engine_landlock_apply(rules, n, policy) < 0)
			die("could not set up the Landlock sandbox; the command "
			    "was not run");
	}
	for (size_t i = 0; i < n; i++)
		close(rules[i].fd);
	free(rules);
	if (seccomp_install_sandbox() < 0)
		die("could not install the seccomp filter; the command was "
		    "not run");
	exec_command(opts->argv);
}
