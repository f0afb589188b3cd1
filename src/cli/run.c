/*
 * iotrial run: one workload, once, with a readable summary or the
 * iotrial/1 JSON object. This is the measuring primitive that compare
 * repeats; everything it prints comes from core/, which does the work.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "knobargs.h"
#include "run_print.h"
#include "../core/experiment.h"
#include "../core/store.h"
#include "../core/import.h"
#include "../core/observe/truth.h"
#include "../core/result_json.h"
#include "../core/target.h"
#include "../core/workload/workload.h"
#include "../util/error.h"
#include "../util/rng.h"
#include "../util/units.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

#define DEFAULT_WORKLOAD "randread"
#define DEFAULT_TIME "5s"

/* Everything `run` was asked to do, after parsing. */
struct run_args {
	const char *workload;
	const char *target;
	const char *time;
	const char *ios;
	const char *ramp;
	const char *seed;
	const char *json_file; /* "-" for stdout, NULL for text */
	const char *db;        /* results store, NULL for the default */
	int no_store;          /* --no-store */
	unsigned target_flags;
	const char **params;   /* name, value, name, value, ... */
	unsigned nr_params, alloc_params;
	struct knob_cli *knobs; /* --set KNOB=VALUE (knobargs.c) */
};

static const char *const run_usage[] = {
    "iotrial run [WORKLOAD] [-t TARGET] [--PARAM=VALUE ...]",
    "                   [--time DURATION | --ios N] [--ramp DURATION]",
    "                   [--seed N] [--json[=FILE]] [--allow-destroy]",
    "                   [--set KNOB=VALUE ...] [--db PATH | --no-store]",
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
		    "(root: a loop\ndevice on a sparse file, torn down "
		    "afterwards).\nDefaults: %s, --time %s.\n",
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
		       "stop after N I/Os instead of after a time"),
	    OPT_STRING(0, "ramp", &a->ramp, "DURATION",
		       "run this long before the measured part"),
	    OPT_STRING(0, "seed", &a->seed, "N",
		       "seed of the random offsets and file contents"),
	    OPT_STRING_OPTARG(0, "json", &a->json_file, "FILE", "-",
			      "print the run as JSON, or write it to FILE"),
	    OPT_BIT(0, "allow-destroy", &a->target_flags, TARGET_ALLOW_DESTROY,
		    "allow a block device that holds data; it is overwritten"),
	    OPT_KNOB_SET(a->knobs, "change a knob for this run only (may be "
				   "repeated; see 'iotrial knobs')"),
	    OPT_STRING(0, "db", &a->db, "PATH",
		       "the results store (see 'iotrial log')"),
	    OPT_BOOL(0, "no-store", &a->no_store, "do not store the run"),
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
	opts = options_join(params.opts, own);
	run_epilogue(&epilogue);
	n = parse_options(argc, argv, "run", opts, run_usage, epilogue.buf, 0);
	free(opts);
	cli_workload_options_release(&params);
	strbuf_release(&epilogue);
	if (n == PARSE_OPT_HELP)
		return 1;
	if (n < 0)
		return -1;
	if (n > 0) {
		unexpected(argv[0], a, first, ops);
		return -1;
	}
	if (a->time && a->ios) {
		error("give --time or --ios, not both");
		return -1;
	}
	return 0;
}

/* Apply the parsed options to w; prints and returns -1 on bad input. */
static int configure(struct workload *w, struct run_args *a)
{
	struct strbuf err = STRBUF_INIT, why = STRBUF_INIT;
	unsigned i;
	int ret = 0;

	for (i = 0; i + 1 < a->nr_params && !ret; i += 2) {
		const char *name = a->params[i], *value = a->params[i + 1];

		strbuf_reset(&why);
		ret = workload_set_param(w, name, value, &why, &err);
		if (!ret && why.len)
			note("%s: %s", name, why.buf);
	}
	if (!ret && a->ios)
		ret = units_parse_count(a->ios, &w->ro.ios, &err);
	if (!ret && w->ro.ios == 0 && a->ios)
		ret = err_set(&err, -EINVAL,
			      "--ios must be at least 1, not '%s'", a->ios);
	if (!ret && !a->ios)
		ret = units_parse_duration(a->time ? a->time : DEFAULT_TIME,
					   &w->ro.time_ns, &err);
	if (!ret && !a->ios && !w->ro.time_ns)
		ret = err_set(&err, -EINVAL,
			      "--time must be longer than 0, not '%s'",
			      a->time);
	if (!ret && a->ramp)
		ret = units_parse_duration(a->ramp, &w->ro.ramp_ns, &err);
	if (!ret && a->seed)
		ret = units_parse_count(a->seed, &w->ro.seed, &err);
	if (!ret && !a->seed)
		w->ro.seed = rng_seed_from_env() & 0xffffffffu;
	if (!ret)
		ret = workload_validate(w, &err);
	if (ret)
		error("%s", err.buf);
	strbuf_release(&err);
	strbuf_release(&why);
	return ret ? -1 : 0;
}

static const char *default_target(void)
{
	const char *tmp = getenv("TMPDIR");

	return tmp && *tmp ? tmp : "/tmp";
}

static int write_json(const char *file, const struct run_meta *meta,
		      const struct run_result *r)
{
	struct json_object *obj = result_to_json(meta, r);
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	result_json_string(obj, &sb);
	if (!strcmp(file, "-")) {
		fputs(sb.buf, stdout);
	} else {
		FILE *f = fopen(file, "w");

		if (!f || fputs(sb.buf, f) == EOF || fclose(f)) {
			error("cannot write '%s': %s", file, strerror(errno));
			ret = -1;
		}
	}
	strbuf_release(&sb);
	json_object_put(obj);
	return ret;
}

/*
 * Keep the run in the results store as a one-arm experiment, so `log`,
 * `show` and `diff` see single runs too. Returns 0, or -1 after printing
 * why it was not stored (the measurement is still printed, but the
 * command failed at what it was asked to do).
 */
static int store_run(const char *db, const struct run_meta *meta,
		     const struct run_result *r, struct strbuf *out_id)
{
	struct json_object *obj = result_to_json(meta, r), *exp = NULL;
	const char *text = json_object_to_json_string(obj);
	struct import_run ir = { 0 };
	struct import_arm arm = { "run", &ir, 1 };
	struct analysis_opts ao;
	struct strbuf err = STRBUF_INIT;
	struct store s;
	char id[STORE_ID_LEN + 1];
	int ret;

	analysis_opts_init(&ao);

	ret = import_parse(text, strlen(text), "run", NULL, &ir, &err);
	if (!ret)
		ret = import_build_experiment(&arm, 1, NULL, &exp, &err);
	if (!ret) {
		json_object_object_add(exp, "stopped",
				       json_object_new_string("single run"));
		json_object_object_add(exp, "runs_mode",
				       json_object_new_string("run"));
		ret = experiment_analyze_json(exp, &ao, &err);
	}
	if (!ret)
		ret = store_open(&s, db, &err);
	if (!ret) {
		ret = store_save_experiment(&s, exp, id, &err);
		store_close(&s);
	}
	if (ret)
		error("the run was not stored: %s", err.buf);
	else
		strbuf_addstr(out_id, json_object_get_string(
					      json_object_object_get(exp, "id")));
	json_object_put(exp);
	json_object_put(obj);
	import_run_release(&ir);
	strbuf_release(&err);
	return ret ? -1 : 0;
}

int cmd_run(int argc, const char **argv)
{
	struct run_args a = { 0 };
	const struct workload_ops *ops = NULL;
	struct workload w = { 0 };
	struct target t = { 0 };
	struct run_result r;
	struct run_meta meta = { 0 };
	struct truth_hook th = { 0 };
	struct truth_opts topts = { 0 };
	struct strbuf err = STRBUF_INIT, id = STRBUF_INIT;
	volatile int *stop = NULL;
	struct knob_cli kc;
	int ret = EXIT_OK, pr;

	run_result_init(&r);
	knob_cli_init(&kc);
	a.knobs = &kc;
	pr = parse_args(argc, argv, &a, &ops);
	if (pr) {
		knob_cli_restore(&kc);
		free(a.params);
		return pr > 0 ? EXIT_OK : EXIT_USAGE;
	}
	workload_init(&w, ops);
	if (configure(&w, &a) ||
	    (a.json_file && cli_check_output(a.json_file))) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (!a.no_store && (ret = cli_check_store(a.db)))
		goto out;
	/* signals first: a scratch target's set-up can take long, and
	 * must be torn down, not left behind, when interrupted */
	stop = cli_catch_stop_signals();
	w.stop = stop;
	pr = target_open(&t, a.target ? a.target : default_target(),
			 a.target_flags, stop, &err);
	if (pr) {
		error("%s", err.buf);
		ret = pr == -EINTR ? EXIT_RUNTIME : EXIT_USAGE;
		goto out;
	}
	if (*stop) {
		error("interrupted before the timed part began; nothing "
		      "measured");
		ret = EXIT_RUNTIME;
		goto out;
	}
	/* --set: journaled, applied now, restored at cleanup (knobargs.c) */
	ret = knob_cli_apply(&kc, &t);
	if (ret)
		goto out;
	pr = ops->prepare(&w, &t, &err);
	if (pr) {
		error("%s", err.buf);
		/* what the user asked for cannot fit or align: bad input */
		ret = pr == -EINVAL || pr == -ENOSPC ? EXIT_USAGE
						     : EXIT_RUNTIME;
		goto cleanup;
	}
	/* device truth: sample the target's devices over the timed region */
	truth_opts_from_workload(&topts, &w);
	if (truth_hook_init(&th, &t, &topts, &err)) {
		error("%s", err.buf);
		ret = EXIT_RUNTIME;
		goto cleanup;
	}
	w.hook = &th.hook;
	if (!*stop && ops->run(&w, &r, &err)) {
		error("%s", err.buf);
		ret = EXIT_RUNTIME;
		goto cleanup;
	}
	truth_hook_finish(&th, &r);
	if (*stop && !r.seconds) {
		error("interrupted before the timed part began; nothing "
		      "measured");
		ret = EXIT_RUNTIME;
		goto cleanup;
	}
	if (r.interrupted)
		run_result_warn(&r, "interrupted by a signal after %.2f s; "
				"the numbers cover only that part",
				r.seconds);
	meta.w = &w;
	meta.t = &t;
	meta.knobs = kc.settings;
	meta.nr_knobs = kc.nr_settings;
	/* a cut-short run is printed, marked, and neither stored nor
	 * reported as a success */
	if (r.interrupted)
		ret = EXIT_RUNTIME;
	else if (!a.no_store && store_run(a.db, &meta, &r, &id))
		ret = EXIT_RUNTIME;
	if (a.json_file) {
		if (write_json(a.json_file, &meta, &r))
			ret = EXIT_RUNTIME;
		if (strcmp(a.json_file, "-"))
			run_print_summary(stdout, &meta, &r);
	} else {
		run_print_summary(stdout, &meta, &r);
	}
	if (id.len && (!a.json_file || strcmp(a.json_file, "-")))
		printf("stored as %s ('iotrial show %s')\n", id.buf, id.buf);
cleanup:
	ops->cleanup(&w);
	if (knob_cli_restore(&kc) && ret == EXIT_OK)
		ret = EXIT_RUNTIME;
out:
	knob_cli_restore(&kc);
	truth_hook_release(&th);
	target_release(&t);
	workload_release(&w);
	run_result_release(&r);
	strbuf_release(&err);
	strbuf_release(&id);
	free(a.params);
	return ret;
}
