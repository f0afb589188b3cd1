/*
 * iotrial observe --vary KNOB=A,B --window DUR ...: a switchback A/B of
 * knobs on the load that is running now (core/live/live.h). This file
 * parses the options (every value in parse_values()), prints the plan,
 * the windows as they pass and the verdicts, and picks the exit code.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "knobargs.h"
#include "progress.h"
#include "../core/live/live.h"
#include "../core/model/model_json.h"
#include "../core/report/page.h"
#include "../core/store/store.h"
#include "../util/error.h"
#include "../util/rng.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

/* The command line of `observe`: the typed options parsed, the rest as
 * typed. */
struct observe_args {
	const char *target, *device;
	struct option_list vary, aborts, limits;
	uint64_t window_ns, settle_ns, windows, budget_ns, seed;
	int window_given, settle_given, windows_given, budget_given;
	int seed_given;
	const char *metric, *metric_cmd, *metric_file, *metric_regex;
	const char *per_load, *db, *json_file, *cgroup;
	int counter, dry_run, no_store, quiet;
	struct cli_progress prog; /* --progress, --metrics-file */
};

static const char *const observe_usage[] = {
    "iotrial observe --vary KNOB=A,B [--vary ...] --window DURATION",
    "         [--settle DURATION] [--windows N | --budget DURATION]",
    "         [-t TARGET | --device DEV] [--cgroup DIR]",
    "         [--metric NAME] [--metric-cmd CMD [--counter] |",
    "          --metric-file FILE --metric-regex RE] [--per-load NAME]",
    "         [--abort-if RULE]... [--max-change KNOB=RANGE]... "
    "[--seed N]",
    "         [--dry-run] [--db PATH | --no-store] [--json[=FILE]] "
    "[--quiet]",
    NULL,
};

static const char observe_epilogue[] =
    "Switches knobs back and forth on the running load, one window at a "
    "time:\nblocks hold every arm once in a random order, and a settle "
    "period after\neach switch is measured but not analysed. Every change "
    "goes through the\njournal and is restored at the end, on Ctrl-C and "
    "after a crash.\nMetrics: metric (the user's, from --metric-cmd or "
    "--metric-file), mbps,\niops, r_await, w_await, await, aqu_sz, util, "
    "dirty, writeback.\nExamples:\n"
    "  iotrial observe --device sdb --vary read_ahead_kb=128,2048 "
    "--window 5m\n"
    "  iotrial observe -t /srv --vary atime=relatime,noatime --window 1m "
    "\\\n      --metric-file /var/log/app.log --metric-regex 'saved' "
    "--abort-if 'w_await>50ms'\n";

/* Parse argv; 1 for --help, -1 after an error. */
static int parse(int argc, const char **argv, struct observe_args *a)
{
	struct option opts[] = {
	    OPT_STRING('t', "target", &a->target, "TARGET",
		       "the directory or block device whose knobs are meant"),
	    OPT_STRING(0, "device", &a->device, "DEV",
		       "the block device whose knobs are meant"),
	    OPT_STRING(0, "cgroup", &a->cgroup, "DIR",
		       "measure only this cgroup's I/O on the device (its "
		       "io.stat, or blkio on cgroup v1)"),
	    OPT_LIST(0, "vary", &a->vary, "KNOB=A,B[,...]",
		     "a knob and its values; 'label=a,b' for an A/A check"),
	    OPT_DURATION(0, "window", &a->window_ns, NULL, "100ms", NULL,
			 "length of a window (required)",
			 .given = &a->window_given),
	    OPT_DURATION(0, "settle", &a->settle_ns, NULL, "0s", NULL,
			 "measured, not analysed, after a switch (default: "
			 "one window; 0 for none)",
			 .flags = OPT_ZERO_OK, .given = &a->settle_given),
	    OPT_COUNT(0, "windows", &a->windows, NULL, "1", "10000",
		      "analysed windows per arm (blocks; default: what a "
		      "verdict needs, twice over)",
		      .given = &a->windows_given),
	    OPT_DURATION(0, "budget", &a->budget_ns, NULL, "1ms", NULL,
			 "as many blocks as fit in this long",
			 .given = &a->budget_given),
	    OPT_STRING(0, "metric", &a->metric, "NAME",
		       "what the verdict judges (default: metric with a "
		       "source, else iops)"),
	    OPT_STRING(0, "metric-cmd", &a->metric_cmd, "CMD",
		       "a command printing a number after each window"),
	    OPT_BOOL(0, "counter", &a->counter,
		     "--metric-cmd prints a counter: differenced, per "
		     "second"),
	    OPT_STRING(0, "metric-file", &a->metric_file, "FILE",
		       "a log followed as it grows"),
	    OPT_STRING(0, "metric-regex", &a->metric_regex, "RE",
		       "new lines matching RE per second (with a group: its "
		       "number averaged)"),
	    OPT_STRING(0, "per-load", &a->per_load, "NAME",
		       "divide the metric by the window's requests, mb or "
		       "metric"),
	    OPT_LIST(0, "abort-if", &a->aborts, "RULE",
		     "end and restore when a window breaks RULE "
		     "('w_await>50ms', 'metric<0.8x baseline')"),
	    OPT_LIST(0, "max-change", &a->limits, "KNOB=RANGE",
		     "refuse values outside LO..HI or V1|V2"),
	    OPT_COUNT(0, "seed", &a->seed, NULL, NULL, NULL,
		      "seed of the schedule (default: from the clock)",
		      .given = &a->seed_given),
	    OPT_BOOL(0, "dry-run", &a->dry_run,
		     "print the schedule and change nothing"),
	    OPT_STRING(0, "db", &a->db, "PATH",
		       "the results store (see 'iotrial log')"),
	    OPT_BOOL(0, "no-store", &a->no_store, "do not store it"),
	    OPT_BOOL(0, "quiet", &a->quiet,
		     "no line per window (warnings still go out)"),
	    OPT_STRING_OPTARG(0, "json", &a->json_file, "FILE", "-",
			      "write the experiment object (stdout: -)"),
	    OPT_CLI_PROGRESS(&a->prog),
	    OPT_END(),
	};
	int n = parse_options(argc, argv, "observe", opts, observe_usage,
			      observe_epilogue, 0);

	if (n == PARSE_OPT_HELP)
		return 1;
	if (n < 0)
		return -1;
	if (n > 0) {
		error("unexpected argument '%s'; see 'iotrial observe --help'",
		      argv[0]);
		return -1;
	}
	return 0;
}

/* Everything parse_values() makes of the arguments. */
struct observe_vals {
	struct live_config c;
	struct lw_source src;
	struct lw_cgroup cg;
	struct lw_abort *aborts;
	struct live_limit *limits;
	uint64_t budget_ns;
	unsigned windows;
};

/* The expected seconds of one block of nr_arms arms. */
static double block_s(const struct live_config *c, unsigned nr_arms)
{
	double k = nr_arms, switches = (k - 1) + (k - 1) / k;

	return (k * (double)c->window_ns + switches * (double)c->settle_ns) /
	       1e9;
}

/* The values the typed options do not check themselves, and the metric
 * source, abort rules and limits, in one place. 0, or an exit code. */
static int parse_values(const struct observe_args *a, struct observe_vals *v)
{
	struct strbuf err = STRBUF_INIT;
	size_t i;
	int ret = 0;

	v->c.src = &v->src;
	v->src.fd = -1;
	strbuf_init(&v->src.partial, 0);
	if (!a->window_given) {
		error("give --window DUR (e.g. --window 5m)");
		return EXIT_USAGE;
	}
	v->c.window_ns = a->window_ns;
	v->c.settle_ns = a->settle_given ? a->settle_ns : a->window_ns;
	if (a->windows_given && a->budget_given) {
		error("give --windows or --budget, not both");
		return EXIT_USAGE;
	}
	v->windows = (unsigned)a->windows;
	v->budget_ns = a->budget_given ? a->budget_ns : 0;
	v->c.seed = a->seed_given ? a->seed : rng_seed_from_env() & 0xffffffffu;
	if (a->metric_cmd && a->metric_file) {
		error("give --metric-cmd or --metric-file, not both");
		return EXIT_USAGE;
	}
	if (!!a->metric_file != !!a->metric_regex) {
		error("--metric-file and --metric-regex go together");
		return EXIT_USAGE;
	}
	if (a->counter && !a->metric_cmd) {
		error("--counter is about --metric-cmd's number");
		return EXIT_USAGE;
	}
	if (a->metric_cmd)
		ret = lw_source_cmd(&v->src, a->metric_cmd, a->counter, &err);
	else if (a->metric_file)
		ret = lw_source_file(&v->src, a->metric_file, a->metric_regex,
				     &err);
	if (ret)
		goto bad;
	v->c.metric = a->metric ? a->metric : v->src.kind ? "metric" : "iops";
	v->c.per_load = a->per_load;
	v->aborts = xcalloc(a->aborts.nr + 1, sizeof(*v->aborts));
	for (i = 0; i < a->aborts.nr; i++, v->c.nr_aborts++)
		if (lw_abort_parse(&v->aborts[i], a->aborts.v[i], &err)) {
			v->c.nr_aborts++;
			goto bad;
		}
	v->c.aborts = v->aborts;
	v->limits = xcalloc(a->limits.nr + 1, sizeof(*v->limits));
	for (i = 0; i < a->limits.nr; i++) {
		const char *eq = strchr(a->limits.v[i], '=');

		if (!eq || eq == a->limits.v[i] || !eq[1]) {
			error("cannot read --max-change '%s': give KNOB=LO..HI "
			      "or KNOB=V1|V2",
			      a->limits.v[i]);
			return EXIT_USAGE;
		}
		v->limits[i].knob =
		    xstrndup(a->limits.v[i], (size_t)(eq - a->limits.v[i]));
		v->limits[i].range = xstrdup(eq + 1);
		v->c.nr_limits++;
	}
	v->c.limits = v->limits;
	v->c.vary = a->vary.v;
	v->c.nr_vary = (unsigned)a->vary.nr;
	strbuf_release(&err);
	return 0;
bad:
	error("%s", err.buf);
	strbuf_release(&err);
	return EXIT_USAGE;
}

static void vals_release(struct observe_vals *v)
{
	unsigned i;

	lw_source_release(&v->src);
	lw_cgroup_release(&v->cg);
	for (i = 0; i < v->c.nr_aborts; i++)
		lw_abort_release(&v->aborts[i]);
	free(v->aborts);
	for (i = 0; i < v->c.nr_limits; i++) {
		free(v->limits[i].knob);
		free(v->limits[i].range);
	}
	free(v->limits);
}

/* What the window hook needs besides the window. */
struct window_ctx {
	struct cli_progress *prog;
	double planned_s; /* the schedule's length */
	int quiet;
};

/* live_hooks.window: one line per window on stderr (unless --quiet),
 * and the progress (--progress, --metrics-file). */
static void say_window(void *ctx, const struct live_window_info *w)
{
	struct window_ctx *c = ctx;
	struct progress_snap s;
	int wd = snprintf(NULL, 0, "%zu", w->nr);
	int bd = snprintf(NULL, 0, "%u", w->nr_blocks);

	progress_snap_init(&s, "observe");
	s.done = (unsigned)w->seq + 1;
	s.planned = (unsigned)w->nr;
	s.unit = "windows";
	s.block = (long)w->block;
	s.arm = w->arm;
	s.phase = "window";
	s.eta_s = c->planned_s > w->elapsed_s ? c->planned_s - w->elapsed_s : 0;
	s.eta_by = "windows";
	cli_progress_step(c->prog, &s);
	if (c->quiet)
		return;
	/* columns that line up; the time is since the start, not the
	 * window's length */
	fprintf(stderr, "window %*zu/%zu  block %*u/%u  %-28s %s", wd,
		w->seq + 1, w->nr, bd, w->block + 1, w->nr_blocks, w->arm,
		w->settle ? "settle  " : "measured");
	if (isfinite(w->metric))
		fprintf(stderr, "  metric %.4g", w->metric);
	if (isfinite(w->load))
		fprintf(stderr, "  load %.4g %s", w->load,
			w->load_unit ? w->load_unit : "");
	fprintf(stderr, "  at %.1f s\n", w->elapsed_s);
}

static void say_warn(void *ctx, const char *msg)
{
	(void)ctx;
	warning("%s", msg);
}

int cmd_observe(int argc, const char **argv)
{
	struct observe_args a = {0};
	struct observe_vals v = {.src.fd = -1}; /* no log: 0 is stdin */
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct session_log log;
	struct live_hooks h = {.window = say_window, .warn = say_warn};
	struct window_ctx wc = {&a.prog, 0, 0};
	struct knob_ctx ctx;
	struct target t;
	struct live lv = {0};
	char id[STORE_ID_LEN + 1] = "";
	char *cmdline = NULL;
	int code, r;

	cmdline = cli_command_line(argc, argv);
	cli_progress_init(&a.prog);
	r = parse(argc, argv, &a);
	if (r) {
		code = r > 0 ? EXIT_OK : EXIT_USAGE;
		goto free_args;
	}
	code = parse_values(&a, &v);
	if (!code && ((a.json_file && cli_check_output(a.json_file)) ||
		      cli_progress_check(&a.prog)))
		code = EXIT_USAGE; /* said before the hours of windows */
	if (code)
		goto free_args;
	knob_ctx_init(&ctx);
	knob_cli_log(&log, NULL);
	h.log = &log;
	strbuf_init(&lv.stopped, 0);
	code = knob_cli_context(a.target, a.device, &ctx, &t);
	if (code)
		goto out;
	v.c.kctx = &ctx;
	v.c.disk = ctx.disk;
	if (a.cgroup) {
		if (lw_cgroup_open(&v.cg, a.cgroup, ctx.disk, &err))
			goto plan_failed;
		v.c.cgroup = &v.cg;
	}
	v.c.target = a.device ? a.device : a.target ? a.target : "system";
	v.c.command_line = cmdline;
	v.c.dry_run = a.dry_run;
	/* the block count: given, from the budget, or twice the fewest */
	v.c.blocks = v.windows ? v.windows : 1;
	if (live_plan(&lv, &v.c, &err) && !v.windows) {
		unsigned arms = lv.e.nr_arms;

		if (!arms)
			goto plan_failed;
		v.c.blocks = 2 * sb_min_blocks(arms, 0.05);
		if (v.budget_ns)
			v.c.blocks = (unsigned)floor((double)v.budget_ns / 1e9 /
						     block_s(&v.c, arms));
		live_release(&lv);
		strbuf_reset(&err);
		if (live_plan(&lv, &v.c, &err)) {
			if (v.budget_ns)
				strbuf_addf(&err,
					    " (--budget %.0f s holds %u blocks "
					    "of about %.0f s)",
					    (double)v.budget_ns / 1e9,
					    v.c.blocks, block_s(&v.c, arms));
			goto plan_failed;
		}
	} else if (err.len) {
		goto plan_failed;
	}
	if (a.dry_run) {
		live_describe(&lv, &out);
		fputs(out.buf, stdout);
		goto out;
	}
	if (!a.no_store && cli_check_store(a.db, "iotrial observe")) {
		code = EXIT_RUNTIME;
		goto out;
	}
	wc.quiet = a.quiet;
	wc.planned_s = live_planned_s(&lv);
	h.ctx = &wc;
	lv.c.stop = cli_catch_stop_signals();
	fprintf(stderr,
		"observe: %u arms, %u blocks, %zu windows, about %.0f "
		"s, seed %llu\n",
		lv.e.nr_arms, lv.c.blocks, lv.sched.nr, live_planned_s(&lv),
		(unsigned long long)lv.c.seed);
	/* its own lines say each window: no progress line */
	cli_progress_start(&a.prog, "observe", a.quiet, 1);
	r = live_run(&lv, &h, &err);
	cli_progress_doc(&a.prog, lv.doc);
	cli_progress_finish(&a.prog, r ? "failed"
				     : lv.interrupted || lv.aborted
					 ? "interrupted"
					 : "done");
	if (r) {
		error("%s", err.buf);
		code = EXIT_RUNTIME;
		goto out;
	}
	if (lv.stopped.len)
		warning("stopped early: %s; the original settings are back",
			lv.stopped.buf);
	if (!a.no_store) {
		strbuf_reset(&err);
		if (live_store(&lv, a.db, id, &err)) {
			error("not stored: %s", err.buf);
			code = EXIT_RUNTIME;
		}
	}
	if (a.json_file) {
		experiment_doc_encode(lv.doc, 0, &out);
		if (cli_write_doc(a.json_file, &out))
			code = EXIT_RUNTIME;
		strbuf_reset(&out);
	}
	strbuf_reset(&err);
	if (lv.doc->has_verdicts != MODEL_SET ||
	    report_page(lv.doc, &emit_text_ops, REPORT_PAGE_VERDICTS, &out,
			&err))
		warning("too little was measured for a verdict");
	strbuf_reset(&err);
	report_page(lv.doc, &emit_text_ops, REPORT_SEC(live), &out, &err);
	if (*id)
		strbuf_addf(&out, "stored as %s ('iotrial show %s')\n", id, id);
	/* --json=- is the whole of stdout */
	fputs(out.buf,
	      a.json_file && !strcmp(a.json_file, "-") ? stderr : stdout);
	if (!code && lv.interrupted && *lv.c.stop)
		code = 128 + *lv.c.stop;
	goto out;
plan_failed:
	error("%s", err.buf);
	code = EXIT_USAGE;
out:
	live_release(&lv);
	target_release(&t);
	knob_ctx_release(&ctx);
free_args:
	cli_progress_release(&a.prog);
	free(cmdline);
	vals_release(&v);
	option_list_release(&a.vary);
	option_list_release(&a.aborts);
	option_list_release(&a.limits);
	strbuf_release(&err);
	strbuf_release(&out);
	return code;
}
