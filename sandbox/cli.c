// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "netrule.h"
#include "util.h"

enum {
	OPT_RO = 0x100, OPT_RX, OPT_RW, OPT_RWX, OPT_ALLOW, OPT_ENGINE,
	OPT_FORCE, OPT_DEBUG, OPT_HELP, OPT_VERSION, OPT_PROFILE,
	OPT_PRINT_PROFILE, OPT_LOG, OPT_OUTPUT, OPT_BASE, OPT_NET,
	OPT_CONNECT_TCP, OPT_BIND_TCP, OPT_CONNECT_UDP, OPT_BIND_UDP,
	OPT_QUIET, OPT_LOG_ALL, OPT_DENY, OPT_OP, OPT_PROJECT,
	OPT_NET_BEST_EFFORT,
};

static const struct option long_options[] = {
	{ "ro",      required_argument, NULL, OPT_RO },
	{ "rx",      required_argument, NULL, OPT_RX },
	{ "rw",      required_argument, NULL, OPT_RW },
	{ "rwx",     required_argument, NULL, OPT_RWX },
	{ "allow",   required_argument, NULL, OPT_ALLOW },
	{ "deny",    required_argument, NULL, OPT_DENY },
	{ "engine",  required_argument, NULL, OPT_ENGINE },
	{ "force",   no_argument,       NULL, OPT_FORCE },
	{ "debug",   no_argument,       NULL, OPT_DEBUG },
	{ "help",    no_argument,       NULL, OPT_HELP },
	{ "version", no_argument,       NULL, OPT_VERSION },
	{ "profile", required_argument, NULL, OPT_PROFILE },
	{ "project", required_argument, NULL, OPT_PROJECT },
	{ "print-profile", optional_argument, NULL, OPT_PRINT_PROFILE },
	{ "log",     optional_argument, NULL, OPT_LOG },
	{ "log-all", optional_argument, NULL, OPT_LOG_ALL },
	{ "output",  required_argument, NULL, OPT_OUTPUT },
	{ "base",    required_argument, NULL, OPT_BASE },
	{ "net",     required_argument, NULL, OPT_NET },
	{ "connect-tcp", required_argument, NULL, OPT_CONNECT_TCP },
	{ "bind-tcp", required_argument, NULL, OPT_BIND_TCP },
	{ "connect-udp", required_argument, NULL, OPT_CONNECT_UDP },
	{ "bind-udp", required_argument, NULL, OPT_BIND_UDP },
	{ "quiet",   no_argument,       NULL, OPT_QUIET },
	{ "net-best-effort", no_argument, NULL, OPT_NET_BEST_EFFORT },
	{ "op",      required_argument, NULL, OPT_OP },
	{ NULL, 0, NULL, 0 },
};

static const struct {
	const char *name;
	enum corral_command command;
} subcommands[] = {
	{ "setup",    CORRAL_CMD_SETUP },
	{ "status",   CORRAL_CMD_STATUS },
	{ "teardown", CORRAL_CMD_TEARDOWN },
	{ "profiles", CORRAL_CMD_PROFILES },
	{ "check",    CORRAL_CMD_CHECK },
	{ "learn",    CORRAL_CMD_LEARN },
	{ "explain",  CORRAL_CMD_EXPLAIN },
};

/* One 24-line screen at most (a test checks). */
static void usage(FILE *out)
{
	fputs("Usage: corral [OPTION]... [--] COMMAND [ARG]...\n"
	      "       corral setup | status | teardown [--force] | profiles | "
	      "check FILE...\n"
	      "Run COMMAND and all it starts confined to the trees allowed.\n"
	      "  --profile NAME|FILE  add a profile's rules (repeatable)\n"
	      "  --project DIR        ${PROJECT} in profiles (default: git work "
	      "tree, or .)\n"
	      "  --print-profile[=NAME]  print the merged rules as INI, exit\n"
	      "  --ro PATH            read files and list directories\n"
	      "  --rx PATH            as --ro, and execute (--rwx PATH: as --rw, "
	      "and execute)\n"
	      "  --rw PATH            as --ro + write, truncate, create, remove, "
	      "refer, ioctl\n"
	      "  --allow RIGHTS:PATH  read, readdir, write, exec, truncate, "
	      "create, remove,\n"
	      "                       refer, ioctl, connect-unix (a socket), "
	      "or ro,rx,rw,rwx\n"
	      "  --deny [RIGHTS:]PATH  take rights (default all) away beneath "
	      "PATH (bpf)\n"
	      "  --{connect,bind}-{tcp,udp} [ADDR[/N]:]PORT[-PORT], "
	      "--net=all|none  network\n"
	      "  --net-best-effort    Landlock: run network rules it cannot "
	      "enforce (warned)\n"
	      "  --engine=bpf|landlock|auto  default: bpf if set up, else "
	      "landlock, warned\n"
	      "  --log[=FILE]         print denials (bpf); --log-all[=FILE]: "
	      "routine ones too\n"
	      "  -q, --debug, -h, -V  no Landlock warning; verifier log (setup); "
	      "help; version\n"
	      "  setup, status, teardown  load, show, unpin the BPF programs "
	      "(root)\n"
	      "  learn -o FILE [--base PROFILE] -- COMMAND  write a profile "
	      "from a run\n"
	      "  profiles, check FILE...  list profiles; validate profile "
	      "files\n"
	      "  explain [--op OP] PATH|ADDR:PORT|SRC DST  would it be allowed? "
	      "which rule?\n"
	      "Run as NAME (a symlink NAME -> corral): NAME in PATH under "
	      "profile NAME.\n"
	      "Exit: COMMAND's; 125 corral failed; 126 cannot exec; 127 not "
	      "found.  corral(1)\n", out);
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
		warn_msg("--allow %s: unknown right '%.*s' (%s)", arg,
			 (int)strcspn(bad, ","), bad, rights_hint());
		return -EINVAL;
	}
	policy_add(policy, colon + 1, access, "--allow on the command line");
	return 0;
}

/* --deny PATH or --deny RIGHTS:PATH: a colon in a path that starts with
 * '/' is the path's own. */
static int add_deny(struct policy *policy, const char *arg)
{
	const char *origin = "--deny on the command line";
	const char *colon = strchr(arg, ':');
	const char *bad = NULL;
	_cleanup_free_ char *names = NULL;
	uint32_t deny;

	if (!arg[0]) {
		warn_msg("--deny: empty path");
		return -EINVAL;
	}
	if (arg[0] == '/' || !colon) {
		policy_add_deny(policy, arg, CORRAL_ACCESS_ALL, false, origin);
		return 0;
	}
	names = xstrdup(arg);
	names[colon - arg] = '\0';
	if (colon == arg || !colon[1] ||
	    rights_parse(names, &deny, &bad) < 0) {
		warn_msg("--deny %s: unknown right '%.*s' (%s)", arg,
			 bad ? (int)strcspn(bad, ",") : 0, bad ? bad : "",
			 rights_hint());
		return -EINVAL;
	}
	policy_add_deny(policy, colon + 1, deny, false, origin);
	return 0;
}

static int add_net(struct policy *policy, int opt, const char *arg)
{
	static const char *const flags[] = {
		"connect-tcp", "bind-tcp", "connect-udp", "bind-udp",
	};
	const char *flag = flags[opt - OPT_CONNECT_TCP];
	char origin[64], why[256];

	snprintf(origin, sizeof(origin), "--%s on the command line", flag);
	if (netrule_add_list(policy, netrule_op(flag), arg, origin, why,
			     sizeof(why)) < 0) {
		warn_msg("--%s %s: %s", flag, arg, why);
		return -EINVAL;
	}
	return 0;
}

static int set_net_mode(struct policy *policy, const char *arg)
{
	enum policy_net_mode mode;

	if (netrule_mode(arg, &mode) < 0) {
		warn_msg("--net=%s: use all, none or rules", arg);
		return -EINVAL;
	}
	policy_set_net_mode(policy, mode, "--net on the command line");
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

static void add_profile(struct corral_opts *opts, const char *spec)
{
	opts->profiles = xrealloc(opts->profiles, opts->n_profiles + 1,
				  sizeof(*opts->profiles));
	opts->profiles[opts->n_profiles++] = spec;
}

static int set_print_profile(struct corral_opts *opts, const char *name)
{
	if (opts->command != CORRAL_CMD_RUN &&
	    opts->command != CORRAL_CMD_PRINT_PROFILE) {
		warn_msg("--print-profile is not an option of a subcommand "
			 "(try 'corral --print-profile=NAME')");
		return -EINVAL;
	}
	opts->command = CORRAL_CMD_PRINT_PROFILE;
	if (name && !name[0]) {
		warn_msg("--print-profile=: empty profile name");
		return -EINVAL;
	}
	if (name)
		add_profile(opts, name);
	return 0;
}

/* --project DIR: checked, and made ${PROJECT}, by the parser child. */
static int set_project(struct corral_opts *opts, const char *dir)
{
	if (opts->project) {
		warn_msg("--project %s: --project %s was given already (give "
			 "one project)", dir, opts->project);
		return -EINVAL;
	}
	if (!dir[0]) {
		warn_msg("--project: empty path (give the project's "
			 "directory)");
		return -EINVAL;
	}
	opts->project = dir;
	return 0;
}

/* --ro, --rx, --rw or --rwx (@opt) PATH */
static int add_group_rule(struct policy *policy, int opt, const char *path)
{
	static const char *const groups[] = { "ro", "rx", "rw", "rwx" };
	static const char *const origins[] = {
		"--ro on the command line", "--rx on the command line",
		"--rw on the command line", "--rwx on the command line",
	};

	if (!path[0]) {
		warn_msg("--%s: empty path", groups[opt - OPT_RO]);
		return -EINVAL;
	}
	policy_add(policy, path, rights_group(groups[opt - OPT_RO]),
		   origins[opt - OPT_RO]);
	return 0;
}

static int parse_option(int opt, struct corral_opts *opts, FILE *out)
{
	switch (opt) {
	case OPT_RO:
	case OPT_RX:
	case OPT_RW:
	case OPT_RWX:
		return add_group_rule(&opts->policy, opt, optarg);
	case OPT_ALLOW:
		return add_allow(&opts->policy, optarg);
	case OPT_DENY:
		return add_deny(&opts->policy, optarg);
	case OPT_ENGINE:
		return parse_engine(optarg, &opts->engine);
	case OPT_NET:
		return set_net_mode(&opts->policy, optarg);
	case OPT_CONNECT_TCP:
	case OPT_BIND_TCP:
	case OPT_CONNECT_UDP:
	case OPT_BIND_UDP:
		return add_net(&opts->policy, opt, optarg);
	case OPT_FORCE:
		opts->force = true;
		return 0;
	case OPT_DEBUG:
		opts->debug = true;
		return 0;
	case OPT_QUIET:
		opts->quiet = true;
		return 0;
	case OPT_NET_BEST_EFFORT:
		opts->net_best_effort = true;
		return 0;
	case OPT_PROFILE:
		add_profile(opts, optarg);
		return 0;
	case OPT_PROJECT:
		return set_project(opts, optarg);
	case OPT_PRINT_PROFILE:
		return set_print_profile(opts, optarg);
	case OPT_LOG:
	case OPT_LOG_ALL:
		opts->log = true;
		opts->log_all = opt == OPT_LOG_ALL;
		opts->log_file = optarg;
		return 0;
	case OPT_OUTPUT:
	case OPT_BASE:
		if (opts->command != CORRAL_CMD_LEARN) {
			warn_msg("--%s only applies to 'corral learn'",
				 opt == OPT_OUTPUT ? "output" : "base");
			return -EINVAL;
		}
		if (opt == OPT_OUTPUT)
			opts->learn_output = optarg;
		else
			add_profile(opts, optarg);
		return 0;
	case OPT_OP:
		if (opts->command != CORRAL_CMD_EXPLAIN) {
			warn_msg("--op only applies to 'corral explain'");
			return -EINVAL;
		}
		opts->explain_op = optarg;
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

static int finish_subcommand(int argc, char **argv, struct corral_opts *opts)
{
	if (opts->command == CORRAL_CMD_CHECK) {
		if (optind >= argc) {
			warn_msg("check: no FILE given (corral check "
				 "FILE...)");
			return -EINVAL;
		}
		opts->argv = argv + optind;
	} else if (optind < argc) {
		warn_msg("%s: unexpected argument '%s'", argv[1],
			 argv[optind]);
		return -EINVAL;
	}
	if (opts->project && opts->command != CORRAL_CMD_CHECK) {
		warn_msg("%s takes no --project", argv[1]);
		return -EINVAL;
	}
	if (opts->policy.n_rules || opts->n_profiles || opts->policy.n_net ||
	    opts->policy.n_hosts || opts->policy.net_mode != POLICY_NET_UNSET) {
		warn_msg("%s takes no rules or profiles", argv[1]);
		return -EINVAL;
	}
	return 0;
}

/* Does --op @op take two paths (explain_move_kind() knows them)? */
static bool is_move_op(const char *op)
{
	return op && (!strcmp(op, "rename") || !strcmp(op, "link") ||
		      !strcmp(op, "exchange"));
}

/*
 * explain's operands: exactly @n after the options.  @missing: what to
 * say when there are fewer; @which: what they are, when there are more.
 */
static int explain_operands(int argc, char **argv, struct corral_opts *opts,
			    int n, const char *missing, const char *which)
{
	if (argc - optind < n) {
		warn_msg("explain: %s", missing);
		return -EINVAL;
	}
	if (argc - optind > n) {
		warn_msg("explain: unexpected argument '%s' (%s; options go "
			 "before %s)", argv[optind + n], which,
			 n == 1 ? "it" : "them");
		return -EINVAL;
	}
	opts->argv = argv + optind;
	return 0;
}

/* explain [RULES] [--op OP] TARGET: one path or address, two for a move. */
static int finish_explain(int argc, char **argv, struct corral_opts *opts)
{
	const char *op = opts->explain_op;
	char missing[160];

	if (!is_move_op(op))
		return explain_operands(argc, argv, opts, 1,
					"no PATH or ADDR:PORT given (corral "
					"explain [RULES] [--op OP] "
					"PATH|ADDR:PORT)",
					"one PATH or ADDR:PORT");
	snprintf(missing, sizeof(missing), "--op %s needs two paths (corral "
		 "explain [RULES] --op %s %s)", op, op,
		 strcmp(op, "exchange") ? "SRC DST" : "A B");
	return explain_operands(argc, argv, opts, 2, missing, "two paths");
}

static int finish(int argc, char **argv, struct corral_opts *opts)
{
	if (opts->command == CORRAL_CMD_HELP)
		return 0;
	if (opts->command == CORRAL_CMD_EXPLAIN && !opts->force)
		return finish_explain(argc, argv, opts);
	if (opts->command != CORRAL_CMD_RUN &&
	    opts->command != CORRAL_CMD_PRINT_PROFILE &&
	    opts->command != CORRAL_CMD_LEARN &&
	    opts->command != CORRAL_CMD_EXPLAIN)
		return finish_subcommand(argc, argv, opts);
	if (opts->command == CORRAL_CMD_LEARN && !opts->learn_output) {
		warn_msg("learn: no output file (corral learn -o FILE -- "
			 "COMMAND)");
		return -EINVAL;
	}
	if (opts->force) {
		warn_msg("--force only applies to 'corral teardown'");
		return -EINVAL;
	}
	if (opts->command == CORRAL_CMD_PRINT_PROFILE) {
		if (optind < argc) {
			warn_msg("--print-profile: unexpected argument '%s' "
				 "(it prints the rules and runs nothing)",
				 argv[optind]);
			return -EINVAL;
		}
		return 0;
	}
	if (optind >= argc) {
		warn_msg("no command given (try 'corral --help')");
		return -EINVAL;
	}
	opts->argv = argv + optind;
	return 0;
}

/* argv[0] mode: a symlink "npm -> corral" runs npm under profile npm. */
static bool invoked_as_other(int argc, char **argv, struct corral_opts *opts)
{
	const char *base;

	if (argc < 1 || !argv[0])
		return false;
	base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	if (!base[0] || !strcmp(base, "corral"))
		return false;
	opts->invoked_as = base;
	opts->argv = argv;
	return true;
}

/* -o, -h, -V, -q: the long option each stands for. */
static int short_option(int opt)
{
	switch (opt) {
	case 'o': return OPT_OUTPUT;
	case 'h': return OPT_HELP;
	case 'V': return OPT_VERSION;
	case 'q': return OPT_QUIET;
	default:  return opt;
	}
}

/* What an option's argument is, as --help names it. */
static const char *argument_name(int opt)
{
	switch (opt) {
	case OPT_ALLOW:
		return "RIGHTS:PATH";
	case OPT_PROFILE:
		return "NAME|FILE";
	case OPT_CONNECT_TCP:
	case OPT_BIND_TCP:
	case OPT_CONNECT_UDP:
	case OPT_BIND_UDP:
		return "PORT";
	case OPT_ENGINE:
	case OPT_NET:
	case OPT_OP:
		return "value";
	case OPT_OUTPUT:
		return "FILE";
	case OPT_BASE:
		return "PROFILE";
	default:
		return "PATH";
	}
}

/*
 * getopt_long takes the word after an option as its argument, even
 * "--": "--rx -- make" would allow a directory named "--" and then find
 * no command.  Say what is missing instead.
 */
static int argument_is_dashes(int opt, int index)
{
	const char *name = index >= 0 ? long_options[index].name : "o";

	if (!optarg || strcmp(optarg, "--"))
		return 0;
	warn_msg("-%s%s: %s missing before '--' (e.g. %s%s %s -- COMMAND)",
		 index >= 0 ? "-" : "", name, argument_name(opt),
		 index >= 0 ? "--" : "-", name, argument_name(opt));
	return -EINVAL;
}

int cli_parse(int argc, char **argv, struct corral_opts *opts, FILE *out)
{
	int opt, index = -1;

	memset(opts, 0, sizeof(*opts));
	if (invoked_as_other(argc, argv, opts))
		return 0;
	optind = 1;
	opterr = 1;
	if (argc > 1 && !strcmp(argv[1], "help")) {
		usage(out);
		opts->command = CORRAL_CMD_HELP;
		return 0;
	}
	if (argc > 1) {
		for (size_t i = 0; i < sizeof(subcommands) / sizeof(*subcommands);
		     i++)
			if (!strcmp(argv[1], subcommands[i].name)) {
				opts->command = subcommands[i].command;
				optind = 2;
			}
	}
	/* '+': options end at COMMAND, whose own options are its business. */
	while ((opt = getopt_long(argc, argv, "+o:hVq", long_options,
				  &index)) != -1) {
		int r = argument_is_dashes(short_option(opt), index);

		if (r == 0)
			r = parse_option(short_option(opt), opts, out);
		index = -1;

		if (r < 0)
			return r;
		if (opts->command == CORRAL_CMD_HELP)
			return 0;
	}
	return finish(argc, argv, opts);
}

static int load_invoked_as(const char *name, const struct profile_env *env,
			   struct policy *policy,
			   struct profile_result *result)
{
	_cleanup_free_ char *path = profile_find(env, name);
	_cleanup_free_ char *where = NULL;

	if (!path) {
		where = profile_search_text(env);
		warn_msg("run as '%s', but there is no profile %s.profile in "
			 "%s (add one, or run the program itself instead of "
			 "the symlink to corral)", name, name, where);
		return -ENOENT;
	}
	return profile_load(env, name, policy, result);
}

/*
 * A launch with profiles of which none, nor the command line, says
 * anything about the network gets none of it; flags alone keep
 * Landlock's rule (no network rule, no network confinement).
 */
static void default_net(struct policy *merged, const struct corral_opts *opts)
{
	if (merged->net_mode != POLICY_NET_UNSET)
		return;
	if (!opts->invoked_as && !opts->n_profiles)
		return;
	policy_set_net_mode(merged, POLICY_NET_NONE, POLICY_NET_DEFAULT_NONE);
}

int cli_load_profiles(struct corral_opts *opts, const struct profile_env *env,
		      struct profile_result *result)
{
	struct policy merged = { 0 };
	const struct policy *flags = &opts->policy;
	int r = 0;

	if (opts->invoked_as)
		r = load_invoked_as(opts->invoked_as, env, &merged, result);
	for (size_t i = 0; i < opts->n_profiles; i++)
		if (profile_load(env, opts->profiles[i], &merged, result) < 0)
			r = -EINVAL;
	if (r < 0) {
		policy_free(&merged);
		return r;
	}
	for (size_t i = 0; i < flags->n_rules; i++)
		policy_copy_rule(&merged, &flags->rules[i]);
	for (size_t i = 0; i < flags->n_net; i++)
		if (policy_add_net(&merged, &flags->net[i],
				   flags->net_origin[i]) < 0) {
			warn_msg("%s: more than %d network rules with the "
				 "profiles' (use port ranges or prefixes)",
				 flags->net_origin[i], POLICY_MAX_NET_RULES);
			policy_free(&merged);
			return -ENOSPC;
		}
	for (size_t i = 0; i < flags->n_hosts; i++)
		policy_add_host(&merged, flags->hosts[i].name,
				&flags->hosts[i].rule, flags->hosts[i].optional,
				flags->hosts[i].origin);
	if (flags->net_mode != POLICY_NET_UNSET &&
	    strncmp(flags->net_mode_origin, "implied", 7))
		policy_set_net_mode(&merged, flags->net_mode,
				    flags->net_mode_origin);
	for (int i = 0; i < POLICY_N_SETTINGS; i++)
		if (flags->sandbox.value[i] != POLICY_UNSET)
			policy_set(&merged, i, flags->sandbox.value[i],
				   flags->sandbox.origin[i]);
	default_net(&merged, opts);
	if (policy_imply_udp_bind(&merged) < 0) {
		warn_msg("bind-udp = 0, implied by connect-udp: more than %d "
			 "network rules (add 'bind-udp = 0' yourself in place "
			 "of another)", POLICY_MAX_NET_RULES);
		policy_free(&merged);
		return -ENOSPC;
	}
	policy_free(&opts->policy);
	opts->policy = merged;
	return 0;
}

/* Whether @file is an executable regular file other than @exclude. */
static bool is_other_program(const char *file, const struct stat *exclude)
{
	struct stat st;

	if (stat(file, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	if (exclude && st.st_dev == exclude->st_dev &&
	    st.st_ino == exclude->st_ino)
		return false;
	return access(file, X_OK) == 0;
}

int cli_path_next(const char *name, const char **cursor,
		  const struct stat *exclude, enum path_uncertain uncertain,
		  char *out, size_t size)
{
	for (const char *p = *cursor; *p; p = *cursor) {
		size_t len = strcspn(p, ":");

		*cursor = p + len + (p[len] == ':');
		/* relative entries (and "", meaning ".") are uncertain */
		if (p[0] == '/' &&
		    snprintf(out, size, "%.*s/%s", (int)len, p, name) <
		    (int)size) {
			if (is_other_program(out, exclude))
				return 0;
		} else if (uncertain == PATH_STOP_AT_UNCERTAIN) {
			break;
		}
	}
	out[0] = '\0';
	return -ENOENT;
}

int cli_path_search(const char *name, const char *path,
		    const struct stat *exclude, enum path_uncertain uncertain,
		    char *out, size_t size)
{
	return cli_path_next(name, &path, exclude, uncertain, out, size);
}

int cli_find_program(const char *name, const char *path, char **found)
{
	struct stat self;
	char file[PATH_MAX];

	*found = NULL;
	if (stat("/proc/self/exe", &self) < 0)
		return error_errno(-errno, "/proc/self/exe: cannot tell which "
				   "file corral is (is /proc mounted?)");
	if (!path)
		path = CLI_DEFAULT_PATH;
	if (cli_path_search(name, path, &self, PATH_SKIP_UNCERTAIN, file,
			    sizeof(file)) < 0)
		return -ENOENT;
	*found = xstrdup(file);
	return 0;
}

void cli_free(struct corral_opts *opts)
{
	policy_free(&opts->policy);
	free(opts->profiles);
	opts->profiles = NULL;
	opts->n_profiles = 0;
}
