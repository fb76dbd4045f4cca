/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine_bpf.h - the BPF-LSM engine as a launch uses it (engine_bpf.c):
 * make a domain in the pinned maps, register rules, enter it.  Loading
 * and pinning the shared program set is bpf_admin.h's.
 */
#ifndef CORRAL_ENGINE_BPF_H
#define CORRAL_ENGINE_BPF_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>

#include "corral_abi.h"

#define CORRAL_PIN_DIR  "/sys/fs/bpf/corral"
#define CORRAL_LSM_LIST "/sys/kernel/security/lsm"


/*
 * Is "bpf" in the active LSM list?  Returns 1 or 0; on 0 or error, @why
 * holds one line saying what is missing.
 */
int bpf_lsm_active(char *why, size_t size);
/* Are corral's programs pinned (setup done)?  Returns 1 or 0. */
int bpf_engine_pinned(void);

/* Why this process cannot use the bpf engine. */
struct bpf_why {
	const char *brief;  /* a few words for the one warning line */
	char full[320];     /* the whole reason with its hint (status) */
};
/*
 * Can this process use the bpf engine: bpf LSM active, CAP_BPF
 * permitted, programs set up, and the pinned maps open to it (the
 * launcher is setgid corral)?  Returns 1, or 0 with @why filled.
 * Changes no capability.
 */
int bpf_engine_available(struct bpf_why *why);

struct bpf_engine {
	int task_domain;   /* map fds, -1 when closed */
	int task_register;
	int rules;
	int domains;
	int net_policy;
	int pidfd;         /* this process: the key of task storage maps */
	pid_t pid;         /* ... whose pid this is */
	uint64_t domain;   /* 0 until engine_bpf_create_domain() */
	uint64_t nonce;    /* this launch's: see struct corral_domain */
	bool file_rules;   /* some rule names a non-directory */
	bool deny_rules;   /* some rule denies (CORRAL_TASK_DENY) */
	uint64_t rule_inos; /* corral_ino_bit() of every rule's inode */
	/* corral_file_tag() of each rule's inode that is not a directory */
	uint16_t file_tags[CORRAL_FILE_TAGS];
	size_t n_file_tags; /* over CORRAL_FILE_TAGS: the list is not used */
	bool audit;        /* record what would be denied, deny nothing */
	bool watched;      /* a watcher reads its denials (--log) */
	bool reclaimed;    /* reclaim_dead() already ran for this launch */
	uint32_t task_flags; /* CORRAL_TASK_* from the profile's [sandbox] */
};

/* Needs CAP_BPF effective.  Each returns 0 or -errno after a message. */
int engine_bpf_open(struct bpf_engine *engine);
int engine_bpf_create_domain(struct bpf_engine *engine);
/* @access: rights allowed beneath @fd; @deny: rights denied beneath it.
 * With @name, a name rule: @deny of making @name in the directory @fd
 * (CORRAL_NAME_RULE_INODE); @access must be 0. */
int engine_bpf_add_rule(struct bpf_engine *engine, int fd, uint32_t access,
			uint32_t deny, const char *name);
/* A deny_pin_fn (deny_pins.h): pins the name of the directory @fd in
 * @engine's domain (CORRAL_RULE_PINNED). */
int engine_bpf_pin(void *engine, int fd);
/*
 * Writes the domain's network rules (net = rules|none) and marks its
 * tasks as network-confined; net = all writes nothing.  In an audit
 * domain (learn) every IP access is reported, so even net = all is
 * confined (nothing is denied there).
 */
struct policy;
int engine_bpf_set_network(struct bpf_engine *engine,
			   const struct policy *policy);
/* Puts @pid, this process or its watched child, in the domain. */
int engine_bpf_enter(struct bpf_engine *engine, pid_t pid);
/* Gives up a domain that was never entered: the kernel reclaims it when
 * this process exits, which it must do next.  Safe on any state. */
void engine_bpf_abort(struct bpf_engine *engine);
void engine_bpf_close(struct bpf_engine *engine);
/* Live domains (tasks > 0), or -errno. */
int engine_bpf_count_domains(int domains_fd);

#endif /* CORRAL_ENGINE_BPF_H */
