// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * profile.c - reading INI profiles into a struct policy (see profile.h):
 * the entry points, each file read whole and only once, includes, and
 * the errors collected on the way.  The lines of one file are read by
 * profile_ini.c; profile_internal.h lists the other files.
 */
#include "config.h"

#include "profile_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILE_SIZE (256 * 1024)
#define MAX_ERRORS 20

/* ---- errors ------------------------------------------------------------ */

static void add_error(struct profile_result *result, const char *msg)
{
	if (result->n_errors > MAX_ERRORS)
		return;
	if (result->n_errors == MAX_ERRORS)
		msg = "too many errors; stopped listing them";
	result->errors = xrealloc(result->errors, result->n_errors + 1,
				  sizeof(*result->errors));
	result->errors[result->n_errors++] = xstrdup(msg);
}

void profile_error_in(struct loader *ld, const char *name, int line,
		      const char *fmt, ...)
{
	char msg[1024];
	int n;
	va_list ap;

	n = line ? snprintf(msg, sizeof(msg), "%s:%d: ", name, line)
		 : snprintf(msg, sizeof(msg), "%s: ", name);
	if (n < 0 || (size_t)n >= sizeof(msg))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	va_end(ap);
	add_error(ld->result, msg);
}

/* ---- files ------------------------------------------------------------- */

static size_t add_file(struct profile_result *result, const char *name,
		       const char *path, const struct stat *st)
{
	struct profile_file *pf;

	result->files = xrealloc(result->files, result->n_files + 1,
				 sizeof(*result->files));
	pf = &result->files[result->n_files];
	pf->name = xstrdup(name);
	pf->path = xstrdup(path ? path : name);
	pf->description = NULL;
	pf->dev = st ? st->st_dev : 0;
	pf->ino = st ? st->st_ino : 0;
	return result->n_files++;
}

/* "a.profile -> b.profile -> a.profile" for the cycle through @i. */
static void report_cycle(struct loader *ld, struct frame *from, size_t i,
			 const char *name)
{
	char chain[1024];
	size_t used = 0;

	chain[0] = '\0';
	for (; i < ld->depth && used < sizeof(chain); i++)
		used += (size_t)snprintf(chain + used, sizeof(chain) - used,
					 "%s -> ", ld->stack[i]->name);
	error_at(from, "include cycle: %s%s (remove one of these includes)",
		 chain, name);
}

/* Whether @st may be read now: 1 yes, 0 already read (skip), -1 error. */
static int check_include(struct loader *ld, struct frame *from,
			 const char *name, const struct stat *st)
{
	struct profile_result *res = ld->result;

	for (size_t i = 0; i < ld->depth; i++) {
		const struct profile_file *pf = &res->files[ld->stack[i]->file];

		if (pf->dev == st->st_dev && pf->ino == st->st_ino) {
			report_cycle(ld, from, i, name);
			return -1;
		}
	}
	if (ld->depth > PROFILE_MAX_DEPTH) {
		error_at(from, "include '%s': includes nest deeper than %d "
			 "levels (flatten them)", name, PROFILE_MAX_DEPTH);
		return -1;
	}
	/* read once: base included by two profiles adds its rules once */
	for (size_t i = 0; i < res->n_files; i++)
		if (res->files[i].dev == st->st_dev &&
		    res->files[i].ino == st->st_ino)
			return 0;
	return 1;
}

/* Reads @path whole into *@buf; -errno after recording the error. */
static int slurp(struct loader *ld, struct frame *from, const char *path,
		 struct stat *st, char **buf, size_t *len)
{
	_cleanup_close_ int fd = -1;
	ssize_t n;
	const char *what = "";

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0 || fstat(fd, st) < 0) {
		int err = errno;

		if (from)
			error_at(from, "include %s: %s", path, strerror(err));
		else
			profile_error_in(ld, path, 0, "%s", strerror(err));
		return -err;
	}
	if (!S_ISREG(st->st_mode))
		what = "not a regular file";
	else if (st->st_size > MAX_FILE_SIZE)
		what = "larger than 256 KiB";
	if (!what[0]) {
		*buf = xmalloc((size_t)st->st_size + 1);
		n = read(fd, *buf, (size_t)st->st_size + 1);
		if (n < 0)
			what = strerror(errno);
		else if (n > st->st_size)
			what = "grew while being read";
		*len = n < 0 ? 0 : (size_t)n;
	}
	if (!what[0])
		return 0;
	if (from)
		error_at(from, "include %s: %s", path, what);
	else
		profile_error_in(ld, path, 0, "%s", what);
	return -EINVAL;
}

static int load_file(struct loader *ld, struct frame *from, const char *name,
		     const char *path)
{
	_cleanup_free_ char *buf = NULL;
	struct frame f = { .name = name, .path = path };
	struct stat st;
	size_t len = 0;
	int r;

	if (slurp(ld, from, path, &st, &buf, &len) < 0)
		return -EINVAL;
	r = from ? check_include(ld, from, name, &st) : 1;
	if (r <= 0)
		return r;
	f.file = add_file(ld->result, name, path, &st);
	return profile_parse(ld, &f, buf, len);
}

/* ---- includes ---------------------------------------------------------- */

/* The directory part of @path with @rel appended, malloc'd. */
static char *relative_to(const char *path, const char *rel)
{
	const char *slash = strrchr(path, '/');
	size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
	char *out = xmalloc(dir + strlen(rel) + 1);

	memcpy(out, path, dir);
	strcpy(out + dir, rel);
	return out;
}

void profile_include(struct frame *f, const char *value)
{
	struct loader *ld = f->ld;
	_cleanup_free_ char *spec = NULL, *path = NULL, *name = NULL;
	_cleanup_free_ char *where = NULL;
	struct expand_error err;

	if (ld->env->no_includes) {
		error_at(f, "include '%s': includes are off here", value);
		return;
	}
	switch (expand(value, ld->env->vars, &spec, &err)) {
	case EXPAND_OK:
		break;
	case EXPAND_TOO_WIDE:
		profile_too_wide(f, &err);
		return;
	default:
		error_at(f, "include '%s': bad or unset variable '%s' "
			 "(variables: %s)", value, err.name, var_list());
		return;
	}
	if (strchr(spec, '/')) {
		path = spec[0] == '/' || !f->path ? xstrdup(spec)
						  : relative_to(f->path, spec);
		name = xstrdup(path);
	} else {
		const struct profile_file *self = &ld->result->files[f->file];

		path = profile_find_after(ld->env, spec, self->dev, self->ino);
		if (!path) {
			where = profile_search_text(ld->env);
			error_at(f, "include '%s': no %s.profile in %s (see "
				 "'corral profiles')", spec, spec, where);
			return;
		}
		name = xmalloc(strlen(spec) + sizeof(".profile"));
		sprintf(name, "%s.profile", spec);
	}
	load_file(ld, f, name, path);
}

/* ---- the entry points of profile.h ------------------------------------- */

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

int profile_load(const struct profile_env *env, const char *spec,
		 struct policy *policy, struct profile_result *result)
{
	struct loader ld = { .env = env, .policy = policy, .result = result };
	_cleanup_free_ char *path = NULL, *name = NULL, *where = NULL;

	if (strchr(spec, '/'))
		return load_file(&ld, NULL, spec, spec);
	if (!spec[0] || !(path = profile_find(env, spec))) {
		where = profile_search_text(env);
		profile_error_in(&ld, spec, 0, "no such profile in %s (list "
				 "them with 'corral profiles'; a FILE needs a "
				 "'/', e.g. ./%s%s)", where, spec,
				 ends_with(spec, ".profile") ? "" : ".profile");
		return -EINVAL;
	}
	name = xmalloc(strlen(spec) + sizeof(".profile"));
	sprintf(name, "%s.profile", spec);
	return load_file(&ld, NULL, name, path);
}

int profile_load_file(const struct profile_env *env, const char *path,
		      struct policy *policy, struct profile_result *result)
{
	struct loader ld = { .env = env, .policy = policy, .result = result };

	return load_file(&ld, NULL, path, path);
}

int profile_load_buffer(const struct profile_env *env, const char *name,
			const char *buf, size_t len, struct policy *policy,
			struct profile_result *result)
{
	struct loader ld = { .env = env, .policy = policy, .result = result };
	struct frame f = { .name = name };

	f.file = add_file(result, name, NULL, NULL);
	return profile_parse(&ld, &f, buf, len);
}

void profile_print_errors(const struct profile_result *result)
{
	for (size_t i = 0; i < result->n_errors; i++)
		warn_msg("profile %s", result->errors[i]);
}

void profile_result_free(struct profile_result *result)
{
	for (size_t i = 0; i < result->n_files; i++) {
		free(result->files[i].name);
		free(result->files[i].path);
		free(result->files[i].description);
	}
	for (size_t i = 0; i < result->n_errors; i++)
		free(result->errors[i]);
	free(result->files);
	free(result->errors);
	memset(result, 0, sizeof(*result));
}

int profile_describe(const char *path, char **description)
{
	struct profile_env env = { 0 };
	struct policy policy = { 0 };
	struct profile_result result = { 0 };
	struct loader ld = { .env = &env, .policy = &policy,
			     .result = &result, .describe_only = true };
	int r = load_file(&ld, NULL, path, path);

	*description = NULL;
	if (result.n_files) {
		*description = result.files[0].description;
		result.files[0].description = NULL;
	}
	profile_result_free(&result);
	policy_free(&policy);
	return r < 0 && !*description ? r : 0;
}
