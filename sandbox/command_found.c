// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * command_found.c - is a command surely not there: see command_found.h.
 * Runs in the parser child.
 */
#include "config.h"

#include "command_found.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* Does @path hold an entry cli_path_search() skips: empty (the current
 * directory) or relative? */
static bool path_has_relative(const char *path)
{
	for (const char *p = path; p; p = strchr(p, ':')) {
		p += *p == ':';
		if (*p != '/')
			return true;
	}
	return false;
}

bool command_missing(const char *name, const char *path)
{
	char found[PATH_MAX];
	struct stat st;

	if (strchr(name, '/'))
		return stat(name, &st) < 0 && errno == ENOENT;
	if (!name[0])
		return true;
	if (!path)
		path = CLI_DEFAULT_PATH;
	if (path_has_relative(path))
		return false;
	return cli_path_search(name, path, NULL, PATH_SKIP_UNCERTAIN, found,
			       sizeof(found)) == -ENOENT;
}
