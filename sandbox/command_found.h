/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * command_found.h - is a command surely not there, as execvp(3) would
 * find it?  For `corral learn`, which must say so (exit 127) before it
 * opens its output file, since a run that never started has nothing to
 * learn.
 */
#ifndef CORRAL_COMMAND_FOUND_H
#define CORRAL_COMMAND_FOUND_H

#include <stdbool.h>

/*
 * True when execvp(@name) would fail with ENOENT: a name with a '/' that
 * does not exist, or a bare name in no entry of @path (PATH, or NULL for
 * execvp's default).  False whenever that cannot be told here: PATH
 * holds a relative or empty entry (the exec decides, as in a run).
 */
bool command_missing(const char *name, const char *path);

#endif /* CORRAL_COMMAND_FOUND_H */
