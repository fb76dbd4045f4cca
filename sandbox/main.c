// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - corral: run a command confined to the trees a policy allows. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "engine_bpf.h"
#include "expand.h"
#include "launch.h"
#include "profile.h"
#include "util.h"

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/share/corral"
#endif

static const char *absolute(const char *path)
{
	return path && path[0] == '/' ? path : NULL;
}

/*
 * The values ${VAR} may take, read here once: the profile parser never
 * calls getenv, so it can later run in an unprivileged child with a
 * sanitised environment.  HOME comes from the environment (falling back
 * to the password database), USER from the password database; relative
 * values are ignored, as the XDG base directory spec says.
 */
static void read_vars(struct vars *vars)
{
	static const struct { enum var_id id; const char *env; } from_env[] = {
		{ VAR_TMPDIR, "TMPDIR" },
		{ VAR_XDG_RUNTIME_DIR, "XDG_RUNTIME_DIR" },
		{ VAR_XDG_CONFIG_HOME, "XDG_CONFIG_HOME" },
		{ VAR_XDG_CACHE_HOME, "XDG_CACHE_HOME" },
		{ VAR_XDG_DATA_HOME, "XDG_DATA_HOME" },
	};
	const struct passwd *pw = getpwuid(getuid());
	const char *home = absolute(getenv("HOME"));
	char buf[PATH_MAX];

	vars_set(vars, VAR_HOME, home ? home : pw ? absolute(pw->pw_dir) : NULL);
	vars_set(vars, VAR_USER, pw ? pw->pw_name : getenv("USER"));
	vars_set(vars, VAR_CWD, absolute(getcwd(buf, sizeof(buf))));
	snprintf(buf, sizeof(buf), "%u", (unsigned)getuid());
	vars_set(vars, VAR_UID, buf);
	for (size_t i = 0; i < sizeof(from_env) / sizeof(*from_env); i++)
		vars_set(vars, from_env[i].id,
			 absolute(getenv(from_env[i].env)));
	vars_fill_defaults(vars);
}

/* corral check FILE...: "FILE: ok", or every error; 125 if any failed. */
static int check_files(const struct profile_env *env, char **files)
{
	int status = 0;

	for (; *files; files++) {
		struct policy policy = { 0 };
		struct profile_result result = { 0 };

		if (profile_load_file(env, *files, &policy, &result) < 0) {
			profile_print_errors(&result);
			status = CORRAL_EXIT_FAILURE;
		} else {
			printf("%s: ok\n", *files);
		}
		profile_result_free(&result);
		policy_free(&policy);
	}
	return status;
}

/* argv[0] mode: run the real program of that name, not ourselves. */
static void find_real_program(struct corral_opts *opts)
{
	char *found = NULL;
	int r = cli_find_program(opts->invoked_as, getenv("PATH"), &found);

	if (r == -ENOENT)
		die_with_status(CORRAL_EXIT_NOT_FOUND, "%s: command not found "
				"in PATH (other than corral itself)",
				opts->invoked_as);
	if (r < 0)
		exit(CORRAL_EXIT_FAILURE);
	opts->argv[0] = found;
}

static int run_with_profiles(struct corral_opts *opts)
{
	struct vars vars = { 0 };
	struct profile_env env;
	struct profile_result result = { 0 };

	read_vars(&vars);
	profile_env_init(&env, &vars, getenv("CORRAL_PROFILE_PATH"),
			 PKGDATADIR);
	if (opts->command == CORRAL_CMD_PROFILES)
		return profile_list(stdout, &env);
	if (opts->command == CORRAL_CMD_CHECK)
		return check_files(&env, opts->argv);
	if (cli_load_profiles(opts, &env, &result) < 0) {
		profile_print_errors(&result);
		return CORRAL_EXIT_FAILURE;
	}
	if (opts->command == CORRAL_CMD_PRINT_PROFILE) {
		profile_print(stdout, &opts->policy, &result);
		return fflush(stdout) ? CORRAL_EXIT_FAILURE : 0;
	}
	if (opts->invoked_as)
		find_real_program(opts);
	launch(opts);
}

int main(int argc, char **argv)
{
	struct corral_opts opts;

	if (cli_parse(argc, argv, &opts, stdout) < 0)
		return CORRAL_EXIT_FAILURE;
	switch (opts.command) {
	case CORRAL_CMD_HELP:
		return 0;
	case CORRAL_CMD_SETUP:
		return bpf_admin_setup(opts.debug);
	case CORRAL_CMD_STATUS:
		return bpf_admin_status();
	case CORRAL_CMD_TEARDOWN:
		return bpf_admin_teardown(opts.force);
	case CORRAL_CMD_RUN:
	case CORRAL_CMD_PROFILES:
	case CORRAL_CMD_CHECK:
	case CORRAL_CMD_PRINT_PROFILE:
	case CORRAL_CMD_LEARN:
		return run_with_profiles(&opts);
	default:
		die("internal error: unknown command %d", (int)opts.command);
	}
}
