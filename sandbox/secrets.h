/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * secrets.h - the places in a home directory that hold credentials and
 * private history: one table, for `corral learn`'s warnings and for any
 * later rule set that keeps them out.
 */
#ifndef CORRAL_SECRETS_H
#define CORRAL_SECRETS_H

#include <stdbool.h>

struct secret {
	const char *path;     /* relative to $HOME */
	const char *what;     /* "SSH keys" */
};

/* The table, ending with { NULL, NULL }. */
extern const struct secret secrets[];

/*
 * The first secret that @path (absolute) reaches below @home: one it is
 * in or is, or, when @path is an ancestor of one (${HOME} itself), one it
 * holds (*@holds set).  NULL when none, or when @home is unset or "/".
 */
const struct secret *secret_find(const char *path, const char *home,
				 bool *holds);

#endif /* CORRAL_SECRETS_H */
