/*
 * iotrial fleet: the same compare on many hosts through Ansible, merged
 * into one verdict. `fleet plan` writes the playbook (core/fleet/) and
 * checks the inventory with ansible-playbook --list-hosts; --run runs it
 * and merges. `fleet merge` builds the fleet experiment from the hosts'
 * files and stores it, so show (and everything that reads a stored
 * experiment) works on it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli.h"
#include "../core/fleet/fleet.h"
#include "../core/model/model_json.h"
#include "../core/report/page.h"
#include "../core/store/store.h"
#include "../util/error.h"
#include "../util/outfile.h"
#include "../util/units.h"
#include "../util/xalloc.h"
#include "../version.h"
#include "../util/banned.h"

#define DEFAULT_PLAYBOOK "iotrial-fleet.yml"

static const char *const fleet_usage[] = {
    "iotrial fleet plan INVENTORY [-o FILE] [--limit NAME] "
    "[--forks N]",
    "         [--binary PATH] [--become] [--run [--db PATH] [--no-store] "
    "[--json[=FILE]]]",
    "         -- compare WORKLOAD --vary FACTOR=V1,V2 [compare options]",
    "      or: -- observe --vary KNOB=A,B --window DURATION "
    "[observe options]",
    "iotrial fleet merge [--db PATH] [--no-store] [--json[=FILE]] "
    "DIR|FILE...",
    NULL,
};

static const char fleet_epilogue[] =
    "plan writes an Ansible playbook that runs the compare on every host "
    "of\nINVENTORY (or --limit), checks the kernel and iotrial's version "
    "there (or\ncopies --binary), fetches each host's experiment to "
    "fleet/HOST.json beside\nthe playbook (fleet/HOST.error when it "
    "failed) and always runs 'iotrial\nrevert' at the end. Host variables: "
    "iotrial_bin, iotrial_target,\niotrial_environment, iotrial_tmp. --run "
    "runs it with ansible-playbook and\nmerges. merge makes one experiment "
    "of the hosts' results: each host is a\nblock, its ratio of each arm "
    "to the baseline the unit; the fleet verdict is\nthe Wilcoxon "
    "signed-rank test across hosts (Holm across arms), hosts that\n"
    "disagree make it 'mixed'. Exit status 4: some hosts failed, the rest "
    "merged.\n";

/* What fleet was asked for. */
struct fleet_args {
	const char *output, *limit, *binary, *db, *json;
	uint64_t forks; /* 0: Ansible's default */
	int become, run, no_store;
};

/* Parse the options before "--" (plan) or all of argv (merge). n words
 * are left in argv; -1 after an error, 1 for --help. */
static int parse_args(int argc, const char **argv, struct fleet_args *a,
		      int *out_n)
{
	struct option opts[] = {
	    OPT_STRING('o', "output", &a->output, "FILE",
		       "plan: the playbook to write (default " DEFAULT_PLAYBOOK
		       ")"),
	    OPT_STRING(0, "limit", &a->limit, "NAME",
		       "plan: only the hosts this Ansible pattern names"),
	    OPT_COUNT(0, "forks", &a->forks, NULL, "1", "1000",
		      "plan: hosts run in parallel (Ansible's forks; default: "
		      "Ansible's)"),
	    OPT_STRING(0, "binary", &a->binary, "PATH",
		       "plan: copy this iotrial (built for the hosts) there"),
	    OPT_BOOL(0, "become", &a->become,
		     "plan: run iotrial with privilege escalation"),
	    OPT_BOOL(0, "run", &a->run,
		     "plan: run the playbook now, then merge"),
	    OPT_STRING(0, "db", &a->db, "PATH", "the results store"),
	    OPT_BOOL(0, "no-store", &a->no_store,
		     "do not store the fleet experiment"),
	    OPT_STRING_OPTARG(0, "json", &a->json, "FILE", "-",
			      "print the fleet experiment as JSON, or write "
			      "it to FILE"),
	    OPT_SCHEMA(),
	    OPT_END(),
	};
	int n = parse_options(argc, argv, "fleet", opts, fleet_usage,
			      fleet_epilogue, 0);

	if (n == PARSE_OPT_HELP)
		return 1;
	if (n < 0)
		return -1;
	*out_n = n;
	return 0;
}

/*
 * Run argv, its stdout to our stderr (so that --json owns stdout), or
 * into capture (stdout and stderr) when not NULL. Returns its exit
 * status, 127 when it cannot be started, or -1 after an error.
 */
static int run_child(const char *const *argv, struct strbuf *capture)
{
	int fds[2] = {-1, -1}, status;
	pid_t pid;

	if (capture && pipe(fds) < 0) {
		error("cannot make a pipe: %s", strerror(errno));
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		error("cannot fork: %s", strerror(errno));
		return -1;
	}
	if (!pid) {
		if (capture) {
			dup2(fds[1], 1);
			dup2(fds[1], 2);
			close(fds[0]);
			close(fds[1]);
		} else {
			dup2(2, 1);
		}
		setenv("ANSIBLE_INVENTORY_UNPARSED_FAILED", "True", 1);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (capture) {
		char buf[4096];
		ssize_t r;

		close(fds[1]);
		while ((r = read(fds[0], buf, sizeof(buf))) > 0 ||
		       (r < 0 && errno == EINTR))
			if (r > 0)
				strbuf_add(capture, buf, (size_t)r);
		close(fds[0]);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/*
 * The version that binary says it is ("iotrial 0.9.0 (...)": "0.9.0"),
 * into out; -1 when it cannot be run here (built for the hosts, not for
 * the controller) or says something else.
 */
static int binary_version(const char *binary, struct strbuf *out)
{
	const char *argv[] = {binary, "--version", NULL};
	struct strbuf text = STRBUF_INIT;
	int rc = run_child(argv, &text), ret = -1;
	const char *v = text.buf + strlen("iotrial ");

	if (!rc && !strncmp(text.buf, "iotrial ", 8) && *v && *v != ' ') {
		strbuf_add(out, v, strcspn(v, " \n"));
		ret = 0;
	}
	strbuf_release(&text);
	return ret;
}

/* The directory of path ("." when it has none), owned by the caller. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	return slash == path ? xstrdup("/") : xstrndup(path, slash - path);
}

/* The last non-empty line of text that says what went wrong. */
static void last_words(const char *text, struct strbuf *out)
{
	const char *p = strstr(text, "ERROR!");

	if (!p)
		p = strstr(text, "[WARNING]");
	strbuf_addstr(out, p ? p : text);
	strbuf_trim(out);
	if (strchr(out->buf, '\n'))
		strbuf_setlen(out, (size_t)(strchr(out->buf, '\n') - out->buf));
}

/* Merge the hosts' files, store, print. Returns the exit code. */
static int merge_and_report(struct fleet_hosts *h, const struct fleet_args *a)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct experiment_doc exp;
	char id[STORE_ID_LEN + 1] = "";
	bool partial = false;
	int ret = EXIT_OK;

	if (fleet_merge_keep(h, a->db, a->no_store, &exp, &partial, id, &err)) {
		error("%s", err.buf);
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (a->json) {
		experiment_doc_encode(&exp, 0, &out);
		if (cli_write_doc(a->json, &out)) {
			ret = EXIT_RUNTIME;
			goto out;
		}
		strbuf_reset(&out);
	}
	if (a->json && !strcmp(a->json, "-"))
		goto done;
	if (*id)
		strbuf_addf(&out, "fleet experiment %s\n\n", id);
	if (report_page(&exp, &emit_text_ops, REPORT_PAGE_VERDICTS, &out,
			&err)) {
		error("%s", err.buf);
		ret = EXIT_RUNTIME;
		goto out;
	}
	/* the fleet's table is the merge's own: it follows the verdicts */
	report_page(&exp, &emit_text_ops, REPORT_SEC(fleet), &out, &err);
	fputs(out.buf, stdout);
done:
	if (partial) {
		ret = EXIT_PARTIAL;
		warning("the fleet run is partial: some hosts failed (listed "
			"above)");
	}
out:
	experiment_doc_release(&exp);
	strbuf_release(&err);
	strbuf_release(&out);
	return ret;
}

/* iotrial fleet merge DIR|FILE... */
static int cmd_fleet_merge(int n, const char **words,
			   const struct fleet_args *a)
{
	struct strbuf err = STRBUF_INIT;
	struct fleet_hosts h = {0};
	int i, ret = EXIT_OK;
	struct stat st;

	if (!n) {
		error("'fleet merge' needs the playbook's directory or the "
		      "hosts' files");
		return EXIT_USAGE;
	}
	for (i = 0; i < n; i++) {
		int r = !stat(words[i], &st) && S_ISDIR(st.st_mode)
			    ? fleet_hosts_read_dir(&h, words[i], &err)
			    : fleet_hosts_read_file(&h, words[i], &err);

		if (r) {
			error("%s", err.buf);
			ret = EXIT_USAGE;
			goto out;
		}
	}
	if (!a->no_store && (ret = cli_check_store(a->db, NULL)))
		goto out;
	ret = merge_and_report(&h, a);
out:
	fleet_hosts_release(&h);
	strbuf_release(&err);
	return ret;
}

/* Check the inventory: ansible-playbook --list-hosts on the playbook. */
static int list_hosts(const char *inventory, const char *playbook,
		      struct strbuf *hosts, size_t *out_nr)
{
	const char *argv[] = {"ansible-playbook", "-i",	    inventory,
			      "--list-hosts",	  playbook, NULL};
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	int rc = run_child(argv, &text);

	if (rc == 127 || rc < 0) {
		error("cannot run ansible-playbook: install Ansible (Debian: "
		      "apt-get install ansible)");
		rc = EXIT_USAGE;
		goto out;
	}
	if (rc) {
		last_words(text.buf, &why);
		error("ansible-playbook refuses inventory '%s' (or the "
		      "playbook): %s",
		      inventory, why.buf);
		rc = EXIT_USAGE;
		goto out;
	}
	*out_nr = fleet_parse_list_hosts(text.buf, hosts);
	if (!*out_nr) {
		error("inventory '%s' names no hosts%s", inventory,
		      " (or none that the pattern matches)");
		rc = EXIT_USAGE;
	}
out:
	strbuf_release(&text);
	strbuf_release(&why);
	return rc;
}

/* Write text to path, replacing a regular file there (a link, a device
 * or a FIFO is refused: util/outfile.h). 0 or -1 after the error. */
static int write_file(const char *path, const struct strbuf *text)
{
	struct strbuf err = STRBUF_INIT;
	int ret =
	    outfile_write(path, text->buf, text->len, OUTFILE_REPLACE, &err);

	if (ret)
		error("%s", err.buf);
	strbuf_release(&err);
	return ret ? -1 : 0;
}

/* iotrial fleet plan INVENTORY [options] -- compare ... */
static int cmd_fleet_plan(int n, const char **words, int nc,
			  const char **compare, const struct fleet_args *a)
{
	struct strbuf yml = STRBUF_INIT, err = STRBUF_INIT, hosts = STRBUF_INIT;
	struct strbuf version = STRBUF_INIT;
	struct fleet_plan p = {0};
	const char *out = a->output ? a->output : DEFAULT_PLAYBOOK;
	const char *run[12];
	char *dir = NULL;
	char forks[24];
	size_t nr_hosts = 0, k = 0;
	int ret, rc;
	struct stat st;

	if (n != 1 || !nc) {
		error("'fleet plan' takes one INVENTORY, then '-- compare "
		      "WORKLOAD --vary ...'");
		return EXIT_USAGE;
	}
	if (stat(words[0], &st)) {
		error("inventory '%s': %s", words[0], strerror(errno));
		return EXIT_USAGE;
	}
	snprintf(forks, sizeof(forks), "%llu", (unsigned long long)a->forks);
	if (a->binary && access(a->binary, R_OK)) {
		error("binary '%s': %s", a->binary, strerror(errno));
		ret = EXIT_USAGE;
		goto out;
	}
	p.argv = compare;
	p.argc = nc;
	p.hosts = a->limit;
	p.forks = (int)a->forks;
	p.binary = a->binary;
	p.version = IOTRIAL_VERSION;
	/* the hosts run the copy: check them against it, not against us */
	if (a->binary && binary_version(a->binary, &version)) {
		note("'%s --version' does not run here (built for the "
		     "hosts?): the hosts only check that their copy runs as "
		     "iotrial",
		     a->binary);
		p.version = NULL;
	} else if (a->binary) {
		p.version = version.buf;
	}
	p.become = a->become;
	if (fleet_plan_playbook(&p, &yml, &err)) {
		error("%s", err.buf);
		ret = EXIT_USAGE;
		goto out;
	}
	if (write_file(out, &yml)) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	ret = list_hosts(words[0], out, &hosts, &nr_hosts);
	if (ret) {
		unlink(out); /* no playbook for an inventory that fails */
		goto out;
	}
	dir = dir_of(out);
	fprintf(stderr, "wrote %s for %zu host%s: ", out, nr_hosts,
		nr_hosts == 1 ? "" : "s");
	for (k = 0; k < hosts.len; k++)
		fputc(hosts.buf[k] == '\n' && k + 1 < hosts.len ? ' '
								: hosts.buf[k],
		      stderr);
	if (!a->run) {
		fprintf(stderr,
			"run it:  ansible-playbook -i %s%s%s %s\n"
			"then:    iotrial fleet merge %s\n",
			words[0], a->forks ? " -f " : "", a->forks ? forks : "",
			out, dir);
		goto out;
	}
	k = 0;
	run[k++] = "ansible-playbook";
	run[k++] = "-i";
	run[k++] = words[0];
	if (a->forks) {
		run[k++] = "-f";
		run[k++] = forks;
	}
	run[k++] = out;
	run[k] = NULL;
	rc = run_child(run, NULL);
	if (rc < 0 || rc == 127) {
		error("cannot run ansible-playbook");
		ret = EXIT_RUNTIME;
		goto out;
	}
	{
		struct fleet_hosts h = {0};

		if (fleet_hosts_read_dir(&h, dir, &err)) {
			error("ansible-playbook ended with status %d and left "
			      "no results: %s",
			      rc, err.buf);
			ret = EXIT_RUNTIME;
		} else {
			ret = merge_and_report(&h, a);
		}
		fleet_hosts_release(&h);
	}
	if (!ret && rc)
		ret = EXIT_PARTIAL;
out:
	free(dir);
	strbuf_release(&version);
	strbuf_release(&yml);
	strbuf_release(&err);
	strbuf_release(&hosts);
	return ret;
}

int cmd_fleet(int argc, const char **argv)
{
	struct fleet_args a = {0};
	const char **compare = NULL;
	int i, nc = 0, n = 0, r;

	/* the compare after "--" is the hosts', not ours to parse */
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			compare = argv + i + 1;
			nc = argc - i - 1;
			argc = i;
			break;
		}
	r = parse_args(argc, argv, &a, &n);
	if (r)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	if (!n) {
		error("'fleet' needs 'plan' or 'merge'; see 'iotrial fleet "
		      "--help'");
		return EXIT_USAGE;
	}
	if (!strcmp(argv[0], "plan"))
		return cmd_fleet_plan(n - 1, argv + 1, nc, compare, &a);
	if (nc) {
		error("'fleet %s' takes no '--'", argv[0]);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[0], "merge"))
		return cmd_fleet_merge(n - 1, argv + 1, &a);
	error("unknown 'fleet' command '%s'; expected 'plan' or 'merge'",
	      argv[0]);
	return EXIT_USAGE;
}
