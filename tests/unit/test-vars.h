/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-vars.h: the variables the profile tests expand against, the same
 * for each so that their expected paths agree: HOME /home/u, working in
 * /home/u/proj.  A header: each test binary is linked alone.
 */
#ifndef CORRAL_TEST_VARS_H
#define CORRAL_TEST_VARS_H

#include <stdbool.h>

#include "expand.h"

#define TEST_TMPDIR "/run/user/1000/corral/sandbox-1-0"

/*
 * @user: also the project root and user u (1000), which test-profile
 * checks; the other tests leave those to vars_fill_defaults.
 */
static inline void test_vars(struct vars *v, bool user)
{
	vars_set(v, VAR_HOME, "/home/u");
	vars_set(v, VAR_CWD, "/home/u/proj");
	if (user) {
		vars_set(v, VAR_PROJECT, "/home/u/proj");
		vars_set(v, VAR_USER, "u");
		vars_set(v, VAR_UID, "1000");
	}
	/* as the parser sets it (private_tmp.h): vars_fill_defaults does not */
	vars_set(v, VAR_TMPDIR, TEST_TMPDIR);
	vars_fill_defaults(v);
}

#endif
