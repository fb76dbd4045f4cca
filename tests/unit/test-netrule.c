// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests: network rules (sandbox/netrule.c), the [network]
 * section of profiles, the network flags, net = all|none|rules and
 * --print-profile's [network] section.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "expand.h"
#include "netrule.h"
#include "policy.h"
#include "profile.h"
#include "resolve.h"
#include "tap.h"
#include "test-vars.h"

#define ARGV(...) ((char *[]){ "corral", __VA_ARGS__, NULL })
#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

static struct vars vars;
static struct profile_env env = { .vars = &vars };

/* Valid rules: what each reads back as (netrule_format). */
static const struct {
	const char *text;
	const char *back;
	int family;
	int prefix;
	int lo, hi;
} good[] = {
	{ "443", "443", 0, 0, 443, 443 },
	{ "0", "0", 0, 0, 0, 0 },
	{ "65535", "65535", 0, 0, 65535, 65535 },
	{ "8000-8099", "8000-8099", 0, 0, 8000, 8099 },
	{ "*", "*", 0, 0, 0, 65535 },
	{ "0-65535", "*", 0, 0, 0, 65535 },
	{ "127.0.0.1:5432", "127.0.0.1:5432", 4, 32, 5432, 5432 },
	{ "127.0.0.0/8:5432", "127.0.0.0/8:5432", 4, 8, 5432, 5432 },
	{ "0.0.0.0/0:53", "0.0.0.0/0:53", 4, 0, 53, 53 },
	{ "[::1]:8080", "[::1]:8080", 6, 128, 8080, 8080 },
	{ "[fd00::/8]:443", "[fd00::/8]:443", 6, 8, 443, 443 },
	{ "[::ffff:1.2.3.4]:80", "1.2.3.4:80", 4, 32, 80, 80 },
	{ "[::ffff:10.0.0.0/104]:53", "10.0.0.0/8:53", 4, 8, 53, 53 },
	{ "[::]:1-2", "[::]:1-2", 6, 128, 1, 2 },
};

/* An invalid rule or list item, and the exact reason given. */
struct refusal {
	const char *text;
	const char *why;
};

/* The reasons most refusals below give, around the word refused */
#define BAD_PORT(p) "bad port '" p "' (a port is 0 to 65535, a range " \
		    "LOW-HIGH, or * for all)"
#define BAD_HOST(h) "bad host name '" h "' (letters, digits, '-' and " \
		    "'.', e.g. github.com:443)"

static const struct refusal bad[] = {
	{ "65536", BAD_PORT("65536") },
	{ "-1", BAD_PORT("-1") },
	{ "080", BAD_PORT("080") },
	{ "80-", BAD_PORT("80-") },
	{ "9-8", "bad port range '9-8' (write the lower port first)" },
	{ "1.2.3.4:", "no port (write ADDRESS:PORT, or PORT)" },
	{ "1.2.3:80", "bad IPv4 address '1.2.3' (IPv6 goes in brackets: "
		      "[::1]:80)" },
	{ "10.0.0.1/8:1", "'10.0.0.1/8' has bits set past the /8 prefix "
			  "(write the network address)" },
	{ "10.0.0.0/33:1", "bad prefix length '/33' (0 to 32)" },
	{ "[::1/129]:1", "bad prefix length '/129' (0 to 128)" },
	{ "::1:80", "'::1:80': an IPv6 address goes in brackets, e.g. "
		    "[::1]:8080" },
	{ "[::1]", "'[::1]': expected [IPV6]:PORT, e.g. [::1]:8080" },
	{ "[1.2.3.4]:80", "bad IPv6 address '1.2.3.4'" },
};

static void test_parse(void)
{
	for (size_t i = 0; i < N_ELEMS(good); i++) {
		struct policy_net_rule r;
		char why[256] = "", back[96];
		int rc = netrule_parse(good[i].text, CORRAL_NET_CONNECT_TCP,
				       &r, why, sizeof(why));

		TAP_OK(rc == 0 && r.family == good[i].family &&
		       r.prefix_len == good[i].prefix &&
		       r.port_lo == good[i].lo && r.port_hi == good[i].hi &&
		       !strcmp(netrule_format(&r, back, sizeof(back)),
			       good[i].back),
		       "'%s' parses and reads back as '%s' (%s)", good[i].text,
		       good[i].back, rc ? why : netrule_format(&r, back,
							      sizeof(back)));
	}
	for (size_t i = 0; i < N_ELEMS(bad); i++) {
		struct policy_net_rule r;
		char why[256] = "";
		int rc = netrule_parse(bad[i].text, CORRAL_NET_BIND_TCP, &r,
				       why, sizeof(why));

		TAP_OK(rc == -EINVAL && !strcmp(why, bad[i].why),
		       "'%s' is refused: %s", bad[i].text, bad[i].why);
		if (strcmp(why, bad[i].why))
			printf("#   got: %s\n", why);
	}
}

static void test_address_bytes(void)
{
	struct policy_net_rule r;
	char why[128];
	uint8_t v4[4], v6[16];

	inet_pton(AF_INET, "10.0.0.0", v4);
	inet_pton(AF_INET6, "fd00::", v6);
	netrule_parse("[::ffff:10.0.0.0/104]:53", CORRAL_NET_CONNECT_UDP, &r,
		      why, sizeof(why));
	TAP_OK(!memcmp(r.addr, v4, 4) && !r.addr[4] && !r.addr[15] &&
	       r.op == CORRAL_NET_CONNECT_UDP,
	       "a mapped prefix is stored as the IPv4 address, network order");
	netrule_parse("[fd00::/8]:1", CORRAL_NET_BIND_UDP, &r, why,
		      sizeof(why));
	TAP_OK(!memcmp(r.addr, v6, 16), "an IPv6 prefix is stored whole");
}

static void test_resolvers(void)
{
	char path[] = "/tmp/test-netrule-resolv.XXXXXX", addrs[3][48];
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	size_t n;

	if (!f) {
		TAP_OK(0, "mkstemp %s", path);
		return;
	}
	fputs("# comment\nsearch example.org\nnameserver 10.0.0.53\n"
	      "nameserver fe80::1%eth0\nnameserver bogus\n"
	      "nameserver 192.168.1.1\nnameserver 9.9.9.9\n", f);
	fclose(f);
	n = netrule_resolvers(path, addrs, 3);
	TAP_OK(n == 3 && !strcmp(addrs[0], "10.0.0.53") &&
	       !strcmp(addrs[1], "[fe80::1]") &&
	       !strcmp(addrs[2], "192.168.1.1"),
	       "resolvers: the first three valid nameservers, zone ids cut");
	unlink(path);
	n = netrule_resolvers(path, addrs, 3);
	TAP_OK(n == 2 && !strcmp(addrs[0], "127.0.0.1") &&
	       !strcmp(addrs[1], "[::1]"),
	       "resolvers: glibc's defaults when resolv.conf lists none");
}

struct parsed {
	struct policy policy;
	struct profile_result result;
	int r;
};

static struct parsed parse_text(const char *text)
{
	struct parsed p = { 0 };

	p.r = profile_load_buffer(&env, "t.profile", text, strlen(text),
				  &p.policy, &p.result);
	return p;
}

static void parsed_free(struct parsed *p)
{
	policy_free(&p->policy);
	profile_result_free(&p->result);
}

static void expect_error(const char *text, const char *want,
			 const char *name)
{
	struct parsed p = parse_text(text);
	const char *got = p.result.n_errors ? p.result.errors[0] : "none";

	TAP_OK(p.r == -EINVAL && !strcmp(got, want), "%s", name);
	if (strcmp(got, want))
		printf("#   want: %s\n#   got:  %s\n", want, got);
	parsed_free(&p);
}

/* @text sets the network mode @mode (and none keeps no rule) */
static void expect_mode(const char *text, enum policy_net_mode mode,
			const char *name)
{
	struct parsed p = parse_text(text);

	TAP_OK(policy_net_mode(&p.policy) == mode &&
	       (mode != POLICY_NET_NONE || !p.policy.n_net), "%s", name);
	parsed_free(&p);
}

static void test_profile(void)
{
	struct parsed p = parse_text("[network]\n"
				     "connect-tcp = 443, 80\n"
				     "    127.0.0.0/8:5432 ; a comment\n"
				     "bind-udp = 0\n");

	TAP_EQ(0, p.r, "[network] parses");
	TAP_EQ(4, p.policy.n_net, "comma lists and continuation lines");
	TAP_EQ(POLICY_NET_RULES, p.policy.net_mode, "a rule implies rules");
	TAP_OK(!strcmp(p.policy.net_mode_origin, "implied by t.profile:2"),
	       "the implied mode names the first rule (%s)",
	       p.policy.net_mode_origin);
	TAP_OK(!strcmp(p.policy.net_origin[2], "profile t.profile:3") &&
	       p.policy.net[2].port_lo == 5432 &&
	       p.policy.net[3].op == CORRAL_NET_BIND_UDP,
	       "each rule keeps its line and op");
	parsed_free(&p);

	expect_mode("[filesystem]\nro = /usr\n", POLICY_NET_ALL,
		    "no network rule anywhere: net = all");
	expect_mode("[network]\nnet = none\n", POLICY_NET_NONE, "net = none");
	expect_mode("[network]\nconnect-tcp = 1\nnet = all\n", POLICY_NET_ALL,
		    "a later net = all replaces the implied rules");
	expect_error("[network]\nconnect-tcp = 443\nbind-tcp = 70000\n",
		     "t.profile:3: bind-tcp: " BAD_PORT("70000"),
		     "a bad port is an error on its line");
	expect_error("[network]\nconnect-udp = 1.2.3.4:53,\n  fe80::1:53\n",
		     "t.profile:3: connect-udp: 'fe80::1:53': an IPv6 address "
		     "goes in brackets, e.g. [::1]:8080",
		     "a bad address on a continuation line names that line");
	expect_error("[network]\nnet = some\n",
		     "t.profile:2: bad value 'some' for net (use all, none or "
		     "rules)", "a bad net value");
	expect_error("[network]\nconnect-sctp = 1\n",
		     "t.profile:2: unknown key 'connect-sctp' in [network] "
		     "(keys: net, connect-tcp, bind-tcp, connect-udp, "
		     "bind-udp)", "an unknown key lists the keys");
	expect_error("[networks]\nnet = none\n",
		     "t.profile:1: unknown section [networks] (sections: "
		     "[profile], [filesystem], [network], [sandbox], "
		     "[environment])",
		     "an unknown section lists [network]");
	expect_error("[network]\nconnect-tcp = ,\n",
		     "t.profile:2: connect-tcp: no rule (write a port, e.g. 443)",
		     "an empty list");
}

static void test_too_many(void)
{
	char text[4096] = "[network]\n";
	struct parsed p;
	char want[160];

	for (int i = 0; i <= POLICY_MAX_NET_RULES; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			 "connect-tcp = %d\n", i + 1);
	p = parse_text(text);
	snprintf(want, sizeof(want), "t.profile:%d: connect-tcp: more than "
		 "%d network rules (use port ranges or prefixes)",
		 POLICY_MAX_NET_RULES + 2, POLICY_MAX_NET_RULES);
	TAP_OK(p.r == -EINVAL && p.result.n_errors &&
	       !strcmp(p.result.errors[0], want),
	       "rule %d is refused on its line", POLICY_MAX_NET_RULES + 1);
	parsed_free(&p);
}

/*
 * --print-profile's text for @policy: passes @name if it holds @want
 * (else shows all of it).  The caller frees it.
 */
static char *printed(const struct policy *policy,
		     const struct profile_result *res, const char *want,
		     const char *name)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	profile_print(out, policy, res);
	fclose(out);
	TAP_OK(strstr(text, want) != NULL, "%s", name);
	if (!strstr(text, want))
		printf("# %s", text);
	return text;
}

static void test_flags(void)
{
	struct corral_opts o;
	struct profile_result res = { 0 };
	struct parsed q;
	char *text;

	TAP_EQ(0, cli_parse(8, ARGV("--connect-tcp", "443,[::1]:80",
				    "--bind-udp", "0", "--net=none", "--",
				    "x"), &o, stdout),
	       "network flags parse");
	TAP_OK(o.policy.n_net == 3 && o.policy.net_mode == POLICY_NET_NONE,
	       "--net=none after rules sets none");
	cli_free(&o);

	TAP_EQ(-EINVAL, cli_parse(4, ARGV("--bind-tcp", "1.2.3.4", "--",
					  "x"), &o, stdout),
	       "--bind-tcp 1.2.3.4 (no port) is refused");
	cli_free(&o);
	TAP_EQ(-EINVAL, cli_parse(3, ARGV("--net=open", "--", "x"), &o,
				  stdout), "--net=open is refused");
	cli_free(&o);
	TAP_EQ(-EINVAL, cli_parse(4, ARGV("status", "--connect-tcp", "1"),
				  &o, stdout),
	       "a subcommand takes no network rules");
	cli_free(&o);

	cli_parse(6, ARGV("--connect-tcp", "22", "--print-profile",
			  "--bind-tcp", "127.0.0.1:8080-8081"), &o, stdout);
	TAP_EQ(0, cli_load_profiles(&o, &env, &res), "flags merge");
	text = printed(&o.policy, &res, "\n[network]\n"
		       "net = rules                              ; implied by --connect-tcp on the command line\n"
		       "connect-tcp = 22                         ; --connect-tcp on the command line\n"
		       "bind-tcp = 127.0.0.1:8080-8081           ; --bind-tcp on the command line\n",
		       "--print-profile shows [network] with origins");
	q = parse_text(text);
	TAP_OK(q.r == 0 && q.policy.n_net == 2 &&
	       !memcmp(q.policy.net, o.policy.net, 2 * sizeof(*q.policy.net)) &&
	       q.policy.net_mode == POLICY_NET_RULES,
	       "and reads back as the same rules");
	parsed_free(&q);
	free(text);
	cli_free(&o);
	profile_result_free(&res);
}

/* Host-name items in a list: kept as names, with op, ports and '-'. */
static const struct {
	const char *text;
	const char *name;
	int optional;
	int lo, hi;
} hosts[] = {
	{ "localhost:80", "localhost", 0, 80, 80 },
	{ "-nonexistent.invalid:443", "nonexistent.invalid", 1, 443, 443 },
	{ "registry.npmjs.org:8000-8099", "registry.npmjs.org", 0, 8000,
	  8099 },
	{ "ip6-localhost:*", "ip6-localhost", 0, 0, 65535 },
	{ "a1.example:1", "a1.example", 0, 1, 1 },
};

/* Items that look like names but are not valid rules. */
static const struct refusal bad_hosts[] = {
	{ "exa_mple.org:443", BAD_HOST("exa_mple.org") },
	{ "a-.org:1", BAD_HOST("a-.org") },
	{ "a..org:1", BAD_HOST("a..org") },
	{ "localhost:", "no port (write ADDRESS:PORT, or PORT)" },
	{ "localhost:http", BAD_PORT("http") },
	{ "-127.0.0.1:80", "'-127.0.0.1:80': only a host name can be made "
			   "optional with '-'" },
	{ "1.2.3:80", "bad IPv4 address '1.2.3' (IPv6 goes in brackets: "
		      "[::1]:80)" },
	{ "example.123:80", BAD_HOST("example.123") },
};

static void test_host_items(void)
{
	for (size_t i = 0; i < N_ELEMS(hosts); i++) {
		struct policy p = { 0 };
		char why[256] = "";
		int rc = netrule_add_list(&p, CORRAL_NET_CONNECT_TCP,
					  hosts[i].text, "--connect-tcp on the "
					  "command line", why, sizeof(why));
		const struct policy_net_host *h = p.hosts;

		TAP_OK(rc == 0 && p.n_hosts == 1 && !p.n_net &&
		       !strcmp(h->name, hosts[i].name) &&
		       h->optional == hosts[i].optional &&
		       h->rule.op == CORRAL_NET_CONNECT_TCP &&
		       h->rule.port_lo == hosts[i].lo &&
		       h->rule.port_hi == hosts[i].hi && !h->resolved &&
		       p.net_mode == POLICY_NET_RULES,
		       "'%s' is a rule on host '%s', resolved later (%s)",
		       hosts[i].text, hosts[i].name, why);
		policy_free(&p);
	}
	for (size_t i = 0; i < N_ELEMS(bad_hosts); i++) {
		struct policy p = { 0 };
		char why[256] = "";
		int rc = netrule_add_list(&p, CORRAL_NET_BIND_TCP,
					  bad_hosts[i].text, "x", why,
					  sizeof(why));

		TAP_OK(rc == -EINVAL && !p.n_hosts &&
		       !strcmp(why, bad_hosts[i].why),
		       "'%s' is refused: %s", bad_hosts[i].text,
		       bad_hosts[i].why);
		if (strcmp(why, bad_hosts[i].why))
			printf("#   got: %s\n", why);
		policy_free(&p);
	}
}

static bool has_addr(const struct policy_net_rule *r, size_t n, int family,
		     const char *text)
{
	uint8_t want[16] = { 0 };

	inet_pton(family == 6 ? AF_INET6 : AF_INET, text, want);
	for (size_t i = 0; i < n; i++)
		if (r[i].family == family && !memcmp(r[i].addr, want, 16) &&
		    r[i].prefix_len == (family == 6 ? 128 : 32))
			return true;
	return false;
}

static void test_resolve(void)
{
	struct policy_net_rule r[POLICY_MAX_HOST_ADDRS];
	char why[128] = "";
	size_t n = 0;
	int rc = netrule_resolve("localhost", r, POLICY_MAX_HOST_ADDRS, &n,
				 why, sizeof(why));

	TAP_OK(rc == 0 && n >= 1 && has_addr(r, n, 4, "127.0.0.1"),
	       "localhost resolves (/etc/hosts) to 127.0.0.1/32 (%s)", why);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (!memcmp(&r[i], &r[j], sizeof(r[i])))
				TAP_OK(0, "duplicate address %zu, %zu", i, j);
	rc = netrule_resolve("nonexistent.invalid", r, POLICY_MAX_HOST_ADDRS,
			     &n, why, sizeof(why));
	TAP_OK(rc == -ENOENT && n == 0 && why[0],
	       "nonexistent.invalid (RFC 6761) does not resolve: %s", why);
	rc = netrule_resolve("1.2.3", r, POLICY_MAX_HOST_ADDRS, &n, why,
			     sizeof(why));
	TAP_EQ(-EINVAL, rc, "a numeric name is never looked up (no 1.2.0.3)");
}

/*
 * The whole round trip, as the parser and launcher run it: a "launcher"
 * child serves one request (its resolver child drops privileges), the
 * test plays the parser.
 */
static void test_round_trip(void)
{
	struct parsed p = parse_text("[network]\n"
				     "connect-tcp = localhost:5011, 22\n"
				     "bind-udp = -nonexistent.invalid:53\n"
				     "connect-udp = localhost:53\n");
	const struct policy_net_host *full = NULL;
	int sv[2], status;
	pid_t pid;

	TAP_OK(p.r == 0 && p.policy.n_hosts == 3 && p.policy.n_net == 1,
	       "a profile with names parses (3 names, 1 address rule)");
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		TAP_OK(0, "socketpair: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		close(sv[1]);
		_exit(resolve_serve(sv[0]) == 1 ? 0 : 1);
	}
	close(sv[0]);
	TAP_EQ(0, resolve_hosts(sv[1], &p.policy), "resolve_hosts answers");
	close(sv[1]);
	TAP_OK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       !WEXITSTATUS(status), "the launcher side served one request");
	TAP_OK(p.policy.hosts[0].resolved && !p.policy.hosts[0].error &&
	       has_addr(p.policy.hosts[0].addrs, p.policy.hosts[0].n_addrs, 4,
			"127.0.0.1") &&
	       p.policy.hosts[0].addrs[0].port_lo == 5011 &&
	       p.policy.hosts[0].addrs[0].op == CORRAL_NET_CONNECT_TCP,
	       "localhost:5011 became 127.0.0.1:5011 (and its other addresses)");
	TAP_OK(p.policy.hosts[1].resolved && p.policy.hosts[1].error &&
	       !p.policy.hosts[1].n_addrs,
	       "the optional name did not resolve (%s)",
	       p.policy.hosts[1].error ? p.policy.hosts[1].error : "?");
	TAP_EQ(0, netrule_hosts_check(&p.policy),
	       "an optional name that does not resolve is no error");
	TAP_EQ(0, policy_add_host_addrs(&p.policy, &full),
	       "the addresses become rules");
	TAP_OK(p.policy.n_net == 1 + 2 * p.policy.hosts[0].n_addrs &&
	       p.policy.net[1].port_lo == 5011 &&
	       !strcmp(p.policy.net_origin[1], "profile t.profile:2") &&
	       p.policy.net[p.policy.n_net - 1].op == CORRAL_NET_CONNECT_UDP,
	       "one rule per address, each with the name's line and op");
	parsed_free(&p);
}

static void test_unresolved_error(void)
{
	struct parsed p = parse_text("[network]\nconnect-tcp = 443,\n"
				     "  nonexistent.invalid:443\n");

	TAP_OK(p.r == 0 && p.policy.n_hosts == 1,
	       "parsing alone does not resolve (corral check says ok)");
	p.policy.hosts[0].resolved = true;
	p.policy.hosts[0].error = strdup("Name or service not known");
	TAP_EQ(-ENOENT, netrule_hosts_check(&p.policy),
	       "a name that did not resolve is an error");
	parsed_free(&p);
}

static void test_print_hosts(void)
{
	struct parsed p = parse_text("[network]\n"
				     "connect-tcp = localhost:80\n"
				     "connect-tcp = -gone.invalid:443\n");
	struct policy_net_host *h = p.policy.hosts;
	struct parsed q;
	char *text;

	h[0].resolved = h[1].resolved = true;
	h[0].n_addrs = 2;
	h[0].addrs[0] = h[0].rule;
	h[0].addrs[0].family = 4;
	inet_pton(AF_INET, "127.0.0.1", h[0].addrs[0].addr);
	h[0].addrs[1] = h[0].rule;
	h[0].addrs[1].family = 6;
	inet_pton(AF_INET6, "::1", h[0].addrs[1].addr);
	h[1].error = strdup("Name or service not known");
	text = printed(&p.policy, &p.result,
		       "\nconnect-tcp = localhost:80               ; t.profile:2\n"
		       ";   localhost: 127.0.0.1, ::1 (resolved now; each launch resolves again)\n"
		       "connect-tcp = -gone.invalid:443          ; t.profile:3\n"
		       ";   gone.invalid: Name or service not known (skipped)\n",
		       "--print-profile shows each name as written, then its "
		       "addresses");
	q = parse_text(text);
	TAP_OK(q.r == 0 && q.policy.n_hosts == 2 && q.policy.hosts[1].optional,
	       "and reads back as the same names");
	parsed_free(&q);
	free(text);
	parsed_free(&p);
}

int main(void)
{
	test_vars(&vars, false);
	test_parse();
	test_address_bytes();
	test_resolvers();
	test_profile();
	test_too_many();
	test_flags();
	test_host_items();
	test_resolve();
	test_round_trip();
	test_unresolved_error();
	test_print_hosts();
	vars_free(&vars);
	return tap_done();
}
