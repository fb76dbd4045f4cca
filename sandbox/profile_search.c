// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * profile_search.c - where profiles are found: the search path of
 * NAME.profile (see profile.h), and a profile found on it.
 */
#include "config.h"

#include "profile.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"

/* The administrator's profiles are $(sysconfdir)/corral/profiles, where
 * `make install` creates the directory (/etc for the Debian package). */
#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif
#define ADMIN_PROFILES SYSCONFDIR "/corral/profiles"

static void add_dir(struct profile_env *env, const char *dir, size_t len)
{
	char *d;

	if (!len)
		return;
	d = xmalloc(len + 1);
	memcpy(d, dir, len);
	d[len] = '\0';
	env->search = xrealloc(env->search, env->n_search + 1,
			       sizeof(*env->search));
	env->search[env->n_search++] = d;
}

void profile_env_init(struct profile_env *env, const struct vars *vars,
		      const char *override, const char *pkgdatadir)
{
	const char *config = vars->value[VAR_XDG_CONFIG_HOME];
	char buf[PATH_MAX];

	memset(env, 0, sizeof(*env));
	env->vars = vars;
	if (override) {
		for (const char *p = override; *p;) {
			size_t len = strcspn(p, ":");

			add_dir(env, p, len);
			p += len + (p[len] == ':');
		}
		return;
	}
	if (config && snprintf(buf, sizeof(buf), "%s/corral/profiles",
			       config) < (int)sizeof(buf))
		add_dir(env, buf, strlen(buf));
	add_dir(env, ADMIN_PROFILES, strlen(ADMIN_PROFILES));
	if (snprintf(buf, sizeof(buf), "%s/profiles", pkgdatadir) <
	    (int)sizeof(buf))
		add_dir(env, buf, strlen(buf));
}

void profile_env_free(struct profile_env *env)
{
	for (size_t i = 0; i < env->n_search; i++)
		free(env->search[i]);
	free(env->search);
	env->search = NULL;
	env->n_search = 0;
}

char *profile_search_text(const struct profile_env *env)
{
	size_t size = 1;
	char *out;

	for (size_t i = 0; i < env->n_search; i++)
		size += strlen(env->search[i]) + 2;
	out = xmalloc(size + sizeof("(empty search path)"));
	out[0] = '\0';
	for (size_t i = 0; i < env->n_search; i++) {
		if (i)
			strcat(out, ", ");
		strcat(out, env->search[i]);
	}
	if (!env->n_search)
		strcpy(out, "(empty search path)");
	return out;
}

char *profile_find_after(const struct profile_env *env, const char *name,
			 dev_t dev, ino_t ino)
{
	char *first = NULL;
	bool past_self = false;

	for (size_t i = 0; i < env->n_search; i++) {
		char path[PATH_MAX];
		struct stat st;

		if (snprintf(path, sizeof(path), "%s/%s.profile",
			     env->search[i], name) >= (int)sizeof(path))
			continue;
		if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
		if (st.st_dev == dev && st.st_ino == ino) {
			past_self = true;   /* the one it shadows comes next */
			continue;
		}
		if (past_self || !dev) {
			free(first);
			return xstrdup(path);
		}
		if (!first)
			first = xstrdup(path);
	}
	return first;
}

char *profile_find(const struct profile_env *env, const char *name)
{
	return profile_find_after(env, name, 0, 0);
}
