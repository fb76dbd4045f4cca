// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include "events.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "engine_bpf.h"
#include "util.h"

struct event_reader {
	struct ring_buffer *rb;
	int map_fd;
	uint64_t domain;
	event_fn fn;
	void *data;
};

static int on_sample(void *ctx, void *data, size_t size)
{
	struct event_reader *r = ctx;
	const struct corral_event *ev = data;

	if (size < sizeof(*ev) || ev->domain != r->domain)
		return 0;
	r->fn(ev, r->data);
	return 0;
}

struct event_reader *events_open(uint64_t domain, event_fn fn, void *data)
{
	struct event_reader *r = xcalloc(1, sizeof(*r));

	r->domain = domain;
	r->fn = fn;
	r->data = data;
	r->map_fd = bpf_obj_get(CORRAL_PIN_DIR "/events");
	if (r->map_fd < 0) {
		error_errno(errno, "opening " CORRAL_PIN_DIR "/events (hint: "
			    "'corral teardown --force && corral setup' to load "
			    "programs that log)");
		free(r);
		return NULL;
	}
	r->rb = ring_buffer__new(r->map_fd, on_sample, r, NULL);
	if (!r->rb) {
		error_errno(errno, "mapping the events ring buffer");
		close(r->map_fd);
		free(r);
		return NULL;
	}
	return r;
}

static int exit_status(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	return 128 + WTERMSIG(wstatus);
}

static volatile pid_t followed;

static void pass_on(int sig)
{
	int saved = errno;

	if (followed > 0)
		kill(followed, sig);
	errno = saved;
}

/*
 * The watcher stands where the command would be: a supervisor that
 * stops "corral" (systemd, a shell's kill, timeout(1)) means the
 * command.  The terminal's own signals reach the whole group anyway.
 */
static void pass_on_signals(pid_t child)
{
	static const int passed[] = { SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 };
	struct sigaction sa = { .sa_handler = pass_on, .sa_flags = SA_RESTART };

	followed = child;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(passed) / sizeof(*passed); i++)
		if (sigaction(passed[i], &sa, NULL) < 0)
			die_errno("passing signal %d on to the command", passed[i]);
	/* The terminal signals the whole group; the command decides. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
}

/*
 * Every launch on the bpf engine has a watcher (launch.c), so it must
 * see the command's end at once: a pidfd beside the ring's epoll fd, so
 * that the wait costs no polling interval (kernels without pidfd_open,
 * before 5.3, poll every 100 ms).
 */
int events_follow(struct event_reader *r, pid_t child)
{
	int pidfd = (int)syscall(SYS_pidfd_open, child, 0);
	struct pollfd fds[2] = {
		{ .fd = ring_buffer__epoll_fd(r->rb), .events = POLLIN },
		{ .fd = pidfd, .events = POLLIN },
	};
	int wstatus;

	pass_on_signals(child);
	for (;;) {
		pid_t done = waitpid(child, &wstatus, WNOHANG);

		if (done == child)
			break;
		if (done < 0 && errno != EINTR)
			die_errno("waiting for the sandboxed command (pid %d)",
				  (int)child);
		if (poll(fds, pidfd < 0 ? 1 : 2, pidfd < 0 ? 100 : -1) < 0 &&
		    errno != EINTR)
			die_errno("waiting for the sandboxed command's events");
		ring_buffer__consume(r->rb);
	}
	if (pidfd >= 0)
		close(pidfd);
	while (ring_buffer__consume(r->rb) > 0)
		;
	return exit_status(wstatus);
}

void events_close(struct event_reader *r)
{
	if (!r)
		return;
	ring_buffer__free(r->rb);
	close(r->map_fd);
	free(r);
}

uint64_t events_lost(void)
{
	uint64_t lost = 0;
	uint32_t zero = 0;
	int fd = bpf_obj_get(CORRAL_PIN_DIR "/events_lost");

	if (fd < 0)
		return 0;
	if (bpf_map_lookup_elem(fd, &zero, &lost) < 0)
		lost = 0;
	close(fd);
	return lost;
}

/* The event's names from the root down to names[@leaf], joined. */
static char *join_names(const struct corral_event *ev, uint32_t leaf,
			char *buf, size_t size)
{
	size_t used = 0;
	uint32_t n = ev->n_names < CORRAL_EVENT_NAMES ? ev->n_names
						       : CORRAL_EVENT_NAMES;

	buf[0] = '\0';
	if (n <= leaf)
		return buf;
	if (ev->flags & CORRAL_EVENT_TRUNCATED)
		used = (size_t)snprintf(buf, size, "...");
	for (uint32_t i = n; i-- > leaf && used < size;)
		used += (size_t)snprintf(buf + used, size - used, "/%.*s",
					 CORRAL_EVENT_NAME_LEN,
					 ev->names[i]);
	return buf;
}

char *event_path(const struct corral_event *ev, char *buf, size_t size)
{
	return join_names(ev, !!(ev->flags & CORRAL_EVENT_CHILD), buf, size);
}

char *event_target(const struct corral_event *ev, char *buf, size_t size)
{
	return join_names(ev, 0, buf, size);
}

/*
 * Files the dynamic loader and the C library try in nearly every program
 * and do without: the loader searches the default directories, libc
 * keeps the C locale and untranslated messages, UTC, its built-in NSS
 * defaults, a CPU count from sched_getaffinity, no SELinux.  Under a
 * tight profile each run is refused a dozen of them, burying the denial
 * that matters.
 * Reads only; '*' matches across '/'.
 */
static const char *const routine_reads[] = {
	"/etc/ld.so.cache", "/etc/ld.so.preload", "/etc/nsswitch.conf",
	"/etc/localtime", "/etc/locale.alias", "/etc/default/locale",
	"/usr/lib/locale/*", "/usr/share/locale/*",
	"/usr/share/locale-langpack/*", "/usr/share/i18n/*",
	"/usr/lib/*gconv/*", "/usr/share/zoneinfo/*",
	"/proc/filesystems", "/sys/devices/system/cpu/*",
	/* libselinux, linked into coreutils: is selinuxfs mounted? */
	"/proc/[0-9]*/mounts",
};

bool event_is_routine(const struct corral_event *ev)
{
	char path[CORRAL_EVENT_NAMES * CORRAL_EVENT_NAME_LEN + 8];

	if (ev->hook != CORRAL_HOOK_OPEN || !ev->access ||
	    (ev->access & ~(uint32_t)(CORRAL_ACCESS_READ |
				      CORRAL_ACCESS_READDIR)))
		return false;
	event_target(ev, path, sizeof(path));
	for (size_t i = 0; i < sizeof(routine_reads) / sizeof(*routine_reads);
	     i++)
		if (!fnmatch(routine_reads[i], path, 0))
			return true;
	return false;
}

const char *event_hook_name(uint32_t hook)
{
	static const char *const names[CORRAL_HOOK_MAX + 1] = {
		[CORRAL_HOOK_OPEN] = "open",
		[CORRAL_HOOK_TRUNCATE] = "truncate",
		[CORRAL_HOOK_CREATE] = "create",
		[CORRAL_HOOK_REMOVE] = "remove",
		[CORRAL_HOOK_LINK] = "link",
		[CORRAL_HOOK_RENAME] = "rename",
		[CORRAL_HOOK_IOCTL] = "ioctl",
		[CORRAL_HOOK_MOUNT] = "mount",
		[CORRAL_HOOK_PTRACE] = "ptrace",
		[CORRAL_HOOK_SIGNAL] = "signal",
		[CORRAL_HOOK_CONNECT] = "connect",
		[CORRAL_HOOK_BPF] = "bpf",
		[CORRAL_HOOK_NET] = "network",
		[CORRAL_HOOK_SOCKET] = "socket",
		[CORRAL_HOOK_ROUTE] = "route",
		[CORRAL_HOOK_LIMITS] = "limits/priority",
		[CORRAL_HOOK_IPC] = "sysv-ipc",
		[CORRAL_HOOK_USERNS] = "user-namespace",
	};

	return hook <= CORRAL_HOOK_MAX && names[hook] ? names[hook] : "?";
}
