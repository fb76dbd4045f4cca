// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * resolve.c - the host-name request and its answer (see resolve.h for
 * who runs what, and why).
 */
#include "config.h"

#include "resolve.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "netrule.h"
#include "privs.h"
#include "util.h"

#define RESOLVE_REQUEST_MAGIC 0x72736c76u  /* "rslv" */
#define RESOLVE_ANSWER_MAGIC  0x616e7377u  /* "answ" */
#define RESOLVE_WHY_SIZE 96

struct resolve_request {
	uint32_t magic;
	uint32_t n;
	char name[RESOLVE_MAX_NAMES][POLICY_HOST_NAME_MAX + 1];
};

struct resolve_answer {
	char error[RESOLVE_WHY_SIZE];   /* empty when it resolved */
	uint32_t n_addrs;
	struct policy_net_rule addr[POLICY_MAX_HOST_ADDRS];
};

struct resolve_reply {
	uint32_t magic;
	uint32_t n;
	struct resolve_answer answer[RESOLVE_MAX_NAMES];
};

/* ---- the parser's side --------------------------------------------- */

/* The request's index of @name, added if new; -1 when it is full. */
static int name_index(struct resolve_request *req, const char *name)
{
	for (uint32_t i = 0; i < req->n; i++)
		if (!strcmp(req->name[i], name))
			return (int)i;
	if (req->n == RESOLVE_MAX_NAMES)
		return -1;
	snprintf(req->name[req->n], sizeof(req->name[0]), "%s", name);
	return (int)req->n++;
}

/* Each address exactly as netrule_resolve makes them. */
static bool answer_ok(const struct resolve_answer *a)
{
	if (!memchr(a->error, '\0', sizeof(a->error)) ||
	    a->n_addrs > POLICY_MAX_HOST_ADDRS || (!a->error[0] && !a->n_addrs))
		return false;
	for (uint32_t i = 0; i < a->n_addrs; i++) {
		const struct policy_net_rule *r = &a->addr[i];

		if (!((r->family == 4 && r->prefix_len == 32) ||
		      (r->family == 6 && r->prefix_len == 128)))
			return false;
	}
	return true;
}

static void take_answer(struct policy_net_host *h,
			const struct resolve_answer *a)
{
	h->resolved = true;
	if (a->error[0]) {
		h->error = xstrdup(a->error);
		return;
	}
	for (uint32_t i = 0; i < a->n_addrs; i++) {
		struct policy_net_rule *r = &h->addrs[i];

		*r = h->rule;
		r->family = a->addr[i].family;
		r->prefix_len = a->addr[i].prefix_len;
		memcpy(r->addr, a->addr[i].addr, sizeof(r->addr));
	}
	h->n_addrs = a->n_addrs;
}

int resolve_hosts(int sock, struct policy *policy)
{
	static struct resolve_request req;
	static struct resolve_reply reply;
	ssize_t n;

	memset(&req, 0, sizeof(req));
	req.magic = RESOLVE_REQUEST_MAGIC;
	for (size_t i = 0; i < policy->n_hosts; i++)
		if (name_index(&req, policy->hosts[i].name) < 0) {
			warn_msg("%s: more than %d host names in network "
				 "rules (use addresses or prefixes)",
				 policy->hosts[i].origin, RESOLVE_MAX_NAMES);
			return -EPROTO;
		}
	if (!req.n)
		return 0;
	if (write(sock, &req, sizeof(req)) != (ssize_t)sizeof(req)) {
		warn_msg("asking the launcher to resolve host names: %s",
			 strerror(errno));
		return -EPROTO;
	}
	n = read(sock, &reply, sizeof(reply));
	if (n != (ssize_t)sizeof(reply) || reply.magic != RESOLVE_ANSWER_MAGIC ||
	    reply.n != req.n) {
		warn_msg("resolving host names: %s", n < 0 ? strerror(errno) :
			 "no answer from the resolver (see the message above)");
		return -EPROTO;
	}
	for (uint32_t i = 0; i < reply.n; i++)
		if (!answer_ok(&reply.answer[i])) {
			warn_msg("resolving host names: a malformed answer "
				 "for '%s'", req.name[i]);
			return -EPROTO;
		}
	for (size_t i = 0; i < policy->n_hosts; i++)
		take_answer(&policy->hosts[i],
			    &reply.answer[name_index(&req,
						     policy->hosts[i].name)]);
	return 0;
}

/* ---- the launcher's side: an unprivileged child answers ------------ */

static void answer_one(const char *name, struct resolve_answer *a)
{
	size_t n = 0;

	memset(a, 0, sizeof(*a));
	if (!memchr(name, '\0', POLICY_HOST_NAME_MAX + 1)) {
		snprintf(a->error, sizeof(a->error), "bad host name");
		return;
	}
	if (netrule_resolve(name, a->addr, POLICY_MAX_HOST_ADDRS, &n,
			    a->error, sizeof(a->error)) < 0) {
		if (!a->error[0])
			snprintf(a->error, sizeof(a->error), "did not resolve");
		return;
	}
	a->n_addrs = (uint32_t)n;
}

static _Noreturn void resolver_child(int sock,
				     const struct resolve_request *req)
{
	static struct resolve_reply reply;

	privs_drop_all();
	reply.magic = RESOLVE_ANSWER_MAGIC;
	reply.n = req->n;
	for (uint32_t i = 0; i < req->n; i++)
		answer_one(req->name[i], &reply.answer[i]);
	if (send(sock, &reply, sizeof(reply), MSG_NOSIGNAL) !=
	    (ssize_t)sizeof(reply))
		die_errno("sending the resolved host names to the parser");
	_exit(0);
}

/* Waits for the resolver; 0 if it answered, else -ECHILD. */
static int wait_resolver(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die_errno("waiting for the host name resolver");
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	if (WIFSIGNALED(status))
		warn_msg("the host name resolver was killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	return -ECHILD;
}

int resolve_serve(int sock)
{
	static struct resolve_request req;
	ssize_t n = recv(sock, &req, sizeof(req), MSG_PEEK | MSG_TRUNC);
	pid_t pid;

	/* Anything else (the launch message, or nothing) is left queued
	 * for launch_msg_recv, which checks it. */
	if (n != (ssize_t)sizeof(req) || req.magic != RESOLVE_REQUEST_MAGIC)
		return 0;
	if (recv(sock, &req, sizeof(req), 0) != (ssize_t)sizeof(req))
		die_errno("reading the parser's host names");
	if (req.n > RESOLVE_MAX_NAMES)
		req.n = 0;      /* the parser checks the count it gets back */
	pid = fork();
	if (pid < 0)
		die_errno("fork for the host name resolver");
	if (!pid)
		resolver_child(sock, &req);
	if (wait_resolver(pid) == 0)
		return 1;
	/* The parser would wait for an answer forever. */
	if (shutdown(sock, SHUT_RDWR) < 0)
		die_errno("closing the parser's socket");
	return -ECHILD;
}
