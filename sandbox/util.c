// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
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

void die_message(int status, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, err);
	va_end(ap);
	exit(status);
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

/* Length of the valid UTF-8 character at @s (of @n bytes), or 0. */
static size_t utf8_len(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t cp;
	size_t len;

	if (u[0] < 0x80)
		return 1;
	if (u[0] >= 0xc2 && u[0] <= 0xdf)
		len = 2, cp = u[0] & 0x1f;
	else if (u[0] >= 0xe0 && u[0] <= 0xef)
		len = 3, cp = u[0] & 0x0f;
	else if (u[0] >= 0xf0 && u[0] <= 0xf4)
		len = 4, cp = u[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (u[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (cp >= 0xd800 && cp <= 0xdfff) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

size_t text_printable_len(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	/* C1 (U+0080-U+009F): some terminals take U+009B for CSI */
	if (u[0] < 0x20 || u[0] == 0x7f || (u[0] == 0xc2 && n > 1 &&
					    u[1] < 0xa0))
		return 0;
	return utf8_len(s, n);
}

char *text_escape(const char *in, char *out, size_t size)
{
	size_t n = strlen(in), used = 0;

	out[0] = '\0';
	for (size_t i = 0, len; i < n; i += len) {
		int w;

		len = text_printable_len(in + i, n - i);
		if (len)
			w = snprintf(out + used, size - used, "%.*s", (int)len,
				     in + i);
		else
			w = snprintf(out + used, size - used, "\\x%02x",
				     (unsigned char)in[i]);
		len += !len;
		if (w < 0 || (size_t)w >= size - used) {
			out[used] = '\0';   /* no character cut in two */
			break;
		}
		used += (size_t)w;
	}
	return out;
}

/* Is @path @dir or below it (absolute paths, no trailing '/')? */
bool path_is_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1)
		return true;    /* "/" */
	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}
