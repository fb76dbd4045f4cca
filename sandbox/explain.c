// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * explain.c - `corral explain`: see explain.h.  Runs in the parser child
 * (under its seccomp allowlist: stat, readlink, open and read are all it
 * needs, and statx for the mount of a move) once the profiles are
 * merged, and sends the launcher nothing.
 */
#include "config.h"

#include "explain.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "netrule.h"
#include "parser_child.h"
#include "profile.h"
#include "util.h"

/* binfmt_script and binfmt_elf nest at most this deep (the kernel's
 * BINPRM_MAX_RECURSION is 4, plus the file itself). */
#define EXPLAIN_MAX_EXEC 5

struct explain_op {
	const char *name;
	uint32_t need;      /* the rights judged (read on a directory:
			       readdir, as open(2) of one lists it) */
	bool on_parent;     /* judged on the directory holding the entry */
	bool follow;        /* a symlink last in the path is followed */
	int dac;            /* access(2) the user needs anyway, or 0 */
};

/* The rights each operation needs, as corral.1 and README.md state
 * them: exec opens the file for reading too. */
static const struct explain_op file_ops[] = {
	{ "read", CORRAL_ACCESS_READ, false, true, R_OK },
	{ "write", CORRAL_ACCESS_WRITE, false, true, W_OK },
	{ "exec", CORRAL_ACCESS_READ | CORRAL_ACCESS_EXEC, false, true, X_OK },
	{ "readdir", CORRAL_ACCESS_READDIR, false, true, R_OK },
	{ "create", CORRAL_ACCESS_CREATE, true, false, W_OK | X_OK },
	{ "remove", CORRAL_ACCESS_REMOVE, true, false, W_OK | X_OK },
	{ "truncate", CORRAL_ACCESS_TRUNCATE, false, true, W_OK },
	{ "ioctl", CORRAL_ACCESS_IOCTL, false, true, 0 },
	{ "refer", CORRAL_ACCESS_REFER, true, false, W_OK | X_OK },
	/* a named socket made outside the sandbox; one of its own is free */
	{ "connect-unix", CORRAL_ACCESS_CONNECT_UNIX, false, true, W_OK },
};

#define OP_NAMES "read, write, exec, readdir, create, remove, truncate, " \
		 "ioctl, refer, connect-unix, rename, link, exchange, " \
		 "connect-tcp, " \
		 "bind-tcp, connect-udp, bind-udp"

/* The rights @rule takes away (deny rules); the judge subtracts them and
 * names the rule that took a right away. */
static uint32_t rule_deny(const struct policy_rule *rule)
{
	return rule->deny;
}

/* ---- the rules as the launcher gets them -------------------------------- */

static size_t open_rules(const struct policy *policy,
			 struct explain_rule *rules)
{
	size_t n = 0;

	for (size_t i = 0; i < policy->n_rules; i++) {
		struct explain_rule *r = &rules[n];
		struct stat st;
		int fd;

		if (!parser_open_rule(&policy->rules[i], &fd, &r->allow))
			continue;
		if (fstat(fd, &st) < 0)
			die_errno("%s: fstat (%s)", policy->rules[i].path,
				  policy->rules[i].origin);
		close(fd);
		r->dev = st.st_dev;
		r->ino = st.st_ino;
		r->deny = rule_deny(&policy->rules[i]);
		r->src = &policy->rules[i];
		n++;
	}
	return n;
}

/* ---- one object judged ----------------------------------------------------- */

int explain_judge_path(const struct explain_rule *rules, size_t n_rules,
		       const char *path, bool exists, uint32_t need,
		       struct explain_judged *j)
{
	struct explain_node *nodes;
	ssize_t n = explain_walk(path, exists, &nodes);

	if (n < 0)
		return error_errno((int)n, "explain: %s: stat", path);
	j->path = path;
	j->need = need;
	explain_judge(rules, n_rules, nodes, (size_t)n, need, &j->v);
	free(nodes);
	return 0;
}

uint32_t explain_missing(const struct explain_judged *j)
{
	return j->need & ~(j->v.allow & ~j->v.deny);
}

void explain_print_cited(FILE *out, const struct explain_rule *const *list,
			 size_t n, bool deny)
{
	char text[PATH_MAX + 256];

	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? "; " : "",
			explain_rule_text(list[i]->src,
					  deny ? list[i]->deny : 0, text,
					  sizeof(text)));
}

/* "add: --allow write:/etc/passwd or 'write = /etc/passwd' in
 * [filesystem]": the missing rights, on the object itself (the smallest
 * rule), or its directory when it does not exist yet. */
void explain_print_hint(FILE *out, uint32_t rights, const char *where)
{
	char names[128], key[128];
	_cleanup_free_ char *value = profile_quote("", where, false);

	fprintf(out, "add: --allow %s:%s or '%s = %s' in [filesystem]",
		rights_format(rights, names, sizeof(names)), where,
		profile_rights_key(rights, key, sizeof(key)), value);
}

/* Why @j is denied, inside the parentheses of the answer. */
void explain_print_denial(FILE *out, const struct explain_judged *j,
			  const char *where)
{
	uint32_t lack = explain_missing(j), ungranted = j->need & ~j->v.allow;
	char names[128];

	if (ungranted) {
		fprintf(out, "no rule grants %s on %s or a directory above "
			"it; ", rights_format(ungranted, names, sizeof(names)),
			j->path);
		/* an allow beneath a deny is taken away too: say so first */
		if (ungranted & j->v.deny) {
			explain_print_cited(out, j->v.denied, j->v.n_denied,
					    true);
			fputs(" would take it away: narrow that first, then ",
			      out);
		}
		explain_print_hint(out, ungranted, where);
		return;
	}
	fprintf(out, "%s granted by ", rights_format(lack, names,
						     sizeof(names)));
	explain_print_cited(out, j->v.granted, j->v.n_granted, false);
	fputs(" is taken away by ", out);
	explain_print_cited(out, j->v.denied, j->v.n_denied, true);
}

/* ---- the command --------------------------------------------------------------- */

struct target {
	const char *arg;           /* as given */
	char resolved[PATH_MAX];   /* as open(2) would reach it */
	bool exists;
	char object[PATH_MAX];     /* what is judged: it, or its directory */
	bool is_dir;
	bool is_dev;
};

static const struct explain_op *find_op(const char *name)
{
	for (size_t i = 0; i < sizeof(file_ops) / sizeof(*file_ops); i++)
		if (!strcmp(file_ops[i].name, name))
			return &file_ops[i];
	return NULL;
}

/* What is judged for @op: the entry, or the directory holding it. */
static void set_object(const struct explain_op *op, struct target *t)
{
	struct stat st;

	snprintf(t->object, sizeof(t->object), "%s", t->resolved);
	if (op->on_parent) {
		char *slash = strrchr(t->object, '/');

		slash[slash == t->object] = '\0';
	}
	t->is_dir = t->is_dev = false;
	if (lstat(t->object, &st) == 0) {
		t->is_dir = S_ISDIR(st.st_mode);
		t->is_dev = S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode);
	}
}

static int resolve_target(const char *arg, const char *cwd,
			  const struct explain_op *op, struct target *t)
{
	int r;

	t->arg = arg;
	r = explain_resolve(arg, cwd, op->follow, t->resolved,
			    sizeof(t->resolved), &t->exists);
	if (r < 0)
		return error_errno(r, "explain: %s: cannot resolve the path "
				   "as open(2) would", arg);
	set_object(op, t);
	return 0;
}

static void print_head(FILE *out, bool allowed, const char *op,
		       const struct target *t)
{
	fprintf(out, "%s: %s %s", allowed ? "allowed" : "denied", op, t->arg);
	if (strcmp(t->arg, t->resolved))
		fprintf(out, " -> %s", t->resolved);
	fputs(" (", out);
}

/*
 * What the kernel refuses before a sandbox is asked: an answer, or
 * -1 to go on to the rules.
 */
static int kernel_first(FILE *out, const struct explain_op *op,
			const struct target *t)
{
	const char *why = NULL;

	if (!strcmp(op->name, "write") && t->is_dir)
		why = "a directory cannot be opened for writing (EISDIR), "
		      "whatever the rules";
	else if ((t->exists || op->on_parent) && op->dac &&
		 access(t->object, op->dac) < 0 && errno == EACCES)
		why = op->on_parent ?
		      "the directory's permissions do not let you change it, "
		      "whatever the rules" :
		      "the file's permissions do not allow it to you, "
		      "whatever the rules";
	if (!why)
		return -1;
	print_head(out, false, op->name, t);
	fprintf(out, "%s)\n", why);
	return EXPLAIN_DENIED;
}

/* The smallest path a rule can name for @t: the object, or the
 * directory that will hold it. */
static const char *hint_path(const struct target *t, char *buf, size_t size)
{
	char *slash;

	snprintf(buf, size, "%s", t->object);
	if (t->exists || strcmp(t->object, t->resolved))
		return buf;
	slash = strrchr(buf, '/');
	slash[slash == buf] = '\0';
	return buf;
}

static int deny_exec(FILE *out, const struct target *t, const char *role,
		     const char *path, const struct explain_judged *j)
{
	print_head(out, false, "exec", t);
	fprintf(out, "its %s %s", role, path);
	if (!j)
		fputs(" is missing or not executable, whatever the rules)\n",
		      out);
	if (!j)
		return EXPLAIN_DENIED;
	fputs(": ", out);
	explain_print_denial(out, j, path);
	fputs(")\n", out);
	return EXPLAIN_DENIED;
}

/*
 * Exec of an allowed file: each interpreter and loader it brings in
 * needs read and exec as well.  @file is the file's own verdict.
 */
static int judge_exec_chain(FILE *out, const struct explain_rule *rules,
			    size_t n_rules, const struct target *t,
			    const char *cwd, const struct explain_judged *file)
{
	static char path[EXPLAIN_MAX_EXEC][PATH_MAX];
	struct explain_judged j[EXPLAIN_MAX_EXEC];
	const char *role[EXPLAIN_MAX_EXEC], *at = t->resolved;
	char next[PATH_MAX];
	size_t n;

	for (n = 0; n < EXPLAIN_MAX_EXEC; n++) {
		bool exists = false;
		int kind = explain_exec_next(at, next, sizeof(next));

		if (kind <= 0)
			break;
		role[n] = kind == EXPLAIN_EXEC_INTERP ? "interpreter" :
							"loader";
		if (explain_resolve(next, cwd, true, path[n], PATH_MAX,
				    &exists) < 0 || !exists ||
		    access(path[n], X_OK) < 0)
			return deny_exec(out, t, role[n], next, NULL);
		if (explain_judge_path(rules, n_rules, path[n], true,
				       CORRAL_ACCESS_READ | CORRAL_ACCESS_EXEC,
				       &j[n]) < 0)
			return CORRAL_EXIT_FAILURE;
		if (explain_missing(&j[n]))
			return deny_exec(out, t, role[n], path[n], &j[n]);
		at = path[n];
	}
	print_head(out, true, "exec", t);
	explain_print_cited(out, file->v.granted, file->v.n_granted, false);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "; %s %s: ", role[i], path[i]);
		explain_print_cited(out, j[i].v.granted, j[i].v.n_granted,
				    false);
	}
	fputs(")\n", out);
	return EXPLAIN_ALLOWED;
}

/* Judges @t under @rules (none of the kernel's own refusals apply). */
static int judge_rules(FILE *out, const struct explain_rule *rules,
		       size_t n_rules, const struct explain_op *op,
		       const struct target *t, const char *cwd)
{
	uint32_t need = op->need;
	char where[PATH_MAX];
	struct explain_judged j;

	if (need == CORRAL_ACCESS_READ && t->is_dir)
		need = CORRAL_ACCESS_READDIR;
	if (need == CORRAL_ACCESS_IOCTL && !t->is_dev) {
		print_head(out, true, op->name, t);
		fputs("not a device: only ioctls on devices are judged)\n",
		      out);
		return EXPLAIN_ALLOWED;
	}
	if (explain_judge_path(rules, n_rules, t->object,
			       t->exists || op->on_parent, need, &j) < 0)
		return CORRAL_EXIT_FAILURE;
	if (explain_missing(&j)) {
		print_head(out, false, op->name, t);
		explain_print_denial(out, &j,
				     hint_path(t, where, sizeof(where)));
		fputs(")\n", out);
		return EXPLAIN_DENIED;
	}
	if (need & CORRAL_ACCESS_EXEC)
		return judge_exec_chain(out, rules, n_rules, t, cwd, &j);
	print_head(out, true, op->name, t);
	explain_print_cited(out, j.v.granted, j.v.n_granted, false);
	fputs(")\n", out);
	return EXPLAIN_ALLOWED;
}

static int judge_file(FILE *out, const struct explain_rule *rules,
		      size_t n_rules, const struct explain_op *op,
		      const struct target *t, const char *cwd)
{
	int r = kernel_first(out, op, t);

	return r < 0 ? judge_rules(out, rules, n_rules, op, t, cwd) : r;
}

/* The name rule (protected.c) that keeps @t from being made, if any:
 * on its missing path, or on a missing directory above it. */
static const struct policy_rule *name_rule_on(const struct policy *policy,
					      const struct explain_op *op,
					      const struct target *t)
{
	if (t->exists || !(op->need & CORRAL_ACCESS_CREATE))
		return NULL;
	for (size_t i = 0; i < policy->n_rules; i++)
		if (policy->rules[i].name_only &&
		    path_is_under(t->resolved, policy->rules[i].path))
			return &policy->rules[i];
	return NULL;
}

/* Opens the rules first, as the launcher does: a rule it would refuse
 * is an error before any answer.  @t NULL: a move of argv[0] to
 * argv[1]. */
static int judge_files(FILE *out, struct corral_opts *opts,
		       const struct explain_op *op, const struct target *t,
		       const char *cwd)
{
	const struct policy *policy = &opts->policy;
	struct explain_rule *rules = xcalloc(policy->n_rules + 1,
					     sizeof(*rules));
	size_t n_rules = open_rules(policy, rules);
	const struct policy_rule *name = t ? name_rule_on(policy, op, t) : NULL;
	int r;

	if (name) {
		print_head(out, false, op->name, t);
		fprintf(out, "no sandbox may make %s: %s)\n", name->path,
			name->origin);
		r = EXPLAIN_DENIED;
	} else if (t)
		r = judge_file(out, rules, n_rules, op, t, cwd);
	else
		r = explain_move(out, rules, n_rules,
				 explain_move_kind(opts->explain_op),
				 opts->argv[0], opts->argv[1], cwd);
	free(rules);
	return r;
}

/* The CORRAL_NET_* bit @name stands for, or 0 for a file operation. */
static uint8_t net_op(const char *name, const char *target)
{
	if (!name)
		return explain_is_addr(target) ? CORRAL_NET_CONNECT_TCP : 0;
	return netrule_op(name);
}

/* Would the launch use the Landlock engine?  (require = bpf: no, it
 * would fail.) */
static bool runs_landlock(const struct corral_opts *opts,
			  const struct explain_engine *engine)
{
	if (!engine || opts->engine == CORRAL_ENGINE_BPF ||
	    opts->policy.sandbox.value[POLICY_REQUIRE] == POLICY_BPF)
		return false;
	return opts->engine == CORRAL_ENGINE_LANDLOCK || !engine->bpf;
}

int explain_run(struct corral_opts *opts, const char *cwd,
		const struct explain_engine *engine, FILE *out)
{
	const char *arg = opts->argv[0];
	const struct explain_op *op = find_op(opts->explain_op ?
					      opts->explain_op : "read");
	uint8_t net = net_op(opts->explain_op, arg);
	const struct policy_net_host *full = NULL;
	static struct target t;

	if (opts->explain_op && explain_move_kind(opts->explain_op) >= 0)
		return judge_files(out, opts, NULL, NULL, cwd);
	if (!op && !net) {
		warn_msg("explain: --op %s: unknown operation (%s)",
			 opts->explain_op, OP_NAMES);
		return CORRAL_EXIT_FAILURE;
	}
	if (net) {
		/* the addresses host names resolved to, as send_run() */
		if (policy_add_host_addrs(&opts->policy, &full) < 0) {
			warn_msg("%s: more than %d network rules with the "
				 "addresses of '%s'", full->origin,
				 POLICY_MAX_NET_RULES, full->name);
			return CORRAL_EXIT_FAILURE;
		}
		return explain_net(&opts->policy, net, arg,
				   runs_landlock(opts, engine),
				   engine ? engine->landlock_abi : 0,
				   opts->net_best_effort, out);
	}
	if (resolve_target(arg, cwd, op, &t) < 0)
		return CORRAL_EXIT_FAILURE;
	/* nothing to read yet: what a user means is making it */
	if (!t.exists && !opts->explain_op) {
		op = find_op("create");
		set_object(op, &t);
	}
	return judge_files(out, opts, op, &t, cwd);
}
