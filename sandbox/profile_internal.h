/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile_internal.h - what the files reading a profile share; the rest
 * of corral uses profile.h.
 *
 *   profile.c          the loading entry points of profile.h: files,
 *                      includes, and the errors they collect
 *   profile_ini.c      the lines of a file as inih reads them (mirrored,
 *                      to refuse what it would take silently) and inih's
 *                      handler, which hands each value to its key
 *   profile_unquote.c  quoted values: escapes, and lines that go on
 *   profile_keys.c     the sections and keys a profile may hold, and what
 *                      each value does to the policy
 *   profile_search.c   the search path of NAME.profile
 */
#ifndef CORRAL_PROFILE_INTERNAL_H
#define CORRAL_PROFILE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "profile.h"
#include "util.h"

/* inih 55 keeps section and key names in 50-byte buffers, cutting longer
 * ones silently; a name that fills one was cut. */
#define INIH_NAME_MAX 49

/* A key of keys[] (profile_keys.c). */
struct key;

/* ---- loading state ----------------------------------------------------- */

struct loader {
	const struct profile_env *env;
	struct policy *policy;
	struct profile_result *result;
	bool describe_only;          /* `corral profiles`: description only */
	struct frame *stack[PROFILE_MAX_DEPTH + 1];
	size_t depth;
};

/* A quoted value that goes on over the next line(s). */
struct quoted {
	char *buf;                   /* decoded so far, NUL-terminated */
	size_t len, size;
	bool open;                   /* a line ended in '\' inside quotes */
	bool optional;               /* written -"..." */
	int line;                    /* the line holding its key */
	const struct key *key;
	char name[INIH_NAME_MAX + 1];
};

/* One file being read: inih's stream and the state of our reader. */
struct frame {
	struct loader *ld;
	const char *name;            /* in rule origins */
	const char *path;            /* in messages; NULL when parsing a buffer */
	size_t file;                 /* index in ld->result->files */
	const char *pos, *end;       /* unread input */
	const char *cur;             /* the line last read, without "\r\n" */
	size_t cur_len;
	size_t value_off;            /* where its value starts in cur */
	int line;                    /* number of the line last read */
	int at;                      /* the line messages and origins name */
	int first_refused;           /* first line inih will call an error */
	bool have_key;               /* inih's prev_name: indented lines go on */
	bool skip_section;           /* the current [section] was refused */
	struct quoted q;
};

/* ---- errors (profile.c) ------------------------------------------------ */

/* Records "NAME:LINE: message" (or "NAME: message" when @line is 0). */
void PRINTF(4, 5) profile_error_in(struct loader *ld, const char *name,
				   int line, const char *fmt, ...);

/* Messages name a file by its path, so that one found on the search path
 * can be opened straight from the message. */
#define shown(f) ((f)->path ? (f)->path : (f)->name)
#define error_at(f, ...) \
	profile_error_in((f)->ld, shown(f), (f)->at, __VA_ARGS__)

/* Says that ${PROJECT} or ${CWD} would be "/", HOME or above it
 * (EXPAND_TOO_WIDE), and what to do instead (profile_keys.c). */
void profile_too_wide(struct frame *f, const struct expand_error *err);

/* ---- includes (profile.c) ---------------------------------------------- */

/* include = @value: reads that profile here, unless already read. */
void profile_include(struct frame *f, const char *value);

/* ---- reading a file (profile_ini.c) ------------------------------------ */

/* Reads @buf into ld->policy as the file of @f; 0, or -EINVAL once any
 * error was recorded. */
int profile_parse(struct loader *ld, struct frame *f, const char *buf,
		  size_t len);

/* ---- quoted values (profile_unquote.c) --------------------------------- */

enum { QUOTE_DONE, QUOTE_MORE, QUOTE_BAD };

/* Starts a new quoted value: empty, yet a string. */
void profile_quoted_reset(struct quoted *q);
/*
 * Decodes quoted text from @p to @end into f->q: QUOTE_DONE at its
 * closing quote, QUOTE_MORE when a '\' ends the line, QUOTE_BAD after
 * the error.
 */
int profile_unquote(struct frame *f, const char *p, const char *end);

/* ---- sections and keys (profile_keys.c) -------------------------------- */

/* Whether [@name] (@len bytes) is a section; if not, says so. */
bool profile_section_check(struct frame *f, const char *name, size_t len);
/* The key @name names in @section, or NULL after saying why not. */
const struct key *profile_key_check(struct frame *f, const char *section,
				    const char *name);
/* The key @name names in @section, or NULL; no message. */
const struct key *profile_key_find(const char *section, const char *name);
/* Whether a value of @key may be an optional path (-PATH, -"PATH"). */
bool profile_key_optional(const struct key *key);
/* Hands a whole value to its key: false if it was refused (an error in
 * a file it includes is not its own). */
bool profile_key_take(struct frame *f, const struct key *key,
		      const char *name, const char *value, bool optional);

#endif /* CORRAL_PROFILE_INTERNAL_H */
