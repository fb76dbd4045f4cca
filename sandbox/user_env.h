/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * user_env.h - the environment the user gave corral, for the command.
 *
 * Installed with a file capability and setgid, corral is a secure-exec
 * program: glibc removes LD_LIBRARY_PATH, LD_PRELOAD, TMPDIR, MALLOC_*,
 * GCONV_PATH and others from its environment before main(), to protect
 * corral.  The command has no privilege left when it starts, so it gets
 * the environment as the user passed it, read back from where the
 * kernel put it, not what glibc left.
 */
#ifndef CORRAL_USER_ENV_H
#define CORRAL_USER_ENV_H

/*
 * The environment corral was started with, as a NULL-terminated array
 * (pointing into the original strings), from main()'s @argc and @argv
 * before anything changed them.  Falls back to the current environ if
 * the stack does not have the layout Linux's exec gives it.
 */
char **user_env_read(int argc, char **argv);

/* The value of @name in @env (as user_env_read gives it), or NULL. */
const char *user_env_get(char *const *env, const char *name);

#endif /* CORRAL_USER_ENV_H */
