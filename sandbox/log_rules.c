// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * log_rules.c - the rule a --log denial is about: see log_rules.h.
 */
#include "config.h"

#include "log_rules.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "events.h"
#include "explain.h"
#include "util.h"

/* Well above what LAUNCH_MAX_RULES names of PATH_MAX bytes could need
 * in practice, and small enough to read at once. */
#define LOG_RULES_MAX_BYTES (16u << 20)

struct log_rules {
	size_t n;
	struct explain_rule *rules;
	const char **text;          /* text[i] names rules[i] */
	char *blob;
};

/* ---- parser side -------------------------------------------------------- */

static int write_all(int fd, const char *s, size_t len)
{
	while (len) {
		ssize_t w = write(fd, s, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		s += w;
		len -= (size_t)w;
	}
	return 0;
}

int log_rules_write(const struct policy *policy, const uint32_t *kept,
		    size_t n)
{
	const unsigned seals = F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW |
			       F_SEAL_WRITE;
	char text[PATH_MAX + 512];
	int fd = memfd_create("corral-rules", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	int r = 0;

	if (fd < 0)
		return error_errno(-errno, "--log: memfd_create for the "
				   "rules' names");
	for (size_t i = 0; i < n && !r; i++) {
		const struct policy_rule *rule = &policy->rules[kept[i]];

		explain_rule_text(rule, rule->deny, text, sizeof(text));
		r = write_all(fd, text, strlen(text) + 1);
	}
	if (!r && fcntl(fd, F_ADD_SEALS, seals) < 0)
		r = -errno;
	if (r < 0) {
		close(fd);
		return error_errno(r, "--log: writing the rules' names");
	}
	return fd;
}

/* ---- watcher side ------------------------------------------------------- */

static char *read_table(int fd, size_t *len)
{
	struct stat st;
	char *blob;
	ssize_t got;

	if (fstat(fd, &st) < 0 || st.st_size <= 0 ||
	    (uint64_t)st.st_size > LOG_RULES_MAX_BYTES)
		return NULL;
	blob = xmalloc((size_t)st.st_size);
	got = pread(fd, blob, (size_t)st.st_size, 0);
	if (got != st.st_size || blob[got - 1] != '\0') {
		free(blob);
		return NULL;
	}
	*len = (size_t)got;
	return blob;
}

/* Points text[0..n) at the @len bytes of @blob; false if they are not
 * exactly @n strings. */
static bool split_table(char *blob, size_t len, const char **text, size_t n)
{
	size_t k = 0;

	for (size_t at = 0; at < len; at += strlen(blob + at) + 1) {
		if (k == n)
			return false;
		text[k++] = blob + at;
	}
	return k == n;
}

static bool stat_rules(struct log_rules *lr, const int *rule_fds,
		       const uint32_t *access, const uint32_t *deny)
{
	for (size_t i = 0; i < lr->n; i++) {
		struct stat st;

		if (fstat(rule_fds[i], &st) < 0)
			return false;
		lr->rules[i].dev = st.st_dev;
		lr->rules[i].ino = st.st_ino;
		lr->rules[i].allow = access[i];
		lr->rules[i].deny = deny[i];
	}
	return true;
}

struct log_rules *log_rules_load(int text_fd, const int *rule_fds,
				 const uint32_t *access, const uint32_t *deny,
				 size_t n)
{
	struct log_rules *lr;
	size_t len;
	char *blob;

	if (text_fd < 0 || !n)
		return NULL;
	blob = read_table(text_fd, &len);
	if (!blob)
		return NULL;
	lr = xcalloc(1, sizeof(*lr));
	lr->n = n;
	lr->blob = blob;
	lr->rules = xcalloc(n, sizeof(*lr->rules));
	lr->text = xcalloc(n, sizeof(*lr->text));
	if (!split_table(blob, len, lr->text, n) ||
	    !stat_rules(lr, rule_fds, access, deny)) {
		log_rules_free(lr);
		return NULL;
	}
	return lr;
}

void log_rules_free(struct log_rules *lr)
{
	if (!lr)
		return;
	free(lr->rules);
	free(lr->text);
	free(lr->blob);
	free(lr);
}

static bool file_denial(const struct corral_event *ev)
{
	switch (ev->hook) {
	case CORRAL_HOOK_OPEN:
	case CORRAL_HOOK_TRUNCATE:
	case CORRAL_HOOK_CREATE:
	case CORRAL_HOOK_REMOVE:
	case CORRAL_HOOK_LINK:
	case CORRAL_HOOK_RENAME:
	case CORRAL_HOOK_IOCTL:
		/* a path of CORRAL_EVENT_NAMES names may be cut short */
		return ev->access && ev->n_names &&
		       ev->n_names < CORRAL_EVENT_NAMES;
	default:
		return false;
	}
}

static const char *text_of(const struct log_rules *lr,
			   const struct explain_rule *rule)
{
	return lr->text[rule - lr->rules];
}

/* ": no rule grants write (nearest rule: --ro /etc on the command
 * line); add: --allow write:/etc/passwd" */
static void say_ungranted(const struct log_rules *lr,
			  const struct explain_node *nodes, size_t k,
			  uint32_t lack, const char *path, char *buf,
			  size_t size)
{
	struct explain_verdict any;
	char names[128];
	int len;

	explain_judge(lr->rules, lr->n, nodes, k, CORRAL_ACCESS_ALL, &any);
	rights_format(lack, names, sizeof(names));
	len = snprintf(buf, size, ": no rule grants %s", names);
	if (len < 0 || (size_t)len >= size)
		return;
	if (any.n_granted)
		len += snprintf(buf + len, size - (size_t)len,
				" (nearest rule: %s)",
				text_of(lr, any.granted[0]));
	if (len >= 0 && (size_t)len < size)
		snprintf(buf + len, size - (size_t)len, "; add: --allow %s:%s",
			 names, path);
}

const char *log_rules_why(const struct corral_event *ev, const void *ctx,
			  char *buf, size_t size)
{
	const struct log_rules *lr = ctx;
	char path[CORRAL_EVENT_NAMES * CORRAL_EVENT_NAME_LEN + 8];
	struct explain_verdict v;
	struct explain_node *nodes;
	ssize_t k;
	uint32_t lack;

	buf[0] = '\0';
	if (!lr || !file_denial(ev))
		return buf;
	event_path(ev, path, sizeof(path));
	if (path[0] != '/')
		return buf;
	k = explain_walk(path, true, &nodes);
	if (k <= 0)
		return buf;
	explain_judge(lr->rules, lr->n, nodes, (size_t)k, ev->access, &v);
	lack = ev->access & ~v.allow;
	if (v.n_denied)
		snprintf(buf, size, ": taken away by %s",
			 text_of(lr, v.denied[0]));
	else if (lack)
		say_ungranted(lr, nodes, (size_t)k, lack, path, buf, size);
	free(nodes);
	return buf;
}
