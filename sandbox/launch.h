/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CORRAL_LAUNCH_H
#define CORRAL_LAUNCH_H

#include "cli.h"

/* Confines this process as @opts says and execs the command; no return. */
_Noreturn void launch(const struct corral_opts *opts);

#endif /* CORRAL_LAUNCH_H */
