// SPDX-License-Identifier: GPL-2.0-or-later
/* parser_env.c - see parser_env.h */
#include "config.h"

#include "parser_env.h"

#include <pwd.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "user_env.h"
#include "util.h"


static const char *absolute(const char *path)
{
	return path && path[0] == '/' ? path : NULL;
}

static char *dup_env(char *const *envp, const char *name)
{
	const char *value = user_env_get(envp, name);

	return value ? xstrdup(value) : NULL;
}

/* ${PROJECT}: project_root() of CWD; unset when CWD is. */
static const char *project_on_demand(const struct vars *vars,
				     struct user_lookup *db)
{
	char buf[PATH_MAX];

	if (!db->project && vars->value[VAR_CWD] &&
	    project_root(vars->value[VAR_CWD], vars->value[VAR_HOME], buf,
			 sizeof(buf)) == 0)
		db->project = xstrdup(buf);
	return db->project;
}

/*
 * USER on first use: the password database's name, else $USER; PROJECT
 * on first use (a walk up from CWD).
 */
static const char *user_on_demand(const struct vars *vars, enum var_id id)
{
	const struct parser_env *penv =
		(const struct parser_env *)((const char *)vars -
					    offsetof(struct parser_env, vars));
	struct user_lookup *db = penv->user_db;

	if (id == VAR_PROJECT)
		return project_on_demand(vars, db);
	if (id != VAR_USER)
		return NULL;
	if (!db->asked) {
		const struct passwd *pw = getpwuid(getuid());

		db->asked = 1;
		if (pw && pw->pw_name[0])
			db->name = xstrdup(pw->pw_name);
	}
	if (db->name)
		return db->name;
	return penv->user && penv->user[0] ? penv->user : NULL;
}

/*
 * HOME comes from the environment (falling back to the password
 * database), USER from the password database on first use; relative
 * values are ignored, as the XDG base directory spec says.
 */
static void read_vars(struct vars *vars, char *const *envp)
{
	static const struct { enum var_id id; const char *env; } from_env[] = {
		{ VAR_TMPDIR, "TMPDIR" },
		{ VAR_XDG_RUNTIME_DIR, "XDG_RUNTIME_DIR" },
		{ VAR_XDG_CONFIG_HOME, "XDG_CONFIG_HOME" },
		{ VAR_XDG_CACHE_HOME, "XDG_CACHE_HOME" },
		{ VAR_XDG_DATA_HOME, "XDG_DATA_HOME" },
	};
	const char *home = absolute(user_env_get(envp, "HOME"));
	const struct passwd *pw = home ? NULL : getpwuid(getuid());
	char buf[PATH_MAX];

	vars_set(vars, VAR_HOME, home ? home : pw ? absolute(pw->pw_dir) : NULL);
	vars->on_demand = user_on_demand;
	vars_set(vars, VAR_CWD, absolute(getcwd(buf, sizeof(buf))));
	snprintf(buf, sizeof(buf), "%u", (unsigned)getuid());
	vars_set(vars, VAR_UID, buf);
	for (size_t i = 0; i < sizeof(from_env) / sizeof(*from_env); i++)
		vars_set(vars, from_env[i].id,
			 absolute(user_env_get(envp, from_env[i].env)));
	vars_fill_defaults(vars);
}

/*
 * From @envp, the environment the user gave corral (user_env.h), not
 * environ: glibc drops TMPDIR from a secure-exec program's environ, and
 * ${TMPDIR} must name the directory the command will use.
 */
void take_environment(struct parser_env *penv, char *const *envp)
{
	const char *value;

	memset(penv, 0, sizeof(*penv));
	read_vars(&penv->vars, envp);
	penv->profile_path = dup_env(envp, "CORRAL_PROFILE_PATH");
	penv->path = dup_env(envp, "PATH");
#ifdef CORRAL_TEST_HOOKS
	/* tests/hooked/corral only: the installed corral never reads it */
	penv->test = dup_env(envp, "CORRAL_TEST_PARSER");
#endif
	penv->user = dup_env(envp, "USER");
	value = user_env_get(envp, "CORRAL_QUIET");
	penv->quiet = value && value[0] && strcmp(value, "0");
	penv->user_db = xcalloc(1, sizeof(*penv->user_db));
	penv->tmp_fd = -1;
	if (clearenv() != 0)
		die("clearing the parser's environment");
}
