// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engine_bpf.c - what one launch does with the pinned maps.
 *
 * The domain id is random and inserted with BPF_NOEXIST, so no caller
 * chooses it and two launchers never share one.  Rules are registered
 * through the kernel (see struct corral_register in corral_abi.h) rather
 * than keyed from stat(2), whose st_dev/st_ino differ from the inode the
 * BPF walk meets on overlayfs and btrfs.
 */
#include "config.h"

#include "engine_bpf.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "corral_abi.h"
#include "policy.h"
#include "util.h"

static int open_pinned(const char *name, int *fd)
{
	char path[128];

	snprintf(path, sizeof(path), CORRAL_PIN_DIR "/%s", name);
	*fd = bpf_obj_get(path);
	if (*fd < 0)
		return error_errno(errno, "opening %s (hint: run 'corral "
				   "setup' as root, or 'corral status')", path);
	return 0;
}

/*
 * The rules and net_policy maps only matter to a launch that reclaims,
 * aborts or writes network rules: opened on first use, not by every
 * launch (each open is a path lookup in bpffs).
 */
static int pinned_on_demand(int *fd, const char *name)
{
	return *fd >= 0 ? 0 : open_pinned(name, fd);
}

static int check_abi(void)
{
	struct corral_info info = { 0 };
	__u32 zero = 0;
	_cleanup_close_ int fd = -1;
	int r = open_pinned("info", &fd);

	if (r < 0)
		return r;
	if (bpf_map_lookup_elem(fd, &zero, &info) < 0)
		return error_errno(errno, "reading " CORRAL_PIN_DIR "/info");
	if (info.abi_version != CORRAL_ABI_VERSION) {
		warn_msg(CORRAL_PIN_DIR " holds programs of ABI %u, this corral "
			 "speaks %u; hint: 'corral teardown --force && corral "
			 "setup' as root", info.abi_version, CORRAL_ABI_VERSION);
		return -EPROTO;
	}
	return 0;
}

int engine_bpf_open(struct bpf_engine *e)
{
	int r;

	*e = (struct bpf_engine){
		.task_domain = -1, .task_register = -1, .rules = -1,
		.domains = -1, .net_policy = -1, .pidfd = -1,
	};
	r = check_abi();
	if (!r)
		r = open_pinned("task_domain", &e->task_domain);
	if (!r)
		r = open_pinned("task_register", &e->task_register);
	if (!r)
		r = open_pinned("domains", &e->domains);
	if (r < 0)
		return r;
	e->pid = getpid();
	e->pidfd = (int)syscall(SYS_pidfd_open, e->pid, 0);
	if (e->pidfd < 0)
		return error_errno(errno, "pidfd_open on this process");
	return 0;
}

/*
 * The keys of @map (keyed by domain id) whose domain no longer exists.
 * Deleting while iterating restarts the iteration, so collect first.
 */
static __u64 *dead_domains_in(const struct bpf_engine *e, int map, size_t *n)
{
	__u64 key, next, *prev = NULL, *dead = NULL;
	struct corral_domain dom;

	*n = 0;
	while (!bpf_map_get_next_key(map, prev, &next)) {
		key = next;
		prev = &key;
		if (!bpf_map_lookup_elem(e->domains, &key, &dom))
			continue;
		dead = xrealloc(dead, *n + 1, sizeof(*dead));
		dead[(*n)++] = key;
	}
	return dead;
}

/* Network policies of domains that were never entered (aborted). */
static void reclaim_dead_net(struct bpf_engine *e)
{
	size_t n;
	__u64 *dead;

	if (pinned_on_demand(&e->net_policy, "net_policy") < 0)
		return;
	dead = dead_domains_in(e, e->net_policy, &n);
	for (size_t i = 0; i < n; i++)
		bpf_map_delete_elem(e->net_policy, &dead[i]);
	free(dead);
}

/*
 * Deletes the rules and rule index of @domain, which no longer exists:
 * what the BPF side does when a domain's last task is freed (see struct
 * corral_rule_index), for domains whose rules it could not delete.  The
 * charge to their user's share went with the domain (domain_died): this
 * only frees the entries.  Pin sets of before the index have no such
 * maps: nothing to do.
 */
static void drop_domain_index(uint64_t domain, int rules, int index,
			      int nrules)
{
	struct corral_rule_index idx = { .domain = domain };
	struct corral_rule_key key;
	__u32 n = 0;

	if (bpf_map_lookup_elem(nrules, &domain, &n) < 0)
		return;
	for (idx.i = 0; idx.i < n; idx.i++) {
		if (!bpf_map_lookup_elem(index, &idx, &key))
			bpf_map_delete_elem(rules, &key);
		bpf_map_delete_elem(index, &idx);
	}
	bpf_map_delete_elem(nrules, &domain);
}

static int open_index(int *index, int *nrules)
{
	*index = bpf_obj_get(CORRAL_PIN_DIR "/domain_rules");
	*nrules = bpf_obj_get(CORRAL_PIN_DIR "/domain_nrules");
	if (*index >= 0 && *nrules >= 0)
		return 0;
	closep(index);
	closep(nrules);
	return -1;
}

/* Index entries of domains that are gone (see drop_domain_index). */
static void reclaim_dead_index(struct bpf_engine *e)
{
	_cleanup_close_ int index = -1, nrules = -1;
	__u64 *dead;
	size_t n;

	if (pinned_on_demand(&e->rules, "rules") < 0 ||
	    open_index(&index, &nrules) < 0)
		return;
	dead = dead_domains_in(e, nrules, &n);
	for (size_t i = 0; i < n; i++)
		drop_domain_index(dead[i], e->rules, index, nrules);
	free(dead);
}

/*
 * Rules of domains that no longer exist are dead weight in a bounded map.
 * The BPF side deletes a domain's rules when its last task, or the
 * launcher that never entered it, is freed; what is left here is rare
 * (a delete the kernel refused there, a pin set of before the index, a
 * rule written from outside, as tests/integration/admin.sh does).  Deleting while iterating
 * restarts the iteration, so collect first.
 */
static void reclaim_dead_rules(struct bpf_engine *e)
{
	struct corral_rule_key key, next, *dead = NULL;
	struct corral_domain dom;
	size_t n_dead = 0;
	void *prev = NULL;

	if (pinned_on_demand(&e->rules, "rules") < 0)
		return;
	while (!bpf_map_get_next_key(e->rules, prev, &next)) {
		key = next;
		prev = &key;
		if (!bpf_map_lookup_elem(e->domains, &key.domain, &dom))
			continue;
		dead = xrealloc(dead, n_dead + 1, sizeof(*dead));
		dead[n_dead++] = key;
	}
	for (size_t i = 0; i < n_dead; i++)
		bpf_map_delete_elem(e->rules, &dead[i]);
	free(dead);
}

/*
 * Run only when a map is full, not on every launch: each pass walks every
 * bucket of the rules map (65536), and that walk was a sixth of a
 * launch's CPU time (tests/bench/RESULTS.md).  Returns whether it ran now,
 * that is whether retrying may help.
 */
static bool reclaim_dead(struct bpf_engine *e)
{
	if (e->reclaimed)
		return false;
	e->reclaimed = true;
	reclaim_dead_index(e);
	reclaim_dead_rules(e);
	reclaim_dead_net(e);
	return true;
}

/*
 * Names @id and the launch's nonce in this process's registration slot
 * before the domain exists, so that from the moment it does, the kernel
 * reclaims it if this process dies before entering it (task_free).
 */
static int claim_domain(struct bpf_engine *e, uint64_t id)
{
	struct corral_register reg = { .domain = id, .nonce = e->nonce };

	if (bpf_map_update_elem(e->task_register, &e->pidfd, &reg, BPF_ANY) < 0)
		return error_errno(errno, "preparing a domain in "
				   CORRAL_PIN_DIR "/task_register");
	return 0;
}

int engine_bpf_create_domain(struct bpf_engine *e)
{
	struct corral_domain dom = { .tasks = 1, .uid = getuid() };
	struct timespec now;

	if (getrandom(&e->nonce, sizeof(e->nonce), 0) != sizeof(e->nonce))
		return error_errno(errno, "getrandom for a launch nonce");
	dom.nonce = e->nonce;
	if (clock_gettime(CLOCK_MONOTONIC, &now) == 0)
		dom.created_ns = (__u64)now.tv_sec * 1000000000ull +
				 (__u64)now.tv_nsec;
	for (int tries = 0; tries < 8; tries++) {
		uint64_t id;
		int r;

		if (getrandom(&id, sizeof(id), 0) != sizeof(id))
			return error_errno(errno, "getrandom for a domain id");
		if (!id)
			continue;
		r = claim_domain(e, id);
		if (r < 0)
			return r;
		if (!bpf_map_update_elem(e->domains, &id, &dom, BPF_NOEXIST)) {
			e->domain = id;
			return 0;
		}
		if (errno != EEXIST)
			return error_errno(errno, "creating a domain in "
					   CORRAL_PIN_DIR "/domains (%d "
					   "sandboxes at most)",
					   CORRAL_MAX_DOMAINS);
	}
	warn_msg("could not find a free domain id after 8 tries");
	return -EAGAIN;
}

/* "<path>: <what>: <strerror(-err)>", returning err. */
static int rule_error(int fd, int err, const char *what)
{
	char buf[PATH_MAX];

	return error_errno(err, "%s: %s", fd_name(fd, buf, sizeof(buf)), what);
}

/* @tag: struct corral_register's file_tag, 0 for a directory. */
static void file_tag_add(struct bpf_engine *e, uint32_t tag)
{
	if (!tag--)
		return;
	for (size_t i = 0; i < e->n_file_tags && i < CORRAL_FILE_TAGS; i++)
		if (e->file_tags[i] == tag)
			return;
	if (e->n_file_tags < CORRAL_FILE_TAGS)
		e->file_tags[e->n_file_tags] = (uint16_t)tag;
	e->n_file_tags++;
}

static int tag_order(const void *a, const void *b)
{
	return *(const uint16_t *)a - *(const uint16_t *)b;
}

/* @e's tags as struct corral_task lists them: 1, or 0 if too many. */
static int file_tags_sorted(const struct bpf_engine *e, uint16_t *tags)
{
	if (e->n_file_tags > CORRAL_FILE_TAGS)
		return 0;
	for (size_t i = 0; i < CORRAL_FILE_TAGS; i++)
		tags[i] = i < e->n_file_tags ? e->file_tags[i] : 0xffff;
	qsort(tags, e->n_file_tags, sizeof(*tags), tag_order);
	return 1;
}

/* One registration round trip; 0 with @reg read back, or -errno. */
static int register_rule(struct bpf_engine *e, int fd,
			 struct corral_register *reg)
{
	struct statfs sfs;
	struct stat st;

	if (fstat(fd, &st) < 0)
		return rule_error(fd, -errno, "fstat before registering its rule");
	if (bpf_map_update_elem(e->task_register, &e->pidfd, reg, BPF_ANY) < 0)
		return rule_error(fd, -errno, "preparing its rule");
	/* The sb_statfs hook turns this fstatfs into the rule. */
	if (fstatfs(fd, &sfs) < 0)
		return rule_error(fd, -errno, errno == ENOSYS ?
				  "registering its rule (its filesystem has "
				  "no statfs, which corral registers through)" :
				  "fstatfs to register its rule");
	if (bpf_map_lookup_elem(e->task_register, &e->pidfd, reg) < 0)
		return rule_error(fd, -errno, "reading its rule back");
	if (!S_ISDIR(st.st_mode))
		e->file_rules = true;
	if (reg->status != CORRAL_REGISTER_DONE)
		return 0;
	e->rule_inos |= reg->ino_bit;
	file_tag_add(e, reg->file_tag);
	return 0;
}

/*
 * The user's share of the rules map is spent (-EDQUOT from the
 * registration): one line saying so, with the count the BPF side keeps
 * (the rules this launch got so far included, until it exits).
 */
static int share_spent(void)
{
	_cleanup_close_ int fd = bpf_obj_get(CORRAL_PIN_DIR "/rules_by_uid");
	__u32 uid = getuid();
	__s64 held;

	if (fd >= 0 && !bpf_map_lookup_elem(fd, &uid, &held))
		warn_msg("your sandboxes hold %lld rules, your share of the "
			 "rules map; wait for some to exit", (long long)held);
	else
		warn_msg("your sandboxes hold your share of the rules map; "
			 "wait for some to exit");
	return -EDQUOT;
}

int engine_bpf_add_rule(struct bpf_engine *e, int fd, uint32_t access,
			uint32_t deny, const char *name)
{
	struct corral_register reg = {
		.domain = e->domain,
		.access = access,
		.deny = deny,
		.status = CORRAL_REGISTER_PENDING,
		.nonce = e->nonce,
	};
	int r;

	if (name && strlen(name) >= sizeof(reg.name))
		return error_errno(-ENAMETOOLONG, "%s: a name rule", name);
	if (name)
		strncpy(reg.name, name, sizeof(reg.name));
	r = register_rule(e, fd, &reg);

	if (!r && reg.status == -ENOSPC && reclaim_dead(e)) {
		reg.status = CORRAL_REGISTER_PENDING;
		r = register_rule(e, fd, &reg);
	}
	if (r < 0)
		return r;
	if (deny)
		e->deny_rules = true;
	if (reg.status == CORRAL_REGISTER_DONE)
		return 0;
	if (reg.status == CORRAL_REGISTER_PENDING) {
		char buf[PATH_MAX];

		warn_msg("%s: the BPF programs did not register the rule "
			 "(is corral's sb_statfs hook attached? see "
			 "'corral status')", fd_name(fd, buf, sizeof(buf)));
		return -ENOLINK;
	}
	if (reg.status == -EDQUOT)
		return share_spent();
	return rule_error(fd, reg.status, reg.status == -ENOSPC ?
			  "registering its rule (the rules map is full)" :
			  "registering its rule");
}

int engine_bpf_pin(void *engine, int fd)
{
	return engine_bpf_add_rule(engine, fd, CORRAL_RULE_PINNED, 0, NULL);
}

/* A policy rule as the BPF side matches it: address and mask words. */
static void net_rule_to_abi(const struct policy_net_rule *in,
			    struct corral_net_rule *out)
{
	uint8_t mask[16] = { 0 };
	unsigned bits = in->family ? in->prefix_len : 0;

	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < 16 && bits; i++) {
		unsigned keep = bits >= 8 ? 8 : bits;

		mask[i] = (uint8_t)(0xff << (8 - keep));
		bits -= keep;
	}
	memcpy(out->mask, mask, sizeof(mask));
	for (unsigned i = 0; i < 4; i++) {
		uint32_t a;

		memcpy(&a, in->addr + 4 * i, 4);
		out->addr[i] = a & out->mask[i];
	}
	out->port_lo = in->port_lo;
	out->port_hi = in->port_hi;
	out->ops = in->op;
	out->family = in->family;
}

int engine_bpf_set_network(struct bpf_engine *e, const struct policy *policy)
{
	enum policy_net_mode mode = policy_net_mode(policy);
	_cleanup_free_ struct corral_net_policy *net = NULL;

	if (mode == POLICY_NET_ALL && !e->audit)
		return 0;
	if (pinned_on_demand(&e->net_policy, "net_policy") < 0)
		return -ENOENT;
	net = xcalloc(1, sizeof(*net));
	/* net = none, and learn's audit of net = all: no rule matches */
	if (mode == POLICY_NET_RULES) {
		for (size_t i = 0; i < policy->n_net &&
		     i < CORRAL_MAX_NET_RULES; i++)
			net_rule_to_abi(&policy->net[i], &net->rule[i]);
		net->n_rules = (__u32)policy->n_net;
	}
	if (bpf_map_update_elem(e->net_policy, &e->domain, net,
				BPF_NOEXIST) < 0 &&
	    (errno != E2BIG || !reclaim_dead(e) ||
	     bpf_map_update_elem(e->net_policy, &e->domain, net,
				 BPF_NOEXIST) < 0))
		return error_errno(errno, "writing the network rules to "
				   CORRAL_PIN_DIR "/net_policy");
	e->task_flags |= CORRAL_TASK_NET;
	return 0;
}

/*
 * The domain's count of 1 stands for the launcher until a task carries
 * the domain (struct corral_domain).  The launcher entering itself keeps
 * its registration slot: it could not delete it from inside (bpf(2) is
 * refused there), and task_free goes by the domain a task carries first.
 * A watched child is entered from outside, before it goes on, and then
 * the launcher drops its slot, so that its own exit counts nothing down.
 */
int engine_bpf_enter(struct bpf_engine *e, pid_t pid)
{
	struct corral_task task = {
		.domain = e->domain,
		.flags = e->task_flags |
			 (e->file_rules ? CORRAL_TASK_FILE_RULES : 0) |
			 (e->deny_rules ? CORRAL_TASK_DENY : 0) |
			 (e->audit ? CORRAL_TASK_AUDIT : 0) |
			 (e->watched ? CORRAL_TASK_WATCHED : 0),
		.rule_inos = e->rule_inos,
	};
	_cleanup_close_ int child = -1;
	int target = e->pidfd;

	if (file_tags_sorted(e, task.file_tags))
		task.flags |= CORRAL_TASK_FILE_TAGS;

	if (pid != e->pid) {
		target = child = (int)syscall(SYS_pidfd_open, pid, 0);
		if (target < 0)
			return error_errno(errno, "pidfd_open on the watched "
					   "command (pid %d)", (int)pid);
	}
	if (bpf_map_update_elem(e->task_domain, &target, &task,
				BPF_NOEXIST) < 0) {
		if (errno == EEXIST)
			warn_msg("this process is already in a corral sandbox; "
				 "nesting is not supported by the bpf engine");
		else
			error_errno(errno, "entering the sandbox domain");
		return -EPERM;
	}
	if (pid != e->pid)
		bpf_map_delete_elem(e->task_register, &e->pidfd);
	return 0;
}

/*
 * A domain never entered is left to the kernel: the launcher exits next,
 * and task_free counts the domain down through its registration slot
 * (launcher_died), deleting its rules, index and network policy and
 * giving its rules back to its user's share (domain_died).  Deleted from
 * here, the domain would take that charge along for good: only the BPF
 * side gives it back, atomically beside the launches that take it.
 */
void engine_bpf_abort(struct bpf_engine *e)
{
	e->domain = 0;
}

void engine_bpf_close(struct bpf_engine *e)
{
	closep(&e->task_domain);
	closep(&e->task_register);
	closep(&e->rules);
	closep(&e->domains);
	closep(&e->net_policy);
	closep(&e->pidfd);
	e->task_domain = e->task_register = e->rules = e->domains = -1;
	e->net_policy = -1;
	e->pidfd = -1;
}

int engine_bpf_count_domains(int domains_fd)
{
	__u64 key, next, *prev = NULL;
	struct corral_domain dom;
	int live = 0;

	while (!bpf_map_get_next_key(domains_fd, prev, &next)) {
		key = next;
		prev = &key;
		if (!bpf_map_lookup_elem(domains_fd, &key, &dom) &&
		    dom.tasks > 0)
			live++;
	}
	if (errno != ENOENT)
		return -errno;
	return live;
}
