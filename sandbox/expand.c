// SPDX-License-Identifier: GPL-2.0-or-later
/* expand.c - ${VAR} expansion for profile paths (see expand.h). */
#include "config.h"

#include "expand.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"

static const char *const var_names[VAR_COUNT] = {
	[VAR_HOME] = "HOME",
	[VAR_CWD] = "CWD",
	[VAR_USER] = "USER",
	[VAR_UID] = "UID",
	[VAR_TMPDIR] = "TMPDIR",
	[VAR_XDG_RUNTIME_DIR] = "XDG_RUNTIME_DIR",
	[VAR_XDG_CONFIG_HOME] = "XDG_CONFIG_HOME",
	[VAR_XDG_CACHE_HOME] = "XDG_CACHE_HOME",
	[VAR_XDG_DATA_HOME] = "XDG_DATA_HOME",
	[VAR_PROJECT] = "PROJECT",
};

const char *var_name(enum var_id id)
{
	return (unsigned)id < VAR_COUNT ? var_names[id] : NULL;
}

const char *var_list(void)
{
	return "HOME, CWD, USER, UID, TMPDIR, XDG_RUNTIME_DIR, "
	       "XDG_CONFIG_HOME, XDG_CACHE_HOME, XDG_DATA_HOME, PROJECT";
}

void vars_set(struct vars *vars, enum var_id id, const char *value)
{
	free(vars->value[id]);
	vars->value[id] = value && value[0] ? xstrdup(value) : NULL;
}

static void default_under_home(struct vars *vars, enum var_id id,
			       const char *suffix)
{
	char buf[PATH_MAX];
	const char *home = vars->value[VAR_HOME];

	if (vars->value[id] || !home)
		return;
	if (snprintf(buf, sizeof(buf), "%s%s", home, suffix) >=
	    (int)sizeof(buf))
		return;
	vars_set(vars, id, buf);
}

void vars_fill_defaults(struct vars *vars)
{
	default_under_home(vars, VAR_XDG_CONFIG_HOME, "/.config");
	default_under_home(vars, VAR_XDG_CACHE_HOME, "/.cache");
	default_under_home(vars, VAR_XDG_DATA_HOME, "/.local/share");
}

void vars_free(struct vars *vars)
{
	for (int i = 0; i < VAR_COUNT; i++) {
		free(vars->value[i]);
		vars->value[i] = NULL;
	}
}

/* @a and @b name the same directory: the same text (trailing '/'s
 * aside), or, when @a_st is given, the same inode. */
static bool same_dir(const char *a, const struct stat *a_st, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	struct stat st;

	while (la > 1 && a[la - 1] == '/')
		la--;
	while (lb > 1 && b[lb - 1] == '/')
		lb--;
	if (la == lb && !strncmp(a, b, la))
		return true;
	return a_st && stat(b, &st) == 0 && st.st_dev == a_st->st_dev &&
	       st.st_ino == a_st->st_ino;
}

const char *dir_holds_home(const char *dir, const char *home)
{
	char up[PATH_MAX];
	struct stat st;
	const struct stat *dir_st = stat(dir, &st) == 0 ? &st : NULL;
	char *slash;

	if (same_dir(dir, dir_st, "/"))
		return "the root directory";
	if (!home || snprintf(up, sizeof(up), "%s", home) >= (int)sizeof(up))
		return NULL;
	if (same_dir(dir, dir_st, up))
		return "your home directory";
	while ((slash = strrchr(up, '/')) && slash != up) {
		*slash = '\0';
		if (same_dir(dir, dir_st, up))
			return "a directory holding your home directory";
	}
	return NULL;
}

int project_root(const char *cwd, const char *home, char *out, size_t size)
{
	char dir[PATH_MAX], git[PATH_MAX + 8];
	struct stat st, up;

	if (snprintf(dir, sizeof(dir), "%s", cwd) >= (int)sizeof(dir) ||
	    snprintf(out, size, "%s", cwd) >= (int)size)
		return -ENAMETOOLONG;
	if (stat(dir, &st) < 0)
		return 0;
	while (!dir_holds_home(dir, home)) {
		char *slash;

		snprintf(git, sizeof(git), "%s/.git", dir);
		if (lstat(git, &up) == 0)
			return snprintf(out, size, "%s", dir) < (int)size ?
			       0 : -ENAMETOOLONG;
		slash = strrchr(dir, '/');
		if (!slash)
			break;
		*(slash == dir ? slash + 1 : slash) = '\0';
		if (stat(dir, &up) < 0 || up.st_dev != st.st_dev)
			break;
		st = up;
	}
	return 0;
}

static int lookup_var(const char *name, size_t len)
{
	for (int i = 0; i < VAR_COUNT; i++)
		if (strlen(var_names[i]) == len &&
		    !strncmp(var_names[i], name, len))
			return i;
	return -1;
}

static enum expand_status fail(struct expand_error *err,
			       enum expand_status status, const char *name,
			       size_t len)
{
	err->status = status;
	if (len >= sizeof(err->name))
		len = sizeof(err->name) - 1;
	memcpy(err->name, name, len);
	err->name[len] = '\0';
	return status;
}

/*
 * At @p (just past a '$'): the value to append in *@val (length *@vlen)
 * and the number of input bytes used; or a status other than EXPAND_OK.
 */
static enum expand_status expand_one(const char *p, const struct vars *vars,
				     const char **val, size_t *vlen,
				     size_t *used, struct expand_error *err)
{
	const char *close;
	int id;

	if (*p == '$') {
		*val = "$";
		*vlen = 1;
		*used = 1;
		return EXPAND_OK;
	}
	if (*p != '{')
		return fail(err, EXPAND_SYNTAX, "", 0);
	close = strchr(p + 1, '}');
	if (!close)
		return fail(err, EXPAND_SYNTAX, p + 1, strlen(p + 1));
	id = lookup_var(p + 1, (size_t)(close - p - 1));
	if (id < 0)
		return fail(err, EXPAND_UNKNOWN, p + 1, (size_t)(close - p - 1));
	*val = vars->value[id];
	if (!*val && vars->on_demand)
		*val = vars->on_demand(vars, (enum var_id)id);
	if (!*val)
		return fail(err, EXPAND_UNSET, p + 1, (size_t)(close - p - 1));
	if (id == VAR_PROJECT || id == VAR_CWD) {
		err->value = *val;
		err->what = dir_holds_home(*val, vars->value[VAR_HOME]);
		if (err->what)
			return fail(err, EXPAND_TOO_WIDE, p + 1,
				    (size_t)(close - p - 1));
	}
	*vlen = strlen(*val);
	*used = (size_t)(close - p) + 1;
	return EXPAND_OK;
}

enum expand_status expand(const char *in, const struct vars *vars,
			  char **out, struct expand_error *err)
{
	_cleanup_free_ char *buf = xmalloc(PATH_MAX);
	size_t n = 0;

	*out = NULL;
	memset(err, 0, sizeof(*err));
	for (const char *p = in; *p;) {
		const char *val = p;
		size_t vlen = strcspn(p, "$"), used = vlen;
		enum expand_status st;

		if (!vlen) {
			st = expand_one(p + 1, vars, &val, &vlen, &used, err);
			if (st != EXPAND_OK)
				return st;
			used++;
		}
		if (vlen >= PATH_MAX - n)
			return fail(err, EXPAND_TOO_LONG, "", 0);
		memcpy(buf + n, val, vlen);
		n += vlen;
		p += used;
	}
	buf[n] = '\0';
	*out = steal_pointer(&buf);
	return EXPAND_OK;
}
