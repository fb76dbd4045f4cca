// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests of the profile parser (sandbox/profile.c): the INI
 * syntax itself, its errors and the order they come in, quoted values,
 * and how the errors are printed.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile.h"
#include "tap.h"
#include "test-profile.h"

static const struct error_case syntax_errors[] = {
	{ "[filesytem]\nrw = /x\n",
	  "t.profile:1: unknown section [filesytem] (sections: "
	  "[profile], [filesystem], [network], [sandbox], [environment])",
	  "unknown section, named once at its line" },
	{ "[filesystem]\nro = /a\n[networking]\n",
	  "t.profile:3: unknown section [networking] (sections: "
	  "[profile], [filesystem], [network], [sandbox], [environment])",
	  "an empty unknown section is refused too" },
	{ "rw = /x\n",
	  "t.profile:1: 'rw' is outside any section (put it under "
	  "[profile], [filesystem], [network], [sandbox] or [environment])",
	  "a key before any section" },
	{ "[profile]\nname = x\n",
	  "t.profile:2: unknown key 'name' in [profile] (keys: "
	  "description, include)",
	  "unknown key in [profile]" },
	{ "[sandbox]\nexec-anon = yes\n",
	  "t.profile:2: unknown key 'exec-anon' in [sandbox] (keys: "
	  "exec-anonymous, unix-connect, require, quiet, userns, sysv-ipc)",
	  "unknown key in [sandbox]" },
	{ "[filesystem]\n\nraed = /x\n",
	  "t.profile:3: unknown right 'raed' in key 'raed' (rights: "
	  "read, readdir, write, exec, truncate, create, remove, "
	  "refer, ioctl, connect-unix; groups: ro, rx, rw, rwx)",
	  "unknown right" },
	{ "[filesystem]\nread,wirte = /x\n",
	  "t.profile:2: unknown right 'wirte' in key 'read,wirte' "
	  "(rights: read, readdir, write, exec, truncate, create, "
	  "remove, refer, ioctl, connect-unix; groups: ro, rx, rw, rwx)",
	  "unknown right in a comma list" },
	{ "[filesystem]\nthis is not ini\n",
	  "t.profile:2: syntax error (expected [section], KEY = "
	  "VALUE, an indented continuation line or a comment)",
	  "a line that is not INI" },
	{ "[filesystem\n",
	  "t.profile:1: missing ']' at the end of the section name "
	  "(write [NAME] on a line of its own)",
	  "an unclosed section header" },
	{ "[filesystem]\nrw =\n",
	  "t.profile:2: 'rw' has no value (write it after the '=')",
	  "an empty value" },
	{ "[filesystem]\nrw = ; only a comment\n",
	  "t.profile:2: 'rw' has no value (write it after the '=')",
	  "a value that is only a comment" },
};

void test_syntax_errors(void)
{
	char line[256];

	expect_errors(syntax_errors, N_CASES(syntax_errors));
	snprintf(line, sizeof(line), "[filesystem]\n%s = /x\n",
		 "read,read,read,read,read,read,read,read,read,read,read");
	expect_error(line, "t.profile:2: key 'read,read,read,read,...' is too "
		     "long", "a key inih would cut short");
}

void test_nul(void)
{
	static const char text[] = "[filesystem]\nro = /a\0/b\nrw = /c\n";
	struct parsed p = { 0 };

	p.r = profile_load_buffer(&env, "t.profile", text, sizeof(text) - 1,
				  &p.policy, &p.result);
	TAP_OK(p.r == -EINVAL && !strcmp(first_error(&p),
		"t.profile:2: NUL byte in the line (is this a text file?)"),
	       "a NUL byte in a line is refused, not cut (%s)",
	       first_error(&p));
	parsed_free(&p);
}

/* A 198-byte "ro = /000..." line, ending in @eol, is read whole. */
static void longest_line_reads(const char *eol, const char *what)
{
	char text[256];
	struct parsed p;

	snprintf(text, sizeof(text), "[filesystem]%sro = /%0192d%s", eol, 0,
		 eol);
	p = parse_text(text);
	TAP_OK(p.r == 0 && p.policy.n_rules == 1 &&
	       strlen(p.policy.rules[0].path) == 193,
	       "%s (%s)", what, first_error(&p));
	parsed_free(&p);
}

void test_long_lines(void)
{
	char text[512];

	/* STYLE.md habit 15: inih 55 would split this line silently */
	snprintf(text, sizeof(text), "[filesystem]\nro = /%0193d\nrw = /\n", 0);
	TAP_EQ(199, strchr(text + 13, '\n') - (text + 13), "(line 2 is 199 "
	       "bytes)");
	expect_error(text, "t.profile:2: line too long (max 198 bytes; a quoted "
		     "value can go on over several lines)",
		     "a 199-byte line is refused with its line number");
	snprintf(text, sizeof(text), "ro = /%0193d\nrw = /\n", 0);
	expect_error(text, "t.profile:1: line too long (max 198 bytes; a quoted "
		     "value can go on over several lines)",
		     "'ro = <194 chars>' then 'rw = /': refused as file:1");
	longest_line_reads("\n", "a 198-byte line is read whole");
	longest_line_reads("\r\n", "CRLF: the \\r is not part of the line");
}

void test_continuation_and_comments(void)
{
	struct parsed p = parse_ok(
		"# a comment\n"
		"; another\n"
		"[filesystem] ; a section with a comment\n"
		"rw = /a   ; inline\n"
		"     /b\n"
		"\t/c ; tab-indented, with a comment\n"
		"  # an indented comment is a comment\n"
		"ro = /d\n"
		"ro: /e\n",
		"continuations and comments parse");

	TAP_OK(rule_is(&p.policy, 0, "/a", CORRAL_GROUP_RW, false,
		       "profile t.profile:4") &&
	       rule_is(&p.policy, 1, "/b", CORRAL_GROUP_RW, false,
		       "profile t.profile:5") &&
	       rule_is(&p.policy, 2, "/c", CORRAL_GROUP_RW, false,
		       "profile t.profile:6"),
	       "each continuation line adds a path with the same rights");
	TAP_OK(rule_is(&p.policy, 3, "/d", CORRAL_GROUP_RO, false,
		       "profile t.profile:8"), "a new key ends the list");
	TAP_OK(rule_is(&p.policy, 4, "/e", CORRAL_GROUP_RO, false,
		       "profile t.profile:9"), "KEY: VALUE as inih allows");
	TAP_EQ(5, p.policy.n_rules, "no rule from a comment");
	parsed_free(&p);
}

/* Everything profile_print_errors writes to stderr, as one string. */
static char *captured_errors(const struct profile_result *result)
{
	char path[] = "/tmp/corral-test-XXXXXX";
	int fd = mkstemp(path), saved = dup(2);
	static char buf[4096];
	ssize_t n;

	fflush(stderr);
	dup2(fd, 2);
	profile_print_errors(result);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
	return buf;
}

void test_messages(void)
{
	struct parsed p = parse_text("[filesystem]\nrw = ${NOPE}\n"
				     "ro = rel\n");

	TAP_EQ(2, p.result.n_errors, "every error is collected");
	TAP_OK(!strcmp(captured_errors(&p.result),
		"corral: profile t.profile:2: unknown variable ${NOPE} "
		"(variables: HOME, CWD, USER, UID, TMPDIR, XDG_RUNTIME_DIR, "
		"XDG_CONFIG_HOME, XDG_CACHE_HOME, XDG_DATA_HOME, PROJECT)\n"
		"corral: profile t.profile:3: 'rel' is not an absolute path "
		"(start it with '/' or a variable such as ${HOME} or "
		"${CWD})\n"),
	       "printed as 'corral: profile FILE:LINE: what (hint)'");
	parsed_free(&p);
}

/* Each syntax error at its own line, in line order;
 * a broken section header silences the keys under it. */
void test_error_order(void)
{
	static const struct {
		const char *text, *want, *name;
		size_t n_errors;
	} cases[] = {
		{ "[profile]\ndescription = x\n[filesystem\nro = /usr\n",
		  "t.profile:3: missing ']' at the end of the section name "
		  "(write [NAME] on a line of its own)",
		  "'[filesystem': the missing ']' only, not line 4's key", 1 },
		{ "[filesystem ; a comment]\nro = /usr\n",
		  "t.profile:1: missing ']' at the end of the section name "
		  "(write [NAME] on a line of its own)",
		  "a ']' after ' ;' is a comment's, as inih reads it", 1 },
		{ "[filesystem]\nthis is not ini\nfoo = /x\n",
		  "t.profile:2: syntax error (expected [section], KEY = "
		  "VALUE, an indented continuation line or a comment)",
		  "a syntax error comes before a later line's bad key", 2 },
		{ "[filesystem]\nro = /a\n[bogus]\nx = 1\n[sandbox]\nnope = 1\n",
		  "t.profile:3: unknown section [bogus] (sections: [profile], "
		  "[filesystem], [network], [sandbox], [environment])",
		  "an unknown section, then the next section's bad key", 2 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct parsed p = parse_text(cases[i].text);

		TAP_OK(p.r == -EINVAL && !strcmp(first_error(&p), cases[i].want) &&
		       p.result.n_errors == cases[i].n_errors,
		       "%s (%zu error(s))", cases[i].name, p.result.n_errors);
		for (size_t e = 0; e < p.result.n_errors; e++)
			if (strcmp(first_error(&p), cases[i].want) ||
			    p.result.n_errors != cases[i].n_errors)
				printf("#   got: %s\n", p.result.errors[e]);
		parsed_free(&p);
	}
	/* a profile found on the search path is named by its path */
	{
		struct parsed p = load("bad-key");

		TAP_OK(p.r == -EINVAL && !strcmp(first_error(&p),
			TEST_PROFILES "/bad-key.profile:4: unknown key 'name' "
			"in [profile] (keys: description, include)"),
		       "a profile NAME's errors name its file with its "
		       "directory (%s)", first_error(&p));
		parsed_free(&p);
	}
}

/* Quoted values that read as a path, kept as the quotes say. */
static void test_quoted_paths(void)
{
	static const struct {
		const char *text, *path;
		bool optional;
		const char *name;
	} good[] = {
		{ "rw = \"/a b \"\n", "/a b ", false, "trailing blank kept" },
		{ "rw = \"/a ;b\" ; a comment\n", "/a ;b", false,
		  "' ;' inside quotes is not a comment; after them it is" },
		{ "rw = -\"/x y\"\n", "/x y", true, "-\"...\": optional" },
		{ "rw = \"/l\\nm\\tn\\r\"\n", "/l\nm\tn\r", false,
		  "\\n \\t \\r" },
		{ "rw = \"/q\\\"b\\\\s\"\n", "/q\"b\\s", false, "\\\" and \\\\" },
		{ "rw = \"/h\\xff\\x3B\"\n", "/h\xff;", false, "\\xHH" },
		{ "rw = \"/#x\"\n", "/#x", false, "'#' inside quotes" },
		{ "rw = \"/aaa\\\n\tbbb\\\n  ccc\"\n", "/aaabbbccc", false,
		  "'\\' at the end of a line goes on on the next" },
		{ "rw = \"/cost$$\"\n", "/cost$", false,
		  "variables expand inside quotes ($$)" },
		{ "rw = /plain\"quote\\\n", "/plain\"quote\\", false,
		  "unquoted values stay as they were (backwards compatible)" },
	};
	char text[512];

	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++) {
		struct parsed p;

		snprintf(text, sizeof(text), "[filesystem]\n%s", good[i].text);
		p = parse_text(text);
		TAP_OK(p.policy.n_rules == 1 &&
		       !strcmp(p.policy.rules[0].path, good[i].path) &&
		       p.policy.rules[0].optional == good[i].optional &&
		       !strcmp(p.policy.rules[0].origin, "profile t.profile:2"),
		       "quoting: %s", good[i].name);
		if (p.policy.n_rules != 1)
			printf("#   %s\n", first_error(&p));
		parsed_free(&p);
	}
}

/* Quoted values refused, each with the error that says why. */
static void test_quoting_errors(void)
{
	static const struct { const char *text, *want, *name; } bad[] = {
		{ "rw = \" /a\"\n",
		  "t.profile:2: ' /a' is not an absolute path (start it with "
		  "'/' or a variable such as ${HOME} or ${CWD})",
		  "a leading blank inside quotes is the path's own" },
		{ "rw = \"-/x\"\n",
		  "t.profile:2: '-/x' is not an absolute path (start it with "
		  "'/' or a variable such as ${HOME} or ${CWD})",
		  "\"-...\": the '-' is the path's own, not 'optional'" },
		{ "rw = \"/a\n",
		  "t.profile:2: unterminated quoted value (close it with '\"', "
		  "or end the line with '\\' to go on on the next, indented "
		  "line)", "an unterminated quote" },
		{ "rw = \"/a\"b\n",
		  "t.profile:2: 'b' after the closing quote (only a '; "
		  "comment' may follow it)", "text after the closing quote" },
		{ "rw = \"/a\\q\"\n",
		  "t.profile:2: bad escape '\\q' in a quoted value (write \\\\, "
		  "\\\", \\n, \\t, \\r or \\xHH, HH not 00)", "a bad escape" },
		{ "rw = \"/a\\x00\"\n",
		  "t.profile:2: bad escape '\\x00' in a quoted value (write "
		  "\\\\, \\\", \\n, \\t, \\r or \\xHH, HH not 00)",
		  "no NUL byte in a value" },
		{ "rw = \"/a\\\nro = /b\n",
		  "t.profile:2: the quoted value ends in '\\' but line 3 does "
		  "not go on with it (indent that line, or close the value "
		  "with '\"')", "a '\\' line followed by a key" },
		{ "rw = \"/a\\\n",
		  "t.profile:2: the file ends inside this quoted value (close "
		  "it with '\"')", "the file ends inside quotes" },
	};
	char text[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		snprintf(text, sizeof(text), "[filesystem]\n%s", bad[i].text);
		expect_error(text, bad[i].want, bad[i].name);
	}
}

/* Quoted values, and quotes in a description and on a continuation line. */
void test_quoting(void)
{
	struct parsed p;

	test_quoted_paths();
	test_quoting_errors();
	p = parse_text("[profile]\ndescription = \"a ; b \"\n[filesystem]\n"
		       "ro = /a\n     \"/b c\" ; d\n");
	TAP_OK(p.r == 0 && p.policy.n_rules == 2 &&
	       !strcmp(p.policy.rules[1].path, "/b c") &&
	       !strcmp(p.result.files[0].description, "a ; b "),
	       "quotes in a description and on a continuation line (%s)",
	       first_error(&p));
	parsed_free(&p);
}
