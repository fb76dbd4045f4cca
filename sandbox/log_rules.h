/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * log_rules.h - which rule a --log denial is about.
 *
 * A denial line ends with the rule that took the right away ("taken
 * away by deny = -/home/u/.ssh at secrets.profile:20") or, when no rule
 * grants it, the nearest rule met on the path and the smallest rule to
 * add, the way `corral explain` answers (explain.h).
 *
 * The rules' names are written by the parser child, which alone has
 * them: one NUL-terminated text per rule it sends, in the order of the
 * rule fds, into a sealed memfd attached to the launch message with
 * --log.  The watcher (the launcher after it dropped every privilege,
 * outside the sandbox) reads that table, stats each rule's fd, and
 * judges each denied path against them with explain_judge().  A table
 * that does not match the rules only costs the attribution, never the
 * denial line.
 */
#ifndef CORRAL_LOG_RULES_H
#define CORRAL_LOG_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "corral_abi.h"
#include "policy.h"

struct log_rules;

/*
 * Parser side: the sealed memfd naming rules @kept[0..@n) of @policy (the
 * rules the launch message carries, in order).  Returns the fd or -errno
 * after a message.
 */
int log_rules_write(const struct policy *policy, const uint32_t *kept,
		    size_t n);

/*
 * Watcher side: the table in @text_fd for the @n rules of @rule_fds,
 * which allow @access and deny @deny.  NULL (and no message) when the
 * table does not match; the denial lines then name no rule.
 */
struct log_rules *log_rules_load(int text_fd, const int *rule_fds,
				 const uint32_t *access, const uint32_t *deny,
				 size_t n);
void log_rules_free(struct log_rules *rules);

/*
 * ": taken away by deny = ..." or ": no rule grants write (nearest:
 * ...); add: --allow write:/p" for a denial of a file right in @buf;
 * "" when there is nothing to say (not a file denial, a path cut short,
 * an object gone since).  @ctx is the struct log_rules.
 */
const char *log_rules_why(const struct corral_event *ev, const void *ctx,
			  char *buf, size_t size);

#endif /* CORRAL_LOG_RULES_H */
