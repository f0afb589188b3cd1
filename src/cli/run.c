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
#include "cli.h"
#include "job.h"
#include "knobargs.h"
#include "progress.h"
#include "typed_doc.h"
#include "../core/experiment/result_json.h"
#include "../core/experiment/metrics.h"
#include "../core/report/run_text.h"
#include "../core/targets/target.h"
#include "../core/experiment/trial.h"
#include "../core/experiment/trial_knobs.h"
#include "../core/workload/workload.h"
#include "../util/error.h"
#include "../util/units.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

#define DEFAULT_WORKLOAD "randread"
#define DEFAULT_TIME	 "5s"

/* Everything `run` was asked to do, after parsing. */
struct run_args {
	const char *workload;
	struct cli_run_opts r;	      /* what run, compare and --job share */
	int per_job;		      /* --per-job */
	char *cmd;		      /* exec: the command after "--", owned */
	struct param_setting *params; /* --PARAM=VALUE, as given */
	int quiet;		      /* --quiet: warnings and errors only */
	int dry_run;		      /* --dry-run: the plan, no run */
	int force;		      /* --force: a knob the workload
					 cannot show, run and marked */
	unsigned nr_params, alloc_params;
	struct knob_cli *knobs;	  /* --set KNOB=VALUE (knobargs.c) */
	struct cli_progress prog; /* --progress, --metrics-file */
};

static const char *const run_usage[] = {
    "iotrial run [WORKLOAD] [-t TARGET] [--PARAM=VALUE ...]",
    "                   [--time DURATION | --ios N] [--ramp DURATION]",
    "                   [--seed N] [--metric NAME] [--json[=FILE]] "
    "[--allow-destroy]",
    "                   [--set KNOB=VALUE ...] [--force]",
    "                   [--db PATH | --no-store]",
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
		    "it is read, torn down afterwards).\nThe default "
		    "workload is %s.\n",
		    DEFAULT_WORKLOAD);
	cli_workloads_list(out);
}

/* A workload parameter: "--bs 4k" is kept as the pair "bs", "4k". */
static int param_option(const struct option *opt, const char *arg)
{
	struct run_args *a = opt->data;

	ALLOC_GROW(a->params, a->nr_params + 1, a->alloc_params);
	a->params[a->nr_params++] = (struct param_setting){opt->long_name, arg};
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
		error("unexpected argument '%s': run takes one workload, "
		      "first, then options (see 'iotrial run %s --help')",
		      arg, ops->name);
}

static const char **joined_params(const struct run_args *a, unsigned *out_nr);

/* run --job: the job file's sections, with the command line's
 * overrides. The exit code. */
static int run_job(struct run_args *a, const struct knob_cli *kc)
{
	struct job_cli_args ja = {0};
	unsigned nr = 0, i;
	const char **params = joined_params(a, &nr);
	int ret;

	ja.r = &a->r;
	ja.per_job = a->per_job;
	ja.params = params;
	ja.nr_params = nr;
	ja.set = kc->assign;
	ja.nr_set = (unsigned)kc->nr;
	ja.quiet = a->quiet;
	ja.prog = &a->prog;
	ret = job_cli_run(&ja);
	for (i = 0; i < nr; i++)
		free((char *)params[i]);
	free(params);
	return ret;
}

/*
 * A --set knob that cannot act on the workload (workload_ops.knob_above:
 * a block-layer replay and read_ahead_kb) is refused, as compare refuses
 * such a factor; with --force it runs, its run marked (trial.c). -1 to
 * refuse.
 */
static int check_knobs_above(const struct trial *tr, const struct run_args *a,
			     const struct knob_cli *kc)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < kc->nr; i++) {
		char *name =
		    xstrndup(kc->assign[i], strcspn(kc->assign[i], "="));
		const char *why = trial_knob_above(tr, name);

		if (why && a->force)
			warning("'%s' with %s: %s; the run is marked suspect",
				name, tr->c.ops->name, why);
		else if (why) {
			error("'%s' with %s: %s (or --force to run it anyway, "
			      "the run marked suspect)",
			      name, tr->c.ops->name, why);
			ret = -1;
		}
		free(name);
	}
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
	    OPT_CLI_RUN(&a->r, DEFAULT_TIME, "run"),
	    OPT_KNOB_SET(a->knobs, "change a knob for this run only (may be "
				   "repeated; see 'iotrial knobs')"),
	    OPT_BOOL(0, "dry-run", &a->dry_run,
		     "print the knob plan and the time, and run nothing"),
	    OPT_BOOL(0, "force", &a->force,
		     "run a --set knob the workload cannot show (a "
		     "block-layer replay's read_ahead_kb), the run marked "
		     "suspect"),
	    OPT_BOOL(
		0, "quiet", &a->quiet,
		"no notes and no plan on stderr: warnings and errors only"),
	    OPT_BOOL(0, "per-job", &a->per_job,
		     "a line per job, however many (more than 4 are "
		     "summarised)"),
	    OPT_CLI_PROGRESS(&a->prog),
	    OPT_CLI_JOB(&a->r),
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
	if (n > 0 && ops->command_param && !a->cmd) {
		/* the workload's command: what follows "--" */
		a->cmd = cli_command_line(n, argv);
		ALLOC_GROW(a->params, a->nr_params + 1, a->alloc_params);
		a->params[a->nr_params++] =
		    (struct param_setting){ops->command_param, a->cmd};
	} else if (n > 0) {
		unexpected(argv[0], a, first, ops);
		return -1;
	}
	if (cli_run_opts_check(&a->r, ops, a->workload))
		return -1;
	if (a->r.job && a->r.ios) {
		error("--ios does not apply to --job; a job file runs its "
		      "size, or --time");
		return -1;
	}
	return 0;
}

/* The workload parameters as "name=value", the overrides of a job
 * file's mapping (run --job); the caller frees each and the array. */
static const char **joined_params(const struct run_args *a, unsigned *out_nr)
{
	const char **v = xcalloc(a->nr_params + 1, sizeof(*v));
	unsigned i;

	for (i = 0; i < a->nr_params; i++) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s=%s", a->params[i].name,
			    a->params[i].value);
		v[i] = strbuf_detach(&sb, NULL);
	}
	*out_nr = a->nr_params;
	return v;
}

/*
 * The run length, ramp, seed and metric of a into c; prints and returns
 * -1 on an unknown metric.
 */
static int configure(struct experiment_config *c, const struct run_args *a)
{
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	c->ro.ios = a->r.ios;
	c->ro.time_ns = a->r.time_ns;
	c->ro.ramp_ns = a->r.ramp_ns;
	c->seed = a->r.seed;
	if (metric_lookup(c->ops, a->r.metric, c->params, c->nr_params,
			  &c->metric, &err)) {
		error("--metric: %s", err.buf);
		ret = -1;
	}
	strbuf_release(&err);
	return ret;
}

static const char *default_target(void)
{
	const char *tmp = getenv("TMPDIR");

	return tmp && *tmp ? tmp : "/tmp";
}

/* What the run said about itself, kept for printing at the end. */
struct run_view {
	int interrupted;
	unsigned flags; /* enum report_run_flags */
	struct cli_progress *prog;
};

/* trial_hooks: the run is about to begin (its progress). */
static void run_progress(void *ctx, const struct experiment_progress *p)
{
	struct run_view *v = ctx;

	cli_progress_experiment(v->prog, p);
}

/* trial_hooks: was the run cut short? (It is printed from its object.) */
static void run_done(void *ctx, const struct run_meta *meta,
		     const struct run_result *r)
{
	struct run_view *v = ctx;

	(void)meta;
	v->interrupted = r->interrupted;
}

/* The run's summary on stdout, from the object stored and shown. */
static void print_summary(const struct trial *tr, const struct run_view *v)
{
	struct strbuf out = STRBUF_INIT;

	if (trial_run_doc(tr))
		report_run_summary(trial_run_doc(tr),
				   v->flags | REPORT_RUN_METRIC, &out);
	fputs(out.buf, stdout);
	strbuf_release(&out);
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

int cmd_run(int argc, const char **argv)
{
	return cli_run_stored(argc, argv, NULL);
}

int cli_run_stored(int argc, const char **argv, char *out_id)
{
	struct run_args a = {0};
	const struct workload_ops *ops = NULL;
	struct run_view view = {0, 0, &a.prog};
	struct trial_hooks hooks = {
	    .ctx = &view, .run_done = run_done, .progress = run_progress};
	struct strbuf err = STRBUF_INIT;
	struct knob_cli kc;
	struct trial tr;
	int ret = EXIT_OK, pr;

	cli_progress_init(&a.prog);
	knob_cli_log(&hooks.log, NULL);
	trial_init(&tr, TRIAL_ONE_RUN, &hooks);
	knob_cli_init(&kc);
	a.knobs = &kc;
	pr = parse_args(argc, argv, &a, &ops);
	if (pr) {
		ret = pr > 0 ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	if (a.r.job && a.dry_run) {
		error("--dry-run plans a workload's run; a job file's sections "
		      "are not planned ('iotrial compare --job FILE "
		      "--dry-run' plans its arms)");
		ret = EXIT_USAGE;
		goto out;
	}
	if (a.r.job) {
		if (cli_progress_check(&a.prog)) {
			ret = EXIT_USAGE;
			goto out;
		}
		ret = run_job(&a, &kc);
		goto out;
	}
	if (a.quiet)
		knob_cli_log_quiet(&tr.hooks.log);
	if (a.per_job)
		view.flags |= REPORT_RUN_PER_JOB;
	tr.c.ops = ops;
	tr.c.params = a.params;
	tr.c.nr_params = a.nr_params;
	pr = trial_read_params(&tr, &err);
	if (pr || configure(&tr.c, &a) || (pr = trial_plan(&tr, &err))) {
		if (pr)
			error("%s", err.buf);
		ret = EXIT_USAGE;
		goto out;
	}
	if (check_knobs_above(&tr, &a, &kc)) {
		ret = EXIT_USAGE;
		goto out;
	}
	if ((a.r.json_file && cli_check_output(a.r.json_file)) ||
	    cli_progress_check(&a.prog)) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (!a.r.no_store && !a.dry_run &&
	    (ret = cli_check_store(a.r.db, "iotrial run")))
		goto out;
	if (a.dry_run) {
		const char *t = a.r.target ? a.r.target : default_target();

		if (!strncmp(t, "scratch:", 8)) {
			error("--dry-run plans on a target that exists; a "
			      "scratch target would be made for the run (give "
			      "a directory or a device)");
			ret = EXIT_USAGE;
			goto out;
		}
		a.r.target_flags |= TARGET_NO_WORKDIR;
	}
	/* signals first: a scratch target's set-up can take long, and
	 * must be torn down, not left behind, when interrupted */
	tr.c.stop = cli_catch_stop_signals();
	tr.set = kc.assign;
	tr.nr_set = (unsigned)kc.nr;
	if (cli_limits(&a.r.limits, &tr.limits)) {
		ret = EXIT_USAGE;
		goto out;
	}
	pr = trial_open(&tr, a.r.target ? a.r.target : default_target(),
			a.r.target_flags, &err);
	if (pr) {
		error("%s", err.buf);
		ret = pr == -EINTR ? EXIT_RUNTIME : EXIT_USAGE;
		goto out;
	}
	/* a closed pipe must not kill us before the restore: EPIPE instead */
	if (trial_has_undo(&tr))
		signal(SIGPIPE, SIG_IGN);
	if (a.dry_run) {
		ret = cli_dry_run(&tr, "run", a.r.json_file);
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
	/* progress: the run's I/Os as it goes, its ETA from --time or
	 * --ios */
	tr.c.live = &a.prog.live;
	a.prog.ios_wanted = a.r.ios;
	if (!a.r.ios || a.r.time_given)
		a.prog.run_length_s = (double)(a.r.time_ns + a.r.ramp_ns) / 1e9;
	cli_progress_start(&a.prog, "run", a.quiet, 0);
	pr = trial_run(&tr, &err);
	if (pr)
		cli_progress_finish(&a.prog,
				    *tr.c.stop ? "interrupted" : "failed");
	if (pr && tr.failed == TRIAL_FAILED_VERIFY) {
		/* bad data: the run is shown and written, never stored */
		if (a.r.json_file)
			cli_write_run(a.r.json_file, trial_run_doc(&tr));
		if (!a.r.json_file || strcmp(a.r.json_file, "-"))
			print_summary(&tr, &view);
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
	} else if (!a.r.no_store && trial_store(&tr, a.r.db, &err)) {
		error("the run was not stored: %s", err.buf);
		ret = EXIT_RUNTIME;
	}
	cli_progress_doc(&a.prog, tr.e.doc);
	cli_progress_finish(&a.prog, view.interrupted ? "interrupted"
				     : ret == EXIT_OK ? "done"
						      : "failed");
	if (a.r.json_file && cli_write_run(a.r.json_file, trial_run_doc(&tr)))
		ret = EXIT_RUNTIME;
	if (!a.r.json_file || strcmp(a.r.json_file, "-"))
		print_summary(&tr, &view);
	if (tr.id[0] && (!a.r.json_file || strcmp(a.r.json_file, "-")))
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
	cli_progress_release(&a.prog);
	trial_release(&tr);
	knob_cli_release(&kc);
	strbuf_release(&err);
	free(a.params);
	free(a.cmd);
	return ret;
}
