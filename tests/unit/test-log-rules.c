// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests: the rule a --log denial line names (log_rules.h).
 * The rules' names go through the same sealed memfd the parser child
 * sends; the rules are O_PATH fds of a tree made here; each event of
 * the table is printed by the --log printer.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "corral_abi.h"
#include "../../sandbox/events.h"  /* not bpf/events.h */
#include "log_print.h"
#include "log_rules.h"
#include "event_names.h"
#include "tap.h"

#define READ  CORRAL_ACCESS_READ
#define WRITE CORRAL_ACCESS_WRITE
#define RO    (CORRAL_ACCESS_READ | CORRAL_ACCESS_READDIR)

static char top[64];

/* Each "%T" in @fmt is the test tree. */
static const char *at_top(const char *fmt, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (const char *t; (t = strstr(fmt, "%T")); fmt = t + 2)
		len += (size_t)snprintf(buf + len, size - len, "%.*s%s",
					(int)(t - fmt), fmt, top);
	snprintf(buf + len, size - len, "%s", fmt);
	return buf;
}

static void make_tree(void)
{
	char path[256];
	static const char *const dirs[] = { "%T/secret", "%T/pub" };
	static const char *const files[] = { "%T/secret/key", "%T/pub/f",
					     "%T/pub/g" };

	snprintf(top, sizeof(top), "/tmp/corral-log-rules-XXXXXX");
	if (!mkdtemp(top)) {
		perror("mkdtemp");
		exit(2);
	}
	for (size_t i = 0; i < 2; i++)
		if (mkdir(at_top(dirs[i], path, sizeof(path)), 0755) < 0) {
			perror(path);
			exit(2);
		}
	for (size_t i = 0; i < 3; i++) {
		int fd = creat(at_top(files[i], path, sizeof(path)), 0644);

		if (fd < 0) {
			perror(path);
			exit(2);
		}
		close(fd);
	}
}

/* The rules as the parser merged them; rule 2 was dropped (optional,
 * missing), so the table names rules 0, 1 and 3. */
static struct policy_rule rules[] = {
	{ "%T", RO, 0, "--ro on the command line", false },
	{ "%T/secret", 0, CORRAL_ACCESS_ALL, "profile secrets.profile:3",
	  false },
	{ "%T/missing", RO, 0, "profile x.profile:9", true },
	{ "%T/pub/f", WRITE, 0, "--allow on the command line", false },
};
static const uint32_t kept[] = { 0, 1, 3 };

static const struct {
	const char *what;
	uint32_t hook, access, flags;
	const char *path;
	const char *line;        /* %T: the tree */
} cases[] = {
	{ "a deny names the deny rule", CORRAL_HOOK_OPEN, READ, 0,
	  "%T/secret/key", "denied read %T/secret/key (pid 7 cat): taken "
	  "away by deny = %T/secret at secrets.profile:3" },
	{ "a right no rule grants names the nearest rule and the one to add",
	  CORRAL_HOOK_OPEN, WRITE, 0, "%T/pub/g",
	  "denied write %T/pub/g (pid 7 cat): no rule grants write (nearest "
	  "rule: --ro %T on the command line); add: --allow write:%T/pub/g" },
	{ "a file rule is the nearest", CORRAL_HOOK_TRUNCATE,
	  CORRAL_ACCESS_TRUNCATE, 0, "%T/pub/f",
	  "denied truncate %T/pub/f (pid 7 cat): no rule grants truncate "
	  "(nearest rule: --allow write:%T/pub/f on the command line); add: "
	  "--allow truncate:%T/pub/f" },
	{ "outside every rule: only the rule to add", CORRAL_HOOK_OPEN, READ,
	  0, "/etc/passwd", "denied read /etc/passwd (pid 7 cat): no rule "
	  "grants read; add: --allow read:/etc/passwd" },
	{ "a create: judged on its directory", CORRAL_HOOK_CREATE,
	  CORRAL_ACCESS_CREATE, CORRAL_EVENT_CHILD, "%T/pub/new",
	  "denied create %T/pub/new (pid 7 cat): no rule grants create "
	  "(nearest rule: --ro %T on the command line); add: --allow "
	  "create:%T/pub" },
	{ "a path gone since: no rule named", CORRAL_HOOK_OPEN, READ, 0,
	  "%T/gone/x", "denied read %T/gone/x (pid 7 cat)" },
	{ "a signal: no rule named", CORRAL_HOOK_SIGNAL, 0, 0, "",
	  "denied signal (pid 7 cat)" },
	{ "another process's limits: no rule named", CORRAL_HOOK_LIMITS, 0,
	  0, "", "denied limits/priority (pid 7 cat)" },
	{ "an outside SysV IPC object: no rule named", CORRAL_HOOK_IPC, 0,
	  0, "", "denied sysv-ipc (pid 7 cat)" },
};

static void remove_tree(void)
{
	static const char *const paths[] = { "%T/secret/key", "%T/pub/f",
		"%T/pub/g", "%T/secret", "%T/pub", "%T" };
	char path[256];

	for (size_t i = 0; i < sizeof(paths) / sizeof(*paths); i++)
		if (remove(at_top(paths[i], path, sizeof(path))) < 0)
			perror(path);
}

static struct log_rules *load(size_t n_names, size_t n_rules)
{
	static struct policy policy = { .rules = rules, .n_rules = 4 };
	int fds[3], text = log_rules_write(&policy, kept, n_names);
	uint32_t access[3], deny[3];
	struct log_rules *lr;

	for (size_t i = 0; i < 3; i++) {
		fds[i] = open(rules[kept[i]].path, O_PATH | O_CLOEXEC);
		access[i] = rules[kept[i]].access;
		deny[i] = rules[kept[i]].deny;
		if (fds[i] < 0) {
			perror(rules[kept[i]].path);
			exit(2);
		}
	}
	lr = log_rules_load(text, fds, access, deny, n_rules);
	for (size_t i = 0; i < 3; i++)
		close(fds[i]);
	close(text);
	return lr;
}

static void print_one(struct log_printer *p, size_t i, char **out)
{
	static struct corral_event ev;
	char path[256];
	size_t size = 0;

	memset(&ev, 0, sizeof(ev));
	ev.hook = cases[i].hook;
	ev.access = cases[i].access;
	ev.flags = cases[i].flags;
	ev.pid = 7;
	ev.time_ns = 1000000000ull + i;
	strcpy(ev.comm, "cat");
	set_names(&ev, at_top(cases[i].path, path, sizeof(path)));
	p->out = open_memstream(out, &size);
	if (!p->out) {
		perror("open_memstream");
		exit(2);
	}
	log_print_event(&ev, p);
	fclose(p->out);
}

int main(void)
{
	static struct log_printer log = { .per_second = 20, .all = true,
					   .why = log_rules_why };
	char want[1024], line[1024], *out = NULL;

	make_tree();
	for (size_t i = 0; i < sizeof(rules) / sizeof(*rules); i++)
		rules[i].path = strdup(at_top(rules[i].path, line,
					      sizeof(line)));
	log.why_ctx = load(3, 3);
	TAP_OK(log.why_ctx, "the rules' names read back");
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		print_one(&log, i, &out);
		snprintf(want, sizeof(want), "corral: %s\n",
			 at_top(cases[i].line, line, sizeof(line)));
		TAP_OK(!strcmp(out, want), "%s", cases[i].what);
		if (strcmp(out, want))
			printf("#   want: %s#   got:  %s", want, out);
		free(out);
		out = NULL;
	}
	log_rules_free((struct log_rules *)log.why_ctx);
	TAP_OK(!load(2, 3), "a table naming fewer rules than were sent is "
	       "not used");
	TAP_OK(!load(3, 2), "a table naming more rules than were sent is "
	       "not used");
	remove_tree();
	return tap_done();
}
