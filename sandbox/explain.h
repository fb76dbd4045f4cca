/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explain.h - `corral explain`: would this access be allowed, and by
 * which rule?  Nothing is run.
 *
 *   corral explain [RULES|--profile NAME]... [--op OP] PATH|ADDR:PORT
 *   corral explain [RULES|--profile NAME]... --op rename|link|exchange A B
 *
 * It judges the policy the launcher would build (the parser's own
 * merging and expansion, each rule opened as parser_open_rule() opens it
 * for the launcher) the way the kernel side judges an access: a rule is
 * tied to the inode it names, and the rights on an object are the union
 * of the allows of the rules met on the walk from it up to "/", minus the
 * union of the denies met on the same walk.  The walk follows the path
 * as open(2) resolves it (symlinks, "..", mounts), not as it is spelled.
 *
 * Files: explain.c (the command and its one line of output),
 * explain_judge.c (the walk's arithmetic, no system calls),
 * explain_path.c (resolving a path and stat-ing each directory above
 * it), explain_exec.c (what an exec also opens: #! interpreters, ELF
 * loaders), explain_net.c (ADDR:PORT against the network rules),
 * explain_move.c (rename, link and exchange: both directories, refer,
 * and whether the entry moved would gain rights).
 */
#ifndef CORRAL_EXPLAIN_H
#define CORRAL_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "cli.h"
#include "policy.h"

/* Exit statuses of explain; usage and profile errors are 125. */
enum { EXPLAIN_ALLOWED = 0, EXPLAIN_DENIED = 1 };

/*
 * The engine a launch would get, as the launcher found it before the
 * parser started (main.c, for explain only): whether the bpf engine is
 * usable, and the Landlock ABI (0: none).
 */
struct explain_engine {
	bool bpf;
	int landlock_abi;
};

/*
 * Answers opts->argv[0] (and argv[1] for a move) for opts->explain_op
 * (NULL: read for a path, connect-tcp for ADDR:PORT) under opts->policy,
 * profiles merged; @cwd is where a relative PATH starts (the parser may
 * not call getcwd).
 * Prints one line on @out (a network answer a second when @engine says
 * the launch would use Landlock: explain_net); returns EXPLAIN_ALLOWED,
 * EXPLAIN_DENIED, or CORRAL_EXIT_FAILURE after a message on stderr.
 */
int explain_run(struct corral_opts *opts, const char *cwd,
		const struct explain_engine *engine, FILE *out);

/* ---- the judge (explain_judge.c) ------------------------------------ */

/* A rule as the launcher would hand it to an engine. */
struct explain_rule {
	dev_t dev;
	ino_t ino;
	uint32_t allow;     /* after parser_open_rule(): file rights on files */
	uint32_t deny;      /* rights the rule takes away beneath it */
	const struct policy_rule *src;   /* its path and origin */
};

/* An inode on the walk: the object first, then each directory above. */
struct explain_node {
	dev_t dev;
	ino_t ino;
};

#define EXPLAIN_MAX_CITED 8

struct explain_verdict {
	uint32_t allow;     /* union of the allows met on the walk */
	uint32_t deny;      /* union of the denies met on the walk */
	/* the rules granting a right asked for, nearest first */
	const struct explain_rule *granted[EXPLAIN_MAX_CITED];
	size_t n_granted;
	/* the rules taking one away, nearest first */
	const struct explain_rule *denied[EXPLAIN_MAX_CITED];
	size_t n_denied;
};

/*
 * Walks @nodes (@n, the object first) against @rules for the rights
 * @need, filling @v.  The rights granted are v->allow & ~v->deny.
 */
void explain_judge(const struct explain_rule *rules, size_t n_rules,
		   const struct explain_node *nodes, size_t n, uint32_t need,
		   struct explain_verdict *v);

/* "--rw /p on the command line", "rw = /p at git.profile:6" into @buf. */
const char *explain_rule_text(const struct policy_rule *rule, uint32_t deny,
			      char *buf, size_t size);

/*
 * The rights a move needs on the directory it leaves (*@src) and on the
 * one it enters (*@dst), as Landlock and the bpf engine ask them:
 * @kind is EXPLAIN_MOVE_*, @replaces when a rename's DST exists.
 * Within one directory both land on it and refer is not needed.
 */
enum { EXPLAIN_MOVE_RENAME, EXPLAIN_MOVE_LINK, EXPLAIN_MOVE_EXCHANGE };
void explain_move_needs(int kind, bool replaces, bool same_dir,
			uint32_t *src, uint32_t *dst);

/*
 * The rights an entry would gain by moving: those it would hold at the
 * new place (@there) and does not hold now (@here), each verdict a walk
 * starting at the entry itself, so its own rule counts on both sides.
 * Only file rights count for a file (@is_dir false).
 */
uint32_t explain_gained(const struct explain_verdict *here,
			const struct explain_verdict *there, bool is_dir);

/* ---- paths (explain_path.c) ------------------------------------------ */

/*
 * Resolves @path as open(2) would, a relative one from @cwd: symlinks
 * are followed in every component but the last, and in the last only
 * when @follow; ".." goes up from where the links led.  Writes the
 * physical path to @out; *@exists says whether its last component
 * exists (a missing one is fine: create judges its directory).
 * Returns 0, or -errno (ENOENT for a missing directory on the way,
 * ENOTDIR, ELOOP, ENAMETOOLONG) after no message.
 */
int explain_resolve(const char *path, const char *cwd, bool follow,
		    char *out, size_t size, bool *exists);

/*
 * The inodes of @resolved (if it exists) and of each directory above it
 * up to "/", into a malloc'd *@nodes.  Returns how many, or -errno.
 */
ssize_t explain_walk(const char *resolved, bool exists,
		     struct explain_node **nodes);

/* ---- exec (explain_exec.c) -------------------------------------------- */

enum { EXPLAIN_EXEC_INTERP = 1, EXPLAIN_EXEC_LOADER = 2 };

/*
 * The file the kernel opens next to execute @path: the interpreter of a
 * "#!" script (EXPLAIN_EXEC_INTERP), or the loader (PT_INTERP) of a
 * dynamic ELF (EXPLAIN_EXEC_LOADER), written to @out.  Returns 0 if
 * there is none, or -errno if @path cannot be read.
 */
int explain_exec_next(const char *path, char *out, size_t size);

/* ---- answers shared by explain.c and explain_move.c (explain.c) ------ */

/* An object judged: its path, the rights asked, the verdict. */
struct explain_judged {
	const char *path;
	uint32_t need;
	struct explain_verdict v;
};

/* Walks @path (its own inode too when @exists) for @need into @j;
 * 0, or -errno after a message naming @path. */
int explain_judge_path(const struct explain_rule *rules, size_t n_rules,
		       const char *path, bool exists, uint32_t need,
		       struct explain_judged *j);

/* The rights of j->need that j->v does not leave granted. */
uint32_t explain_missing(const struct explain_judged *j);

/* The rules of @list, "; "-separated; @deny: name what each takes away. */
void explain_print_cited(FILE *out, const struct explain_rule *const *list,
			 size_t n, bool deny);

/* "add: --allow RIGHTS:WHERE or 'KEY = WHERE' in [filesystem]" */
void explain_print_hint(FILE *out, uint32_t rights, const char *where);

/* Why @j is denied: no rule grants it (and the rule to add on @where),
 * or which rule takes it away. */
void explain_print_denial(FILE *out, const struct explain_judged *j,
			  const char *where);

/* ---- moves (explain_move.c) -------------------------------------------- */

/* EXPLAIN_MOVE_* for op @name, or -1 if it is not a move. */
int explain_move_kind(const char *name);

/*
 * Judges moving @a to @b (exchange: swapping them) under @rules, after
 * what the kernel refuses first; one line on @out.  Returns as
 * explain_run().
 */
int explain_move(FILE *out, const struct explain_rule *rules, size_t n_rules,
		 int kind, const char *a, const char *b, const char *cwd);

/* ---- network (explain_net.c) ------------------------------------------ */


/* Does @text look like ADDR:PORT ("127.0.0.1:80", "[::1]:22")? */
bool explain_is_addr(const char *text);

/*
 * Judges network operation @op (a CORRAL_NET_* bit) to ADDR:PORT @text
 * as the bpf engine's rules would; one line on @out.  When the launch
 * would run the Landlock engine (@landlock, at ABI @abi), a second line
 * says what enforces it there, or that it would be allowed after all,
 * and the return is that engine's answer: denied when it would not
 * launch the rules at all, unless @best_effort (--net-best-effort).
 * Returns as explain_run().
 */
int explain_net(const struct policy *policy, uint8_t op, const char *text,
		bool landlock, int abi, bool best_effort, FILE *out);

#endif /* CORRAL_EXPLAIN_H */
