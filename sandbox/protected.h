/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * protected.h - the paths no sandbox may write, whatever the rules say
 * (protected.c; corral(1), PROTECTED PATHS).
 */
#ifndef CORRAL_PROTECTED_H
#define CORRAL_PROTECTED_H

#include <stdio.h>

#include "expand.h"
#include "policy.h"

/* The rights a protected path loses: every right of rw but ro's. */
#define PROTECTED_RIGHTS (CORRAL_GROUP_RW & ~CORRAL_GROUP_RO)

/* The origin of the deny rules protected_add() adds. */
#define PROTECTED_ORIGIN "protected by corral, see corral(1)"

/*
 * Adds a deny of PROTECTED_RIGHTS on each protected path that exists and
 * that an allow of @policy with one of those rights reaches (on it, above
 * it or below it), unless a command-line rule names that very file or
 * directory with one of them: then it says so on stderr, one line, and
 * adds nothing for it.  Without such an allow it makes no system call.
 */
void protected_add(struct policy *policy, const struct vars *vars);

/* Lists the protected paths on @out, saying which do not exist. */
void protected_list(FILE *out, const struct vars *vars);

#endif /* CORRAL_PROTECTED_H */
