// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * landlock_deny.c - deny rules under Landlock, which can only add rights.
 *
 * A deny below an allow is made by allowing what is around it instead:
 * the allow keeps the rights no deny below it takes, and the rights a
 * deny takes are granted on every entry beside the way down to it, level
 * by level, and not on the directories along the way nor on the denied
 * node.  The directories along the way do not get the remove right
 * either, so no name on the way down can be removed, renamed away or
 * replaced (a deny pins the name, as the bpf engine's pins do, coarser).
 * What that loses: those directories themselves get none of the denied
 * rights (with a deny of everything, ~ can then neither be listed nor
 * gain new entries) and no entry of theirs can be removed, and entries
 * made in them after the launch are covered by no rule.  It never grants more than asked: a rule is only
 * ever given a subset of the rights of an allow above it.
 *
 * Paths are compared as strings, which is only sound where each
 * directory has one path: every rule concerned must be on a filesystem
 * mounted once and not be a file with other hard links
 * (landlock_deny_needed() checks the same).  Anything else, or more
 * expanded rules than LANDLOCK_DENY_MAX_RULES, refuses to run.
 */
#include "config.h"

#include "landlock_deny.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "corral_abi.h"
#include "util.h"

#define LANDLOCK_DENY_MAX_RULES 4096

struct deny_path {
	char path[PATH_MAX];
	uint32_t mask;
};

struct expansion {
	const struct deny_path *denies;
	size_t n_denies;
	landlock_grant_fn *grant;
	void *ctx;
	size_t n_rules;
	char first_dir[PATH_MAX];       /* a directory that loses rights */
	size_t n_dirs;
};

/* Is @path @dir or below it (absolute paths, no trailing '/')? */
static bool path_is_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1)
		return true;    /* "/" */
	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

/* How many mounts of this namespace show device @dev; 0 on error. */
static int mounts_of(dev_t dev)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	unsigned int major, minor;
	char line[4096];
	int n = 0;

	if (!f)
		return 0;       /* unknown: not one path */
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*d %*d %u:%u", &major, &minor) == 2 &&
		    makedev(major, minor) == dev)
			n++;
	fclose(f);
	return n;
}

/* Has the inode of @fd one path only (one mount, no other hard links)? */
static bool landlock_rule_one_path(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && mounts_of(st.st_dev) == 1 &&
	       (S_ISDIR(st.st_mode) || st.st_nlink == 1);
}

/* Union of the masks of denies on @path itself, or strictly below it. */
static uint32_t denied_at(const struct expansion *x, const char *path)
{
	uint32_t m = 0;

	for (size_t i = 0; i < x->n_denies; i++)
		if (!strcmp(x->denies[i].path, path))
			m |= x->denies[i].mask;
	return m;
}

/* ... and the remove right, which a directory on the way down to a deny
 * never gets: a deny pins the name (deny_pins.c). */
static uint32_t denied_below(const struct expansion *x, const char *path)
{
	uint32_t m = 0;

	for (size_t i = 0; i < x->n_denies; i++)
		if (strcmp(x->denies[i].path, path) &&
		    path_is_under(x->denies[i].path, path))
			m |= x->denies[i].mask | CORRAL_ACCESS_REMOVE;
	return m;
}

static int grant(struct expansion *x, int fd, uint32_t access, bool dir)
{
	if (!dir)
		access &= CORRAL_ACCESS_FILE;
	if (!access)
		return 0;
	if (++x->n_rules > LANDLOCK_DENY_MAX_RULES) {
		warn_msg("deny rules: more than %d Landlock rules to allow "
			 "what is around them; the bpf engine takes denies "
			 "as they are", LANDLOCK_DENY_MAX_RULES);
		return -E2BIG;
	}
	return x->grant(x->ctx, fd, access);
}

static int expand_dir(struct expansion *x, int dirfd, const char *path,
		      uint32_t rights);

/* The entry @name of @dirfd (at @path) gets @rights, less any denies. */
static int expand_entry(struct expansion *x, int dirfd, const char *path,
			const char *name, uint32_t rights)
{
	char child[PATH_MAX];
	struct stat st;
	uint32_t below;
	int fd, r;

	if ((size_t)snprintf(child, sizeof(child), "%s%s%s", path,
			     path[1] ? "/" : "", name) >= sizeof(child))
		return error_errno(ENAMETOOLONG, "%s/%s: allowing what is "
				   "around a deny rule", path, name);
	rights &= ~denied_at(x, child);
	below = denied_below(x, child);
	if (!rights)
		return 0;
	fd = openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 :    /* gone since the listing */
		       error_errno(errno, "%s: opening it to allow what is "
				   "around a deny rule", child);
	if (fstat(fd, &st) < 0) {
		r = error_errno(errno, "%s: fstat", child);
	} else if (S_ISLNK(st.st_mode)) {
		r = 0;          /* its target is judged by its own path */
	} else {
		r = grant(x, fd, rights & ~below, S_ISDIR(st.st_mode));
		if (!r && (rights & below))
			r = expand_dir(x, fd, child, rights & below);
	}
	close(fd);
	return r;
}

/* Every entry of @path but the ways down to its denies gets @rights. */
static int expand_dir(struct expansion *x, int dirfd, const char *path,
		      uint32_t rights)
{
	int listfd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir;
	struct dirent *e;
	int r = 0;

	if (listfd < 0)
		return error_errno(errno, "%s: listing it to allow what is "
				   "around a deny rule", path);
	dir = fdopendir(listfd);
	if (!dir) {
		close(listfd);
		return error_errno(errno, "%s: listing it", path);
	}
	if (!x->n_dirs++)
		snprintf(x->first_dir, sizeof(x->first_dir), "%s", path);
	while (!r && (e = readdir(dir)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			r = expand_entry(x, dirfd, path, e->d_name, rights);
	closedir(dir);
	return r;
}

/* One rule's path, if it has only one (see above); else "". */
static const char *sole_path(int fd, char *buf, size_t size)
{
	buf[0] = '\0';
	if (!landlock_rule_one_path(fd))
		return buf;
	if (fd_name(fd, buf, size)[0] != '/')
		buf[0] = '\0';
	return buf;
}

static bool deny_moot(const struct opened_rule *deny,
		      const struct opened_rule *rules, size_t n)
{
	char d[PATH_MAX], a[PATH_MAX];

	if (!*sole_path(deny->fd, d, sizeof(d)))
		return false;
	for (size_t i = 0; i < n; i++) {
		uint32_t pin = CORRAL_ACCESS_REMOVE;  /* above it: the name */

		if (!(rules[i].access & (deny->deny | pin)))
			continue;
		if (!*sole_path(rules[i].fd, a, sizeof(a)))
			return false;
		if (path_is_under(a, d) && (rules[i].access & deny->deny))
			return false;
		if (path_is_under(d, a) && strcmp(d, a) &&
		    (rules[i].access & (deny->deny | pin)))
			return false;
	}
	return true;
}

long landlock_deny_needed(const struct opened_rule *rules, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (rules[i].deny && !deny_moot(&rules[i], rules, n))
			return (long)i;
	return -1;
}

static int collect_denies(const struct opened_rule *rules, size_t n,
			  struct deny_path *denies, size_t *n_denies)
{
	*n_denies = 0;
	for (size_t i = 0; i < n; i++) {
		struct deny_path *d = &denies[*n_denies];

		if (!rules[i].deny)
			continue;
		if (!*sole_path(rules[i].fd, d->path, sizeof(d->path))) {
			char p[PATH_MAX];

			warn_msg("%s: a deny rule Landlock cannot honour (a "
				 "file with other hard links, or on a "
				 "filesystem mounted more than once); the bpf "
				 "engine takes it as it is",
				 fd_name(rules[i].fd, p, sizeof(p)));
			return -EOPNOTSUPP;
		}
		d->mask = rules[i].deny;
		(*n_denies)++;
	}
	return 0;
}

/* One allow: what no deny below takes stays on it, the rest goes around. */
static int expand_allow(struct expansion *x, const struct opened_rule *rule)
{
	char path[PATH_MAX];
	uint32_t access = rule->access, below;
	struct stat st;

	if (!*sole_path(rule->fd, path, sizeof(path))) {
		for (size_t i = 0; i < x->n_denies; i++)
			if (access & x->denies[i].mask) {
				warn_msg("%s: an allow Landlock cannot weigh "
					 "against the deny on %s (a file with "
					 "other hard links, or on a filesystem "
					 "mounted more than once)",
					 fd_name(rule->fd, path, sizeof(path)),
					 x->denies[i].path);
				return -EOPNOTSUPP;
			}
		return x->grant(x->ctx, rule->fd, access);
	}
	for (size_t i = 0; i < x->n_denies; i++)
		if (path_is_under(path, x->denies[i].path))
			access &= ~x->denies[i].mask;   /* deny wins */
	below = denied_below(x, path);
	if (fstat(rule->fd, &st) < 0)
		return error_errno(errno, "%s: fstat", path);
	if (access & ~below) {
		int r = x->grant(x->ctx, rule->fd, access & ~below);

		if (r < 0)
			return r;
	}
	if (!(access & below) || !S_ISDIR(st.st_mode))
		return 0;
	return expand_dir(x, rule->fd, path, access & below);
}

int landlock_expand_denies(const struct opened_rule *rules, size_t n,
			   landlock_grant_fn *grant_fn, void *ctx,
			   char *lost, size_t lost_size)
{
	static struct deny_path denies[LANDLOCK_DENY_MAX_DENIES];
	struct expansion x = { .denies = denies, .grant = grant_fn,
			       .ctx = ctx };
	size_t n_deny_rules = 0;
	int r;

	for (size_t i = 0; i < n; i++)
		n_deny_rules += rules[i].deny != 0;
	if (n_deny_rules > LANDLOCK_DENY_MAX_DENIES) {
		warn_msg("more than %d deny rules for Landlock to weigh; the "
			 "bpf engine takes them as they are",
			 LANDLOCK_DENY_MAX_DENIES);
		return -E2BIG;
	}
	r = collect_denies(rules, n, denies, &x.n_denies);
	for (size_t i = 0; !r && i < n; i++)
		if (!rules[i].deny && rules[i].access)
			r = expand_allow(&x, &rules[i]);
	if (lost && lost_size)
		snprintf(lost, lost_size, x.n_dirs ? "%s%s" : "", x.first_dir,
			 x.n_dirs > 1 ? " and the directories between it "
					"and the denies" : "");
	return r;
}
