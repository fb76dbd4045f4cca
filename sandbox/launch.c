// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * launch.c - the privileged flow of `corral [rules] -- CMD`, top to bottom:
 *
 *   1. capabilities: effective none, permitted CAP_BPF only (privs.c)
 *   2. open every rule path O_PATH, as the user, before any privilege
 *   3. raise CAP_BPF; open the pinned maps; create our own domain
 *   4. register each rule from its fd; enter the domain
 *   5. drop every capability for good, NO_NEW_PRIVS, read back
 *   6. exec the command: no corral process stays behind
 */
#include "config.h"

#include "launch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine_bpf.h"
#include "privs.h"
#include "util.h"

struct opened_rule {
	int fd;
	uint32_t access;
	const char *path;
};

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

static void check_engine_ready(void)
{
	char why[256];

	if (!bpf_lsm_active(why, sizeof(why)))
		die("%s", why);
	if (privs_init_launcher() < 0)
		exit(CORRAL_EXIT_FAILURE);
	if (!bpf_engine_pinned())
		die("corral's BPF programs are not set up; hint: run 'corral "
		    "setup' as root (or enable corral-setup.service)");
}

static void apply_bpf(const struct opened_rule *rules, size_t n)
{
	struct bpf_engine engine;

	privs_raise_bpf();
	if (engine_bpf_open(&engine) < 0 ||
	    engine_bpf_create_domain(&engine) < 0)
		goto fail;
	for (size_t i = 0; i < n; i++)
		if (engine_bpf_add_rule(&engine, rules[i].fd, rules[i].access,
					rules[i].path) < 0)
			goto fail;
	if (engine_bpf_enter(&engine) < 0)
		goto fail;
	engine_bpf_close(&engine);
	return;
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
	size_t n = 0;

	check_engine_ready();
	rules = xcalloc(policy->n_rules, sizeof(*rules));
	for (size_t i = 0; i < policy->n_rules; i++)
		n += open_rule(&policy->rules[i], &rules[n]);
	apply_bpf(rules, n);
	privs_drop_all();
	for (size_t i = 0; i < n; i++)
		close(rules[i].fd);
	free(rules);
	exec_command(opts->argv);
}
