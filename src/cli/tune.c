/*
 * iotrial tune: what should I set? The command parses its options,
 * builds the space (the knob families that can matter, or --space
 * rows), and hands the search to core/tune/tune_run.c, which races the
 * candidates through a trial as compare runs its arms (journaled,
 * restored, stored). It prints the answer: the winner, the settings
 * equivalent to it, the smallest change, what made no difference and
 * what was not tried.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "job.h"
#include "progress.h"
#include "typed_doc.h"
#include "../core/experiment/metrics.h"
#include "../core/experiment/trial.h"
#include "../core/model/model_json.h"
#include "../core/report/page.h"
#include "../core/tune/tune_run.h"
#include "../util/error.h"
#include "../util/userfile.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

/* Everything tune was asked, parsed. */
struct tune_args {
	const char *workload;
	struct cli_run_opts r;
	struct option_list space;  /* --space KNOB=V1,V2 */
	struct option_list limits; /* --max-change KNOB=RANGE */
	struct option_list aborts; /* --abort-if RULE */
	uint64_t budget_ns, max_blocks;
	uint64_t confirm_ns; /* --confirm-live, 0: none */
	double equivalence;
	int no_drop_caches, quiet;
	struct cli_progress prog; /* --progress, --metrics-file */
	struct trial *tr;	  /* for the metrics file */
	struct param_setting *params;
	unsigned nr_params, alloc_params;
	char *cmd;
};

static const char *const tune_usage[] = {
    "iotrial tune WORKLOAD [-t TARGET] [--PARAM=VALUE ...]",
    "         [--space KNOB=V1,V2,...]... [--budget DUR] [--metric NAME]",
    "         [--equivalence 2%] [--max-blocks N] [--max-change "
    "KNOB=RANGE]...",
    "         [--abort-if RULE]... [--confirm-live DURATION]",
    "         [--time DUR | --ios N] [--seed N] [--no-drop-caches]",
    "         [--db PATH] [--no-store] [--json[=FILE]] [--quiet]",
    "         [--progress json[:FD]] [--metrics-file FILE]",
    "   or: iotrial tune --job FILE.fio [--section NAME] ...",
    "   or: iotrial tune exec -t TARGET ... -- COMMAND",
    NULL,
};

/* The help after the options. */
static void tune_epilogue(struct strbuf *out)
{
	strbuf_addstr(
	    out, "The space is the knob families that can matter for the "
		 "workload and the\ntarget, each with a ladder of values, "
		 "and the value in force now; a knob\nthat cannot act is left "
		 "out, and the answer says why. --space rows\nreplace it "
		 "(give one per knob). The current settings are the "
		 "baseline.\nThe search races, it does not run a grid: each "
		 "block runs the baseline,\nthe leaders and every candidate "
		 "still in the race once, shuffled; after\n6 blocks a "
		 "candidate leaves when the signed-rank test shows it "
		 "worse\nthan a leader beyond --equivalence (Holm across the "
		 "leaders it met). Each\nknob is raced alone first, then the "
		 "combinations of the knobs whose best\nvalue beats the "
		 "current one, with their interactions. A candidate whose\n"
		 "run fails leaves with the reason; the rest goes on. Every "
		 "knob is\njournaled and restored at the end, as in compare; "
		 "the result is a stored\nexperiment (show, report, export, "
		 "apply).\n--max-change KNOB=LO..HI or KNOB=V1|V2 keeps the "
		 "values tried within bounds.\n");
	cli_workloads_list(out);
}

/* A workload parameter, kept as the pair name, value. */
static int param_option(const struct option *opt, const char *arg)
{
	struct tune_args *a = opt->data;

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

static int parse_args(int argc, const char **argv, struct tune_args *a,
		      const struct workload_ops **out_ops)
{
	const struct workload_ops *ops;
	struct workload_options params;
	struct strbuf epilogue = STRBUF_INIT;
	struct option *opts;
	struct option own[] = {
	    OPT_GROUP("options:"),
	    OPT_LIST(0, "space", &a->space, "KNOB=V1,V2,...",
		     "a knob and the values to try, instead of the default "
		     "space; one --space per knob"),
	    OPT_CLI_RUN(&a->r, "1s", "experiment"),
	    OPT_DURATION(0, "budget", &a->budget_ns, NULL, "1ms", NULL,
			 "stop the search after about this long; no limit "
			 "by default"),
	    OPT_PERCENT(0, "equivalence", &a->equivalence, "2%", "0%", "100%",
			"the margin within which settings are the same",
			.flags = OPT_RANGE_OPEN),
	    OPT_COUNT(0, "max-blocks", &a->max_blocks, "20", "6", "1000",
		      "blocks a stage of the race runs at most"),
	    OPT_LIST(0, "max-change", &a->limits, "KNOB=RANGE",
		     "try only values of KNOB within LO..HI or V1|V2|..."),
	    OPT_DURATION(0, "confirm-live", &a->confirm_ns, NULL, "15s", NULL,
			 "then switch between the current settings and the "
			 "recommendation on the running load for this long "
			 "(observe) and say whether it agrees"),
	    OPT_LIST(0, "abort-if", &a->aborts, "RULE",
		     "a candidate whose run breaks the rule leaves the race "
		     "at once: METRIC>LIMIT or METRIC<LIMIT (p99>5ms, "
		     "metric<0.5x baseline)"),
	    OPT_BOOL(0, "no-drop-caches", &a->no_drop_caches,
		     "do not drop the page cache before each run"),
	    OPT_BOOL(0, "quiet", &a->quiet,
		     "no progress line and no header on stderr"),
	    OPT_CLI_PROGRESS(&a->prog),
	    OPT_CLI_JOB(&a->r),
	    OPT_SCHEMA(),
	    OPT_END(),
	};
	int n, help = argc > 1 &&
		      (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
	int job = argc > 1 && argv[1][0] == '-' && has_job(argc, argv);

	if ((argc < 2 || argv[1][0] == '-') && !help && !job) {
		error("tune needs a workload first: iotrial tune WORKLOAD -t "
		      "TARGET");
		return -1;
	}
	if (help || job) {
		ops = workload_find("randread");
	} else {
		a->workload = argv[1];
		ops = cli_find_workload(a->workload, "tune");
		if (!ops)
			return -1;
		argc--;
		argv++;
	}
	*out_ops = ops;
	cli_workload_options(&params, ops, param_option, a);
	cli_untimed_options(own, ops);
	opts = options_join(params.opts, own);
	tune_epilogue(&epilogue);
	cli_metrics_help(&epilogue, ops);
	n = parse_options(argc, argv, "tune", opts, tune_usage, epilogue.buf,
			  0);
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
		error("unexpected argument '%s': tune takes one workload, "
		      "first, then options (see 'iotrial tune %s --help')",
		      argv[0], ops->name);
		return -1;
	}
	return cli_run_opts_check(&a->r, ops, a->workload) ? -1 : 0;
}

/* The messages tune or bisect said, the first 64 (cli.h). */
int cli_tune_said_before(const char *msg)
{
	static char *said[64];
	static size_t nr;
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(said[i], msg))
			return 1;
	if (nr < sizeof(said) / sizeof(said[0]))
		said[nr++] = xstrdup(msg);
	return 0;
}

/* Session messages: warnings and notes, each once; the per-arm chatter
 * not. */
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

/* Progress (progress.h): a line on a terminal, --progress=json,
 * --metrics-file with what the race measured so far. */
static void on_progress(void *ctx, const struct experiment_progress *p)
{
	struct tune_args *a = ctx;

	cli_progress_doc(&a->prog, a->tr->e.doc);
	cli_progress_experiment(&a->prog, p);
}

/* The space: --space rows or the default, resolved, within
 * --max-change. 0 or an exit code after the error. */
static int make_space(struct tune_space *sp, struct trial *tr,
		      const struct tune_args *a)
{
	struct strbuf err = STRBUF_INIT;
	struct workload w;
	size_t i;
	int ret = 0;

	workload_init(&w, tr->c.ops);
	for (i = 0; i < tr->c.nr_params && !ret; i++)
		ret = workload_set_param(&w, tr->c.params[i].name,
					 tr->c.params[i].value, NULL, &err);
	if (!ret && !a->space.nr)
		tune_space_default(sp, &tr->kctx, &w);
	for (i = 0; i < a->space.nr && !ret; i++)
		ret = tune_space_add(sp, a->space.v[i], &tr->kctx, &w, &err);
	if (!ret)
		ret = tune_space_resolve(sp, &tr->kctx, &err);
	for (i = 0; i < a->limits.nr && !ret; i++)
		ret = tune_space_limit(sp, a->limits.v[i], &tr->kctx, &err);
	workload_release(&w);
	if (ret)
		error("%s", err.buf);
	strbuf_release(&err);
	return ret ? EXIT_USAGE : 0;
}

/* What the search will try, on stderr. */
static void say_space(const struct tune_space *sp, const struct trial *tr)
{
	unsigned i, k;

	fprintf(stderr, "tune: %s on %s, seed %llu\n", tr->c.ops->name,
		tr->t.spec, (unsigned long long)tr->c.seed);
	for (i = 0; i < sp->nr_rows; i++) {
		fprintf(stderr, "  %s:", sp->rows[i].knob);
		for (k = 0; k < sp->rows[i].nr_values; k++)
			fprintf(stderr, " %s%s", sp->rows[i].values[k],
				k == sp->rows[i].current ? " (now)" : "");
		fputc('\n', stderr);
	}
	for (i = 0; i < sp->nr_out; i++)
		fprintf(stderr, "  left out: %s (%s)\n", sp->out[i].knob,
			sp->out[i].why);
}

/* The number x as the verdict line prints it: 0 when it has none. */
static double or_zero(double x)
{
	return isnan(x) ? 0 : x;
}

/* The verdict of the arm labelled label in the observe experiment at
 * path ("faster" ...) into word, with its ratio and CI into out; 0, or
 * -1 when there is none (the last such verdict counts). */
static int live_verdict(const char *path, const char *label,
			struct strbuf *word, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT;
	struct experiment_doc doc;
	const struct exp_verdict *v;
	size_t i;
	int ret = -1;

	experiment_doc_init(&doc);
	if (userfile_read(path, 0, &text, NULL) ||
	    experiment_doc_decode(text.buf, text.len, &doc, 0, NULL))
		goto out;
	for (i = 0; i < doc.nr_verdicts; i++) {
		v = &doc.verdicts[i];
		if (!v->label || strcmp(v->label, label) || !v->verdict)
			continue;
		strbuf_setf(word, "%.31s", v->verdict);
		strbuf_addf(out, "%.3fx",
			    or_zero(v->cmp ? v->cmp->ratio : NAN));
		if (v->cmp && !isnan(v->cmp->ci_low))
			strbuf_addf(out, " (95%% CI %.3f-%.3f)", v->cmp->ci_low,
				    or_zero(v->cmp->ci_high));
		ret = 0;
	}
out:
	experiment_doc_release(&doc);
	strbuf_release(&text);
	return ret;
}

/* The value the recommendation rec gives knob, or NULL. */
static const char *change_of(const struct tune_cand_doc *rec, const char *knob)
{
	size_t i;

	for (i = 0; i < rec->nr_changes; i++)
		if (rec->changes[i].name && !strcmp(rec->changes[i].name, knob))
			return rec->changes[i].value.s ? rec->changes[i].value.s
						       : "";
	return NULL;
}

/*
 * --confirm-live: observe, on the load running on the target, a
 * switchback between the current settings and the recommendation for
 * about confirm_ns, then say whether it agrees with the race. The
 * knobs go through observe's own journaled session (the race's are
 * restored by now). 0, or an exit code.
 */
static int confirm_live(const struct tune_args *a, const struct tune_doc *t,
			const struct trial *tr)
{
	const struct tune_cand_doc *rec = t ? t->recommended : NULL;
	struct strbuf label = STRBUF_INIT, said = STRBUF_INIT;
	struct strbuf window = STRBUF_INIT, budget = STRBUF_INIT;
	struct strbuf settle = STRBUF_INIT, word = STRBUF_INIT;
	uint64_t w_ms;
	struct strbuf json = STRBUF_INIT, seed = STRBUF_INIT;
	char dir[] = "/tmp/iotrial-tune-live.XXXXXX";
	const char **argv = NULL;
	struct strbuf *vary = NULL;
	size_t i, n = 0, nv = 0, k;
	int ret = EXIT_OK;

	if (!rec || !rec->nr_changes) {
		note("--confirm-live: the recommendation is to keep the "
		     "current settings; nothing to confirm");
		return EXIT_OK;
	}
	if (!strncmp(tr->t.spec, "scratch:", 8)) {
		warning("--confirm-live: a scratch target has no live load; "
			"nothing confirmed");
		return EXIT_OK;
	}
	if (!mkdtemp(dir)) {
		error("--confirm-live: cannot make a temporary directory");
		return EXIT_RUNTIME;
	}
	vary = xcalloc(rec->nr_changes + 1, sizeof(*vary));
	/* every knob the recommendation changes: current,recommended */
	for (i = 0; i < t->nr_space; i++) {
		const char *knob = t->space[i].knob;
		const char *to = knob ? change_of(rec, knob) : NULL;

		if (!to)
			continue;
		strbuf_init(&vary[nv], 0);
		strbuf_addf(&vary[nv++], "%s=%s,%s", knob,
			    t->space[i].current ? t->space[i].current : "", to);
		strbuf_addf(&label, "%s%s=%s", label.len ? " " : "", knob, to);
	}
	/* 8 blocks of 2 arms, each window followed by a settle of half
	 * its length: a window is a 24th of the time, half a second at
	 * least (hence --confirm-live 15s at least) */
	w_ms = a->confirm_ns / 24000000 > 500 ? a->confirm_ns / 24000000 : 500;
	strbuf_addf(&window, "%" PRIu64 "ms", w_ms);
	strbuf_addf(&settle, "%" PRIu64 "ms", w_ms / 2);
	strbuf_addf(&budget, "%" PRIu64 "ms", a->confirm_ns / 1000000);
	strbuf_addf(&json, "--json=%s/observe.json", dir);
	strbuf_addf(&seed, "%" PRIu64, tr->c.seed);
	argv = xcalloc(2 * nv + 16, sizeof(*argv));
	argv[n++] = "observe";
	argv[n++] = "-t";
	argv[n++] = tr->t.spec;
	for (k = 0; k < nv; k++) {
		argv[n++] = "--vary";
		argv[n++] = vary[k].buf;
	}
	argv[n++] = "--window";
	argv[n++] = window.buf;
	argv[n++] = "--settle";
	argv[n++] = settle.buf;
	argv[n++] = "--budget";
	argv[n++] = budget.buf;
	argv[n++] = "--seed";
	argv[n++] = seed.buf;
	argv[n++] = "--quiet";
	argv[n++] = json.buf;
	/* the device's own numbers where the race judged the same */
	if (!strcmp(tr->c.metric->name, "mbps") ||
	    !strcmp(tr->c.metric->name, "iops")) {
		argv[n++] = "--metric";
		argv[n++] = tr->c.metric->name;
	}
	if (a->r.no_store)
		argv[n++] = "--no-store";
	else if (a->r.db) {
		argv[n++] = "--db";
		argv[n++] = a->r.db;
	}
	if (!a->quiet)
		fprintf(stderr,
			"tune: confirming on the running load: "
			"observe for %s in windows of %s\n",
			budget.buf, window.buf);
	ret = cmd_observe((int)n, argv);
	strbuf_setf(&json, "%s/observe.json", dir);
	if (live_verdict(json.buf, label.buf, &word, &said))
		printf("live: no verdict for '%s' on the running load; the "
		       "race's answer stands unconfirmed\n",
		       label.buf);
	else
		printf("live: '%s' against the current settings on the "
		       "running load: %s, %s; %s\n",
		       label.buf, said.buf, word.buf,
		       !strcmp(word.buf, "faster") ? "the live load agrees"
		       : !strcmp(word.buf, "slower")
			   ? "the live load disagrees: keep the current "
			     "settings until the difference is understood"
			   : "the live load cannot tell it apart, so it "
			     "neither agrees nor disagrees");
	unlink(json.buf);
	rmdir(dir);
	for (k = 0; k < nv; k++)
		strbuf_release(&vary[k]);
	free(vary);
	free(argv);
	strbuf_release(&label);
	strbuf_release(&said);
	strbuf_release(&window);
	strbuf_release(&settle);
	strbuf_release(&budget);
	strbuf_release(&json);
	strbuf_release(&seed);
	strbuf_release(&word);
	return ret == EXIT_OK ? EXIT_OK : EXIT_RUNTIME;
}

/* Where the answer is kept, and how to set the recommendation: apply
 * --arm '#N' (arms are numbered from 1). */
static void say_stored(struct strbuf *out, const struct tune_doc *t,
		       const char *id)
{
	const struct tune_cand_doc *rec = t ? t->recommended : NULL;

	strbuf_addf(out, "stored as %s: 'iotrial show %s' has every candidate",
		    id, id);
	if (rec && rec->has_arm == MODEL_SET && rec->arm > 0)
		strbuf_addf(out,
			    "; 'iotrial apply %s --arm \"#%" PRId64
			    "\"' sets the recommendation",
			    id, rec->arm + 1);
	strbuf_addch(out, '\n');
}

int cmd_tune(int argc, const char **argv)
{
	struct tune_args a = {0};
	const struct workload_ops *ops = NULL;
	const struct trial_hooks hooks = {
	    .log = {say, NULL},
	    .ctx = &a,
	    .progress = on_progress,
	};
	struct trial tr;
	struct tune_space sp;
	struct tune_drive d;
	struct tune_race_opts ro;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct fiojob_plan plan = {0};
	struct tune_abort *aborts = NULL;
	const char *tmp = getenv("TMPDIR");
	size_t i, nr_aborts = 0;
	int ret = EXIT_OK, pr;

	memset(&d, 0, sizeof(d));
	strbuf_init(&d.scratch, 0);
	cli_progress_init(&a.prog);
	a.tr = &tr;
	trial_init(&tr, TRIAL_EXPERIMENT, &hooks);
	tune_space_init(&sp);
	pr = parse_args(argc, argv, &a, &ops);
	if (pr) {
		ret = pr > 0 ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	aborts = xcalloc(a.aborts.nr + 1, sizeof(*aborts));
	for (i = 0; i < a.aborts.nr; i++, nr_aborts++)
		if (tune_abort_parse(&aborts[i], a.aborts.v[i], &err)) {
			error("%s", err.buf);
			ret = EXIT_USAGE;
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
	    cli_progress_check(&a.prog)) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (metric_lookup(ops, a.r.metric, a.params, a.nr_params, &tr.c.metric,
			  &err)) {
		error("--metric: %s", err.buf);
		ret = EXIT_USAGE;
		goto out;
	}
	if (!a.r.no_store && (ret = cli_check_store(a.r.db, "iotrial tune")))
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
	if ((ret = make_space(&sp, &tr, &a)))
		goto out;
	tune_race_opts_init(&ro);
	ro.seed = tr.c.seed;
	ro.max_blocks = (unsigned)a.max_blocks;
	ro.j.margin = a.equivalence;
	ro.j.higher_is_better = tr.c.metric->higher_is_better;
	pr = tune_drive_race(&d, &tr, &sp, &ro, &err);
	d.aborts = aborts;
	d.nr_aborts = (unsigned)nr_aborts;
	if (!pr)
		pr = tune_drive_afford(
		    &d, a.budget_ns,
		    (double)(a.r.time_ns + a.r.ramp_ns) / 1e9 + 0.25, &err);
	if (pr) {
		error("%s", err.buf);
		ret = pr == -EPERM ? EXIT_RUNTIME : EXIT_USAGE;
		goto out;
	}
	if (!a.quiet)
		say_space(&sp, &tr);
	tr.c.live = &a.prog.live;
	cli_progress_start(&a.prog, "tune", a.quiet, 0);
	pr = trial_run(&tr, &err);
	cli_progress_doc(&a.prog, tr.e.doc);
	cli_progress_finish(&a.prog, *tr.c.stop ? "interrupted"
				     : pr	? "failed"
						: "done");
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
		warning("interrupted: the answer covers only the runs done");
		if (ret == EXIT_OK)
			ret = EXIT_RUNTIME;
	} else if (d.race.base_failed) {
		/* without the current settings nothing can be judged */
		error("the search ended early: %s", d.race.stopped);
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
			say_stored(&out, d.tune, tr.id);
		fputs(out.buf, stdout);
	}
	if (a.confirm_ns && ret == EXIT_OK && !*tr.c.stop) {
		fflush(stdout);
		ret = confirm_live(&a, d.tune, &tr);
	}
out:
	cli_progress_release(&a.prog);
	tune_drive_release(&d);
	trial_release(&tr);
	tune_space_release(&sp);
	fiojob_plan_release(&plan);
	strbuf_release(&err);
	strbuf_release(&out);
	option_list_release(&a.space);
	option_list_release(&a.limits);
	option_list_release(&a.aborts);
	for (i = 0; aborts && i < nr_aborts; i++)
		tune_abort_release(&aborts[i]);
	free(aborts);
	free(a.params);
	free(a.cmd);
	return ret;
}
