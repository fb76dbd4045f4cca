// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - corral: run a command confined to the trees a policy allows. */
#include "config.h"

#include <stdio.h>

#include "cli.h"
#include "engine_bpf.h"
#include "launch.h"
#include "util.h"

int main(int argc, char **argv)
{
	struct corral_opts opts;

	if (cli_parse(argc, argv, &opts, stdout) < 0)
		return CORRAL_EXIT_FAILURE;
	switch (opts.command) {
	case CORRAL_CMD_HELP:
		return 0;
	case CORRAL_CMD_SETUP:
		return bpf_admin_setup(opts.debug);
	case CORRAL_CMD_STATUS:
		return bpf_admin_status();
	case CORRAL_CMD_TEARDOWN:
		return bpf_admin_teardown(opts.force);
	case CORRAL_CMD_RUN:
		launch(&opts);
	default:
		die("internal error: unknown command %d", (int)opts.command);
	}
}
