/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * deny_pins.h - the directories whose names a deny pins (deny_pins.c).
 */
#ifndef CORRAL_DENY_PINS_H
#define CORRAL_DENY_PINS_H

#include <stddef.h>

#include "policy.h"

/* Pins the name of the directory @fd (O_PATH); 0 or -errno. */
typedef int deny_pin_fn(void *ctx, int fd);

/*
 * Calls @pin for every directory above a deny of @rules that an allow
 * of @rules lets the sandbox rename or remove: one with an allow on a
 * directory strictly above it.  Each directory once.  Returns 0, or
 * -errno after one line naming the directory that could not be opened.
 */
int deny_pins(const struct opened_rule *rules, size_t n, deny_pin_fn *pin,
	      void *ctx);

#endif /* CORRAL_DENY_PINS_H */
