// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c - corral: run a command confined to the trees a policy allows.
 *
 * The launcher holds CAP_BPF (and runs setgid corral) but reads no user
 * input itself: a child with no privilege parses argv, the environment
 * and the profiles (parser_child.c) and sends back one checked message
 * (launch_msg.c).  This file only routes that message.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bpf_admin.h"
#include "engine_bpf.h"
#include "engine_landlock.h"
#include "launch.h"
#include "launch_msg.h"
#include "parser_child.h"
#include "privs.h"
#include "resolve.h"
#include "user_env.h"
#include "util.h"

static int run_admin(const struct launch_msg *msg)
{
	privs_raise_admin();
	switch (msg->kind) {
	case LAUNCH_SETUP:
		return bpf_admin_setup(msg->flags & LAUNCH_DEBUG);
	case LAUNCH_STATUS:
		return bpf_admin_status();
	default:
		return bpf_admin_teardown(msg->flags & LAUNCH_FORCE);
	}
}

/*
 * `corral explain` names the engine a launch would get, which only the
 * launcher can find out (the parser has no capabilities and may not make
 * the calls): NULL for every other command, which need not pay for it.
 */
static const struct explain_engine *explain_engine(int argc, char **argv,
						   struct explain_engine *e)
{
	struct bpf_why why;

	if (argc < 2 || strcmp(argv[1], "explain"))
		return NULL;
	e->bpf = bpf_engine_available(&why);
	e->landlock_abi = landlock_abi();
	return e;
}

int main(int argc, char **argv)
{
	static struct launch_request req;
	struct explain_engine engine;
	char **envp;
	char why[160];
	pid_t parser;
	int sock, r, status;

	privs_at_start();
	fd_limit_raise();
	envp = user_env_read(argc, argv);
	sock = parser_start(argc, argv, envp, explain_engine(argc, argv,
							     &engine), &parser);
	/* Host names in network rules, if any (resolve.h): before the one
	 * message, which then holds their addresses. */
	resolve_serve(sock);
	r = launch_msg_recv(sock, argc, &req, why, sizeof(why));
	close(sock);
	status = parser_wait(parser);
	if (r == -ENODATA)
		return status;  /* the parser printed what was asked, or why not */
	if (r < 0)
		die("internal error: the profile parser sent a bad message "
		    "(%s); nothing was run", why);
	if (status)
		die("the profile parser failed after sending its message "
		    "(exit %d); nothing was run", status);
	if (req.msg.kind == LAUNCH_RUN || req.msg.kind == LAUNCH_LEARN)
		launch(&req, argv, envp);
	return run_admin(&req.msg);
}
