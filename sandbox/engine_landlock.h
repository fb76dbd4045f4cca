/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine_landlock.h - the fallback engine: the same policy enforced by
 * kernel Landlock, for kernels without the bpf LSM.  Unprivileged.
 */
#ifndef CORRAL_ENGINE_LANDLOCK_H
#define CORRAL_ENGINE_LANDLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy.h"
#include "seccomp_load.h"

/* The running kernel's Landlock ABI, 0 if Landlock is unavailable. */
int landlock_abi(void);

/*
 * What Landlock at @abi cannot enforce that the bpf engine does, as one
 * comma-separated phrase for the fallback warning.
 */
const char *landlock_limits(int abi, char *buf, size_t size);

/* The first Landlock ABI that confines named unix sockets (connect-unix). */
#define CORRAL_LL_ABI_UNIX 9
/* The first that scopes signals and abstract unix sockets to the domain. */
#define CORRAL_LL_ABI_SCOPE 6

/*
 * Creates a ruleset for the running ABI, adds one rule per opened path
 * (fd, corral access bits; a rule on a file must carry file rights only)
 * and the TCP port rules of @policy (ABI 4+), sets NO_NEW_PRIVS and
 * restricts this process.  What it cannot enforce of the network rules
 * (addresses, UDP, socket types, everything below ABI 4) is the caller's
 * to refuse (landlock_net_filter) or say (landlock_net_brief).  Returns 0 or -errno after a message
 * naming the path or the step.
 */
int engine_landlock_apply(const struct opened_rule *rules, size_t n,
			  const struct policy *policy);

/*
 * The seccomp filter that refuses what Landlock @abi cannot of @policy's
 * network: the sockets the bpf engine refuses under net = rules, also
 * UDP ones when no rule allows UDP below ABI 10, and every IP socket
 * under net = none.  OFF under net = all.
 */
enum corral_seccomp_net landlock_net_filter(const struct policy *policy,
					    int abi);
/*
 * A few words on what is left unenforced of @policy's network rules
 * under Landlock @abi and that filter ("UDP unconfined, addresses
 * unchecked"), or NULL when nothing is (net = all or none included).
 */
const char *landlock_net_brief(const struct policy *policy, int abi);
/* Does an allow with the write right reach /proc?  Then other processes'
 * /proc/PID files are writable under Landlock (the launch line says so). */
bool landlock_writes_proc(const struct opened_rule *rules, size_t n);

/*
 * What Landlock @abi cannot enforce of @policy's network rules, naming
 * the first rule it cannot ("'connect-udp 10.0.0.1:53': it checks ports
 * only, ..."), written to @buf; NULL when it enforces them all, or with
 * net = all or none (the seccomp filter refuses what is left).  A launch
 * stops on it unless --net-best-effort.
 */
const char *landlock_net_gap(const struct policy *policy, int abi,
			     char *buf, size_t size);
/* The whole story of Landlock @abi and the network, for corral status. */
const char *landlock_net_limits(int abi, char *buf, size_t size);

#endif /* CORRAL_ENGINE_LANDLOCK_H */
