// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * learn.c - from refused accesses to a profile.
 *
 * Each access becomes a rule on the object (or, for a file changed, on
 * its directory): read-only needs give ro, exec gives rx, any
 * change (write, truncate, create, remove, refer) gives rw, both rwx; a
 * directory only listed gets the single right readdir.  A directory
 * that is /, ~ or above ~ never gets a rule for what was done to a file
 * in it (one write to ~/.bashrc must not become rw = ${HOME}): the file
 * gets it.  A path gone by the time the profile is written (a file
 * never created, a temporary file removed) is written optional, '-'.
 * A process's own /proc/PID/... (/proc/self) cannot be granted, since
 * it is a different directory in every process: it is written as a
 * comment, as /proc/self/..., or /proc/PID/... for another process's.
 * Then the set is made small: everything under /usr collapses to one
 * rx = /usr, a rule already covered by an ancestor's is dropped, three or
 * more files read in one directory become one rule on the directory
 * (secrets excepted: each keeps a rule of its own, to be seen; and never
 * on /, ~ or above ~), and ${CWD} and ${HOME} replace their values so
 * the profile travels.
 * Network accesses become [network] rules: connects with the address and
 * port used, binds with the port (and the address, unless the wildcard).
 * A rule that reaches a secret (secrets.c: keys, credentials, browser
 * profiles, histories) gets a warning on stderr and a comment above it.
 * Whatever the command line or the paths hold, the profile reads back:
 * values are quoted as profile_quote() says, comments are escaped.
 */
#include "config.h"

#include "learn.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "events.h"
#include "expand.h"
#include "netrule.h"
#include "policy.h"
#include "profile.h"
#include "secrets.h"
#include "util.h"

#define CHANGE_RIGHTS (CORRAL_ACCESS_WRITE | CORRAL_ACCESS_TRUNCATE | \
		       CORRAL_ACCESS_CREATE | CORRAL_ACCESS_REMOVE | \
		       CORRAL_ACCESS_REFER | CORRAL_ACCESS_IOCTL)

struct rule {
	char *path;
	uint32_t group;        /* CORRAL_GROUP_* */
	uint32_t files;        /* accesses folded into it */
	char *example;         /* one path that was seen */
	int dropped;
};

void learn_add(struct learn *l, const char *path, uint32_t access)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->paths[i].path, path)) {
			l->paths[i].access |= access;
			l->paths[i].seen++;
			return;
		}
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->paths = xrealloc(l->paths, l->cap, sizeof(*l->paths));
	}
	l->paths[l->n++] = (struct learned_path){ xstrdup(path), access, 1 };
}

static void learn_net(struct learn *l, const struct corral_event *ev)
{
	static const uint8_t any[16];
	char line[128], where[64];
	int is_bind = ev->access & (CORRAL_NET_BIND_TCP | CORRAL_NET_BIND_UDP);

	if (ev->hook == CORRAL_HOOK_SOCKET) {
		snprintf(line, sizeof(line), "; refused: a socket of family %u, "
			 "type %u, protocol %u (no rule allows it)",
			 ev->net.socket_family, ev->net.socket_type,
			 ev->net.protocol);
	} else if (ev->hook == CORRAL_HOOK_ROUTE) {
		snprintf(line, sizeof(line), "; refused: a source route (level "
			 "%u, option %u): never allowed under network rules",
			 ev->net.protocol, ev->net.port);
	} else {
		if (is_bind && !memcmp(ev->net.addr, any, 16))
			snprintf(where, sizeof(where), "%u", ev->net.port);
		else
			netrule_format_addr(ev->net.family, ev->net.addr,
					    ev->net.port, where, sizeof(where));
		snprintf(line, sizeof(line), "%s = %s",
			 netrule_op_name((uint8_t)ev->access), where);
	}
	for (size_t i = 0; i < l->n_net; i++)
		if (!strcmp(l->net[i], line))
			return;
	l->net = xrealloc(l->net, l->n_net + 1, sizeof(*l->net));
	l->net[l->n_net++] = xstrdup(line);
}

/*
 * /proc/PID/... as the profile can say it: /proc/self/... when PID is
 * the process that was refused (@pid), /proc/PID/... (the word) for
 * another's, so that one run's pids do not make a rule each.  @path is
 * left as it is otherwise.
 */
static void proc_self(char *path, size_t size, uint32_t pid)
{
	char *end, *rest;
	unsigned long n;

	if (strncmp(path, "/proc/", 6) || path[6] < '1' || path[6] > '9')
		return;
	n = strtoul(path + 6, &end, 10);
	if (*end && *end != '/')
		return;
	rest = xstrdup(end);
	snprintf(path, size, "/proc/%s%s", n == pid ? "self" : "PID", rest);
	free(rest);
}

void learn_record(const struct corral_event *ev, void *data)
{
	char path[CORRAL_EVENT_NAMES * CORRAL_EVENT_NAME_LEN + 8];

	if (ev->hook == CORRAL_HOOK_NET || ev->hook == CORRAL_HOOK_SOCKET ||
	    ev->hook == CORRAL_HOOK_ROUTE) {
		learn_net(data, ev);
		return;
	}
	event_path(ev, path, sizeof(path));
	proc_self(path, sizeof(path), ev->pid);
	if (path[0] == '/' && ev->access)
		learn_add(data, path, ev->access);
}

/* A process's own /proc directory, which no rule can grant. */
static bool is_proc_own(const char *path)
{
	return !strncmp(path, "/proc/self", 10) ||
	       !strncmp(path, "/proc/PID", 9) ||
	       !strncmp(path, "/proc/thread-self", 17);
}

static uint32_t group_for(uint32_t access)
{
	uint32_t group = CORRAL_GROUP_RO;

	if (access == CORRAL_ACCESS_READDIR)
		return access;  /* only listed: its files stay closed */
	if (access & CHANGE_RIGHTS)
		group = CORRAL_GROUP_RW;
	if (access & CORRAL_ACCESS_EXEC)
		group |= CORRAL_GROUP_RX;
	return group;
}

/* A learned rule's key: a group, or readdir alone (rule_group). */
static const char *group_name(uint32_t group)
{
	if (group == CORRAL_ACCESS_READDIR)
		return right_name(group);
	return rights_group_name(group) ? rights_group_name(group) : "ro";
}

static char *parent_of(const char *path)
{
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');

	if (slash == dir)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	return dir;
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Is @path @dir itself or below it? */
static int is_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (!strcmp(dir, "/"))
		return 1;
	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

static void add_rule(struct rule **rules, size_t *n, const char *path,
		     uint32_t group, const char *example)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*rules)[i].path, path)) {
			(*rules)[i].group |= group;
			(*rules)[i].files++;
			return;
		}
	*rules = xrealloc(*rules, *n + 1, sizeof(**rules));
	(*rules)[(*n)++] = (struct rule){ xstrdup(path), group, 1,
					   xstrdup(example), 0 };
}

/* Is @dir /, @home or above it: a directory no rule may be learned on
 * for what was done to a file in it? */
static bool too_wide(const char *dir, const char *home)
{
	return !strcmp(dir, "/") || (home && dir_holds_home(dir, home));
}

/*
 * Where the rule for one refused access goes: /usr as a whole; a
 * directory listed, itself; a file read or executed, itself; anything
 * changed, its directory (editors and compilers replace files), unless
 * that is /, ~ or above (too_wide): then the file.
 */
static char *rule_path(const struct learned_path *p, const char *home)
{
	_cleanup_free_ char *dir = NULL;

	if (is_under(p->path, "/usr"))
		return xstrdup("/usr");
	if (is_dir(p->path) && !(p->access & (CORRAL_ACCESS_CREATE |
					       CORRAL_ACCESS_REMOVE)))
		return xstrdup(p->path);
	if (!is_dir(p->path) && !(p->access & CHANGE_RIGHTS))
		return xstrdup(p->path);
	if (is_dir(p->path))
		return xstrdup(p->path);
	dir = parent_of(p->path);
	return too_wide(dir, home) ? xstrdup(p->path) : steal_pointer(&dir);
}

/* A file that is or is in a secret: never folded into its directory,
 * where the rule would hide it and reach its neighbours too. */
static bool is_secret(const char *path, const char *home)
{
	bool holds;

	return secret_find(path, home, &holds) && !holds;
}

/* May rule @r be folded into its directory? */
static bool foldable(const struct rule *r, const char *home)
{
	_cleanup_free_ char *dir = NULL;

	if (r->dropped || is_dir(r->path) || is_secret(r->path, home))
		return false;
	dir = parent_of(r->path);
	return !too_wide(dir, home);
}

/* Three or more files read in one directory: one rule on the directory. */
static void fold_read_files(struct rule **rules, size_t *n, const char *home)
{
	for (size_t i = 0; i < *n; i++) {
		_cleanup_free_ char *dir = NULL;
		uint32_t group = 0, files = 0;
		size_t siblings = 0;

		if (!foldable(&(*rules)[i], home))
			continue;
		dir = parent_of((*rules)[i].path);
		for (size_t j = 0; j < *n; j++) {
			_cleanup_free_ char *other = NULL;

			if (!foldable(&(*rules)[j], home))
				continue;
			other = parent_of((*rules)[j].path);
			siblings += !strcmp(other, dir);
		}
		if (siblings < 3)
			continue;
		for (size_t j = 0; j < *n; j++) {
			_cleanup_free_ char *other = NULL;

			if (!foldable(&(*rules)[j], home))
				continue;
			other = parent_of((*rules)[j].path);
			if (strcmp(other, dir))
				continue;
			(*rules)[j].dropped = 1;
			group |= (*rules)[j].group;
			files += (*rules)[j].files;
		}
		add_rule(rules, n, dir, group, (*rules)[i].example);
		(*rules)[*n - 1].files += files - 1;
	}
}

/* A rule an ancestor's rule already covers adds nothing. */
static void drop_covered(struct rule *rules, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n && !rules[i].dropped; j++)
			if (j != i && !rules[j].dropped &&
			    is_under(rules[i].path, rules[j].path) &&
			    (rules[j].group & rules[i].group) == rules[i].group &&
			    (strcmp(rules[i].path, rules[j].path) || j < i)) {
				rules[j].files += rules[i].files;
				rules[i].dropped = 1;
			}
}

/* ${CWD}/... or ${HOME}/..., the longer match first, as a profile value
 * (quoted when it needs to be; optional when @path does not exist now,
 * as a rule on it would not load), malloc'd. */
static char *rule_value(const char *path, const struct learn *l)
{
	const char *vars[2][2] = { { "CWD", l->cwd }, { "HOME", l->home } };
	struct stat st;
	bool gone = stat(path, &st) < 0;
	char prefix[16];

	if (l->cwd && l->home && strlen(l->home) > strlen(l->cwd)) {
		vars[0][0] = "HOME"; vars[0][1] = l->home;
		vars[1][0] = "CWD";  vars[1][1] = l->cwd;
	}
	for (int i = 0; i < 2; i++) {
		const char *v = vars[i][1];

		if (v && strcmp(v, "/") && is_under(path, v)) {
			snprintf(prefix, sizeof(prefix), "${%s}", vars[i][0]);
			return profile_quote(prefix, path + strlen(v), gone);
		}
	}
	return profile_quote("", path, gone);
}

/*
 * One argument as a shell would show it: bare when it holds only
 * characters no shell reads specially ("-c", "--color=auto", "-"),
 * else in double quotes with '"', '\\', '$' and '`' escaped.  Control
 * bytes and bad UTF-8 are left to profile_comment_text().
 */
static char *arg_text(const char *arg)
{
	static const char bare[] = "abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				   "-_./:=,+@%^";
	char *text = xmalloc(2 * strlen(arg) + 3), *q = text;

	if (arg[0] && strspn(arg, bare) == strlen(arg)) {
		strcpy(text, arg);
		return text;
	}
	*q++ = '"';
	for (const char *p = arg; *p; p++) {
		if (strchr("\"\\$`", *p))
			*q++ = '\\';
		*q++ = *p;
	}
	strcpy(q, "\"");
	return text;
}

/*
 * The command, each argument quoted when it needs to be, for comments:
 * a multi-line `sh -c` script must not end the comment line.  " ..."
 * says that arguments past @max_args were left out.
 */
static char *command_text(char *const *command, size_t max_args)
{
	char *text = xstrdup("");

	for (size_t i = 0; command[i] && i < max_args; i++) {
		_cleanup_free_ char *arg = arg_text(command[i]);
		size_t len = strlen(text);

		text = xrealloc(text, len + strlen(arg) + 2, 1);
		sprintf(text + len, "%s%s", i ? " " : "", arg);
		if (i + 1 == max_args && command[i + 1]) {
			text = xrealloc(text, strlen(text) + 5, 1);
			strcat(text, " ...");
		}
	}
	return text;
}

/* The command in comment lines of at most 78 bytes. */
static void write_command(FILE *out, char *const *command)
{
	_cleanup_free_ char *text = command_text(command, (size_t)-1);
	_cleanup_free_ char *safe = profile_comment_text(text, 16 * 1024);
	size_t n = strlen(safe);

	for (size_t i = 0; i < n; i += 72)
		fprintf(out, "#   %.72s\n", safe + i);
}

static void write_header(FILE *out, char *const *command, const char *base)
{
	time_t now = time(NULL);
	char date[32] = "";
	_cleanup_free_ char *args = command_text(command, 4);
	_cleanup_free_ char *text = NULL, *value = NULL;

	strftime(date, sizeof(date), "%Y-%m-%d", localtime(&now));
	fprintf(out, "# Learned by `corral learn` on %s from:\n", date);
	write_command(out, command);
	fputs("# Each rule says what the run was seen doing there.  Review it:"
	      "\n# a learned profile allows exactly what one run needed.\n\n"
	      "[profile]\n", out);
	text = xmalloc(strlen(args) + sizeof("learned from: "));
	sprintf(text, "learned from: %s", args);
	free(args);
	args = profile_comment_text(text, 120);
	/* as the prefix: a description's '$' is text, not to be doubled */
	value = profile_quote(args, "", false);
	fprintf(out, "description = %s\n", value);
	if (base)
		fprintf(out, "include = %s\n", base);
	fputs("\n[filesystem]\n", out);
}

/* A warning, and a comment above the rule, when @rule reaches a secret. */
static void flag_secret(FILE *out, FILE *warn, const struct rule *rule,
			const char *value, const struct learn *l)
{
	bool holds;
	const struct secret *s = secret_find(rule->path, l->home, &holds);
	_cleanup_free_ char *shown = NULL;

	/* listing ~ shows names, not what the files hold */
	if (!s || (holds && rule->group == CORRAL_ACCESS_READDIR))
		return;
	shown = profile_comment_text(value, 100);
	fprintf(out, "; SECRET: %s ~/%s (%s): keep this rule only if the "
		"command must have them\n", holds ? "covers" : "in", s->path,
		s->what);
	if (warn)
		fprintf(warn, "corral: learn: %s = %s %s ~/%s (%s): review it\n",
			group_name(rule->group), shown,
			holds ? "covers" : "is in", s->path, s->what);
}

/*
 * The named sockets the command connected to, each on its own: no group
 * holds connect-unix, and a directory of sockets (/tmp) is the server
 * list a sandbox should not get whole.
 */
static size_t write_sockets(const struct learn *l, FILE *out)
{
	size_t written = 0;

	for (size_t i = 0; i < l->n; i++) {
		_cleanup_free_ char *value = NULL;

		if (!(l->paths[i].access & CORRAL_ACCESS_CONNECT_UNIX))
			continue;
		value = rule_value(l->paths[i].path, l);
		fprintf(out, "; a server the command connected to\n"
			"connect-unix = %s\n", value);
		written++;
	}
	return written;
}

/*
 * What the command tried in its own /proc/PID (is_proc_own), as
 * comments: no rule can grant it (base.profile says why), and a rule on
 * /proc/1234 would name a process that is gone, so the profile would
 * not load.
 */
static void write_proc_own(const struct learn *l, FILE *out)
{
	char rights[128];

	for (size_t i = 0; i < l->n; i++) {
		_cleanup_free_ char *shown = NULL;

		if (!is_proc_own(l->paths[i].path))
			continue;
		shown = profile_comment_text(l->paths[i].path, 150);
		rights_format(l->paths[i].access, rights, sizeof(rights));
		fprintf(out, "; not learned: %s %s (no rule can grant a "
			"process's /proc/PID files)\n", rights, shown);
	}
}

size_t learn_write(struct learn *l, FILE *out, FILE *warn,
		   char *const *command, const char *base)
{
	static const uint32_t order[] = {
		CORRAL_GROUP_RX, CORRAL_GROUP_RO, CORRAL_ACCESS_READDIR,
		CORRAL_GROUP_RW, CORRAL_GROUP_RWX,
	};
	struct rule *rules = NULL;
	size_t n = 0, written = 0;

	for (size_t i = 0; i < l->n; i++) {
		uint32_t access = l->paths[i].access &
				  ~CORRAL_ACCESS_CONNECT_UNIX;
		_cleanup_free_ char *where = NULL;

		if (!access || is_proc_own(l->paths[i].path))
			continue;       /* write_sockets(), write_proc_own() */
		where = rule_path(&l->paths[i], l->home);
		add_rule(&rules, &n, where, group_for(access),
			 l->paths[i].path);
	}
	fold_read_files(&rules, &n, l->home);
	drop_covered(rules, n);
	write_header(out, command, base);
	for (size_t g = 0; g < sizeof(order) / sizeof(*order); g++)
		for (size_t i = 0; i < n; i++) {
			_cleanup_free_ char *value = NULL, *example = NULL;

			if (rules[i].dropped || rules[i].group != order[g])
				continue;
			value = rule_value(rules[i].path, l);
			example = profile_comment_text(rules[i].example, 150);
			fprintf(out, "; %u access%s, e.g. %s\n",
				rules[i].files, rules[i].files == 1 ? "" : "es",
				example);
			flag_secret(out, warn, &rules[i], value, l);
			fprintf(out, "%s = %s\n", group_name(rules[i].group),
				value);
			written++;
		}
	written += write_sockets(l, out);
	write_proc_own(l, out);
	if (l->n_net)
		fputs("\n[network]\n", out);
	for (size_t i = 0; i < l->n_net; i++) {
		fprintf(out, "%s\n", l->net[i]);
		written += l->net[i][0] != ';';
	}
	for (size_t i = 0; i < n; i++) {
		free(rules[i].path);
		free(rules[i].example);
	}
	free(rules);
	return written;
}

void learn_free(struct learn *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->paths[i].path);
	free(l->paths);
	l->paths = NULL;
	for (size_t i = 0; i < l->n_net; i++)
		free(l->net[i]);
	free(l->net);
	l->net = NULL;
	l->n_net = 0;
	l->n = l->cap = 0;
}
