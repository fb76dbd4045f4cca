/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * log_print.h - what --log prints: the watcher's printer of the events
 * events.h delivers.
 */
#ifndef CORRAL_LOG_PRINT_H
#define CORRAL_LOG_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "events.h"

/*
 * The --log printer: one line per denial, at most @per_second lines a
 * second; the rest are counted and summarised.  Unless @all (--log-all),
 * routine denials (event_is_routine) are left out, and a denial printed
 * once (the same right on the same path, whichever process) is not
 * printed again.
 */
#define LOG_SEEN_SLOTS 1024
#define LOG_LINE_MAX (3 * 4096)   /* a denial, its path and its rule */

/* Text appended to a denial line (log_rules_why), or NULL. */
typedef const char *(*log_why_fn)(const struct corral_event *ev,
				  const void *ctx, char *buf, size_t size);

struct log_printer {
	FILE *out;
	bool all;
	uint64_t seen[LOG_SEEN_SLOTS];  /* denial_hash() of those printed */
	unsigned per_second;
	uint64_t window_ns;    /* start of the current one-second window */
	unsigned in_window;
	uint64_t suppressed;
	uint64_t lost_at_start; /* events_lost() when the command started */
	log_why_fn why;        /* which rule it is about, or NULL */
	const void *why_ctx;
};
void log_print_event(const struct corral_event *ev, void *printer);
void log_finish(struct log_printer *p);

#endif /* CORRAL_LOG_PRINT_H */
