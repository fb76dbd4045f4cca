// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests: which directories a deny pins (sandbox/deny_pins.c),
 * on a real tree: those above a deny that an allow above them lets the
 * sandbox rename or remove, each once, and none else.
 */
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deny_pins.h"
#include "tap.h"
#include "util.h"

struct pinned {
	char names[16][PATH_MAX];
	size_t n;
};

static int record(void *ctx, int fd)
{
	struct pinned *p = ctx;

	if (p->n < 16)
		fd_name(fd, p->names[p->n++], PATH_MAX);
	return 0;
}

static struct opened_rule rule(const char *path, uint32_t access,
			       uint32_t deny)
{
	struct opened_rule r = { open(path, O_PATH | O_CLOEXEC), access,
				 deny };

	if (r.fd < 0)
		abort();
	return r;
}

/* The pins for @rules, as paths below @top, space-separated. */
static char *pins_of(struct opened_rule *rules, size_t n, const char *top)
{
	static char text[4096];
	struct pinned p = { .n = 0 };
	size_t used = 0;

	text[0] = '\0';
	if (deny_pins(rules, n, record, &p) < 0)
		return "error";
	for (size_t i = 0; i < p.n && used < sizeof(text); i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 "%s%s", i ? " " : "",
					 p.names[i] + strlen(top));
	for (size_t i = 0; i < n; i++)
		close(rules[i].fd);
	return text;
}

int main(void)
{
	char top[] = "/tmp/corral-deny-pins.XXXXXX", path[PATH_MAX];
	const char *dirs[] = { "/a", "/a/b", "/a/b/c", "/d" };
	uint32_t rw = CORRAL_ACCESS_READ | CORRAL_ACCESS_REMOVE;
	uint32_t w = CORRAL_ACCESS_WRITE;

	if (!mkdtemp(top))
		return 1;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
		snprintf(path, sizeof(path), "%s%s", top, dirs[i]);
		if (mkdir(path, 0755) < 0)
			return 1;
	}
	snprintf(path, sizeof(path), "%s/a/b/c/f", top);
	if (close(open(path, O_CREAT | O_WRONLY, 0644)) < 0)
		return 1;
#define P(s) ({ snprintf(path, sizeof(path), "%s%s", top, s); path; })
	{
		struct opened_rule r[] = { rule(P(""), rw, 0),
					   rule(P("/a/b/c/f"), 0, w) };
		const char *got = pins_of(r, 2, top);

		TAP_OK(!strcmp(got, "/a /a/b /a/b/c"),
		       "a deny on a file: every directory between it and the "
		       "allow is pinned, not the allow's own (%s)", got);
	}
	{
		struct opened_rule r[] = { rule(P("/a/b"), rw, 0),
					   rule(P("/a/b/c"), 0, w) };
		TAP_OK(!strcmp(pins_of(r, 2, top), ""),
		       "a deny right below the allow: nothing above it to pin "
		       "(the deny pins itself)");
	}
	{
		struct opened_rule r[] = { rule(P("/d"), rw, 0),
					   rule(P("/a/b/c/f"), 0, w) };
		TAP_OK(!strcmp(pins_of(r, 2, top), ""),
		       "an allow beside the deny pins nothing");
	}
	{
		struct opened_rule r[] = { rule(P(""), rw, 0),
					   rule(P("/a/b/c/f"), 0, w),
					   rule(P("/a/b/c"), 0, w) };
		TAP_OK(!strcmp(pins_of(r, 3, top), "/a /a/b /a/b/c"),
		       "two denies on one way: each directory once");
	}
#undef P
	snprintf(path, sizeof(path), "rm -rf '%s'", top);
	if (system(path) != 0)
		return 1;
	return tap_done();
}
