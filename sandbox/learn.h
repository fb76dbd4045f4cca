/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * learn.h - `corral learn`: gather what an audit-only run would have been
 * denied and write the smallest profile that allows it.
 */
#ifndef CORRAL_LEARN_H
#define CORRAL_LEARN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "corral_abi.h"

struct learned_path {
	char *path;
	uint32_t access;      /* every right it was refused */
	uint32_t seen;        /* how many times */
};

struct learn {
	struct learned_path *paths;
	size_t n, cap;
	char **net;           /* "connect-tcp = 1.2.3.4:443", each once */
	size_t n_net;
	const char *home;     /* substituted as ${HOME} */
	const char *cwd;      /* substituted as ${CWD} */
};

/* event_fn for events_open(): records one refused access. */
void learn_record(const struct corral_event *ev, void *learn);
void learn_add(struct learn *l, const char *path, uint32_t access);
/*
 * Writes the profile: @command (for the header comment), @base (an
 * include, or NULL).  A rule that reaches a secret (secrets.h) gets a
 * comment and, when @warn is not NULL, one line there.  Returns the
 * number of rules written.
 */
size_t learn_write(struct learn *l, FILE *out, FILE *warn,
		   char *const *command, const char *base);
void learn_free(struct learn *l);

#endif /* CORRAL_LEARN_H */
