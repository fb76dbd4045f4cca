// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * protected.c - the paths no sandbox may write, whatever the rules say:
 * the shell start-up files, corral's own profile directories, ssh's
 * authorized_keys and the desktop's autostart directory.  Any of them
 * written runs code outside every sandbox later (or widens every later
 * sandbox), so a rule that merely reaches them (rw = ${HOME}) must not
 * hand them over.  Each becomes a deny rule of every write right, which
 * the bpf engine takes as it is (a deny also pins the name) and the
 * Landlock engine emulates (landlock_deny.c).
 *
 * Only where some allow with a write right reaches the path (on it,
 * above it or below it) is the deny added: one no allow reaches is moot,
 * and would cost the Landlock engine its emulation for nothing.  Reach
 * is judged by inode, walking "..", so a bind mount of the home (or a
 * symlink to it) is seen through.  A rule on the command line that
 * names the very file or directory with a write right is a deliberate
 * choice: it is said once on stderr and the path is left to it.
 *
 * A path that does not exist has no inode to key a deny by: a missing
 * ~/.zshrc, or ~/.config/autostart with ~/.config missing too.  Then the
 * first missing name on its way gets a name rule in the directory above
 * it that exists (a deny of making ".zshrc" in ~, or ".config" in ~),
 * when an allow with a write right is on that directory or above it:
 * the bpf engine keys it by the directory and the name
 * (CORRAL_NAME_RULE_INODE), the Landlock engine leaves that directory
 * without the right to make entries (landlock_deny.c).  A name longer
 * than a name rule holds (CORRAL_NAME_LEN) cannot be kept from being
 * made, and the launch says so in one line.
 */
#include "config.h"

#include "protected.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inode_way.h"
#include "util.h"

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif

enum protected_base {
	UNDER_HOME,     /* $HOME/PATH */
	UNDER_CONFIG,   /* $XDG_CONFIG_HOME/PATH and $HOME/.config/PATH */
	ABSOLUTE,
};

static const struct {
	enum protected_base base;
	const char *path;
} protected_paths[] = {
	{ UNDER_HOME, ".bashrc" },
	{ UNDER_HOME, ".bash_profile" },
	{ UNDER_HOME, ".profile" },
	{ UNDER_HOME, ".zshrc" },
	{ UNDER_HOME, ".zprofile" },
	{ UNDER_CONFIG, "fish" },
	{ UNDER_CONFIG, "corral" },
	{ UNDER_CONFIG, "autostart" },
	{ UNDER_HOME, ".ssh/authorized_keys" },
	{ ABSOLUTE, SYSCONFDIR "/corral/profiles" },
};

#define PROTECTED_MAX 16        /* UNDER_CONFIG counts twice */

struct path_set {
	char path[PROTECTED_MAX][PATH_MAX];
	size_t n;
};


/* A rule that may write: where it is, and whether a flag made it. */
struct writer {
	const struct policy_rule *rule;
	struct inode_way way;
};

static void set_add(struct path_set *set, const char *dir, const char *rel)
{
	char *p = set->path[set->n];

	if (!dir || dir[0] != '/' || set->n == PROTECTED_MAX)
		return;
	if ((size_t)snprintf(p, PATH_MAX, "%s%s%s", dir, rel ? "/" : "",
			     rel ? rel : "") >= PATH_MAX)
		return;
	for (size_t i = 0; i < set->n; i++)
		if (!strcmp(set->path[i], p))
			return;
	set->n++;
}

/* The protected paths, expanded for this user; each once. */
static void protected_expand(const struct vars *vars, struct path_set *set)
{
	const char *home = vars->value[VAR_HOME];
	const char *config = vars->value[VAR_XDG_CONFIG_HOME];
	char dot_config[PATH_MAX];

	set->n = 0;
	if (!home || (size_t)snprintf(dot_config, sizeof(dot_config),
				      "%s/.config", home) >= sizeof(dot_config))
		home = NULL;
	for (size_t i = 0; i < sizeof(protected_paths) /
			       sizeof(*protected_paths); i++) {
		const char *rel = protected_paths[i].path;

		switch (protected_paths[i].base) {
		case UNDER_HOME:
			set_add(set, home, rel);
			break;
		case UNDER_CONFIG:
			set_add(set, config, rel);
			set_add(set, home ? dot_config : NULL, rel);
			break;
		default:        /* ABSOLUTE */
			set_add(set, rel, NULL);
			break;
		}
	}
}

/* Is the inode @w starts with on the way @up (itself or above it)? */
static bool way_holds(const struct inode_way *up,
		      const struct inode_way *w)
{
	return inode_way_has(up, w->dev[0], w->ino[0]);
}

static bool same_inode(const struct inode_way *a, const struct inode_way *b)
{
	return a->n && b->n && a->dev[0] == b->dev[0] &&
	       a->ino[0] == b->ino[0];
}

/* A rule from a flag: "--rw on the command line", never a profile's
 * "profile FILE:LINE", whatever FILE is called. */
static bool from_flag(const struct policy_rule *rule)
{
	static const char tail[] = " on the command line";
	size_t n = rule->origin ? strlen(rule->origin) : 0;

	return n > sizeof(tail) && !strncmp(rule->origin, "--", 2) &&
	       !strcmp(rule->origin + n - (sizeof(tail) - 1), tail);
}

/* The allows of @policy with a write right whose path opens. */
static size_t find_writers(const struct policy *policy, struct writer **out)
{
	struct writer *w = NULL;
	size_t n = 0;

	for (size_t i = 0; i < policy->n_rules; i++) {
		const struct policy_rule *rule = &policy->rules[i];
		int fd;

		if (rule->deny || !(rule->access & PROTECTED_RIGHTS))
			continue;
		fd = open(rule->path, O_PATH | O_CLOEXEC);
		if (fd < 0)
			continue;       /* dropped or refused at launch */
		w = xrealloc(w, n + 1, sizeof(*w));
		w[n].rule = rule;
		inode_way_up(fd, &w[n].way);
		close(fd);
		n++;
	}
	*out = w;
	return n;
}

/*
 * Does an allow of @writers reach the path whose way is @pw?  *@named
 * gets the flag that names it exactly, if one does.
 */
static bool reached(const struct inode_way *pw, const struct writer *writers,
		    size_t n, const struct policy_rule **named)
{
	bool reach = false;

	*named = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct inode_way *rw = &writers[i].way;

		if (from_flag(writers[i].rule) && same_inode(rw, pw)) {
			*named = writers[i].rule;
			return true;
		}
		if (!rw->whole || !pw->whole || way_holds(pw, rw) ||
		    way_holds(rw, pw))
			reach = true;
	}
	return reach;
}

/* Is the name rule on @path in @policy already (two paths, one name)? */
static bool name_rule_have(const struct policy *policy, const char *path)
{
	for (size_t i = 0; i < policy->n_rules; i++)
		if (policy->rules[i].name_only &&
		    !strcmp(policy->rules[i].path, path))
			return true;
	return false;
}

/*
 * The missing protected @path: the name rule on its first missing name,
 * in the directory above it that exists, if a writer is on that
 * directory or above it (only a right on the directory itself makes an
 * entry in it).
 */
static void protect_missing(struct policy *policy, const char *path,
			    const struct writer *writers, size_t n)
{
	char dir[PATH_MAX], *slash;
	struct inode_way dw;
	bool reach = false;
	const char *rest;
	size_t k, len;
	int fd = -1;

	snprintf(dir, sizeof(dir), "%s", path);
	while ((slash = strrchr(dir, '/')) && slash != dir) {
		*slash = '\0';
		fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0 || errno != ENOENT)
			break;
	}
	if (fd < 0)
		return;         /* nothing above it opens */
	inode_way_up(fd, &dw);
	close(fd);
	for (size_t i = 0; i < n && !reach; i++)
		reach = !writers[i].way.whole || !dw.whole ||
			way_holds(&dw, &writers[i].way);
	if (!reach)
		return;
	/* the directory, and the first missing name on the way */
	k = strlen(dir);
	rest = path + k + 1;
	len = strcspn(rest, "/");
	if (len >= CORRAL_NAME_LEN) {
		warn_msg("%s: missing, and '%.*s' is too long a name for "
			 "corral to keep this sandbox from making it", path,
			 (int)len, rest);
		return;
	}
	snprintf(dir + k, sizeof(dir) - k, "/%.*s", (int)len, rest);
	if (name_rule_have(policy, dir))
		return;
	policy_add_deny(policy, dir, PROTECTED_RIGHTS, true,
			PROTECTED_ORIGIN);
	policy->rules[policy->n_rules - 1].name_only = true;
}

/*
 * The deny for the protected path @path, unless no writer reaches it, a
 * flag names it, or an earlier path of @seen is the same inode (one
 * directory under two names: $XDG_CONFIG_HOME a symlink to ~/.config).
 */
static void protect_one(struct policy *policy, const char *path,
			const struct writer *writers, size_t n,
			struct inode_way *seen)
{
	const struct policy_rule *named;
	struct inode_way pw;
	int fd = open(path, O_PATH | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT)
		protect_missing(policy, path, writers, n);
	if (fd < 0)
		return;
	inode_way_up(fd, &pw);
	close(fd);
	if (!pw.n || way_holds(seen, &pw) || seen->n == INODE_WAY_MAX)
		return;
	seen->dev[seen->n] = pw.dev[0];
	seen->ino[seen->n++] = pw.ino[0];
	if (!reached(&pw, writers, n, &named))
		return;
	if (named) {
		warn_msg("%s: writable in this sandbox, as %s asks (corral "
			 "protects it otherwise; see corral(1))", path,
			 named->origin);
		return;
	}
	policy_add_deny(policy, path, PROTECTED_RIGHTS, true,
			PROTECTED_ORIGIN);
}

/* Has @policy an allow with a write right? */
static bool may_write(const struct policy *policy)
{
	for (size_t i = 0; i < policy->n_rules; i++)
		if (!policy->rules[i].deny &&
		    (policy->rules[i].access & PROTECTED_RIGHTS))
			return true;
	return false;
}

void protected_add(struct policy *policy, const struct vars *vars)
{
	static struct path_set set;
	struct writer *writers = NULL;
	struct inode_way seen = { .n = 0 };
	size_t n;

	if (!may_write(policy))
		return;         /* nothing may write: no system call */
	n = find_writers(policy, &writers);
	protected_expand(vars, &set);
	for (size_t i = 0; n && i < set.n; i++)
		protect_one(policy, set.path[i], writers, n, &seen);
	free(writers);
}

void protected_list(FILE *out, const struct vars *vars)
{
	static struct path_set set;
	struct stat st;

	protected_expand(vars, &set);
	fprintf(out, "\nNo sandbox may write these unless the command line "
		"names one with a write right\n(corral(1), PROTECTED "
		"PATHS):\n");
	for (size_t i = 0; i < set.n; i++)
		fprintf(out, "  %s%s\n", set.path[i],
			stat(set.path[i], &st) == 0 ? "" :
			" (missing: no sandbox may create it)");
}
