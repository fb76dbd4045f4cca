/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tap.h - a minimal TAP producer for host unit tests. */
#ifndef CORRAL_TAP_H
#define CORRAL_TAP_H

#include <stdio.h>

/*
 * One pair of counters per program, however many of its files count
 * results (test-profile is several): weak, so that the linker makes each
 * file's definition the same object.
 */
__attribute__((weak)) int tap_n, tap_failed;

#define TAP_OK(cond, ...) do {						\
	int ok_ = !!(cond);						\
	printf("%sok %d - ", ok_ ? "" : "not ", ++tap_n);		\
	printf(__VA_ARGS__);						\
	printf("\n");							\
	if (!ok_) {							\
		tap_failed++;						\
		printf("#   failed at %s:%d: %s\n", __FILE__, __LINE__,	\
		       #cond);						\
	}								\
} while (0)

#define TAP_EQ(expected, actual, ...) do {				\
	long long e_ = (long long)(expected), a_ = (long long)(actual);	\
	TAP_OK(e_ == a_, __VA_ARGS__);					\
	if (e_ != a_)							\
		printf("#   expected %lld, got %lld\n", e_, a_);	\
} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
