/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * landlock_deny.h - deny rules made by allowing what is around them, for
 * the Landlock engine (see landlock_deny.c).
 */
#ifndef CORRAL_LANDLOCK_DENY_H
#define CORRAL_LANDLOCK_DENY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy.h"

#define LANDLOCK_DENY_MAX_DENIES 256

/* Adds a Landlock rule granting @access beneath @fd; 0 or -errno. */
typedef int landlock_grant_fn(void *ctx, int fd, uint32_t access);

/*
 * Calls @grant for every allow of @rules as Landlock must see it with
 * the denies of @rules taken out.  @lost gets the directory (or the
 * first of them) that loses the denied rights on itself, "" if none.
 * Returns 0, or -errno after one line saying why the denies cannot be
 * honoured (nothing must run then).
 */
int landlock_expand_denies(const struct opened_rule *rules, size_t n,
			   landlock_grant_fn *grant, void *ctx,
			   char *lost, size_t lost_size);

/*
 * Landlock can only add rights.  A deny rule is moot there, and left
 * out, when no allow could reach what it takes: every rule concerned is
 * on a filesystem mounted once (so each directory has one path), no
 * allow with one of its rights is on its path, above it or below it,
 * and neither it nor such an allow is a file with other hard links; an
 * allow above it with the remove right counts too (it must not remove
 * the deny's name).
 * Returns the index of the first deny rule that is not moot, or -1.
 */
long landlock_deny_needed(const struct opened_rule *rules, size_t n);

#endif /* CORRAL_LANDLOCK_DENY_H */
