// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * user_env.c - see user_env.h.
 *
 * Where the original environment is: the kernel copies the exec's
 * strings to the top of the stack as argv's strings, then the
 * environment's, then the file name that AT_EXECFN points to, each
 * NUL-terminated and back to back.  glibc's secure-exec clean-up only
 * drops pointers from environ; the strings stay where the kernel put
 * them.  (/proc/self/environ would say the same, but a secure-exec
 * process is not dumpable, so its /proc files belong to root.)
 */
#include "config.h"

#include "user_env.h"

#include <string.h>
#include <sys/auxv.h>

#include "util.h"

extern char **environ;

/* Far more than the kernel's limit on an exec's strings. */
#define MAX_ENV_AREA (64u << 20)

/* Splits NUL-separated "NAME=value" strings; anything else is dropped. */
static char **split(const char *area, size_t len)
{
	size_t n = 0, cap = 64;
	char **env = xcalloc(cap, sizeof(*env));

	for (const char *p = area; p < area + len; p += strlen(p) + 1) {
		if (!strchr(p, '=') || p[0] == '=')
			continue;
		if (n + 1 == cap) {
			cap *= 2;
			env = xrealloc(env, cap, sizeof(*env));
		}
		env[n++] = (char *)p;
	}
	env[n] = NULL;
	return env;
}

char **user_env_read(int argc, char **argv)
{
	const char *execfn = (const char *)getauxval(AT_EXECFN);
	const char *start;

	if (argc < 1 || !argv[argc - 1] || !execfn)
		return environ;
	start = argv[argc - 1] + strlen(argv[argc - 1]) + 1;
	if (execfn < start || (size_t)(execfn - start) > MAX_ENV_AREA ||
	    (execfn > start && execfn[-1] != '\0'))
		return environ;
	return split(start, (size_t)(execfn - start));
}

const char *user_env_get(char *const *env, const char *name)
{
	size_t len = strlen(name);

	for (; env && *env; env++)
		if (!strncmp(*env, name, len) && (*env)[len] == '=')
			return *env + len + 1;
	return NULL;
}
