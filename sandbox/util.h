/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util.h - the die family, cleanup attributes and checked allocation.
 *
 * die()/die_errno() are the only way corral exits on its own failure:
 * they print "corral: <what>: <why>" and exit CORRAL_EXIT_FAILURE.  Code
 * below main returns -errno after printing one message instead.
 */
#ifndef CORRAL_UTIL_H
#define CORRAL_UTIL_H

#include <stdbool.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <unistd.h>

/* Exit statuses of corral itself, as env(1) and chroot(1). */
enum {
	CORRAL_EXIT_FAILURE = 125,   /* corral failed before exec */
	CORRAL_EXIT_CANNOT_EXEC = 126, /* command found, not executable */
	CORRAL_EXIT_NOT_FOUND = 127, /* command not found */
};

#define PRINTF(a, b) __attribute__((format(printf, a, b)))

/* Prints "corral: <fmt>", then ": strerror(err)" if @err is not 0, and
 * exits with @status.  The die family below names the usual cases. */
noreturn void die_message(int status, int err, const char *fmt, ...)
	PRINTF(3, 4);
#define die(...) die_message(CORRAL_EXIT_FAILURE, 0, __VA_ARGS__)
#define die_errno(...) die_message(CORRAL_EXIT_FAILURE, errno, __VA_ARGS__)
#define die_with_status(status, ...) die_message(status, 0, __VA_ARGS__)
/* Prints "corral: <fmt>: strerror(-err)" and returns err (negative);
 * with @err 0, no reason and 0. */
int error_errno(int err, const char *fmt, ...) PRINTF(2, 3);
#define warn_msg(...) ((void)error_errno(0, __VA_ARGS__))

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);

/* The path behind @fd (through /proc/self/fd), for messages only: read
 * when a message needs it, not for every rule of every launch.  Returns
 * @buf (of @size >= 2), holding "?" if the path cannot be read. */
const char *fd_name(int fd, char *buf, size_t size);

/*
 * Bytes of the character at @s (@n bytes left) when a terminal shows it
 * as itself: valid UTF-8 that is no control character (C0, DEL, C1);
 * 0 otherwise.
 */
size_t text_printable_len(const char *s, size_t n);
/*
 * @in into @out (@size bytes, truncated) with every byte that
 * text_printable_len() refuses written as \xNN: for text a sandboxed
 * process chose (file names, its command name) on the user's terminal.
 */
char *text_escape(const char *in, char *out, size_t size);

static inline void freep(void *p)
{
	free(*(void **)p);
}

static inline void closep(int *fd)
{
	if (*fd >= 0)
		close(*fd);
}

#define _cleanup_free_ __attribute__((cleanup(freep)))
#define _cleanup_close_ __attribute__((cleanup(closep)))

static inline void *steal_pointer(void *pp)
{
	void **p = pp, *ret = *p;

	*p = NULL;
	return ret;
}

/*
 * A launch holds one fd per rule at once, and a learned profile can have
 * more rules than the usual soft limit of 1024 open files: the launcher
 * (and the parser it forks) raise the soft limit to the hard one, and
 * the command gets back the limit corral started with (select(2) cannot
 * take an fd past 1023).  fd_limit_hard() is the hard limit.
 */
void fd_limit_raise(void);
void fd_limit_restore(void);
unsigned long long fd_limit_hard(void);

static inline int steal_fd(int *fd)
{
	int ret = *fd;

	*fd = -1;
	return ret;
}

/* Is @path @dir or below it (absolute paths, no trailing '/')? */
bool path_is_under(const char *path, const char *dir);

#endif /* CORRAL_UTIL_H */
