/*
 * iotrial compare: is setting B really faster than A for this workload
 * on this machine, by how much, and how sure are we? The command parses
 * its options and hands them to core/experiment/trial.c, which checks every arm
 * before anything runs, runs the experiment and saves it to the store;
 * then it prints the verdict table (or the experiment object).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "compare-int.h"
#include "job.h"
#include "knobargs.h"
#include "progress.h"
#include "typed_doc.h"
#include "../core/report/page.h"
#include "../core/report/suspect.h"
#include "../core/report/report_formats.h"
#include "../core/targets/target.h"
#include "../core/experiment/trial.h"
#include "../core/experiment/metrics.h"
#include "../util/error.h"
#include "../util/outfile.h"
#include "../util/units.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

/* A number macro as text, for a default: core's EXPERIMENT_MAX_ARMS. */
#define STR_(x) #x
#define STR(x)	STR_(x)

/* The values --runs takes besides numbers. */
static const char *const runs_words[] = {"auto", NULL};

static const char *const compare_usage[] = {
    "iotrial compare WORKLOAD --vary FACTOR=V1,V2[,...] [--vary ...]",
    "         [-t TARGET] [--PARAM=VALUE ...] [--set KNOB=VALUE ...]",
    "         [--time DUR | --ios N] [--ramp DUR]",
    "         [--runs N|auto] [--precision 2%] [--max-runs N] "
    "[--budget DUR]",
    "         [--metric NAME] [--equivalence 2%] [--baseline ARM] "
    "[--warmup N]",
    "         [--seed N]",
    "         [--no-drop-caches] [--duet] [--max-arms N] [--db PATH]",
    "         [--no-store]",
    "         [--json[=FILE]] [--report FILE.html] [--fail-on-regression]",
    "         [--export-csv FILE] [--export-markdown FILE]",
    "         [--progress json[:FD]] [--metrics-file FILE]",
    "         [--strict] [--quiet]",
    "         [--allow-destroy] [--force] [--memory-limit SIZE] [--cpus LIST]",
    "         [--mems LIST]",
    "   or: iotrial compare --job FILE.fio [--section NAME] --vary ...",
    NULL,
};

/* The HTML report of exp into the new file path; 0 or -1 after saying
 * why. */
static int write_html(const struct experiment_doc *exp, const char *path)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int ret = report_render(exp, "html", &out, &err);

	if (ret)
		error("no report: %s", err.buf);
	else
		ret = cli_write_report_file(path, out.buf, out.len, 0);
	strbuf_release(&out);
	strbuf_release(&err);
	return ret ? -1 : 0;
}

/* The help after the options: factors, how runs go, the workloads. */
static void compare_epilogue(struct strbuf *out)
{
	strbuf_addstr(out,
		      "FACTOR is a knob (scheduler, read_ahead_kb, atime, "
		      "vm.dirty_ratio, ...;\nsee 'iotrial knobs') or a "
		      "parameter of the workload (bs, iodepth, engine,\njobs, "
		      "direct, label, ...). Arms are the combinations of the "
		      "values; the\nfirst value of each factor is the "
		      "baseline. Runs go in randomized blocks\n(each arm "
		      "once per block, shuffled); with --runs auto (default) "
		      "at least\n6 blocks (or what a verdict needs), then "
		      "until every ratio's 95% CI is within\n--precision, "
		      "or --max-runs or --budget. A budget too small "
		      "for a verdict\nis refused before the first run "
		      "(--force runs it anyway); an experiment\nstopped on "
		      "a limit says how many more blocks --precision "
		      "needs.\nA knob value that is translated (cfq is bfq) is "
		      "noted before the runs\nand its arm labelled with what "
		      "is set: scheduler=bfq (asked: cfq).\nThe ratio is arm "
		      "over baseline within each block: the Hodges-Lehmann\n"
		      "estimate of the per-block ratios (the median of their "
		      "pairwise means),\nwith the signed-rank test's 95% CI "
		      "and p on the same ratios; it is not\nthe ratio of the "
		      "two medians in the table.\nTARGET is as for 'iotrial "
		      "run' (default: "
		      "$TMPDIR or /tmp).\nUnder the table, 'measured:' gives "
		      "per run the bytes "
		      "the workload, the\ntarget's device and the disk under "
		      "it moved.\n");
	strbuf_addstr(out, "--set KNOB=VALUE holds a knob at one value in "
			   "every arm (it is no factor;\nrestored at the "
			   "end like the factors).\n");
	strbuf_addstr(out, "With two factors or more, the table first gives "
			   "each factor's effect\nwithin the other factors' "
			   "levels and says whether it depends on them (an\n"
			   "interaction); the table of every arm against the "
			   "baseline arm follows.\n");
	strbuf_addstr(out,
		      "A factor whose values are numbers (clients=1,2,4,8, "
		      "iodepth, bs=4k,64k,\nread_ahead_kb) also gets a "
		      "scaling table after it: the median and its 95% CI\n"
		      "at each value in numeric order, and its ratio to "
		      "the first value.\n");
	strbuf_addstr(
	    out, "A verdict marked '*' comes from runs iotrial flagged (page "
		 "cache,\nabsorbed writes, too short, CPU-bound, "
		 "interrupted, drift); a footnote\nsays which and how "
		 "many. --strict gives such arms 'suspect' instead "
		 "of\nfaster/slower. --fail-on-regression counts a "
		 "suspect arm only with --strict\n(then when its "
		 "estimate is slower). Beware: without --strict a "
		 "suspect\n'slower' exits 0, with a warning that says so; "
		 "a CI gate wants --strict.\n");
	cli_workloads_list(out);
}

static int push(const char ***list, unsigned *nr, unsigned *alloc,
		const char *s)
{
	ALLOC_GROW(*list, *nr + 1, *alloc);
	(*list)[(*nr)++] = s;
	return 0;
}

/* A workload parameter, kept as the pair name, value. */
static int param_option(const struct option *opt, const char *arg)
{
	struct compare_args *a = opt->data;

	ALLOC_GROW(a->params, a->nr_params + 1, a->alloc_params);
	a->params[a->nr_params++] = (struct param_setting){opt->long_name, arg};
	return 0;
}

/* The parameters as "name=value", the overrides of a job file's mapping
 * (compare --job); the caller frees each and the array. */
static const char **joined_params(const struct compare_args *a)
{
	const char **v = xcalloc(a->nr_params + 1, sizeof(*v));
	unsigned i;

	for (i = 0; i < a->nr_params; i++) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s=%s", a->params[i].name,
			    a->params[i].value);
		v[i] = strbuf_detach(&sb, NULL);
	}
	return v;
}

/* --vary FACTOR=V1,V2: one more factor, checked when the arms are made. */
static int vary_option(const struct option *opt, const char *arg)
{
	struct compare_args *a = opt->data;

	return push(&a->vary, &a->nr_vary, &a->alloc_vary, arg);
}

/* Is --job among the arguments (so no workload need come first)? */
static int has_job(int argc, const char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--job") || !strncmp(argv[i], "--job=", 6))
			return 1;
	return 0;
}

/* --time takes "auto" too (noise.h: the run length from the model). */
static void time_takes_auto(struct option *opts)
{
	static const char *const words[] = {"auto", NULL};

	for (; opts->type != OPTION_END; opts++)
		if (opts->long_name && !strcmp(opts->long_name, "time") &&
		    opts->type == OPTION_DURATION) {
			opts->choices = words;
			opts->help = "length of each run, or auto: the length "
				     "whose interval is narrowest for the time "
				     "by this machine's noise model";
		}
}

static int parse_args(int argc, const char **argv, struct compare_args *a,
		      const struct workload_ops **out_ops)
{
	const struct workload_ops *ops;
	struct workload_options params;
	struct strbuf epilogue = STRBUF_INIT;
	struct option *opts;
	struct option own[] = {
	    OPT_GROUP("options:"),
	    OPT_CALLBACK(0, "vary", a, "FACTOR=V1,V2[,...]",
			 "a knob or parameter and its values; one --vary per "
			 "factor",
			 vary_option),
	    OPT_KNOB_SET(&a->set, "hold a knob at this value in every arm "
				  "(restored at the end; may be repeated)"),
	    OPT_CLI_RUN(&a->r, "3s", "experiment"),
	    OPT_COUNT(0, "runs", &a->runs, "auto", "1", "10000",
		      "runs per arm, or auto: until --precision",
		      .choices = runs_words),
	    OPT_PERCENT(0, "precision", &a->precision, "2%", "0%", "100%",
			"the CI half-width that ends an auto experiment",
			.flags = OPT_RANGE_OPEN),
	    OPT_COUNT(0, "max-runs", &a->max_runs, "30", "2", "10000",
		      "at most N runs per arm with --runs auto (with "
		      "--budget: no limit but the budget)",
		      .given = &a->max_runs_given),
	    OPT_DURATION(0, "budget", &a->budget_ns, NULL, "1ms", NULL,
			 "stop an auto experiment after about this long; no "
			 "limit by default"),
	    OPT_PERCENT(0, "equivalence", &a->equivalence, "2%", "0%", "100%",
			"the margin of 'equivalent'", .flags = OPT_RANGE_OPEN),
	    OPT_STRING(0, "baseline", &a->baseline, "ARM",
		       "compare with this arm instead of the first values "
		       "(a translated value as asked or as set)"),
	    OPT_COUNT(0, "warmup", &a->warmup, "0", NULL, NULL,
		      "runs before the first block, discarded"),
	    OPT_COUNT(0, "max-arms", &a->max_arms, STR(EXPERIMENT_MAX_ARMS),
		      "1", "4096", "refuse more arms than this"),
	    OPT_BOOL(0, "no-drop-caches", &a->no_drop_caches,
		     "do not drop the page cache before each run"),
	    OPT_BOOL(0, "duet", &a->duet,
		     "run the arms of a block at the same time, each on a "
		     "scratch target of its own, so that the machine's noise "
		     "hits them alike (scratch targets; device and mount "
		     "knobs)"),
	    OPT_STRING(0, "report", &a->report, "FILE.html",
		       "at the end, write the HTML report (as 'iotrial "
		       "report --format html') to FILE.html"),
	    OPT_STRING(0, "export-csv", &a->export_csv, "FILE",
		       "at the end, write the arms (median and CI, ratio and "
		       "CI, verdict) as CSV to FILE, as hyperfine does"),
	    OPT_STRING(0, "export-markdown", &a->export_md, "FILE",
		       "at the end, write the arms as a Markdown table to "
		       "FILE"),
	    OPT_BOOL(0, "fail-on-regression", &a->fail_on_regression,
		     "exit 3 when an arm is significantly slower; a suspect "
		     "arm's 'slower' (from runs iotrial flagged) exits 0 "
		     "unless --strict"),
	    OPT_BOOL(0, "strict", &a->strict,
		     "no faster/slower from runs iotrial flagged (verdict "
		     "'suspect'); with --fail-on-regression such an arm "
		     "fails when its estimate is slower"),
	    OPT_BOOL(0, "quiet", &a->quiet,
		     "no progress line and no header on stderr"),
	    OPT_BOOL(0, "dry-run", &a->dry_run,
		     "print the arms, their knob plans, the blocks and the "
		     "time, and run nothing"),
	    OPT_BOOL(0, "force", &a->force,
		     "run even when --budget or --max-runs cannot reach a "
		     "verdict"),
	    OPT_CLI_PROGRESS(&a->prog),
	    OPT_CLI_JOB(&a->r),
	    OPT_SCHEMA(),
	    OPT_END(),
	};
	int n, help = argc > 1 &&
		      (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
	int job = argc > 1 && argv[1][0] == '-' && has_job(argc, argv);

	if ((argc < 2 || argv[1][0] == '-') && !help && !job) {
		error("compare needs a workload first: iotrial compare "
		      "WORKLOAD --vary FACTOR=A,B");
		return -1;
	}
	if (help || job) {
		/* a job file's workload is an rw one: same parameters */
		ops = workload_find("randread");
	} else {
		a->workload = argv[1];
		ops = cli_find_workload(a->workload, "compare");
		if (!ops)
			return -1;
		argc--;
		argv++;
	}
	*out_ops = ops;
	cli_workload_options(&params, ops, param_option, a);
	cli_untimed_options(own, ops);
	time_takes_auto(own);
	opts = options_join(params.opts, own);
	compare_epilogue(&epilogue);
	cli_metrics_help(&epilogue, ops);
	n = cli_refuse_fio_rw("compare", argc, argv)
		? PARSE_OPT_ERROR
		: parse_options(argc, argv, "compare", opts, compare_usage,
				epilogue.buf, 0);
	free(opts);
	cli_workload_options_release(&params);
	strbuf_release(&epilogue);
	if (n == PARSE_OPT_HELP)
		return 1;
	if (n < 0)
		return -1;
	if (n > 0 && ops->command_param) {
		/* the workload's command: what follows "--" */
		a->cmd = cli_command_line(n, argv);
		ALLOC_GROW(a->params, a->nr_params + 1, a->alloc_params);
		a->params[a->nr_params++] =
		    (struct param_setting){ops->command_param, a->cmd};
	} else if (n > 0) {
		error("unexpected argument '%s': compare takes one workload, "
		      "first, then options (see 'iotrial compare %s --help')",
		      argv[0], ops->name);
		return -1;
	}
	if (cli_run_opts_check(&a->r, ops, a->workload))
		return -1;
	if (!a->nr_vary) {
		error("nothing to compare: give at least one --vary "
		      "FACTOR=A,B (e.g. --vary scheduler=none,mq-deadline)");
		return -1;
	}
	return 0;
}

/* The options of a into c, which holds the other defaults
 * (trial_init()). */
static void configure(struct experiment_config *c, const struct compare_args *a)
{
	c->drop_caches = !a->no_drop_caches;
	c->runs_fixed = (unsigned)a->runs;
	c->max_runs = (unsigned)a->max_runs;
	/* a budget is the limit asked for: the default count is not */
	if (a->budget_ns && !a->max_runs_given)
		c->max_runs = 0;
	if (c->max_runs && c->min_blocks > c->max_runs)
		c->min_blocks = c->max_runs;
	c->precision = a->precision;
	c->equivalence = a->equivalence;
	c->budget_ns = a->budget_ns;
	c->warmup = (unsigned)a->warmup;
	c->max_arms = (unsigned)a->max_arms;
	c->ro.ios = a->r.ios;
	/* --time auto: the default until the model picks (say_time()) */
	c->ro.time_ns = a->r.time_ns ? a->r.time_ns : 3000000000ull;
	c->ro.ramp_ns = a->r.ramp_ns;
	c->seed = a->r.seed;
}

/* Progress (progress.h): a line on a terminal, --progress=json,
 * --metrics-file with what is measured so far. */
static void on_progress(void *ctx, const struct experiment_progress *p)
{
	struct compare_args *a = ctx;

	cli_progress_doc(&a->prog, a->tr->e.doc);
	cli_progress_experiment(&a->prog, p);
}

/* --export-csv, --export-markdown: the arms' table into path, replaced
 * whole ("-": stdout). 0, or -1 after saying why. */
static int write_arms(const struct experiment_doc *exp, const char *path,
		      int md)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int ret = 0;

	cli_arms_of_doc(exp, md, &out);
	if (!strcmp(path, "-"))
		fputs(out.buf, stdout);
	else if ((ret = outfile_write(path, out.buf, out.len, OUTFILE_REPLACE,
				      &err)))
		error("%s", err.buf);
	strbuf_release(&out);
	strbuf_release(&err);
	return ret ? -1 : 0;
}

/* Can the exports be written, before any run? 0, or -1 after saying
 * why. */
static int check_exports(const struct compare_args *a)
{
	const char *paths[2] = {a->export_csv, a->export_md};
	struct strbuf err = STRBUF_INIT;
	int i, ret = 0;

	for (i = 0; i < 2 && !ret; i++) {
		if (!paths[i] || !strcmp(paths[i], "-"))
			continue;
		if (!*paths[i] ||
		    outfile_check(paths[i], OUTFILE_REPLACE, &err)) {
			error("--export-%s: %s", i ? "markdown" : "csv",
			      *paths[i] ? err.buf : "needs a file name");
			ret = -1;
		}
	}
	strbuf_release(&err);
	return ret;
}

static int default_target_spec(struct strbuf *out)
{
	const char *tmp = getenv("TMPDIR");

	strbuf_addstr(out, tmp && *tmp ? tmp : "/tmp");
	return 0;
}

/* Session messages: warnings matter, per-arm "set" chatter does not.
 * Said during the runs (the wrap warning after the first layout), they
 * first clear the progress line on a terminal. */
static void quiet_say(void *data, enum session_say_level level, const char *msg)
{
	(void)data;
	if (level != SESSION_SAY_INFO && isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K");
	if (level == SESSION_SAY_WARN)
		warning("%s", msg);
	else if (level == SESSION_SAY_NOTE)
		note("%s", msg);
}

/* The number of runs in the experiment, 0 without one. */
static size_t nr_runs(const struct experiment_doc *exp)
{
	return exp ? exp->nr_runs : 0;
}

int cmd_compare(int argc, const char **argv)
{
	struct compare_args a = {0};
	const struct workload_ops *ops = NULL;
	const struct trial_hooks hooks = {
	    .log = {quiet_say, NULL},
	    .ctx = &a,
	    .progress = on_progress,
	};
	struct trial tr;
	struct strbuf err = STRBUF_INIT, spec = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT;
	struct fiojob_plan plan = {0};
	struct noise_pick pick = {0};
	unsigned i;
	int ret = EXIT_OK, pr;

	trial_init(&tr, TRIAL_EXPERIMENT, &hooks);
	cli_progress_init(&a.prog);
	a.tr = &tr;
	knob_cli_init(&a.set);
	pr = parse_args(argc, argv, &a, &ops);
	if (pr) {
		ret = pr > 0 ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	configure(&tr.c, &a);
	/* --quiet: the session's warnings only, as run --quiet */
	if (a.quiet)
		knob_cli_log_quiet(&tr.hooks.log);
	if ((a.r.json_file && cli_check_output(a.r.json_file)) ||
	    cli_progress_check(&a.prog) || check_exports(&a) ||
	    (a.report &&
	     cli_check_report_file(a.report, 0,
				   "remove it; 'iotrial report ID --format "
				   "html -o FILE --force' replaces one"))) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (metric_lookup(ops, a.r.metric, a.params, a.nr_params, &tr.c.metric,
			  &err)) {
		error("--metric: %s", err.buf);
		ret = EXIT_USAGE;
		goto out;
	}
	if (!a.r.no_store && !a.dry_run &&
	    (ret = cli_check_store(a.r.db, "iotrial compare")))
		goto out;
	if (a.dry_run && a.r.target && !strncmp(a.r.target, "scratch:", 8)) {
		error("--dry-run plans on a target that exists; a scratch "
		      "target would be made for the runs (give a directory or "
		      "a device)");
		ret = EXIT_USAGE;
		goto out;
	}
	if (a.dry_run)
		a.r.target_flags |= TARGET_NO_WORKDIR;
	if (a.r.target)
		strbuf_addstr(&spec, a.r.target);
	else
		default_target_spec(&spec);
	tr.c.ops = ops;
	tr.c.params = a.params;
	tr.c.nr_params = a.nr_params;
	tr.c.baseline = a.baseline;
	tr.set = a.set.assign;
	tr.nr_set = (unsigned)a.set.nr;
	if (cli_limits(&a.r.limits, &tr.limits)) {
		ret = EXIT_USAGE;
		goto out;
	}
	/* signals first: a scratch target's set-up is torn down on one */
	tr.c.stop = cli_catch_stop_signals();
	pr = trial_open(&tr, spec.buf, a.r.target_flags, &err);
	if (pr) {
		error("%s", err.buf);
		ret = pr == -EINTR ? EXIT_RUNTIME : EXIT_USAGE;
		goto out;
	}
	if (a.r.job) {
		const char **joined = joined_params(&a);

		ret = job_cli_compare_setup(
		    &tr, a.r.job, a.r.section,
		    cli_run_opts_job_flags(&a.r) | (a.quiet ? JOB_QUIET : 0),
		    joined, a.nr_params, a.r.time_given, a.r.ramp_given, &plan);
		for (i = 0; i < a.nr_params; i++)
			free((char *)joined[i]);
		free(joined);
		if (ret)
			goto out;
	}
	for (i = 0; i < a.nr_vary; i++)
		if (trial_add_factor(&tr, a.vary[i], &err)) {
			error("%s", err.buf);
			ret = EXIT_USAGE;
			goto out;
		}
	if (a.dry_run) {
		if ((pr = trial_plan(&tr, &err))) {
			error("%s", err.buf);
			ret = EXIT_USAGE;
		} else if (compare_check_plan(&tr, &a)) {
			ret = EXIT_USAGE;
		} else {
			ret = cli_dry_run(&tr, "compare", a.r.json_file);
		}
		goto out;
	}
	tr.duet = a.duet;
	if ((pr = trial_plan(&tr, &err)) || (pr = trial_check(&tr, &err))) {
		error("%s", err.buf);
		/* not root: as set and run --set say it, a runtime refusal */
		ret = pr == -EPERM ? EXIT_RUNTIME : EXIT_USAGE;
		goto out;
	}
	if (a.r.time_given && !a.r.time_ns && !a.r.ios)
		compare_pick_time(&tr, &a, &pick);
	if (compare_check_plan(&tr, &a)) {
		ret = EXIT_USAGE;
		goto out;
	}
	cli_warn_wrap(&tr, a.quiet, 1);
	if (!a.quiet) {
		/* where the knobs go: the device, the mount, the system */
		trial_knob_places(&tr, &out);
		fprintf(stderr, "compare: %u arms%s, seed %llu%s%s%s\n",
			tr.e.nr_arms,
			tr.c.nr_places > 1 ? " at once (duet)" : "",
			(unsigned long long)tr.c.seed,
			tr.c.runs_fixed ? "" : ", runs until precision",
			out.len ? "; set: " : "", out.buf);
		strbuf_reset(&out);
		cli_say_dir_disk(&tr, "compare");
		compare_say_cost(&tr, &a, pick.why ? &pick : NULL);
	}
	tr.c.live = &a.prog.live;
	cli_progress_start(&a.prog, "compare", a.quiet, 0);
	pr = trial_run(&tr, &err);
	if (trial_finish(&tr, &out))
		error("%s", out.buf);
	strbuf_reset(&out);
	if (pr) {
		error("%s", err.buf);
		ret = EXIT_RUNTIME;
		/* keep and show what was measured, if anything */
		if (!nr_runs(tr.e.doc))
			goto out;
	}
	if (*tr.c.stop) {
		/* what was measured is shown and kept, but it is no success */
		warning("interrupted: the verdicts cover only the runs done");
		if (ret == EXIT_OK)
			ret = EXIT_RUNTIME;
	}
	if (a.strict && tr.e.doc)
		suspect_doc_apply_strict(tr.e.doc);
	if (!a.r.no_store && nr_runs(tr.e.doc) &&
	    trial_store(&tr, a.r.db, &err)) {
		error("the experiment was not stored: %s", err.buf);
		ret = EXIT_RUNTIME;
	}
	cli_progress_doc(&a.prog, tr.e.doc);
	cli_progress_finish(&a.prog, *tr.c.stop ? "interrupted"
				     : pr	? "failed"
						: "done");
	if (a.r.json_file && cli_write_experiment(a.r.json_file, tr.e.doc))
		ret = EXIT_RUNTIME;
	if (!a.r.json_file || strcmp(a.r.json_file, "-")) {
		report_page(tr.e.doc, &emit_text_ops, REPORT_PAGE_VERDICTS,
			    &out, &err);
		report_page(tr.e.doc, &emit_text_ops, REPORT_SEC(devices), &out,
			    &err);
		fputs(out.buf, stdout);
	}
	if (a.report && write_html(tr.e.doc, a.report))
		ret = EXIT_RUNTIME;
	if (a.export_csv && write_arms(tr.e.doc, a.export_csv, 0))
		ret = EXIT_RUNTIME;
	if (a.export_md && write_arms(tr.e.doc, a.export_md, 1))
		ret = EXIT_RUNTIME;
	if (ret == EXIT_OK && a.fail_on_regression &&
	    cli_doc_has_regression(tr.e.doc, a.strict))
		ret = EXIT_REGRESSION;
out:
	cli_progress_release(&a.prog);
	trial_release(&tr);
	fiojob_plan_release(&plan);
	strbuf_release(&err);
	strbuf_release(&spec);
	strbuf_release(&out);
	free(a.vary);
	free(a.params);
	free(a.cmd);
	knob_cli_release(&a.set);
	return ret;
}
