/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * openbench: the timing and counting chores of `make bench`, as one static
 * binary (a dynamic helper would cost 45-90 ms per exec under TCG).
 *
 *   openbench open MS SAMPLES PATH...
 *       open(PATH, O_RDONLY)+close, in batches of about MS milliseconds,
 *       SAMPLES batches per PATH, the PATHs interleaved batch by batch;
 *       prints one line per PATH: "<index> <median ns per open+close>".
 *   openbench mkfresh DIR N [LEVELS]
 *       creates DIR/0 .. DIR/N-1, each a new directory holding a file f
 *       (LEVELS 1, the default), or holding a new directory d that holds
 *       f (LEVELS 2: the file's directory and its parent are both new).
 *   openbench miss DIR N [LEVELS]
 *       opens DIR/i/f (LEVELS 1) or DIR/i/d/f (LEVELS 2) once for each
 *       i < N (each a first access in a fresh directory); prints "<mean
 *       ns per open+close>".
 *   openbench mktree DIR NFILES
 *       creates NFILES empty files under DIR, 100 per directory.
 *   openbench launch N CMD [ARG...]
 *       runs CMD N times, one after the other (stdout and stderr to
 *       /dev/null); prints "<median wall ns> <failures> <median cpu ns>",
 *       the CPU time being user + system of CMD and the descendants it
 *       reaped.  OPENBENCH_VERBOSE=1 prints every run on stderr.
 *   openbench marks PINDIR DIR...
 *       counts corral's marks on every directory under each DIR (not
 *       crossing mounts): the entries of the hash map PINDIR/marks whose
 *       key names the inode number of one of the directories.  Prints
 *       "dirs N marked N slots N live N current N entries N": directories
 *       seen, entries of theirs, used slots, slots whose domain is still
 *       in PINDIR/domains, slots of the current topology generation, and
 *       every entry of the map.
 *   openbench marks-dump PINDIR
 *       one line per entry of PINDIR/marks: "inode ADDR ino N dev N gen N
 *       id ok|stale owner DOMAIN slots DOMAIN:ACCESS...".
 *   openbench fill PIN DOMAIN
 *       fills the pinned hash map PIN (keyed by a domain id first) with
 *       entries of DOMAIN until it is full; prints how many it added.
 *   openbench count PIN...
 *       the number of entries of each pinned hash map, one per line.
 *   openbench settle PIN SECONDS
 *       waits (at most SECONDS) until the pinned hash map PIN is empty:
 *       exited sandboxes' domains go after an RCU grace period.
 *   openbench seccomp CMD [ARG...]
 *       installs corral's sandbox seccomp filter with the launcher's own
 *       code (seccomp_install_sandbox) and execs CMD: what that filter
 *       alone costs a workload.
 *   openbench floor CMD [ARG...]
 *       the least a launch under DESIGN.md §4 does, and nothing else: a
 *       child that drops every capability and installs corral's parser
 *       filter sends one O_PATH descriptor back over a socket pair; the
 *       parent reaps it, drops every capability, installs the sandbox
 *       filter and execs CMD.  No parsing, no BPF: the floor (d) stands on.
 *
 * Exit status 0, 1 on a failure (message on stderr), 2 on a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "seccomp_load.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int die(const char *what, const char *arg)
{
	fprintf(stderr, "openbench: %s %s: %s\n", what, arg ? arg : "",
		strerror(errno));
	exit(1);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void open_close(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die("open", path);
	close(fd);
}

/* ---- open ---------------------------------------------------------- */

static int bench_open(int ms, int samples, char **paths, int n)
{
	uint64_t *batch = calloc(n, sizeof(*batch));
	uint64_t *res = calloc((size_t)n * samples, sizeof(*res));
	uint64_t t0, t;
	int i, s, k;

	if (!batch || !res || samples < 1)
		return 1;
	/* warm up (dentries, marks) and size the batches */
	for (i = 0; i < n; i++) {
		for (k = 0; k < 50; k++)
			open_close(paths[i]);
		t0 = now_ns();
		for (k = 0; k < 200; k++)
			open_close(paths[i]);
		t = (now_ns() - t0) / 200;
		batch[i] = (uint64_t)ms * 1000000u / (t ? t : 1);
		if (batch[i] < 20)
			batch[i] = 20;
	}
	for (s = 0; s < samples; s++)
		for (i = 0; i < n; i++) {
			t0 = now_ns();
			for (k = 0; k < (int)batch[i]; k++)
				open_close(paths[i]);
			res[(size_t)i * samples + s] = (now_ns() - t0) / batch[i];
		}
	for (i = 0; i < n; i++)
		printf("%d %llu\n", i,
		       (unsigned long long)median(res + (size_t)i * samples,
						  samples));
	return 0;
}

/* ---- fresh directories and trees ---------------------------------------- */

static void make_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0)
		die("create", path);
	close(fd);
}

/* DIR/i/f (LEVELS 1) or DIR/i/d/f (LEVELS 2): the file of miss i */
static void fresh_file(char *p, size_t size, const char *dir, int i,
		       int levels)
{
	snprintf(p, size, levels == 2 ? "%s/%d/d/f" : "%s/%d/f", dir, i);
}

static int mkfresh(const char *dir, int n, int levels)
{
	char p[4096];
	int i;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		die("mkdir", dir);
	for (i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "%s/%d", dir, i);
		if (mkdir(p, 0755) < 0)
			die("mkdir", p);
		snprintf(p, sizeof(p), "%s/%d/d", dir, i);
		if (levels == 2 && mkdir(p, 0755) < 0)
			die("mkdir", p);
		fresh_file(p, sizeof(p), dir, i, levels);
		make_file(p);
	}
	return 0;
}

static int miss(const char *dir, int n, int levels)
{
	char (*p)[4096] = malloc((size_t)n * sizeof(*p));
	uint64_t t0;
	int i;

	if (!p || n < 1)
		return 1;
	for (i = 0; i < n; i++)
		fresh_file(p[i], sizeof(p[i]), dir, i, levels);
	t0 = now_ns();
	for (i = 0; i < n; i++)
		open_close(p[i]);
	printf("%llu\n", (unsigned long long)((now_ns() - t0) / n));
	return 0;
}

static int mktree(const char *dir, int nfiles)
{
	char p[4096];
	int i;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		die("mkdir", dir);
	for (i = 0; i < nfiles; i++) {
		if (i % 100 == 0) {
			snprintf(p, sizeof(p), "%s/%d", dir, i / 100);
			if (mkdir(p, 0755) < 0)
				die("mkdir", p);
		}
		snprintf(p, sizeof(p), "%s/%d/%d", dir, i / 100, i % 100);
		make_file(p);
	}
	return 0;
}

/* ---- launch ---------------------------------------------------------- */

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000u + (uint64_t)tv->tv_usec * 1000u;
}

/*
 * Wall time and CPU time (user + system of the child and every descendant
 * it waited for, from wait4's rusage) of each run.  Under QEMU -icount the
 * CPU time counts the instructions the launch executed; the wall time also
 * counts idle stretches (host I/O, timers), which the guest clock skips
 * to the next timer deadline, so it does not repeat from run to run.
 */
static int launch(int n, char **argv)
{
	uint64_t *wall = calloc(n, sizeof(*wall)), *cpu = calloc(n, sizeof(*cpu));
	uint64_t t0;
	int i, status, failed = 0, devnull;
	int verbose = getenv("OPENBENCH_VERBOSE") != NULL;
	struct rusage ru;
	pid_t pid;

	if (!wall || !cpu || n < 1)
		return 1;
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (devnull < 0)
		return die("open", "/dev/null");
	for (i = 0; i < n; i++) {
		fflush(NULL);
		t0 = now_ns();
		pid = fork();
		if (pid < 0)
			return die("fork", NULL);
		if (pid == 0) {
			dup2(devnull, 1);
			dup2(devnull, 2);
			execvp(argv[0], argv);
			_exit(127);
		}
		if (wait4(pid, &status, 0, &ru) < 0)
			return die("wait4", NULL);
		wall[i] = now_ns() - t0;
		cpu[i] = tv_ns(&ru.ru_utime) + tv_ns(&ru.ru_stime);
		if (verbose)
			fprintf(stderr, "launch %d: wall %llu cpu %llu\n", i,
				(unsigned long long)wall[i], (unsigned long long)cpu[i]);
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed++;
	}
	printf("%llu %d %llu\n", (unsigned long long)median(wall, n), failed,
	       (unsigned long long)median(cpu, n));
	return 0;
}

/* ---- marks and map entries ---------------------------------------------- */

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static int pin_open(const char *path)
{
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.pathname = (uint64_t)(uintptr_t)path;
	fd = (int)sys_bpf(BPF_OBJ_GET, &a);
	if (fd < 0)
		die("bpf obj get", path);
	return fd;
}

static int obj_get(const char *dir, const char *name)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return pin_open(p);
}

static void map_info(int fd, struct bpf_map_info *info, const char *what)
{
	union bpf_attr a;

	memset(info, 0, sizeof(*info));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = fd;
	a.info.info_len = sizeof(*info);
	a.info.info = (uint64_t)(uintptr_t)info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a) < 0)
		die("bpf obj info", what);
}

static int map_lookup(int map, const void *key, void *value)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = map;
	a.key = (uint64_t)(uintptr_t)key;
	a.value = (uint64_t)(uintptr_t)value;
	return (int)sys_bpf(BPF_MAP_LOOKUP_ELEM, &a);
}

/* bpf/maps.h: struct mark_key and struct mark (kept in step by hand;
 * checked by size) */
#define MARK_SLOTS 4
struct mark_key {
	uint64_t inode, ino;
	uint32_t dev, generation;
};
struct mark_slot {
	uint64_t domain, mnt, generation;
	uint32_t access, reserved;
};
struct mark {
	uint32_t lock, reserved;
	uint64_t owner, stores;
	struct mark_key id;
	struct mark_slot slot[MARK_SLOTS];
};

static int marks_fd, domains_fd;
static uint64_t generation;
static unsigned long n_dirs, n_marked, n_slots, n_live, n_current, n_entries;
static ino_t *dir_inos;
static size_t n_inos, cap_inos;

static int note_dir(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)path;
	(void)ftw;
	if (flag != FTW_D)
		return 0;
	n_dirs++;
	if (n_inos == cap_inos) {
		cap_inos = cap_inos ? 2 * cap_inos : 1024;
		dir_inos = realloc(dir_inos, cap_inos * sizeof(*dir_inos));
		if (!dir_inos)
			return die("realloc", "directory list");
	}
	dir_inos[n_inos++] = st->st_ino;
	return 0;
}

static int cmp_ino(const void *a, const void *b)
{
	ino_t x = *(const ino_t *)a, y = *(const ino_t *)b;

	return x < y ? -1 : x > y;
}

/* Calls @fn on every entry of the marks map, whose value size it checks. */
static int each_mark(void (*fn)(const struct mark_key *, const struct mark *))
{
	struct bpf_map_info info;
	struct mark_key key, next;
	struct mark m;
	union bpf_attr a;
	int first = 1;

	map_info(marks_fd, &info, "marks");
	if (info.key_size != sizeof(key) || info.value_size != sizeof(m)) {
		fprintf(stderr, "openbench: marks key/value are %u/%u bytes, "
			"expected %zu/%zu (struct mark changed in bpf/maps.h?)\n",
			info.key_size, info.value_size, sizeof(key), sizeof(m));
		return 1;
	}
	for (;;) {
		memset(&a, 0, sizeof(a));
		a.map_fd = marks_fd;
		a.key = first ? 0 : (uint64_t)(uintptr_t)&key;
		a.next_key = (uint64_t)(uintptr_t)&next;
		if (sys_bpf(BPF_MAP_GET_NEXT_KEY, &a) < 0)
			break;
		first = 0;
		key = next;
		if (map_lookup(marks_fd, &key, &m) == 0)
			fn(&key, &m);
		else if (errno != ENOENT)
			return die("lookup", "a mark");
	}
	if (errno != ENOENT)
		return die("iterate", "marks");
	return 0;
}

static void count_mark(const struct mark_key *key, const struct mark *m)
{
	uint8_t dom[256];
	ino_t ino = key->ino;

	n_entries++;
	if (!bsearch(&ino, dir_inos, n_inos, sizeof(*dir_inos), cmp_ino))
		return;
	n_marked++;
	for (int i = 0; i < MARK_SLOTS; i++) {
		if (!m->slot[i].domain)
			continue;
		n_slots++;
		if (map_lookup(domains_fd, &m->slot[i].domain, dom) == 0)
			n_live++;
		if (m->slot[i].generation == generation)
			n_current++;
	}
}

static void print_mark(const struct mark_key *key, const struct mark *m)
{
	printf("inode 0x%llx ino %llu dev %u gen %u id %s owner 0x%llx slots",
	       (unsigned long long)key->inode, (unsigned long long)key->ino,
	       key->dev, key->generation,
	       memcmp(&m->id, key, sizeof(*key)) ? "stale" : "ok",
	       (unsigned long long)m->owner);
	for (int i = 0; i < MARK_SLOTS; i++)
		if (m->slot[i].domain)
			printf(" 0x%llx:0x%x", (unsigned long long)m->slot[i].domain,
			       m->slot[i].access);
	printf("\n");
}

static int open_marks(const char *pindir)
{
	uint32_t zero = 0;
	int topo;

	marks_fd = obj_get(pindir, "marks");
	domains_fd = obj_get(pindir, "domains");
	topo = obj_get(pindir, "topology");
	if (map_lookup(topo, &zero, &generation) < 0)
		return die("lookup", "topology");
	close(topo);
	return 0;
}

/*
 * marks PINDIR DIR...: the marks map is keyed by inode (address, number,
 * generation, device); an entry counts for a directory under the DIRs if
 * its inode number is one of theirs.
 */
static int marks(const char *pindir, char **dirs, int n)
{
	int i;

	if (open_marks(pindir))
		return 1;
	for (i = 0; i < n; i++)
		if (nftw(dirs[i], note_dir, 64, FTW_PHYS | FTW_MOUNT) < 0)
			return die("walk", dirs[i]);
	qsort(dir_inos, n_inos, sizeof(*dir_inos), cmp_ino);
	if (each_mark(count_mark))
		return 1;
	printf("dirs %lu marked %lu slots %lu live %lu current %lu entries %lu\n",
	       n_dirs, n_marked, n_slots, n_live, n_current, n_entries);
	return 0;
}

/* marks-dump PINDIR: every entry, one line each (for the marks suite). */
static int marks_dump(const char *pindir)
{
	if (open_marks(pindir))
		return 1;
	return each_mark(print_mark);
}

static unsigned long map_entries(const char *pin)
{
	union bpf_attr a;
	uint8_t key[256], next[256];
	unsigned long entries = 0;
	int fd = pin_open(pin);

	memset(&a, 0, sizeof(a));
	a.map_fd = fd;
	a.key = 0;	/* first key */
	a.next_key = (uint64_t)(uintptr_t)next;
	while (sys_bpf(BPF_MAP_GET_NEXT_KEY, &a) == 0) {
		entries++;
		memcpy(key, next, sizeof(key));
		a.key = (uint64_t)(uintptr_t)key;
	}
	if (errno != ENOENT)
		die("iterate", pin);
	close(fd);
	return entries;
}

static int count(char **pins, int n)
{
	for (int i = 0; i < n; i++)
		printf("%lu\n", map_entries(pins[i]));
	return 0;
}

/*
 * Exited sandboxes' domains go when the kernel frees their last task,
 * after an RCU grace period: wait until PIN is empty, polling every
 * 100 ms for at most SECONDS.  0 if it emptied, else 1 with the count.
 */
static int settle(const char *pin, int seconds)
{
	const struct timespec nap = { .tv_nsec = 100 * 1000 * 1000 };
	unsigned long left = map_entries(pin);

	for (int i = 0; left && i < seconds * 10; i++) {
		nanosleep(&nap, NULL);
		left = map_entries(pin);
	}
	if (!left)
		return 0;
	fprintf(stderr, "openbench: %s: %lu entries left after %d s\n", pin,
		left, seconds);
	return 1;
}

static const char *err_name(int e)
{
	return !e ? "OK" : e == EACCES ? "EACCES" : e == ENOTTY ? "ENOTTY" :
	       e == EMFILE ? "EMFILE" : strerror(e);
}

/*
 * devfill PATH N: holds up to N descriptors of the device PATH at once,
 * closes them, then opens PATH again and tries a device ioctl (TCGETS).
 * Prints "held K (then ERR) reopen ERR ioctl ERR".  corral remembers every
 * device opened without the ioctl right and has no hook when a file is
 * freed: this is what must not wear that memory out.
 */
static int devfill(const char *path, int n)
{
	struct rlimit rl = { (rlim_t)n + 64, (rlim_t)n + 64 };
	struct termios_probe { char b[64]; } t;
	int *fds, held = 0, first_err = 0, fd, reopen = 0, ioc = 0;

	/* without CAP_SYS_RESOURCE, as many as the hard limit allows */
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0) {
		if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
			return die("getrlimit RLIMIT_NOFILE", path);
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			return die("setrlimit RLIMIT_NOFILE", path);
		if ((rlim_t)n + 64 > rl.rlim_max)
			n = rl.rlim_max > 64 ? (int)rl.rlim_max - 64 : 0;
	}
	fds = calloc((size_t)n, sizeof(*fds));
	if (!fds)
		return die("calloc", path);
	while (held < n) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			first_err = errno;
			break;
		}
		fds[held++] = fd;
	}
	for (int i = 0; i < held; i++)
		close(fds[i]);
	free(fds);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		reopen = errno;
	} else {
		if (ioctl(fd, TCGETS, &t) < 0)
			ioc = errno;
		close(fd);
	}
	printf("held %d (then %s) reopen %s ioctl %s\n", held,
	       first_err ? err_name(first_err) : "-", err_name(reopen),
	       fd < 0 ? "-" : err_name(ioc));
	return 0;
}

/*
 * Fills the pinned hash map PIN with entries until it is full: keys that
 * start with the 64-bit id @domain (corral's rule, index and policy maps
 * all key by domain first) and go on with a counter, values zero.
 */
static int fill(const char *pin, uint64_t domain)
{
	struct bpf_map_info info;
	union bpf_attr a;
	uint8_t key[512] = { 0 }, value[4096] = { 0 };
	unsigned long n;
	int fd = pin_open(pin);

	map_info(fd, &info, pin);
	if (info.key_size < 12 || info.key_size > sizeof(key) ||
	    info.value_size > sizeof(value)) {
		errno = EINVAL;
		die("key or value size of", pin);
	}
	memcpy(key, &domain, sizeof(domain));
	for (n = 0;; n++) {
		uint32_t i = (uint32_t)n;

		memcpy(key + 8, &i, sizeof(i));
		memset(&a, 0, sizeof(a));
		a.map_fd = fd;
		a.key = (uint64_t)(uintptr_t)key;
		a.value = (uint64_t)(uintptr_t)value;
		a.flags = BPF_NOEXIST;
		if (sys_bpf(BPF_MAP_UPDATE_ELEM, &a) < 0)
			break;
	}
	if (errno != E2BIG)
		die("update", pin);
	printf("%lu\n", n);
	close(fd);
	return 0;
}

/* ---- seccomp ---------------------------------------------------------- */

static int under_sandbox_filter(char **argv)
{
	if (seccomp_install_sandbox() < 0)
		exit(1);        /* it said what failed */
	execvp(argv[0], argv);
	die("exec", argv[0]);
	return 1;
}

/* ---- floor ------------------------------------------------------------ */

static void drop_all_capabilities(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2] = { { 0 } };

	if (syscall(SYS_capset, &h, d) < 0)
		die("capset", NULL);
}

static void floor_child(int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	char byte = 1;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	int fd;

	drop_all_capabilities();
	if (seccomp_install_parser() < 0)
		_exit(1);
	fd = open("/usr", O_PATH | O_CLOEXEC);
	if (fd < 0)
		die("open", "/usr");
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	if (sendmsg(sock, &msg, 0) != 1)
		die("sendmsg", NULL);
	_exit(0);
}

static int floor_launch(char **argv)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	int sv[2], status;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return die("socketpair", NULL);
	pid = fork();
	if (pid < 0)
		return die("fork", NULL);
	if (pid == 0) {
		close(sv[0]);
		floor_child(sv[1]);
	}
	close(sv[1]);
	if (recvmsg(sv[0], &msg, MSG_CMSG_CLOEXEC) != 1)
		return die("recvmsg", NULL);
	if (waitpid(pid, &status, 0) < 0 || status)
		return die("waitpid", NULL);
	close(sv[0]);
	drop_all_capabilities();
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0)
		return die("prctl", "PR_CAP_AMBIENT_CLEAR_ALL");
	return under_sandbox_filter(argv);
}

static int usage(void)
{
	fprintf(stderr,
		"usage: openbench open MS SAMPLES PATH...\n"
		"       openbench mkfresh DIR N [LEVELS] | miss DIR N [LEVELS]\n"
		"       openbench mktree DIR NFILES\n"
		"       openbench launch N CMD [ARG...]\n"
		"       openbench marks PINDIR DIR... | marks-dump PINDIR\n"
		"       openbench count PIN...\n"
		"       openbench settle PIN SECONDS\n"
		"       openbench devfill DEVICE N | fill PIN DOMAIN\n"
		"       openbench seccomp CMD [ARG...] | floor CMD [ARG...]\n");
	return 2;
}

/* mkfresh and miss: LEVELS, 1 when absent; 0 if it is neither 1 nor 2 */
static int levels_arg(int argc, char **argv)
{
	if (argc < 5)
		return 1;
	return !strcmp(argv[4], "1") ? 1 : !strcmp(argv[4], "2") ? 2 : 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	if (!strcmp(cmd, "open") && argc >= 5)
		return bench_open(atoi(argv[2]), atoi(argv[3]), argv + 4,
				  argc - 4);
	if (!strcmp(cmd, "mkfresh") && (argc == 4 || argc == 5) &&
	    levels_arg(argc, argv) > 0)
		return mkfresh(argv[2], atoi(argv[3]), levels_arg(argc, argv));
	if (!strcmp(cmd, "miss") && (argc == 4 || argc == 5) &&
	    levels_arg(argc, argv) > 0)
		return miss(argv[2], atoi(argv[3]), levels_arg(argc, argv));
	if (!strcmp(cmd, "mktree") && argc == 4)
		return mktree(argv[2], atoi(argv[3]));
	if (!strcmp(cmd, "launch") && argc >= 4)
		return launch(atoi(argv[2]), argv + 3);
	if (!strcmp(cmd, "marks") && argc >= 4)
		return marks(argv[2], argv + 3, argc - 3);
	if (!strcmp(cmd, "marks-dump") && argc == 3)
		return marks_dump(argv[2]);
	if (!strcmp(cmd, "devfill") && argc == 4)
		return devfill(argv[2], atoi(argv[3]));
	if (!strcmp(cmd, "fill") && argc == 4)
		return fill(argv[2], strtoull(argv[3], NULL, 0));
	if (!strcmp(cmd, "count") && argc >= 3)
		return count(argv + 2, argc - 2);
	if (!strcmp(cmd, "settle") && argc == 4)
		return settle(argv[2], atoi(argv[3]));
	if (!strcmp(cmd, "seccomp") && argc >= 3)
		return under_sandbox_filter(argv + 2);
	if (!strcmp(cmd, "floor") && argc >= 3)
		return floor_launch(argv + 2);
	return usage();
}
