/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * corral_abi.h - the one contract between corral's BPF programs and the
 * launcher: access bits, map keys and map values.  Included by the BPF
 * programs (bpf/, one .bpf.c per concern) and by sandbox/ code; nothing
 * shared across that boundary is defined anywhere else.
 *
 * Bump CORRAL_ABI_VERSION whenever a layout below changes: `corral setup`
 * pins it and the launcher refuses a pinned program set of another version.
 */
#ifndef CORRAL_ABI_H
#define CORRAL_ABI_H

#ifdef __bpf__
/* The BPF side gets __u32 and friends from its kernel-types header. */
#else
#include <linux/types.h>
#endif

#define CORRAL_ABI_VERSION 19

/* Access rights, Landlock's names and meaning (DESIGN.md section 2). */
enum corral_access {
	CORRAL_ACCESS_READ     = 1u << 0, /* open a file for reading */
	CORRAL_ACCESS_READDIR  = 1u << 1, /* open (list) a directory */
	CORRAL_ACCESS_WRITE    = 1u << 2, /* open a file for writing */
	CORRAL_ACCESS_EXEC     = 1u << 3, /* execve, binfmt interpreter, ld.so */
	CORRAL_ACCESS_TRUNCATE = 1u << 4, /* truncate(2), O_TRUNC, ftruncate */
	CORRAL_ACCESS_CREATE   = 1u << 5, /* make any entry in a directory */
	CORRAL_ACCESS_REMOVE   = 1u << 6, /* unlink or rmdir in a directory */
	CORRAL_ACCESS_REFER    = 1u << 7, /* link/rename into another dir */
	CORRAL_ACCESS_IOCTL    = 1u << 8, /* ioctl on char/block devices */
	CORRAL_ACCESS_CONNECT_UNIX = 1u << 9, /* connect or send to a named
					       * unix socket made outside */
};

#define CORRAL_ACCESS_ALL   0x3ffu
/* Rights that mean something on a file; a rule on a file keeps only these. */
#define CORRAL_ACCESS_FILE  (CORRAL_ACCESS_READ | CORRAL_ACCESS_WRITE | \
			     CORRAL_ACCESS_EXEC | CORRAL_ACCESS_TRUNCATE | \
			     CORRAL_ACCESS_IOCTL | CORRAL_ACCESS_CONNECT_UNIX)

/*
 * Rules: the truth.  Hash map "rules", key struct corral_rule_key, value
 * struct corral_rule.  The key names an inode as the kernel sees it
 * (inode->i_sb->s_dev, i_ino, i_generation), which is not always what
 * stat(2) reports (overlayfs, btrfs subvolumes), so the launcher never
 * builds keys itself: it registers an O_PATH fd and the BPF side derives
 * the key (see struct corral_register).
 *
 * (s_dev, i_ino, i_generation) names one file only where the filesystem
 * keeps inode numbers unique and stable: ext2/3/4, xfs, f2fs and tmpfs.
 * Elsewhere it does not: an overlayfs over two filesystems without xino
 * gives a directory and a file the same triple (seen: ~ and ~/.bashrc,
 * so a rule on the file granted reads in the directory), and btrfs
 * subvolumes repeat inode numbers under one s_dev.  There the key also
 * holds the address of the in-memory inode, as Landlock's rules do; it
 * is 0 on the filesystems above, so their rules survive the inode being
 * evicted and read back.  Cost of the address: if such an inode is
 * evicted (no open file, cwd or cached child pins it, and memory is
 * short), its rule stops matching and access is denied (fail closed);
 * an address reused by another inode matches only if that inode also
 * has the same i_ino and i_generation.
 *
 * Example: `--rw /home/u/proj` (ext4) in domain 0x5eed...  becomes
 *   { .domain = 0x5eed..., .ino = 1312, .inode = 0, .dev = 0x00800003,
 *     .generation = 77 }
 *   -> { .access = READ|READDIR|WRITE|TRUNCATE|IOCTL|CREATE|REMOVE|REFER }
 * and `--deny /home/u/proj/.env` (a file) adds
 *   { ... .ino = 1400 ... } -> { .deny = READ|WRITE|EXEC|TRUNCATE|IOCTL }
 *
 * Deny rules: the rights on an object are the union of the allows met on
 * the walk from it to the root minus the union of the denies met on it,
 * so a deny wins over an allow at any depth, above or below it.  Unions
 * compose and differences do not (an allow below a deny must not grant
 * back what the deny took), so walks, marks and decisions carry both
 * unions in one word, allows in the low bits and denies from
 * CORRAL_DENY_SHIFT up (corral_rule_word()): OR-ing two words unites
 * both, and corral_rights() is the answer.
 */
struct corral_rule_key {
	__u64 domain;     /* domain id, random, never 0 */
	__u64 ino;        /* inode->i_ino */
	__u64 inode;      /* the inode's address, or 0 (see above) */
	__u32 dev;        /* inode->i_sb->s_dev, kernel encoding */
	__u32 generation; /* inode->i_generation */
};

struct corral_rule {
	__u32 access;     /* enum corral_access bits granted beneath, and
			   * CORRAL_RULE_PINNED */
	__u32 deny;       /* enum corral_access bits denied beneath */
};

/*
 * A deny pins the name (DESIGN.md section 2): in a domain, the entry a
 * deny rule is on, and every directory above it that an allow lets the
 * sandbox remove or rename, may not be removed, renamed away or replaced,
 * else the sandbox would move the protected inode aside and put its own
 * under the protected name.  A deny rule is pinned by being one; the
 * directories above it get a rule of their own with this bit alone (the
 * launcher registers them, sandbox/engine_bpf.c).  It is no right: a
 * walk's word never sees it (rule_word()).
 */
#define CORRAL_RULE_PINNED (1u << 12)

/*
 * A name rule denies making an entry of one name in one directory: how a
 * protected path that does not exist yet (a missing ~/.zshrc under
 * rw = ~) is kept from being created, where a rule on an inode cannot
 * be (there is none).  Its key is the directory's, with ino replaced by
 * a hash of the directory's (s_dev, i_ino, i_generation) and the name
 * (NUL-padded to CORRAL_NAME_LEN), and inode set to
 * CORRAL_NAME_RULE_INODE, which no inode's key has (0 or an aligned
 * address): a name rule never matches an inode, and two names that hash
 * alike only deny more.  It holds deny bits only; the create hooks
 * (mknod, open O_CREAT, mkdir, symlink, link, rename onto a new name)
 * look it up in domains with denies.
 */
#define CORRAL_NAME_LEN        16
#define CORRAL_NAME_RULE_INODE (~0ULL)

#define CORRAL_DENY_SHIFT 16

static inline __u32 corral_rule_word(__u32 access, __u32 deny)
{
	return access | deny << CORRAL_DENY_SHIFT;
}

/* The rights a word of unions grants: allowed and not denied. */
static inline __u32 corral_rights(__u32 word)
{
	return word & ~(word >> CORRAL_DENY_SHIFT) & CORRAL_ACCESS_ALL;
}

/*
 * Rule index: hash maps "domain_rules", key struct corral_rule_index, value
 * the struct corral_rule_key of the domain's i-th rule, and
 * "domain_nrules", key __u64 domain id, value __u32 how many.  Written by
 * the BPF side at registration; when a domain's last task is freed the
 * BPF side deletes its rules and index entries, so no map scan is needed.
 * A domain the launcher abandons before entering it (or a launcher killed
 * then) never reaches that point: the launcher deletes what is left of
 * dead domains (sandbox/engine_bpf.c).
 */
struct corral_rule_index {
	__u64 domain;
	__u32 i;
	__u32 reserved;   /* 0 */
};

/*
 * Domains: hash map "domains", key __u64 domain id, value struct
 * corral_domain.  A domain lives while tasks carry it: task_alloc counts
 * up, task_free counts down and deletes the entry at zero.  The launcher
 * inserts it with tasks = 1, standing for itself, after writing the
 * domain id and the same launch nonce into its task_register slot: if
 * it dies before entering the domain, its task_free finds the slot, sees
 * the nonce match and counts the domain down, so a killed launcher's
 * domain and rules go with it (the nonce keeps a slot that names another
 * launch's domain, after a failed BPF_NOEXIST insert, from touching it).
 *
 * denied_creds counts the domain's entries in open_denied (maps.h), each
 * domain at most CORRAL_DENIED_CREDS_PER_DOMAIN, so that no sandbox can
 * fill that map for the others.
 *
 * Example: { .tasks = 3, .created_ns = 81234567890, .uid = 1000,
 *            .nonce = 0x9c1f..., .denied_creds = 2 }
 */
struct corral_domain {
	__s64 tasks;      /* live tasks carrying the domain */
	__u64 created_ns; /* CLOCK_MONOTONIC (bpf_ktime_get_ns) at creation */
	__u32 uid;        /* real uid of the launcher that made it */
	__u32 flags;      /* CORRAL_DOMAIN_* */
	__u64 nonce;      /* random, per launch: see struct corral_register */
	__s64 denied_creds; /* entries charged in open_denied */
	__s64 ipc_objects;  /* SysV IPC objects made, charged in ipc_owner */
	__s64 creds;        /* credentials carrying it, charged in cred_domain */
};

/*
 * Task storage "task_domain": value struct corral_task on every task that
 * is sandboxed.  No entry means "nobody is watching": every hook returns 0.
 */
/* 20 tags keep struct corral_task, which every hook may copy to its stack
 * (task_dom_of()), within 6.18's 512 bytes for path_rename and the global
 * function it calls. */
#define CORRAL_FILE_TAGS 20

struct corral_task {
	__u64 domain;     /* domain id */
	__u32 flags;      /* CORRAL_TASK_* */
	__u32 reserved;
	__u64 rule_inos;  /* corral_ino_bit() of every rule's inode */
	/* corral_file_tag() of every rule's inode that is not a directory,
	 * ascending, then 0xffff: valid with CORRAL_TASK_FILE_TAGS */
	__u16 file_tags[CORRAL_FILE_TAGS];
};

/*
 * A filter on the rules' inode numbers, so that a decision looks a rule
 * up only where one may exist: one bit of 64 per rule, from the inode
 * number the kernel sees (set by the registration hook, gathered by the
 * launcher).  A clear bit proves there is no rule on the inode (the rule
 * key holds its number); a set one means "look it up".  A walk step then
 * reads two fields instead of five and skips the hash lookup, and opening
 * a file in a domain with file rules skips its second lookup (bench
 * (c) and (g), tests/bench/RESULTS.md).
 */
static inline __u64 corral_ino_bit(__u64 ino)
{
	return 1ull << ((ino * 0x9E3779B97F4A7C15ull) >> 58);
}

/*
 * A file's own rule is looked up only where both the filter above and
 * the domain's sorted list of these 16-bit tags allow one: with 20 rules
 * on files, the filter alone let one file in four through to a hash
 * lookup on every open (bench (b-deny) "clash", tests/bench/RESULTS.md);
 * with the tags, about one in 11,000 files (a 22-bit fingerprint).
 */
static inline __u16 corral_file_tag(__u64 ino)
{
	return ((ino ^ (ino >> 29)) * 0xBF58476D1CE4E5B9ull) >> 48;
}

/* The domain has rules on non-directories: look up a file's own rule. */
#define CORRAL_TASK_FILE_RULES (1u << 0)
/* Audit only (corral learn): record what would be denied, deny nothing. */
#define CORRAL_TASK_AUDIT      (1u << 1)
/* exec-anonymous = yes: memfd and other internal files may be executed. */
#define CORRAL_TASK_EXEC_ANON  (1u << 2)
/* unix-connect = allow: unix sockets are not scoped or path-checked. */
#define CORRAL_TASK_UNIX_ANY   (1u << 3)
/* net = rules|none: IP sockets judged by the domain's entry in "net_policy".
 * Without it the network hooks return after the task lookup. */
#define CORRAL_TASK_NET        (1u << 4)
/* The domain has deny rules: a walk goes on to the root even once its
 * allows cover what is asked, as a deny above may take some back. */
#define CORRAL_TASK_DENY       (1u << 5)
/* file_tags lists every rule of the domain on a non-directory (at most
 * CORRAL_FILE_TAGS): a file whose tag is not there has no rule. */
#define CORRAL_TASK_FILE_TAGS  (1u << 7)
/* A watcher reads the domain's denials (--log).  Only a watched or an
 * audit domain emits events: the ring buffer is read by no one else, so
 * an unwatched sandbox's denials would only cost a name walk each and
 * fill the ring that a watched one needs. */
#define CORRAL_TASK_WATCHED    (1u << 6)
/* userns = yes: the sandbox may make user namespaces (bubblewrap,
 * Chromium's own sandbox).  Without it userns_create is refused: most
 * escapes start by gaining capabilities in a namespace of one's own. */
#define CORRAL_TASK_USERNS     (1u << 8)
/* sysv-ipc = yes: on the Landlock engine, the command may use SysV IPC
 * (unscoped: Landlock cannot tell its own objects from others'); without
 * it every SysV IPC call is refused there (seccomp).  The BPF programs
 * never read it: their ipc hooks scope IPC to the sandbox either way. */
#define CORRAL_TASK_SYSV_IPC   (1u << 9)

/*
 * Network rules: hash map "net_policy", key __u64 domain id, value struct
 * corral_net_policy, written once by the launcher before it enters the
 * domain and deleted with the domain.  A domain with CORRAL_TASK_NET and no
 * entry is denied every IP bind, connect and send (fail closed).
 *
 * An access {op, address, port} is allowed iff some rule has the op bit,
 * the port within [port_lo, port_hi] and, unless family is 0 (any
 * address), the same family and (address & mask) == addr.  IPv4-mapped
 * IPv6 addresses (::ffff:a.b.c.d) are judged as the IPv4 address.
 *
 * Example: `connect-tcp = 127.0.0.0/8:5432` becomes
 *   { .addr = { 0x0000007f }, .mask = { 0x000000ff }, .port_lo = 5432,
 *     .port_hi = 5432, .ops = CORRAL_NET_CONNECT_TCP, .family = 4 }
 * and `bind-udp = 0` (any address, an ephemeral port) becomes
 *   { .ops = CORRAL_NET_BIND_UDP, .family = 0, .port_lo = 0, .port_hi = 0 }
 */
enum corral_net_op {
	CORRAL_NET_CONNECT_TCP = 1u << 0, /* connect(2), TCP fast open */
	CORRAL_NET_BIND_TCP    = 1u << 1, /* bind(2) of a TCP socket */
	CORRAL_NET_CONNECT_UDP = 1u << 2, /* connect(2), sendto/sendmsg to */
	CORRAL_NET_BIND_UDP    = 1u << 3, /* bind(2) of a UDP socket */
};

#define CORRAL_NET_ALL 0xfu
#define CORRAL_MAX_NET_RULES 64

struct corral_net_rule {
	__u32 addr[4];    /* network byte order; IPv4 in addr[0] */
	__u32 mask[4];    /* network byte order; prefix bits set */
	__u16 port_lo;    /* host byte order, inclusive */
	__u16 port_hi;
	__u8 ops;         /* enum corral_net_op bits */
	__u8 family;      /* 0 any address, 4 IPv4, 6 IPv6 */
	__u16 reserved;   /* 0 */
};

struct corral_net_policy {
	__u32 n_rules;    /* valid entries in rule; 0 = net = none */
	__u32 reserved;
	struct corral_net_rule rule[CORRAL_MAX_NET_RULES];
};

/*
 * Ring buffer "events": one struct corral_event per denial (or, in an
 * audit domain, per access that would have been denied).  The path is
 * given as names from the object up, as the BPF side reads them from
 * dentries; the reader joins them in reverse.
 *
 * Example: cat reading /home/u/.ssh/id_rsa in domain 0x5eed... gives
 *   { .domain = 0x5eed..., .pid = 4242, .access = CORRAL_ACCESS_READ,
 *     .hook = CORRAL_HOOK_OPEN, .error = -13, .n_names = 4,
 *     .comm = "cat", .names = { "id_rsa", ".ssh", "u", "home" } }
 */
enum corral_hook {
	CORRAL_HOOK_OPEN = 1,
	CORRAL_HOOK_TRUNCATE,
	CORRAL_HOOK_CREATE,
	CORRAL_HOOK_REMOVE,
	CORRAL_HOOK_LINK,
	CORRAL_HOOK_RENAME,
	CORRAL_HOOK_IOCTL,
	CORRAL_HOOK_MOUNT,
	CORRAL_HOOK_PTRACE,     /* ptrace, /proc/PID/mem, process_vm_* */
	CORRAL_HOOK_SIGNAL,     /* kill(2) and friends */
	CORRAL_HOOK_CONNECT,    /* unix socket connect or send */
	CORRAL_HOOK_BPF,        /* bpf(2) */
	CORRAL_HOOK_NET,        /* IP bind/connect/send: access = op bit */
	CORRAL_HOOK_SOCKET,     /* a raw, packet, SCTP... socket refused */
	CORRAL_HOOK_ROUTE,      /* a source route: net.protocol = level,
				 * net.port = option or ancillary type */
	CORRAL_HOOK_LIMITS,     /* another task's rlimits, nice, I/O
				 * priority, scheduling or memory policy */
	CORRAL_HOOK_IPC,        /* a SysV IPC object made outside the
				 * domain, or one too many made inside */
	CORRAL_HOOK_USERNS,     /* a user namespace, without userns = yes */
	CORRAL_HOOK_MAX = CORRAL_HOOK_USERNS,
};

#define CORRAL_EVENT_NAMES    24  /* path components kept, leaf first */
#define CORRAL_EVENT_NAME_LEN 64  /* bytes per component, NUL included */
#define CORRAL_EVENT_TRUNCATED (1u << 0)  /* more components above */
/* names[0] is the entry being created or removed in the directory the
 * rights were missing on (names[1...]): what --log names. */
#define CORRAL_EVENT_CHILD     (1u << 1)

/*
 * CORRAL_HOOK_NET and CORRAL_HOOK_SOCKET events carry this instead of
 * names.  Example: curl connecting to 93.184.216.34:80 gives
 *   { .family = 4, .port = 80, .addr = { 93, 184, 216, 34 } }
 * with .access = CORRAL_NET_CONNECT_TCP; a refused socket(2) gives
 *   { .family = 0, .socket_family = 17 (AF_PACKET), .socket_type = 3, ... }
 */
struct corral_event_net {
	__u8 family;        /* 4, 6 (mapped addresses as 4), 0 for sockets */
	__u8 reserved;
	__u16 port;         /* host byte order */
	__u16 socket_family; /* AF_* of the socket */
	__u16 socket_type;  /* SOCK_* */
	__u32 protocol;     /* IPPROTO_* asked for */
	__u8 addr[16];
};

struct corral_event {
	__u64 domain;
	__u64 time_ns;      /* bpf_ktime_get_ns() */
	__u32 pid;          /* thread group id */
	__u32 access;       /* the rights missing (enum corral_access) */
	__u32 hook;         /* enum corral_hook */
	__s32 error;        /* -EACCES, -EXDEV, -EPERM */
	__u32 n_names;      /* valid entries in names */
	__u32 flags;        /* CORRAL_EVENT_* */
	char comm[16];
	union {
		char names[CORRAL_EVENT_NAMES][CORRAL_EVENT_NAME_LEN];
		struct corral_event_net net;  /* CORRAL_HOOK_NET, _SOCKET */
	};
};

/* Size of the "events" ring buffer: a power of two, in bytes. */
#define CORRAL_EVENTS_BYTES (1u << 20)

/*
 * Task storage "task_register": the launcher's channel for turning an
 * O_PATH fd into a rule key.  It writes { domain, access, deny, PENDING } on its
 * own task (pidfd key), calls fstatfs(fd); the sb_statfs hook derives the
 * key from the fd's inode (overlayfs then statfs()es its real layer: that
 * nested call finds the request done and changes nothing), merges the rule and sets status to DONE or to a
 * negative errno (-ENOSPC: the rules map is full; -EDQUOT: the user's
 * share of it, CORRAL_RULES_PER_UID, is spent); the launcher reads the
 * status back and fails closed on anything but DONE.
 */
enum corral_register_status {
	CORRAL_REGISTER_IDLE    = 0,  /* no request: the launch is being built */
	CORRAL_REGISTER_PENDING = 1,
	CORRAL_REGISTER_DONE    = 2,
};

struct corral_register {
	__u64 domain;
	__u32 access;     /* rights to add on the inode */
	__s32 status;     /* enum corral_register_status or -errno */
	__u64 ino_bit;    /* set with DONE: corral_ino_bit() of the inode */
	__u32 file_tag;   /* and, if not a directory, corral_file_tag() + 1,
			   * else 0 */
	__u32 reserved2;  /* 0 */
	__u64 nonce;      /* the domain's, while the launcher has not entered */
	__u32 deny;       /* rights to deny on the inode (deny rules) */
	__u32 reserved;   /* 0 */
	/* a name rule: the entry of this name in the fd's directory (deny
	 * only), NUL-padded; all NUL for a rule on the fd's inode */
	char name[CORRAL_NAME_LEN];
};

/* Read-only data "abi_version" in the object, pinned as map "info". */
struct corral_info {
	__u32 abi_version; /* CORRAL_ABI_VERSION of the loaded programs */
	__u32 reserved;
};

/* Map capacities, fixed before load. */
#define CORRAL_MAX_RULES   65536
#define CORRAL_MAX_DOMAINS 4096
/* Rules the live domains of one user (the launcher's real uid) may hold:
 * a quarter of the map, so that no user's sandboxes can fill it for the
 * others.  Past it a rule's registration ends in -EDQUOT. */
#define CORRAL_RULES_PER_UID (CORRAL_MAX_RULES / 4)
/* Sandboxed credentials (about one per process) that opened a device
 * without the ioctl right or a file for writing without the truncate
 * right, at once, per domain; the map holds every domain's share. */
#define CORRAL_DENIED_CREDS_PER_DOMAIN 64
#define CORRAL_MAX_DENIED_CREDS (CORRAL_MAX_DOMAINS * CORRAL_DENIED_CREDS_PER_DOMAIN)
/* ...and to the real uid of the launcher that made the domain, at most a
 * sixteenth of the map: the entries a domain leaves behind (credentials
 * kept alive by descriptors it handed out) stay charged to its user. */
#define CORRAL_DENIED_CREDS_PER_UID (CORRAL_MAX_DENIED_CREDS / 16)
/* SysV IPC objects (shared memory segments, message queues, semaphore
 * sets) a domain may have made and not yet removed; the map holds every
 * domain's share and, for objects that outlive their domain, the most one
 * IPC namespace can hold (IPCMNI of each of the three kinds). */
#define CORRAL_IPC_PER_DOMAIN 64
#define CORRAL_MAX_IPC_OBJECTS \
	(CORRAL_MAX_DOMAINS * CORRAL_IPC_PER_DOMAIN + 3 * 32768)
/* Credentials that carry a domain (cred_domain): about one per live
 * process of a sandbox, plus those its open files keep alive.  Each domain
 * may hold CORRAL_CREDS_PER_DOMAIN, each user a sixteenth of the map. */
#define CORRAL_MAX_CREDS          131072
#define CORRAL_CREDS_PER_DOMAIN   4096
#define CORRAL_CREDS_PER_UID      (CORRAL_MAX_CREDS / 16)
/* Longest walk from an object to the root, mounts included; deny past it. */
#define CORRAL_MAX_DEPTH   512

#ifndef __bpf__
_Static_assert(sizeof(struct corral_rule_key) == 32, "rule key layout");
_Static_assert(sizeof(struct corral_rule) == 8, "rule layout");
_Static_assert(sizeof(struct corral_rule_index) == 16, "rule index layout");
_Static_assert(sizeof(struct corral_domain) == 56, "domain layout");
_Static_assert(sizeof(struct corral_task) == 64, "task layout");
_Static_assert(sizeof(struct corral_register) == 64, "register layout");
_Static_assert(sizeof(struct corral_event) ==
	       56 + CORRAL_EVENT_NAMES * CORRAL_EVENT_NAME_LEN, "event layout");
_Static_assert(sizeof(struct corral_net_rule) == 40, "net rule layout");
_Static_assert(sizeof(struct corral_net_policy) ==
	       8 + 40 * CORRAL_MAX_NET_RULES, "net policy layout");
_Static_assert(sizeof(struct corral_event_net) == 28, "net event layout");
_Static_assert(CORRAL_NET_ALL == ((CORRAL_NET_BIND_UDP << 1) - 1),
	       "CORRAL_NET_ALL covers every op");
_Static_assert(CORRAL_ACCESS_ALL == ((CORRAL_ACCESS_CONNECT_UNIX << 1) - 1),
	       "CORRAL_ACCESS_ALL covers every right");
_Static_assert(!(CORRAL_RULE_PINNED & CORRAL_ACCESS_ALL) &&
	       CORRAL_RULE_PINNED < (1u << CORRAL_DENY_SHIFT),
	       "the pin is no right and no deny");
_Static_assert(CORRAL_ACCESS_ALL < (1u << CORRAL_DENY_SHIFT) &&
	       (CORRAL_ACCESS_ALL << CORRAL_DENY_SHIFT) < (1u << 31),
	       "a rule word holds both unions and is never negative as a long");
#endif

#endif /* CORRAL_ABI_H */
