// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cache_dir.c - see cache_dir.h.  Runs in the parser child, as the user
 * (real uid, no capability, not in the corral group), so what it makes
 * belongs to the user and the user's own group.
 */
#include "config.h"

#include "cache_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/* Opens @name in @dir as a directory: a symlink only if the user owns
 * it.  -errno; -ELOOP for another's symlink. */
static int open_step(int dir, const char *name)
{
	struct stat st;
	int fd = openat(dir, name, O_PATH | O_DIRECTORY | O_NOFOLLOW |
			O_CLOEXEC);

	if (fd >= 0 || errno != ENOTDIR)
		return fd >= 0 ? fd : -errno;
	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	if (!S_ISLNK(st.st_mode))
		return -ENOTDIR;
	if (st.st_uid != getuid())
		return -ELOOP;
	fd = openat(dir, name, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return fd >= 0 ? fd : -errno;
}

/* Each component of @rest (a path below @dir), made when missing. */
static int make_below(int dir, char *rest, const char **failed)
{
	_cleanup_close_ int fd = -1;
	char *name = rest, *slash;

	while (*name == '/')
		name++;
	if (!*name)
		return 0;
	slash = strchr(name, '/');
	if (slash)
		*slash = '\0';
	*failed = name;
	fd = open_step(dir, name);
	if (fd == -ENOENT) {
		if (mkdirat(dir, name, 0700) < 0 && errno != EEXIST)
			return -errno;
		fd = open_step(dir, name);
	}
	if (fd < 0)
		return fd;
	if (slash)
		*slash = '/';
	return slash ? make_below(fd, slash, failed) : 0;
}

int cache_dir_make(const struct policy_rule *rule)
{
	_cleanup_close_ int home = -1;
	char path[PATH_MAX], *rest;
	const char *failed = "";
	int r;

	if (rule->cache >= strlen(rule->path) ||
	    snprintf(path, sizeof(path), "%s", rule->path) >=
	    (int)sizeof(path))
		return 0;       /* ${HOME} itself: never made */
	rest = path + rule->cache;
	*rest++ = '\0';
	home = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	r = home < 0 ? -errno : make_below(home, rest, &failed);
	if (r == 0)
		return 0;
	if (r == -ELOOP)
		warn_msg("%s: not made: %s is a symlink you do not own (%s); "
			 "make the directory yourself", rule->path, failed,
			 rule->origin);
	else
		warn_msg("%s: cannot make it (%s): %s; make the directory "
			 "yourself", rule->path, rule->origin, strerror(-r));
	return -1;
}
