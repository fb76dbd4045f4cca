/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * launch_msg.h - the one message the unprivileged parser child sends the
 * privileged launcher (DESIGN.md section 4).
 *
 * Everything that reads user input (argv, the environment, profiles,
 * includes, paths) runs in the child, which holds no capability.  What
 * crosses back over a SOCK_SEQPACKET socket is, first, the rules' O_PATH
 * fds as SCM_RIGHTS in messages of their own (struct launch_fds_msg, in
 * order, as many as needed), then this fixed-size struct once, with the
 * --log file, the rules' names for --log (a sealed memfd, log_rules.h)
 * the learn output and the private TMPDIR (private_tmp.h) attached, each
 * when there is one.  No pointer and no
 * variable-length field crosses; the command's argv is named by its
 * index in the launcher's own argv.
 */
#ifndef CORRAL_LAUNCH_MSG_H
#define CORRAL_LAUNCH_MSG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy.h"

#define LAUNCH_MSG_MAGIC   0x6c6f7263u  /* "crol" */
#define LAUNCH_MSG_VERSION 6u          /* 6: name rules */
#define LAUNCH_FDS_MAGIC   0x73646672u  /* "rfds" */

/*
 * One SCM_RIGHTS message carries at most 253 fds (SCM_MAX_FD), so the
 * rules' fds go LAUNCH_FDS_PER_MSG at a time.  A sandbox has at most
 * LAUNCH_MAX_RULES rules: the bpf engine's rules map holds CORRAL_MAX_RULES
 * (65,536) for every sandbox on the machine, and one launch may take at
 * most a sixteenth of it (no shipped profile comes near: the largest
 * merges to ~40 rules; a learned one can reach a thousand).
 */
#define LAUNCH_FDS_PER_MSG 250
#define LAUNCH_SCM_MAX_FD  253   /* the kernel's SCM_MAX_FD */
#define LAUNCH_MAX_RULES   4096
/* --log=FILE, rules' names, learn output, the private TMPDIR */
#define LAUNCH_MAX_OUTPUTS 4
/* [environment] unset entries, each a name or PREFIX* of < 64 bytes. */
#define LAUNCH_MAX_UNSET 64
#define LAUNCH_UNSET_SIZE 64
/* Name rules: protected paths that are missing (protected.c). */
#define LAUNCH_MAX_NAMES 16

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
 * stays as typed (see resolve_command in parser_child.c). */
#define LAUNCH_PATH_FOUND (1u << 4)
/* --quiet, CORRAL_QUIET or quiet = yes: no warning that Landlock is used */
#define LAUNCH_QUIET    (1u << 5)
/* --log-all: print the routine denials too (events.h) */
#define LAUNCH_LOG_ALL  (1u << 6)
/* tmpdir names the launch's private temporary directory (private_tmp.h);
 * an fd to it with the lock that keeps it alive is attached, last. */
#define LAUNCH_TMPDIR   (1u << 7)
/* --net-best-effort: under Landlock, run network rules it cannot enforce
 * (landlock_net_gap) instead of refusing to launch */
#define LAUNCH_NET_BEST_EFFORT (1u << 8)
#define LAUNCH_FLAGS_ALL ((LAUNCH_NET_BEST_EFFORT << 1) - 1)

/* Before the launch_msg: @count rule fds attached, rules @first on. */
struct launch_fds_msg {
	uint32_t magic;           /* LAUNCH_FDS_MAGIC */
	uint32_t first;           /* the rules received so far */
	uint32_t count;           /* 1 to LAUNCH_FDS_PER_MSG */
	uint32_t reserved;        /* 0 */
};

/* Rule @rule is a directory's, and denies making @name in it. */
struct launch_name_rule {
	uint32_t rule;
	char name[CORRAL_NAME_LEN];
};

struct launch_msg {
	uint32_t magic;
	uint32_t version;
	uint32_t size;            /* sizeof(struct launch_msg) */
	uint32_t kind;            /* enum launch_kind */
	uint32_t flags;           /* LAUNCH_* above */
	uint32_t engine;          /* enum launch_engine, require= merged in */
	uint32_t task_flags;      /* CORRAL_TASK_EXEC_ANON, _UNIX_ANY, _USERNS,
				     _SYSV_IPC */
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
	/* LAUNCH_TMPDIR: the command's TMPDIR, the directory of tmp_fd. */
	char tmpdir[PATH_MAX];
	/* Variables the command does not get: NAME, or PREFIX*. */
	uint32_t n_unset;
	char unset[LAUNCH_MAX_UNSET][LAUNCH_UNSET_SIZE];
	/* [network]: enum policy_net_mode, and the rules as parsed. */
	uint32_t net_mode;
	uint32_t n_net;
	struct policy_net_rule net[POLICY_MAX_NET_RULES];
	/* Name rules, in the order of their rules. */
	uint32_t n_names;
	struct launch_name_rule names[LAUNCH_MAX_NAMES];
};

/* What the launcher keeps of a validated message. */
struct launch_request {
	struct launch_msg msg;
	int rule_fds[LAUNCH_MAX_RULES];
	int log_fd;               /* -1 unless LAUNCH_LOG_FD */
	int rules_text_fd;        /* -1 unless LAUNCH_LOG (log_rules.h) */
	int learn_fd;             /* -1 unless LAUNCH_LEARN */
	int tmp_fd;               /* -1 unless LAUNCH_TMPDIR */
};

/*
 * Child side: sends the fds of rules @first to @first + @n - 1 (@n at
 * most LAUNCH_FDS_PER_MSG); all of them go before the launch_msg.
 * Returns 0 or -errno.
 */
int launch_msg_send_rules(int sock, uint32_t first, const int *fds, size_t n);

/*
 * Child side: sends @msg with @fds, its outputs (the log fd if
 * LAUNCH_LOG_FD, the rules' names if LAUNCH_LOG, the learn fd for
 * LAUNCH_LEARN, then the TMPDIR fd for LAUNCH_TMPDIR).  Returns 0 or
 * -errno.
 */
int launch_msg_send(int sock, const struct launch_msg *msg, const int *fds,
		    size_t n_fds);

/*
 * Both sends above: one message of @len bytes with @n_fds fds attached
 * (at most LAUNCH_SCM_MAX_FD).  The tests send with it what a correct
 * parser never would, to see the launcher refuse it.  0 or -errno.
 */
int launch_msg_send_raw(int sock, const void *buf, size_t len,
			const int *fds, size_t n_fds);

/*
 * Launcher side: receives the rule fds and the message, and checks
 * everything in them that it will act on: the exact sizes, magic and
 * version, that the fd messages come in order and carry what they say,
 * every enum and bit against the known ones, the rule count against the
 * rule fds received, the output fd count against what the fields say,
 * each fd's kind (rules: O_PATH fds of files, directories or devices on
 * a real filesystem; log and learn: regular files or pipes opened for
 * writing), that the real user may reach each rule's file, that
 * cmd_index lies inside an argv of @argc entries, and that every string
 * is terminated.  Returns 0 with every fd in @req; -ENODATA when the
 * parser closed the socket before the message (it printed what the user
 * asked for, or an error); or -EBADMSG with the reason in @why.  On
 * anything but 0, every received fd is closed.
 */
/* The name of rule @rule if it is a name rule, else NULL. */
const char *launch_rule_name(const struct launch_msg *m, uint32_t rule);

int launch_msg_recv(int sock, int argc, struct launch_request *req,
		    char *why, size_t why_size);

/*
 * May the real user reach the file of O_PATH @fd for at least one of
 * @access's rights (DAC, real ids)?  Dirs need search permission.
 */
bool launch_rule_usable(int fd, uint32_t access);

void launch_request_close(struct launch_request *req);

#endif /* CORRAL_LAUNCH_MSG_H */
