// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-profile.c - libFuzzer target for the profile parser.
 *
 * Each input is a profile read from memory (profile_load_buffer), with a
 * fixed set of variables, includes off (no file I/O), then printed with
 * profile_print as --print-profile would.  Build and run: make fuzz
 * (FUZZ_SECONDS=60 by default); seeds come from tests/fuzz/seed-corpus.sh.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "expand.h"
#include "policy.h"
#include "profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fixed_vars(struct vars *vars)
{
	vars_set(vars, VAR_HOME, "/home/u");
	vars_set(vars, VAR_CWD, "/home/u/proj");
	vars_set(vars, VAR_USER, "u");
	vars_set(vars, VAR_UID, "1000");
	vars_fill_defaults(vars);     /* XDG_RUNTIME_DIR stays unset */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vars vars = { 0 };
	struct profile_env env = { .vars = &vars, .no_includes = true };
	struct policy policy = { 0 };
	struct profile_result result = { 0 };
	char *text = NULL;
	size_t text_size = 0;
	FILE *out;

	fixed_vars(&vars);
	profile_load_buffer(&env, "fuzz.profile", (const char *)data, size,
			    &policy, &result);
	out = open_memstream(&text, &text_size);
	if (out) {
		profile_print(out, &policy, &result);
		fclose(out);
	}
	free(text);
	profile_result_free(&result);
	policy_free(&policy);
	vars_free(&vars);
	return 0;
}
