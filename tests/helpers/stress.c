/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stress: the rename stress test of the marks suite, as one static binary.
 *
 *   stress mover SHM INSIDE OUTSIDE SECONDS
 *       unsandboxed: rename the directory INSIDE to OUTSIDE and back, in a
 *       loop, until a reader says stop (or 3 x SECONDS have passed).
 *   stress readers SHM DIR SECONDS NPROC FILE...
 *       sandboxed: NPROC processes open DIR/FILE (for each FILE in turn,
 *       relative to an O_PATH descriptor of the moving directory, so the
 *       open goes through the directory wherever it is) for SECONDS.
 *
 * SHM is a file both sides map.  The mover publishes a sequence number:
 *
 *   seq % 4 == 0   the directory is inside (no rename in progress)
 *   seq % 4 == 1   renaming it out
 *   seq % 4 == 2   it is outside (no rename in progress)
 *   seq % 4 == 3   renaming it in
 *
 * bumped before and after each rename(2).  A reader samples seq before and
 * after each open.  If both samples are equal, nothing moved during the
 * open, and the answer is decidable: inside must be allowed, outside must
 * be denied.  A success with both samples equal and outside is a
 * VIOLATION (a stale mark allowed an access); a denial with both samples
 * equal and inside is a SPURIOUS denial.  Opens that overlapped a rename
 * may go either way and are only counted.
 *
 * readers prints one line
 *   opens N inside_ok N inside_denied N outside_ok N outside_denied N racing N errors N moves N
 * and exits 1 on any violation, spurious denial or unexpected errno.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct shared {
	_Atomic uint64_t seq;
	_Atomic int stop;
	_Atomic uint64_t moves;
	/* per-reader counters, summed by the parent */
	struct counts {
		uint64_t opens, inside_ok, inside_denied, outside_ok,
			outside_denied, racing, errors;
		int last_errno;
	} c[64];
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct shared *map_shared(const char *path, int create)
{
	struct shared *s;
	int fd;

	fd = open(path, O_RDWR | O_CLOEXEC | (create ? O_CREAT | O_TRUNC : 0),
		  0644);
	if (fd < 0) {
		fprintf(stderr, "stress: open %s: %s\n", path, strerror(errno));
		exit(2);
	}
	if (create && ftruncate(fd, sizeof(*s)) < 0) {
		fprintf(stderr, "stress: ftruncate: %s\n", strerror(errno));
		exit(2);
	}
	s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (s == MAP_FAILED) {
		fprintf(stderr, "stress: mmap %s: %s\n", path, strerror(errno));
		exit(2);
	}
	close(fd);
	return s;
}

/*
 * One rename of the directory, seq odd while it runs (moving out or in)
 * and even again after it (outside or inside).  -1 after a message.
 */
static int move(struct shared *s, const char *from, const char *to)
{
	atomic_fetch_add(&s->seq, 1);
	if (rename(from, to) < 0) {
		fprintf(stderr, "stress: rename %s %s: %s\n", from, to,
			strerror(errno));
		return -1;
	}
	atomic_fetch_add(&s->seq, 1);
	return 0;
}

static int mover(char **argv)
{
	struct shared *s = map_shared(argv[0], 1);
	const char *in = argv[1], *out = argv[2];
	double end = now() + 3 * atof(argv[3]);
	struct timespec pause = { 0, 500 * 1000 };	/* 0.5 ms in each state */

	atomic_store(&s->seq, 0);
	while (!atomic_load(&s->stop) && now() < end) {
		if (move(s, in, out) < 0)	/* 1: moving out, 2: outside */
			return 2;
		nanosleep(&pause, NULL);
		if (move(s, out, in) < 0)	/* 3: moving in, 0: inside */
			return 2;
		atomic_fetch_add(&s->moves, 2);
		nanosleep(&pause, NULL);
	}
	printf("moves %llu\n", (unsigned long long)atomic_load(&s->moves));
	return 0;
}

static void reader(struct shared *s, int id, int dirfd, double end,
		   char **files, int nfiles)
{
	struct counts *c = &s->c[id];
	uint64_t a, b;
	int fd, i = 0;

	while (now() < end) {
		const char *f = files[i++ % nfiles];

		a = atomic_load(&s->seq);
		fd = openat(dirfd, f, O_RDONLY | O_CLOEXEC);
		b = atomic_load(&s->seq);
		c->opens++;
		if (fd >= 0)
			close(fd);
		else if (errno != EACCES) {
			c->errors++;
			c->last_errno = errno;
			continue;
		}
		if (a != b)
			c->racing++;
		else if (a % 4 == 0)
			fd >= 0 ? c->inside_ok++ : c->inside_denied++;
		else if (a % 4 == 2)
			fd >= 0 ? c->outside_ok++ : c->outside_denied++;
		else
			c->racing++;	/* a rename was still in progress */
	}
}

static int readers(char **argv, int argc)
{
	struct shared *s = map_shared(argv[0], 0);
	const char *dir = argv[1];
	double secs = atof(argv[2]), end;
	int n = atoi(argv[3]), i, dirfd, status, bad = 0;
	struct counts t = { 0 };

	if (n < 1 || n > 64 || argc < 5) {
		fprintf(stderr, "stress: bad readers arguments\n");
		return 2;
	}
	/*
	 * O_PATH needs no right; the mover may have the directory outside
	 * right now (ENOENT): try again.
	 */
	for (i = 0; i < 10000; i++) {
		dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (dirfd >= 0 || errno != ENOENT)
			break;
		usleep(100);
	}
	if (dirfd < 0) {
		fprintf(stderr, "stress: open %s: %s\n", dir, strerror(errno));
		return 2;
	}
	end = now() + secs;
	fflush(NULL);
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(stderr, "stress: fork: %s\n", strerror(errno));
			atomic_store(&s->stop, 1);
			return 2;
		}
		if (pid == 0) {
			reader(s, i, dirfd, end, argv + 4, argc - 4);
			_exit(0);
		}
	}
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			bad = 1;
	atomic_store(&s->stop, 1);
	for (i = 0; i < n; i++) {
		t.opens += s->c[i].opens;
		t.inside_ok += s->c[i].inside_ok;
		t.inside_denied += s->c[i].inside_denied;
		t.outside_ok += s->c[i].outside_ok;
		t.outside_denied += s->c[i].outside_denied;
		t.racing += s->c[i].racing;
		t.errors += s->c[i].errors;
		if (s->c[i].last_errno)
			t.last_errno = s->c[i].last_errno;
	}
	printf("opens %llu inside_ok %llu inside_denied %llu outside_ok %llu "
	       "outside_denied %llu racing %llu errors %llu moves %llu\n",
	       (unsigned long long)t.opens, (unsigned long long)t.inside_ok,
	       (unsigned long long)t.inside_denied,
	       (unsigned long long)t.outside_ok,
	       (unsigned long long)t.outside_denied,
	       (unsigned long long)t.racing, (unsigned long long)t.errors,
	       (unsigned long long)atomic_load(&s->moves));
	if (t.errors)
		printf("# unexpected errno %d (%s)\n", t.last_errno,
		       strerror(t.last_errno));
	return bad || t.outside_ok || t.inside_denied || t.errors ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && strcmp(argv[1], "mover") == 0)
		return mover(argv + 2);
	if (argc >= 7 && strcmp(argv[1], "readers") == 0)
		return readers(argv + 2, argc - 2);
	fprintf(stderr,
		"usage: stress mover SHM INSIDE OUTSIDE SECONDS\n"
		"       stress readers SHM DIR SECONDS NPROC FILE...\n");
	return 2;
}
