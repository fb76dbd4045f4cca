/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli.h - the command line, parsed into struct corral_opts. */
#ifndef CORRAL_CLI_H
#define CORRAL_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "policy.h"
#include "profile.h"

enum corral_command {
	CORRAL_CMD_RUN,      /* corral [OPTIONS] [--] CMD [ARGS] */
	CORRAL_CMD_SETUP,    /* corral setup */
	CORRAL_CMD_STATUS,   /* corral status */
	CORRAL_CMD_TEARDOWN, /* corral teardown [--force] */
	CORRAL_CMD_LEARN,    /* corral learn -o FILE [--base P] -- CMD */
	CORRAL_CMD_HELP,     /* --help or --version was printed */
	CORRAL_CMD_PROFILES, /* corral profiles */
	CORRAL_CMD_CHECK,    /* corral check FILE... */
	CORRAL_CMD_PRINT_PROFILE, /* corral --print-profile[=NAME] */
	CORRAL_CMD_EXPLAIN,  /* corral explain [RULES] [--op OP] TARGET */
};

enum corral_engine {
	CORRAL_ENGINE_AUTO,
	CORRAL_ENGINE_BPF,
	CORRAL_ENGINE_LANDLOCK,
};

struct corral_opts {
	enum corral_command command;
	enum corral_engine engine;
	struct policy policy; /* flags; cli_load_profiles puts profiles first */
	char **argv;         /* the command to run (check: the files;
				explain: the path or address) */
	const char **profiles; /* --profile NAME|FILE, in order (in argv) */
	size_t n_profiles;
	const char *invoked_as; /* argv[0] mode: the name we were run as */
	const char *project;  /* --project DIR: ${PROJECT}, or NULL */
	bool force;
	bool debug;
	bool quiet;          /* --quiet: no warning that Landlock is used */
	bool net_best_effort; /* --net-best-effort: LAUNCH_NET_BEST_EFFORT */
	bool log;            /* --log: print denials while COMMAND runs */
	const char *log_file; /* --log=FILE, or NULL for stderr */
	bool log_all;        /* --log-all: routine denials and repeats too */
	const char *learn_output; /* learn -o FILE */
	const char *explain_op;   /* explain --op OP, or NULL */
};

/*
 * Parses argv into @opts.  Returns 0, or -EINVAL after printing one
 * message naming the bad argument.  --help and --version print to @out
 * and set command to CORRAL_CMD_HELP.  Run under another name than
 * "corral" (a symlink npm -> corral), every argument is the command's:
 * invoked_as is set and argv is the whole argv.
 */
int cli_parse(int argc, char **argv, struct corral_opts *opts, FILE *out);

/*
 * Reads the profiles named in @opts (and in argv[0] mode the one named
 * after the command) into opts->policy, ahead of the command line's own
 * rules, which add to them.  Returns 0, or -EINVAL with the problems in
 * @result->errors (or printed, when argv[0] names no profile).
 */
int cli_load_profiles(struct corral_opts *opts, const struct profile_env *env,
		      struct profile_result *result);

/* PATH when the environment has none (as argv[0] mode searches it). */
#define CLI_DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"

/*
 * argv[0] mode: the program called @name in @path (colon-separated; NULL
 * for CLI_DEFAULT_PATH), skipping every entry that is corral itself (same
 * device and inode as /proc/self/exe) and relative entries.  Returns 0
 * and a malloc'd path in *@found, or -ENOENT.
 */
int cli_find_program(const char *name, const char *path, char **found);

/* What a PATH search does with an entry it cannot judge: a relative one,
 * or one whose file name would not fit. */
enum path_uncertain { PATH_SKIP_UNCERTAIN, PATH_STOP_AT_UNCERTAIN };

struct stat;
/*
 * The first "DIR/@name" for the entries DIR of colon-separated @path that
 * is a regular file this user may execute, other than @exclude (same
 * device and inode) if given.  Returns 0 with it in @out (@size bytes),
 * or -ENOENT.
 */
int cli_path_search(const char *name, const char *path,
		    const struct stat *exclude, enum path_uncertain uncertain,
		    char *out, size_t size);
/*
 * As cli_path_search, from the entry at *@cursor on; *@cursor is left
 * after the entry of the match, so that the next call goes on from
 * there (argv[0] mode tries each program of the name in turn, as
 * execvp(3) does).
 */
int cli_path_next(const char *name, const char **cursor,
		  const struct stat *exclude, enum path_uncertain uncertain,
		  char *out, size_t size);
void cli_free(struct corral_opts *opts);

#endif /* CORRAL_CLI_H */
