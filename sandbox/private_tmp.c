// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * private_tmp.c - see private_tmp.h.  Runs in the parser child, as the
 * user with no capability and not in the corral group, so what it makes
 * belongs to the user and the user's own group.
 */
#include "config.h"

#include "private_tmp.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

/* A directory unlocked and unchanged this long is reclaimed. */
#define PRIVATE_TMP_IDLE_SECONDS (24 * 60 * 60)
/* Deeper trees are left for a later launch, or for logout. */
#define REMOVE_MAX_DEPTH 64
/* Names tried for one launch's directory before giving up. */
#define MAKE_TRIES 1000

bool private_tmp_is_private(const char *path)
{
	struct stat st;

	if (!path || path[0] != '/' || stat(path, &st) < 0)
		return false;
	return S_ISDIR(st.st_mode) && st.st_uid == getuid() &&
	       !(st.st_mode & (S_ISVTX | S_IWOTH));
}

/* Is the directory of @fd the real user's, 0700, and no symlink? */
static bool dir_fd_private(int fd, struct stat *st)
{
	return fstat(fd, st) == 0 && S_ISDIR(st->st_mode) &&
	       st->st_uid == getuid() && (st->st_mode & 07777) == 0700;
}

/*
 * $XDG_RUNTIME_DIR/corral, if XDG_RUNTIME_DIR is a 0700 directory of the
 * user's (judged on an fd opened without following a symlink); -1 if it
 * is not, or "corral" in it cannot be made the user's and 0700.
 */
static int runtime_base(const char *runtime, char *out, size_t size)
{
	_cleanup_close_ int dir = -1;
	struct stat st;
	int fd;

	if (!runtime || runtime[0] != '/')
		return -1;
	dir = open(runtime, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dir < 0 || !dir_fd_private(dir, &st))
		return -1;
	if (snprintf(out, size, "%s/corral", runtime) >= (int)size)
		return -1;
	if (mkdirat(dir, "corral", 0700) == 0)
		fd = openat(dir, "corral", O_RDONLY | O_DIRECTORY |
			    O_NOFOLLOW | O_CLOEXEC);
	else if (errno == EEXIST)
		fd = openat(dir, "corral", O_RDONLY | O_DIRECTORY |
			    O_NOFOLLOW | O_CLOEXEC);
	else
		return -1;
	/* umask may have taken bits from 0700; the base is ours */
	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_uid == getuid() &&
	    (st.st_mode & 07777) != 0700)
		(void)fchmod(fd, 0700);
	if (fd >= 0 && dir_fd_private(fd, &st))
		return fd;
	if (fd >= 0)
		close(fd);
	return -1;
}

/*
 * /tmp/corral-UID: anyone may make that name first in /tmp (squatting),
 * so it is used only if the fd opened on it, without following a
 * symlink, is a 0700 directory of the user's.
 */
static int shared_base(char *out, size_t size)
{
	unsigned int uid = (unsigned int)getuid();
	struct stat st;
	bool made;
	int fd;

	snprintf(out, size, "/tmp/corral-%u", uid);
	made = mkdirat(AT_FDCWD, out, 0700) == 0;
	if (!made && errno != EEXIST)
		die_errno("%s: making the private temporary directories' "
			  "base (set XDG_RUNTIME_DIR to a 0700 directory of "
			  "yours)", out);
	fd = open(out, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		die_errno("%s: not a directory of yours (someone else may "
			  "have made it: remove it, or set XDG_RUNTIME_DIR "
			  "to a 0700 directory of yours)", out);
	if (fstat(fd, &st) < 0)
		die_errno("%s: fstat", out);
	if (st.st_uid != uid)
		die("%s: owned by uid %u, not by you (uid %u): someone else "
		    "made it; have it removed, or set XDG_RUNTIME_DIR to a "
		    "0700 directory of yours", out, (unsigned int)st.st_uid,
		    uid);
	if (made && (st.st_mode & 07777) != 0700 && fchmod(fd, 0700) < 0)
		die_errno("%s: chmod 700", out);
	if (!dir_fd_private(fd, &st))
		die("%s: mode %04o, not 0700: others may have put files in "
		    "it; remove it, or chmod 700 it", out,
		    (unsigned int)(st.st_mode & 07777));
	return fd;
}

int private_tmp_base(const char *runtime, char *out, size_t size)
{
	int fd = runtime_base(runtime, out, size);

	return fd >= 0 ? fd : shared_base(out, size);
}

/*
 * Empties the directory of @fd; false if anything stayed (a tree too
 * deep, a directory the user took write permission from).  What stays
 * is tried again at the next launch.
 */
static bool empty_dir(int fd, int depth)
{
	int dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	bool emptied = d != NULL;
	struct dirent *e;

	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return false;
	}
	while ((e = readdir(d))) {
		int sub;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (unlinkat(fd, e->d_name, 0) == 0)
			continue;
		if (errno != EISDIR || depth >= REMOVE_MAX_DEPTH) {
			emptied = false;
			continue;
		}
		sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY |
			     O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0 || !empty_dir(sub, depth + 1) ||
		    unlinkat(fd, e->d_name, AT_REMOVEDIR) < 0)
			emptied = false;
		if (sub >= 0)
			close(sub);
	}
	closedir(d);
	return emptied;
}

/*
 * The launch directory @name in @base, if no process holds its lock:
 * then no sandbox can reach it through the descriptor it inherited, and
 * it goes.  A live one's lock cannot be taken, and it stays.
 */
static void reclaim_one(int base, const char *name)
{
	_cleanup_close_ int fd = openat(base, name, O_RDONLY | O_DIRECTORY |
					O_NOFOLLOW | O_CLOEXEC);
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0 || st.st_uid != getuid())
		return;
	/* a process that closed its inherited descriptor may still use it:
	 * left for a day after its last entry came or went */
	if (st.st_mtime > time(NULL) - PRIVATE_TMP_IDLE_SECONDS)
		return;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0)
		return;
	if (empty_dir(fd, 0))
		(void)unlinkat(base, name, AT_REMOVEDIR);
}

static void sweep(int base)
{
	int dfd = openat(base, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct dirent *e;

	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return;
	}
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, PRIVATE_TMP_PREFIX,
			     strlen(PRIVATE_TMP_PREFIX)))
			reclaim_one(base, e->d_name);
	closedir(d);
}

/*
 * One launch's directory, made and locked while the base is locked
 * (shared), so that a sweep, which holds it exclusively, never sees a
 * directory between its mkdir and its lock.
 */
static int make_locked(int base, const char *base_path, char *out,
		       size_t size)
{
	char name[64];
	int fd, i;

	for (i = 0; i < MAKE_TRIES; i++) {
		snprintf(name, sizeof(name), PRIVATE_TMP_PREFIX "%d-%d",
			 (int)getpid(), i);
		if (mkdirat(base, name, 0700) == 0)
			break;
		if (errno != EEXIST)
			die_errno("%s/%s: making the sandbox's temporary "
				  "directory", base_path, name);
	}
	if (i == MAKE_TRIES)
		die("%s: %d names taken; remove what is left in it",
		    base_path, MAKE_TRIES);
	if (snprintf(out, size, "%s/%s", base_path, name) >= (int)size)
		die("%s/%s: path too long", base_path, name);
	fd = openat(base, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (fd < 0)
		die_errno("%s: opening the sandbox's temporary directory", out);
	if (fchmod(fd, 0700) < 0)
		die_errno("%s: chmod 700", out);
	if (flock(fd, LOCK_SH) < 0)
		die_errno("%s: locking the sandbox's temporary directory", out);
	return fd;
}

int private_tmp_make(int base, const char *base_path, char *out,
		     size_t size)
{
	int fd;

	/* Only one launch sweeps at a time; the others only make theirs. */
	if (flock(base, LOCK_EX | LOCK_NB) == 0)
		sweep(base);
	else if (errno != EWOULDBLOCK || flock(base, LOCK_SH) < 0)
		die_errno("%s: locking the private temporary directories' "
			  "base", base_path);
	fd = make_locked(base, base_path, out, size);
	if (flock(base, LOCK_UN) < 0)
		die_errno("%s: unlocking", base_path);
	return fd;
}
