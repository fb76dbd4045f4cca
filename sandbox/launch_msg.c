// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * launch_msg.c - sending and, above all, checking the parser child's
 * message.  The launcher trusts nothing in it: a parser that a hostile
 * profile took over must not be able to make the launcher act on a
 * field it did not check.
 */
#include "config.h"

#include "launch_msg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "corral_abi.h"
#include "policy.h"

/* Filesystems whose files no path names: never the target of a rule. */
#define ANON_INODE_FS_MAGIC 0x09041934
#define SOCKFS_MAGIC        0x534F434B
#define PIPEFS_MAGIC        0x50495045
#define PIDFS_MAGIC         0x50494446
#define NSFS_MAGIC          0x6e736673

#define TASK_FLAGS_KNOWN (CORRAL_TASK_EXEC_ANON | CORRAL_TASK_UNIX_ANY | \
			  CORRAL_TASK_USERNS | CORRAL_TASK_SYSV_IPC)

int launch_msg_send_raw(int sock, const void *buf, size_t len,
			const int *fds, size_t n_fds)
{
	char control[CMSG_SPACE(sizeof(int) * LAUNCH_SCM_MAX_FD)];
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cmsg;

	if (n_fds > LAUNCH_SCM_MAX_FD)
		return -E2BIG;
	if (n_fds) {
		memset(control, 0, sizeof(control));
		mh.msg_control = control;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * n_fds);
		cmsg = CMSG_FIRSTHDR(&mh);
		cmsg->cmsg_level = SOL_SOCKET;
		cmsg->cmsg_type = SCM_RIGHTS;
		cmsg->cmsg_len = CMSG_LEN(sizeof(int) * n_fds);
		memcpy(CMSG_DATA(cmsg), fds, sizeof(int) * n_fds);
	}
	if (sendmsg(sock, &mh, MSG_NOSIGNAL) != (ssize_t)len)
		return -errno;
	return 0;
}

int launch_msg_send_rules(int sock, uint32_t first, const int *fds, size_t n)
{
	struct launch_fds_msg m = {
		.magic = LAUNCH_FDS_MAGIC, .first = first, .count = (uint32_t)n,
	};

	if (!n)
		return -EINVAL;
	if (n > LAUNCH_FDS_PER_MSG)
		return -E2BIG;
	return launch_msg_send_raw(sock, &m, sizeof(m), fds, n);
}

int launch_msg_send(int sock, const struct launch_msg *msg, const int *fds,
		    size_t n_fds)
{
	if (n_fds > LAUNCH_MAX_OUTPUTS)
		return -E2BIG;
	return launch_msg_send_raw(sock, msg, sizeof(*msg), fds, n_fds);
}

static int reject(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

static bool terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

/* Each rule exactly as netrule.c makes them: one op, a sane range. */
static int check_net(const struct launch_msg *m)
{
	if (m->net_mode > POLICY_NET_RULES || m->n_net > POLICY_MAX_NET_RULES)
		return -1;
	if (m->n_net && m->kind != LAUNCH_RUN && m->kind != LAUNCH_LEARN)
		return -1;
	for (uint32_t i = 0; i < m->n_net; i++) {
		const struct policy_net_rule *r = &m->net[i];
		unsigned int max_prefix = r->family == 6 ? 128 :
					  r->family == 4 ? 32 : 0;

		if (!r->op || (r->op & (r->op - 1)) || (r->op & ~CORRAL_NET_ALL))
			return -1;
		if ((r->family != 0 && r->family != 4 && r->family != 6) ||
		    r->prefix_len > max_prefix || r->reserved ||
		    r->port_lo > r->port_hi)
			return -1;
	}
	return 0;
}

/* Name rules: each on a deny-only rule, in order, a plain name. */
static int check_names(const struct launch_msg *m, bool runs)
{
	if (m->n_names > LAUNCH_MAX_NAMES || (!runs && m->n_names))
		return -1;
	for (uint32_t i = 0; i < m->n_names; i++) {
		const struct launch_name_rule *r = &m->names[i];

		if (r->rule >= m->n_rules || m->access[r->rule] ||
		    (i && r->rule <= m->names[i - 1].rule) ||
		    !terminated(r->name, sizeof(r->name)) || !r->name[0] ||
		    strchr(r->name, '/') || !strcmp(r->name, ".") ||
		    !strcmp(r->name, ".."))
			return -1;
	}
	return 0;
}

const char *launch_rule_name(const struct launch_msg *m, uint32_t rule)
{
	for (uint32_t i = 0; i < m->n_names && i < LAUNCH_MAX_NAMES; i++)
		if (m->names[i].rule == rule)
			return m->names[i].name;
	return NULL;
}

static int check_header(const struct launch_msg *m, int argc, char *why,
			size_t size)
{
	bool runs = m->kind == LAUNCH_RUN || m->kind == LAUNCH_LEARN;

	if (m->magic != LAUNCH_MSG_MAGIC || m->version != LAUNCH_MSG_VERSION ||
	    m->size != sizeof(*m))
		return reject(why, size, "bad magic, version or size");
	if (m->kind < LAUNCH_RUN || m->kind > LAUNCH_KIND_MAX)
		return reject(why, size, "unknown kind %u", m->kind);
	if (m->flags & ~LAUNCH_FLAGS_ALL)
		return reject(why, size, "unknown flags 0x%x", m->flags);
	if (m->engine > LAUNCH_ENGINE_MAX)
		return reject(why, size, "unknown engine %u", m->engine);
	if (m->task_flags & ~TASK_FLAGS_KNOWN)
		return reject(why, size, "unknown sandbox flags 0x%x",
			      m->task_flags);
	if (m->n_rules > LAUNCH_MAX_RULES)
		return reject(why, size, "%u rules (at most %d)", m->n_rules,
			      LAUNCH_MAX_RULES);
	if (!terminated(m->exec_path, sizeof(m->exec_path)) ||
	    !terminated(m->learn_base, sizeof(m->learn_base)) ||
	    !terminated(m->tmpdir, sizeof(m->tmpdir)))
		return reject(why, size, "unterminated string");
	if (!runs && (m->n_rules || m->cmd_index || m->exec_path[0] ||
		      (m->flags & (LAUNCH_LOG | LAUNCH_LOG_FD |
				   LAUNCH_LOG_ALL | LAUNCH_TMPDIR))))
		return reject(why, size, "a command or rules with an admin "
			      "subcommand");
	if (runs && (m->cmd_index >= (uint32_t)argc ||
		     (m->cmd_index == 0 && !m->exec_path[0])))
		return reject(why, size, "command index %u outside argv",
			      m->cmd_index);
	if (m->n_unset > LAUNCH_MAX_UNSET || (!runs && m->n_unset))
		return reject(why, size, "%u variables to unset", m->n_unset);
	for (uint32_t i = 0; i < m->n_unset; i++)
		if (!terminated(m->unset[i], sizeof(m->unset[i])) ||
		    !policy_var_pattern_ok(m->unset[i]))
			return reject(why, size, "unset %u: not a variable "
				      "name", i);
	if (check_net(m) < 0)
		return reject(why, size, "bad network rules");
	if (check_names(m, runs) < 0)
		return reject(why, size, "bad name rules");
	if (m->exec_path[0] && m->exec_path[0] != '/')
		return reject(why, size, "relative program path");
	if ((m->flags & LAUNCH_PATH_FOUND) &&
	    (!m->exec_path[0] || m->cmd_index == 0))
		return reject(why, size, "a found program without a path or "
			      "a command");
	if (!(m->flags & LAUNCH_TMPDIR) != !m->tmpdir[0] ||
	    (m->tmpdir[0] && m->tmpdir[0] != '/'))
		return reject(why, size, "a TMPDIR without its fd, or "
			      "relative");
	if ((m->flags & (LAUNCH_LOG_FD | LAUNCH_LOG_ALL)) &&
	    !(m->flags & LAUNCH_LOG))
		return reject(why, size, "a log file or --log-all without "
			      "--log");
	for (uint32_t i = 0; i < m->n_rules; i++)
		if (!(m->access[i] | m->deny[i]) ||
		    ((m->access[i] | m->deny[i]) & ~CORRAL_ACCESS_ALL))
			return reject(why, size, "rule %u: bad rights 0x%x, "
				      "denied 0x%x", i, m->access[i],
				      m->deny[i]);
	return 0;
}

/* The fds attached to the launch_msg itself: its outputs. */
static size_t fds_expected(const struct launch_msg *m)
{
	return !!(m->flags & LAUNCH_LOG_FD) + !!(m->flags & LAUNCH_LOG) +
	       (m->kind == LAUNCH_LEARN) + !!(m->flags & LAUNCH_TMPDIR);
}

static bool pseudo_fs(int fd)
{
	struct statfs sfs;

	if (fstatfs(fd, &sfs) < 0)
		return true;
	switch (sfs.f_type) {
	case ANON_INODE_FS_MAGIC:
	case SOCKFS_MAGIC:
	case PIPEFS_MAGIC:
	case PIDFS_MAGIC:
	case NSFS_MAGIC:
		return true;
	default:
		return false;
	}
}

/*
 * DAC still applies under a sandbox, so a rule can only narrow what the
 * user could reach; but a rule fd the real user could not have opened
 * means the fd came from somewhere else, and nothing from somewhere else
 * is acted on.  The parser drops such rules before sending.
 */
static bool user_may_use(int fd, const struct stat *st, uint32_t access)
{
	if (S_ISDIR(st->st_mode))
		return !faccessat(fd, "", X_OK, AT_EMPTY_PATH);
	if ((access & (CORRAL_ACCESS_READ | CORRAL_ACCESS_IOCTL)) &&
	    !faccessat(fd, "", R_OK, AT_EMPTY_PATH))
		return true;
	/* connect(2) to a unix socket needs write permission on it */
	if ((access & (CORRAL_ACCESS_WRITE | CORRAL_ACCESS_TRUNCATE |
		       CORRAL_ACCESS_IOCTL | CORRAL_ACCESS_CONNECT_UNIX)) &&
	    !faccessat(fd, "", W_OK, AT_EMPTY_PATH))
		return true;
	return (access & CORRAL_ACCESS_EXEC) &&
	       !faccessat(fd, "", X_OK, AT_EMPTY_PATH);
}

bool launch_rule_usable(int fd, uint32_t access)
{
	struct stat st;

	return !fstat(fd, &st) && user_may_use(fd, &st, access);
}

static int check_rule_fd(int fd, uint32_t access, uint32_t i, char *why,
			 size_t size)
{
	int fl = fcntl(fd, F_GETFL);
	struct stat st;

	if (fl < 0 || !(fl & O_PATH))
		return reject(why, size, "rule %u: not an O_PATH fd", i);
	if (fstat(fd, &st) < 0 || S_ISLNK(st.st_mode) || pseudo_fs(fd))
		return reject(why, size, "rule %u: not a file, directory or "
			      "device", i);
	if (!S_ISDIR(st.st_mode) && (access & ~CORRAL_ACCESS_FILE))
		return reject(why, size, "rule %u: directory rights on a "
			      "file", i);
	if (!user_may_use(fd, &st, access))
		return reject(why, size, "rule %u: a file the user cannot "
			      "access", i);
	return 0;
}

static int check_output_fd(int fd, const char *what, char *why, size_t size)
{
	int fl = fcntl(fd, F_GETFL);
	struct stat st;

	if (fl < 0 || (fl & O_PATH) || (fl & O_ACCMODE) == O_RDONLY)
		return reject(why, size, "%s: not open for writing", what);
	if (fstat(fd, &st) < 0 || pseudo_fs(fd) ||
	    !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode) ||
	      S_ISCHR(st.st_mode)))
		return reject(why, size, "%s: not a file, pipe or terminal",
			      what);
	return 0;
}

/*
 * The rules' names for --log (log_rules.h): read by the watcher after it
 * dropped its privileges, so only its kind matters here: a sealed memfd
 * can neither block the read nor change under it.
 */
static int check_rules_text_fd(int fd, char *why, size_t size)
{
	const int sealed = F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK;
	int seals = fcntl(fd, F_GET_SEALS);
	struct stat st;

	if (seals < 0 || (seals & sealed) != sealed || fstat(fd, &st) < 0 ||
	    !S_ISREG(st.st_mode))
		return reject(why, size, "the rules' names: not a sealed "
			      "memfd");
	return 0;
}

/*
 * The private TMPDIR: the command inherits this fd, and TMPDIR names its
 * directory, so it must be a directory the real user owns, 0700, open
 * for reading (a flock needs no more), at the path the message says.
 */
static int check_tmp_fd(int fd, const char *path, char *why, size_t size)
{
	int fl = fcntl(fd, F_GETFL);
	struct stat st, at;

	if (fl < 0 || (fl & O_PATH) || (fl & O_ACCMODE) != O_RDONLY ||
	    fstat(fd, &st) < 0 || !S_ISDIR(st.st_mode) || pseudo_fs(fd))
		return reject(why, size, "TMPDIR: not a directory open for "
			      "reading");
	if (st.st_uid != getuid() || (st.st_mode & 07777) != 0700)
		return reject(why, size, "TMPDIR: not the user's, or not "
			      "0700");
	if (lstat(path, &at) < 0 || at.st_dev != st.st_dev ||
	    at.st_ino != st.st_ino)
		return reject(why, size, "TMPDIR: its path names another "
			      "file");
	return 0;
}

static int check_fds(struct launch_request *req, char *why, size_t size)
{
	const struct launch_msg *m = &req->msg;
	int r;

	for (uint32_t i = 0; i < m->n_rules; i++) {
		r = check_rule_fd(req->rule_fds[i], m->access[i] | m->deny[i],
				  i, why, size);
		if (r < 0)
			return r;
	}
	if (req->log_fd >= 0) {
		r = check_output_fd(req->log_fd, "the log file", why, size);
		if (r < 0)
			return r;
	}
	if (req->rules_text_fd >= 0) {
		r = check_rules_text_fd(req->rules_text_fd, why, size);
		if (r < 0)
			return r;
	}
	if (req->tmp_fd >= 0) {
		r = check_tmp_fd(req->tmp_fd, m->tmpdir, why, size);
		if (r < 0)
			return r;
	}
	if (req->learn_fd >= 0)
		return check_output_fd(req->learn_fd, "the learn output", why,
				       size);
	return 0;
}

/*
 * Collects the SCM_RIGHTS fds, at most @max; any other control message
 * is an error.
 */
static int take_fds(struct msghdr *mh, int *fds, size_t *n, size_t max,
		    char *why, size_t size)
{
	struct cmsghdr *c;

	*n = 0;
	for (c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		bool ok = c->cmsg_level == SOL_SOCKET &&
			  c->cmsg_type == SCM_RIGHTS && *n + k <= max;

		if (ok)
			memcpy(fds + *n, CMSG_DATA(c), k * sizeof(int));
		else
			k = 0;
		*n += k;
		if (!ok)
			return reject(why, size, "unexpected control message");
	}
	return 0;
}

static void close_all(int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		close(fds[i]);
}

/*
 * One message into @buf (*len bytes) and @fds (*n_fds).  A spare byte
 * and fd in the buffers, so that an oversize message shows.  -ENODATA
 * at end of file.
 */
static int recv_one(int sock, char *buf, size_t buf_size, int *fds,
		    size_t *n_fds, ssize_t *len, char *why, size_t size)
{
	char control[CMSG_SPACE(sizeof(int) * (LAUNCH_FDS_PER_MSG + 1))];
	struct iovec iov = { .iov_base = buf, .iov_len = buf_size };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control, .msg_controllen = sizeof(control),
	};
	int r;

	*n_fds = 0;
	*len = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	if (*len < 0)
		return reject(why, size, "receiving: %s", strerror(errno));
	r = take_fds(&mh, fds, n_fds, LAUNCH_FDS_PER_MSG + 1, why, size);
	if (!r && *len == 0 && !*n_fds)
		return -ENODATA;
	if (!r && (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)))
		r = reject(why, size, "oversize message or too many fds");
	return r;
}

/*
 * A struct launch_fds_msg in @buf with @fds: the next rules' fds, moved
 * to req->rule_fds[*n_rules...] if everything in it is as it must be.
 */
static int take_rule_fds(const char *buf, const int *fds, size_t n_fds,
			 struct launch_request *req, size_t *n_rules,
			 char *why, size_t size)
{
	struct launch_fds_msg m;

	memcpy(&m, buf, sizeof(m));
	if (m.magic != LAUNCH_FDS_MAGIC || m.reserved)
		return reject(why, size, "rule fds: bad magic");
	if (m.first != *n_rules)
		return reject(why, size, "rule fds from rule %u, %zu expected",
			      m.first, *n_rules);
	if (!m.count || m.count > LAUNCH_FDS_PER_MSG || m.count != n_fds)
		return reject(why, size, "rule fds: %zu attached, %u said",
			      n_fds, m.count);
	if (*n_rules + n_fds > LAUNCH_MAX_RULES)
		return reject(why, size, "more than %d rule fds",
			      LAUNCH_MAX_RULES);
	memcpy(req->rule_fds + *n_rules, fds, n_fds * sizeof(int));
	*n_rules += n_fds;
	return 0;
}

/* The launch_msg in @buf (@len bytes) with its outputs' @fds. */
static int take_msg(const char *buf, ssize_t len, const int *fds,
		    size_t n_fds, size_t n_rules, int argc,
		    struct launch_request *req, char *why, size_t size)
{
	struct launch_msg *m = &req->msg;
	size_t k = 0;
	int r;

	if ((size_t)len != sizeof(*m))
		return reject(why, size, "truncated message (%zd of %zu "
			      "bytes)", len, sizeof(*m));
	memcpy(m, buf, sizeof(*m));
	r = check_header(m, argc, why, size);
	if (r < 0)
		return r;
	if (m->n_rules != n_rules)
		return reject(why, size, "%u rules, %zu rule fds received",
			      m->n_rules, n_rules);
	if (n_fds != fds_expected(m))
		return reject(why, size, "%zu fds attached, %zu expected",
			      n_fds, fds_expected(m));
	req->log_fd = (m->flags & LAUNCH_LOG_FD) ? fds[k++] : -1;
	req->rules_text_fd = (m->flags & LAUNCH_LOG) ? fds[k++] : -1;
	req->learn_fd = m->kind == LAUNCH_LEARN ? fds[k++] : -1;
	req->tmp_fd = (m->flags & LAUNCH_TMPDIR) ? fds[k++] : -1;
	return 0;
}

int launch_msg_recv(int sock, int argc, struct launch_request *req,
		    char *why, size_t size)
{
	static char buf[sizeof(struct launch_msg) + 1];
	int fds[LAUNCH_FDS_PER_MSG + 1];
	size_t n_fds = 0, n_rules = 0;
	ssize_t len;
	int r;

	req->log_fd = req->learn_fd = req->rules_text_fd = req->tmp_fd = -1;
	for (;;) {
		r = recv_one(sock, buf, sizeof(buf), fds, &n_fds, &len, why,
			     size);
		if (!r && (size_t)len == sizeof(struct launch_fds_msg))
			r = take_rule_fds(buf, fds, n_fds, req, &n_rules, why,
					  size);
		else if (!r)
			break;
		if (r < 0)
			goto fail;
	}
	r = take_msg(buf, len, fds, n_fds, n_rules, argc, req, why, size);
	if (r < 0)
		goto fail;
	r = check_fds(req, why, size);
	if (r < 0)
		launch_request_close(req);
	return r;
fail:
	close_all(fds, n_fds);
	close_all(req->rule_fds, n_rules);
	req->msg.n_rules = 0;
	req->log_fd = req->learn_fd = req->rules_text_fd = req->tmp_fd = -1;
	return r;
}

void launch_request_close(struct launch_request *req)
{
	for (uint32_t i = 0; i < req->msg.n_rules && i < LAUNCH_MAX_RULES; i++)
		close(req->rule_fds[i]);
	if (req->log_fd >= 0)
		close(req->log_fd);
	if (req->learn_fd >= 0)
		close(req->learn_fd);
	if (req->rules_text_fd >= 0)
		close(req->rules_text_fd);
	if (req->tmp_fd >= 0)
		close(req->tmp_fd);
	req->msg.n_rules = 0;
	req->log_fd = req->learn_fd = req->rules_text_fd = req->tmp_fd = -1;
}
