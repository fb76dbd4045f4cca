/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cache_dir.h - a profile's cache = PATH made when missing: the
 * directories under ${HOME} that a program expects to find (~/.npm,
 * ~/.cache/pip) and would otherwise make a first run fail.
 */
#ifndef CORRAL_CACHE_DIR_H
#define CORRAL_CACHE_DIR_H

#include "policy.h"

/*
 * Makes @rule's path (rule->cache bytes of it are ${HOME}) and each
 * missing directory above it below ${HOME}, mode 0700, as the user:
 * called in the parser child, which has no capability and is not in
 * the corral group.  Below ${HOME} no symlink is followed unless the
 * user owns it.  0 when the directory is there, else -1 after one line
 * naming the path, the rule and what to do.
 */
int cache_dir_make(const struct policy_rule *rule);

#endif /* CORRAL_CACHE_DIR_H */
