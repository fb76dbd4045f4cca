/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * events.h - reading denials from the BPF ring buffer while a sandboxed
 * command runs (--log, learn).  The reader is the one corral process that
 * stays behind; it is outside the sandbox, holds no capability, and the
 * sandbox does not depend on it.
 */
#ifndef CORRAL_EVENTS_H
#define CORRAL_EVENTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "corral_abi.h"

struct event_reader;

/* Called for each event of the followed domain. */
typedef void (*event_fn)(const struct corral_event *ev, void *data);

/* Opens the pinned ring buffer; needs CAP_BPF effective.  NULL on error. */
struct event_reader *events_open(uint64_t domain, event_fn fn, void *data);
/*
 * Delivers events until @child exits, then drains what is left.  Returns
 * the child's exit status as a shell would (128 + signal if killed).
 */
int events_follow(struct event_reader *r, pid_t child);
void events_close(struct event_reader *r);
/* Events the kernel could not queue since setup (ring buffer full). */
uint64_t events_lost(void);

/*
 * "/home/u/.ssh/id_rsa" from an event's names; "" when it has none.
 * event_path() names the object the rights were missing on (for a
 * create or remove, the directory), event_target() what was asked for
 * (the entry created or removed in it: "/home/u/work/data/evil.txt").
 */
char *event_path(const struct corral_event *ev, char *buf, size_t size);
char *event_target(const struct corral_event *ev, char *buf, size_t size);
/*
 * A read the dynamic loader or libc tries in nearly every program and
 * does without (ld.so.cache, locale files, ...): --log leaves it out.
 */
bool event_is_routine(const struct corral_event *ev);
const char *event_hook_name(uint32_t hook);

#endif /* CORRAL_EVENTS_H */
