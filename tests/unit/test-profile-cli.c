// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests of the profiles' command-line side (sandbox/cli.c):
 * --profile merged with flags, --print-profile, check, profiles, and
 * argv[0] mode.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "profile.h"
#include "tap.h"
#include "test-profile.h"

void test_flags_merge(void)
{
	char **argv = ARGV("--rw", "/flag", "--profile", "npm", "--profile",
			   TEST_PROFILES "/sub/inner.profile", "--", "npm",
			   "install");
	struct corral_opts o;
	struct profile_result res = { 0 };

	TAP_EQ(0, cli_parse(9, argv, &o, stdout), "--profile parses");
	TAP_EQ(2, o.n_profiles, "two --profile");
	TAP_EQ(0, cli_load_profiles(&o, &env, &res), "profiles load");
	TAP_EQ(9, o.policy.n_rules, "7 + 1 profile rules and 1 flag");
	TAP_OK(rule_is(&o.policy, 7, "/inner", CORRAL_GROUP_RO, false,
		       "profile " TEST_PROFILES "/sub/inner.profile:2"),
	       "profiles in the order given");
	TAP_OK(rule_is(&o.policy, 8, "/flag", CORRAL_GROUP_RW, false,
		       "--rw on the command line"),
	       "command-line flags add to the profiles");
	TAP_OK(!strcmp(o.argv[0], "npm"), "the command follows --");
	cli_free(&o);
	profile_result_free(&res);

	TAP_EQ(0, cli_parse(4, ARGV("--profile", "nosuch", "true"), &o,
			    stdout), "an unknown profile parses");
	TAP_EQ(-EINVAL, cli_load_profiles(&o, &env, &res),
	       "and fails to load");
	cli_free(&o);
	profile_result_free(&res);
}

void test_cli(void)
{
	char **check = ARGV("check", "a.profile", "b");
	char *as_npm[] = { "/home/u/bin/npm", "--rw", "/", NULL };
	struct corral_opts o;
	char *text = NULL;
	size_t size = 0, lines = 0, widest = 0, len = 0;
	FILE *out = open_memstream(&text, &size);

	TAP_EQ(0, cli_parse(2, ARGV("--help"), &o, out), "--help");
	fclose(out);
	for (const char *p = text; *p; p++, len++)
		if (*p == '\n') {
			lines++;
			widest = len > widest ? len : widest;
			len = (size_t)-1;
		}
	TAP_OK(lines <= 23 && widest <= 79,
	       "--help fits one 24-line screen (%zu lines, %zu columns)",
	       lines, widest);
	free(text);
	cli_free(&o);
	TAP_EQ(0, cli_parse(2, ARGV("--print-profile=npm"), &o, stdout),
	       "--print-profile=NAME");
	TAP_OK(o.command == CORRAL_CMD_PRINT_PROFILE && o.n_profiles == 1,
	       "prints, with NAME as a profile");
	cli_free(&o);
	TAP_EQ(-EINVAL, cli_parse(3, ARGV("--print-profile", "ls"), &o,
				  stdout), "--print-profile runs nothing");
	cli_free(&o);
	TAP_EQ(0, cli_parse(4, check, &o, stdout), "check FILE...");
	TAP_OK(o.command == CORRAL_CMD_CHECK && !strcmp(o.argv[1], "b"),
	       "check keeps its files");
	cli_free(&o);
	TAP_EQ(-EINVAL, cli_parse(2, ARGV("check"), &o, stdout),
	       "check without a FILE");
	cli_free(&o);
	TAP_EQ(-EINVAL, cli_parse(3, ARGV("profiles", "x"), &o, stdout),
	       "profiles takes no argument");
	cli_free(&o);
	TAP_EQ(0, cli_parse(3, as_npm, &o, stdout),
	       "argv[0] mode parses nothing");
	TAP_OK(o.invoked_as && !strcmp(o.invoked_as, "npm") &&
	       !strcmp(o.argv[1], "--rw") && o.policy.n_rules == 0,
	       "run as npm: every argument is npm's");
	cli_free(&o);
}

/* argv[0] mode: PATH entries that are corral itself are skipped. */
void test_find_program(void)
{
	char dir[] = "/tmp/corral-find-XXXXXX", self[PATH_MAX + 64];
	char other[PATH_MAX + 64], path[2 * PATH_MAX + 200];
	char *found = NULL;
	ssize_t n;
	int fd;

	if (!mkdtemp(dir)) {
		TAP_OK(0, "mkdtemp");
		return;
	}
	snprintf(self, sizeof(self), "%s/a", dir);
	mkdir(self, 0755);
	snprintf(other, sizeof(other), "%s/b", dir);
	mkdir(other, 0755);
	n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	path[n > 0 ? n : 0] = '\0';
	strcat(self, "/prog");
	strcat(other, "/prog");
	fd = open(other, O_WRONLY | O_CREAT, 0755);
	/* "prog -> us", as npm -> corral */
	TAP_OK(fd >= 0 && symlink(path, self) == 0, "fixture: %s -> %s",
	       self, path);
	close(fd);
	snprintf(path, sizeof(path), "relative:%s/a:%s/b", dir, dir);
	TAP_EQ(0, cli_find_program("prog", path, &found), "prog is found");
	TAP_OK(found && !strcmp(found, other),
	       "the PATH entry that is ourselves is skipped (%s)", found);
	free(found);
	snprintf(path, sizeof(path), "%s/a", dir);
	TAP_EQ(-ENOENT, cli_find_program("prog", path, &found),
	       "only ourselves in PATH: not found");
	unlink(self);
	unlink(other);
	snprintf(path, sizeof(path), "%s/a", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/b", dir);
	rmdir(path);
	rmdir(dir);
}
