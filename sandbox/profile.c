// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * profile.c - reading INI profiles into a struct policy (see profile.h).
 *
 * inih does the INI syntax; this file adds what Debian's libinih 55 lacks
 * or gets wrong for us: our own line reader counts lines (the distro build
 * passes no line number) and refuses lines inih would split silently or
 * cut at a NUL; every key is declared once in keys[]; the handler returns
 * 0 for anything it does not know, and any failure is fatal.
 */
#include "config.h"

#include "profile.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "netrule.h"
#include "util.h"

/* The administrator's profiles are $(sysconfdir)/corral/profiles, where
 * `make install` creates the directory (/etc for the Debian package). */
#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif
#define ADMIN_PROFILES SYSCONFDIR "/corral/profiles"

#define MAX_FILE_SIZE (256 * 1024)
#define MAX_ERRORS 20
/* inih 55 keeps section and key names in 50-byte buffers, cutting longer
 * ones silently; a name that fills one was cut. */
#define INIH_NAME_MAX 49

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the keys ------------------------------------------------------- */

enum key_kind {
	KEY_DESCRIPTION,   /* free text, continuation lines joined */
	KEY_INCLUDE,       /* another profile, read at this line */
	KEY_RIGHTS,        /* [filesystem]: the key is a rights list */
	KEY_SETTING,       /* [sandbox]: one word from key->words */
	KEY_UNSET,         /* [environment]: a variable name or PREFIX* */
	KEY_NET_MODE,      /* [network] net = all|none|rules */
	KEY_NET_RULE,      /* [network] connect-tcp = 443, ... */
};

/* The values a setting takes, POLICY_UNSET-terminated. */
static const enum policy_value yes_no[] = {
	POLICY_NO, POLICY_YES, POLICY_UNSET,
};
static const enum policy_value scoped_allow[] = {
	POLICY_SCOPED, POLICY_ALLOW, POLICY_UNSET,
};
static const enum policy_value any_bpf[] = {
	POLICY_ANY, POLICY_BPF, POLICY_UNSET,
};

struct key {
	const char *section;
	const char *name;            /* NULL: any rights list, or a
					setting (policy_setting_key) */
	enum key_kind kind;
	enum policy_setting setting; /* KEY_SETTING only */
	const enum policy_value *words; /* KEY_SETTING only */
};

#define KEY(section, name, kind) { section, name, kind, 0, NULL }
#define SETTING(setting, words) \
	{ "sandbox", NULL, KEY_SETTING, setting, words }

static const struct key keys[] = {
	KEY("profile", "description", KEY_DESCRIPTION),
	KEY("profile", "include", KEY_INCLUDE),
	KEY("filesystem", NULL, KEY_RIGHTS),
	SETTING(POLICY_EXEC_ANONYMOUS, yes_no),
	SETTING(POLICY_UNIX_CONNECT, scoped_allow),
	SETTING(POLICY_REQUIRE, any_bpf),
	SETTING(POLICY_QUIET, yes_no),
	KEY("environment", "unset", KEY_UNSET),
	KEY("network", "net", KEY_NET_MODE),
	KEY("network", "connect-tcp", KEY_NET_RULE),
	KEY("network", "bind-tcp", KEY_NET_RULE),
	KEY("network", "connect-udp", KEY_NET_RULE),
	KEY("network", "bind-udp", KEY_NET_RULE),
};

static bool known_section(const char *section)
{
	for (size_t i = 0; i < N_ELEMS(keys); i++)
		if (!strcmp(keys[i].section, section))
			return true;
	return false;
}

/* The key's name; NULL for [filesystem]'s "any rights list". */
static const char *key_name(const struct key *key)
{
	return key->kind == KEY_SETTING ? policy_setting_key(key->setting)
					: key->name;
}

static const struct key *find_key(const char *section, const char *name)
{
	for (size_t i = 0; i < N_ELEMS(keys); i++) {
		const char *key = key_name(&keys[i]);

		if (strcmp(keys[i].section, section))
			continue;
		if (!key || !strcmp(key, name))
			return &keys[i];
	}
	return NULL;
}

/* "description, include" for the keys of @section. */
static const char *keys_of(const char *section, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < N_ELEMS(keys) && used < size; i++)
		if (!strcmp(keys[i].section, section) && key_name(&keys[i]))
			used += (size_t)snprintf(buf + used, size - used,
						 "%s%s", used ? ", " : "",
						 key_name(&keys[i]));
	return buf;
}

static const char *words_of(const enum policy_value *words, char *buf,
			    size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; words[i] != POLICY_UNSET && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s",
					 i ? " or " : "",
					 policy_value_word(words[i]));
	return buf;
}

/* ---- loading state ---------------------------------------------------- */

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

/* What inih will make of a line (its own logic, mirrored). */
enum line_kind {
	LINE_BLANK,                  /* empty or a comment */
	LINE_CONTINUATION,           /* indented, after a KEY = VALUE */
	LINE_SECTION,
	LINE_KEY,
	LINE_NO_BRACKET,             /* "[name" */
	LINE_NOT_INI,
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

/* Records "NAME:LINE: message" (or "NAME: message" when @line is 0). */
static void PRINTF(4, 5) error_in(struct loader *ld, const char *name,
				  int line, const char *fmt, ...)
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

/* Messages name a file by its path, so that one found on the search path
 * can be opened straight from the message. */
#define shown(f) ((f)->path ? (f)->path : (f)->name)
#define error_at(f, ...) error_in((f)->ld, shown(f), (f)->at, __VA_ARGS__)

/* The handler refuses the current line: inih remembers the first such. */
static int refuse(struct frame *f)
{
	if (!f->first_refused)
		f->first_refused = f->line;
	return 0;
}

/* ---- the line reader -------------------------------------------------- */

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

/* inih calls the handler only for keys, so an empty unknown section
 * would pass: its name is checked here. */
static void check_section(struct frame *f, const char *line, size_t len)
{
	const char *open = line + f->value_off;
	const char *close = memchr(open, ']', len - f->value_off);
	int n = (int)(close - open - 1);

	f->skip_section = false;
	for (size_t i = 0; i < N_ELEMS(keys); i++)
		if ((int)strlen(keys[i].section) == n &&
		    !memcmp(keys[i].section, open + 1, (size_t)n))
			return;
	f->skip_section = true;
	error_at(f, "unknown section [%.*s] (sections: [profile], "
		 "[filesystem], [network], [sandbox], [environment])", n,
		 open + 1);
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
		error_in(f->ld, shown(f), f->q.line, "the quoted value ends "
			 "in '\\' but line %d does not go on with it (indent "
			 "that line, or close the value with '\"')", f->line);
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

/* ---- quoted values ---------------------------------------------------- */

enum { QUOTE_DONE, QUOTE_MORE, QUOTE_BAD };

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

/* Starts a new quoted value: empty, yet a string. */
static void quoted_reset(struct quoted *q)
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
static int unquote(struct frame *f, const char *p, const char *end)
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

/* ---- values ------------------------------------------------------------- */

static int load_file(struct loader *ld, struct frame *from, const char *name,
		     const char *path);

static void add_path(struct frame *f, uint32_t access, uint32_t deny,
		     const char *raw, bool optional)
{
	_cleanup_free_ char *path = NULL;
	struct expand_error err;
	char origin[PATH_MAX + 32];

	switch (expand(raw, f->ld->env->vars, &path, &err)) {
	case EXPAND_OK:
		break;
	case EXPAND_UNSET:
		if (!optional)
			error_at(f, "${%s} is not set (prefix the path with "
				 "'-' to skip it when unset)", err.name);
		return;
	case EXPAND_UNKNOWN:
		error_at(f, "unknown variable ${%s} (variables: %s)",
			 err.name, var_list());
		return;
	case EXPAND_SYNTAX:
		error_at(f, "bad '$' in '%s' (write ${NAME}, or $$ for a "
			 "literal '$')", raw);
		return;
	case EXPAND_TOO_LONG:
	default:
		error_at(f, "'%s' is longer than %d bytes once expanded", raw,
			 PATH_MAX);
		return;
	}
	if (path[0] != '/') {
		error_at(f, "'%s' is not an absolute path (%s)", path,
			 path[0] == '~' ? "write ${HOME} instead of ~"
					: "start it with '/' or a variable such "
					  "as ${HOME} or ${CWD}");
		return;
	}
	snprintf(origin, sizeof(origin), "profile %s:%d", f->name, f->at);
	if (deny)
		policy_add_deny(f->ld->policy, path, deny, optional, origin);
	else if (optional)
		policy_add_optional(f->ld->policy, path, access, origin);
	else
		policy_add(f->ld->policy, path, access, origin);
}

/*
 * deny = PATH or deny = RIGHTS:PATH.  A path starts with '/' or '$' (a
 * variable), rights never do, so the first ':' of anything else ends
 * the rights.
 */
static void on_deny(struct frame *f, const char *value, bool optional)
{
	const char *colon = strchr(value, ':');
	const char *bad = NULL;
	char list[128];
	uint32_t deny;
	size_t n;

	if (value[0] == '/' || value[0] == '$' || !colon) {
		add_path(f, 0, CORRAL_ACCESS_ALL, value, optional);
		return;
	}
	if ((size_t)(colon - value) >= sizeof(list) || colon == value) {
		error_at(f, "'%s': expected deny = PATH or deny = RIGHTS:PATH",
			 value);
		return;
	}
	n = 0;          /* "read, write" reads as "read,write" */
	for (const char *p = value; p < colon; p++)
		if (*p != ' ' && *p != '\t')
			list[n++] = *p;
	list[n] = '\0';
	if (rights_parse(list, &deny, &bad) < 0) {
		error_at(f, "unknown right '%.*s' in deny = %s (%s)",
			 (int)strcspn(bad, ","), bad, value, rights_hint());
		return;
	}
	add_path(f, 0, deny, colon + 1, optional);
}

static void on_rights(struct frame *f, const char *name, const char *value,
		      bool optional)
{
	char list[INIH_NAME_MAX + 1];
	const char *bad = NULL;
	uint32_t access;
	size_t n = 0;

	/* "read, exec" reads as "read,exec" */
	for (const char *p = name; *p && n < sizeof(list) - 1; p++)
		if (*p != ' ' && *p != '\t')
			list[n++] = *p;
	list[n] = '\0';
	if (!strcmp(list, "deny")) {
		on_deny(f, value, optional);
		return;
	}
	if (rights_parse(list, &access, &bad) < 0) {
		error_at(f, "unknown right '%.*s' in key '%s' (%s)",
			 (int)strcspn(bad, ","), bad, name, rights_hint());
		return;
	}
	add_path(f, access, 0, value, optional);
}

static void on_setting(struct frame *f, const struct key *key,
		       const char *value)
{
	char origin[PATH_MAX + 32], words[64];

	for (size_t i = 0; key->words[i] != POLICY_UNSET; i++) {
		if (strcmp(policy_value_word(key->words[i]), value))
			continue;
		snprintf(origin, sizeof(origin), "profile %s:%d", f->name,
			 f->at);
		policy_set(f->ld->policy, key->setting, key->words[i], origin);
		return;
	}
	error_at(f, "bad value '%s' for %s (use %s)", value, key_name(key),
		 words_of(key->words, words, sizeof(words)));
}

static void on_unset(struct frame *f, const char *value)
{
	char origin[PATH_MAX + 32];

	if (!policy_var_pattern_ok(value)) {
		error_at(f, "bad variable name '%s' for unset (letters, digits "
			 "and '_', at most %d bytes; a trailing '*' unsets "
			 "every variable with that prefix)", value,
			 POLICY_VAR_NAME_MAX);
		return;
	}
	snprintf(origin, sizeof(origin), "profile %s:%d", f->name, f->at);
	policy_add_unset(f->ld->policy, value, origin);
}

static void on_net_mode(struct frame *f, const char *value)
{
	enum policy_net_mode mode;
	char origin[PATH_MAX + 32];

	if (netrule_mode(value, &mode) < 0) {
		error_at(f, "bad value '%s' for net (use all, none or rules)",
			 value);
		return;
	}
	snprintf(origin, sizeof(origin), "profile %s:%d", f->name, f->at);
	policy_set_net_mode(f->ld->policy, mode, origin);
}

static void on_net_rule(struct frame *f, const char *name, const char *value)
{
	char origin[PATH_MAX + 32], why[256];

	snprintf(origin, sizeof(origin), "profile %s:%d", f->name, f->at);
	if (netrule_add_list(f->ld->policy, netrule_op(name), value, origin,
			     why, sizeof(why)) < 0)
		error_at(f, "%s: %s", name, why);
}

static void on_description(struct frame *f, const char *value)
{
	struct profile_file *pf = &f->ld->result->files[f->file];
	size_t old = pf->description ? strlen(pf->description) : 0;

	pf->description = xrealloc(pf->description, old + strlen(value) + 2,
				   1);
	if (old)
		pf->description[old++] = ' ';
	strcpy(pf->description + old, value);
}

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

static void on_include(struct frame *f, const char *value)
{
	struct loader *ld = f->ld;
	_cleanup_free_ char *spec = NULL, *path = NULL, *name = NULL;
	_cleanup_free_ char *where = NULL;
	struct expand_error err;

	if (ld->env->no_includes) {
		error_at(f, "include '%s': includes are off here", value);
		return;
	}
	if (expand(value, ld->env->vars, &spec, &err) != EXPAND_OK) {
		error_at(f, "include '%s': bad or unset variable '%s' "
			 "(variables: %s)", value, err.name, var_list());
		return;
	}
	if (strchr(spec, '/')) {
		path = spec[0] == '/' || !f->path ? xstrdup(spec)
						  : relative_to(f->path, spec);
		name = xstrdup(path);
	} else {
		path = profile_find(ld->env, spec);
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

/* The key @name names in @section, or NULL after saying why not. */
static const struct key *check_key(struct frame *f, const char *section,
				   const char *name)
{
	const struct key *key = NULL;
	char hint[128];

	if (!known_section(section))
		error_at(f, "'%s' is outside any section (put it under "
			 "[profile], [filesystem], [network], [sandbox] or "
			 "[environment])", name);
	else if (strlen(name) >= INIH_NAME_MAX)
		error_at(f, "key '%.20s...' is too long", name);
	else if (!(key = find_key(section, name)))
		error_at(f, "unknown key '%s' in [%s] (keys: %s)", name,
			 section, keys_of(section, hint, sizeof(hint)));
	return key;
}

/* Hands a whole value to its key; 1 if taken, 0 if refused. */
static int take(struct frame *f, const struct key *key, const char *name,
		const char *value, bool optional)
{
	size_t before = f->ld->result->n_errors;

	switch (key->kind) {
	case KEY_DESCRIPTION:
		on_description(f, value);
		break;
	case KEY_INCLUDE:
		on_include(f, value);
		return 1;   /* an error in the included file is not this line's */
	case KEY_RIGHTS:
		on_rights(f, name, value, optional);
		break;
	case KEY_UNSET:
		on_unset(f, value);
		break;
	case KEY_NET_MODE:
		on_net_mode(f, value);
		break;
	case KEY_NET_RULE:
		on_net_rule(f, name, value);
		break;
	case KEY_SETTING:
	default:
		on_setting(f, key, value);
		break;
	}
	return f->ld->result->n_errors == before ? 1 : refuse(f);
}

/* The next line of a quoted value: taken once its closing quote comes. */
static int go_on_quoted(struct frame *f)
{
	struct quoted *q = &f->q;
	int r = unquote(f, f->cur + f->value_off, f->cur + f->cur_len);

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
	dash = key->kind == KEY_RIGHTS && end - raw >= 2 && raw[0] == '-' &&
	       raw[1] == '"';
	if (raw < end && (raw[0] == '"' || dash)) {
		quoted_reset(&f->q);
		r = unquote(f, raw + 1 + dash, end);
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
	dash = key->kind == KEY_RIGHTS && value[0] == '-';
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
		key = find_key(section, name);
	} else if (!(key = check_key(f, section, name))) {
		return refuse(f);
	}
	return on_key_value(f, key, name, cooked);
}

/* ---- files and includes ------------------------------------------------- */

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

static int parse(struct loader *ld, struct frame *f, const char *buf,
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
		error_in(ld, shown(f), f->q.line, "the file ends inside this "
			 "quoted value (close it with '\"')");
	free(f->q.buf);
	f->q.buf = NULL;
	/* inih's own verdict, where our mirror of its rules did not see it */
	if (r == -2)
		error_in(ld, shown(f), 0, "out of memory");
	else if (r > 0 && r != f->first_refused && !ld->describe_only)
		error_in(ld, shown(f), r, "syntax error (expected [section], "
			 "KEY = VALUE, an indented continuation line or a "
			 "comment)");
	return ld->result->n_errors > before ? -EINVAL : 0;
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
			error_in(ld, path, 0, "%s", strerror(err));
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
		error_in(ld, path, 0, "%s", what);
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
	return parse(ld, &f, buf, len);
}

char *profile_find(const struct profile_env *env, const char *name)
{
	for (size_t i = 0; i < env->n_search; i++) {
		char path[PATH_MAX];
		struct stat st;

		if (snprintf(path, sizeof(path), "%s/%s.profile",
			     env->search[i], name) >= (int)sizeof(path))
			continue;
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			return xstrdup(path);
	}
	return NULL;
}

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
		error_in(&ld, spec, 0, "no such profile in %s (list them with "
			 "'corral profiles'; a FILE needs a '/', e.g. ./%s%s)",
			 where, spec, ends_with(spec, ".profile") ? "" :
			 ".profile");
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
	return parse(&ld, &f, buf, len);
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

/* ---- the search path ---------------------------------------------------- */

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
