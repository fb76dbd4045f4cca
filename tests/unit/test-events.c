// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests: what --log and --log-all print for the events the BPF
 * programs send.  A table of events, each with the
 * line each mode prints ("" for none), fed in order to one printer per
 * mode, as one run's events are.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corral_abi.h"
#include "../../sandbox/events.h"  /* not bpf/events.h */
#include "log_print.h"
#include "event_names.h"
#include "tap.h"

#define READ   CORRAL_ACCESS_READ
#define CREATE CORRAL_ACCESS_CREATE

static const struct {
	const char *what;
	uint32_t hook, access, flags, pid;
	const char *path;        /* root first; the event holds it leaf first */
	const char *log;         /* the line --log prints, or "" */
	const char *all;         /* the line --log-all prints */
} cases[] = {
	{ "a file name holding a terminal escape is printed escaped",
	  CORRAL_HOOK_OPEN, READ, 0, 7, "/tmp/\x1b]0;owned\x07\x1b[2Jx",
	  "denied read /tmp/\\x1b]0;owned\\x07\\x1b[2Jx (pid 7 cat)",
	  "denied read /tmp/\\x1b]0;owned\\x07\\x1b[2Jx (pid 7 cat)" },
	{ "a C1 control (CSI as UTF-8) is escaped, other UTF-8 kept",
	  CORRAL_HOOK_OPEN, READ, 0, 7, "/tmp/caf\xc3\xa9\xc2\x9b" "31m",
	  "denied read /tmp/caf\xc3\xa9\\xc2\\x9b31m (pid 7 cat)",
	  "denied read /tmp/caf\xc3\xa9\\xc2\\x9b31m (pid 7 cat)" },
	{ "a byte that is no UTF-8 is escaped", CORRAL_HOOK_OPEN, READ, 0, 7,
	  "/tmp/a\x9b" "b", "denied read /tmp/a\\x9bb (pid 7 cat)",
	  "denied read /tmp/a\\x9bb (pid 7 cat)" },
	{ "the loader's cache", CORRAL_HOOK_OPEN, READ, 0, 7,
	  "/etc/ld.so.cache", "",
	  "denied read /etc/ld.so.cache (pid 7 cat)" },
	{ "locale.alias", CORRAL_HOOK_OPEN, READ, 0, 7,
	  "/usr/share/locale/locale.alias", "",
	  "denied read /usr/share/locale/locale.alias (pid 7 cat)" },
	{ "a gconv cache under a multiarch directory", CORRAL_HOOK_OPEN, READ,
	  0, 7, "/usr/lib/x86_64-linux-gnu/gconv/gconv-modules.cache", "",
	  "denied read /usr/lib/x86_64-linux-gnu/gconv/gconv-modules.cache "
	  "(pid 7 cat)" },
	{ "the time zone, through /etc/localtime", CORRAL_HOOK_OPEN, READ, 0,
	  7, "/usr/share/zoneinfo/Europe/Paris", "",
	  "denied read /usr/share/zoneinfo/Europe/Paris (pid 7 cat)" },
	{ "a message catalogue", CORRAL_HOOK_OPEN, READ, 0, 7,
	  "/usr/share/locale/de/LC_MESSAGES/coreutils.mo", "",
	  "denied read /usr/share/locale/de/LC_MESSAGES/coreutils.mo "
	  "(pid 7 cat)" },
	{ "libselinux's look at the mounts (ls)", CORRAL_HOOK_OPEN, READ, 0, 7,
	  "/proc/276/mounts", "", "denied read /proc/276/mounts (pid 7 cat)" },
	{ "the real denial", CORRAL_HOOK_OPEN, READ, 0, 7,
	  "/home/u/.ssh/id_rsa",
	  "denied read /home/u/.ssh/id_rsa (pid 7 cat)",
	  "denied read /home/u/.ssh/id_rsa (pid 7 cat)" },
	{ "the same denial from another process", CORRAL_HOOK_OPEN, READ, 0, 8,
	  "/home/u/.ssh/id_rsa", "",
	  "denied read /home/u/.ssh/id_rsa (pid 8 cat)" },
	{ "a write to the loader's cache is no routine probe", CORRAL_HOOK_OPEN,
	  CORRAL_ACCESS_WRITE, 0, 7, "/etc/ld.so.cache",
	  "denied write /etc/ld.so.cache (pid 7 cat)",
	  "denied write /etc/ld.so.cache (pid 7 cat)" },
	{ "/etc/passwd is no routine probe", CORRAL_HOOK_OPEN, READ, 0, 7,
	  "/etc/passwd", "denied read /etc/passwd (pid 7 cat)",
	  "denied read /etc/passwd (pid 7 cat)" },
	{ "a path merely starting like a routine one", CORRAL_HOOK_OPEN, READ,
	  0, 7, "/etc/ld.so.cache.d/x",
	  "denied read /etc/ld.so.cache.d/x (pid 7 cat)",
	  "denied read /etc/ld.so.cache.d/x (pid 7 cat)" },
	{ "a create names the new file", CORRAL_HOOK_CREATE, CREATE,
	  CORRAL_EVENT_CHILD, 7, "/home/u/work/data/evil.txt",
	  "denied create /home/u/work/data/evil.txt (pid 7 cat)",
	  "denied create /home/u/work/data/evil.txt (pid 7 cat)" },
	{ "a create of another file in the same directory",
	  CORRAL_HOOK_CREATE, CREATE, CORRAL_EVENT_CHILD, 7,
	  "/home/u/work/data/evil2.txt",
	  "denied create /home/u/work/data/evil2.txt (pid 7 cat)",
	  "denied create /home/u/work/data/evil2.txt (pid 7 cat)" },
};

/* The command name is the sandboxed process's to choose (PR_SET_NAME). */
static void test_escaped_comm(void)
{
	static struct log_printer log = { .per_second = 20, .all = true };
	static struct corral_event ev;
	char *out = NULL;
	size_t size = 0;

	ev.hook = CORRAL_HOOK_SIGNAL;
	ev.pid = 9;
	ev.time_ns = 5000000000ull;
	strcpy(ev.comm, "\x1b[31mevil");
	log.out = open_memstream(&out, &size);
	if (!log.out) {
		perror("open_memstream");
		exit(2);
	}
	log_print_event(&ev, &log);
	fclose(log.out);
	TAP_OK(!strcmp(out, "corral: denied signal (pid 9 \\x1b[31mevil)\n"),
	       "a command name holding a terminal escape is printed escaped");
	if (strcmp(out, "corral: denied signal (pid 9 \\x1b[31mevil)\n"))
		printf("#   got: %s", out);
	free(out);
}

/*
 * Tell once: a launch without --log counts the denials and prints one
 * line at the end.  Each row is one run: its events (path, rights, hook;
 * NULL ends), fed to a summary printer, and the line log_finish() prints.
 */
struct summary_event {
	const char *path;
	uint32_t access, hook;
	const char *comm;
};

static const struct {
	const char *what;
	struct summary_event events[5];  /* a NULL path ends them */
	const char *line;
} summaries[] = {
	{ "no denial: nothing", { { NULL, 0, 0, NULL } }, "" },
	{ "routine probes alone: nothing",
	  { { "/etc/ld.so.cache", READ, CORRAL_HOOK_OPEN, "git" },
	    { "/proc/12/mounts", READ, CORRAL_HOOK_OPEN, "ls" } },
	  "" },
	{ "one read in the home directory: named with ~, by its command",
	  { { "/home/u/.ssh/id_rsa", READ, CORRAL_HOOK_OPEN, "git" } },
	  "corral: 1 access refused (first: read ~/.ssh/id_rsa by git); "
	  "rerun with --log to see them\n" },
	{ "three denials after a routine one: counted, the first named",
	  { { "/etc/ld.so.cache", READ, CORRAL_HOOK_OPEN, "sh" },
	    { "/home/u/work/evil", CREATE, CORRAL_HOOK_CREATE, "sh" },
	    { "/home/u/.ssh/id_rsa", READ, CORRAL_HOOK_OPEN, "cat" },
	    { "/etc/shadow", READ, CORRAL_HOOK_OPEN, "cat" } },
	  "corral: 3 accesses refused (first: create ~/work/evil by sh); "
	  "rerun with --log to see them\n" },
	{ "a path merely starting like the home directory is not ~",
	  { { "/home/uu/x", READ, CORRAL_HOOK_OPEN, "cat" } },
	  "corral: 1 access refused (first: read /home/uu/x by cat); "
	  "rerun with --log to see them\n" },
	{ "a pathless denial names its hook",
	  { { "", 0, CORRAL_HOOK_SIGNAL, "kill" } },
	  "corral: 1 access refused (first: signal by kill); "
	  "rerun with --log to see them\n" },
};

static void test_summary(void)
{
	static struct log_printer p;
	static struct corral_event ev;
	char *out = NULL;
	size_t size = 0;

	for (size_t i = 0; i < sizeof(summaries) / sizeof(*summaries); i++) {
		memset(&p, 0, sizeof(p));
		p.summary = true;
		p.home = "/home/u";
		p.per_second = 20;
		p.out = open_memstream(&out, &size);
		if (!p.out) {
			perror("open_memstream");
			exit(2);
		}
		for (const struct summary_event *e = summaries[i].events;
		     e->path; e++) {
			memset(&ev, 0, sizeof(ev));
			ev.hook = e->hook;
			ev.access = e->access;
			ev.flags = e->hook == CORRAL_HOOK_CREATE ?
				   CORRAL_EVENT_CHILD : 0;
			ev.pid = 7;
			ev.time_ns = 1000000000ull;
			strcpy(ev.comm, e->comm);
			set_names(&ev, e->path);
			log_print_event(&ev, &p);
		}
		log_finish(&p);
		fclose(p.out);
		TAP_OK(!strcmp(out, summaries[i].line), "tell once, %s",
		       summaries[i].what);
		if (strcmp(out, summaries[i].line))
			printf("#   got: %s\n", out);
		free(out);
		out = NULL;
	}
}

int main(void)
{
	static struct log_printer log, all;
	static struct corral_event ev;
	char *log_out = NULL, *all_out = NULL, line[512], dir[256];
	size_t log_size = 0, all_size = 0;

	all.all = true;
	log.per_second = all.per_second = 20;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		memset(&ev, 0, sizeof(ev));
		ev.hook = cases[i].hook;
		ev.access = cases[i].access;
		ev.flags = cases[i].flags;
		ev.pid = cases[i].pid;
		ev.time_ns = 1000000000ull + i;
		strcpy(ev.comm, "cat");
		set_names(&ev, cases[i].path);
		log.out = open_memstream(&log_out, &log_size);
		all.out = open_memstream(&all_out, &all_size);
		if (!log.out || !all.out) {
			perror("open_memstream");
			return 2;
		}
		log_print_event(&ev, &log);
		log_print_event(&ev, &all);
		fclose(log.out);
		fclose(all.out);
		snprintf(line, sizeof(line), "%s%s%s", cases[i].log[0] ?
			 "corral: " : "", cases[i].log,
			 cases[i].log[0] ? "\n" : "");
		TAP_OK(!strcmp(log_out, line), "--log, %s: %s", cases[i].what,
		       cases[i].log[0] ? cases[i].log : "nothing");
		if (strcmp(log_out, line))
			printf("#   got: %s\n", log_out);
		snprintf(line, sizeof(line), "corral: %s\n", cases[i].all);
		TAP_OK(!strcmp(all_out, line), "--log-all, %s", cases[i].what);
		if (strcmp(all_out, line))
			printf("#   got: %s\n", all_out);
		free(log_out);
		free(all_out);
		log_out = all_out = NULL;
	}
	/* learn keeps judging a create by its directory */
	event_path(&ev, dir, sizeof(dir));
	TAP_OK(!strcmp(dir, "/home/u/work/data"),
	       "learn's path of a denied create is its directory (%s)", dir);
	test_escaped_comm();
	test_summary();
	return tap_done();
}
