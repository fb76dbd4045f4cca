// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * explain_move.c - `corral explain --op rename|link|exchange A B`: a move
 * judged as Landlock's current_check_refer_path() and the bpf engine's
 * check_refer() judge it (see explain.h).
 *
 * Within one directory only create and remove on it count.  Across
 * directories both sides also need refer, and the entry moved may not
 * gain a right it does not hold where it is (EXDEV), nor, for an
 * exchange, the other one.  A missing create or remove is EACCES, which
 * the kernel returns before EXDEV, so it is said first.  Before either, a
 * deny pins the name of what it is on and of the directories above it
 * inside an allowed tree (EACCES).
 */
#include "config.h"

#include "explain.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/* One end of the move. */
struct end {
	const char *arg;           /* as given */
	char resolved[PATH_MAX];   /* the entry: a last symlink is not
				      followed, rename(2) moves the link */
	bool exists;
	bool is_dir;
	struct explain_node node;  /* its inode, when it exists */
	char dir[PATH_MAX];        /* the directory holding it */
	struct stat dir_st;
	uint64_t mnt;              /* the mount of dir, 0 if unknown */
};

static const char *const kind_names[] = {
	[EXPLAIN_MOVE_RENAME] = "rename",
	[EXPLAIN_MOVE_LINK] = "link",
	[EXPLAIN_MOVE_EXCHANGE] = "exchange",
};

int explain_move_kind(const char *name)
{
	for (size_t k = 0; k < sizeof(kind_names) / sizeof(*kind_names); k++)
		if (!strcmp(kind_names[k], name))
			return (int)k;
	return -1;
}

/* The mount @path is on, or 0 where statx(2) does not tell. */
static uint64_t mount_id(const char *path)
{
	struct statx stx;

	if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_MNT_ID,
		  &stx) < 0 || !(stx.stx_mask & STATX_MNT_ID))
		return 0;
	return stx.stx_mnt_id;
}

static int resolve_end(const char *arg, const char *cwd, int kind,
		       struct end *e)
{
	struct stat st;
	char *slash;
	int r;

	e->arg = arg;
	r = explain_resolve(arg, cwd, false, e->resolved, sizeof(e->resolved),
			    &e->exists);
	if (r < 0)
		return error_errno(r, "explain: %s: cannot resolve the path "
				   "as %s(2) would", arg,
				   kind == EXPLAIN_MOVE_LINK ? "link" :
							       "rename");
	snprintf(e->dir, sizeof(e->dir), "%s", e->resolved);
	slash = strrchr(e->dir, '/');
	slash[slash == e->dir] = '\0';
	if (stat(e->dir, &e->dir_st) < 0)
		return error_errno(-errno, "explain: %s: stat", e->dir);
	e->mnt = mount_id(e->dir);
	if (!e->exists)
		return 0;
	if (lstat(e->resolved, &st) < 0)
		return error_errno(-errno, "explain: %s: lstat", e->resolved);
	e->is_dir = S_ISDIR(st.st_mode);
	e->node.dev = st.st_dev;
	e->node.ino = st.st_ino;
	return 0;
}

static void print_end(FILE *out, const struct end *e)
{
	fputs(e->arg, out);
	if (strcmp(e->arg, e->resolved))
		fprintf(out, " -> %s", e->resolved);
}

static void print_head(FILE *out, bool allowed, int kind,
		       const struct end *a, const struct end *b)
{
	fprintf(out, "%s: %s ", allowed ? "allowed" : "denied",
		kind_names[kind]);
	print_end(out, a);
	fputs(kind == EXPLAIN_MOVE_EXCHANGE ? " with " : " to ", out);
	print_end(out, b);
	fputs(" (", out);
}

/* Is @path strictly beneath directory @dir? */
static bool is_beneath(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && path[n] == '/';
}

/* May the user change directory @e->dir, rules aside? */
static bool dir_writable(const struct end *e)
{
	return access(e->dir, W_OK | X_OK) == 0 || errno != EACCES;
}

/*
 * Why the kernel refuses the move whatever the rules (some of these it
 * checks after asking the sandbox, the result is the same), into @buf,
 * or NULL.
 */
static const char *kernel_refusal(int kind, const struct end *a,
				  const struct end *b, char *buf, size_t size)
{
	const struct end *gone = !a->exists ? a :
		kind == EXPLAIN_MOVE_EXCHANGE && !b->exists ? b : NULL;

	if (gone)
		snprintf(buf, size, "%s does not exist (ENOENT)",
			 gone->resolved);
	else if (kind == EXPLAIN_MOVE_LINK && b->exists)
		snprintf(buf, size, "%s exists (EEXIST)", b->resolved);
	else if (kind == EXPLAIN_MOVE_LINK && a->is_dir)
		snprintf(buf, size, "a directory cannot be hard-linked "
			 "(EPERM)");
	else if (is_beneath(b->resolved, a->resolved))
		snprintf(buf, size, "%s is inside %s (EINVAL)", b->resolved,
			 a->resolved);
	else if (kind != EXPLAIN_MOVE_LINK &&
		 is_beneath(a->resolved, b->resolved))
		snprintf(buf, size, "%s is inside %s (%s)", a->resolved,
			 b->resolved, kind == EXPLAIN_MOVE_EXCHANGE ? "EINVAL" :
							     "ENOTEMPTY");
	else if (a->mnt != b->mnt || a->dir_st.st_dev != b->dir_st.st_dev)
		snprintf(buf, size, "they are on different mounts (EXDEV)");
	else if (kind != EXPLAIN_MOVE_LINK && !dir_writable(a))
		snprintf(buf, size, "the permissions of %s do not let you "
			 "change it", a->dir);
	else if (!dir_writable(b))
		snprintf(buf, size, "the permissions of %s do not let you "
			 "change it", b->dir);
	else
		return NULL;
	return buf;
}

/* An answer for what the kernel refuses first, or -1: on to the rules. */
static int kernel_first(FILE *out, int kind, const struct end *a,
			const struct end *b)
{
	char why[2 * PATH_MAX + 64];

	if (!kernel_refusal(kind, a, b, why, sizeof(why)))
		return -1;
	print_head(out, false, kind, a, b);
	fprintf(out, "%s, whatever the rules)\n", why);
	return EXPLAIN_DENIED;
}

/* ---- both directories -------------------------------------------------- */

/* One denial per directory lacking a right, "; "-separated. */
static void print_lacks(FILE *out, const struct explain_judged *const *j,
			size_t n)
{
	bool first = true;

	for (size_t i = 0; i < n; i++) {
		if (!explain_missing(j[i]))
			continue;
		fputs(first ? "" : "; ", out);
		explain_print_denial(out, j[i], j[i]->path);
		first = false;
	}
}

/*
 * The directories' own rights: EACCES for a missing create or remove,
 * then EXDEV for a missing refer.  Returns EXPLAIN_DENIED after the
 * answer, or EXPLAIN_ALLOWED to go on.
 */
static int judge_dirs(FILE *out, int kind, const struct end *a,
		      const struct end *b,
		      const struct explain_judged *const *j, size_t n)
{
	uint32_t lack = 0;

	for (size_t i = 0; i < n; i++)
		lack |= explain_missing(j[i]);
	if (!lack)
		return EXPLAIN_ALLOWED;
	print_head(out, false, kind, a, b);
	if (!(lack & ~CORRAL_ACCESS_REFER))
		fputs("EXDEV: a move across directories needs refer on "
		      "both; ", out);
	print_lacks(out, j, n);
	fputs(")\n", out);
	return EXPLAIN_DENIED;
}

/* ---- would the entry gain rights? ---------------------------------------- */

struct gain {
	const struct end *e;       /* the entry moved */
	const char *from, *to;     /* its directory now, and then */
	uint32_t rights;           /* what it would gain */
	struct explain_verdict here, there;
	bool root_ruled;           /* a rule on "/" was left out */
};

/*
 * The verdict on @e's entry were it in @dir: its own rule, then the walk
 * from @dir up.  Without @root, "/" is left out: Landlock compares the
 * two sides up to the root of the mount the move is on and then only
 * while going up, so a rule on "/" itself never counts unless that
 * mount is "/"'s (kernel 6.18: --ro / does not let a file on a tmpfs
 * move into a directory granting read).
 */
static int judge_at(const struct explain_rule *rules, size_t n_rules,
		    const struct end *e, const char *dir, bool root,
		    uint32_t need, struct explain_verdict *v)
{
	struct explain_node *nodes, *all;
	ssize_t n = explain_walk(dir, true, &nodes);

	if (n < 0)
		return error_errno((int)n, "explain: %s: stat", dir);
	all = xcalloc((size_t)n + 1, sizeof(*all));
	all[0] = e->node;
	memcpy(all + 1, nodes, (size_t)n * sizeof(*nodes));
	explain_judge(rules, n_rules, all, (size_t)n + root, need, v);
	free(all);
	free(nodes);
	return 0;
}

/* Does a rule name "/"? */
static bool root_has_rule(const struct explain_rule *rules, size_t n_rules)
{
	struct explain_node root;
	struct explain_verdict v;
	struct stat st;

	if (stat("/", &st) < 0)
		return false;
	root.dev = st.st_dev;
	root.ino = st.st_ino;
	explain_judge(rules, n_rules, &root, 1, 0, &v);
	return v.allow || v.deny;
}

static int judge_gain(const struct explain_rule *rules, size_t n_rules,
		      const struct end *e, const char *from, const char *to,
		      bool root, struct gain *g)
{
	g->e = e;
	g->from = from;
	g->to = to;
	g->root_ruled = !root && root_has_rule(rules, n_rules);
	if (judge_at(rules, n_rules, e, from, root, 0, &g->here) < 0 ||
	    judge_at(rules, n_rules, e, to, root, 0, &g->there) < 0)
		return -1;
	g->rights = explain_gained(&g->here, &g->there, e->is_dir);
	if (!g->rights)
		return 0;
	/* again, to name the rules behind the rights gained */
	if (judge_at(rules, n_rules, e, from, root, g->rights, &g->here) < 0 ||
	    judge_at(rules, n_rules, e, to, root, g->rights, &g->there) < 0)
		return -1;
	return 0;
}

/* "EXDEV: the file F would gain RIGHTS from RULE, which DIR lacks; add:
 * ..." (a rule on the entry itself moves with it), or "..., which DENY
 * takes away in DIR" (no allow gives back what a deny takes). */
static void print_gain(FILE *out, const struct gain *g)
{
	char names[128];

	fprintf(out, "EXDEV: the %s %s would gain %s from ",
		g->e->is_dir ? "directory" : "file", g->e->resolved,
		rights_format(g->rights, names, sizeof(names)));
	explain_print_cited(out, g->there.granted, g->there.n_granted, false);
	if (g->here.deny & g->rights) {
		fputs(", which ", out);
		explain_print_cited(out, g->here.denied, g->here.n_denied,
				    true);
		fprintf(out, " takes away in %s", g->from);
		return;
	}
	fprintf(out, ", which %s lacks", g->from);
	if (g->root_ruled)
		fputs(" (a rule on / does not count for a move on another "
		      "mount)", out);
	fputs("; ", out);
	explain_print_hint(out, g->rights, g->e->resolved);
}

/* ---- a deny pins the name ---------------------------------------------- */

static bool same_node(const struct explain_node *x,
		      const struct explain_node *y)
{
	return x->dev == y->dev && x->ino == y->ino;
}

static bool allow_on(const struct explain_rule *rules, size_t n_rules,
		     const struct explain_node *node)
{
	for (size_t i = 0; i < n_rules; i++)
		if (rules[i].allow && rules[i].dev == node->dev &&
		    rules[i].ino == node->ino)
			return true;
	return false;
}

/* Does the deny @d pin @e: on it, or on a path through it with an allow
 * on a directory above it (sandbox/deny_pins.c)? */
static bool pins(const struct explain_rule *rules, size_t n_rules,
		 const struct explain_rule *d, const struct end *e,
		 const char *cwd)
{
	char path[PATH_MAX];
	struct explain_node *nodes;
	bool exists, found = false, pinned = false;
	ssize_t n;

	if (explain_resolve(d->src->path, cwd, false, path, sizeof(path),
			    &exists) < 0 || !exists)
		return false;
	n = explain_walk(path, true, &nodes);
	if (n <= 0)
		return false;
	if (same_node(&nodes[0], &e->node))
		pinned = true;
	for (ssize_t i = 1; i < n && !pinned; i++) {
		if (found && allow_on(rules, n_rules, &nodes[i]))
			pinned = true;
		found = found || same_node(&nodes[i], &e->node);
	}
	free(nodes);
	return pinned;
}

/* The deny rule that pins @e's name, or NULL. */
static const struct explain_rule *pinned_by(const struct explain_rule *rules,
					    size_t n_rules,
					    const struct end *e,
					    const char *cwd)
{
	if (!e->exists)
		return NULL;
	for (size_t i = 0; i < n_rules; i++)
		if (rules[i].deny && pins(rules, n_rules, &rules[i], e, cwd))
			return &rules[i];
	return NULL;
}

/* EACCES when the move would take a pinned name away, or -1. */
static int pin_first(FILE *out, const struct explain_rule *rules,
		     size_t n_rules, int kind, const struct end *a,
		     const struct end *b, const char *cwd)
{
	const struct end *e = a;
	const struct explain_rule *d;

	if (kind == EXPLAIN_MOVE_LINK)
		return -1;
	d = pinned_by(rules, n_rules, a, cwd);
	if (!d) {
		e = b;
		d = pinned_by(rules, n_rules, b, cwd);
	}
	if (!d)
		return -1;
	print_head(out, false, kind, a, b);
	fprintf(out, "a deny pins the name %s: ", e->resolved);
	explain_print_cited(out, &d, 1, true);
	fputs(")\n", out);
	return EXPLAIN_DENIED;
}

/* ---- the answer -------------------------------------------------------- */

static int judge_one_dir(FILE *out, const struct explain_rule *rules,
			 size_t n_rules, int kind, const struct end *a,
			 const struct end *b, uint32_t need)
{
	struct explain_judged j;
	const struct explain_judged *list[] = { &j };

	if (explain_judge_path(rules, n_rules, a->dir, true, need, &j) < 0)
		return CORRAL_EXIT_FAILURE;
	if (judge_dirs(out, kind, a, b, list, 1) == EXPLAIN_DENIED)
		return EXPLAIN_DENIED;
	print_head(out, true, kind, a, b);
	fprintf(out, "within %s, no refer needed: ", a->dir);
	explain_print_cited(out, j.v.granted, j.v.n_granted, false);
	fputs(")\n", out);
	return EXPLAIN_ALLOWED;
}

static void print_allowed(FILE *out, int kind, const struct end *a,
			  const struct end *b,
			  const struct explain_judged *const *j)
{
	bool swap = kind == EXPLAIN_MOVE_EXCHANGE;

	print_head(out, true, kind, a, b);
	fprintf(out, "%s %s: ", swap ? "in" : "from", a->dir);
	explain_print_cited(out, j[0]->v.granted, j[0]->v.n_granted, false);
	fprintf(out, "; %s %s: ", swap ? "in" : "into", b->dir);
	explain_print_cited(out, j[1]->v.granted, j[1]->v.n_granted, false);
	fputs(swap ? "; neither gains a right)\n" : "; it gains no right)\n",
	      out);
}

static int judge_across(FILE *out, const struct explain_rule *rules,
			size_t n_rules, int kind, const struct end *a,
			const struct end *b, uint32_t src, uint32_t dst)
{
	struct explain_judged js, jd;
	const struct explain_judged *list[] = { &js, &jd };
	bool root = !a->mnt || a->mnt == mount_id("/");
	struct gain g;
	int r;

	if (explain_judge_path(rules, n_rules, a->dir, true, src, &js) < 0 ||
	    explain_judge_path(rules, n_rules, b->dir, true, dst, &jd) < 0)
		return CORRAL_EXIT_FAILURE;
	if (judge_dirs(out, kind, a, b, list, 2) == EXPLAIN_DENIED)
		return EXPLAIN_DENIED;
	r = judge_gain(rules, n_rules, a, a->dir, b->dir, root, &g);
	if (r == 0 && !g.rights && kind == EXPLAIN_MOVE_EXCHANGE)
		r = judge_gain(rules, n_rules, b, b->dir, a->dir, root, &g);
	if (r < 0)
		return CORRAL_EXIT_FAILURE;
	if (!g.rights) {
		print_allowed(out, kind, a, b, list);
		return EXPLAIN_ALLOWED;
	}
	print_head(out, false, kind, a, b);
	print_gain(out, &g);
	fputs(")\n", out);
	return EXPLAIN_DENIED;
}

int explain_move(FILE *out, const struct explain_rule *rules, size_t n_rules,
		 int kind, const char *a_arg, const char *b_arg,
		 const char *cwd)
{
	static struct end a, b;
	uint32_t src, dst;
	bool same;
	int r;

	if (resolve_end(a_arg, cwd, kind, &a) < 0 ||
	    resolve_end(b_arg, cwd, kind, &b) < 0)
		return CORRAL_EXIT_FAILURE;
	r = kernel_first(out, kind, &a, &b);
	if (r < 0)
		r = pin_first(out, rules, n_rules, kind, &a, &b, cwd);
	if (r >= 0)
		return r;
	same = a.dir_st.st_dev == b.dir_st.st_dev &&
	       a.dir_st.st_ino == b.dir_st.st_ino;
	explain_move_needs(kind, b.exists, same, &src, &dst);
	if (same)
		return judge_one_dir(out, rules, n_rules, kind, &a, &b,
				     src | dst);
	return judge_across(out, rules, n_rules, kind, &a, &b, src, dst);
}
