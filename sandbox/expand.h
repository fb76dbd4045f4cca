/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * expand.h - ${VAR} in profile paths, from a fixed list of variables.
 *
 * The values live in a struct vars that the caller builds once (main.c
 * reads the environment and the password database); the expander and the
 * profile parser never call getenv, so parsing can later move into an
 * unprivileged child with a sanitised environment.
 */
#ifndef CORRAL_EXPAND_H
#define CORRAL_EXPAND_H

#include <stddef.h>

enum var_id {
	VAR_HOME,
	VAR_CWD,
	VAR_USER,
	VAR_UID,
	VAR_TMPDIR,           /* the parser's: private_tmp.h */
	VAR_XDG_RUNTIME_DIR,  /* no default: unset means unset */
	VAR_XDG_CONFIG_HOME,  /* default ${HOME}/.config */
	VAR_XDG_CACHE_HOME,   /* default ${HOME}/.cache */
	VAR_XDG_DATA_HOME,    /* default ${HOME}/.local/share */
	VAR_PROJECT,          /* project_root() of CWD, on demand */
	VAR_COUNT,
};

/*
 * Owned copies; NULL means unset.  @on_demand, if set, is asked for a
 * variable that has no value before it counts as unset: the parser reads
 * the password database for USER only when a profile uses it (most
 * launches never do, and the read is a fifth of the parser's work).
 */
struct vars {
	char *value[VAR_COUNT];
	const char *(*on_demand)(const struct vars *vars, enum var_id id);
};

/* "HOME", "XDG_CACHE_HOME", ...; NULL past the end. */
const char *var_name(enum var_id id);
/* "HOME, CWD, USER, ..." for hints. */
const char *var_list(void);
/* Sets @id to a copy of @value; NULL or "" unsets it. */
void vars_set(struct vars *vars, enum var_id id, const char *value);
/* Fills the XDG_*_HOME defaults where they are unset.  Not TMPDIR: the
 * parser makes it private (private_tmp.h), never the shared /tmp. */
void vars_fill_defaults(struct vars *vars);
void vars_free(struct vars *vars);

/*
 * The project @cwd is in: the nearest directory from @cwd upwards that
 * holds a ".git" (a directory, or the file of a worktree or submodule),
 * else @cwd itself.  The search stops, as git's does, where it would
 * cross into another filesystem, and at "/", at @home (may be NULL) and
 * at its ancestors: a dotfiles repository in ~ must not turn every
 * directory of the home into one project.  Writes the directory to @out
 * (@size bytes); returns 0, or -ENAMETOOLONG.
 */
int project_root(const char *cwd, const char *home, char *out, size_t size);

/*
 * Whether directory @dir is "/", @home (may be NULL) or an ancestor of
 * @home, however spelt (compared by inode where @dir exists): NULL if
 * not, else what it is ("your home directory", ...) for a message.  No
 * ${PROJECT} or ${CWD} may be one: a profile's "rw = ${PROJECT}" would
 * hand the sandbox every file of the user.
 */
const char *dir_holds_home(const char *dir, const char *home);

enum expand_status {
	EXPAND_OK,
	EXPAND_UNKNOWN,   /* ${NAME} not in the list */
	EXPAND_UNSET,     /* ${NAME} known, but has no value */
	EXPAND_SYNTAX,    /* '$' not starting ${NAME} or $$, or no '}' */
	EXPAND_TOO_LONG,  /* the result would exceed PATH_MAX */
	EXPAND_TOO_WIDE,  /* ${PROJECT} or ${CWD} is "/", HOME or above it */
};

struct expand_error {
	enum expand_status status;
	char name[48];    /* the variable (possibly cut short), or "" */
	const char *value; /* EXPAND_TOO_WIDE: the variable's value, */
	const char *what;  /* and dir_holds_home()'s answer for it */
};

/*
 * Expands ${NAME} and $$ (a literal '$') in @in.  Returns EXPAND_OK and a
 * malloc'd string in *@out, or another status with *@out NULL and @err
 * filled.
 */
enum expand_status expand(const char *in, const struct vars *vars,
			  char **out, struct expand_error *err);

#endif /* CORRAL_EXPAND_H */
