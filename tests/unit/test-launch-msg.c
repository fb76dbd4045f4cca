// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests: the launcher's side of the parser message.  Each case
 * plays a parser taken over by a hostile profile and sends what a correct
 * parser never would; the launcher must refuse it and close every fd.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "corral_abi.h"
#include "launch_msg.h"
#include "tap.h"

#define ARGC 4          /* the launcher's argv: corral --ro / -- true */

static char why[160];

static void raw_send(int sock, const void *buf, size_t len, const int *fds,
		     size_t n_fds)
{
	int r = launch_msg_send_raw(sock, buf, len, fds, n_fds);

	if (r < 0) {
		fprintf(stderr, "sendmsg: %s\n", strerror(-r));
		exit(2);
	}
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

static int open_or_die(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);

	if (fd < 0) {
		perror(path);
		exit(2);
	}
	return fd;
}

static const char *proc_fd(int fd)
{
	static char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return path;
}

/* A message a correct parser could send: run argv[3] with one rule. */
static void good_msg(struct launch_msg *m)
{
	memset(m, 0, sizeof(*m));
	m->magic = LAUNCH_MSG_MAGIC;
	m->version = LAUNCH_MSG_VERSION;
	m->size = sizeof(*m);
	m->kind = LAUNCH_RUN;
	m->cmd_index = 3;
	m->n_rules = 1;
	m->access[0] = CORRAL_ACCESS_READ | CORRAL_ACCESS_READDIR;
}

/* One message of a sequence: bytes, and fds attached. */
struct part {
	const void *buf;
	size_t len;
	const int *fds;
	size_t n_fds;
};

/*
 * Sends @parts to a fresh launcher socket and receives them.  Returns
 * what launch_msg_recv returned; *leaked says whether the receiver holds
 * more fds afterwards than before.
 */
static int exchange_parts(const struct part *parts, size_t n_parts,
			  struct launch_request *req, int *leaked)
{
	int sv[2], before, r;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		perror("socketpair");
		exit(2);
	}
	why[0] = '\0';
	before = count_fds();
	for (size_t i = 0; i < n_parts; i++)
		raw_send(sv[1], parts[i].buf, parts[i].len, parts[i].fds,
			 parts[i].n_fds);
	close(sv[1]);
	r = launch_msg_recv(sv[0], ARGC, req, why, sizeof(why));
	if (!r)
		launch_request_close(req);
	*leaked = count_fds() - (before - 1) > 0;
	close(sv[0]);
	return r;
}

/* The fds message a correct parser sends for rules @first on. */
static struct launch_fds_msg fds_msg(uint32_t first, uint32_t count)
{
	return (struct launch_fds_msg){
		.magic = LAUNCH_FDS_MAGIC, .first = first, .count = count,
	};
}

/*
 * Sends @len bytes of @m after its rules' fds, as a correct parser
 * would: of @fds, the first m->n_rules (or all, if fewer) go in an fds
 * message before @m, the rest with @m.
 */
static int exchange(const struct launch_msg *m, size_t len, const int *fds,
		    size_t n_fds, struct launch_request *req, int *leaked)
{
	size_t n_rules = len >= sizeof(*m) && m->n_rules < n_fds ?
			 m->n_rules : n_fds;
	struct launch_fds_msg head = fds_msg(0, (uint32_t)n_rules);
	struct part parts[2] = {
		{ &head, sizeof(head), fds, n_rules },
		{ m, len, fds + n_rules, n_fds - n_rules },
	};

	if (!n_rules)
		return exchange_parts(parts + 1, 1, req, leaked);
	return exchange_parts(parts, 2, req, leaked);
}

/* Expects a refusal whose reason contains @word, and no fd left over. */
static void refused(const struct launch_msg *m, size_t len, const int *fds,
		    size_t n_fds, const char *word, const char *what)
{
	struct launch_request req;
	int leaked, r = exchange(m, len, fds, n_fds, &req, &leaked);

	TAP_OK(r == -EBADMSG && strstr(why, word) && !leaked,
	       "%s: refused (%s)", what, r == -EBADMSG ? why : "accepted");
}

/* The same for a sequence of messages. */
static void refused_parts(const struct part *parts, size_t n,
			  const char *word, const char *what)
{
	struct launch_request req;
	int leaked, r = exchange_parts(parts, n, &req, &leaked);

	TAP_OK(r == -EBADMSG && strstr(why, word) && !leaked,
	       "%s: refused (%s)", what, r == -EBADMSG ? why : "accepted");
}

static void test_accepts_a_good_message(int dir)
{
	struct launch_request req;
	struct launch_msg m;
	int leaked;

	good_msg(&m);
	TAP_EQ(0, exchange(&m, sizeof(m), &dir, 1, &req, &leaked),
	       "a well-formed message is accepted (%s)", why);
	TAP_OK(!leaked, "and its fds are closed by launch_request_close");
	m.task_flags = CORRAL_TASK_EXEC_ANON | CORRAL_TASK_UNIX_ANY |
		       CORRAL_TASK_USERNS | CORRAL_TASK_SYSV_IPC;
	TAP_EQ(0, exchange(&m, sizeof(m), &dir, 1, &req, &leaked),
	       "every [sandbox] switch's task flag is accepted, sysv-ipc's "
	       "too (%s)", why);
}

static void test_sizes(int dir)
{
	static char big[sizeof(struct launch_msg) + 64];
	struct launch_request req;
	struct launch_msg m;
	int leaked;

	good_msg(&m);
	refused(&m, sizeof(m) / 2, &dir, 1, "truncated", "half a message");
	refused(&m, 1, &dir, 1, "truncated", "one byte");
	memcpy(big, &m, sizeof(m));
	refused((struct launch_msg *)big, sizeof(big), &dir, 1, "oversize",
		"a message 64 bytes too long");
	TAP_EQ(-ENODATA, exchange(&m, 0, NULL, 0, &req, &leaked),
	       "an empty message is 'no message', not a command");
}

/* One network rule as netrule.c makes it: connect-tcp 127.0.0.0/8:5432. */
static void add_net_rule(struct launch_msg *m)
{
	m->net_mode = POLICY_NET_RULES;
	m->n_net = 1;
	m->net[0].op = CORRAL_NET_CONNECT_TCP;
	m->net[0].family = 4;
	m->net[0].prefix_len = 8;
	m->net[0].addr[0] = 127;
	m->net[0].port_lo = m->net[0].port_hi = 5432;
}

/*
 * Messages a correct parser never sends: NAME, a word the refusal must
 * hold, what the case is, and how it changes good_msg()'s message.
 */
#define BAD_MESSAGES(X)							\
	X(magic, "magic", "a wrong magic", m->magic ^= 1)			\
	X(version, "version", "an unknown version",			\
	  m->version = LAUNCH_MSG_VERSION + 1)				\
	X(version_1, "version",						\
	  "version 1 (rule fds with the message, at most 250)",		\
	  m->version = 1)							\
	X(size, "size", "a size field that lies", m->size += 8)		\
	X(kind, "kind", "an unknown kind", m->kind = LAUNCH_KIND_MAX + 1)	\
	X(kind_0, "kind", "kind 0", m->kind = 0)				\
	X(flag, "flags", "an unknown flag", m->flags = LAUNCH_FLAGS_ALL + 1) \
	X(engine, "engine", "an unknown engine",				\
	  m->engine = LAUNCH_ENGINE_MAX + 1)				\
	X(audit, "sandbox flags", "a task flag the parser may not set (audit)", \
	  m->task_flags = CORRAL_TASK_AUDIT)				\
	X(right, "rights", "an unknown right",				\
	  m->access[0] = CORRAL_ACCESS_ALL + 1)				\
	X(no_right, "rights", "a rule with no right", m->access[0] = 0)	\
	X(deny, "rights", "an unknown right denied",			\
	  m->deny[0] = CORRAL_ACCESS_ALL + 1)				\
	X(rules, "rules", "too many rules",				\
	  m->n_rules = LAUNCH_MAX_RULES + 1)				\
	X(index, "index", "a command index past argv", m->cmd_index = ARGC) \
	X(index_0, "index", "command index 0 without a program path",	\
	  m->cmd_index = 0)						\
	X(relative, "relative", "a relative program path",		\
	  m->cmd_index = 0; strcpy(m->exec_path, "bin/true"))		\
	X(found_no_path, "found program",				\
	  "a program found in PATH with no path",			\
	  m->flags = LAUNCH_PATH_FOUND)					\
	X(found_argv0, "found program",					\
	  "a program found in PATH in argv[0] mode",			\
	  m->flags = LAUNCH_PATH_FOUND; m->cmd_index = 0;		\
	  strcpy(m->exec_path, "/usr/bin/true"))			\
	X(exec_path, "unterminated", "an unterminated program path",	\
	  memset(m->exec_path, 'a', sizeof(m->exec_path)))		\
	X(learn_base, "unterminated", "an unterminated learn header",	\
	  memset(m->learn_base, 'a', sizeof(m->learn_base)))		\
	X(teardown, "admin", "teardown with a rule",			\
	  m->kind = LAUNCH_TEARDOWN)					\
	X(log_fd, "without --log", "a log file without --log",		\
	  m->flags = LAUNCH_LOG_FD)					\
	X(unset, "variable", "unset 'A=B'",				\
	  m->n_unset = 1; strcpy(m->unset[0], "A=B"))			\
	X(unset_long, "variable", "an unterminated unset",		\
	  m->n_unset = 1; memset(m->unset[0], 'A', sizeof(m->unset[0]))) \
	X(unsets, "unset", "too many unsets",				\
	  m->n_unset = LAUNCH_MAX_UNSET + 1)				\
	X(net_mode, "network", "an unknown net mode",			\
	  add_net_rule(m); m->net_mode = POLICY_NET_RULES + 1)		\
	X(net_rules, "network", "too many network rules",		\
	  add_net_rule(m); m->n_net = POLICY_MAX_NET_RULES + 1)		\
	X(net_two_ops, "network", "a rule with two ops",			\
	  add_net_rule(m);						\
	  m->net[0].op = CORRAL_NET_CONNECT_TCP | CORRAL_NET_BIND_UDP)	\
	X(net_op, "network", "an unknown op",				\
	  add_net_rule(m); m->net[0].op = 0x10)				\
	X(net_family, "network", "address family 5",			\
	  add_net_rule(m); m->net[0].family = 5)			\
	X(net_prefix, "network", "an IPv4 prefix of 33 bits",		\
	  add_net_rule(m); m->net[0].prefix_len = 33)			\
	X(net_ports, "network", "a port range 6000-5432",		\
	  add_net_rule(m); m->net[0].port_lo = 6000)

#define MUTATOR(name, word, what, ...)					\
	static void bad_##name(struct launch_msg *m) { __VA_ARGS__; }
BAD_MESSAGES(MUTATOR)
#undef MUTATOR

static const struct {
	void (*mutate)(struct launch_msg *m);
	const char *word, *what;
} bad_messages[] = {
#define ROW(name, word, what, ...) { bad_##name, word, what },
	BAD_MESSAGES(ROW)
#undef ROW
};

static void test_bad_messages(int dir)
{
	struct launch_request req;
	struct launch_msg m;
	int leaked;

	good_msg(&m);
	add_net_rule(&m);
	TAP_EQ(0, exchange(&m, sizeof(m), &dir, 1, &req, &leaked),
	       "a network rule as the parser makes it is accepted (%s)", why);
	for (size_t i = 0; i < sizeof(bad_messages) / sizeof(*bad_messages);
	     i++) {
		good_msg(&m);
		bad_messages[i].mutate(&m);
		refused(&m, sizeof(m), &dir, 1, bad_messages[i].word,
			bad_messages[i].what);
	}
}

static void test_fd_counts(int dir)
{
	int two[2] = { dir, dir };
	struct launch_msg m;

	good_msg(&m);
	refused(&m, sizeof(m), NULL, 0, "fds", "a rule without its fd");
	refused(&m, sizeof(m), two, 2, "fds", "an fd more than the rules");
	m.kind = LAUNCH_LEARN;
	refused(&m, sizeof(m), &dir, 1, "fds", "learn without its output fd");
	good_msg(&m);
	m.flags = LAUNCH_LOG | LAUNCH_LOG_FD;
	refused(&m, sizeof(m), &dir, 1, "fds", "--log=FILE without its fd");
}

/* The rules' names for --log as the parser writes them (log_rules.c),
 * with @seals. */
static int rules_names_fd(unsigned seals)
{
	int fd = memfd_create("corral-rules", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd < 0 || write(fd, "--ro /x on the command line", 28) != 28 ||
	    (seals && fcntl(fd, F_ADD_SEALS, seals) < 0)) {
		perror("memfd for the rules' names");
		exit(2);
	}
	return fd;
}

/* --log: the rules' names come after the log file, as a sealed memfd. */
static void test_rules_names(int dir, int file, int pipe_fd)
{
	int sealed = rules_names_fd(F_SEAL_WRITE | F_SEAL_GROW |
				    F_SEAL_SHRINK);
	int unsealed = rules_names_fd(0);
	int growable = rules_names_fd(F_SEAL_WRITE | F_SEAL_SHRINK);
	const struct {
		int names;
		const char *word, *what;
	} cases[] = {
		{ unsealed, "sealed", "unsealed rules' names" },
		{ growable, "sealed", "rules' names that may still grow" },
		{ file, "sealed", "a plain file as the rules' names" },
		{ pipe_fd, "sealed", "a pipe as the rules' names" },
	};
	struct launch_request req;
	struct launch_msg m;
	int fds[2] = { dir, sealed }, leaked;

	good_msg(&m);
	m.flags = LAUNCH_LOG;
	TAP_EQ(0, exchange(&m, sizeof(m), fds, 2, &req, &leaked),
	       "--log with the rules' names is accepted (%s)", why);
	refused(&m, sizeof(m), &dir, 1, "fds",
		"--log without the rules' names");
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		fds[1] = cases[i].names;
		refused(&m, sizeof(m), fds, 2, cases[i].word, cases[i].what);
	}
	close(sealed);
	close(unsealed);
	close(growable);
}

static void test_fd_kinds(int dir)
{
	int file = open_or_die("/etc/passwd", O_RDONLY);
	int file_path = open_or_die("/etc/passwd", O_PATH);
	int ev = eventfd(0, EFD_CLOEXEC);
	int pipes[2], sv[2], link_fd, rule_and_log[3], ev_path, pipe_path;
	int names = rules_names_fd(F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK);
	struct launch_msg m;

	if (ev < 0 || pipe2(pipes, O_CLOEXEC) < 0 ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		perror("fds");
		exit(2);
	}
	(void)unlink("/tmp/corral-test-link");
	if (symlink("/etc/passwd", "/tmp/corral-test-link") < 0) {
		perror("symlink");
		exit(2);
	}
	link_fd = open_or_die("/tmp/corral-test-link", O_PATH | O_NOFOLLOW);
	good_msg(&m);
	refused(&m, sizeof(m), &file, 1, "O_PATH", "a rule fd opened for reading");
	refused(&m, sizeof(m), &ev, 1, "O_PATH", "an eventfd as a rule");
	refused(&m, sizeof(m), &sv[0], 1, "O_PATH", "a socket as a rule");
	refused(&m, sizeof(m), &pipes[0], 1, "O_PATH", "a pipe as a rule");
	refused(&m, sizeof(m), &link_fd, 1, "not a file",
		"an O_PATH symlink as a rule");
	ev_path = open_or_die(proc_fd(ev), O_PATH);
	refused(&m, sizeof(m), &ev_path, 1, "not a file",
		"an O_PATH fd of an eventfd (anon inode) as a rule");
	pipe_path = open_or_die(proc_fd(pipes[0]), O_PATH);
	refused(&m, sizeof(m), &pipe_path, 1, "not a file",
		"an O_PATH fd of a pipe as a rule");
	m.access[0] = CORRAL_ACCESS_READDIR | CORRAL_ACCESS_CREATE;
	refused(&m, sizeof(m), &file_path, 1, "directory rights",
		"directory rights on a file");
	good_msg(&m);
	m.flags = LAUNCH_LOG | LAUNCH_LOG_FD;
	rule_and_log[0] = dir;
	rule_and_log[2] = names;
	rule_and_log[1] = file;
	refused(&m, sizeof(m), rule_and_log, 3, "writing",
		"a log fd open read-only");
	rule_and_log[1] = file_path;
	refused(&m, sizeof(m), rule_and_log, 3, "writing", "an O_PATH log fd");
	rule_and_log[1] = sv[0];
	refused(&m, sizeof(m), rule_and_log, 3, "not a file",
		"a socket as the log");
	rule_and_log[1] = ev;
	refused(&m, sizeof(m), rule_and_log, 3, "not a file",
		"an eventfd as the log");
	test_rules_names(dir, file, pipes[0]);
	close(names);
	close(file);
	close(file_path);
	close(ev);
	close(link_fd);
	close(ev_path);
	close(pipe_path);
	close(pipes[0]);
	close(pipes[1]);
	close(sv[0]);
	close(sv[1]);
	unlink("/tmp/corral-test-link");
}

/* @n rules on @dir: the message a correct parser sends for them. */
static void many_msg(struct launch_msg *m, uint32_t n)
{
	good_msg(m);
	m->n_rules = n;
	for (uint32_t i = 0; i < n; i++)
		m->access[i] = CORRAL_ACCESS_READ | CORRAL_ACCESS_READDIR;
}

/*
 * 1,000 rules: four fds messages of at most LAUNCH_FDS_PER_MSG (one
 * SCM_RIGHTS message carries at most 253), then the message.  Then the
 * same sequence with one thing wrong, each refused with every fd closed.
 */
static void test_many_rules(int dir)
{
	enum { N = 1000 };
	static int dirs[N + 1];
	static struct launch_msg m;
	struct launch_fds_msg f[5], bad;
	struct launch_request req;
	struct part p[6];
	int leaked;

	for (size_t i = 0; i <= N; i++)
		dirs[i] = dir;
	for (uint32_t i = 0; i < 4; i++) {
		f[i] = fds_msg(i * 250, 250);
		p[i] = (struct part){ &f[i], sizeof(f[i]), dirs, 250 };
	}
	many_msg(&m, N);
	p[4] = (struct part){ &m, sizeof(m), NULL, 0 };
	TAP_EQ(0, exchange_parts(p, 5, &req, &leaked),
	       "1,000 rules in four fds messages are accepted (%s)", why);
	TAP_OK(!leaked, "and their 1,000 fds are closed by "
	       "launch_request_close");

	many_msg(&m, N - 1);
	refused_parts(p, 5, "rule fds received",
		      "a message saying 999 rules after 1,000 rule fds");
	many_msg(&m, N);
	refused_parts(p + 1, 4, "from rule 250",
		      "the first fds message left out");
	p[4] = (struct part){ &m, sizeof(m), dirs, 1 };
	refused_parts(p, 5, "fds attached", "a rule fd with the message");
	p[4] = (struct part){ &m, sizeof(m), NULL, 0 };
	bad = fds_msg(250, 250);
	p[2] = (struct part){ &bad, sizeof(bad), dirs, 250 };
	refused_parts(p, 5, "from rule 250",
		      "an fds message repeating rules 250-499");
	bad = fds_msg(500, 250);
	p[2] = (struct part){ &bad, sizeof(bad), dirs, 249 };
	refused_parts(p, 5, "249 attached", "an fds message one fd short");
	p[2] = (struct part){ &bad, sizeof(bad), dirs, 251 };
	refused_parts(p, 5, "251 attached", "an fds message one fd over");
	bad = fds_msg(500, 251);
	refused_parts(p, 5, "attached",
		      "251 fds in one fds message, saying so");
	bad = fds_msg(500, 0);
	p[2] = (struct part){ &bad, sizeof(bad), NULL, 0 };
	refused_parts(p, 5, "attached", "an fds message with no fd");
	bad = fds_msg(500, 250);
	bad.magic ^= 1;
	p[2] = (struct part){ &bad, sizeof(bad), dirs, 250 };
	refused_parts(p, 5, "magic", "an fds message with a wrong magic");
	bad = fds_msg(500, 250);
	bad.reserved = 1;
	refused_parts(p, 5, "magic", "an fds message with reserved bits");
	bad = fds_msg(500, 250);
	p[2] = (struct part){ &bad, sizeof(bad) - 1, dirs, 250 };
	refused_parts(p, 5, "truncated", "an fds message a byte short");
	p[2] = (struct part){ &f[2], sizeof(f[2]), dirs, 250 };
	TAP_EQ(-ENODATA, exchange_parts(p, 4, &req, &leaked),
	       "rule fds and then end of file: no message, not a command");
	TAP_OK(!leaked, "and the rule fds received are closed");
}

/* Past LAUNCH_MAX_RULES, in fds messages that are each well-formed. */
static void test_too_many_rule_fds(int dir)
{
	enum { N = LAUNCH_MAX_RULES / LAUNCH_FDS_PER_MSG + 1 };
	static int dirs[LAUNCH_FDS_PER_MSG];
	static struct launch_fds_msg f[N];
	static struct part p[N];

	for (size_t i = 0; i < LAUNCH_FDS_PER_MSG; i++)
		dirs[i] = dir;
	for (uint32_t i = 0; i < N; i++) {
		f[i] = fds_msg(i * LAUNCH_FDS_PER_MSG, LAUNCH_FDS_PER_MSG);
		p[i] = (struct part){ &f[i], sizeof(f[i]), dirs,
				      LAUNCH_FDS_PER_MSG };
	}
	refused_parts(p, N, "more than",
		      "more rule fds than LAUNCH_MAX_RULES, 250 at a time");
}

/*
 * A file in a root-only directory, handed to a launcher run by another
 * user: the user could not have opened it, so it came from elsewhere.
 * Needs root to set up; the receiver then becomes nobody.
 */
static void test_other_users_file(void)
{
	const char *dir = "/tmp/corral-test-private";
	struct launch_msg m;
	int secret, usr, status;
	pid_t child;

	if (geteuid() != 0) {
		printf("ok %d - # SKIP another user's file needs root\n",
		       ++tap_n);
		printf("ok %d - # SKIP (the control case too)\n", ++tap_n);
		return;
	}
	(void)system("rm -rf /tmp/corral-test-private");
	if (mkdir(dir, 0700) < 0) {
		perror(dir);
		exit(2);
	}
	secret = open_or_die(dir, O_PATH | O_DIRECTORY);
	usr = open_or_die("/usr", O_PATH | O_DIRECTORY);
	fflush(stdout);
	child = fork();
	if (child == 0) {
		if (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
		    setresuid(65534, 65534, 65534) < 0)
			_exit(3);
		good_msg(&m);
		refused(&m, sizeof(m), &secret, 1, "cannot access",
			"a root-only directory sent to a launcher run by nobody");
		good_msg(&m);
		m.access[0] = CORRAL_ACCESS_READ | CORRAL_ACCESS_READDIR |
			      CORRAL_ACCESS_EXEC;
		{
			struct launch_request req;
			int leaked;

			TAP_EQ(0, exchange(&m, sizeof(m), &usr, 1, &req,
					   &leaked),
			       "control: /usr sent to the same launcher is "
			       "accepted (%s)", why);
		}
		fflush(stdout);
		_exit(tap_failed ? 1 : 0);
	}
	if (child < 0 || waitpid(child, &status, 0) < 0) {
		perror("fork");
		exit(2);
	}
	tap_n += 2;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		tap_failed++;
	close(secret);
	close(usr);
	rmdir(dir);
}

/*
 * The private TMPDIR's fd (private_tmp.h): accepted only as a directory
 * of the real user's, mode 0700, open for reading, at the path the
 * message names.
 */
static void test_tmpdir(int dir)
{
	char good[] = "/tmp/corral-test-tmpdir.XXXXXX", other[PATH_MAX];
	struct launch_request req;
	struct launch_msg m;
	int fds[2] = { dir, -1 }, leaked;

	if (!mkdtemp(good)) {
		perror(good);
		exit(2);
	}
	snprintf(other, sizeof(other), "%s/sub", good);
	if (mkdir(other, 0700) < 0) {
		perror(other);
		exit(2);
	}
	fds[1] = open_or_die(good, O_RDONLY | O_DIRECTORY);
	good_msg(&m);
	m.flags = LAUNCH_TMPDIR;
	snprintf(m.tmpdir, sizeof(m.tmpdir), "%s", good);
	TAP_EQ(0, exchange(&m, sizeof(m), fds, 2, &req, &leaked),
	       "a 0700 TMPDIR of the user's with its fd is accepted (%s)", why);
	refused(&m, sizeof(m), fds, 1, "fds", "TMPDIR without its fd");
	snprintf(m.tmpdir, sizeof(m.tmpdir), "%s", other);
	refused(&m, sizeof(m), fds, 2, "another file",
		"TMPDIR naming another directory than its fd's");
	m.tmpdir[0] = '\0';
	refused(&m, sizeof(m), fds, 2, "TMPDIR", "a TMPDIR fd without a path");
	snprintf(m.tmpdir, sizeof(m.tmpdir), "%s", good);
	chmod(good, 0755);
	refused(&m, sizeof(m), fds, 2, "0700", "a TMPDIR of mode 0755");
	chmod(good, 0700);
	close(fds[1]);
	fds[1] = open_or_die(good, O_PATH | O_DIRECTORY);
	refused(&m, sizeof(m), fds, 2, "reading", "an O_PATH TMPDIR fd");
	close(fds[1]);
	rmdir(other);
	rmdir(good);
}

int main(void)
{
	int dir = open_or_die("/tmp", O_PATH | O_DIRECTORY);
	struct rlimit rl;

	/* The receiver holds up to LAUNCH_MAX_RULES fds, as the launcher
	 * does after fd_limit_raise(). */
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 ||
	    (rl.rlim_cur = rl.rlim_max, setrlimit(RLIMIT_NOFILE, &rl) < 0)) {
		perror("raising RLIMIT_NOFILE");
		exit(2);
	}

	test_accepts_a_good_message(dir);
	test_sizes(dir);
	test_bad_messages(dir);
	test_fd_counts(dir);
	test_fd_kinds(dir);
	test_many_rules(dir);
	test_tmpdir(dir);
	if (rl.rlim_max > LAUNCH_MAX_RULES + 300)
		test_too_many_rule_fds(dir);
	else
		printf("ok %d - # SKIP more than %d rule fds: the hard "
		       "open-files limit is %llu\n", ++tap_n,
		       LAUNCH_MAX_RULES, (unsigned long long)rl.rlim_max);
	test_other_users_file();
	close(dir);
	return tap_done();
}
