// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nss_files.c - getpwuid and getgrnam for a statically linked corral.
 *
 * glibc's own versions go through NSS, which in a static binary dlopens
 * the shared modules nsswitch.conf names (Debian: "files systemd"); a
 * static binary loading libnss_systemd.so crashes.  Linked first, these
 * shadow glibc's and read only /etc/passwd and /etc/group, with glibc's
 * fgetpwent/fgetgrent, which need no NSS.  corral asks only for the
 * caller's name and home (both with an environment fallback, see
 * read_vars in parser_child.c) and for the group "corral", which installing
 * corral creates in /etc/group.  Built only with --enable-static-corral.
 */
#include "config.h"

#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>

struct passwd *getpwuid(uid_t uid)
{
	struct passwd *pw = NULL;
	FILE *f = fopen("/etc/passwd", "re");

	if (!f)
		return NULL;
	while ((pw = fgetpwent(f)) && pw->pw_uid != uid)
		;
	fclose(f);
	return pw;      /* fgetpwent's static buffer outlives the file */
}

struct group *getgrnam(const char *name)
{
	struct group *gr = NULL;
	FILE *f = fopen("/etc/group", "re");

	if (!f)
		return NULL;
	while ((gr = fgetgrent(f)) && strcmp(gr->gr_name, name) != 0)
		;
	fclose(f);
	return gr;
}
