/*
 * iotrial run: one workload, once, with a readable summary or the
 * iotrial/1 JSON object. This is the measuring primitive that compare
 * repeats; everything it prints comes from core/, which does the work.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <json-c/json.h>
#include "cli.h"
#include "job.h"
#include "knobargs.h"
#include "../core/experiment/result_json.h"
#include "../core/experiment/metrics.h"
#include "../core/report/report.h"
#include "../core/report/run_text.h"
#include "../core/targets/target.h"
#include "../core/experiment/trial.h"
#include "../core/workload/workload.h"
#include "../util/error.h"
#include "../util/rng.h"
#include "../util/units.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

#define DEFAULT_WORKLOAD "randread"
#define DEFAULT_TIME	 "5s"

/* Everything `run` was asked to do, after parsing. */
struct run_args {
	const char *workload;
	const char *target;
	const char *time;
	const char *ios;
	const char *ramp;
	const char *seed;
	const char *json_file; /* "-" for stdout, NULL for text */
	const char *metric;    /* --metric, NULL for the default */
	const char *db;	       /* results store, NULL for the default */
	int no_store;	       /* --no-store */
	int quiet;	       /* --quiet: warnings and errors only */
	int dry_run;	       /* --dry-run: the plan, no run */
	int per_job;	       /* --per-job */
	char *cmd;	       /* exec: the command after "--", owned */
	struct cli_limits limits;
	unsigned target_flags;
	const char **params; /* name, value, name, value, ... */
	unsigned nr_params, alloc_params;
	struct knob_cli *knobs;	   /* --set KNOB=VALUE (knobargs.c) */
	const char *job, *section; /* --job FILE, --section NAME */
	int job_lenient;	   /* --job-lenient */
	int job_include_any;	   /* --job-include-any */
};

static const char *const run_usage[] = {
    "iotrial run [WORKLOAD] [-t TARGET] [--PARAM=VALUE ...]",
    "                   [--time DURATION | --ios N] [--ramp DURATION]",
    "                   [--seed N] [--metric NAME] [--json[=FILE]] "
    "[--allow-destroy]",
    "                   [--set KNOB=VALUE ...] [--db PATH | --no-store]",
    "                   [--per-job] [--memory-limit SIZE] [--cpus LIST]",
    "                   [--mems LIST]",
    "   or: iotrial run --job FILE.fio [--section NAME] [--job-lenient]",
    "                   [-t TARGET] [--size SIZE] [--time DURATION] ...",
    NULL,
};

/* The help after the options: targets, defaults, the workloads. */
static void run_epilogue(struct strbuf *out)
{
	strbuf_addf(out,
		    "TARGET is a directory (default: $TMPDIR or /tmp; iotrial "
		    "works in a\nprivate subdirectory and removes only "
		    "that), a block device (refused when it\nholds data, "
		    "unless --allow-destroy), or scratch:SIZE[:ext4|xfs] "
		    "(root: a loop\ndevice on a sparse file, written before "
		    "it is read, torn down afterwards).\nDefaults: %s, "
		    "--time %s.\n",
		    DEFAULT_WORKLOAD, DEFAULT_TIME);
	cli_workloads_list(out);
}

/* A workload parameter: "--bs 4k" is kept as the pair "bs", "4k". */
static int param_option(const struct option *opt, const char *arg)
{
	struct run_args *a = opt->data;

	ALLOC_GROW(a->params, a->nr_params + 2, a->alloc_params);
	a->params[a->nr_params++] = opt->long_name;
	a->params[a->nr_params++] = arg;
	return 0;
}

/* What is left after the options: say why it is wrong. */
static void unexpected(const char *arg, const struct run_args *a,
		       const char *first, const struct workload_ops *ops)
{
	if (workload_find(arg) && !a->workload)
		error("the workload comes first: 'iotrial run %s [options]', "
		      "not after '%s'",
		      arg, first);
	else if (workload_find(arg))
		error("one workload per run: '%s' and '%s' were both given; "
		      "'iotrial compare' runs several",
		      a->workload, arg);
	else
		error("unexpected argument '%s'; options take the form "
		      "--name=value (see 'iotrial run %s --help')",
		      arg, ops->name);
}

/* --job and what goes with it; -1 after printing an error. */
static int check_job_args(const struct run_args *a)
{
	if (!a->job && (a->section || a->job_lenient || a->job_include_any)) {
		error("--%s goes with --job FILE.fio", a->section ? "section"
						       : a->job_lenient
							   ? "job-lenient"
							   : "job-include-any");
		return -1;
	}
	if (a->job && a->workload) {
		error("give a workload or --job, not both: the job file says "
		      "what runs ('%s' was given too)",
		      a->workload);
		return -1;
	}
	if (a->job && a->ios) {
		error("--ios does not apply to --job; a job file runs its "
		      "size, or --time");
		return -1;
	}
	return 0;
}

static const char **joined_params(const struct run_args *a, unsigned *out_nr);

/* run --job: the job file's sections, with the command line's
 * overrides. The exit code. */
static int run_job(const struct run_args *a, const struct knob_cli *kc)
{
	struct job_cli_args ja = {0};
	unsigned nr = 0, i;
	const char **params = joined_params(a, &nr);
	int ret;

	ja.file = a->job;
	ja.section = a->section;
	ja.lenient = (a->job_lenient ? JOB_LENIENT : 0) |
		     (a->job_include_any ? JOB_INCLUDE_ANY : 0);
	ja.target = a->target;
	ja.target_flags = a->target_flags;
	ja.time = a->time;
	ja.ramp = a->ramp;
	ja.seed = a->seed;
	ja.json_file = a->json_file;
	ja.db = a->db;
	ja.no_store = a->no_store;
	ja.per_job = a->per_job;
	ja.params = params;
	ja.nr_params = nr;
	ja.set = kc->assign;
	ja.nr_set = (unsigned)kc->nr;
	ret = job_cli_run(&ja);
	for (i = 0; i < nr; i++)
		free((char *)params[i]);
	free(params);
	return ret;
}

/* Parse argv into a; returns -1 after printing an error, 1 for --help. */
static int parse_args(int argc, const char **argv, struct run_args *a,
		      const struct workload_ops **out_ops)
{
	const char *first = argc > 1 ? argv[1] : NULL;
	const struct workload_ops *ops;
	struct workload_options params;
	struct strbuf epilogue = STRBUF_INIT;
	struct option *opts;
	struct option own[] = {
	    OPT_GROUP("options:"),
	    OPT_STRING('t', "target", &a->target, "TARGET",
		       "where to run: a directory, a block device or "
		       "scratch:SIZE (see below)"),
	    OPT_STRING(0, "time", &a->time, "DURATION",
		       "run for this long (default " DEFAULT_TIME ")"),
	    OPT_STRING(0, "ios", &a->ios, "N",
		       "stop after N I/Os (all jobs together) instead of after "
		       "a time"),
	    OPT_STRING(0, "ramp", &a->ramp, "DURATION",
		       "run this long before the measured part"),
	    OPT_STRING(0, "seed", &a->seed, "N",
		       "seed of the random offsets and file contents"),
	    OPT_STRING(0, "metric", &a->metric, "NAME",
		       "the metric the run is judged by (default: the "
		       "workload's)"),
	    OPT_STRING_OPTARG(0, "json", &a->json_file, "FILE", "-",
			      "print the run as JSON, or write it to FILE"),
	    OPT_BIT(0, "allow-destroy", &a->target_flags, TARGET_ALLOW_DESTROY,
		    "allow a block device that holds data; it is overwritten"),
	    OPT_KNOB_SET(a->knobs, "change a knob for this run only (may be "
				   "repeated; see 'iotrial knobs')"),
	    OPT_STRING(0, "db", &a->db, "PATH",
		       "the results store (see 'iotrial log')"),
	    OPT_BOOL(0, "no-store", &a->no_store, "do not store the run"),
	    OPT_BOOL(0, "dry-run", &a->dry_run,
		     "print the knob plan and the time, and run nothing"),
	    OPT_BOOL(
		0, "quiet", &a->quiet,
		"no notes and no plan on stderr: warnings and errors only"),
	    OPT_CLI_LIMITS(&a->limits),
	    OPT_BOOL(0, "per-job", &a->per_job,
		     "a line per job, however many (more than 4 are "
		     "summarised)"),
	    OPT_STRING(0, "job", &a->job, "FILE",
		       "run the job sections of a fio job file instead of a "
		       "workload (see JOB FILES in the manual)"),
	    OPT_STRING(0, "section", &a->section, "NAME",
		       "with --job: run only this job section"),
	    OPT_BOOL(0, "job-lenient", &a->job_lenient,
		     "with --job: warn about options iotrial does not "
		     "support and ignore them"),
	    OPT_BOOL(0, "job-include-any", &a->job_include_any,
		     "with --job: let include name files outside the job "
		     "file's directory (absolute, '..', links)"),
	    OPT_SCHEMA(),
	    OPT_END(),
	};
	int n;

	/* the workload comes first: its parameters are options too */
	if (argc > 1 && argv[1][0] != '-') {
		a->workload = argv[1];
		ops = cli_find_workload(a->workload, "run");
		if (!ops)
			return -1;
		argc--;
		argv++;
	} else {
		ops = workload_find(DEFAULT_WORKLOAD);
	}
	*out_ops = ops;
	cli_workload_options(&params, ops, param_option, a);
	cli_untimed_options(own, ops);
	opts = options_join(params.opts, own);
	run_epilogue(&epilogue);
	cli_metrics_help(&epilogue, ops);
	n = cli_refuse_fio_rw("run", argc, argv)
		? PARSE_OPT_ERROR
		: parse_options(argc, argv, "run", opts, run_usage,
				epilogue.buf, 0);
	free(opts);
	cli_workload_options_release(&params);
	strbuf_release(&epilogue);
	if (n == PARSE_OPT_HELP)
		return 1;
	if (n < 0)
		return -1;
	if (n > 0 && ops == &workload_exec && !a->cmd) {
		/* exec's command: what follows "--" */
		a->cmd = cli_command_line(n, argv);
		ALLOC_GROW(a->params, a->nr_params + 2, a->alloc_params);
		a->params[a->nr_params++] = "cmd";
		a->params[a->nr_params++] = a->cmd;
	} else if (n > 0) {
		unexpected(argv[0], a, first, ops);
		return -1;
	}
	if (a->time && a->ios) {
		error("give --time or --ios, not both");
		return -1;
	}
	cli_untimed_note(ops, a->time, a->ramp);
	return check_job_args(a);
}

/* The workload parameters as "name=value"; the caller frees each and
 * the array. */
static const char **joined_params(const struct run_args *a, unsigned *out_nr)
{
	const char **v = xcalloc(a->nr_params / 2 + 1, sizeof(*v));
	unsigned i, n = 0;

	for (i = 0; i + 1 < a->nr_params; i += 2) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s=%s", a->params[i], a->params[i + 1]);
		v[n++] = strbuf_detach(&sb, NULL);
	}
	*out_nr = n;
	return v;
}

/*
 * Parse the run length, ramp and seed into c; prints and returns -1 on
 * bad input.
 */
static int configure(struct experiment_config *c, const struct run_args *a)
{
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	if (a->ios)
		ret = units_parse_count(a->ios, &c->ro.ios, &err);
	if (!ret && c->ro.ios == 0 && a->ios)
		ret = err_set(&err, -EINVAL,
			      "--ios must be at least 1, not '%s'", a->ios);
	if (!ret && !a->ios)
		ret = cli_parse_duration("--time",
					 a->time ? a->time : DEFAULT_TIME,
					 &c->ro.time_ns, &err);
	if (!ret && !a->ios && !c->ro.time_ns)
		ret =
		    err_set(&err, -EINVAL,
			    "--time must be longer than 0, not '%s'", a->time);
	if (!ret && a->ramp)
		ret =
		    cli_parse_duration("--ramp", a->ramp, &c->ro.ramp_ns, &err);
	if (!ret && a->seed)
		ret = units_parse_count(a->seed, &c->seed, &err);
	if (!ret && !a->seed)
		c->seed = rng_seed_from_env() & 0xffffffffu;
	if (ret) {
		error("%s", err.buf);
	} else if (metric_lookup(
		       c->ops,
		       cli_metric_asked(a->metric, c->params, c->nr_params),
		       &c->metric, &err)) {
		error("--metric: %s", err.buf);
		ret = -1;
	}
	strbuf_release(&err);
	return ret ? -1 : 0;
}

static const char *default_target(void)
{
	const char *tmp = getenv("TMPDIR");

	return tmp && *tmp ? tmp : "/tmp";
}

/* What the run said about itself, kept for printing at the end. */
struct run_view {
	struct strbuf summary;
	int interrupted;
	unsigned flags; /* enum report_run_flags */
};

/* trial_hooks: render the summary while the result is at hand. */
static void run_done(void *ctx, const struct run_meta *meta,
		     const struct run_result *r)
{
	struct run_view *v = ctx;

	report_run_text(meta->w, meta->t, r, v->flags, &v->summary);
	if (meta->metric) {
		/* the metric asked for, as compare and show judge it */
		strbuf_addf(&v->summary, "metric: %s = ", meta->metric->name);
		if (!strcmp(meta->metric->unit, "ns"))
			units_fmt_ns(&v->summary,
				     metric_value(meta->metric, meta->w, r));
		else
			report_fmt_value(&v->summary, metric_value(meta->metric,
								   meta->w, r));
		if (strcmp(meta->metric->unit, "ns") && *meta->metric->unit)
			strbuf_addf(&v->summary, " %s", meta->metric->unit);
		strbuf_addf(&v->summary, " (%s is better)\n",
			    meta->metric->higher_is_better ? "higher"
							   : "lower");
	}
	v->interrupted = r->interrupted;
}

/* The exit code for trial_run()'s error ret. */
static int run_failed(const struct trial *tr, int ret)
{
	switch (tr->failed) {
	case TRIAL_FAILED_KNOBS:
		return knob_cli_exit_code(ret);
	case TRIAL_FAILED_PREPARE:
		/* what the user asked for cannot fit or align: bad input */
		return ret == -EINVAL || ret == -ENOSPC ? EXIT_USAGE
							: EXIT_RUNTIME;
	default:
		return EXIT_RUNTIME;
	}
}

static double ru_cpu_s(int who)
{
	struct rusage ru;

	if (getrusage(who, &ru))
		return 0;
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/*
 * Split the whole process's CPU so far (as time(1) would count it) into
 * the workers' share over the timed region (the jobs' thread CPU) and
 * the rest: set-up and layout, the sampler, the store, kernel I/O worker
 * threads. Added to the run object's "cpu" when it has jobs.
 */
static void add_process_cpu(struct json_object *run)
{
	struct json_object *cpu, *jobs;
	double process_s, workers_s = 0;
	size_t i, n;

	if (!json_object_object_get_ex(run, "cpu", &cpu) ||
	    !json_object_object_get_ex(run, "jobs", &jobs))
		return;
	n = json_object_array_length(jobs);
	if (!n)
		return;
	for (i = 0; i < n; i++) {
		struct json_object *j = json_object_array_get_idx(jobs, i);
		struct json_object *v;

		if (json_object_object_get_ex(j, "user_s", &v))
			workers_s += json_object_get_double(v);
		if (json_object_object_get_ex(j, "sys_s", &v))
			workers_s += json_object_get_double(v);
	}
	process_s = ru_cpu_s(RUSAGE_SELF) + ru_cpu_s(RUSAGE_CHILDREN);
	json_object_object_add(cpu, "process_s",
			       json_object_new_double(process_s));
	json_object_object_add(cpu, "workers_s",
			       json_object_new_double(workers_s));
	json_object_object_add(
	    cpu, "outside_s",
	    json_object_new_double(process_s > workers_s ? process_s - workers_s
							 : 0));
}

/* The session's messages under --quiet: warnings only. */
static void quiet_say(void *data, enum session_say_level level, const char *msg)
{
	(void)data;
	if (level == SESSION_SAY_WARN)
		warning("%s", msg);
}

int cmd_run(int argc, const char **argv)
{
	return cli_run_stored(argc, argv, NULL);
}

int cli_run_stored(int argc, const char **argv, char *out_id)
{
	struct run_args a = {0};
	const struct workload_ops *ops = NULL;
	struct run_view view = {STRBUF_INIT, 0, 0};
	struct trial_hooks hooks = {.ctx = &view, .run_done = run_done};
	struct strbuf err = STRBUF_INIT;
	const char **params = NULL;
	unsigned i, nr_params = 0;
	struct knob_cli kc;
	struct trial tr;
	int ret = EXIT_OK, pr;

	knob_cli_log(&hooks.log, NULL);
	trial_init(&tr, TRIAL_ONE_RUN, &hooks);
	knob_cli_init(&kc);
	a.knobs = &kc;
	pr = parse_args(argc, argv, &a, &ops);
	if (pr) {
		ret = pr > 0 ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	if (a.job && a.dry_run) {
		error("--dry-run plans a workload's run; a job file's sections "
		      "are not planned ('iotrial compare --job FILE "
		      "--dry-run' plans its arms)");
		ret = EXIT_USAGE;
		goto out;
	}
	if (a.job) {
		ret = run_job(&a, &kc);
		goto out;
	}
	if (a.quiet)
		tr.hooks.log.say = quiet_say;
	if (a.per_job)
		view.flags |= REPORT_RUN_PER_JOB;
	params = joined_params(&a, &nr_params);
	tr.c.ops = ops;
	tr.c.params = params;
	tr.c.nr_params = nr_params;
	pr = trial_read_params(&tr, &err);
	if (pr || configure(&tr.c, &a) || (pr = trial_plan(&tr, &err))) {
		if (pr)
			error("%s", err.buf);
		ret = EXIT_USAGE;
		goto out;
	}
	if (a.json_file && cli_check_output(a.json_file)) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (!a.no_store && !a.dry_run &&
	    (ret = cli_check_store(a.db, "iotrial run")))
		goto out;
	if (a.dry_run) {
		const char *t = a.target ? a.target : default_target();

		if (!strncmp(t, "scratch:", 8)) {
			error("--dry-run plans on a target that exists; a "
			      "scratch target would be made for the run (give "
			      "a directory or a device)");
			ret = EXIT_USAGE;
			goto out;
		}
		a.target_flags |= TARGET_NO_WORKDIR;
	}
	/* signals first: a scratch target's set-up can take long, and
	 * must be torn down, not left behind, when interrupted */
	tr.c.stop = cli_catch_stop_signals();
	tr.set = kc.assign;
	tr.nr_set = (unsigned)kc.nr;
	if (cli_limits(&a.limits, &tr.limits)) {
		ret = EXIT_USAGE;
		goto out;
	}
	pr = trial_open(&tr, a.target ? a.target : default_target(),
			a.target_flags, &err);
	if (pr) {
		error("%s", err.buf);
		ret = pr == -EINTR ? EXIT_RUNTIME : EXIT_USAGE;
		goto out;
	}
	/* a closed pipe must not kill us before the restore: EPIPE instead */
	if (trial_has_undo(&tr))
		signal(SIGPIPE, SIG_IGN);
	if (a.dry_run) {
		ret = cli_dry_run(&tr, "run", a.json_file);
		goto out;
	}
	/* --set: checked now, applied by trial_run(), restored at the end */
	pr = trial_check(&tr, &err);
	if (pr) {
		error("%s", err.buf);
		ret = knob_cli_exit_code(pr);
		goto out;
	}
	if (!a.quiet)
		cli_say_dir_disk(&tr, "run");
	cli_warn_wrap(&tr, a.quiet, 0);
	pr = trial_run(&tr, &err);
	if (pr && tr.failed == TRIAL_FAILED_VERIFY) {
		/* bad data: the run is shown and written, never stored */
		if (a.json_file)
			cli_write_json(a.json_file, trial_run_object(&tr));
		if (!a.json_file || strcmp(a.json_file, "-"))
			fputs(view.summary.buf, stdout);
	}
	if (pr) {
		error("%s", err.buf);
		ret = run_failed(&tr, pr);
		goto finish;
	}
	/* a cut-short run is printed, marked, and neither stored nor
	 * reported as a success */
	if (view.interrupted) {
		ret = EXIT_RUNTIME;
	} else if (!a.no_store && trial_store(&tr, a.db, &err)) {
		error("the run was not stored: %s", err.buf);
		ret = EXIT_RUNTIME;
	}
	if (a.json_file) {
		add_process_cpu(trial_run_object(&tr));
		if (cli_write_json(a.json_file, trial_run_object(&tr)))
			ret = EXIT_RUNTIME;
	}
	if (!a.json_file || strcmp(a.json_file, "-"))
		fputs(view.summary.buf, stdout);
	if (tr.id[0] && (!a.json_file || strcmp(a.json_file, "-")))
		printf("stored as %s ('iotrial show %s')\n", tr.id, tr.id);
	if (out_id)
		memcpy(out_id, tr.id, sizeof(tr.id));
finish:
	strbuf_reset(&err);
	if (trial_finish(&tr, &err)) {
		error("%s", err.buf);
		if (ret == EXIT_OK)
			ret = EXIT_RUNTIME;
	}
out:
	trial_release(&tr);
	knob_cli_release(&kc);
	strbuf_release(&view.summary);
	strbuf_release(&err);
	for (i = 0; i < nr_params; i++)
		free((char *)params[i]);
	free(params);
	free(a.params);
	free(a.cmd);
	return ret;
}
