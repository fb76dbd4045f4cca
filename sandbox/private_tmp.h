/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * private_tmp.h - each sandbox's own temporary directory (issue 33,
 * point 4), made by the parser child as the user.
 *
 * A shared /tmp hands a sandbox allowed to write it every server whose
 * socket lives there (tmux, ssh-agent, X11) and other programs' files,
 * so ${TMPDIR} and the command's TMPDIR never name a shared sticky
 * directory.  Unless the user's own TMPDIR is a private directory of
 * theirs, a launch gets a directory of its own, mode 0700, under a
 * per-user base: $XDG_RUNTIME_DIR/corral when XDG_RUNTIME_DIR is a 0700
 * directory of the user's, else /tmp/corral-UID, checked on an fd to
 * be the user's, 0700 and no symlink.
 *
 * Reclaim: the launch's directory is held open by a descriptor with a
 * shared flock(2) on it that the command inherits and every process it
 * forks shares; the lock lasts as long as any of them keeps that open
 * file.  Each launch first removes, under an exclusive lock on the base,
 * every launch directory whose lock it can take: none of those is
 * reachable from a live sandbox through its inherited descriptor.
 * sandbox/README.md says what that leaves out.
 */
#ifndef CORRAL_PRIVATE_TMP_H
#define CORRAL_PRIVATE_TMP_H

#include <stdbool.h>
#include <stddef.h>

/* The prefix of each launch's directory in the base. */
#define PRIVATE_TMP_PREFIX "sandbox-"

/*
 * Is @path a directory only its owner, the real user, may write in: not
 * sticky, not writable by others?  Then it is the user's own TMPDIR and
 * is kept.  /tmp, /var/tmp and /dev/shm are not.
 */
bool private_tmp_is_private(const char *path);

/*
 * The per-user base directory, made if missing and checked on its fd:
 * its path in @out, an O_RDONLY fd to it returned.  @runtime is
 * $XDG_RUNTIME_DIR or NULL.  Exits 125 with one line if the fallback
 * /tmp/corral-UID is not a 0700 directory of the user's (squatted).
 */
int private_tmp_base(const char *runtime, char *out, size_t size);

/*
 * In @base (an fd from private_tmp_base, path @base_path): removes the
 * launch directories nobody holds any more, then makes this launch's,
 * 0700, with its path in @out.  Returns an O_RDONLY fd to it with a
 * shared flock on it (the launcher passes it to the command), or exits
 * 125 with one line saying what failed.
 */
int private_tmp_make(int base, const char *base_path, char *out,
		     size_t size);

#endif /* CORRAL_PRIVATE_TMP_H */
