// SPDX-License-Identifier: GPL-2.0-or-later
/* inode_way.c - see inode_way.h */
#include "config.h"

#include "inode_way.h"

#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static bool way_push(struct inode_way *w, const struct stat *st)
{
	if (w->n && w->dev[w->n - 1] == st->st_dev &&
	    w->ino[w->n - 1] == st->st_ino)
		return false;   /* ".." of "/" is "/" */
	w->dev[w->n] = st->st_dev;
	w->ino[w->n] = st->st_ino;
	w->n++;
	return true;
}

/* The directory a non-directory @fd was opened in, by its name. */
static int parent_of(int fd)
{
	char path[PATH_MAX];
	char *slash;

	if (fd_name(fd, path, sizeof(path))[0] != '/')
		return -1;
	slash = strrchr(path, '/');
	slash[slash == path] = '\0';
	return open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

void inode_way_up(int fd, struct inode_way *w)
{
	struct stat st;
	int dir;

	w->n = 0;
	w->whole = false;
	if (fstat(fd, &st) < 0)
		return;
	way_push(w, &st);
	dir = S_ISDIR(st.st_mode) ? openat(fd, "..", O_PATH | O_CLOEXEC) :
				    parent_of(fd);
	while (dir >= 0 && w->n < INODE_WAY_MAX && fstat(dir, &st) == 0) {
		int up;

		if (!way_push(w, &st)) {
			w->whole = true;
			break;
		}
		up = openat(dir, "..", O_PATH | O_CLOEXEC);
		close(dir);
		dir = up;
	}
	if (dir >= 0)
		close(dir);
}

bool inode_way_has(const struct inode_way *w, dev_t dev, ino_t ino)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->dev[i] == dev && w->ino[i] == ino)
			return true;
	return false;
}
