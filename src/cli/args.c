/*
 * What several subcommands share besides their option tables (options.c):
 * checking before a long run that its output and store can be written,
 * and the flag a stop signal sets.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "../core/compat/compat.h"
#include "job.h"
#include "../core/experiment/trial.h"
#include "../core/report/report.h"
#include "../core/store/store.h"
#include "../core/targets/cgroup.h"
#include "../core/workload/workload.h"
#include "../util/error.h"
#include "../util/rng.h"
#include "../util/units.h"
#include "../util/banned.h"

int cli_check_store(const char *db, const char *cmd)
{
	struct strbuf err = STRBUF_INIT;
	struct store s;
	int ret = store_open(&s, db, &err);

	if (ret && ret != -EINVAL && cmd)
		error("%s; give a writable place with --db PATH, or '%s "
		      "--no-store' to measure without storing",
		      err.buf, cmd);
	else if (ret && ret != -EINVAL)
		error("%s; give a writable place with --db PATH", err.buf);
	else if (ret)
		error("%s", err.buf); /* not a store: it says what to do */
	else
		store_close(&s);
	strbuf_release(&err);
	if (!ret)
		return 0;
	return ret == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
}

/* The one signal flag of the process (one command per process). */
static volatile int stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

volatile int *cli_catch_stop_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	/* what stops us is a flag, and whatever we write on the way out
	 * (a note, the JSON) must not end us before the undo is done: with
	 * stdout and stderr on pipes whose reader is gone (an SSH session
	 * that dropped), a write fails with EPIPE instead */
	signal(SIGPIPE, SIG_IGN);
	return &stop_signal;
}

int cli_limits(const struct cli_limits *l, struct cgroup_limits *out)
{
	memset(out, 0, sizeof(*out));
	out->memory_max = l->memory_bytes;
	out->cpus = l->cpus;
	out->mems = l->mems;
	return 0;
}

int cli_run_opts_check(struct cli_run_opts *r, const struct workload_ops *ops,
		       const char *workload)
{
	if (!r->job && (r->section || r->job_lenient || r->job_include_any)) {
		error("--%s goes with --job FILE.fio", r->section ? "section"
						       : r->job_lenient
							   ? "job-lenient"
							   : "job-include-any");
		return -1;
	}
	if (r->job && workload) {
		error("give a workload or --job, not both: the job file says "
		      "what runs ('%s' was given too)",
		      workload);
		return -1;
	}
	if (r->time_given && r->ios) {
		error("give --time or --ios, not both");
		return -1;
	}
	if (r->ios)
		r->time_ns = 0;
	if (ops && ops->untimed && (r->time_given || r->ramp_given))
		note("%s runs to its own end, so %s does not apply and is "
		     "ignored",
		     ops->name, r->time_given ? "--time" : "--ramp");
	if (!r->seed_given)
		r->seed = rng_seed_from_env() & 0xffffffffu;
	return 0;
}

int cli_run_opts_job_flags(const struct cli_run_opts *r)
{
	return (r->job_lenient ? JOB_LENIENT : 0) |
	       (r->job_include_any ? JOB_INCLUDE_ANY : 0);
}

char *cli_command_line(int n, const char **argv)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	for (i = 0; i < n; i++) {
		const char *p = argv[i];

		if (i)
			strbuf_addch(&sb, ' ');
		if (*p && strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"
				    "OPQRSTUVWXYZ0123456789_-+=/.,:@%{}") ==
			      strlen(p)) {
			strbuf_addstr(&sb, p); /* nothing the shell would
						  change */
			continue;
		}
		strbuf_addch(&sb, '\'');
		for (; *p; p++)
			if (*p == '\'')
				strbuf_addstr(&sb, "'\\''");
			else
				strbuf_addch(&sb, *p);
		strbuf_addch(&sb, '\'');
	}
	return strbuf_detach(&sb, NULL);
}

int cli_refuse_fio_rw(const char *cmd, int argc, const char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		size_t n = strcspn(argv[i], "=");

		if ((n == 4 && !strncmp(argv[i], "--rw", n)) ||
		    (n == 11 && !strncmp(argv[i], "--readwrite", n))) {
			/* fio's way to name the pattern; here the workload */
			error("unknown option '%.*s' for '%s': the workload is "
			      "the first argument, e.g. 'iotrial %s randread'; "
			      "'iotrial %s --help' lists them",
			      (int)n, argv[i], cmd, cmd, cmd);
			return -1;
		}
	}
	return 0;
}

void cli_untimed_options(struct option *opts, const struct workload_ops *ops)
{
	struct option *o;

	if (!ops->untimed)
		return;
	for (o = opts; o->type != OPTION_END; o++)
		if (o->long_name && (!strcmp(o->long_name, "time") ||
				     !strcmp(o->long_name, "ios") ||
				     !strcmp(o->long_name, "ramp")))
			o->flags |= OPT_HIDDEN;
}

void cli_say_dir_disk(const struct trial *tr, const char *cmd)
{
	const char *disk = trial_dir_knob_disk(tr);

	if (disk)
		fprintf(stderr,
			"%s: target %s on %s: knobs will be changed on "
			"%s\n",
			cmd, tr->t.spec ? tr->t.spec : tr->t.path, disk, disk);
	if (tr->t.holds)
		fprintf(stderr, "%s: target %s %s: reads only\n", cmd,
			tr->t.path, tr->t.holds);
}

void cli_warn_wrap(struct trial *tr, int quiet, int say_fallback)
{
	if (!quiet)
		trial_wrap_check(tr, say_fallback);
}
