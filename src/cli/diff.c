/*
 * iotrial diff: the same workload measured in two stored experiments,
 * before and after a change that is not a knob: a kernel patch, a new
 * disk, a firmware update. That is the kernel developer's "five runs
 * with and without the patch", done with the same statistics as
 * compare: the matching arm's runs of each experiment become the two
 * arms of a new, unpaired experiment (their blocks are unrelated) that
 * is analysed and printed but not stored. Then every difference between
 * the two recorded environments is listed, because a result is only as
 * good as the knowledge of what else changed.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "../core/observe/env.h"
#include "../core/experiment/experiment.h"
#include "../core/report/expjson.h"
#include "../core/report/report.h"
#include "../core/experiment/result_json.h"
#include "../core/store/store.h"
#include "../util/error.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

/* What `diff` was asked for. */
struct diff_args {
	const char *id[2];
	const char *arm; /* NULL: each experiment's baseline arm */
	const char *db;	 /* NULL: the default store */
	int json;
	int fail_on_regression;
};

static const char *const diff_usage[] = {
    "iotrial diff ID1 ID2 [--arm LABEL] [--db PATH] [--json]",
    "                    [--fail-on-regression]",
    NULL,
};

static const char diff_epilogue[] =
    "Compares the same workload in two stored experiments: ID1 is "
    "'before',\nID2 'after' (a kernel, firmware or hardware change). Uses "
    "each one's\nbaseline arm, or the arm LABEL present in both, and lists "
    "how their\nenvironments differ. --fail-on-regression exits 3 when "
    "'after' is slower.\n";

/* Parse argv; returns 0, 1 for --help, -1 after printing an error. */
static int parse_args(int argc, const char **argv, struct diff_args *a)
{
	struct option opts[] = {
	    OPT_STRING(0, "arm", &a->arm, "LABEL",
		       "compare the arm LABEL present in both, not the "
		       "baselines"),
	    OPT_STRING(0, "db", &a->db, "PATH", "the results store to read"),
	    OPT_BOOL(0, "json", &a->json,
		     "print the comparison as an experiment object"),
	    OPT_BOOL(0, "fail-on-regression", &a->fail_on_regression,
		     "exit 3 when ID2 is significantly slower than ID1"),
	    OPT_END(),
	};
	int n = parse_options(argc, argv, "diff", opts, diff_usage,
			      diff_epilogue, 0);

	if (n == PARSE_OPT_HELP)
		return 1;
	if (n < 0)
		return -1;
	if (n > 2) {
		error("unexpected argument '%s' for 'diff'; it takes two "
		      "experiment ids",
		      argv[2]);
		return -1;
	}
	if (n < 2) {
		error("'diff' needs two experiment ids (before and after); "
		      "'iotrial log' lists them");
		return -1;
	}
	a->id[0] = argv[0];
	a->id[1] = argv[1];
	return 0;
}

/*
 * The arm of exp to use: label's, or the baseline's. Returns its index,
 * or -1 after printing an error.
 */
static int pick_arm(struct json_object *exp, const char *id, const char *label)
{
	struct json_object *arms = expjson_get(exp, "arms"),
			   *b = expjson_get(exp, "baseline");
	struct strbuf labels = STRBUF_INIT;
	size_t i, n;

	if (!arms || !json_object_is_type(arms, json_type_array) ||
	    !(n = json_object_array_length(arms))) {
		error("experiment '%s' has no arms to compare", id);
		return -1;
	}
	if (!label) {
		int base = b ? json_object_get_int(b) : 0;

		return base >= 0 && (size_t)base < n ? base : 0;
	}
	for (i = 0; i < n; i++) {
		const char *l =
		    expjson_str(json_object_array_get_idx(arms, i), "label");

		if (!strcmp(l, label)) {
			strbuf_release(&labels);
			return (int)i;
		}
		strbuf_addf(&labels, "%s'%s'", i ? ", " : "", l);
	}
	error("arm '%s' is not in experiment '%s'; its arms are %s", label, id,
	      labels.buf);
	strbuf_release(&labels);
	return -1;
}

/* Refuse two experiments that did not measure the same thing. */
static int check_same(struct json_object *e[2], const char *id[2])
{
	struct json_object *m0 = expjson_get(e[0], "metric"),
			   *m1 = expjson_get(e[1], "metric");
	struct json_object *h0 = expjson_get(m0, "higher_is_better");
	struct json_object *h1 = expjson_get(m1, "higher_is_better");

	if (strcmp(expjson_str(e[0], "workload"),
		   expjson_str(e[1], "workload"))) {
		error("experiments '%s' and '%s' ran different workloads "
		      "('%s' and '%s'); diff compares the same workload "
		      "before and after a change",
		      id[0], id[1], expjson_str(e[0], "workload"),
		      expjson_str(e[1], "workload"));
		return -1;
	}
	if (strcmp(expjson_str(m0, "name"), expjson_str(m1, "name")) ||
	    (h0 && h1 &&
	     json_object_get_boolean(h0) != json_object_get_boolean(h1))) {
		error("experiments '%s' and '%s' measured different metrics "
		      "('%s' and '%s'); diff needs the same metric in both",
		      id[0], id[1], expjson_str(m0, "name"),
		      expjson_str(m1, "name"));
		return -1;
	}
	return 0;
}

/* A number member of o, or def when it has none. */
static double num_or(struct json_object *o, const char *key, double def)
{
	double v = expjson_num(o, key);

	return isnan(v) ? def : v;
}

/* The metrics of the runs of exp's arm into *out (caller frees); count. */
static size_t arm_runs(struct json_object *exp, int arm,
		       struct experiment_src_run **out)
{
	struct json_object *src = expjson_get(exp, "runs");
	size_t i, n, nr = 0;

	*out = NULL;
	if (!src || !json_object_is_type(src, json_type_array))
		return 0;
	n = json_object_array_length(src);
	*out = xcalloc(n ? n : 1, sizeof(**out));
	for (i = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(src, i);
		struct json_object *a = expjson_get(r, "arm"),
				   *m = expjson_get(r, "metric");

		if (!a || !m || json_object_get_int(a) != arm)
			continue;
		(*out)[nr].metric = json_object_get_double(m);
		(*out)[nr].seq = (int)i;
		nr++;
	}
	return nr;
}

/*
 * The before/after experiment of arms arm[0] of e[0] and arm[1] of
 * e[1]. Returns NULL after printing an error.
 */
static struct json_object *build(struct json_object *e[2], const char *id[2],
				 const int arm[2])
{
	struct json_object *metric = expjson_get(e[1], "metric");
	struct json_object *hib = expjson_get(metric, "higher_is_better");
	struct experiment_src src = {0};
	struct experiment_src_arm sa[2];
	struct experiment_src_run *runs[2];
	struct strbuf label[2] = {STRBUF_INIT, STRBUF_INIT};
	struct strbuf sid = STRBUF_INIT;
	struct json_object *d = NULL;
	int k;

	for (k = 0; k < 2; k++) {
		sa[k].nr = arm_runs(e[k], arm[k], &runs[k]);
		sa[k].runs = runs[k];
		strbuf_addf(&label[k], "%s %s", k ? "after" : "before",
			    expjson_str(e[k], "id"));
		sa[k].label = label[k].buf;
	}
	for (k = 0; k < 2; k++)
		if (!sa[k].nr) {
			error("experiment '%s' has no runs in arm %d; nothing "
			      "to compare",
			      id[k], arm[k]);
			goto out;
		}
	strbuf_addf(&sid, "%s..%s", expjson_str(e[0], "id"),
		    expjson_str(e[1], "id"));
	src.id = sid.buf;
	src.workload = expjson_str(e[1], "workload");
	src.target = expjson_target(e[1]);
	src.seed = "none";
	src.metric = expjson_str(metric, "name");
	src.higher_is_better = !hib || json_object_get_boolean(hib);
	src.arms = sa;
	src.nr_arms = 2;
	src.stopped = "diff of stored experiments";
	d = experiment_build(&src);
out:
	for (k = 0; k < 2; k++) {
		free(runs[k]);
		strbuf_release(&label[k]);
	}
	strbuf_release(&sid);
	return d;
}

/* Lines "env differs: ..." and "params differ: ..." into out; count. */
static int env_lines(struct json_object *e[2], const char *const id[2],
		     struct strbuf *out)
{
	struct json_object *env0 = expjson_env(e[0]), *env1 = expjson_env(e[1]);
	struct strbuf d = STRBUF_INIT;
	const char *p, *nl;
	int n = 0;

	if (!env0 != !env1) {
		strbuf_addf(out,
			    "env differs: only '%s' recorded its environment\n",
			    env0 ? id[0] : id[1]);
		n++;
	} else if (env0) {
		/* stack.path is the run's private work directory */
		static const char *const ignore[] = {"path", NULL};

		env_json_diff(env0, env1, ignore, &d);
		for (p = d.buf; *p; p = nl + 1, n++) {
			nl = strchrnul(p, '\n');
			strbuf_addf(out, "env differs: %.*s\n", (int)(nl - p),
				    p);
			if (!*nl)
				break;
		}
	}
	strbuf_reset(&d);
	if (strcmp(expjson_target(e[0]), expjson_target(e[1])))
		strbuf_addf(&d, "target: '%s' vs '%s'\n", expjson_target(e[0]),
			    expjson_target(e[1]));
	if (expjson_get(e[0], "params") && expjson_get(e[1], "params"))
		env_json_diff(expjson_get(e[0], "params"),
			      expjson_get(e[1], "params"), NULL, &d);
	for (p = d.buf; *p; p = nl + 1, n++) {
		nl = strchrnul(p, '\n');
		strbuf_addf(out, "params differ: %.*s\n", (int)(nl - p), p);
		if (!*nl)
			break;
	}
	strbuf_release(&d);
	return n;
}

/* The verdict of "after" against "before", or "". */
static const char *verdict_of(struct json_object *d)
{
	struct json_object *v = expjson_get(d, "verdicts");

	if (!v || !json_object_is_type(v, json_type_array) ||
	    !json_object_array_length(v))
		return "";
	return expjson_str(json_object_array_get_idx(v, 0), "verdict");
}

/* Print the diff as text or JSON. */
static void print_diff(const struct diff_args *a, struct json_object *e[2],
		       const int arm[2], struct json_object *d)
{
	struct strbuf out = STRBUF_INIT, env = STRBUF_INIT, err = STRBUF_INIT;
	const char *label[2];
	int k, nr_env;

	for (k = 0; k < 2; k++)
		label[k] = expjson_str(json_object_array_get_idx(
					   expjson_get(e[k], "arms"), arm[k]),
				       "label");
	nr_env = env_lines(e, a->id, &env);
	if (a->json) {
		struct json_object *o = json_object_new_object(), *lines;
		const char *p, *nl;

		json_object_object_add(
		    o, "before", json_object_get(expjson_get(e[0], "id")));
		json_object_object_add(
		    o, "after", json_object_get(expjson_get(e[1], "id")));
		json_object_object_add(o, "arm_before",
				       json_object_new_string(label[0]));
		json_object_object_add(o, "arm_after",
				       json_object_new_string(label[1]));
		json_object_object_add(o, "verdict",
				       json_object_new_string(verdict_of(d)));
		json_object_object_add(o, "experiment", json_object_get(d));
		lines = json_object_new_array();
		for (p = env.buf; *p; p = nl + 1) {
			nl = strchrnul(p, '\n');
			json_object_array_add(lines, json_object_new_string_len(
							 p, (int)(nl - p)));
			if (!*nl)
				break;
		}
		json_object_object_add(o, "differences", lines);
		result_json_string(o, &out);
		json_object_put(o);
	} else {
		strbuf_addf(&out, "before: %s arm '%s'; after: %s arm '%s'\n",
			    expjson_str(e[0], "id"), label[0],
			    expjson_str(e[1], "id"), label[1]);
		report_experiment_text(d, &out, &err);
		strbuf_addch(&out, '\n');
		if (nr_env)
			strbuf_addstr(&out, env.buf);
		else
			strbuf_addstr(&out, "no differences in the recorded "
					    "environments\n");
	}
	fputs(out.buf, stdout);
	strbuf_release(&out);
	strbuf_release(&env);
	strbuf_release(&err);
}

int cmd_diff(int argc, const char **argv)
{
	struct diff_args a = {0};
	struct strbuf err = STRBUF_INIT;
	struct json_object *e[2] = {NULL, NULL}, *d = NULL;
	struct analysis_opts o;
	struct store s = {0};
	int ret = EXIT_USAGE, r, k, arm[2];

	r = parse_args(argc, argv, &a);
	if (r) {
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	}
	r = store_open_flags(&s, a.db, STORE_NO_CREATE, &err);
	for (k = 0; k < 2 && !r; k++)
		r = store_load_experiment(&s, a.id[k], &e[k], &err);
	if (r) {
		error("%s", err.buf);
		ret = r == -EINVAL || r == -ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	if (!strcmp(expjson_str(e[0], "id"), expjson_str(e[1], "id"))) {
		error("'%s' and '%s' are the same experiment; diff compares "
		      "two (see 'iotrial log')",
		      a.id[0], a.id[1]);
		ret = EXIT_USAGE;
		goto out;
	}
	if (check_same(e, a.id))
		goto out;
	for (k = 0; k < 2; k++)
		if ((arm[k] = pick_arm(e[k], a.id[k], a.arm)) < 0)
			goto out;
	d = build(e, a.id, arm);
	if (!d)
		goto out;
	analysis_opts_init(&o); /* the metric's own flag overrides */
	o.alpha = num_or(e[1], "alpha", o.alpha);
	o.margin = num_or(e[1], "equivalence", o.margin);
	if (experiment_analyze_json(d, &o, &err)) {
		error("cannot analyse the diff: %s", err.buf);
		goto out;
	}
	print_diff(&a, e, arm, d);
	ret = a.fail_on_regression && !strcmp(verdict_of(d), "slower")
		  ? EXIT_REGRESSION
		  : EXIT_OK;
out:
	json_object_put(d);
	json_object_put(e[0]);
	json_object_put(e[1]);
	store_close(&s);
	strbuf_release(&err);
	return ret;
}
