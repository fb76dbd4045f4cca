// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * secrets.c - see secrets.h.  A path is matched by its components: .ssh
 * matches ~/.ssh and ~/.ssh/id_rsa, not ~/.sshfoo.
 */
#include "config.h"

#include "secrets.h"

#include <string.h>

const struct secret secrets[] = {
	{ ".ssh", "SSH keys" },
	{ ".gnupg", "GnuPG keys" },
	{ ".aws", "AWS credentials" },
	{ ".config/gcloud", "Google Cloud credentials" },
	{ ".azure", "Azure credentials" },
	{ ".kube", "Kubernetes credentials" },
	{ ".docker/config.json", "Docker registry credentials" },
	{ ".netrc", "netrc passwords" },
	{ ".git-credentials", "git credentials" },
	{ ".config/git/credentials", "git credentials" },
	{ ".password-store", "a pass password store" },
	{ ".local/share/keyrings", "GNOME keyrings" },
	{ ".local/share/kwalletd", "KDE wallets" },
	{ ".mozilla", "Firefox profiles (cookies, saved passwords)" },
	{ ".config/chromium", "Chromium profiles (cookies, saved passwords)" },
	{ ".config/google-chrome",
	  "Chrome profiles (cookies, saved passwords)" },
	{ ".bash_history", "shell history" },
	{ ".zsh_history", "shell history" },
	{ ".histfile", "shell history" },
	{ ".local/share/fish/fish_history", "shell history" },
	{ ".python_history", "Python history" },
	{ ".psql_history", "psql history" },
	{ ".mysql_history", "MySQL history" },
	{ NULL, NULL },
};

/* Is @path @dir itself or below it?  @dir has @n bytes. */
static bool is_under(const char *path, const char *dir, size_t n)
{
	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

const struct secret *secret_find(const char *path, const char *home,
				 bool *holds)
{
	size_t n = home ? strlen(home) : 0;
	const char *rel;

	*holds = false;
	while (n > 1 && home[n - 1] == '/')
		n--;
	if (n < 2 || !is_under(path, home, n))
		return NULL;
	rel = path + n + (path[n] == '/');
	for (const struct secret *s = secrets; s->path; s++) {
		size_t len = strlen(rel);

		if (is_under(rel, s->path, strlen(s->path)))
			return s;
		if (!len || (is_under(s->path, rel, len) && s->path[len])) {
			*holds = true;
			return s;
		}
	}
	return NULL;
}
