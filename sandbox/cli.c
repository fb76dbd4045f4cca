// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "config.h"
#include "util.h"

enum {
	OPT_RO = 0x100, OPT_RX, OPT_RW, OPT_RWX, OPT_ALLOW, OPT_ENGINE,
	OPT_FORCE, OPT_DEBUG, OPT_HELP, OPT_VERSION,
};

static const struct option long_options[] = {
	{ "ro",      required_argument, NULL, OPT_RO },
	{ "rx",      required_argument, NULL, OPT_RX },
	{ "rw",      required_argument, NULL, OPT_RW },
	{ "rwx",     required_argument, NULL, OPT_RWX },
	{ "allow",   required_argument, NULL, OPT_ALLOW },
	{ "engine",  required_argument, NULL, OPT_ENGINE },
	{ "force",   no_argument,       NULL, OPT_FORCE },
	{ "debug",   no_argument,       NULL, OPT_DEBUG },
	{ "help",    no_argument,       NULL, OPT_HELP },
	{ "version", no_argument,       NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static const struct {
	const char *name;
	enum corral_command command;
} subcommands[] = {
	{ "setup",    CORRAL_CMD_SETUP },
	{ "status",   CORRAL_CMD_STATUS },
	{ "teardown", CORRAL_CMD_TEARDOWN },
};

static void usage(FILE *out)
{
	fputs("Usage: corral [OPTION]... [--] COMMAND [ARG]...\n"
	      "       corral setup | status | teardown [--force]\n"
	      "Run COMMAND, and every process it starts, confined to the\n"
	      "directory trees allowed below (nothing else is reachable).\n"
	      "\n"
	      "  --ro PATH             read files and list directories under PATH\n"
	      "  --rx PATH             as --ro, and execute\n"
	      "  --rw PATH             as --ro, and write, truncate, create, remove,\n"
	      "                        rename/link into (refer), device ioctl\n"
	      "  --rwx PATH            as --rw, and execute\n"
	      "  --allow RIGHTS:PATH   single rights, comma-separated: read, readdir,\n"
	      "                        write, exec, truncate, create, remove, refer,\n"
	      "                        ioctl (or a group: ro, rx, rw, rwx)\n"
	      "  --engine=ENGINE       bpf, landlock or auto (default: bpf if set up,\n"
	      "                        else landlock with a warning)\n"
	      "  --debug               print libbpf and verifier messages\n"
	      "  --help, --version     print this help or the version\n"
	      "\n"
	      "  setup                 load and pin the BPF-LSM programs (root)\n"
	      "  status                show the bpf LSM, programs and live domains\n"
	      "  teardown [--force]    unpin the programs (--force: even in use)\n"
	      "\n"
	      "Exit status: COMMAND's own; 125 corral failed; 126 COMMAND not\n"
	      "executable; 127 COMMAND not found.  See corral(1).\n", out);
}

static int add_allow(struct policy *policy, const char *arg)
{
	const char *colon = strchr(arg, ':');
	const char *bad = NULL;
	_cleanup_free_ char *names = NULL;
	uint32_t access;

	if (!colon || colon == arg || !colon[1]) {
		warn_msg("--allow %s: expected RIGHTS:PATH, e.g. "
			 "--allow read,exec:/usr", arg);
		return -EINVAL;
	}
	names = xstrdup(arg);
	names[colon - arg] = '\0';
	if (rights_parse(names, &access, &bad) < 0) {
		warn_msg("--allow %s: unknown right '%.*s' (rights: read, "
			 "readdir, write, exec, truncate, create, remove, "
			 "refer, ioctl; groups: ro, rx, rw, rwx)", arg,
			 (int)strcspn(bad, ","), bad);
		return -EINVAL;
	}
	policy_add(policy, colon + 1, access, "--allow on the command line");
	return 0;
}

static int parse_engine(const char *arg, enum corral_engine *engine)
{
	if (!strcmp(arg, "auto"))
		*engine = CORRAL_ENGINE_AUTO;
	else if (!strcmp(arg, "bpf"))
		*engine = CORRAL_ENGINE_BPF;
	else if (!strcmp(arg, "landlock"))
		*engine = CORRAL_ENGINE_LANDLOCK;
	else {
		warn_msg("--engine=%s: unknown engine (use bpf, landlock or "
			 "auto)", arg);
		return -EINVAL;
	}
	return 0;
}

static int parse_option(int opt, struct corral_opts *opts, FILE *out)
{
	static const char *const groups[] = { "ro", "rx", "rw", "rwx" };
	static const char *const origins[] = {
		"--ro on the command line", "--rx on the command line",
		"--rw on the command line", "--rwx on the command line",
	};

	switch (opt) {
	case OPT_RO:
	case OPT_RX:
	case OPT_RW:
	case OPT_RWX:
		if (!optarg[0]) {
			warn_msg("--%s: empty path", groups[opt - OPT_RO]);
			return -EINVAL;
		}
		policy_add(&opts->policy, optarg,
			   rights_group(groups[opt - OPT_RO]),
			   origins[opt - OPT_RO]);
		return 0;
	case OPT_ALLOW:
		return add_allow(&opts->policy, optarg);
	case OPT_ENGINE:
		return parse_engine(optarg, &opts->engine);
	case OPT_FORCE:
		opts->force = true;
		return 0;
	case OPT_DEBUG:
		opts->debug = true;
		return 0;
	case OPT_HELP:
		usage(out);
		opts->command = CORRAL_CMD_HELP;
		return 0;
	case OPT_VERSION:
		fprintf(out, "corral %s\n", PACKAGE_VERSION);
		opts->command = CORRAL_CMD_HELP;
		return 0;
	default:
		warn_msg("try 'corral --help'");
		return -EINVAL;
	}
}

static int finish(int argc, char **argv, struct corral_opts *opts)
{
	if (opts->command == CORRAL_CMD_HELP)
		return 0;
	if (opts->command != CORRAL_CMD_RUN) {
		if (optind < argc) {
			warn_msg("%s: unexpected argument '%s'",
				 argv[1], argv[optind]);
			return -EINVAL;
		}
		if (opts->policy.n_rules) {
			warn_msg("%s takes no rules", argv[1]);
			return -EINVAL;
		}
		return 0;
	}
	if (opts->force) {
		warn_msg("--force only applies to 'corral teardown'");
		return -EINVAL;
	}
	if (optind >= argc) {
		warn_msg("no command given (try 'corral --help')");
		return -EINVAL;
	}
	opts->argv = argv + optind;
	return 0;
}

int cli_parse(int argc, char **argv, struct corral_opts *opts, FILE *out)
{
	int opt;

	memset(opts, 0, sizeof(*opts));
	optind = 1;
	opterr = 1;
	if (argc > 1) {
		for (size_t i = 0; i < sizeof(subcommands) / sizeof(*subcommands);
		     i++)
			if (!strcmp(argv[1], subcommands[i].name)) {
				opts->command = subcommands[i].command;
				optind = 2;
			}
	}
	/* '+': options end at COMMAND, whose own options are its business. */
	while ((opt = getopt_long(argc, argv, "+", long_options, NULL)) != -1) {
		int r = parse_option(opt, opts, out);

		if (r < 0)
			return r;
		if (opts->command == CORRAL_CMD_HELP)
			return 0;
	}
	return finish(argc, argv, opts);
}

void cli_free(struct corral_opts *opts)
{
	policy_free(&opts->policy);
}
