/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli.h - the command line, parsed into struct corral_opts. */
#ifndef CORRAL_CLI_H
#define CORRAL_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "policy.h"

enum corral_command {
	CORRAL_CMD_RUN,      /* corral [OPTIONS] [--] CMD [ARGS] */
	CORRAL_CMD_SETUP,    /* corral setup */
	CORRAL_CMD_STATUS,   /* corral status */
	CORRAL_CMD_TEARDOWN, /* corral teardown [--force] */
	CORRAL_CMD_HELP,     /* --help or --version was printed */
};

enum corral_engine {
	CORRAL_ENGINE_AUTO,
	CORRAL_ENGINE_BPF,
	CORRAL_ENGINE_LANDLOCK,
};

struct corral_opts {
	enum corral_command command;
	enum corral_engine engine;
	struct policy policy;
	char **argv;         /* the command to run, NULL-terminated */
	bool force;
	bool debug;
};

/*
 * Parses argv into @opts.  Returns 0, or -EINVAL after printing one
 * message naming the bad argument.  --help and --version print to @out
 * and set command to CORRAL_CMD_HELP.
 */
int cli_parse(int argc, char **argv, struct corral_opts *opts, FILE *out);
void cli_free(struct corral_opts *opts);

#endif /* CORRAL_CLI_H */
