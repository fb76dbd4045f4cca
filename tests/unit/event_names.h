/* SPDX-License-Identifier: GPL-2.0-or-later */
/* event_names.h - a path into a corral_event's names, as the BPF side
 * writes them (leaf first), for the host tests of what --log prints. */
#ifndef CORRAL_TEST_EVENT_NAMES_H
#define CORRAL_TEST_EVENT_NAMES_H

#include <stdio.h>
#include <string.h>

#include "corral_abi.h"

/* @path ("/a/b/c") into @ev's names, leaf first. */
static void set_names(struct corral_event *ev, const char *path)
{
	char copy[CORRAL_EVENT_NAMES * CORRAL_EVENT_NAME_LEN];
	char *names[CORRAL_EVENT_NAMES], *save = NULL;
	uint32_t n = 0;

	snprintf(copy, sizeof(copy), "%s", path);
	for (char *s = strtok_r(copy, "/", &save);
	     s && n < CORRAL_EVENT_NAMES; s = strtok_r(NULL, "/", &save))
		names[n++] = s;
	ev->n_names = n;
	for (uint32_t i = 0; i < n; i++)
		snprintf(ev->names[i], CORRAL_EVENT_NAME_LEN, "%s",
			 names[n - 1 - i]);
}

#endif
