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

/* Has the inode of @fd one path only (one mount, no other hard links)? */
bool landlock_rule_one_path(int fd);
/* Is @path @dir or below it (absolute paths, no trailing '/')? */
bool path_is_under(const char *path, const char *dir);

#endif /* CORRAL_LANDLOCK_DENY_H */
