// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * deny_pins.c - a deny pins the name of what it protects.
 *
 * A deny is keyed by inode: with `--rw BOX --deny write:BOX/a/prot` the
 * sandbox could rename BOX/a (or prot) aside and make a new a/prot of
 * its own, which the user's next git or make would then trust.  So the
 * names on the way down to a deny may not be removed, renamed away or
 * replaced: the bpf engine refuses it on entries that carry a deny, and
 * on the directories this file lists (DESIGN.md section 2).  Only the
 * directories the sandbox could move need listing: those strictly below
 * a directory an allow is on.  Above that no rule grants the remove on
 * their parent, so they cannot move anyway, and each pin listed is one
 * more rule of the domain.
 *
 * The way up is followed with "..", as the kernel's walk goes (d_parent,
 * and at a mount root on from the mount point); the way up from a denied
 * file starts at the directory its path names.
 */
#include "config.h"

#include "deny_pins.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "corral_abi.h"
#include "util.h"

struct way_up {
	int fd[CORRAL_MAX_DEPTH];
	dev_t dev[CORRAL_MAX_DEPTH];
	ino_t ino[CORRAL_MAX_DEPTH];
	size_t n;
};

/* The directory @fd (O_PATH) is in: "..", or for a file its path's. */
static int open_parent(int fd, const struct stat *st)
{
	char path[PATH_MAX], *slash;

	if (S_ISDIR(st->st_mode))
		return openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd_name(fd, path, sizeof(path))[0] != '/') {
		errno = ENOENT;
		return -1;
	}
	slash = strrchr(path, '/');
	if (slash == path)
		slash++;        /* a file in / */
	*slash = '\0';
	return open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

static void way_close(struct way_up *w)
{
	for (size_t i = 0; i < w->n; i++)
		close(w->fd[i]);
	w->n = 0;
}

/*
 * A name rule's directory @fd itself, first on the way: the sandbox
 * must not move it aside and make one of that name without the rule.
 */
static int way_start(struct way_up *w, int fd)
{
	struct stat st;
	char name[PATH_MAX];
	int dup = fcntl(fd, F_DUPFD_CLOEXEC, 0);

	if (dup < 0 || fstat(dup, &st) < 0) {
		int err = -errno;

		if (dup >= 0)
			close(dup);
		return error_errno(err, "%s: to pin the directory of a "
				   "protected name",
				   fd_name(fd, name, sizeof(name)));
	}
	w->fd[0] = dup;
	w->dev[0] = st.st_dev;
	w->ino[0] = st.st_ino;
	w->n = 1;
	return 0;
}

/* Every directory from the one holding @fd up to the root, into @w. */
static int way_collect(struct way_up *w, int fd)
{
	struct stat st;
	char name[PATH_MAX];

	if (fstat(fd, &st) < 0)
		return error_errno(-errno, "%s: fstat, to pin its name",
				   fd_name(fd, name, sizeof(name)));
	while (w->n < CORRAL_MAX_DEPTH) {
		int up = open_parent(fd, &st);
		struct stat ust;

		if (up < 0 || fstat(up, &ust) < 0) {
			int err = -errno;

			if (up >= 0)
				close(up);
			return error_errno(err, "%s: opening the directory "
					   "above it, to pin the name a deny "
					   "protects",
					   fd_name(fd, name, sizeof(name)));
		}
		if (ust.st_dev == st.st_dev && ust.st_ino == st.st_ino) {
			close(up);      /* ".." of the root is the root */
			return 0;
		}
		w->fd[w->n] = up;
		w->dev[w->n] = ust.st_dev;
		w->ino[w->n] = ust.st_ino;
		w->n++;
		fd = up;
		st = ust;
	}
	return error_errno(-ELOOP, "%s: more than %d directories above a "
			   "deny", fd_name(fd, name, sizeof(name)),
			   CORRAL_MAX_DEPTH);
}

/* Directories by (dev, ino): the allows' (fstat once a launch, not once
 * a directory above each deny), and the pins made so far. */
struct nodes {
	dev_t *dev;
	ino_t *ino;
	size_t n;
};

static bool nodes_have(const struct nodes *s, dev_t dev, ino_t ino)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->dev[i] == dev && s->ino[i] == ino)
			return true;
	return false;
}

static void nodes_add(struct nodes *s, dev_t dev, ino_t ino)
{
	s->dev[s->n] = dev;
	s->ino[s->n++] = ino;
}

/* @cap entries at most; free with nodes_free(). */
static void nodes_init(struct nodes *s, size_t cap)
{
	s->dev = xcalloc(cap ? cap : 1, sizeof(*s->dev));
	s->ino = xcalloc(cap ? cap : 1, sizeof(*s->ino));
	s->n = 0;
}

static void nodes_free(struct nodes *s)
{
	free(s->dev);
	free(s->ino);
}

static int pin_way(const struct nodes *allows, struct way_up *w,
		   struct nodes *done, deny_pin_fn *pin, void *ctx)
{
	bool allowed_above = false;

	for (size_t i = w->n; i-- > 0;) {
		if (allowed_above && !nodes_have(done, w->dev[i], w->ino[i])) {
			int r = pin(ctx, w->fd[i]);

			if (r < 0)
				return r;
			nodes_add(done, w->dev[i], w->ino[i]);
		}
		allowed_above = allowed_above ||
				nodes_have(allows, w->dev[i], w->ino[i]);
	}
	return 0;
}

int deny_pins(const struct opened_rule *rules, size_t n, deny_pin_fn *pin,
	      void *ctx)
{
	static struct way_up way;
	struct nodes allows, done;
	size_t n_denies = 0;
	struct stat st;
	int r = 0;

	nodes_init(&allows, n);
	for (size_t i = 0; i < n; i++) {
		n_denies += rules[i].deny != 0;
		if (rules[i].access && fstat(rules[i].fd, &st) == 0)
			nodes_add(&allows, st.st_dev, st.st_ino);
	}
	/* each deny pins at most the CORRAL_MAX_DEPTH directories above it */
	nodes_init(&done, n_denies * CORRAL_MAX_DEPTH);
	for (size_t i = 0; !r && i < n; i++) {
		if (!rules[i].deny)
			continue;
		way.n = 0;
		if (rules[i].name)
			r = way_start(&way, rules[i].fd);
		if (!r)
			r = way_collect(&way, way.n ? way.fd[0] : rules[i].fd);
		if (!r)
			r = pin_way(&allows, &way, &done, pin, ctx);
		way_close(&way);
	}
	nodes_free(&allows);
	nodes_free(&done);
	return r;
}
