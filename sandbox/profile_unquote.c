// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * profile_unquote.c - quoted values of a profile: "TEXT" (-"PATH" for
 * an optional path) with the escapes \\ \" \n \t \r \xHH, where a '\'
 * ending a line inside the quotes goes on on the next, indented line
 * (profile_show.c writes them: profile_quote()).
 */
#include "config.h"

#include "profile_internal.h"

#include <ctype.h>
#include <string.h>

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static bool only_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p == end;
}

void profile_quoted_reset(struct quoted *q)
{
	if (!q->buf) {
		q->size = 256;
		q->buf = xmalloc(q->size);
	}
	q->len = 0;
	q->buf[0] = '\0';
}

static int quoted_add(struct frame *f, char c)
{
	struct quoted *q = &f->q;

	if (q->len >= PROFILE_MAX_VALUE) {
		error_at(f, "quoted value longer than %d bytes",
			 PROFILE_MAX_VALUE);
		return -1;
	}
	if (q->len + 2 > q->size) {
		q->size = q->size ? 2 * q->size : 256;
		q->buf = xrealloc(q->buf, q->size, 1);
	}
	q->buf[q->len++] = c;
	q->buf[q->len] = '\0';
	return 0;
}

/* The escape after a '\' at *@p: its byte, or -1 after the error. */
static int escape(struct frame *f, const char **p, const char *end)
{
	char c = *(*p)++;
	int hi, lo;

	switch (c) {
	case '\\': case '"': return c;
	case 'n': return '\n';
	case 't': return '\t';
	case 'r': return '\r';
	case 'x':
		hi = end - *p >= 2 ? hex_digit((*p)[0]) : -1;
		lo = end - *p >= 2 ? hex_digit((*p)[1]) : -1;
		if (hi < 0 || lo < 0 || !(hi | lo))
			break;
		*p += 2;
		return hi << 4 | lo;
	default:
		break;
	}
	error_at(f, "bad escape '\\%.*s' in a quoted value (write \\\\, \\\", "
		 "\\n, \\t, \\r or \\xHH, HH not 00)", c == 'x' ? 3 : 1, *p - 1);
	return -1;
}

/*
 * Decodes quoted text, from just after the opening quote or from the
 * start of a continuation line, into f->q: up to the closing quote, after
 * which only a comment may follow, or up to a '\' that ends the line.
 * Inside quotes nothing is a comment: the text comes from the raw line,
 * not from inih, which cuts values at " ;".
 */
int profile_unquote(struct frame *f, const char *p, const char *end)
{
	int c = 0;

	while (p < end) {
		c = *p++;
		if (c == '"')
			break;
		if (c == '\\' && only_space(p, end))
			return QUOTE_MORE;
		if (c == '\\' && (c = escape(f, &p, end)) < 0)
			return QUOTE_BAD;
		if (quoted_add(f, (char)c) < 0)
			return QUOTE_BAD;
	}
	if (c != '"') {
		error_at(f, "unterminated quoted value (close it with '\"', or "
			 "end the line with '\\' to go on on the next, "
			 "indented line)");
		return QUOTE_BAD;
	}
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p < end && *p != ';') {
		error_at(f, "'%.*s' after the closing quote (only a '; "
			 "comment' may follow it)", (int)(end - p), p);
		return QUOTE_BAD;
	}
	return QUOTE_DONE;
}
