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
 *
 * With @summary (a bpf launch without --log or --quiet), nothing is printed
 * while the command runs: the denials that are not routine are counted,
 * the first one kept, and log_finish() prints one line, if any:
 * "corral: 3 accesses refused (first: read ~/.ssh/id_rsa by git); rerun
 * with --log to see them".
 */
#define LOG_SEEN_SLOTS 1024
#define LOG_LINE_MAX (3 * 4096)   /* a denial, its path and its rule */
#define LOG_FIRST_MAX (CORRAL_EVENT_NAMES * CORRAL_EVENT_NAME_LEN + 160)

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
	bool summary;          /* count; log_finish() says it in one line */
	const char *home;      /* summary: written ~ at the head of a path */
	uint64_t refused;      /* summary: the denials counted */
	char first[LOG_FIRST_MAX]; /* summary: "read ~/x by cat" */
};
void log_print_event(const struct corral_event *ev, void *printer);
void log_finish(struct log_printer *p);

#endif /* CORRAL_LOG_PRINT_H */
