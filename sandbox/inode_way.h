/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inode_way.h - an inode and the directories above it up to "/", found
 * by "..": what Landlock, and corral's protected set, look at for an
 * access by that path (a mount point is crossed upward, as the kernel's
 * walk does).
 */
#ifndef CORRAL_INODE_WAY_H
#define CORRAL_INODE_WAY_H

#include <stdbool.h>
#include <sys/types.h>

#define INODE_WAY_MAX 256       /* directories above a path, at most */

struct inode_way {
	dev_t dev[INODE_WAY_MAX];
	ino_t ino[INODE_WAY_MAX];
	size_t n;
	bool whole;     /* it reached "/"; false: a step failed or too deep */
};

/* Fills @w with the inode of @fd and the directories above it. */
void inode_way_up(int fd, struct inode_way *w);

/* Is the inode (@dev, @ino) on the way @w (its start or above it)? */
bool inode_way_has(const struct inode_way *w, dev_t dev, ino_t ino);

#endif /* CORRAL_INODE_WAY_H */
