// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * profile_ini.c - one profile file read with inih.  Debian's libinih 55
 * lacks or gets wrong what we need, so our own line reader counts lines
 * (the distro build passes no line number), mirrors inih's reading of
 * each line to report syntax errors at their own line, in order, and
 * refuses lines inih would split silently or cut at a NUL.  The handler
 * returns 0 for anything it does not know, and any failure is fatal.
 */
#include "config.h"

#include "profile_internal.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What inih will make of a line (its own logic, mirrored). */
enum line_kind {
	LINE_BLANK,                  /* empty or a comment */
	LINE_CONTINUATION,           /* indented, after a KEY = VALUE */
	LINE_SECTION,
	LINE_KEY,
	LINE_NO_BRACKET,             /* "[name" */
	LINE_NOT_INI,
};

/* The handler refuses the current line: inih remembers the first such. */
static int refuse(struct frame *f)
{
	if (!f->first_refused)
		f->first_refused = f->line;
	return 0;
}

/* ---- the line reader --------------------------------------------------- */

static bool is_space(char c)
{
	return isspace((unsigned char)c);
}

/* inih's find_chars_or_comment: the first of @chars, or a ';' after white
 * space (an inline comment), or @end. */
static const char *find_or_comment(const char *s, const char *end,
				   const char *chars)
{
	bool was_space = false;

	for (; s < end; s++) {
		if (strchr(chars, *s) || (was_space && *s == ';'))
			return s;
		was_space = is_space(*s);
	}
	return end;
}

/* What inih makes of @line: the order of its tests, kept. */
static enum line_kind classify(struct frame *f, const char *line, size_t len)
{
	const char *s = line, *end = line + len, *p;

	if (f->line == 1 && len >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3))
		s += 3;
	while (s < end && is_space(*s))
		s++;
	if (s == end || *s == ';' || *s == '#')
		return LINE_BLANK;
	if (f->have_key && s > line) {
		f->value_off = (size_t)(s - line);
		return LINE_CONTINUATION;
	}
	if (*s == '[') {
		p = find_or_comment(s + 1, end, "]");
		if (p == end || *p != ']')
			return LINE_NO_BRACKET;
		f->have_key = false;
		f->value_off = (size_t)(s - line);
		return LINE_SECTION;
	}
	p = find_or_comment(s, end, "=:");
	if (p == end || *p == ';')
		return LINE_NOT_INI;
	f->have_key = true;
	f->value_off = (size_t)(p + 1 - line);
	return LINE_KEY;
}

static void check_section(struct frame *f, const char *line, size_t len)
{
	const char *open = line + f->value_off;
	const char *close = memchr(open, ']', len - f->value_off);

	f->skip_section = !profile_section_check(f, open + 1,
						 (size_t)(close - open - 1));
}

/*
 * Syntax errors are reported here, in line order, rather than after inih
 * is done: a "[filesystem" line would otherwise first show up as unknown
 * keys of the section before it.  A refused section header silences the
 * keys under it: one message says what is wrong.
 */
static void check_line(struct frame *f, const char *line, size_t len)
{
	enum line_kind kind = classify(f, line, len);

	if (f->q.open && kind != LINE_CONTINUATION) {
		f->q.open = false;
		profile_error_in(f->ld, shown(f), f->q.line, "the quoted "
				 "value ends in '\\' but line %d does not go "
				 "on with it (indent that line, or close the "
				 "value with '\"')", f->line);
	}
	switch (kind) {
	case LINE_SECTION:
		check_section(f, line, len);
		break;
	case LINE_NO_BRACKET:
		f->skip_section = true;
		refuse(f);
		error_at(f, "missing ']' at the end of the section name "
			 "(write [NAME] on a line of its own)");
		break;
	case LINE_NOT_INI:
		refuse(f);
		error_at(f, "syntax error (expected [section], KEY = VALUE, "
			 "an indented continuation line or a comment)");
		break;
	default:
		break;
	}
}

/*
 * inih's ini_reader: copies one line into @str.  Lines longer than
 * PROFILE_MAX_LINE and lines holding a NUL byte end the parse with an
 * error; inih would split or cut them without a word.
 */
static char *read_line(char *str, int num, void *stream)
{
	struct frame *f = stream;
	const char *nl;
	size_t len, max = PROFILE_MAX_LINE;

	if (f->pos >= f->end)
		return NULL;
	nl = memchr(f->pos, '\n', (size_t)(f->end - f->pos));
	len = (size_t)((nl ? nl : f->end) - f->pos);
	f->at = ++f->line;
	if (len && f->pos[len - 1] == '\r')
		len--;
	if (num < 0 || (size_t)num < max + 2)
		max = num > 2 ? (size_t)num - 2 : 0;
	if (len > max) {
		error_at(f, "line too long (max %zu bytes; a quoted value "
			 "can go on over several lines)", max);
		return NULL;
	}
	if (memchr(f->pos, '\0', len)) {
		error_at(f, "NUL byte in the line (is this a text file?)");
		return NULL;
	}
	memcpy(str, f->pos, len);
	str[len] = '\n';
	str[len + 1] = '\0';
	f->cur = f->pos;
	f->cur_len = len;
	f->pos = nl ? nl + 1 : f->end;
	check_line(f, f->cur, len);
	return str;
}

/* ---- inih's handler ---------------------------------------------------- */

/*
 * Copies @value without a trailing " ; comment": inih 55 strips those on
 * KEY = VALUE lines but passes continuation lines whole.
 */
static const char *strip_comment(const char *value, char *buf, size_t size)
{
	size_t n = 0;

	for (; value[n] && n < size - 1; n++) {
		if (value[n] == ';' && n && (value[n - 1] == ' ' ||
					     value[n - 1] == '\t'))
			break;
		buf[n] = value[n];
	}
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		n--;
	buf[n] = '\0';
	return buf;
}

/* Hands a whole value to its key; 1 if taken, 0 if refused. */
static int take(struct frame *f, const struct key *key, const char *name,
		const char *value, bool optional)
{
	if (profile_key_take(f, key, name, value, optional))
		return 1;
	return refuse(f);
}

/* The next line of a quoted value: taken once its closing quote comes. */
static int go_on_quoted(struct frame *f)
{
	struct quoted *q = &f->q;
	int r = profile_unquote(f, f->cur + f->value_off,
				f->cur + f->cur_len);

	if (r == QUOTE_MORE)
		return 1;
	q->open = false;
	if (r == QUOTE_BAD)
		return refuse(f);
	f->at = q->line;
	r = take(f, q->key, q->name, q->buf, q->optional);
	f->at = f->line;
	return r;
}

/*
 * A value as written: "quoted" (or -"quoted" for an optional path), read
 * from the raw line; else inih's value without its comment, a leading '-'
 * making a path optional.
 */
static int on_key_value(struct frame *f, const struct key *key,
			const char *name, const char *cooked)
{
	const char *raw = f->cur + f->value_off, *end = f->cur + f->cur_len;
	char value[PROFILE_MAX_LINE + 1];
	bool dash;
	int r;

	while (raw < end && is_space(*raw))
		raw++;
	dash = profile_key_optional(key) && end - raw >= 2 &&
	       raw[0] == '-' && raw[1] == '"';
	if (raw < end && (raw[0] == '"' || dash)) {
		profile_quoted_reset(&f->q);
		r = profile_unquote(f, raw + 1 + dash, end);
		if (r == QUOTE_BAD)
			return refuse(f);
		if (r == QUOTE_DONE)
			return take(f, key, name, f->q.buf, dash);
		f->q = (struct quoted){ .buf = f->q.buf, .len = f->q.len,
					.size = f->q.size, .open = true,
					.optional = dash, .line = f->line,
					.key = key };
		snprintf(f->q.name, sizeof(f->q.name), "%s", name);
		return 1;
	}
	strip_comment(cooked, value, sizeof(value));
	if (!value[0]) {
		error_at(f, "'%s' has no value (write it after the '=')", name);
		return refuse(f);
	}
	dash = profile_key_optional(key) && value[0] == '-';
	return take(f, key, name, value + dash, dash);
}

/* inih's handler: returns 0 for anything refused (and inih remembers the
 * line), 1 when the value was taken. */
static int on_value(void *user, const char *section, const char *name,
		    const char *cooked)
{
	struct frame *f = user;
	const struct key *key;

	if (f->skip_section)
		return refuse(f);
	if (f->q.open)
		return go_on_quoted(f);
	if (f->ld->describe_only) {
		if (strcmp(section, "profile") || strcmp(name, "description"))
			return 1;
		key = profile_key_find(section, name);
	} else if (!(key = profile_key_check(f, section, name))) {
		return refuse(f);
	}
	return on_key_value(f, key, name, cooked);
}

/* ---- a file ------------------------------------------------------------ */

int profile_parse(struct loader *ld, struct frame *f, const char *buf,
		  size_t len)
{
	size_t before = ld->result->n_errors;
	int r;

	f->ld = ld;
	f->pos = buf;
	f->end = buf + len;
	ld->stack[ld->depth++] = f;
	r = ini_parse_stream(read_line, f, on_value, f);
	ld->depth--;
	if (f->q.open)
		profile_error_in(ld, shown(f), f->q.line, "the file ends "
				 "inside this quoted value (close it with "
				 "'\"')");
	free(f->q.buf);
	f->q.buf = NULL;
	/* inih's own verdict, where our mirror of its rules did not see it */
	if (r == -2)
		profile_error_in(ld, shown(f), 0, "out of memory");
	else if (r > 0 && r != f->first_refused && !ld->describe_only)
		profile_error_in(ld, shown(f), r, "syntax error (expected "
				 "[section], KEY = VALUE, an indented "
				 "continuation line or a comment)");
	return ld->result->n_errors > before ? -EINVAL : 0;
}
