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

#define TASK_FLAGS_KNOWN (CORRAL_TASK_EXEC_ANON | CORRAL_TASK_UNIX_ANY)

int launch_msg_send(int sock, const struct launch_msg *msg, const int *fds,
		    size_t n_fds)
{
	char control[CMSG_SPACE(sizeof(int) * LAUNCH_MAX_FDS)];
	struct iovec iov = { .iov_base = (void *)msg, .iov_len = sizeof(*msg) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cmsg;

	if (n_fds > LAUNCH_MAX_FDS)
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
	if (sendmsg(sock, &mh, MSG_NOSIGNAL) != (ssize_t)sizeof(*msg))
		return -errno;
	return 0;
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
	    !terminated(m->learn_base, sizeof(m->learn_base)))
		return reject(why, size, "unterminated string");
	if (!runs && (m->n_rules || m->cmd_index || m->exec_path[0] ||
		      (m->flags & (LAUNCH_LOG | LAUNCH_LOG_FD))))
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
	if (m->exec_path[0] && m->exec_path[0] != '/')
		return reject(why, size, "relative program path");
	if ((m->flags & LAUNCH_PATH_FOUND) &&
	    (!m->exec_path[0] || m->cmd_index == 0))
		return reject(why, size, "a found program without a path or "
			      "a command");
	if ((m->flags & LAUNCH_LOG_FD) && !(m->flags & LAUNCH_LOG))
		return reject(why, size, "a log file without --log");
	for (uint32_t i = 0; i < m->n_rules; i++)
		if (!(m->access[i] | m->deny[i]) ||
		    ((m->access[i] | m->deny[i]) & ~CORRAL_ACCESS_ALL))
			return reject(why, size, "rule %u: bad rights 0x%x, "
				      "denied 0x%x", i, m->access[i],
				      m->deny[i]);
	return 0;
}

static size_t fds_expected(const struct launch_msg *m)
{
	return m->n_rules + !!(m->flags & LAUNCH_LOG_FD) +
	       (m->kind == LAUNCH_LEARN);
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
	if ((access & (CORRAL_ACCESS_WRITE | CORRAL_ACCESS_TRUNCATE |
		       CORRAL_ACCESS_IOCTL)) &&
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
	if (req->learn_fd >= 0)
		return check_output_fd(req->learn_fd, "the learn output", why,
				       size);
	return 0;
}

/* Collects the SCM_RIGHTS fds; any other control message is an error. */
static int take_fds(struct msghdr *mh, int *fds, size_t *n, char *why,
		    size_t size)
{
	struct cmsghdr *c;

	*n = 0;
	for (c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		bool ok = c->cmsg_level == SOL_SOCKET &&
			  c->cmsg_type == SCM_RIGHTS && *n + k <= LAUNCH_MAX_FDS;

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

static void assign_fds(struct launch_request *req, const int *fds)
{
	const struct launch_msg *m = &req->msg;
	size_t k = m->n_rules;

	memcpy(req->rule_fds, fds, k * sizeof(int));
	req->log_fd = (m->flags & LAUNCH_LOG_FD) ? fds[k++] : -1;
	req->learn_fd = m->kind == LAUNCH_LEARN ? fds[k++] : -1;
}

int launch_msg_recv(int sock, int argc, struct launch_request *req,
		    char *why, size_t size)
{
	/* One spare byte (and fd) so that an oversize message shows. */
	char buf[sizeof(struct launch_msg) + 1];
	char control[CMSG_SPACE(sizeof(int) * (LAUNCH_MAX_FDS + 1))];
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control, .msg_controllen = sizeof(control),
	};
	int fds[LAUNCH_MAX_FDS];
	size_t n_fds = 0;
	ssize_t len;
	int r;

	req->log_fd = req->learn_fd = -1;
	len = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	if (len < 0)
		return reject(why, size, "receiving: %s", strerror(errno));
	r = take_fds(&mh, fds, &n_fds, why, size);
	if (!r && len == 0 && !n_fds)
		return -ENODATA;
	if (!r && (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)))
		r = reject(why, size, "oversize message or too many fds");
	else if (!r && (size_t)len != sizeof(struct launch_msg))
		r = reject(why, size, "truncated message (%zd of %zu bytes)",
			   len, sizeof(struct launch_msg));
	if (!r) {
		memcpy(&req->msg, buf, sizeof(req->msg));
		r = check_header(&req->msg, argc, why, size);
	}
	if (!r && n_fds != fds_expected(&req->msg))
		r = reject(why, size, "%zu fds attached, %zu expected", n_fds,
			   fds_expected(&req->msg));
	if (r < 0) {
		close_all(fds, n_fds);
		return r;
	}
	assign_fds(req, fds);
	r = check_fds(req, why, size);
	if (r < 0)
		launch_request_close(req);
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
	req->msg.n_rules = 0;
	req->log_fd = req->learn_fd = -1;
}
