/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oplist.h: what the guest helpers probe, escape and netprobe share: errno
 * names and the "OP ARGS [+ OP ARGS ...]" command line, one result line
 * "<op> <args>: RESULT" per operation, a helper's own commands run
 * instead (struct opcmd), and the steps several ops take: waiting for a
 * file, forking a child that execs and reporting exec's errno.  netprobe
 * has a driver of its own (see its main) and uses the table, oplist_find
 * and oplist_print only.
 *
 * A header, not a .c file: each helper is built from its own source files
 * alone (NAME.c, and NAME_*.c where it has more) into a static binary
 * (tests/local.am).  The functions are static inline because a helper
 * uses only some of them, and an unused plain static function would fail
 * the -Werror build.
 *
 * A helper's ops are listed once, in NAME.ops; the build makes from it
 * NAME-ops.h, the OP_ kinds, and NAME-table.h, the rows of its
 * `static const struct op ops[]` (gen-ops.sh).
 */
#ifndef CORRAL_TESTS_OPLIST_H
#define CORRAL_TESTS_OPLIST_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define ARRAY_SIZE(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* room for the value an op reports: escape's status line is the longest */
#define INFO_LEN 400

/* One operation: returns 0 or a positive errno; may fill info instead. */
typedef int op_fn(int op, char **arg, char *info);

/* a row of NAME.ops: NAME NARGS FUNCTION KIND */
struct op {
	const char *name;
	int nargs;
	op_fn *fn;
	int op;		/* which of fn's operations */
};

/*
 * A command of a helper's own, "NAME ARGS...", run alone instead of ops
 * (escape pty-run, attack fown-prep): at least @min words after NAME,
 * else the usage with @short_msg.
 */
struct opcmd {
	const char *name;
	int min;
	int (*fn)(char **argv);
	const char *short_msg;
};

struct oplist {
	const char *prog;
	const char *usage;	/* more usage lines, each ending in '\n' */
	const struct op *ops;
	int n;
	const struct opcmd *cmds;
	int n_cmds;
};

#define OPLIST(prog, usage, ops) { prog, usage, ops, ARRAY_SIZE(ops), NULL, 0 }
#define OPLIST_CMDS(prog, usage, ops, cmds) \
	{ prog, usage, ops, ARRAY_SIZE(ops), cmds, ARRAY_SIZE(cmds) }

/*
 * The names each helper knew, all together, so that none prints another
 * name than it used to; E<num> for the rest.
 */
static inline const char *errno_name(int e, char *buf, size_t len)
{
	static const struct {
		int e;
		const char *name;
	} names[] = {
		{ EACCES, "EACCES" },	{ EPERM, "EPERM" },
		{ EXDEV, "EXDEV" },	{ ENOENT, "ENOENT" },
		{ EEXIST, "EEXIST" },	{ ENOTEMPTY, "ENOTEMPTY" },
		{ EISDIR, "EISDIR" },	{ ENOTDIR, "ENOTDIR" },
		{ EINVAL, "EINVAL" },	{ EBADF, "EBADF" },
		{ ELOOP, "ELOOP" },	{ ETXTBSY, "ETXTBSY" },
		{ ENOEXEC, "ENOEXEC" }, { EROFS, "EROFS" },
		{ EBUSY, "EBUSY" },	{ ENOTTY, "ENOTTY" },
		{ ETIMEDOUT, "ETIMEDOUT" }, { ENOSYS, "ENOSYS" },
		{ EMLINK, "EMLINK" },	{ ENAMETOOLONG, "ENAMETOOLONG" },
		{ EFAULT, "EFAULT" },	{ ENXIO, "ENXIO" },
		{ EIO, "EIO" },		{ ESRCH, "ESRCH" },
		{ EAGAIN, "EAGAIN" },	{ ENOMEM, "ENOMEM" },
		{ EOPNOTSUPP, "EOPNOTSUPP" }, { ENOTSOCK, "ENOTSOCK" },
		{ ECONNREFUSED, "ECONNREFUSED" },
		{ EAFNOSUPPORT, "EAFNOSUPPORT" },
		{ EPROTONOSUPPORT, "EPROTONOSUPPORT" },
		{ ESOCKTNOSUPPORT, "ESOCKTNOSUPPORT" },
		{ EADDRINUSE, "EADDRINUSE" },
		{ EADDRNOTAVAIL, "EADDRNOTAVAIL" },
		{ ENOTCONN, "ENOTCONN" }, { EISCONN, "EISCONN" },
		{ EINPROGRESS, "EINPROGRESS" }, { EALREADY, "EALREADY" },
		{ ENETUNREACH, "ENETUNREACH" },
		{ ENOSPC, "ENOSPC" },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].e == e)
			return names[i].name;
	snprintf(buf, len, "E%d", e);
	return buf;
}

/* errno after a failed call; EIO should a call fail without setting it */
static inline int err(void)
{
	return errno ? errno : EIO;
}

/*
 * 0 once @path exists, ETIMEDOUT after 3000 looks @ms apart: how a
 * sandboxed op waits for the suite's go-ahead, since stat is not checked
 * by a sandbox.
 */
static inline int wait_file(const char *path, long ms)
{
	struct timespec ts = { 0, ms * 1000 * 1000 };
	struct stat st;
	int i;

	for (i = 0; i < 3000; i++) {
		if (stat(path, &st) == 0)
			return 0;
		nanosleep(&ts, NULL);
	}
	return ETIMEDOUT;
}

/*
 * A forked child's exec failed: tell the parent why on @efd (the write
 * end of a close-on-exec pipe, which a successful exec closes instead).
 */
static inline void exec_failed(int efd)
{
	int e = errno;

	if (write(efd, &e, sizeof(e)) < 0)
		_exit(126);
	_exit(127);
}

/*
 * Makes @epipe (close-on-exec) and forks, stdio flushed so that nothing
 * prints twice; the child closes the read end.  fork's result, -1 (errno
 * set) if either call fails.
 */
static inline pid_t exec_fork(int epipe[2])
{
	pid_t pid;

	if (pipe2(epipe, O_CLOEXEC) < 0)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		close(epipe[0]);
	return pid;
}

/* The parent's side: closes @epipe and returns exec's errno, 0 if it ran. */
static inline int exec_errno(int epipe[2])
{
	int e = 0;

	close(epipe[1]);
	if (read(epipe[0], &e, sizeof(e)) != (ssize_t)sizeof(e))
		e = 0;	/* closed by a successful exec */
	close(epipe[0]);
	return e;
}

static inline int oplist_usage(const struct oplist *l, const char *msg,
			       const char *what)
{
	int i;

	fprintf(stderr, "%s: %s%s%s\nusage: %s OP ARGS [+ OP ARGS ...]\n%sops:",
		l->prog, msg, what ? ": " : "", what ? what : "", l->prog,
		l->usage);
	for (i = 0; i < l->n; i++)
		fprintf(stderr, " %s/%d", l->ops[i].name, l->ops[i].nargs);
	fputc('\n', stderr);
	return 2;
}

static inline const struct op *oplist_find(const struct oplist *l,
					   const char *name)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->ops[i].name, name) == 0)
			return &l->ops[i];
	return NULL;
}

/* The end of the words from argv[i] on: the next "+", or argc. */
static inline int oplist_end(int argc, char **argv, int i)
{
	while (i < argc && strcmp(argv[i], "+"))
		i++;
	return i;
}

/* Check the whole command line first, so a typo runs nothing. */
static inline int oplist_validate(const struct oplist *l, int argc,
				  char **argv)
{
	const struct op *op;
	int i = 1, end;

	while (i < argc) {
		op = oplist_find(l, argv[i]);
		if (!op)
			return oplist_usage(l, "unknown operation", argv[i]);
		end = oplist_end(argc, argv, i + 1);
		if (end - i - 1 != op->nargs)
			return oplist_usage(l, "wrong number of arguments for",
					    argv[i]);
		i = end;
		if (i < argc && ++i == argc)
			return oplist_usage(l, "trailing '+'", NULL);
	}
	return 0;
}

/* "<op> <args>: RESULT", RESULT the errno by name, else info, else OK */
static inline void oplist_print(const struct op *op, char **arg, int e,
				const char *info)
{
	char ebuf[16];
	int j;

	printf("%s", op->name);
	for (j = 0; j < op->nargs; j++)
		printf(" %s", arg[j]);
	printf(": %s\n", e ? errno_name(e, ebuf, sizeof(ebuf)) :
	       info[0] ? info : "OK");
	fflush(stdout);
}

/* The whole command line: one of the helper's commands, or ops. */
static inline int oplist_main(const struct oplist *l, int argc, char **argv)
{
	char info[INFO_LEN];
	const struct op *op;
	int i, e;

	for (i = 0; argc > 1 && i < l->n_cmds; i++) {
		if (strcmp(argv[1], l->cmds[i].name))
			continue;
		if (argc - 2 < l->cmds[i].min)
			return oplist_usage(l, l->cmds[i].short_msg, NULL);
		return l->cmds[i].fn(argv + 2);
	}
	if (argc < 2)
		return oplist_usage(l, "no operation", NULL);
	if (oplist_validate(l, argc, argv))
		return 2;
	for (i = 1; i < argc; i += 1 + op->nargs + 1) {
		op = oplist_find(l, argv[i]);
		info[0] = 0;
		errno = 0;
		e = op->fn(op->op, argv + i + 1, info);
		oplist_print(op, argv + i + 1, e, info);
	}
	return 0;
}

#endif
