// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-explain.c - explain's judge on inodes of its own: allows add up
 * along the walk, a file rule counts only on its inode, and a deny mask
 * (deny rules) subtracts at any depth and is the rule named; the
 * names of rules as explain prints them, deny rules included; what a
 * move needs of each directory and what a moved entry would gain.
 */
#include "config.h"

#include <string.h>

#include "explain.h"
#include "tap.h"

#define R CORRAL_ACCESS_READ
#define W CORRAL_ACCESS_WRITE
#define C CORRAL_ACCESS_CREATE
#define D CORRAL_ACCESS_REMOVE
#define F CORRAL_ACCESS_REFER

/* Landlock's current_check_refer_path() asks, per kind of move: */
static void test_move_needs(void)
{
	uint32_t s, d;

	explain_move_needs(EXPLAIN_MOVE_RENAME, false, true, &s, &d);
	TAP_OK(s == D && d == C, "a rename in one directory: remove, create");
	explain_move_needs(EXPLAIN_MOVE_RENAME, true, false, &s, &d);
	TAP_OK(s == (D | F) && d == (C | D | F),
	       "a rename over a file across directories: refer on both, "
	       "remove where it lands");
	explain_move_needs(EXPLAIN_MOVE_LINK, false, false, &s, &d);
	TAP_OK(s == F && d == (C | F), "a link: refer, and create where it "
	       "lands");
	explain_move_needs(EXPLAIN_MOVE_EXCHANGE, true, false, &s, &d);
	TAP_OK(s == (C | D | F) && d == (C | D | F),
	       "an exchange: the same on both sides");
}

static void test_gained(void)
{
	struct explain_verdict here = { .allow = CORRAL_GROUP_RW },
			       there = { .allow = CORRAL_GROUP_RW |
						  CORRAL_ACCESS_EXEC };

	TAP_EQ(CORRAL_ACCESS_EXEC, explain_gained(&here, &there, false),
	       "a file gains exec");
	here.allow = R | C | D | F;
	there.allow = CORRAL_ACCESS_READDIR | R;
	TAP_EQ(0, explain_gained(&here, &there, false),
	       "directory rights do not count for a file");
	TAP_EQ(CORRAL_ACCESS_READDIR, explain_gained(&here, &there, true),
	       "they do for a directory");
	here.allow = R | W;
	here.deny = W;
	there.allow = R | W;
	TAP_EQ(W, explain_gained(&here, &there, false),
	       "what a deny takes here is gained there");
	there.deny = W;
	TAP_EQ(0, explain_gained(&here, &there, false),
	       "unless a deny takes it there too");
}

static struct policy_rule src[] = {
	{ .path = "/h", .access = CORRAL_GROUP_RW,
	  .origin = "--rw on the command line" },
	{ .path = "/h/.ssh", .access = 0, .origin = "--deny on the command line" },
	{ .path = "/h/p", .access = CORRAL_GROUP_RO,
	  .origin = "profile git.profile:6" },
	{ .path = "/h/.ssh", .access = 0, .origin = "profile s.profile:3" },
};

int main(void)
{
	/* inodes: / 2, /h 10, /h/.ssh 11, /h/.ssh/id 12, /h/p 13 */
	struct explain_rule rules[] = {
		{ 0, 10, CORRAL_GROUP_RW, 0, &src[0] },
		{ 0, 11, 0, R | W, &src[1] },
		{ 0, 13, CORRAL_GROUP_RO, 0, &src[2] },
	};
	struct explain_node id[] = { { 0, 12 }, { 0, 11 }, { 0, 10 }, { 0, 2 } };
	struct explain_node p[] = { { 0, 13 }, { 0, 10 }, { 0, 2 } };
	struct explain_verdict v;
	char buf[256];

	explain_judge(rules, 3, p, 3, W, &v);
	TAP_OK((v.allow & ~v.deny & W) && v.n_granted == 1 &&
	       v.granted[0] == &rules[0],
	       "rights add up along the walk: rw above ro grants write, "
	       "named");
	explain_judge(rules, 3, id, 4, R, &v);
	TAP_OK(!(v.allow & ~v.deny & R) && v.n_denied == 1 &&
	       v.denied[0] == &rules[1] && v.n_granted == 1,
	       "a deny below an allow takes read away and is named");
	explain_judge(rules, 3, id, 4, CORRAL_ACCESS_CREATE, &v);
	TAP_OK((v.allow & ~v.deny & CORRAL_ACCESS_CREATE) && !v.n_denied,
	       "a partial deny leaves the other rights");
	explain_judge(rules, 3, id + 2, 2, R, &v);
	TAP_OK(v.allow & ~v.deny & R, "the deny counts only beneath it");
	TAP_OK(!strcmp(explain_rule_text(&src[0], 0, buf, sizeof(buf)),
		       "--rw /h on the command line"), "a flag: %s", buf);
	TAP_OK(!strcmp(explain_rule_text(&src[1], R | W, buf, sizeof(buf)),
		       "--deny read,write:/h/.ssh on the command line"),
	       "a --deny of some rights: %s", buf);
	TAP_OK(!strcmp(explain_rule_text(&src[1], CORRAL_ACCESS_ALL, buf,
					 sizeof(buf)),
		       "--deny /h/.ssh on the command line"),
	       "a --deny of all: %s", buf);
	TAP_OK(!strcmp(explain_rule_text(&src[2], 0, buf, sizeof(buf)),
		       "ro = /h/p at git.profile:6"), "a profile line: %s",
	       buf);
	TAP_OK(!strcmp(explain_rule_text(&src[3], CORRAL_ACCESS_ALL, buf,
					 sizeof(buf)),
		       "deny = /h/.ssh at s.profile:3"),
	       "a profile deny line: %s", buf);
	test_move_needs();
	test_gained();
	return tap_done();
}
