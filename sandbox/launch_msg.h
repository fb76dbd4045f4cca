/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * launch_msg.h - the one message the unprivileged parser child sends the
 * privileged launcher (DESIGN.md section 4).
 *
 * Everything that reads user input (argv, the environment, profiles,
 * includes, paths) runs in the child, which holds no capability.  What
 * crosses back is this fixed-size struct, sent once over a SOCK_SEQPACKET
 * socket, with the opened files attached as SCM_RIGHTS in a fixed order:
 * the rules' O_PATH fds, then the --log file, then the learn output.
 * No pointer and no variable-length field crosses; the command's argv is
 * named by its index in the launcher's own argv.
 */
#ifndef CORRAL_LAUNCH_MSG_H
#define CORRAL_LAUNCH_MSG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy.h"

#define LAUNCH_MSG_MAGIC   0x6c6f7263u  /* "crol" */
#define LAUNCH_MSG_VERSION 2u

/*
 * One SCM_RIGHTS message carries at most 253 fds (SCM_MAX_FD): the rules
 * get 250 of them, the log and learn files the rest.  No shipped profile
 * comes near (the largest merges to ~40 rules).
 */
#define LAUNCH_MAX_RULES 250
#define LAUNCH_MAX_FDS   (LAUNCH_MAX_RULES + 2)
/* [environment] unset entries, each a name or PREFIX* of < 64 bytes. */
#define LAUNCH_MAX_UNSET 64
#define LAUNCH_UNSET_SIZE 64

enum launch_kind {
	LAUNCH_RUN = 1,       /* run argv[cmd_index...] in a sandbox */
	LAUNCH_LEARN,         /* the same, recording denials to learn_fd */
	LAUNCH_SETUP,         /* corral setup */
	LAUNCH_STATUS,        /* corral status */
	LAUNCH_TEARDOWN,      /* corral teardown */
	LAUNCH_KIND_MAX = LAUNCH_TEARDOWN,
};

enum launch_engine {
	LAUNCH_ENGINE_AUTO,
	LAUNCH_ENGINE_BPF,
	LAUNCH_ENGINE_LANDLOCK,
	LAUNCH_ENGINE_MAX = LAUNCH_ENGINE_LANDLOCK,
};

#define LAUNCH_FORCE    (1u << 0)  /* teardown --force */
#define LAUNCH_DEBUG    (1u << 1)  /* setup --debug */
#define LAUNCH_LOG      (1u << 2)  /* --log: print denials */
#define LAUNCH_LOG_FD   (1u << 3)  /* --log=FILE: an fd is attached */
/* exec_path is where PATH has argv[cmd_index]; the command's argv[0]
 * stays as typed (see resolve_command in parser.c). */
#define LAUNCH_PATH_FOUND (1u << 4)
/* --quiet, CORRAL_QUIET or quiet = yes: no warning that Landlock is used */
#define LAUNCH_QUIET    (1u << 5)
#define LAUNCH_FLAGS_ALL ((LAUNCH_QUIET << 1) - 1)

struct launch_msg {
	uint32_t magic;
	uint32_t version;
	uint32_t size;            /* sizeof(struct launch_msg) */
	uint32_t kind;            /* enum launch_kind */
	uint32_t flags;           /* LAUNCH_* above */
	uint32_t engine;          /* enum launch_engine, require= merged in */
	uint32_t task_flags;      /* CORRAL_TASK_EXEC_ANON, _UNIX_ANY */
	uint32_t cmd_index;       /* the command is argv[cmd_index...] */
	uint32_t n_rules;         /* fds attached for rules, in order */
	uint32_t access[LAUNCH_MAX_RULES];  /* rights each rule allows */
	uint32_t deny[LAUNCH_MAX_RULES];    /* rights each rule denies */
	/* argv[0] mode: the real program found in PATH; with
	 * LAUNCH_PATH_FOUND, the file PATH gives for the command; else
	 * empty. */
	char exec_path[PATH_MAX];
	/* learn: the profile named first, for the learned file's header. */
	char learn_base[256];
	/* Variables the command does not get: NAME, or PREFIX*. */
	uint32_t n_unset;
	char unset[LAUNCH_MAX_UNSET][LAUNCH_UNSET_SIZE];
	/* [network]: enum policy_net_mode, and the rules as parsed. */
	uint32_t net_mode;
	uint32_t n_net;
	struct policy_net_rule net[POLICY_MAX_NET_RULES];
};

/* What the launcher keeps of a validated message. */
struct launch_request {
	struct launch_msg msg;
	int rule_fds[LAUNCH_MAX_RULES];
	int log_fd;               /* -1 unless LAUNCH_LOG_FD */
	int learn_fd;             /* -1 unless LAUNCH_LEARN */
};

/*
 * Child side: sends @msg with @fds (n_rules rule fds, then the log fd if
 * LAUNCH_LOG_FD, then the learn fd for LAUNCH_LEARN).  Returns 0 or
 * -errno.
 */
int launch_msg_send(int sock, const struct launch_msg *msg, const int *fds,
		    size_t n_fds);

/*
 * Launcher side: receives one message and checks everything in it that
 * it will act on: the exact size, magic and version, every enum and bit
 * against the known ones, the rule count, the fd count against what the
 * fields say, each fd's kind (rules: O_PATH fds of files, directories or
 * devices on a real filesystem; log and learn: regular files or pipes
 * opened for writing), that the real user may reach each rule's file,
 * that cmd_index lies inside an argv of @argc entries, and that every
 * string is terminated.  Returns 0 with every fd in @req; -ENODATA when
 * the parser closed the socket without a word (it printed what the user
 * asked for, or an error); or -EBADMSG with the reason in @why and every
 * received fd closed.
 */
int launch_msg_recv(int sock, int argc, struct launch_request *req,
		    char *why, size_t why_size);

/*
 * May the real user reach the file of O_PATH @fd for at least one of
 * @access's rights (DAC, real ids)?  Dirs need search permission.
 */
bool launch_rule_usable(int fd, uint32_t access);

void launch_request_close(struct launch_request *req);

#endif /* CORRAL_LAUNCH_MSG_H */
