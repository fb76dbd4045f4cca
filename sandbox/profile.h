/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile.h - INI profiles (DESIGN.md section 6), parsed with inih into a
 * struct policy.
 *
 *   [profile]     description = TEXT, include = NAME|PATH (repeatable)
 *   [filesystem]  RIGHTS = [-]PATH, one path per value; indented lines
 *                 continue the list; RIGHTS is ro, rx, rw, rwx, a single
 *                 right or a comma list (read,exec); '-' = optional
 *   [sandbox]     exec-anonymous = yes|no, unix-connect = scoped|allow,
 *                 require = bpf|any, quiet = yes|no, userns = yes|no,
 *                 sysv-ipc = yes|no
 *
 * A value may be quoted: "TEXT" (-"PATH" for an optional path) with the
 * escapes \\ \" \n \t \r \xHH; a '\' ending a line inside the quotes
 * goes on on the next, indented line.  profile_quote() writes that form
 * whenever a value needs it.
 *
 * Every error is collected as "FILE:LINE: what is wrong (hint)"; the
 * caller prints each as "corral: profile <that>" and fails (exit 125).
 */
#ifndef CORRAL_PROFILE_H
#define CORRAL_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "expand.h"
#include "policy.h"

/* Longest line a profile may have, without its "\n" (inih 55 splits
 * lines of 200 bytes or more silently; we refuse them). */
#define PROFILE_MAX_LINE 198
/* Longest quoted value, decoded. */
#define PROFILE_MAX_VALUE 8192
/* profile_quote() splits a quoted value into lines of about this many
 * bytes, so that KEY = VALUE stays far below PROFILE_MAX_LINE. */
#define PROFILE_QUOTE_WIDTH 96
/* Deepest include chain: a profile, and 8 levels of include below it. */
#define PROFILE_MAX_DEPTH 8

/* What the parser may know of the world: built once by the caller. */
struct profile_env {
	const struct vars *vars;
	char **search;        /* directories holding NAME.profile, in order */
	size_t n_search;
	bool no_includes;     /* fuzzing: an include is an error, no file I/O */
};

/* One file read into the policy (for --print-profile). */
struct profile_file {
	char *name;           /* "npm.profile", or the path given */
	char *path;           /* where it was read from */
	char *description;    /* or NULL */
	dev_t dev;
	ino_t ino;
};

struct profile_result {
	struct profile_file *files;
	size_t n_files;
	char **errors;        /* "FILE:LINE: message (hint)" */
	size_t n_errors;
};

/*
 * Builds the search path: each directory of @override (colon-separated)
 * if it is non-NULL, else $XDG_CONFIG_HOME/corral/profiles,
 * $(sysconfdir)/corral/profiles and @pkgdatadir/profiles.
 */
void profile_env_init(struct profile_env *env, const struct vars *vars,
		      const char *override, const char *pkgdatadir);
void profile_env_free(struct profile_env *env);
/* "dir1, dir2, dir3", malloc'd, for messages. */
char *profile_search_text(const struct profile_env *env);

/* Path of profile @name (no '/') in the search path, malloc'd, or NULL. */
char *profile_find(const struct profile_env *env, const char *name);
/*
 * As profile_find, for an include in the file @dev/@ino: when that file
 * is NAME.profile on the search path, the next one after it (the one it
 * shadows), so that a user's git.profile can say 'include = git'.
 */
char *profile_find_after(const struct profile_env *env, const char *name,
			 dev_t dev, ino_t ino);

/*
 * Reads profile @spec (a NAME, or a FILE when it contains a '/') and its
 * includes into @policy, appending rules and settings.  Returns 0, or
 * -EINVAL with every problem found in @result->errors.
 */
int profile_load(const struct profile_env *env, const char *spec,
		 struct policy *policy, struct profile_result *result);
/* As profile_load, @path being a file even without a '/' (corral check). */
int profile_load_file(const struct profile_env *env, const char *path,
		      struct policy *policy, struct profile_result *result);
/* As profile_load, from memory; @name names it in messages. */
int profile_load_buffer(const struct profile_env *env, const char *name,
			const char *buf, size_t len, struct policy *policy,
			struct profile_result *result);
/* Prints each error as "corral: profile ERROR" on stderr. */
void profile_print_errors(const struct profile_result *result);
void profile_result_free(struct profile_result *result);

/*
 * The [profile] description of the file at @path, malloc'd in
 * *@description (NULL if it has none).  Returns 0, or -errno if the file
 * cannot be read.  Nothing else in the file is checked.
 */
int profile_describe(const char *path, char **description);

/*
 * @prefix (profile text, e.g. "${HOME}", or "") then @literal (each '$'
 * doubled) as a profile value that reads back as written: bare when it
 * can be, else quoted, and split over indented lines when long.  A '-'
 * before it when @optional.  malloc'd; it may hold newlines.
 */
char *profile_quote(const char *prefix, const char *literal, bool optional);
/* @text for a comment: one line of at most @max bytes, control bytes and
 * invalid UTF-8 escaped as in quotes.  malloc'd. */
char *profile_comment_text(const char *text, size_t max);

/* The shortest [filesystem] key for @access: a group name ("rw"), else
 * a list of rights ("read,exec") written into @buf. */
const char *profile_rights_key(uint32_t access, char *buf, size_t size);
/* --print-profile: @policy as INI, each rule with where it came from. */
void profile_print(FILE *out, const struct policy *policy,
		   const struct profile_result *result);
/* `corral profiles`: each profile, its description and file. */
int profile_list(FILE *out, const struct profile_env *env);

#endif /* CORRAL_PROFILE_H */
