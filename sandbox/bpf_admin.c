// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bpf_admin.c - `corral setup`, `status` and `teardown`: load the one
 * program set every sandbox shares, pin its maps and links under
 * CORRAL_PIN_DIR, report on it, remove it.
 *
 * Pins: one file per map (task_domain, task_register, rules, domains,
 * info) and one per attached program (link_<program>).  "info" is pinned
 * last, so its presence means a complete setup.
 */
#include "config.h"

#include "bpf_admin.h"
#include "engine_bpf.h"
#include "engine_landlock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "corral_abi.h"
#include "corral.skel.h"
#include "privs.h"
#include "util.h"

int bpf_lsm_active(char *why, size_t size)
{
	char list[512] = "";
	FILE *f = fopen(CORRAL_LSM_LIST, "re");
	int found = 0;

	if (!f) {
		snprintf(why, size, "cannot tell whether the bpf LSM is "
			 "active: " CORRAL_LSM_LIST ": %s (hint: mount -t "
			 "securityfs none /sys/kernel/security)", strerror(errno));
		return 0;
	}
	if (!fgets(list, sizeof(list), f))
		list[0] = '\0';
	fclose(f);
	list[strcspn(list, "\n")] = '\0';
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ","))
		found |= !strcmp(tok, "bpf");
	if (!found)
		snprintf(why, size, "the bpf LSM is not active (not in "
			 CORRAL_LSM_LIST "); hint: boot with lsm=...,bpf, "
			 "see corral-setup(8)");
	return found;
}

/* stat, not access(2): a setgid launcher reaches the pins by its egid. */
int bpf_engine_pinned(void)
{
	struct stat st;

	return stat(CORRAL_PIN_DIR "/info", &st) == 0;
}

int bpf_engine_available(struct bpf_why *why)
{
	why->brief = NULL;
	why->full[0] = '\0';
	if (!bpf_lsm_active(why->full, sizeof(why->full))) {
		why->brief = access(CORRAL_LSM_LIST, F_OK) < 0 ?
			     "no securityfs" : "bpf LSM off";
		return 0;
	}
	if (!privs_bpf_permitted()) {
		why->brief = "no CAP_BPF";
		snprintf(why->full, sizeof(why->full), "%s",
			 privs_missing_reason());
		return 0;
	}
	/* bpf_obj_get opens a pin read-write: the effective ids decide. */
	if (faccessat(AT_FDCWD, CORRAL_PIN_DIR "/info", R_OK | W_OK,
		      AT_EACCESS) == 0)
		return 1;
	if (errno == ENOENT) {
		why->brief = "not set up";
		snprintf(why->full, sizeof(why->full), "corral's BPF programs "
			 "are not set up (hint: run 'corral setup' as root, or "
			 "enable corral-setup.service)");
	} else {
		why->brief = "maps not reachable";
		snprintf(why->full, sizeof(why->full), CORRAL_PIN_DIR
			 "/info: %s (hint: the launcher must be setgid corral, "
			 "the group 'corral setup' gives the pins: chgrp corral "
			 "BIN; chmod 2755 BIN; setcap cap_bpf+p BIN)",
			 strerror(errno));
	}
	return 0;
}

static int print_libbpf(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	(void)level;
	return vfprintf(stderr, fmt, ap);
}

static int quiet_libbpf(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* Remove every pin we own; used by teardown and to clean a partial setup. */
static int unpin_all(void)
{
	DIR *dir = opendir(CORRAL_PIN_DIR);
	struct dirent *de;
	int r = 0;

	if (!dir)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		if (unlinkat(dirfd(dir), de->d_name, 0) < 0 && !r)
			r = error_errno(errno, "unpinning " CORRAL_PIN_DIR
					"/%s", de->d_name);
	}
	closedir(dir);
	if (rmdir(CORRAL_PIN_DIR) < 0 && errno != ENOENT && !r)
		r = error_errno(errno, "removing " CORRAL_PIN_DIR);
	return r;
}

/*
 * LSM hooks differ between kernels: load only programs whose hook exists
 * (file_truncate appeared in 6.2).  The fexit programs that keep the mark
 * cache honest are not optional: without them the load must fail.
 */
static void skip_missing_hooks(struct corral_bpf *skel)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	struct bpf_program *prog;

	if (!vmlinux)
		return;         /* the load will fail with a clearer error */
	bpf_object__for_each_program(prog, skel->obj) {
		const char *sec = bpf_program__section_name(prog);
		char func[128];

		if (strncmp(sec, "lsm/", 4))
			continue;
		snprintf(func, sizeof(func), "bpf_lsm_%s", sec + 4);
		if (btf__find_by_name_kind(vmlinux, func, BTF_KIND_FUNC) < 0)
			bpf_program__set_autoload(prog, false);
	}
	btf__free(vmlinux);
}

static int pin_maps(struct corral_bpf *skel)
{
	struct bpf_map *map;
	char path[256];

	bpf_object__for_each_map(map, skel->obj) {
		if (bpf_map__is_internal(map) || map == skel->maps.info)
			continue;
		snprintf(path, sizeof(path), CORRAL_PIN_DIR "/%s",
			 bpf_map__name(map));
		if (bpf_map__pin(map, path) < 0)
			return error_errno(errno, "pinning map %s", path);
	}
	return 0;
}

static int attach_and_pin(struct corral_bpf *skel, int *n_hooks)
{
	struct bpf_program *prog;
	char path[256];

	*n_hooks = 0;
	bpf_object__for_each_program(prog, skel->obj) {
		struct bpf_link *link;
		int r;

		if (!bpf_program__autoload(prog))
			continue;
		link = bpf_program__attach(prog);
		if (!link)
			return error_errno(errno, "attaching program %s to %s",
					   bpf_program__name(prog),
					   bpf_program__section_name(prog));
		snprintf(path, sizeof(path), CORRAL_PIN_DIR "/link_%s",
			 bpf_program__name(prog));
		r = bpf_link__pin(link, path);
		bpf_link__destroy(link);   /* the pin keeps it attached */
		if (r < 0)
			return error_errno(r, "pinning link %s", path);
		(*n_hooks)++;
	}
	return 0;
}

static int write_info(struct corral_bpf *skel)
{
	struct corral_info info = { .abi_version = CORRAL_ABI_VERSION };
	__u32 zero = 0;

	if (bpf_map__update_elem(skel->maps.info, &zero, sizeof(zero), &info,
				 sizeof(info), BPF_ANY) < 0)
		return error_errno(errno, "writing the info map");
	if (bpf_map__pin(skel->maps.info, CORRAL_PIN_DIR "/info") < 0)
		return error_errno(errno, "pinning " CORRAL_PIN_DIR "/info");
	return 0;
}

/*
 * Launches by ordinary users go through the group "corral" (the launcher
 * is installed setgid corral): the pin directory becomes root:corral 0750
 * and each pin 0660, so no one else can open the maps.  /sys/fs/bpf is
 * often 0700 (systemd mounts it so): it gets o+x, traversal only, never
 * listing.  Without the group, pins stay root-only and only root launches.
 */
static int share_with_group(void)
{
	struct group *grp = getgrnam("corral");
	struct stat st;
	struct dirent *de;
	DIR *dir;
	int r = 0;

	if (!grp)
		return 0;
	if (stat("/sys/fs/bpf", &st) == 0 && !(st.st_mode & S_IXOTH) &&
	    chmod("/sys/fs/bpf", (st.st_mode & 07777) | S_IXOTH) < 0)
		return error_errno(errno, "chmod o+x /sys/fs/bpf");
	if (chown(CORRAL_PIN_DIR, 0, grp->gr_gid) < 0 ||
	    chmod(CORRAL_PIN_DIR, 0750) < 0)
		return error_errno(errno, "giving " CORRAL_PIN_DIR " to group "
				   "corral");
	dir = opendir(CORRAL_PIN_DIR);
	if (!dir)
		return error_errno(errno, "listing " CORRAL_PIN_DIR);
	while ((de = readdir(dir)) && !r) {
		if (de->d_name[0] == '.')
			continue;
		if (fchownat(dirfd(dir), de->d_name, 0, grp->gr_gid, 0) < 0 ||
		    fchmodat(dirfd(dir), de->d_name, 0660, 0) < 0)
			r = error_errno(errno, "giving " CORRAL_PIN_DIR "/%s to "
					"group corral", de->d_name);
	}
	closedir(dir);
	return r;
}

/* CORRAL_TEST_<MAP>_PER_UID=N: a share a guest suite can spend. */
static void test_share(const char *var, const char *map, long max,
		       __s64 *share)
{
	const char *v = getenv(var);
	char *end;
	long n;

	if (!v)
		return;
	n = strtol(v, &end, 10);
	if (*end || n < 1 || n > max) {
		warn_msg("%s=%s: not a number from 1 to %ld; ignored", var, v,
			 max);
		return;
	}
	warn_msg("test mode (%s): each user may hold %ld %s entries", var, n,
		 map);
	*share = n;
}

static void test_share_per_uid(struct corral_bpf *skel)
{
	test_share("CORRAL_TEST_DENIED_CREDS_PER_UID", "open_denied",
		   CORRAL_DENIED_CREDS_PER_UID,
		   (__s64 *)&skel->rodata->denied_creds_per_uid);
	test_share("CORRAL_TEST_CREDS_PER_UID", "cred_domain",
		   CORRAL_CREDS_PER_UID, (__s64 *)&skel->rodata->creds_per_uid);
	test_share("CORRAL_TEST_RULES_PER_UID", "rules",
		   CORRAL_RULES_PER_UID, (__s64 *)&skel->rodata->rules_per_uid);
}

static int load_and_pin(int *n_hooks)
{
	struct corral_bpf *skel = corral_bpf__open();
	int r;

	if (!skel)
		return error_errno(errno, "opening the BPF object corral.bpf.o");
	skip_missing_hooks(skel);
	if (getenv("CORRAL_TEST_TASK_STORAGE_WALK")) {
		warn_msg("test mode (CORRAL_TEST_TASK_STORAGE_WALK): every "
			 "task-storage lookup walks the storage list");
		skel->rodata->test_task_storage_walk = 1;
	}
	if (getenv("CORRAL_TEST_MARK_ADDRESS_ONLY")) {
		warn_msg("test mode (CORRAL_TEST_MARK_ADDRESS_ONLY): marks are "
			 "keyed by inode address alone");
		skel->rodata->test_mark_address_only = 1;
	}
	test_share_per_uid(skel);
	r = corral_bpf__load(skel);
	if (r == -EPERM) {
		/* The kernel's refusal, before any verifier: --debug
		 * would show nothing more. */
		error_errno(r, "loading the BPF object corral.bpf.o: the kernel "
			    "refuses BPF programs to this process (hint: needs "
			    "CAP_BPF and CAP_SYS_ADMIN, no lockdown, no "
			    "container seccomp; see corral-setup(8))");
		goto out;
	}
	if (r < 0) {
		error_errno(r, "loading the BPF object corral.bpf.o (hint: "
			    "'corral setup --debug' prints the verifier log)");
		goto out;
	}
	if (mkdir(CORRAL_PIN_DIR, 0755) < 0 && errno != EEXIST) {
		r = error_errno(errno, "creating " CORRAL_PIN_DIR " (hint: is "
				"bpffs mounted on /sys/fs/bpf?)");
		goto out;
	}
	r = pin_maps(skel);
	if (!r)
		r = attach_and_pin(skel, n_hooks);
	if (!r)
		r = write_info(skel);
	if (!r)
		r = share_with_group();
out:
	corral_bpf__destroy(skel);
	return r;
}

int bpf_admin_setup(bool debug)
{
	char why[256];
	int n_hooks = 0;

	libbpf_set_print(debug ? print_libbpf : quiet_libbpf);
	if (geteuid() != 0)
		die("setup: loading the programs needs root (run it as root, or "
		    "enable corral-setup.service)");
	if (!bpf_lsm_active(why, sizeof(why)))
		die("setup: %s", why);
	if (bpf_engine_pinned()) {
		printf("corral: already set up (" CORRAL_PIN_DIR ")\n");
		return 0;
	}
	/* A partial setup (interrupted) is no setup: start clean. */
	if (unpin_all() < 0 || load_and_pin(&n_hooks) < 0) {
		unpin_all();
		die("setup failed; nothing is left pinned");
	}
	printf("corral: set up %d hooks, pinned under " CORRAL_PIN_DIR "\n",
	       n_hooks);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Prints "hooks: N attached: name name ..." from the link pins
 * (link_corral_<name>), sorted; returns N.
 */
static int print_hooks(void)
{
	DIR *dir = opendir(CORRAL_PIN_DIR);
	struct dirent *de;
	char *names[128];
	int n = 0;

	if (!dir)
		return 0;
	while ((de = readdir(dir)) && n < (int)(sizeof(names) / sizeof(*names))) {
		const char *name = de->d_name;

		if (strncmp(name, "link_", 5))
			continue;
		name += 5;
		if (!strncmp(name, "corral_", 7))
			name += 7;
		names[n] = strdup(name);
		if (names[n])
			n++;
	}
	closedir(dir);
	qsort(names, n, sizeof(*names), cmp_names);
	printf("hooks: %d attached:", n);
	for (int i = 0; i < n; i++) {
		printf(" %s", names[i]);
		free(names[i]);
	}
	printf("\n");
	return n;
}

/* Live domains, or -errno after a message. */
static int live_domains(void)
{
	int fd = bpf_obj_get(CORRAL_PIN_DIR "/domains");
	int n;

	if (fd < 0)
		return error_errno(errno, "opening " CORRAL_PIN_DIR "/domains");
	n = engine_bpf_count_domains(fd);
	close(fd);
	if (n < 0)
		return error_errno(n, "reading " CORRAL_PIN_DIR "/domains");
	return n;
}

/* The ABI version the pinned programs were built with, or -1. */
static int pinned_abi(void)
{
	struct corral_info info = { 0 };
	__u32 zero = 0;
	int fd = bpf_obj_get(CORRAL_PIN_DIR "/info");
	int abi = -1;

	if (fd < 0)
		return -1;
	if (bpf_map_lookup_elem(fd, &zero, &info) == 0)
		abi = (int)info.abi_version;
	close(fd);
	return abi;
}

/* The running kernel and its Landlock: what the engines have to work with. */
static void print_kernel(void)
{
	struct utsname u;
	int abi = landlock_abi();

	if (uname(&u) == 0)
		printf("kernel: %s\n", u.release);
	else
		printf("kernel: unknown (uname: %s)\n", strerror(errno));
	if (abi > 0)
		printf("landlock: ABI %d\n", abi);
	else
		printf("landlock: not available (not built in, or not in "
		       CORRAL_LSM_LIST ")\n");
}

/*
 * The engine a launch by this user gets, and, when it is Landlock, the
 * whole reason and what Landlock leaves out: the launch's warning is
 * one short line that points here.
 */
static void print_engine(void)
{
	struct bpf_why why;
	char limits[512];
	int abi = landlock_abi();

	if (bpf_engine_available(&why)) {
		printf("engine: bpf\n");
		return;
	}
	printf("bpf engine: not usable: %s\n", why.full);
	if (!abi) {
		printf("engine: none (Landlock is not enabled either; "
		       "launches fail, see corral-setup(8))\n");
		return;
	}
	printf("engine: Landlock ABI %d, which cannot enforce %s\n", abi,
	       landlock_limits(abi, limits, sizeof(limits)));
	printf("network under Landlock: %s\n",
	       landlock_net_limits(abi, limits, sizeof(limits)));
	printf("denials under Landlock: not reported to corral (Landlock's "
	       "audit records, ABI 7, go to the audit subsystem, which "
	       "only root may read), so --log and learn need bpf and no "
	       "launch says how many accesses were refused\n");
}

int bpf_admin_status(void)
{
	char why[256];
	int n;

	print_kernel();
	if (!bpf_lsm_active(why, sizeof(why))) {
		print_engine();
		return 0;
	}
	printf("bpf LSM: active\n");
	if (!bpf_engine_pinned()) {
		printf("programs: not set up (run 'corral setup' as root)\n");
		print_engine();
		return 0;
	}
	printf("programs: pinned under " CORRAL_PIN_DIR " (abi %d)\n",
	       pinned_abi());
	print_hooks();
	n = live_domains();
	if (n < 0)
		return CORRAL_EXIT_FAILURE;
	printf("domains: %d live\n", n);
	print_engine();
	return 0;
}

int bpf_admin_teardown(bool force)
{
	char why[256];
	int n;

	if (geteuid() != 0)
		die("teardown: unpinning the programs needs root (run it as "
		    "root)");
	if (!bpf_lsm_active(why, sizeof(why)))
		die("teardown: %s", why);
	if (access(CORRAL_PIN_DIR, F_OK) < 0) {
		printf("corral: nothing to tear down\n");
		return 0;
	}
	n = bpf_engine_pinned() ? live_domains() : 0;
	if (n < 0)
		return CORRAL_EXIT_FAILURE;
	if (n > 0 && !force)
		die("teardown: %d sandbox domain%s live: unpinning would leave "
		    "them unconfined; wait for them to end or use --force",
		    n, n == 1 ? " is" : "s are");
	if (unpin_all() < 0)
		die("teardown: some pins under " CORRAL_PIN_DIR " remain");
	printf("corral: torn down%s\n", n > 0 ? " (live domains are now "
	       "unconfined)" : "");
	return 0;
}
