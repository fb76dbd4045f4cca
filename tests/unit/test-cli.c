// SPDX-License-Identifier: GPL-2.0-or-later
/* Host unit tests: command-line parsing and access rights. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "policy.h"
#include "tap.h"

#define ARGV(...) ((char *[]){ "corral", __VA_ARGS__, NULL })
#define ARGC(v) ((int)(sizeof(v) / sizeof(*(v))) - 1)

static FILE *devnull;

static int parse(int argc, char **argv, struct corral_opts *opts)
{
	return cli_parse(argc, argv, opts, devnull);
}

static void test_groups(void)
{
	char *argv[] = { "corral", "--ro", "/a", "--rx", "/b", "--rw", "/c",
			 "--rwx", "/d", "--", "make", "-j2", NULL };
	struct corral_opts o;

	TAP_EQ(0, parse(ARGC(argv), argv, &o), "groups parse");
	TAP_EQ(4, o.policy.n_rules, "one rule per group flag");
	TAP_EQ(CORRAL_ACCESS_READ | CORRAL_ACCESS_READDIR,
	       o.policy.rules[0].access, "--ro is read+readdir");
	TAP_EQ(CORRAL_GROUP_RO | CORRAL_ACCESS_EXEC, o.policy.rules[1].access,
	       "--rx adds exec");
	TAP_OK(!(o.policy.rules[2].access & CORRAL_ACCESS_EXEC) &&
	       (o.policy.rules[2].access & CORRAL_ACCESS_REFER) &&
	       (o.policy.rules[2].access & CORRAL_ACCESS_TRUNCATE),
	       "--rw has refer and truncate, not exec");
	TAP_EQ(CORRAL_ACCESS_ALL & ~CORRAL_ACCESS_CONNECT_UNIX,
	       o.policy.rules[3].access,
	       "--rwx is every right but connect-unix (named explicitly)");
	TAP_OK(!strcmp(o.policy.rules[3].path, "/d"), "rule keeps its path");
	TAP_OK(!strcmp(o.argv[0], "make") && !strcmp(o.argv[1], "-j2"),
	       "the command and its own options follow --");
	cli_free(&o);
}

static void test_command_options_untouched(void)
{
	char **argv = ARGV("--ro", "/usr", "ls", "--rw", "/x");
	struct corral_opts o;

	TAP_EQ(0, parse(6, argv, &o), "options after COMMAND belong to it");
	TAP_EQ(1, o.policy.n_rules, "only the rule before COMMAND is ours");
	TAP_OK(!strcmp(o.argv[0], "ls") && !strcmp(o.argv[1], "--rw"),
	       "COMMAND gets --rw /x");
	cli_free(&o);
}

static void test_allow(void)
{
	char **argv = ARGV("--allow", "read,exec:/opt/a:b", "true");
	struct corral_opts o;

	TAP_EQ(0, parse(4, argv, &o), "--allow parses");
	TAP_EQ(CORRAL_ACCESS_READ | CORRAL_ACCESS_EXEC,
	       o.policy.rules[0].access, "--allow read,exec");
	TAP_OK(!strcmp(o.policy.rules[0].path, "/opt/a:b"),
	       "--allow splits at the first colon");
	cli_free(&o);
}

static void test_deny(void)
{
	char **argv = ARGV("--rw", "/h", "--deny", "/h/.ssh", "--deny",
			   "read,write:/h/a:b", "--deny", "rel", "true");
	struct corral_opts o;

	TAP_EQ(0, parse(10, argv, &o), "--deny parses");
	TAP_OK(o.policy.n_rules == 4 && o.policy.rules[0].deny == 0 &&
	       o.policy.rules[1].access == 0 &&
	       o.policy.rules[1].deny == CORRAL_ACCESS_ALL &&
	       !strcmp(o.policy.rules[1].path, "/h/.ssh"),
	       "--deny PATH denies every right");
	TAP_OK(o.policy.rules[2].deny ==
	       (CORRAL_ACCESS_READ | CORRAL_ACCESS_WRITE) &&
	       !strcmp(o.policy.rules[2].path, "/h/a:b"),
	       "--deny RIGHTS:PATH splits at the first colon");
	TAP_OK(o.policy.rules[3].deny == CORRAL_ACCESS_ALL &&
	       !strcmp(o.policy.rules[3].path, "rel"),
	       "--deny of a relative path without a colon is a path");
	TAP_OK(policy_has_deny(&o.policy), "policy_has_deny");
	cli_free(&o);
}

/* Command lines cli_parse refuses with -EINVAL: the words after corral */
static const struct {
	const char *words[6];
	const char *what;
} refused[] = {
	{ { "--allow", "raed:/x", "true" },
	  "--allow with an unknown right is refused" },
	{ { "--allow", "/x", "true" }, "--allow without RIGHTS: is refused" },
	{ { "--allow", "read:", "true" }, "--allow without a path is refused" },
	{ { "--deny", "raed:/x", "true" },
	  "--deny with an unknown right is refused" },
	{ { "--deny", "", "true" }, "--deny with an empty path is refused" },
	{ { "--deny", "read:", "true" }, "--deny without a path is refused" },
	{ { "--ro", "/usr" }, "no command is an error" },
	{ { "--bogus", "true" }, "unknown option is an error" },
	{ { "--engine=magic", "true" }, "unknown engine is an error" },
	{ { "--ro", "", "true" }, "empty path is an error" },
	{ { "status", "extra" }, "status takes no argument" },
	{ { "--force", "true" }, "--force outside teardown is an error" },
	{ { "--project", "", "true" }, "--project with an empty path" },
	{ { "--project", "/a", "--project", "/b", "true" },
	  "--project twice is an error" },
	{ { "status", "--project", "/a" }, "status takes no --project" },
	{ { "profiles", "--project", "/a" }, "profiles takes no --project" },
};

static void test_refused(void)
{
	for (size_t i = 0; i < sizeof(refused) / sizeof(*refused); i++) {
		char *argv[8] = { "corral" };	/* cli_parse may permute it */
		struct corral_opts o;
		int argc = 1;

		for (; refused[i].words[argc - 1]; argc++)
			argv[argc] = (char *)refused[i].words[argc - 1];
		TAP_EQ(-EINVAL, parse(argc, argv, &o), "%s", refused[i].what);
		cli_free(&o);
	}
}

static void test_subcommands(void)
{
	struct corral_opts o;

	TAP_EQ(0, parse(3, ARGV("teardown", "--force"), &o), "teardown");
	TAP_OK(o.command == CORRAL_CMD_TEARDOWN && o.force,
	       "teardown --force sets force");
	cli_free(&o);
	TAP_EQ(0, parse(2, ARGV("setup"), &o), "setup parses");
	TAP_EQ(CORRAL_CMD_SETUP, o.command, "setup is a subcommand");
	cli_free(&o);
	char **dashdash = ARGV("--", "setup");

	TAP_EQ(0, parse(3, dashdash, &o), "-- setup parses");
	TAP_OK(o.command == CORRAL_CMD_RUN && !strcmp(o.argv[0], "setup"),
	       "after --, 'setup' is a command to run");
	cli_free(&o);
	TAP_EQ(0, parse(4, ARGV("--project", "../p", "true"), &o),
	       "--project DIR parses");
	TAP_OK(o.project && !strcmp(o.project, "../p") && o.policy.n_rules == 0,
	       "--project keeps DIR as given (the parser child resolves it)");
	cli_free(&o);
	TAP_EQ(0, parse(5, ARGV("check", "--project", "/p", "a.profile"), &o),
	       "check --project DIR FILE parses");
	cli_free(&o);
	TAP_EQ(0, parse(5, ARGV("explain", "--project", "/p", "x"), &o),
	       "explain --project DIR PATH parses");
	cli_free(&o);
	TAP_EQ(0, parse(2, ARGV("--help"), &o), "--help parses");
	TAP_EQ(CORRAL_CMD_HELP, o.command, "--help prints help only");
	cli_free(&o);
}

static void test_rights(void)
{
	uint32_t acc = 0;
	const char *bad = NULL;
	char buf[128];

	TAP_EQ(0, rights_parse("read,readdir,write,exec,truncate,create,"
			       "remove,refer,ioctl,connect-unix", &acc, &bad),
	       "every right name parses");
	TAP_EQ(CORRAL_ACCESS_ALL, acc, "every right name maps to its bit");
	TAP_EQ(-EINVAL, rights_parse("read,,exec", &acc, &bad),
	       "an empty right name is refused");
	TAP_EQ(-EINVAL, rights_parse("read,wirte", &acc, &bad),
	       "a misspelt right is refused");
	TAP_OK(bad && !strcmp(bad, "wirte"), "the bad name is reported");
	TAP_OK(!strcmp(rights_format(CORRAL_GROUP_RX, buf, sizeof(buf)),
		       "read,readdir,exec"), "rx formats as read,readdir,exec");
	TAP_EQ(0, rights_group("rwz"), "rwz is not a group");
	TAP_EQ(0, CORRAL_ACCESS_FILE & (CORRAL_ACCESS_READDIR |
		CORRAL_ACCESS_CREATE | CORRAL_ACCESS_REMOVE |
		CORRAL_ACCESS_REFER), "file rights exclude directory rights");
}

int main(void)
{
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		return 99;
	test_groups();
	test_command_options_untouched();
	test_allow();
	test_deny();
	test_refused();
	test_subcommands();
	test_rights();
	return tap_done();
}
