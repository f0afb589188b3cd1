/*
 * iotrial compare: is setting B really faster than A for this workload
 * on this machine, by how much, and how sure are we? The command parses
 * the factors, checks every arm before anything runs, hands the loop to
 * core/experiment.c, and prints the verdict table (or the experiment
 * object) and saves it to the store.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "compare_knobs.h"
#include "../core/experiment.h"
#include "../core/report/report.h"
#include "../core/result_json.h"
#include "../core/target.h"
#include "../util/error.h"
#include "../util/rng.h"
#include "../util/units.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

/* Everything compare was asked, as typed. */
struct compare_args {
	const char *workload;
	const char *target;
	const char *time, *ios, *ramp, *seed;
	const char *runs, *precision, *max_runs, *budget, *equivalence;
	const char *baseline, *warmup, *max_arms, *db;
	const char *json_file;
	int no_drop_caches, fail_on_regression, no_store, quiet;
	unsigned target_flags;
	const char **vary;          /* "FACTOR=V1,V2" */
	unsigned nr_vary, alloc_vary;
	const char **params;        /* "name=value", owned */
	unsigned nr_params, alloc_params;
};

static const char *const compare_usage[] = {
    "iotrial compare WORKLOAD --vary FACTOR=V1,V2[,...] [--vary ...]",
    "         [-t TARGET] [--PARAM=VALUE ...] [--time DUR | --ios N] "
    "[--ramp DUR]",
    "         [--runs N|auto] [--precision 2%] [--max-runs N] "
    "[--budget DUR]",
    "         [--equivalence 2%] [--baseline ARM] [--warmup N] [--seed N]",
    "         [--no-drop-caches] [--max-arms N] [--db PATH] [--no-store]",
    "         [--json[=FILE]] [--fail-on-regression] [--quiet] "
    "[--allow-destroy]",
    NULL,
};

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
		      "at least\n6 blocks, then until every ratio's 95% CI "
		      "is within --precision, or\n--max-runs (30) or "
		      "--budget.\nTARGET is as for 'iotrial run' (default: "
		      "$TMPDIR or /tmp).\nDefaults: --time 3s, --precision "
		      "2%, --equivalence 2%.\n");
	cli_workloads_list(out);
}

static int push(const char ***list, unsigned *nr, unsigned *alloc,
		const char *s)
{
	ALLOC_GROW(*list, *nr + 1, *alloc);
	(*list)[(*nr)++] = s;
	return 0;
}

/* A workload parameter, kept as "name=value" (owned). */
static int param_option(const struct option *opt, const char *arg)
{
	struct compare_args *a = opt->data;
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s=%s", opt->long_name, arg);
	return push(&a->params, &a->nr_params, &a->alloc_params,
		    strbuf_detach(&sb, NULL));
}

/* --vary FACTOR=V1,V2: one more factor, checked when the arms are made. */
static int vary_option(const struct option *opt, const char *arg)
{
	struct compare_args *a = opt->data;

	return push(&a->vary, &a->nr_vary, &a->alloc_vary, arg);
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
	    OPT_STRING('t', "target", &a->target, "TARGET",
		       "where to run, as for 'iotrial run'"),
	    OPT_STRING(0, "time", &a->time, "DURATION",
		       "length of each run (default 3s)"),
	    OPT_STRING(0, "ios", &a->ios, "N",
		       "each run stops after N I/Os instead"),
	    OPT_STRING(0, "ramp", &a->ramp, "DURATION",
		       "warm-up of each run, discarded"),
	    OPT_STRING(0, "runs", &a->runs, "N|auto",
		       "runs per arm, or auto: until --precision (default)"),
	    OPT_STRING(0, "precision", &a->precision, "PERCENT",
		       "the CI half-width that ends an auto experiment "
		       "(default 2%)"),
	    OPT_STRING(0, "max-runs", &a->max_runs, "N",
		       "at most N runs per arm with --runs auto (default 30)"),
	    OPT_STRING(0, "budget", &a->budget, "DURATION",
		       "stop an auto experiment after about this long"),
	    OPT_STRING(0, "equivalence", &a->equivalence, "PERCENT",
		       "the margin of 'equivalent' (default 2%)"),
	    OPT_STRING(0, "baseline", &a->baseline, "ARM",
		       "compare with this arm instead of the first values"),
	    OPT_STRING(0, "warmup", &a->warmup, "N",
		       "runs before the first block, discarded (default 0)"),
	    OPT_STRING(0, "seed", &a->seed, "N",
		       "seed of the arm order and of each run"),
	    OPT_STRING(0, "max-arms", &a->max_arms, "N",
		       "refuse more arms than this (default 64)"),
	    OPT_BOOL(0, "no-drop-caches", &a->no_drop_caches,
		     "do not drop the page cache before each run"),
	    OPT_BIT(0, "allow-destroy", &a->target_flags, TARGET_ALLOW_DESTROY,
		    "as for 'iotrial run'"),
	    OPT_STRING_OPTARG(0, "json", &a->json_file, "FILE", "-",
			      "print the experiment as JSON, or write it to "
			      "FILE"),
	    OPT_STRING(0, "db", &a->db, "PATH", "the results store"),
	    OPT_BOOL(0, "no-store", &a->no_store,
		     "do not store the experiment"),
	    OPT_BOOL(0, "fail-on-regression", &a->fail_on_regression,
		     "exit 3 when an arm is significantly slower"),
	    OPT_BOOL(0, "quiet", &a->quiet,
		     "no progress line and no header on stderr"),
	    OPT_END(),
	};
	int n, help = argc > 1 &&
		      (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));

	if ((argc < 2 || argv[1][0] == '-') && !help) {
		error("compare needs a workload first: iotrial compare "
		      "WORKLOAD --vary FACTOR=A,B");
		return -1;
	}
	if (help) {
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
	opts = options_join(params.opts, own);
	compare_epilogue(&epilogue);
	n = parse_options(argc, argv, "compare", opts, compare_usage,
			  epilogue.buf, 0);
	free(opts);
	cli_workload_options_release(&params);
	strbuf_release(&epilogue);
	if (n == PARSE_OPT_HELP)
		return 1;
	if (n < 0)
		return -1;
	if (n > 0) {
		error("unexpected argument '%s'; compare takes one workload, "
		      "and options of the form --name=value (see 'iotrial "
		      "compare %s --help')",
		      argv[0], ops->name);
		return -1;
	}
	if (!a->nr_vary) {
		error("nothing to compare: give at least one --vary "
		      "FACTOR=A,B (e.g. --vary scheduler=none,mq-deadline)");
		return -1;
	}
	if (a->time && a->ios) {
		error("give --time or --ios, not both");
		return -1;
	}
	return 0;
}

/* Is the parameter a number (size, count, bool, percent), not text? */
static int numeric_param(const struct workload *w, const char *name)
{
	const struct param_spec *p;

	for (p = w->ops->params; p->name; p++)
		if (!strcmp(p->name, name))
			return p->type != PARAM_CHOICE &&
			       p->type != PARAM_STRING;
	return 0;
}

/*
 * Do two values of parameter factor f mean the same (4k and 4096)? 1
 * with their indexes in *out_i > *out_j. Values that do not parse are
 * left to experiment_validate() to report.
 */
static int same_values(struct workload *w, const struct experiment_factor *f,
		       unsigned *out_i, unsigned *out_j)
{
	uint64_t *u = xcalloc(f->nr_values, sizeof(*u));
	char *ok = xcalloc(f->nr_values, 1);
	unsigned i, j;
	int found = 0;

	for (i = 0; i < f->nr_values; i++)
		if (!workload_set_param(w, f->name, f->values[i], NULL,
					NULL)) {
			const struct param_value *v = workload_param(w, f->name);

			/* text parameters differ by text, the rest by value */
			u[i] = v->u;
			ok[i] = 1;
		}
	for (i = 0; i < f->nr_values && !found; i++)
		for (j = 0; j < i && !found; j++)
			if (ok[i] && ok[j] && u[i] == u[j] &&
			    (strcmp(f->values[i], f->values[j]) == 0 ||
			     numeric_param(w, f->name))) {
				*out_i = i;
				*out_j = j;
				found = 1;
			}
	free(u);
	free(ok);
	return found;
}

/* Split "name=v1,v2" into a factor; classify it. -1 after an error. */
static int make_factor(struct experiment_factor *f, const char *spec,
		       const struct workload_ops *ops,
		       struct compare_knobs *ck)
{
	const char *eq = strchr(spec, '=');
	const char *p;
	struct workload w;
	struct strbuf err = STRBUF_INIT;
	unsigned alloc = 0, i, j;
	int is_param, ret;

	memset(f, 0, sizeof(*f));
	if (!eq || eq == spec || !eq[1]) {
		error("invalid --vary '%s': expected FACTOR=V1,V2 (e.g. "
		      "bs=4k,1M)",
		      spec);
		return -1;
	}
	f->name = xstrndup(spec, (size_t)(eq - spec));
	for (p = eq + 1;;) {
		size_t n = strcspn(p, ",");

		if (!n) {
			error("invalid --vary '%s': empty value", spec);
			return -1;
		}
		ALLOC_GROW(f->values, f->nr_values + 1, alloc);
		f->values[f->nr_values++] = xstrndup(p, n);
		if (!p[n])
			break;
		p += n + 1;
	}
	if (f->nr_values < 2) {
		error("--vary '%s' gives one value; a comparison needs at "
		      "least two (e.g. %s=%s,OTHER)",
		      spec, f->name, f->values[0]);
		return -1;
	}
	for (i = 0; i < f->nr_values; i++)
		for (p = f->values[i]; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f) {
				error("--vary '%s': values must be printable "
				      "text",
				      f->name);
				return -1;
			}
	workload_init(&w, ops);
	is_param = workload_param(&w, f->name) != NULL;
	if (is_param && same_values(&w, f, &i, &j)) {
		error("--vary '%s' lists the same value twice ('%s' and "
		      "'%s'); each arm must differ",
		      spec, f->values[j], f->values[i]);
		workload_release(&w);
		return -1;
	}
	workload_release(&w);
	for (i = 0; !is_param && i < f->nr_values; i++)
		for (j = 0; j < i; j++)
			if (!strcmp(f->values[i], f->values[j])) {
				error("--vary '%s' lists '%s' twice; each arm "
				      "must differ",
				      spec, f->values[i]);
				return -1;
			}
	if (is_param)
		return 0;
	ret = compare_knobs_classify(ck, f->name, ops, &err);
	if (ret == 1) {
		f->is_knob = 1;
	} else {
		error("%s", err.buf);
		ret = -1;
	}
	strbuf_release(&err);
	return ret < 0 ? -1 : 0;
}

static void free_factors(struct experiment_factor *f, unsigned nr)
{
	unsigned i, j;

	for (i = 0; i < nr; i++) {
		for (j = 0; j < f[i].nr_values; j++)
			free(f[i].values[j]);
		free(f[i].values);
		free(f[i].name);
	}
	free(f);
}

/* Say which option a parse error is about: "--budget: invalid ...". */
static int about(int ret, struct strbuf *err, const char *opt)
{
	struct strbuf sb = STRBUF_INIT;

	if (!ret || !strncmp(err->buf, "--", 2))
		return ret;
	strbuf_addf(&sb, "%s: %s", opt, err->buf);
	strbuf_reset(err);
	strbuf_addstr(err, sb.buf);
	strbuf_release(&sb);
	return ret;
}

/* "0.02" for a percentage is most likely meant as 2%: say how we read it. */
static void percent_hint(const char *opt, const char *in, double frac)
{
	if (in && !strchr(in, '%') && frac < 0.01)
		note("%s %s is read as %s%%; write %g%% if you meant a "
		     "fraction",
		     opt, in, in, frac * 1e4);
}

/* Parse the numeric options into c; -1 after printing an error. */
static int configure(struct experiment_config *c, const struct compare_args *a)
{
	struct strbuf err = STRBUF_INIT;
	uint64_t u;
	int ret = 0;

	experiment_config_init(c);
	c->drop_caches = !a->no_drop_caches;
	if (a->runs && strcmp(a->runs, "auto")) {
		ret = about(units_parse_count(a->runs, &u, &err), &err,
			    "--runs");
		if (!ret && (u < 1 || u > 10000))
			ret = err_set(&err, -ERANGE,
				      "--runs must be 'auto' or from 1 to "
				      "10000, not '%s'",
				      a->runs);
		c->runs_fixed = (unsigned)u;
	}
	if (!ret && a->max_runs) {
		ret = about(units_parse_count(a->max_runs, &u, &err), &err,
			    "--max-runs");
		if (!ret && (u < 2 || u > 10000))
			ret = err_set(&err, -ERANGE,
				      "--max-runs must be from 2 to 10000, "
				      "not '%s'",
				      a->max_runs);
		c->max_runs = (unsigned)u;
		if (c->min_blocks > c->max_runs)
			c->min_blocks = c->max_runs;
	}
	if (!ret && a->precision) {
		ret = about(units_parse_percent(a->precision, &c->precision,
						&err),
			    &err, "--precision");
		if (!ret && !(c->precision > 0 && c->precision < 1))
			ret = err_set(&err, -ERANGE,
				      "--precision must be more than 0%% and "
				      "less than 100%%, not '%s'",
				      a->precision);
	}
	if (!ret && a->equivalence) {
		ret = about(units_parse_percent(a->equivalence,
						&c->equivalence, &err),
			    &err, "--equivalence");
		if (!ret && !(c->equivalence > 0 && c->equivalence < 1))
			ret = err_set(&err, -ERANGE,
				      "--equivalence must be more than 0%% and "
				      "less than 100%%, not '%s'",
				      a->equivalence);
	}
	if (!ret) {
		percent_hint("--precision", a->precision, c->precision);
		percent_hint("--equivalence", a->equivalence, c->equivalence);
	}
	if (!ret && a->budget)
		ret = about(units_parse_duration(a->budget, &c->budget_ns,
						 &err),
			    &err, "--budget");
	if (!ret && a->warmup) {
		ret = about(units_parse_count(a->warmup, &u, &err), &err,
			    "--warmup");
		c->warmup = (unsigned)u;
	}
	if (!ret && a->max_arms) {
		ret = about(units_parse_count(a->max_arms, &u, &err), &err,
			    "--max-arms");
		if (!ret && (u < 1 || u > 4096))
			ret = err_set(&err, -ERANGE,
				      "--max-arms must be from 1 to 4096, not "
				      "'%s'",
				      a->max_arms);
		c->max_arms = (unsigned)u;
	}
	if (!ret && a->ios) {
		ret = about(units_parse_count(a->ios, &c->ro.ios, &err), &err,
			    "--ios");
		if (!ret && !c->ro.ios)
			ret = err_set(&err, -EINVAL, "--ios must be at least 1");
	}
	if (!ret && !a->ios) {
		ret = about(units_parse_duration(a->time ? a->time : "3s",
						 &c->ro.time_ns, &err),
			    &err, "--time");
		if (!ret && !c->ro.time_ns)
			ret = err_set(&err, -EINVAL,
				      "--time must be longer than 0");
	}
	if (!ret && a->ramp)
		ret = about(units_parse_duration(a->ramp, &c->ro.ramp_ns,
						 &err),
			    &err, "--ramp");
	if (!ret && a->seed)
		ret = about(units_parse_count(a->seed, &c->seed, &err), &err,
			    "--seed");
	if (!ret && !a->seed)
		c->seed = rng_seed_from_env() & 0xffffffffu;
	if (ret)
		error("%s", err.buf);
	strbuf_release(&err);
	return ret ? -1 : 0;
}

/* Progress on stderr when it is a terminal: one rewritten line. */
static void on_progress(void *ctx, const struct experiment_progress *p)
{
	const struct compare_args *a = ctx;

	if (a->quiet || !isatty(STDERR_FILENO))
		return;
	if (p->block == -1u)
		fprintf(stderr, "\r\033[K[%u/%u] warm-up: %s", p->run + 1,
			p->planned, p->arm);
	else
		fprintf(stderr, "\r\033[K[%u/%u] block %u: %s", p->run + 1,
			p->planned, p->block + 1, p->arm);
	if (p->halfwidth > 0 && p->halfwidth < 10)
		fprintf(stderr, ", CI +-%.1f%%", 100 * p->halfwidth);
	if (p->eta_s >= 0)
		fprintf(stderr, ", ETA %.0f s", p->eta_s);
	fflush(stderr);
}

static int default_target_spec(struct strbuf *out)
{
	const char *tmp = getenv("TMPDIR");

	strbuf_addstr(out, tmp && *tmp ? tmp : "/tmp");
	return 0;
}

/* True when an arm is significantly slower than the baseline. */
static int has_regression(struct json_object *exp)
{
	struct json_object *v = json_object_object_get(exp, "verdicts");
	size_t i, n = v ? json_object_array_length(v) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *x = json_object_array_get_idx(v, i);

		if (!strcmp(json_object_get_string(
				    json_object_object_get(x, "verdict")),
			    "slower"))
			return 1;
	}
	return 0;
}

int cmd_compare(int argc, const char **argv)
{
	struct compare_args a = { 0 };
	const struct workload_ops *ops = NULL;
	struct experiment_config c = { 0 };
	struct experiment_hooks h = { 0 };
	struct experiment e = { 0 };
	struct compare_knobs ck;
	struct target t = { 0 };
	struct strbuf err = STRBUF_INIT, spec = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT;
	unsigned i;
	int ret = EXIT_OK, pr;

	compare_knobs_init(&ck);
	pr = parse_args(argc, argv, &a, &ops);
	if (pr) {
		ret = pr > 0 ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	if (configure(&c, &a) ||
	    (a.json_file && cli_check_output(a.json_file))) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (!a.no_store && (ret = cli_check_store(a.db)))
		goto out;
	if (a.target)
		strbuf_addstr(&spec, a.target);
	else
		default_target_spec(&spec);
	/* signals first: a scratch target's set-up is torn down on one */
	c.stop = cli_catch_stop_signals();
	pr = target_open(&t, spec.buf, a.target_flags, c.stop, &err);
	if (pr) {
		error("%s", err.buf);
		ret = pr == -EINTR ? EXIT_RUNTIME : EXIT_USAGE;
		goto out;
	}
	if (compare_knobs_bind(&ck, &t, &err)) {
		error("%s", err.buf);
		ret = EXIT_RUNTIME;
		goto out;
	}
	c.ops = ops;
	c.params = a.params;
	c.nr_params = a.nr_params;
	c.target = &t;
	c.baseline = a.baseline;
	c.factors = xcalloc(a.nr_vary, sizeof(*c.factors));
	for (i = 0; i < a.nr_vary; i++, c.nr_factors++) {
		unsigned k;

		if (make_factor(&c.factors[i], a.vary[i], ops, &ck)) {
			c.nr_factors++;
			ret = EXIT_USAGE;
			goto out;
		}
		for (k = 0; k < i; k++)
			if (!strcmp(c.factors[k].name, c.factors[i].name)) {
				error("'%s' is varied twice; give all its "
				      "values in one --vary %s=A,B,...",
				      c.factors[i].name, c.factors[i].name);
				c.nr_factors++;
				ret = EXIT_USAGE;
				goto out;
			}
	}
	if (experiment_plan(&e, &c, &err) || experiment_validate(&e, &c, &err) ||
	    compare_knobs_check(&ck, &e, &c, &err)) {
		error("%s", err.buf);
		ret = EXIT_USAGE;
		goto out;
	}
	if (c.drop_caches && geteuid() != 0) {
		warning("not root: caches cannot be dropped between runs, so "
			"runs may start warm; run as root or pass "
			"--no-drop-caches to silence this");
		c.drop_caches = 0;
	}
	if (!a.quiet)
		fprintf(stderr, "compare: %u arms, seed %llu%s\n", e.nr_arms,
			(unsigned long long)c.seed,
			c.runs_fixed ? "" : ", runs until precision");
	h.ctx = &a;
	h.progress = on_progress;
	compare_knobs_hooks(&ck, &h);
	pr = experiment_run(&e, &c, &h, &err);
	if (!a.quiet && isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K");
	compare_knobs_restore(&ck);
	if (pr) {
		error("%s", err.buf);
		ret = EXIT_RUNTIME;
		/* keep and show what was measured, if anything */
		if (!e.obj || !json_object_array_length(json_object_object_get(
				      e.obj, "runs")))
			goto out;
	}
	compare_knobs_finish(&ck, &t, e.obj);
	if (*c.stop) {
		/* what was measured is shown and kept, but it is no success */
		warning("interrupted: the verdicts cover only the runs done");
		if (ret == EXIT_OK)
			ret = EXIT_RUNTIME;
	}
	if (!a.no_store && json_object_array_length(json_object_object_get(
				   e.obj, "runs")) &&
	    compare_store_save(a.db, e.obj, &err)) {
		error("the experiment was not stored: %s", err.buf);
		ret = EXIT_RUNTIME;
	}
	if (a.json_file) {
		strbuf_addstr(&out, json_object_to_json_string_ext(
					    e.obj, JSON_C_TO_STRING_PRETTY |
							   JSON_C_TO_STRING_SPACED |
							   JSON_C_TO_STRING_NOSLASHESCAPE));
		strbuf_addch(&out, '\n');
		if (!strcmp(a.json_file, "-")) {
			fputs(out.buf, stdout);
		} else {
			FILE *f = fopen(a.json_file, "w");

			if (!f || fputs(out.buf, f) == EOF || fclose(f)) {
				error("cannot write '%s': %s", a.json_file,
				      strerror(errno));
				ret = EXIT_RUNTIME;
			}
		}
		strbuf_reset(&out);
	}
	if (!a.json_file || strcmp(a.json_file, "-")) {
		report_experiment_text(e.obj, &out, &err);
		fputs(out.buf, stdout);
	}
	if (ret == EXIT_OK && a.fail_on_regression && has_regression(e.obj))
		ret = EXIT_REGRESSION;
out:
	compare_knobs_release(&ck);
	experiment_release(&e);
	free_factors(c.factors, c.nr_factors);
	target_release(&t);
	strbuf_release(&err);
	strbuf_release(&spec);
	strbuf_release(&out);
	free(a.vary);
	for (i = 0; i < a.nr_params; i++)
		free((char *)a.params[i]);
	free(a.params);
	return ret;
}
