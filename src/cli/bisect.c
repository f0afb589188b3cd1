/*
 * iotrial bisect: two machines (two sets of settings) differ in a dozen
 * settings and in speed; which settings explain it? The command reads
 * the two sets (KNOB=VALUE, or a machine's knobs --json or info
 * --json), keeps the settings that differ on this target, and hands a
 * delta-debugging search to core/tune/tune_run.c, which runs each step
 * as a small sequential compare through a trial (journaled, restored,
 * stored). It prints the settings that carry the difference, their
 * share of it, and those shown to carry none.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "job.h"
#include "typed_doc.h"
#include "../core/experiment/metrics.h"
#include "../core/experiment/trial.h"
#include "../core/export/export.h"
#include "../core/report/page.h"
#include "../core/model/experiment_doc.h"
#include "../core/store/store.h"
#include "../core/tune/sets.h"
#include "../core/tune/tune_run.h"
#include "../util/error.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

/* Everything bisect was asked, parsed. */
struct bisect_args {
	const char *workload;
	struct cli_run_opts r;
	struct option_list from, to; /* KNOB=VALUE or FILE.json */
	uint64_t budget_ns, max_blocks;
	double equivalence;
	int no_drop_caches, quiet;
	struct param_setting *params;
	unsigned nr_params, alloc_params;
	char *cmd;
};

static const char *const bisect_usage[] = {
    "iotrial bisect WORKLOAD --from SET... --to SET... [-t TARGET]",
    "         [--PARAM=VALUE ...] [--time DUR | --ios N] [--budget DUR]",
    "         [--equivalence 2%] [--max-blocks N] [--metric NAME] "
    "[--seed N]",
    "         [--no-drop-caches] [--db PATH] [--no-store] "
    "[--json[=FILE]] [--quiet]",
    "   or: iotrial bisect --job FILE.fio [--section NAME] --from ... "
    "--to ...",
    NULL,
};

/* The help after the options. */
static void bisect_epilogue(struct strbuf *out)
{
	strbuf_addstr(
	    out, "SET is KNOB=VALUE (give --from and --to once per knob), or "
		 "the JSON file\n'iotrial knobs --json' or 'iotrial info "
		 "--json' wrote on a machine, or ID:ARM,\nan arm of a stored "
		 "experiment (#N, its label or its settings). A knob\none set "
		 "does not name "
		 "is at its current value there. Only the settings\nthat "
		 "differ are searched: the runs start from the --from set with "
		 "a subset\nset as --to has it. Each step runs blocks of "
		 "--from, --to and --from with\nhalf of a set that carries "
		 "the difference, until that half can be told\n(it carries "
		 "none, all or part of it) or --max-blocks; 'cannot tell' is "
		 "kept\nas such, neither good nor bad. The answer: the "
		 "settings that carry the\ndifference, their share of it "
		 "with its 95% CI, and the settings shown to\ncarry none. "
		 "Every knob is journaled and restored at the end.\n");
	cli_workloads_list(out);
}

static int param_option(const struct option *opt, const char *arg)
{
	struct bisect_args *a = opt->data;

	ALLOC_GROW(a->params, a->nr_params + 1, a->alloc_params);
	a->params[a->nr_params++] = (struct param_setting){opt->long_name, arg};
	return 0;
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

static int parse_args(int argc, const char **argv, struct bisect_args *a,
		      const struct workload_ops **out_ops)
{
	const struct workload_ops *ops;
	struct workload_options params;
	struct strbuf epilogue = STRBUF_INIT;
	struct option *opts;
	struct option own[] = {
	    OPT_GROUP("options:"),
	    OPT_LIST(0, "from", &a->from, "SET",
		     "the first set: KNOB=VALUE, a knobs/info --json file, "
		     "or ID:ARM, an arm of a stored experiment; may be "
		     "repeated"),
	    OPT_LIST(0, "to", &a->to, "SET", "the second set, likewise"),
	    OPT_CLI_RUN(&a->r, "1s", "experiment"),
	    OPT_DURATION(0, "budget", &a->budget_ns, NULL, "1ms", NULL,
			 "stop after about this long; no limit by default"),
	    OPT_PERCENT(0, "equivalence", &a->equivalence, "2%", "0%", "100%",
			"the margin of 'carries none'",
			.flags = OPT_RANGE_OPEN),
	    OPT_COUNT(0, "max-blocks", &a->max_blocks, "20", "6", "1000",
		      "blocks a step runs at most before it says 'cannot "
		      "tell'"),
	    OPT_BOOL(0, "no-drop-caches", &a->no_drop_caches,
		     "do not drop the page cache before each run"),
	    OPT_BOOL(0, "quiet", &a->quiet,
		     "no progress line and no header on stderr"),
	    OPT_CLI_JOB(&a->r),
	    OPT_SCHEMA(),
	    OPT_END(),
	};
	int n, help = argc > 1 &&
		      (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
	int job = argc > 1 && argv[1][0] == '-' && has_job(argc, argv);

	if ((argc < 2 || argv[1][0] == '-') && !help && !job) {
		error("bisect needs a workload first: iotrial bisect WORKLOAD "
		      "--from SET --to SET -t TARGET");
		return -1;
	}
	if (help || job) {
		ops = workload_find("randread");
	} else {
		a->workload = argv[1];
		ops = cli_find_workload(a->workload, "bisect");
		if (!ops)
			return -1;
		argc--;
		argv++;
	}
	*out_ops = ops;
	cli_workload_options(&params, ops, param_option, a);
	cli_untimed_options(own, ops);
	opts = options_join(params.opts, own);
	bisect_epilogue(&epilogue);
	cli_metrics_help(&epilogue, ops);
	n = parse_options(argc, argv, "bisect", opts, bisect_usage,
			  epilogue.buf, 0);
	free(opts);
	cli_workload_options_release(&params);
	strbuf_release(&epilogue);
	if (n == PARSE_OPT_HELP)
		return 1;
	if (n < 0)
		return -1;
	if (n > 0 && ops->command_param) {
		a->cmd = cli_command_line(n, argv);
		ALLOC_GROW(a->params, a->nr_params + 1, a->alloc_params);
		a->params[a->nr_params++] =
		    (struct param_setting){ops->command_param, a->cmd};
	} else if (n > 0) {
		error("unexpected argument '%s': bisect takes one workload, "
		      "first, then options (see 'iotrial bisect %s --help')",
		      argv[0], ops->name);
		return -1;
	}
	if (!a->from.nr || !a->to.nr) {
		error("bisect needs both sets: --from SET and --to SET (each "
		      "KNOB=VALUE or a knobs/info --json file)");
		return -1;
	}
	return cli_run_opts_check(&a->r, ops, a->workload) ? -1 : 0;
}

/* Session messages: warnings and notes, each once. */
static void say(void *data, enum session_say_level level, const char *msg)
{
	(void)data;
	if (level == SESSION_SAY_INFO || cli_tune_said_before(msg))
		return;
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K");
	if (level == SESSION_SAY_WARN)
		warning("%s", msg);
	else if (level == SESSION_SAY_NOTE)
		note("%s", msg);
}

static void on_progress(void *ctx, const struct experiment_progress *p)
{
	const struct bisect_args *a = ctx;

	if (a->quiet || !isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r\033[K[run %u] block %u: %.60s", p->run + 1,
		p->block + 1, p->arm);
	fflush(stderr);
}

/* Is spec "ID:ARM", ID a stored experiment's id (STORE_ID_LEN
 * lowercase hex digits; no knob name is one)? */
static int arm_spec(const char *spec)
{
	size_t i;

	for (i = 0; i < STORE_ID_LEN; i++)
		if (!isxdigit((unsigned char)spec[i]) ||
		    isupper((unsigned char)spec[i]))
			return 0;
	return spec[i] == ':' && spec[i + 1];
}

/*
 * The settings of arm ARM of the stored experiment ID (spec "ID:ARM",
 * the arm named as apply --arm names it) into out, each "KNOB=VALUE";
 * an experiment from elsewhere may not set a raw knob. 0 or an exit
 * code after the error.
 */
static int read_arm(const char *spec, const char *db, struct knob_list *out)
{
	struct strbuf err = STRBUF_INIT;
	struct experiment_doc doc;
	struct export_pick pick;
	char id[STORE_ID_LEN + 1];
	struct store s;
	size_t i;
	int r, ret = EXIT_OK;

	memcpy(id, spec, STORE_ID_LEN);
	id[STORE_ID_LEN] = 0;
	memset(&pick, 0, sizeof(pick));
	experiment_doc_init(&doc);
	r = store_open_flags(&s, db, STORE_NO_CREATE, &err);
	if (!r)
		r = store_load_doc(&s, id, &doc, &err);
	store_close(&s);
	if (!r)
		r = export_pick(&doc, spec + STORE_ID_LEN + 1, NULL, NULL,
				&pick, &err);
	if (r) {
		error("'%s': %s", spec, err.buf);
		ret = r == -EINVAL || r == -ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	for (i = 0; i < pick.nr_assign; i++)
		if (strcmp(pick.origin, EXP_ORIGIN_LOCAL) &&
		    knob_name_is_raw(pick.assign[i])) {
			error("'%s': the experiment came from elsewhere (%s) "
			      "and its arm sets the raw knob '%s'",
			      spec, pick.origin, pick.assign[i]);
			ret = EXIT_USAGE;
			goto out;
		}
	for (i = 0; i < pick.nr_assign; i++)
		knob_list_add(out, pick.assign[i]);
out:
	export_pick_release(&pick);
	experiment_doc_release(&doc);
	strbuf_release(&err);
	return ret;
}

/* The sets of list as "KNOB=VALUE" into out: assignments, set files,
 * arms of stored experiments (db); an exit code or 0. */
static int read_sets(const struct option_list *list, const char *db,
		     struct knob_list *out)
{
	struct strbuf err = STRBUF_INIT;
	size_t i;
	int ret = 0;

	for (i = 0; i < list->nr && !ret; i++)
		if (arm_spec(list->v[i])) {
			ret = read_arm(list->v[i], db, out);
		} else if (tune_set_read(list->v[i], out, &err)) {
			error("%s", err.buf);
			ret = EXIT_USAGE;
		}
	strbuf_release(&err);
	return ret;
}

int cmd_bisect(int argc, const char **argv)
{
	struct bisect_args a = {0};
	const struct workload_ops *ops = NULL;
	const struct trial_hooks hooks = {
	    .log = {say, NULL},
	    .ctx = &a,
	    .progress = on_progress,
	};
	struct trial tr;
	struct tune_drive d;
	struct tune_bisect_opts bo;
	struct knob_list from = {0}, to = {0};
	struct tune_diff *diff = NULL;
	unsigned nr_diff = 0, i;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct fiojob_plan plan = {0};
	const char *tmp = getenv("TMPDIR");
	int ret = EXIT_OK, pr;

	memset(&d, 0, sizeof(d));
	trial_init(&tr, TRIAL_EXPERIMENT, &hooks);
	pr = parse_args(argc, argv, &a, &ops);
	if (pr) {
		ret = pr > 0 ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	tr.c.drop_caches = !a.no_drop_caches;
	tr.c.equivalence = a.equivalence;
	tr.c.ro.ios = a.r.ios;
	tr.c.ro.time_ns = a.r.time_ns;
	tr.c.ro.ramp_ns = a.r.ramp_ns;
	tr.c.seed = a.r.seed;
	tr.c.max_arms = 4096;
	tr.c.ops = ops;
	tr.c.params = a.params;
	tr.c.nr_params = a.nr_params;
	if ((a.r.json_file && cli_check_output(a.r.json_file)) ||
	    read_sets(&a.from, a.r.db, &from) ||
	    read_sets(&a.to, a.r.db, &to)) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (metric_lookup(ops, a.r.metric, a.params, a.nr_params, &tr.c.metric,
			  &err)) {
		error("--metric: %s", err.buf);
		ret = EXIT_USAGE;
		goto out;
	}
	if (!a.r.no_store && (ret = cli_check_store(a.r.db, "iotrial bisect")))
		goto out;
	if (cli_limits(&a.r.limits, &tr.limits)) {
		ret = EXIT_USAGE;
		goto out;
	}
	tr.c.stop = cli_catch_stop_signals();
	pr = trial_open(&tr,
			a.r.target    ? a.r.target
			: tmp && *tmp ? tmp
				      : "/tmp",
			a.r.target_flags, &err);
	if (pr) {
		error("%s", err.buf);
		ret = pr == -EINTR ? EXIT_RUNTIME : EXIT_USAGE;
		goto out;
	}
	if (a.r.job &&
	    (ret = job_cli_compare_setup(
		 &tr, a.r.job, a.r.section,
		 cli_run_opts_job_flags(&a.r) | (a.quiet ? JOB_QUIET : 0), NULL,
		 0, a.r.time_given, a.r.ramp_given, &plan)))
		goto out;
	pr = tune_diffs(&tr, (const char *const *)from.v, (unsigned)from.nr,
			(const char *const *)to.v, (unsigned)to.nr, &diff,
			&nr_diff, &err);
	if (pr) {
		error("%s", err.buf);
		ret = EXIT_USAGE;
		goto out;
	}
	if (!nr_diff) {
		error("the --from and --to sets do not differ on '%s' (every "
		      "knob they name reads the same here); nothing to "
		      "bisect",
		      tr.t.spec);
		ret = EXIT_USAGE;
		goto out;
	}
	tune_bisect_opts_init(&bo);
	bo.seed = tr.c.seed;
	bo.max_blocks = (unsigned)a.max_blocks;
	bo.j.margin = a.equivalence;
	bo.j.higher_is_better = tr.c.metric->higher_is_better;
	pr = tune_drive_bisect(&d, &tr, diff, nr_diff, &bo, &err);
	diff = NULL; /* the drive's now */
	if (!pr)
		pr = tune_drive_afford(
		    &d, a.budget_ns,
		    (double)(a.r.time_ns + a.r.ramp_ns) / 1e9 + 0.25, &err);
	if (pr) {
		error("%s", err.buf);
		ret = pr == -EPERM ? EXIT_RUNTIME : EXIT_USAGE;
		goto out;
	}
	if (!a.quiet) {
		fprintf(stderr,
			"bisect: %s on %s, seed %llu; %u setting%s "
			"differ%s:\n",
			ops->name, tr.t.spec, (unsigned long long)tr.c.seed,
			d.nr_dims, d.nr_dims == 1 ? "" : "s",
			d.nr_dims == 1 ? "s" : "");
		for (i = 0; i < d.nr_dims; i++)
			fprintf(stderr, "  %s: %s -> %s\n", d.diff[i].knob,
				d.diff[i].from, d.diff[i].to);
	}
	pr = trial_run(&tr, &err);
	if (!a.quiet && isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K");
	if (trial_finish(&tr, &out))
		error("%s", out.buf);
	strbuf_reset(&out);
	if (pr) {
		error("%s", err.buf);
		ret = EXIT_RUNTIME;
		if (!tr.e.doc)
			goto out;
	}
	tune_drive_annotate(&d, tr.e.doc);
	if (*tr.c.stop) {
		warning("interrupted: the answer covers only the steps done");
		if (ret == EXIT_OK)
			ret = EXIT_RUNTIME;
	} else if (d.bis.set_failed) {
		error("the bisection ended early: %s", d.bis.stopped);
		if (ret == EXIT_OK)
			ret = EXIT_RUNTIME;
	}
	if (!a.r.no_store && trial_store(&tr, a.r.db, &err)) {
		error("the experiment was not stored: %s", err.buf);
		ret = EXIT_RUNTIME;
	}
	if (a.r.json_file && cli_write_experiment(a.r.json_file, tr.e.doc))
		ret = EXIT_RUNTIME;
	if (!a.r.json_file || strcmp(a.r.json_file, "-")) {
		report_page(tr.e.doc, &emit_text_ops, REPORT_SEC(tune), &out,
			    &err);
		if (tr.id[0])
			strbuf_addf(&out,
				    "stored as %s: 'iotrial show %s' has every "
				    "step's runs\n",
				    tr.id, tr.id);
		fputs(out.buf, stdout);
	}
out:
	tune_drive_release(&d);
	tune_diffs_release(diff, nr_diff);
	trial_release(&tr);
	fiojob_plan_release(&plan);
	knob_list_release(&from);
	knob_list_release(&to);
	strbuf_release(&err);
	strbuf_release(&out);
	option_list_release(&a.from);
	option_list_release(&a.to);
	free(a.params);
	free(a.cmd);
	return ret;
}
