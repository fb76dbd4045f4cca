/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parser_env.h - what the parser child takes from the user's
 * environment before it clears its own: the profile format's ${VAR}s,
 * the profile path, PATH, and the few switches corral reads.
 */
#ifndef CORRAL_PARSER_ENV_H
#define CORRAL_PARSER_ENV_H

#include <limits.h>
#include <stdbool.h>

#include "expand.h"
#include "explain.h"

/*
 * The variables worked out on first use, kept: expansion sees the
 * variables as const, so the answers live behind a pointer.
 */
struct user_lookup {
	int asked;
	char *name;           /* NULL: no name for this uid */
	char *project;        /* ${PROJECT}, once asked */
};

/*
 * The only environment the parser sees, copied before the environment
 * is cleared: the ${VAR}s of the profile format, where profiles are
 * looked up, PATH for argv[0] mode.  Everything else (locale, LD_*,
 * MALLOC_*, ...) never reaches code that reads a profile.
 */
struct parser_env {
	struct vars vars;
	char *profile_path;   /* CORRAL_PROFILE_PATH */
	char *path;           /* PATH */
#ifdef CORRAL_TEST_HOOKS
	char *test;           /* CORRAL_TEST_PARSER: see run_test_hook */
#endif
	bool quiet;           /* CORRAL_QUIET set, and not "0" */
	char *user;           /* USER, if the password database has no name */
	struct user_lookup *user_db;  /* the database's answer, kept */
	int tmp_fd;           /* this launch's TMPDIR, locked; or -1 */
	char tmp_path[PATH_MAX];      /* its path, or "" */
	struct explain_engine engine; /* explain: what a launch would get */
};

/*
 * Fills @penv from @envp, the environment the user gave corral
 * (user_env.h), then clears the process's own environment.
 */
void take_environment(struct parser_env *penv, char *const *envp);

#endif /* CORRAL_PARSER_ENV_H */
