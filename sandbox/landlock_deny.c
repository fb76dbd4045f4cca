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
 * made in them after the launch are covered by no rule, nor is a file
 * beside the way with other hard links (a file rule follows the inode,
 * to every link, and one may be inside a deny).  It never grants
 * more than asked: a rule is only ever given a subset of the rights of an
 * allow above it.
 *
 * Which allows reach a deny is judged by inode, along every way to it
 * (one per mount of its filesystem that shows it): a deny no allow
 * reaches is moot and left out, whatever is mounted where.  The
 * expansion itself compares paths as strings, which is exact only where
 * no other way to the denied inode passes an inode that gets a denied
 * right: deny_judge() refuses, in one line naming the cause, a deny on a
 * file with other hard links, an allow that is such a file, an allow
 * named through another mount point than the deny, and another mount of
 * the deny's filesystem inside an allow with a denied right (its mount
 * point would get that right, or be beside the way down).  So does more
 * than LANDLOCK_DENY_MAX_RULES expanded rules.
 */
#include "config.h"

#include "landlock_deny.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "corral_abi.h"
#include "inode_way.h"
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
	} else if (!S_ISDIR(st.st_mode) && st.st_nlink > 1) {
		r = 0;          /* a rule would reach every link of it, and
				 * one may be a denied file: it goes without */
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

/*
 * Which allows reach a deny is judged by inode, not by path: Landlock
 * looks, for an access, at the inode and every directory above it on
 * the path used, crossing mount points upward (a mount point itself is
 * skipped), which is what a walk by ".." sees.  A filesystem mounted
 * more than once gives an inode one such way per mount that shows it.
 */
#define WAYS_MAX 16             /* mounts that show one inode, at most */
#define PIN CORRAL_ACCESS_REMOVE        /* above a deny: its name */

/* An inode and the directories above it up to "/", by one path. */
struct walk {
	struct inode_way up;
	char mount[PATH_MAX];   /* the mount point it goes through */
};

/* [0]: by the rule's own path; then one by each other mount. */
struct ways {
	struct walk w[WAYS_MAX];
	size_t n;
	bool known;             /* false: ways_to() failed */
	char name[PATH_MAX];
	struct stat st;
};

/* The ways of each rule, each found once per launch when first needed
 * (a struct ways is large, but only the pages a walk writes are used). */
struct ways_cache {
	const struct opened_rule *rules;
	size_t n;
	struct ways **ways;
};

struct mount_line {
	int id;
	unsigned int major, minor;
	char root[PATH_MAX];    /* what of its filesystem it shows */
	char point[PATH_MAX];
};

/* Fills @w for @fd; 0 if the walk reached "/", else -1. */
static int walk_up(int fd, struct walk *w)
{
	inode_way_up(fd, &w->up);
	return w->up.whole ? 0 : -1;
}

/* Where on @w, from @from on, the inode @st is (0: it starts there). */
static long walk_find(const struct walk *w, size_t from,
		      const struct stat *st)
{
	for (size_t k = from; k < w->up.n; k++)
		if (w->up.dev[k] == st->st_dev && w->up.ino[k] == st->st_ino)
			return (long)k;
	return -1;
}

/* Where the way @w leaves the way @c: the first inode not on both. */
static size_t fork_at(const struct walk *w, const struct walk *c)
{
	size_t k = 0;

	while (k < w->up.n && k < c->up.n && w->up.dev[k] == c->up.dev[k] &&
	       w->up.ino[k] == c->up.ino[k])
		k++;
	return k;
}

/* mountinfo writes ' ', '\t', '\n' and '\\' as \ooo. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++, o++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
				    (s[3] - '0'));
			s += 3;
		} else {
			*o = *s;
		}
	}
	*o = '\0';
}

static bool mount_parse(const char *line, struct mount_line *m)
{
	if (sscanf(line, "%d %*d %u:%u %4095s %4095s", &m->id, &m->major,
		   &m->minor, m->root, m->point) != 5)
		return false;
	unescape(m->root);
	unescape(m->point);
	return true;
}

/* The mount @fd was opened through, from /proc/self/fdinfo; -1 if unknown. */
static int mount_id_of(int fd)
{
	char path[64], line[256];
	int id = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "mnt_id: %d", &id) == 1)
			break;
	fclose(f);
	return id;
}

/* The way to @ws's inode through the mount @m, if it shows it. */
static int way_through(struct ways *ws, const struct mount_line *m,
		       const char *fs_path)
{
	const char *rest = fs_path + (strcmp(m->root, "/") ? strlen(m->root) : 0);
	char path[PATH_MAX];
	struct walk *w = &ws->w[ws->n];
	struct stat st;
	int fd, r;

	if ((size_t)snprintf(path, sizeof(path), "%s%s",
			     strcmp(m->point, "/") ? m->point : "",
			     rest[0] ? rest : "/") >= sizeof(path))
		return -1;
	fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;       /* covered over: no way by a path */
	if (fstat(fd, &st) < 0 || st.st_dev != ws->st.st_dev ||
	    st.st_ino != ws->st.st_ino) {
		close(fd);
		return 0;       /* another mount hides it there */
	}
	if (ws->n == WAYS_MAX) {
		close(fd);
		return -1;
	}
	snprintf(w->mount, sizeof(w->mount), "%s", m->point);
	r = walk_up(fd, w);
	close(fd);
	ws->n += r == 0;
	return r;
}

/* @ws->name's path in its filesystem, from the mount @self it is on. */
static int fs_path_of(const struct ways *ws, const struct mount_line *self,
		      char *out, size_t size)
{
	const char *rest = ws->name;
	size_t n = strlen(self->point);

	if (strcmp(self->point, "/")) {
		if (strncmp(rest, self->point, n) ||
		    (rest[n] && rest[n] != '/'))
			return -1;
		rest += n;
	}
	if ((size_t)snprintf(out, size, "%s%s",
			     strcmp(self->root, "/") ? self->root : "",
			     rest) >= size)
		return -1;
	if (!out[0])
		snprintf(out, size, "/");
	return 0;
}

/* The other mounts of the filesystem of @self that show @fs_path. */
static int ways_other(struct ways *ws, FILE *f, const struct mount_line *self,
		      const char *fs_path)
{
	_cleanup_free_ char *line = NULL;
	struct mount_line m;
	size_t size = 0;
	int r = 0;

	rewind(f);
	while (!r && getline(&line, &size, f) > 0)
		if (mount_parse(line, &m) && m.id != self->id &&
		    m.major == self->major && m.minor == self->minor &&
		    path_is_under(fs_path, m.root))
			r = way_through(ws, &m, fs_path);
	return r;
}

/* Fills @ws with every way to the inode of @fd; -1 if one is unknown. */
static int ways_to(int fd, struct ways *ws)
{
	_cleanup_free_ char *line = NULL;
	char fs_path[PATH_MAX];
	struct mount_line self;
	size_t size = 0;
	int id = mount_id_of(fd), r = -1;
	FILE *f;

	ws->n = 0;
	if (fstat(fd, &ws->st) < 0 ||
	    fd_name(fd, ws->name, sizeof(ws->name))[0] != '/' ||
	    walk_up(fd, &ws->w[0]) < 0)
		return -1;
	ws->w[0].mount[0] = '\0';
	ws->n = 1;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -1;
	while (getline(&line, &size, f) > 0)
		if (mount_parse(line, &self) && self.id == id) {
			r = 0;
			break;
		}
	if (!r)
		r = fs_path_of(ws, &self, fs_path, sizeof(fs_path));
	if (!r)
		r = ways_other(ws, f, &self, fs_path);
	fclose(f);
	return r;
}

/* The ways to the rule @i, found on first use. */
static const struct ways *ways_of(struct ways_cache *c, size_t i)
{
	struct ways *ws = c->ways[i];

	if (!ws) {
		ws = c->ways[i] = xmalloc(sizeof(*ws));
		ws->known = ways_to(c->rules[i].fd, ws) == 0;
		if (!ws->known)
			fd_name(c->rules[i].fd, ws->name, sizeof(ws->name));
	}
	return ws;
}

static void cache_init(struct ways_cache *c, const struct opened_rule *rules,
		       size_t n)
{
	c->rules = rules;
	c->n = n;
	c->ways = xcalloc(n ? n : 1, sizeof(*c->ways));
}

static void cache_free(struct ways_cache *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->ways[i]);
	free(c->ways);
}

/* One deny weighed against the allows. */
struct judge {
	const struct opened_rule *deny;
	const struct ways *dw;  /* the ways to the deny */
	struct ways_cache *cache;
	char *why;
	size_t size;
};

static int PRINTF(2, 3) refuse(struct judge *j, const char *fmt, ...)
{
	int n = snprintf(j->why, j->size, "%s: a deny Landlock cannot "
			 "honour here: ", j->dw->name);
	va_list ap;

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < j->size)
		vsnprintf(j->why + n, j->size - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* An allow on a way to the deny (on it or above it): does it reach it? */
static int judge_above(struct judge *j, const struct opened_rule *a,
		       const char *name, const struct stat *st)
{
	const struct ways *dw = j->dw;
	int r = 0;

	/* [0]: the way the deny was named by; the others from their fork */
	for (size_t i = 0; i < dw->n; i++) {
		long k = walk_find(&dw->w[i], i ? fork_at(&dw->w[i], &dw->w[0]) :
					      0, st);
		uint32_t takes = j->deny->deny | (k > 0 ? PIN : 0);

		if (k < 0 || !(a->access & takes))
			continue;
		if (i)
			return refuse(j, "the same filesystem is also mounted "
				      "at %s, inside the allow on %s; use the "
				      "bpf engine or drop that mount",
				      dw->w[i].mount, name);
		if (!path_is_under(dw->name, name))
			return refuse(j, "the allow on %s reaches it through "
				      "another mount point; use the bpf "
				      "engine or name it by the deny's path",
				      name);
		r = 1;
	}
	return r;
}

/* An allow below the deny, where the deny wins: is it there? */
static int judge_below(struct judge *j, const struct opened_rule *a,
		       const char *name)
{
	const struct ways *aw = ways_of(j->cache, (size_t)(a - j->cache->rules));
	int r = 0;

	if (!aw->known)
		return refuse(j, "cannot tell every way to the allow on %s "
			      "(more than %d other mounts show it, or a "
			      "directory above it cannot be walked); use the "
			      "bpf engine",
			      name, WAYS_MAX - 1);
	for (size_t i = 0; i < aw->n; i++) {
		long k = walk_find(&aw->w[i], i ? fork_at(&aw->w[i], &aw->w[0]) :
					      1, &j->dw->st);

		if (k <= 0)
			continue;
		if (i)
			return refuse(j, "the allow on %s is also mounted at "
				      "%s, inside it; use the bpf engine or "
				      "drop that mount", name, aw->w[i].mount);
		if (!path_is_under(name, j->dw->name))
			return refuse(j, "the allow on %s lies inside it "
				      "through another mount point; use the "
				      "bpf engine or name it by the deny's "
				      "path", name);
		r = 1;
	}
	return r;
}

/* Does the allow @a reach the deny, can Landlock weigh it (-1: no)? */
static int judge_allow(struct judge *j, const struct opened_rule *a)
{
	const struct stat *dst = &j->dw->st;
	bool takes = a->access & j->deny->deny;
	char name[PATH_MAX];
	struct stat st;
	int r;

	if (fstat(a->fd, &st) < 0)
		return refuse(j, "fstat of the allow on %s: %s",
			      fd_name(a->fd, name, sizeof(name)),
			      strerror(errno));
	fd_name(a->fd, name, sizeof(name));
	if (takes && !S_ISDIR(dst->st_mode) && dst->st_nlink > 1)
		return refuse(j, "the file has %ju hard links, and an allow "
			      "may reach another of them; use the bpf engine",
			      (uintmax_t)dst->st_nlink);
	if (takes && !S_ISDIR(st.st_mode) && st.st_nlink > 1 &&
	    S_ISDIR(dst->st_mode))
		return refuse(j, "the allow on %s is a file with %ju hard "
			      "links, and one may be inside it; use the bpf "
			      "engine", name, (uintmax_t)st.st_nlink);
	r = judge_above(j, a, name, &st);
	if (!r && takes)
		r = judge_below(j, a, name);
	return r;
}

/*
 * 0: no allow reaches the deny @i, which is moot; 1: some does, and
 * allowing what is around it is exact; -1: it is not (@why says why).
 */
static int deny_judge(struct ways_cache *c, size_t i, char *why, size_t size)
{
	const struct opened_rule *d = &c->rules[i];
	struct judge j = { .deny = d, .dw = ways_of(c, i), .cache = c,
			   .why = why, .size = size };
	int r = 0;

	if (!j.dw->known)
		return refuse(&j, "cannot tell every way to it (more than "
			      "%d other mounts show it, or a directory above "
			      "it cannot be walked); use the bpf engine",
			      WAYS_MAX - 1);
	for (size_t k = 0; k < c->n && r >= 0; k++) {
		int a;

		if (c->rules[k].deny ||
		    !(c->rules[k].access & (d->deny | PIN)))
			continue;
		a = judge_allow(&j, &c->rules[k]);
		r = a < 0 ? a : r | a;
	}
	return r;
}

int landlock_deny_check(const struct opened_rule *rules, size_t n,
			char *why, size_t size)
{
	struct ways_cache c;
	int r = 0;

	cache_init(&c, rules, n);
	for (size_t i = 0; i < n && r >= 0; i++) {
		int d;

		if (!rules[i].deny)
			continue;
		d = deny_judge(&c, i, why, size);
		r = d < 0 ? d : r | d;
	}
	cache_free(&c);
	return r;
}

/* The denies some allow reaches; the others are moot and left out. */
static int collect_denies(const struct opened_rule *rules, size_t n,
			  struct deny_path *denies, size_t *n_denies)
{
	char why[2 * PATH_MAX + 256];
	struct ways_cache c;
	int r = 0;

	*n_denies = 0;
	cache_init(&c, rules, n);
	for (size_t i = 0; i < n && r >= 0; i++) {
		struct deny_path *d = &denies[*n_denies];

		if (!rules[i].deny)
			continue;
		r = deny_judge(&c, i, why, sizeof(why));
		if (r <= 0)
			continue;
		fd_name(rules[i].fd, d->path, sizeof(d->path));
		/* a name rule: the name is missing, so what is around it
		 * (every entry of the directory) keeps its rights and the
		 * directory, on the way down to it, gets none to make one */
		if (rules[i].name &&
		    snprintf(d->path + strlen(d->path),
			     sizeof(d->path) - strlen(d->path), "/%s",
			     rules[i].name) >= (int)sizeof(d->path)) {
			r = -1;
			snprintf(why, sizeof(why), "%s/%s: too long a path",
				 d->path, rules[i].name);
			continue;
		}
		d->mask = rules[i].deny;
		(*n_denies)++;
	}
	cache_free(&c);
	if (r < 0) {
		warn_msg("%s", why);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* One allow: what no deny below takes stays on it, the rest goes around. */
static int expand_allow(struct expansion *x, const struct opened_rule *rule)
{
	char path[PATH_MAX];
	uint32_t access = rule->access, below;
	struct stat st;

	fd_name(rule->fd, path, sizeof(path));  /* deny_judge: no other */
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
