/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * escape: the attack attempts of the escape suite, one process,
 * each result reported by errno name, like probe.
 *
 *   escape OP ARGS [+ OP ARGS ...]     prints "<op> <args>: <result>"
 *   escape pty-run CMD [ARGS...]       runs CMD with a new pty as its
 *                                      controlling terminal (stdin, stdout,
 *                                      stderr), copies what CMD writes to
 *                                      stdout, exits with CMD's status
 *
 * A result is OK, an errno name (E<num> if unknown), or for the ops that
 * report what they saw (ids, status, suid-exec, victim) a short value.
 * Exit status 0 whatever the results; 2 on a usage error.
 *
 * The attacks run inside a sandbox as an unprivileged user; the victims
 * and listeners (victim, listen-*) run outside it as the same user.  Static
 * on purpose: a dynamic binary would need the loader and libc allowed.
 *
 * This file is the driver; the ops are listed in escape.ops, whose rows
 * the build makes into escape-table.h (gen-ops.sh), and are in escape_*.c,
 * one file for each kind (escape.h).
 */
#define _GNU_SOURCE
#include "escape.h"
#include "oplist.h"

static const struct op ops[] = {
#include "escape-table.h"
};

static const struct opcmd cmds[] = {
	{ "pty-run", 1, pty_run, "pty-run needs a command" },
};

static const struct oplist list =
	OPLIST_CMDS("escape", "       escape pty-run CMD [ARGS...]\n", ops,
		    cmds);

int main(int argc, char **argv)
{
	return oplist_main(&list, argc, argv);
}
