/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parser_child.h - the unprivileged half of corral (DESIGN.md section 4).
 *
 * parser_start() forks a child that gives up every capability and the
 * corral group, sets NO_NEW_PRIVS, keeps only the environment variables
 * profiles may name (read from the user's environment as the command
 * will get it, not from what glibc left a secure-exec corral), and
 * installs a seccomp allowlist (anything else
 * kills it) before it looks at argv.  It then does all the parsing:
 * options, profiles, includes, ${VAR}s, and opens every rule's path
 * O_PATH as the user.  Subcommands that only print (--help, profiles,
 * check, --print-profile) finish there and send nothing; everything
 * else goes to the launcher as one struct launch_msg.
 */
#ifndef CORRAL_PARSER_CHILD_H
#define CORRAL_PARSER_CHILD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "explain.h"
#include "policy.h"

/*
 * Forks the parser, which takes its variables from @envp (user_env_read:
 * TMPDIR, which glibc drops from a secure-exec program's environ, must
 * expand in a profile to what the command will see).  Returns the
 * launcher's end of the socket, and the child's pid in *@pid.  Never
 * returns in the child.  @engine (or NULL): the engine a launch would
 * get, which `corral explain` names (the parser cannot find it out).
 */
int parser_start(int argc, char **argv, char **envp,
		 const struct explain_engine *engine, pid_t *pid);

/*
 * Reaps the parser.  Returns its exit status; a parser killed by a
 * signal is reported (naming seccomp for SIGSYS) and gives 125.
 */
int parser_wait(pid_t pid);

/*
 * Opens @rule's path O_PATH as the user, for the launcher (and for
 * `corral explain`, which judges exactly what the launcher would get);
 * a rule on a file keeps file rights in *@access.  Returns false for an
 * optional rule whose path does not exist, and for a rule on something
 * the user cannot reach anyway (a sandbox narrows DAC, never widens it,
 * so such a rule grants nothing; the launcher would refuse it).  Exits
 * 125 with a message naming the rule for any other failure.
 */
bool parser_open_rule(const struct policy_rule *rule, int *fd,
		      uint32_t *access);

#endif /* CORRAL_PARSER_CHILD_H */
