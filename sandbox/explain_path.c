// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * explain_path.c - a path as the kernel walks it for a check: resolved
 * as open(2) resolves it, then each directory from the object up to "/".
 *
 * The walk is by path prefixes of the resolved path, each stat-ed: a
 * mount point's prefix gives the root of what is mounted there (a bind
 * mount of a ruled directory carries its rule; the directory it covers
 * is not met), which is what the kernel's walk does when it steps from
 * a mount's root to its parent mount.
 */
#include "config.h"

#include "explain.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/* As the kernel's MAXSYMLINKS: ELOOP past that many links. */
#define EXPLAIN_MAX_LINKS 40

/* What step() did, besides -errno. */
enum { STEP_ADVANCED, STEP_MISSING_LAST, STEP_SPLICED };

struct resolver {
	char *rest;        /* what is left to resolve, malloc'd */
	char cur[PATH_MAX];/* resolved so far, "" for "/" */
	size_t len;
	int links;
};

/* Replaces the rest with @target "/" @after (what followed the link). */
static int splice_link(struct resolver *r, const char *target,
		       const char *after)
{
	size_t n = strlen(target) + 1 + strlen(after) + 1;
	char *rest = xmalloc(n);

	/* no "/" after a last component: it would ask for a directory */
	snprintf(rest, n, "%s%s%s", target, after[0] ? "/" : "", after);
	free(r->rest);
	r->rest = rest;
	if (target[0] == '/') {
		r->len = 0;
		r->cur[0] = '\0';
	}
	return STEP_SPLICED;
}

static int follow_link(struct resolver *r, const char *at, const char *after)
{
	char target[PATH_MAX];
	ssize_t n;

	if (++r->links > EXPLAIN_MAX_LINKS)
		return -ELOOP;
	n = readlink(at, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	return splice_link(r, target, after);
}

static void go_up(struct resolver *r)
{
	while (r->len && r->cur[r->len - 1] != '/')
		r->len--;
	if (r->len)
		r->len--;
	r->cur[r->len] = '\0';
}

/*
 * One component @name (@n bytes) of the rest, @after what follows it:
 * appended to what is resolved (STEP_ADVANCED), or the missing last
 * component (STEP_MISSING_LAST: resolution is over), or a symlink whose
 * target now heads the rest (STEP_SPLICED); or -errno.
 */
static int step(struct resolver *r, const char *name, size_t n,
		const char *after, bool follow, bool *exists)
{
	bool last = !*after;
	char at[PATH_MAX];
	struct stat st;

	if (r->len + 1 + n >= sizeof(at))
		return -ENAMETOOLONG;
	memcpy(at, r->cur, r->len);
	at[r->len] = '/';
	memcpy(at + r->len + 1, name, n);
	at[r->len + 1 + n] = '\0';
	if (lstat(at, &st) < 0) {
		if (errno != ENOENT || !last)
			return -errno;
		*exists = false;
		memcpy(r->cur, at, strlen(at) + 1);
		return STEP_MISSING_LAST;
	}
	if (S_ISLNK(st.st_mode) && (!last || follow))
		return follow_link(r, at, after);
	if (!last && !S_ISDIR(st.st_mode))
		return -ENOTDIR;
	r->len = strlen(at);
	memcpy(r->cur, at, r->len + 1);
	return STEP_ADVANCED;
}

static int resolve_rest(struct resolver *r, bool follow, bool *exists)
{
	for (;;) {
		char *p = r->rest, *name, *after;
		size_t n;
		int ret;

		while (*p == '/')
			p++;
		if (!*p)
			return 0;
		name = p;
		n = strcspn(p, "/");
		/* a trailing '/' asks for a directory: the link is followed */
		after = p + n + (p[n] == '/');
		if ((n == 1 && name[0] == '.') ||
		    (n == 2 && !strncmp(name, "..", 2))) {
			if (n == 2)
				go_up(r);
			memmove(r->rest, after, strlen(after) + 1);
			continue;
		}
		after = xstrdup(after[0] || p[n] != '/' ? after : ".");
		ret = step(r, name, n, after, follow, exists);
		if (ret == STEP_ADVANCED)
			memmove(r->rest, after, strlen(after) + 1);
		free(after);
		if (ret < 0 || ret == STEP_MISSING_LAST)
			return ret < 0 ? ret : 0;
	}
}

int explain_resolve(const char *path, const char *cwd, bool follow,
		    char *out, size_t size, bool *exists)
{
	struct resolver r = { .len = 0 };
	int ret;

	*exists = true;
	if (path[0] != '/' && !cwd)
		return -ENOENT;
	r.rest = xmalloc(strlen(path) + (cwd ? strlen(cwd) : 0) + 2);
	sprintf(r.rest, "%s/%s", path[0] == '/' ? "" : cwd, path);
	ret = resolve_rest(&r, follow, exists);
	free(r.rest);
	if (ret < 0)
		return ret;
	if (snprintf(out, size, "%s", r.cur[0] ? r.cur : "/") >= (int)size)
		return -ENAMETOOLONG;
	return 0;
}

ssize_t explain_walk(const char *resolved, bool exists,
		     struct explain_node **nodes)
{
	/* "" stands for "/", so that cutting at the last '/' ends there */
	_cleanup_free_ char *p = xstrdup(strcmp(resolved, "/") ? resolved : "");
	bool skip = !exists;   /* a missing object: the walk starts above */
	size_t n = 0, cap = 2;
	struct stat st;

	for (const char *s = p; *s; s++)
		cap += *s == '/';
	*nodes = xcalloc(cap, sizeof(**nodes));
	for (;;) {
		char *slash = strrchr(p, '/');

		if (!skip && lstat(p[0] ? p : "/", &st) < 0) {
			free(*nodes);
			*nodes = NULL;
			return -errno;
		}
		if (!skip) {
			(*nodes)[n].dev = st.st_dev;
			(*nodes)[n++].ino = st.st_ino;
		}
		skip = false;
		if (!slash)
			return n;
		*slash = '\0';
	}
}
