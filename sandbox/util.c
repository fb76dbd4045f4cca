// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

static void vmessage(const char *fmt, va_list ap, int err)
{
	fputs("corral: ", stderr);
	vfprintf(stderr, fmt, ap);
	if (err)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, 0);
	va_end(ap);
	exit(CORRAL_EXIT_FAILURE);
}

void die_errno(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, err);
	va_end(ap);
	exit(CORRAL_EXIT_FAILURE);
}

void die_with_status(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, 0);
	va_end(ap);
	exit(status);
}

void warn_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, 0);
	va_end(ap);
}

int error_errno(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, err < 0 ? -err : err);
	va_end(ap);
	return err < 0 ? err : -err;
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		die("out of memory allocating %zu bytes", size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		die("out of memory allocating %zu x %zu bytes", nmemb, size);
	return p;
}

void *xrealloc(void *ptr, size_t nmemb, size_t size)
{
	void *p;

	if (size && nmemb > (size_t)-1 / size)
		die("out of memory: %zu x %zu bytes overflows", nmemb, size);
	size *= nmemb;
	p = realloc(ptr, size ? size : 1);
	if (!p)
		die("out of memory allocating %zu bytes", size);
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die("out of memory copying a %zu-byte string", strlen(s));
	return p;
}

const char *fd_name(int fd, char *buf, size_t size)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, size - 1);
	if (n < 0)
		return strcpy(buf, "?");
	buf[n] = '\0';
	return buf;
}

static struct rlimit fd_limit_start;

void fd_limit_raise(void)
{
	struct rlimit raised;

	if (getrlimit(RLIMIT_NOFILE, &fd_limit_start) < 0)
		die_errno("reading the open-files limit (RLIMIT_NOFILE)");
	raised = fd_limit_start;
	raised.rlim_cur = raised.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &raised) < 0)
		die_errno("raising the open-files limit to its hard limit %llu",
			  (unsigned long long)raised.rlim_max);
}

void fd_limit_restore(void)
{
	if (fd_limit_start.rlim_cur &&
	    setrlimit(RLIMIT_NOFILE, &fd_limit_start) < 0)
		die_errno("restoring the open-files limit to %llu; the command "
			  "was not run", (unsigned long long)fd_limit_start.rlim_cur);
}

unsigned long long fd_limit_hard(void)
{
	return (unsigned long long)fd_limit_start.rlim_max;
}
