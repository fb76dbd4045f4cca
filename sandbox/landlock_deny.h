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
 * out, when no allow could reach what it takes, judged by inode along
 * every way to it (each mount of its filesystem that shows it): no
 * allow with one of its rights is on it, above it or below it, and no
 * allow above it has the remove right (it must not remove the deny's
 * name).  A deny some allow reaches is made by allowing what is around
 * it, where that is exact (see landlock_deny.c).
 * Returns 0 when every deny is moot, 1 when some must be made that way
 * and can be, or -1 when one cannot, with why in @why (one line).
 */
int landlock_deny_check(const struct opened_rule *rules, size_t n,
			char *why, size_t size);

#endif /* CORRAL_LANDLOCK_DENY_H */
