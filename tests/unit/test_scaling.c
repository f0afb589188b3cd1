/*
 * Tests for core/experiment/scaling.c and core/report/scaling_text.c: an
 * experiment whose factor is numeric gets "scaling" rows from
 * experiment_analyze_json(), in the numeric order of the values (not
 * the order given), with each arm's median, CI and n and the ratio to
 * the first value's median; with a second factor, one group per level
 * of it; a factor that is not numeric (or label) gets none; the text
 * prints one table per group after the verdict table (the page's
 * scaling section).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>
#include "core/experiment/experiment.h"
#include "core/experiment/scaling.h"
#include "core/model/model_tree.h"
#include "core/report/report.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define RUNS 5

/* The text compare prints of exp, onto out: true when it has a scaling
 * table. */
static bool scaling_text(struct json_object *exp, struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(report_experiment_text(exp, out, &err), 0);
	strbuf_release(&err);
	return strstr(out->buf, "\nscaling of ") != NULL;
}

static void add_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}

static struct json_object *str_array(const char *const *v, unsigned n)
{
	struct json_object *a = json_object_new_array();
	unsigned i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(v[i]));
	return a;
}

/*
 * An experiment over factor f1 (values v1) and, when n2, factor f2
 * (values v2), the last varying fastest as compare makes them; arm a's
 * runs scatter 1% around level[a] (its median).
 */
static struct json_object *experiment_of(const char *f1, const char *const *v1,
					 unsigned n1, const char *f2,
					 const char *const *v2, unsigned n2,
					 const double *level)
{
	struct json_object *exp = json_object_new_object();
	struct json_object *factors = json_object_new_array();
	struct json_object *arms = json_object_new_array();
	struct json_object *runs = json_object_new_array();
	struct json_object *metric = json_object_new_object();
	struct json_object *fo;
	unsigned a, b, nr_arms = n1 * (n2 ? n2 : 1);
	static const double scatter[RUNS] = {0.99, 1.0, 1.01, 0.995, 1.005};

	add_str(exp, "schema", "iotrial/1");
	add_str(exp, "type", "experiment");
	add_str(exp, "workload", "smallfiles");
	add_str(metric, "name", "ops_per_s");
	json_object_object_add(metric, "higher_is_better",
			       json_object_new_boolean(1));
	json_object_object_add(exp, "metric", metric);
	fo = json_object_new_object();
	add_str(fo, "name", f1);
	add_str(fo, "kind", "param");
	json_object_object_add(fo, "values", str_array(v1, n1));
	json_object_array_add(factors, fo);
	if (n2) {
		fo = json_object_new_object();
		add_str(fo, "name", f2);
		add_str(fo, "kind", "knob");
		json_object_object_add(fo, "values", str_array(v2, n2));
		json_object_array_add(factors, fo);
	}
	json_object_object_add(exp, "factors", factors);
	for (a = 0; a < nr_arms; a++) {
		struct json_object *arm = json_object_new_object();
		struct json_object *set = json_object_new_object();
		char label[64];

		add_str(set, f1, v1[n2 ? a / n2 : a]);
		if (n2) {
			add_str(set, f2, v2[a % n2]);
			snprintf(label, sizeof(label), "%s=%s %s=%s", f1,
				 v1[a / n2], f2, v2[a % n2]);
		} else {
			snprintf(label, sizeof(label), "%s=%s", f1, v1[a]);
		}
		json_object_object_add(arm, "arm", json_object_new_int((int)a));
		add_str(arm, "label", label);
		json_object_object_add(arm, "settings", set);
		json_object_array_add(arms, arm);
		for (b = 0; b < RUNS; b++) {
			struct json_object *run = json_object_new_object();

			json_object_object_add(run, "arm",
					       json_object_new_int((int)a));
			json_object_object_add(run, "block",
					       json_object_new_int((int)b));
			json_object_object_add(
			    run, "metric",
			    json_object_new_double(level[a] * scatter[b]));
			json_object_array_add(runs, run);
		}
	}
	json_object_object_add(exp, "baseline", json_object_new_int(0));
	json_object_object_add(exp, "arms", arms);
	json_object_object_add(exp, "runs", runs);
	return exp;
}

static void analyze(struct json_object *exp)
{
	struct strbuf err = STRBUF_INIT;
	struct analysis_opts o;

	analysis_opts_init(&o);
	assert_int_equal(experiment_analyze_json(exp, &o, &err), 0);
	strbuf_release(&err);
}

static struct json_object *row_at(struct json_object *exp, size_t i)
{
	struct json_object *rows = json_object_object_get(exp, "scaling");

	assert_non_null(rows);
	return json_object_array_get_idx(rows, i);
}

static double num(struct json_object *o, const char *key)
{
	struct json_object *v = json_object_object_get(o, key);

	assert_non_null(v);
	return json_object_get_double(v);
}

static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v = json_object_object_get(o, key);

	assert_non_null(v);
	return json_object_get_string(v);
}

/* clients=16,1,4 given out of order: rows 1, 4, 16 against clients=1. */
static void test_one_factor(void **state)
{
	static const char *const v[] = {"16", "1", "4"};
	static const double level[] = {800, 100, 300};
	static const char *const order[] = {"1", "4", "16"};
	static const double ratio[] = {1.0, 3.0, 8.0};
	static const int arm[] = {1, 2, 0};
	struct json_object *exp =
	    experiment_of("clients", v, 3, NULL, NULL, 0, level);
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const char *p1, *p4, *p16;
	size_t i;

	(void)state;
	analyze(exp);
	assert_int_equal(
	    json_object_array_length(json_object_object_get(exp, "scaling")),
	    3);
	for (i = 0; i < 3; i++) {
		struct json_object *r = row_at(exp, i);

		assert_string_equal(str(r, "factor"), "clients");
		assert_string_equal(str(r, "value"), order[i]);
		assert_int_equal((int)num(r, "arm"), arm[i]);
		assert_int_equal((int)num(r, "n"), RUNS);
		assert_true(fabs(num(r, "median") - level[arm[i]]) <
			    1e-9 * level[arm[i]]);
		assert_true(num(r, "ci_low") <= num(r, "median"));
		assert_true(num(r, "median") <= num(r, "ci_high"));
		assert_true(fabs(num(r, "ratio_to_first") - ratio[i]) < 1e-9);
		assert_int_equal(json_object_object_length(
				     json_object_object_get(r, "within")),
				 0);
	}
	/* the verdicts stay: the other arms against the baseline arm
	 * (clients=16, the first given) */
	assert_int_equal(
	    json_object_array_length(json_object_object_get(exp, "verdicts")),
	    2);

	assert_true(scaling_text(exp, &out));
	assert_non_null(strstr(out.buf, "\nscaling of ops_per_s with clients:\n"
					"clients median  95% CI              n"
					"  vs clients=1\n"));
	p1 = strstr(out.buf, "\n1       100 ");
	p4 = strstr(out.buf, "\n4       300 ");
	p16 = strstr(out.buf, "\n16      800 ");
	assert_non_null(p1);
	assert_non_null(p4);
	assert_non_null(p16);
	assert_true(p1 < p4 && p4 < p16);
	assert_non_null(strstr(p4, "  5  3.00x\n"));
	assert_non_null(strstr(p16, "  5  8.00x\n"));

	/* the experiment's text has it after the verdict table */
	strbuf_reset(&out);
	assert_int_equal(report_experiment_text(exp, &out, &err), 0);
	p1 = strstr(out.buf, "baseline\n");
	p4 = strstr(out.buf, "scaling of ops_per_s with clients:");
	assert_non_null(p1);
	assert_non_null(p4);
	assert_true(p1 < p4);
	strbuf_release(&out);
	strbuf_release(&err);
	json_object_put(exp);
}

/* Two factors: a table of the numeric one per level of the other. */
static void test_two_factors(void **state)
{
	static const char *const v1[] = {"1", "2", "8"};
	static const char *const v2[] = {"relatime", "noatime"};
	/* arms: (1,rel) (1,no) (2,rel) (2,no) (8,rel) (8,no) */
	static const double level[] = {100, 120, 190, 240, 500, 720};
	struct json_object *exp =
	    experiment_of("clients", v1, 3, "atime", v2, 2, level);
	struct strbuf out = STRBUF_INIT;
	struct json_object *r;
	const char *rel, *no;

	(void)state;
	analyze(exp);
	assert_int_equal(
	    json_object_array_length(json_object_object_get(exp, "scaling")),
	    6);
	/* the group of atime=relatime first (arm 0), then noatime */
	r = row_at(exp, 0);
	assert_string_equal(str(json_object_object_get(r, "within"), "atime"),
			    "relatime");
	assert_int_equal((int)num(r, "arm"), 0);
	r = row_at(exp, 2);
	assert_string_equal(str(r, "value"), "8");
	assert_int_equal((int)num(r, "arm"), 4);
	assert_true(fabs(num(r, "ratio_to_first") - 5.0) < 1e-9);
	r = row_at(exp, 4);
	assert_string_equal(str(json_object_object_get(r, "within"), "atime"),
			    "noatime");
	assert_int_equal((int)num(r, "arm"), 3);
	assert_true(fabs(num(r, "ratio_to_first") - 2.0) < 1e-9);
	r = row_at(exp, 5);
	assert_true(fabs(num(r, "ratio_to_first") - 6.0) < 1e-9);

	assert_true(scaling_text(exp, &out));
	rel = strstr(out.buf,
		     "scaling of ops_per_s with clients (atime=relatime):\n");
	no = strstr(out.buf,
		    "scaling of ops_per_s with clients (atime=noatime):\n");
	assert_non_null(rel);
	assert_non_null(no);
	assert_true(rel < no);
	assert_null(strstr(out.buf, "with atime"));
	strbuf_release(&out);
	json_object_put(exp);
}

/* Sizes are numbers too (4k < 64k < 1M); words and labels are not. */
static void test_which_factors(void **state)
{
	static const char *const sizes[] = {"64k", "4k", "1M"};
	static const char *const sched[] = {"none", "mq-deadline"};
	static const char *const labels[] = {"1", "2"};
	static const double level[] = {200, 100, 400};
	struct json_object *exp;
	struct strbuf out = STRBUF_INIT;

	(void)state;
	exp = experiment_of("bs", sizes, 3, NULL, NULL, 0, level);
	analyze(exp);
	assert_string_equal(str(row_at(exp, 0), "value"), "4k");
	assert_string_equal(str(row_at(exp, 1), "value"), "64k");
	assert_string_equal(str(row_at(exp, 2), "value"), "1M");
	assert_true(fabs(num(row_at(exp, 2), "ratio_to_first") - 4.0) < 1e-9);
	json_object_put(exp);

	exp = experiment_of("scheduler", sched, 2, NULL, NULL, 0, level);
	analyze(exp);
	assert_null(json_object_object_get(exp, "scaling"));
	assert_false(scaling_text(exp, &out));
	json_object_put(exp);

	exp = experiment_of("label", labels, 2, NULL, NULL, 0, level);
	analyze(exp);
	assert_null(json_object_object_get(exp, "scaling"));
	json_object_put(exp);
	strbuf_release(&out);
}

static void test_number(void **state)
{
	double v = 0;

	(void)state;
	assert_int_equal(scaling_number("16", &v), 0);
	assert_true(v == 16);
	assert_int_equal(scaling_number("0.5", &v), 0);
	assert_true(v == 0.5);
	assert_int_equal(scaling_number("4k", &v), 0);
	assert_true(v == 4096);
	assert_int_equal(scaling_number("relatime", &v), -EINVAL);
	assert_int_equal(scaling_number("", &v), -EINVAL);
	assert_int_equal(scaling_number("4kk", &v), -EINVAL);
	assert_int_equal(scaling_number(NULL, &v), -EINVAL);
}

/*
 * A document by hand: factor clients over values (nr), one arm each in
 * that order, arm a's median medians[a] (NaN: null) with an interval
 * 5% either side and 5 runs.
 */
static void typed_doc(struct experiment_doc *doc, const char *const *values,
		      size_t nr, const double *medians)
{
	size_t a;

	experiment_doc_init(doc);
	doc->factors = xcalloc(1, sizeof(*doc->factors));
	doc->nr_factors = 1;
	doc->has_factors = MODEL_SET;
	doc->factors[0].name = xstrdup("clients");
	doc->factors[0].kind = xstrdup("param");
	doc->factors[0].values = xcalloc(nr, sizeof(char *));
	doc->factors[0].nr_values = nr;
	doc->arms = xcalloc(nr, sizeof(*doc->arms));
	doc->nr_arms = nr;
	for (a = 0; a < nr; a++) {
		struct exp_arm *arm = &doc->arms[a];

		doc->factors[0].values[a] = xstrdup(values[a]);
		arm->arm = (int64_t)a;
		arm->summary = xcalloc(1, sizeof(*arm->summary));
		arm->summary->n = 5;
		arm->summary->median = medians[a];
		arm->summary->ci_low = medians[a] * 0.95;
		arm->summary->ci_high = medians[a] * 1.05;
	}
}

/*
 * The typed stage on a document built by hand: rows in the values'
 * numeric order with their arms' numbers, an arm without a median has
 * none and no ratio; rows an earlier analysis left are replaced; a
 * factor that is not numeric leaves no scaling at all.
 */
static void test_typed(void **state)
{
	static const char *const clients[] = {"4", "1", "16"};
	static const char *const words[] = {"few", "many"};
	const double medians[] = {400, 100, NAN};
	struct experiment_doc doc;
	const struct exp_scaling_row *r;

	(void)state;
	typed_doc(&doc, clients, 3, medians);
	doc.scaling = xcalloc(1, sizeof(*doc.scaling));
	doc.nr_scaling = 1;
	doc.scaling[0].factor = xstrdup("stale");
	scaling_analyze(&doc);
	assert_int_equal(doc.has_scaling, MODEL_SET);
	assert_int_equal(doc.nr_scaling, 3);
	r = doc.scaling;
	assert_string_equal(r[0].value, "1");
	assert_int_equal(r[0].arm, 1);
	assert_string_equal(r[1].value, "4");
	assert_int_equal(r[1].arm, 0);
	assert_string_equal(r[2].value, "16");
	assert_int_equal(r[2].arm, 2);
	assert_string_equal(r[1].factor, "clients");
	assert_int_equal(r[1].nr_within, 0);
	assert_int_equal(r[1].baseline_arm, 1);
	assert_int_equal(r[1].has_median, MODEL_SET);
	assert_true(r[1].median == 400);
	assert_int_equal(r[1].has_ci_low, MODEL_SET);
	assert_true(r[1].ci_high == 420);
	assert_int_equal(r[1].has_n, MODEL_SET);
	assert_int_equal(r[1].n, 5);
	assert_true(r[0].ratio_to_first == 1);
	assert_true(r[1].ratio_to_first == 4);
	assert_int_equal(r[2].has_median, MODEL_ABSENT);
	assert_int_equal(r[2].has_ci_low, MODEL_ABSENT);
	assert_true(isnan(r[2].ratio_to_first));
	experiment_doc_release(&doc);

	typed_doc(&doc, words, 2, medians);
	doc.scaling = xcalloc(1, sizeof(*doc.scaling));
	doc.nr_scaling = 1;
	doc.has_scaling = MODEL_SET;
	scaling_analyze(&doc);
	assert_int_equal(doc.has_scaling, MODEL_ABSENT);
	assert_int_equal(doc.nr_scaling, 0);
	experiment_doc_release(&doc);
}

/* The bridge: the tree's "scaling" goes, and comes back last when the
 * document has rows, as the tree's stage did. */
static void test_bridge_last(void **state)
{
	static const char *const clients[] = {"1", "2"};
	static const char *const order[] = {"scaling_before", "b", "scaling"};
	const double medians[] = {100, 150};
	struct json_object *exp = json_object_new_object();
	struct experiment_doc doc;
	size_t i = 0;

	(void)state;
	json_object_object_add(exp, "scaling_before", json_object_new_int(0));
	json_object_object_add(exp, "scaling", json_object_new_string("old"));
	json_object_object_add(exp, "b", json_object_new_int(2));
	typed_doc(&doc, clients, 2, medians);
	scaling_analyze(&doc);
	exp_scaling_into_tree(exp, &doc);
	json_object_object_foreach(exp, key, val)
	{
		(void)val;
		assert_true(i < 3);
		assert_string_equal(key, order[i++]);
	}
	assert_int_equal(
	    json_object_array_length(json_object_object_get(exp, "scaling")),
	    2);
	experiment_doc_release(&doc);
	experiment_doc_init(&doc);
	scaling_analyze(&doc);
	exp_scaling_into_tree(exp, &doc);
	assert_null(json_object_object_get(exp, "scaling"));
	experiment_doc_release(&doc);
	json_object_put(exp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_one_factor),
	    cmocka_unit_test(test_two_factors),
	    cmocka_unit_test(test_which_factors),
	    cmocka_unit_test(test_number),
	    cmocka_unit_test(test_typed),
	    cmocka_unit_test(test_bridge_last),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
