// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * launch.c - the privileged flow of `corral [rules] -- CMD`, top to bottom:
 *
 *   0. (parser_child.c, in an unprivileged child) parse everything and open
 *      every rule path O_PATH as the user; main.c checked the message
 *   1. choose the engine; for bpf, capabilities become: effective none,
 *      permitted CAP_BPF only (privs.c)
 *   2. bpf: raise CAP_BPF; open the pinned maps; create our own domain;
 *      register each rule from its fd; enter the domain
 *   3. drop every capability for good, NO_NEW_PRIVS, read back
 *   4. landlock: build the ruleset from the same fds and restrict self
 *   5. exec the command: no corral process stays behind
 */
#include "config.h"

#include "launch.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "deny_pins.h"
#include "engine_bpf.h"
#include "engine_landlock.h"
#include "landlock_deny.h"
#include "events.h"
#include "log_print.h"
#include "launch_msg.h"
#include "learn.h"
#include "log_rules.h"
#include "parser_child.h"
#include "privs.h"
#include "seccomp_load.h"
#include "util.h"

/*
 * Is the bpf engine usable by this process?  Returns 1, or 0 with the
 * reason in @why.  On 1, capabilities are already reduced to CAP_BPF.
 */
static int bpf_engine_usable(struct bpf_why *why)
{
	if (!bpf_engine_available(why))
		return 0;
	if (privs_init_launcher() < 0) {
		why->brief = "no CAP_BPF";
		snprintf(why->full, sizeof(why->full), "%s",
			 privs_missing_reason());
		return 0;
	}
	return 1;
}

/*
 * What the fallback's launch line says Landlock @abi leaves open: the
 * network's gaps (landlock_net_brief), named unix sockets below ABI 9
 * (tmux, ssh-agent, D-Bus: no argument check can see a socket's path)
 * and signals and abstract sockets below ABI 6 (kill(2) may name any of
 * the user's processes), then SysV IPC under sysv-ipc = yes and other
 * processes' /proc/PID files under a write rule that reaches /proc
 * (@proc_writes); NULL when nothing is.
 */
static const char *landlock_brief(const struct policy *net, int abi,
				  bool sysv_ipc, bool proc_writes)
{
	const char *parts[] = {
		landlock_net_brief(net, abi),
		abi < CORRAL_LL_ABI_SCOPE ? "signals and unix sockets unscoped" :
		abi < CORRAL_LL_ABI_UNIX ? "unix sockets unscoped" : NULL,
		sysv_ipc ? "SysV IPC unscoped" : NULL,
		proc_writes ? "/proc/PID writes unscoped" : NULL,
	};
	static char buf[160];
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(parts) / sizeof(*parts); i++)
		if (parts[i])
			len += (size_t)snprintf(buf + len, sizeof(buf) - len,
						"%s%s", len ? ", " : "",
						parts[i]);
	return len ? buf : NULL;
}

/*
 * --engine=auto: bpf when usable, else Landlock.  --engine=bpf never
 * falls back.  The sandbox being weaker than asked is said in one short
 * line, once, unless @quiet (--quiet, CORRAL_QUIET, quiet = yes): why bpf
 * is not used, that the network is only partly confined
 * (--net-best-effort) and that SysV IPC is unscoped (@sysv_ipc), or,
 * when Landlock was asked for, only the latter two; 'corral status' says
 * the rest.  Under Landlock, a deny it cannot make exactly, or a network
 * rule it cannot enforce (unless --net-best-effort: the sandbox is never
 * weaker than asked without being told so), ends the launch here, in the
 * one line that says why.
 */
static enum launch_engine choose_engine(enum launch_engine wanted,
					const struct policy *net,
					uint32_t flags, bool sysv_ipc,
					const struct opened_rule *rules,
					size_t n)
{
	struct bpf_why why = { .brief = "", .full = "" };
	char deny_why[2 * PATH_MAX + 256], gap[256];
	const char *net_brief, *brief;
	bool proc_writes;
	int abi, denies;

	if (wanted != LAUNCH_ENGINE_LANDLOCK && bpf_engine_usable(&why))
		return LAUNCH_ENGINE_BPF;
	if (wanted == LAUNCH_ENGINE_BPF)
		die("--engine=bpf (or require = bpf in a profile): %s",
		    why.full);
	abi = landlock_abi();
	if (!abi && wanted == LAUNCH_ENGINE_LANDLOCK)
		return wanted;  /* engine_landlock_apply says it is missing */
	if (!abi)
		die("no engine available: %s; and Landlock is not enabled "
		    "either (see corral-setup(8))", why.full);
	/* a deny some allow reaches; landlock_deny.c says what that loses */
	denies = landlock_deny_check(rules, n, deny_why, sizeof(deny_why));
	if (denies < 0)
		die("%s", deny_why);
	if (!(flags & LAUNCH_NET_BEST_EFFORT) &&
	    landlock_net_gap(net, abi, gap, sizeof(gap)))
		die("Landlock ABI %d cannot enforce %s; set up the bpf engine "
		    "(corral setup, as root) or add --net-best-effort to run "
		    "with it unenforced", abi, gap);
	if (flags & LAUNCH_QUIET)
		return LAUNCH_ENGINE_LANDLOCK;  /* what follows is the line */
	net_brief = landlock_net_brief(net, abi);
	proc_writes = landlock_writes_proc(rules, n);
	brief = landlock_brief(net, abi, sysv_ipc, proc_writes);
	if (wanted != LAUNCH_ENGINE_LANDLOCK)
		warn_msg("using Landlock ABI %d, not bpf (%s)%s%s; see 'corral "
			 "status'", abi, why.brief, brief ? ", " : "",
			 brief ? brief : "");
	else if (net_brief)
		warn_msg("Landlock ABI %d confines the network partly: %s%s%s; "
			 "see 'corral status'", abi, net_brief,
			 sysv_ipc ? "; SysV IPC unscoped" : "",
			 proc_writes ? "; /proc/PID writes unscoped" : "");
	else if (sysv_ipc || proc_writes)
		warn_msg("Landlock ABI %d: %s%s%s; see 'corral status'", abi,
			 sysv_ipc ? "SysV IPC unscoped" : "",
			 sysv_ipc && proc_writes ? ", " : "",
			 proc_writes ? "/proc/PID writes unscoped" : "");
	if (denies)
		warn_msg("Landlock cannot take rights away: each deny is made by "
			 "allowing what is around it; see corral(1)");
	return LAUNCH_ENGINE_LANDLOCK;
}

/* --log and learn: a watcher stays behind to read the domain's events. */
struct watch {
	bool on;
	struct log_printer printer;
	struct learn learn;
	struct event_reader *reader;
};

static bool learning(const struct launch_request *req)
{
	return req->msg.kind == LAUNCH_LEARN;
}

static void watch_init(struct watch *w, struct launch_request *req)
{
	memset(w, 0, sizeof(*w));
	w->on = (req->msg.flags & LAUNCH_LOG) || learning(req);
	w->printer.out = stderr;
	w->printer.per_second = 20;
	w->printer.all = req->msg.flags & LAUNCH_LOG_ALL;
	if (req->log_fd >= 0) {
		w->printer.out = fdopen(steal_fd(&req->log_fd), "w");
		if (!w->printer.out)
			die_errno("opening the --log file");
	}
	w->learn.home = getenv("HOME");
	w->learn.cwd = getcwd(NULL, 0);
}

/*
 * Without --log, a bpf launch still has a watcher, which counts the
 * denials and says them in one line at the end (log_print.h's summary):
 * a user learns that the sandbox refused something when git says "not a
 * git repository".  --quiet keeps the launch as it was: the command
 * replaces the launcher, and nothing is said.
 */
static void watch_tell_once(struct watch *w, const struct launch_request *req)
{
	if (w->on || (req->msg.flags & LAUNCH_QUIET))
		return;
	w->on = true;
	w->printer.summary = true;
	w->printer.home = getenv("HOME");
}

/* --log names the rule each denial is about (log_rules.h); the watcher
 * has dropped every privilege by now. */
static void watch_name_rules(struct watch *w,
			     const struct launch_request *req)
{
	/* a name rule's deny is on a name, not on its directory's inode,
	 * which is all the judge could take it for */
	static uint32_t deny[LAUNCH_MAX_RULES];

	if (learning(req) || w->printer.summary)
		return;
	memcpy(deny, req->msg.deny, sizeof(deny));
	for (uint32_t i = 0; i < req->msg.n_names && i < LAUNCH_MAX_NAMES; i++)
		deny[req->msg.names[i].rule] = 0;
	w->printer.why = log_rules_why;
	w->printer.why_ctx = log_rules_load(req->rules_text_fd, req->rule_fds,
					    req->msg.access, deny,
					    req->msg.n_rules);
}

static int watch_open(struct watch *w, const struct launch_request *req,
		      uint64_t domain)
{
	w->printer.lost_at_start = events_lost();
	if (learning(req))
		w->reader = events_open(domain, learn_record, &w->learn);
	else
		w->reader = events_open(domain, log_print_event, &w->printer);
	return w->reader ? 0 : -EIO;
}

/*
 * The learned profile @name, checked by `corral check` itself: a parser
 * child of its own (every privilege is gone here already), under the
 * same filter and with the user's variables and profile path from
 * @envp, so that what it refuses a launch would refuse.  Its "ok" line
 * goes nowhere; its errors go to stderr.  A profile written to
 * something other than a file (a pipe, a terminal) cannot be read back
 * and is not checked.  Returns the check's exit status.
 */
static int check_learned(int fd, const char *name, char **envp)
{
	char *argv[] = { "corral", "check", (char *)name, NULL };
	struct stat st;
	int null, sock, status;
	pid_t pid;

	if (fstat(fd, &st) < 0)
		die_errno("%s: fstat of the learned profile", name);
	if (!S_ISREG(st.st_mode))
		return 0;
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
		die_errno("/dev/null: for checking the learned profile");
	close(null);
	sock = parser_start(3, argv, envp, NULL, &pid);
	status = parser_wait(pid);
	close(sock);
	return status;
}

static _Noreturn void watch_finish(struct watch *w,
				   struct launch_request *req, char **command,
				   char **envp, int status)
{
	const char *base = req->msg.learn_base;
	char buf[PATH_MAX];
	const char *name;
	FILE *out;
	size_t n;
	int fd;

	events_close(w->reader);
	if (!learning(req)) {
		log_finish(&w->printer);
		exit(status);
	}
	name = fd_name(req->learn_fd, buf, sizeof(buf));
	if (ftruncate(req->learn_fd, 0) < 0)
		die_errno("%s: emptying the learn output", name);
	fd = fcntl(req->learn_fd, F_DUPFD_CLOEXEC, 0);
	out = fdopen(steal_fd(&req->learn_fd), "w");
	if (fd < 0 || !out)
		die_errno("%s: writing the learned profile", name);
	n = learn_write(&w->learn, out, stderr, command,
			base[0] ? base : NULL);
	if (fclose(out))
		die_errno("%s: writing the learned profile", name);
	if (check_learned(fd, name, envp))
		die("%s: the learned profile does not load (above); edit it, "
		    "then 'corral check %s'", name, name);
	close(fd);
	fprintf(stderr, "corral: wrote %s: %zu rule%s from %zu refused "
		"path%s (the command exited with %d)\n", name,
		n, n == 1 ? "" : "s", w->learn.n, w->learn.n == 1 ? "" : "s",
		status);
	exit(status);
}

/*
 * Watched runs fork: the child is put in the domain while it waits on a
 * pipe, then execs; the parent, outside the sandbox and without
 * capabilities, reads the events and exits with the child's status.
 * Killing the parent changes nothing for the child's confinement; if the
 * parent dies before entering it, the child reads end of file and exits.
 */
static pid_t fork_watched(struct bpf_engine *engine)
{
	int go[2];
	pid_t child;
	char c;

	if (pipe2(go, O_CLOEXEC) < 0)
		die_errno("pipe for the watched command");
	child = fork();
	if (child < 0)
		die_errno("fork for the watched command");
	if (child == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(CORRAL_EXIT_FAILURE);
		close(go[0]);
		return 0;
	}
	close(go[0]);
	if (engine_bpf_enter(engine, child) < 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		return -1;
	}
	if (write(go[1], "g", 1) != 1)
		die_errno("starting the watched command");
	close(go[1]);
	return child;
}

static pid_t apply_bpf(const struct opened_rule *rules, size_t n,
		       const struct policy *net, struct watch *watch,
		       const struct launch_request *req)
{
	struct bpf_engine engine;
	pid_t child = 0;
	int r = 0;

	privs_raise_bpf();
	if (engine_bpf_open(&engine) < 0 ||
	    engine_bpf_create_domain(&engine) < 0)
		goto fail;
	engine.audit = learning(req);
	engine.watched = watch->on;
	engine.task_flags = req->msg.task_flags;
	for (size_t i = 0; i < n && r >= 0; i++)
		r = engine_bpf_add_rule(&engine, rules[i].fd,
					rules[i].access, rules[i].deny,
					rules[i].name);
	if (r >= 0)
		r = deny_pins(rules, n, engine_bpf_pin, &engine);
	if (r < 0)
		goto fail;
	if (engine_bpf_set_network(&engine, net) < 0)
		goto fail;
	if (watch->on) {
		if (watch_open(watch, req, engine.domain) < 0)
			goto fail;
		child = fork_watched(&engine);
		if (child < 0)
			goto fail;
	} else if (engine_bpf_enter(&engine, engine.pid) < 0) {
		goto fail;
	}
	engine_bpf_close(&engine);
	return child;
fail:
	engine_bpf_abort(&engine);
	engine_bpf_close(&engine);
	if (r == -EDQUOT)       /* the one line said it all: not run */
		exit(CORRAL_EXIT_FAILURE);
	die("could not set up the sandbox; the command was not run");
}

/* The errors on which execvp(3) tries the next PATH entry; EACCES is
 * kept to report when no entry runs. */
static bool execvp_goes_on(int err)
{
	return err == EACCES || err == ENOENT || err == ENOTDIR ||
	       err == ESTALE || err == ENODEV || err == ETIMEDOUT;
}

/* @file: the file found in argv[0] mode, where no option can be given. */
static _Noreturn void exec_failed(const char *name, const char *file,
				  int err)
{
	if (err == ENOENT)
		die_with_status(CORRAL_EXIT_NOT_FOUND, "%s: command not found",
				name);
	if (err != EACCES)
		die_with_status(CORRAL_EXIT_CANNOT_EXEC, "%s: cannot execute%s"
				"%s: %s", name, file ? " " : "",
				file ? file : "", strerror(err));
	if (file)
		die_with_status(CORRAL_EXIT_CANNOT_EXEC, "%s: cannot execute "
				"%s: %s (give its directory rx in %s.profile, "
				"or take it out of PATH)", name, file,
				strerror(err), strrchr(file, '/') + 1);
	die_with_status(CORRAL_EXIT_CANNOT_EXEC, "%s: cannot execute: %s (the "
			"sandbox needs exec on it, e.g. --rx on its directory)",
			name, strerror(err));
}

/*
 * @found: the file the parser found in PATH for argv[0], or NULL.  If
 * that execve fails, execvpe searches as if there were none, so the
 * command and the errors are execvp's.
 */
static _Noreturn void exec_command(const char *found, char **argv,
				   char **envp)
{
	if (found)
		execve(found, argv, envp);
	execvpe(argv[0], argv, envp);
	exec_failed(argv[0], NULL, errno);
}

/*
 * A PATH entry execvp would pass over because the sandbox refused it
 * (EACCES where the file's mode lets the user run it: a pyenv shim
 * outside the profile), added to @list, ", "-separated.
 */
static void note_refused(char *list, size_t size, const char *file, int err)
{
	size_t used = strlen(list);

	if (err != EACCES || access(file, X_OK) < 0 || used + 3 >= size)
		return;
	snprintf(list + used, size - used, "%s%s", used ? ", " : "", file);
}

/* Names the entries of @list in one line before the next one is tried. */
static void say_refused(const char *name, char *list)
{
	if (!list[0])
		return;
	warn_msg("%s: skipped %s in PATH: the sandbox cannot execute it (give "
		 "its directory rx in %s.profile, or take it out of PATH)",
		 name, list, name);
	list[0] = '\0';
}

/*
 * argv[0] mode: @first is the program the parser found for the name we
 * were run as; argv[0] stays that name, so that the program's messages
 * say "tar:" as typed.  When @first cannot run (a shim the profile does
 * not let run, a script whose interpreter is missing), the search goes
 * on through PATH as execvp(3)'s would, past every entry that is corral
 * itself.  A file name holding a '/' makes execvpe run a script without
 * "#!" with /bin/sh, as execvp does.
 */
static _Noreturn void exec_named(const char *first, char **argv, char **envp)
{
	const char *name = strrchr(first, '/') + 1;
	const char *cursor = getenv("PATH");
	const char *refused = NULL;
	char file[PATH_MAX], skipped[PATH_MAX] = "";
	struct stat self;

	if (stat("/proc/self/exe", &self) < 0)
		die_errno("/proc/self/exe: cannot tell which file corral is "
			  "(is /proc mounted?)");
	if (!cursor)
		cursor = CLI_DEFAULT_PATH;
	execvpe(first, argv, envp);
	if (!execvp_goes_on(errno))
		exec_failed(argv[0], first, errno);
	if (errno == EACCES)
		refused = first;
	note_refused(skipped, sizeof(skipped), first, errno);
	while (!cli_path_next(name, &cursor, &self, PATH_SKIP_UNCERTAIN, file,
			      sizeof(file))) {
		if (!strcmp(file, first))
			continue;
		say_refused(argv[0], skipped);
		execvpe(file, argv, envp);
		if (!execvp_goes_on(errno))
			exec_failed(argv[0], file, errno);
		if (errno == EACCES && !refused)
			refused = xstrdup(file);
		note_refused(skipped, sizeof(skipped), file, errno);
	}
	exec_failed(argv[0], refused ? refused : first,
		    refused ? EACCES : ENOENT);
}

/*
 * The user's environment less the profiles' [environment] unset, with
 * TMPDIR set to the launch's private directory when there is one (an
 * unset of TMPDIR in a profile still wins).
 */
static bool unset_by_profile(const struct launch_request *req,
			     const char *var)
{
	for (uint32_t u = 0; u < req->msg.n_unset; u++)
		if (policy_var_matches(req->msg.unset[u], var))
			return true;
	return false;
}

static char **command_env(const struct launch_request *req, char **envp)
{
	bool private_tmp = req->msg.flags & LAUNCH_TMPDIR;
	size_t n = 0, kept = 0;
	char **out;

	while (envp[n])
		n++;
	out = xcalloc(n + 2, sizeof(*out));
	for (size_t i = 0; i < n; i++)
		if (!unset_by_profile(req, envp[i]) &&
		    !(private_tmp && !strncmp(envp[i], "TMPDIR=", 7)))
			out[kept++] = envp[i];
	if (private_tmp && !unset_by_profile(req, "TMPDIR=")) {
		out[kept] = xmalloc(strlen(req->msg.tmpdir) + sizeof("TMPDIR="));
		sprintf(out[kept], "TMPDIR=%s", req->msg.tmpdir);
	}
	return out;
}

/*
 * The fd that holds the private TMPDIR's lock goes to the command and
 * every process it forks: the directory is reclaimed only once none
 * holds it (private_tmp.h).  Moved to the lowest free number, past
 * stdio, as the rules' fds are gone by now; F_DUPFD clears close-on-exec.
 */
static void keep_tmp_fd(int fd)
{
	int kept;

	if (fd < 0)
		return;
	kept = fcntl(fd, F_DUPFD, 3);
	if (kept < 0)
		die_errno("keeping the private TMPDIR's descriptor for the "
			  "command");
	close(fd);
}

/* The message's network part, as the engines take it. */
static void net_policy_of(const struct launch_request *req, struct policy *net)
{
	memset(net, 0, sizeof(*net));
	net->net_mode = (enum policy_net_mode)req->msg.net_mode;
	net->n_net = req->msg.n_net;
	memcpy(net->net, req->msg.net, net->n_net * sizeof(*net->net));
}

void launch(struct launch_request *req, char **argv, char **envp)
{
	char **command = argv + req->msg.cmd_index;
	char **env = command_env(req, envp);
	struct opened_rule rules[LAUNCH_MAX_RULES];
	size_t n = req->msg.n_rules;
	enum launch_engine engine;
	struct watch watch;
	static struct policy net;
	int tmp_fd = steal_fd(&req->tmp_fd);
	bool sysv_ipc = req->msg.task_flags & CORRAL_TASK_SYSV_IPC;

	net_policy_of(req, &net);
	for (size_t i = 0; i < n; i++) {
		rules[i].fd = req->rule_fds[i];
		rules[i].access = req->msg.access[i];
		rules[i].deny = req->msg.deny[i];
		rules[i].name = launch_rule_name(&req->msg, (uint32_t)i);
	}
	engine = choose_engine(req->msg.engine, &net, req->msg.flags, sysv_ipc,
			       rules, n);
	watch_init(&watch, req);
	if (watch.on && engine != LAUNCH_ENGINE_BPF)
		die("%s needs the bpf engine (Landlock reports no denials to "
		    "corral)", learning(req) ? "learn" : "--log");
	if (engine == LAUNCH_ENGINE_BPF) {
		pid_t child;

		watch_tell_once(&watch, req);
		child = apply_bpf(rules, n, &net, &watch, req);

		privs_drop_all();
		if (child > 0) {
			watch_name_rules(&watch, req);
			watch_finish(&watch, req, command, envp,
				     events_follow(watch.reader, child));
		}
	} else {
		privs_drop_all();
		if (engine_landlock_apply(rules, n, &net) < 0)
			die("could not set up the Landlock sandbox; the command "
			    "was not run");
	}
	launch_request_close(req);
	keep_tmp_fd(tmp_fd);
	fd_limit_restore();
	if (seccomp_install_sandbox() < 0 ||
	    (engine != LAUNCH_ENGINE_BPF &&
	     !(req->msg.task_flags & CORRAL_TASK_USERNS) &&
	     seccomp_install_userns() < 0) ||
	    (engine != LAUNCH_ENGINE_BPF &&
	     !(req->msg.task_flags & CORRAL_TASK_EXEC_ANON) &&
	     seccomp_install_anon_exec() < 0) ||
	    (engine != LAUNCH_ENGINE_BPF &&
	     (seccomp_install_landlock(sysv_ipc) < 0 ||
	      seccomp_install_net(landlock_net_filter(&net,
						      landlock_abi())) < 0)))
		die("could not install the seccomp filter; the command was "
		    "not run");
	if (req->msg.exec_path[0] && !(req->msg.flags & LAUNCH_PATH_FOUND))
		exec_named(req->msg.exec_path, command, env);
	exec_command(req->msg.flags & LAUNCH_PATH_FOUND ?
		     req->msg.exec_path : NULL, command, env);
}
