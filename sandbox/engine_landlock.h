/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine_landlock.h - the fallback engine: the same policy enforced by
 * kernel Landlock, for kernels without the bpf LSM.  Unprivileged.
 */
#ifndef CORRAL_ENGINE_LANDLOCK_H
#define CORRAL_ENGINE_LANDLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "policy.h"

/* The running kernel's Landlock ABI, 0 if Landlock is unavailable. */
int landlock_abi(void);

/*
 * What Landlock at @abi cannot enforce that the bpf engine does, as one
 * comma-separated phrase for the fallback warning.
 */
const char *landlock_limits(int abi, char *buf, size_t size);

/*
 * Creates a ruleset for the running ABI, adds one rule per opened path
 * (fd, corral access bits; a rule on a file must carry file rights only)
 * and the TCP port rules of @policy (ABI 4+), sets NO_NEW_PRIVS and
 * restricts this process.  What it cannot enforce of the network rules
 * (addresses, UDP, socket types, everything below ABI 4) is the caller's
 * to say (landlock_net_brief).  Returns 0 or -errno after a message
 * naming the path or the step.
 */
int engine_landlock_apply(const struct opened_rule *rules, size_t n,
			  const struct policy *policy);

/*
 * A few words on what Landlock @abi leaves of @policy's network rules
 * ("TCP ports only"), or NULL when there is nothing to say (net = all).
 */
const char *landlock_net_brief(const struct policy *policy, int abi);
/* What Landlock @abi confines of the network, in a few words. */
const char *landlock_net_confines(int abi);
/* The whole story of Landlock @abi and the network, for corral status. */
const char *landlock_net_limits(int abi, char *buf, size_t size);

#endif /* CORRAL_ENGINE_LANDLOCK_H */
