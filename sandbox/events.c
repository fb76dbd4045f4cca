// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include "events.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "engine_bpf.h"
#include "policy.h"
#include "netrule.h"
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

int events_follow(struct event_reader *r, pid_t child)
{
	int wstatus;

	/* The terminal signals the whole group; the command decides. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	for (;;) {
		pid_t done = waitpid(child, &wstatus, WNOHANG);

		if (done == child)
			break;
		if (done < 0 && errno != EINTR)
			die_errno("waiting for the sandboxed command (pid %d)",
				  (int)child);
		ring_buffer__poll(r->rb, 100);
	}
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

/* FNV-1a over the denial, its pid and command left out. */
static uint64_t denial_hash(const struct corral_event *ev, const char *what,
			    const char *path)
{
	uint64_t h = 0xcbf29ce484222325ull ^ ev->hook;
	const char *parts[] = { what, "\n", path };

	for (size_t i = 0; i < 3; i++)
		for (const char *c = parts[i]; *c; c++)
			h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
	return h ? h : 1;
}

/*
 * Whether this denial was printed before (and remember it if not).  A
 * full table forgets nothing and remembers no more: repeats then print.
 */
static bool seen_before(struct log_printer *p, uint64_t h)
{
	size_t i = h % LOG_SEEN_SLOTS;

	for (size_t k = 0; k < LOG_SEEN_SLOTS; k++, i = (i + 1) % LOG_SEEN_SLOTS) {
		if (p->seen[i] == h)
			return true;
		if (!p->seen[i]) {
			p->seen[i] = h;
			return false;
		}
	}
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
	};

	return hook <= CORRAL_HOOK_MAX && names[hook] ? names[hook] : "?";
}

static void flush_suppressed(struct log_printer *p)
{
	if (!p->suppressed)
		return;
	fprintf(p->out, "corral: %llu more denial%s not shown (rate limit "
		"%u a second)\n", (unsigned long long)p->suppressed,
		p->suppressed == 1 ? "" : "s", p->per_second);
	p->suppressed = 0;
}

/* "connect-tcp 93.184.216.34:80", "socket family 17 type 3 protocol 0" */
static const char *net_text(const struct corral_event *ev, char *buf,
			    size_t size)
{
	char where[64];

	if (ev->hook == CORRAL_HOOK_SOCKET)
		snprintf(buf, size, "socket family %u type %u protocol %u",
			 ev->net.socket_family, ev->net.socket_type,
			 ev->net.protocol);
	else if (ev->hook == CORRAL_HOOK_ROUTE)
		snprintf(buf, size, "source route (level %u option %u) on "
			 "socket family %u", ev->net.protocol, ev->net.port,
			 ev->net.socket_family);
	else
		snprintf(buf, size, "%s %s",
			 netrule_op_name((uint8_t)ev->access),
			 netrule_format_addr(ev->net.family, ev->net.addr,
					     ev->net.port, where,
					     sizeof(where)));
	return buf;
}

/*
 * Prints "corral: " and @line, escaped: the names in it are the sandboxed
 * command's to choose, and must not reach the terminal as control
 * sequences.
 */
static void log_line(struct log_printer *p, const char *line)
{
	static char escaped[4 * LOG_LINE_MAX];

	fprintf(p->out, "corral: %s\n",
		text_escape(line, escaped, sizeof(escaped)));
	fflush(p->out);
}

void log_print_event(const struct corral_event *ev, void *printer)
{
	struct log_printer *p = printer;
	static char path[CORRAL_EVENT_NAMES * CORRAL_EVENT_NAME_LEN + 8];
	static char line[LOG_LINE_MAX], why[2 * PATH_MAX + 256];
	char rights[128];
	const char *what;

	if (!p->all && event_is_routine(ev))
		return;
	if (ev->time_ns - p->window_ns >= 1000000000ull) {
		flush_suppressed(p);
		p->window_ns = ev->time_ns;
		p->in_window = 0;
	}
	if (++p->in_window > p->per_second) {
		p->suppressed++;
		return;
	}
	if (ev->hook == CORRAL_HOOK_NET || ev->hook == CORRAL_HOOK_SOCKET ||
	    ev->hook == CORRAL_HOOK_ROUTE) {
		snprintf(line, sizeof(line), "denied %s (pid %u %.16s)",
			 net_text(ev, rights, sizeof(rights)), ev->pid,
			 ev->comm);
		log_line(p, line);
		return;
	}
	what = ev->access ? rights_format(ev->access, rights, sizeof(rights))
			  : event_hook_name(ev->hook);
	event_target(ev, path, sizeof(path));
	if (!p->all && seen_before(p, denial_hash(ev, what, path)))
		return;
	snprintf(line, sizeof(line), "denied %s%s%s (pid %u %.16s)%s", what,
		 path[0] ? " " : "", path, ev->pid, ev->comm,
		 p->why ? p->why(ev, p->why_ctx, why, sizeof(why)) : "");
	log_line(p, line);
}

void log_finish(struct log_printer *p)
{
	uint64_t lost = events_lost() - p->lost_at_start;

	flush_suppressed(p);
	if (lost)
		fprintf(p->out, "corral: while the command ran, the kernel "
			"dropped %llu denial events of watched sandboxes (ring "
			"buffer full): some denials may be missing above\n",
			(unsigned long long)lost);
}
