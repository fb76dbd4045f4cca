/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CORRAL_LAUNCH_H
#define CORRAL_LAUNCH_H

#include "launch_msg.h"

/*
 * Confines this process as the parser's validated message @req says and
 * execs the command named in @argv (the launcher's own argv) with the
 * environment @envp; no return.
 */
_Noreturn void launch(struct launch_request *req, char **argv, char **envp);

#endif /* CORRAL_LAUNCH_H */
