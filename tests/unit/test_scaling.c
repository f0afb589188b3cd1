/*
 * Tests for core/experiment/scaling.c and core/report/scaling_text.c: an
 * experiment whose factor is numeric gets "scaling" rows from the
 * analysis (experiment_analyze_built()), in the numeric order of the values
 * (not the order given), with each arm's median, CI and n and the ratio to the
 * first value's median; with a second factor, one group per level of it; a
 * factor that is not numeric (or label) gets none; the text prints one table
 * per group after the verdict table (the page's scaling section).
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
#include "core/experiment/experiment.h"
#include "core/experiment/scaling.h"
#include "core/model/model_json.h"
#include "core/report/page.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define RUNS 5

/* The text compare prints of exp, onto out: true when it has a scaling
 * table. */
static bool scaling_text(const struct experiment_doc *exp, struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(
	    report_page(exp, &emit_text_ops, REPORT_PAGE_VERDICTS, out, &err),
	    0);
	strbuf_release(&err);
	return strstr(out->buf, "\nscaling of ") != NULL;
}

/* The values v (n of them) as a JSON array onto out. */
static void str_array(struct strbuf *out, const char *const *v, unsigned n)
{
	unsigned i;

	strbuf_addstr(out, "[");
	for (i = 0; i < n; i++)
		strbuf_addf(out, "%s\"%s\"", i ? ", " : "", v[i]);
	strbuf_addstr(out, "]");
}

/*
 * An experiment over factor f1 (values v1) and, when n2, factor f2
 * (values v2), the last varying fastest as compare makes them; arm a's
 * runs scatter 1% around level[a] (its median). Into exp (release it).
 */
static void experiment_of(struct experiment_doc *exp, const char *f1,
			  const char *const *v1, unsigned n1, const char *f2,
			  const char *const *v2, unsigned n2,
			  const double *level)
{
	struct strbuf t = STRBUF_INIT, err = STRBUF_INIT;
	unsigned a, b, nr_arms = n1 * (n2 ? n2 : 1);
	static const double scatter[RUNS] = {0.99, 1.0, 1.01, 0.995, 1.005};

	strbuf_addf(&t,
		    "{\"schema\": \"iotrial/1\", \"type\": \"experiment\", "
		    "\"workload\": \"smallfiles\", \"metric\": {\"name\": "
		    "\"ops_per_s\", \"higher_is_better\": true}, "
		    "\"factors\": [{\"name\": \"%s\", \"kind\": \"param\", "
		    "\"values\": ",
		    f1);
	str_array(&t, v1, n1);
	strbuf_addstr(&t, "}");
	if (n2) {
		strbuf_addf(&t,
			    ", {\"name\": \"%s\", \"kind\": \"knob\", "
			    "\"values\": ",
			    f2);
		str_array(&t, v2, n2);
		strbuf_addstr(&t, "}");
	}
	strbuf_addstr(&t, "], \"baseline\": 0, \"arms\": [");
	for (a = 0; a < nr_arms; a++) {
		strbuf_addf(&t, "%s{\"arm\": %u, \"label\": ", a ? ", " : "",
			    a);
		if (n2)
			strbuf_addf(&t, "\"%s=%s %s=%s\"", f1, v1[a / n2], f2,
				    v2[a % n2]);
		else
			strbuf_addf(&t, "\"%s=%s\"", f1, v1[a]);
		strbuf_addf(&t, ", \"settings\": {\"%s\": \"%s\"", f1,
			    v1[n2 ? a / n2 : a]);
		if (n2)
			strbuf_addf(&t, ", \"%s\": \"%s\"", f2, v2[a % n2]);
		strbuf_addstr(&t, "}}");
	}
	strbuf_addstr(&t, "], \"runs\": [");
	for (a = 0; a < nr_arms; a++)
		for (b = 0; b < RUNS; b++)
			strbuf_addf(&t,
				    "%s{\"arm\": %u, \"block\": %u, "
				    "\"metric\": %.17g}",
				    a || b ? ", " : "", a, b,
				    level[a] * scatter[b]);
	strbuf_addstr(&t, "]}");
	if (experiment_doc_decode(t.buf, t.len, exp, 0, &err))
		fail_msg("%s", err.buf);
	strbuf_release(&t);
	strbuf_release(&err);
}

/* The analysis compare makes of exp, as the engine places it. */
static void analyze(struct experiment_doc *exp)
{
	struct strbuf err = STRBUF_INIT;
	struct analysis_opts o;

	analysis_opts_init(&o);
	assert_int_equal(experiment_analyze_built(exp, &o, &err), 0);
	strbuf_release(&err);
}

static const struct exp_scaling_row *row_at(const struct experiment_doc *exp,
					    size_t i)
{
	assert_int_equal(exp->has_scaling, MODEL_SET);
	assert_true(i < exp->nr_scaling);
	return &exp->scaling[i];
}

/* The value of within's member key. */
static const char *within(const struct exp_scaling_row *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->nr_within; i++)
		if (!strcmp(r->within[i].name, key))
			return r->within[i].value;
	fail_msg("no '%s' within", key);
	return NULL;
}

/* clients=16,1,4 given out of order: rows 1, 4, 16 against clients=1. */
static void test_one_factor(void **state)
{
	static const char *const v[] = {"16", "1", "4"};
	static const double level[] = {800, 100, 300};
	static const char *const order[] = {"1", "4", "16"};
	static const double ratio[] = {1.0, 3.0, 8.0};
	static const int arm[] = {1, 2, 0};
	struct experiment_doc exp;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const char *p1, *p4, *p16;
	size_t i;

	(void)state;
	experiment_of(&exp, "clients", v, 3, NULL, NULL, 0, level);
	analyze(&exp);
	assert_int_equal(exp.nr_scaling, 3);
	for (i = 0; i < 3; i++) {
		const struct exp_scaling_row *r = row_at(&exp, i);

		assert_string_equal(r->factor, "clients");
		assert_string_equal(r->value, order[i]);
		assert_int_equal(r->arm, arm[i]);
		assert_int_equal(r->has_n, MODEL_SET);
		assert_int_equal(r->n, RUNS);
		assert_int_equal(r->has_median, MODEL_SET);
		assert_true(fabs(r->median - level[arm[i]]) <
			    1e-9 * level[arm[i]]);
		assert_int_equal(r->has_ci_low, MODEL_SET);
		assert_int_equal(r->has_ci_high, MODEL_SET);
		assert_true(r->ci_low <= r->median);
		assert_true(r->median <= r->ci_high);
		assert_true(fabs(r->ratio_to_first - ratio[i]) < 1e-9);
		assert_int_equal(r->nr_within, 0);
	}
	/* the verdicts stay: the other arms against the baseline arm
	 * (clients=16, the first given) */
	assert_int_equal(exp.nr_verdicts, 2);

	assert_true(scaling_text(&exp, &out));
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
	assert_int_equal(
	    report_page(&exp, &emit_text_ops, REPORT_PAGE_VERDICTS, &out, &err),
	    0);
	p1 = strstr(out.buf, "baseline\n");
	p4 = strstr(out.buf, "scaling of ops_per_s with clients:");
	assert_non_null(p1);
	assert_non_null(p4);
	assert_true(p1 < p4);
	strbuf_release(&out);
	strbuf_release(&err);
	experiment_doc_release(&exp);
}

/* Two factors: a table of the numeric one per level of the other. */
static void test_two_factors(void **state)
{
	static const char *const v1[] = {"1", "2", "8"};
	static const char *const v2[] = {"relatime", "noatime"};
	/* arms: (1,rel) (1,no) (2,rel) (2,no) (8,rel) (8,no) */
	static const double level[] = {100, 120, 190, 240, 500, 720};
	struct experiment_doc exp;
	struct strbuf out = STRBUF_INIT;
	const struct exp_scaling_row *r;
	const char *rel, *no;

	(void)state;
	experiment_of(&exp, "clients", v1, 3, "atime", v2, 2, level);
	analyze(&exp);
	assert_int_equal(exp.nr_scaling, 6);
	/* the group of atime=relatime first (arm 0), then noatime */
	r = row_at(&exp, 0);
	assert_string_equal(within(r, "atime"), "relatime");
	assert_int_equal(r->arm, 0);
	r = row_at(&exp, 2);
	assert_string_equal(r->value, "8");
	assert_int_equal(r->arm, 4);
	assert_true(fabs(r->ratio_to_first - 5.0) < 1e-9);
	r = row_at(&exp, 4);
	assert_string_equal(within(r, "atime"), "noatime");
	assert_int_equal(r->arm, 3);
	assert_true(fabs(r->ratio_to_first - 2.0) < 1e-9);
	r = row_at(&exp, 5);
	assert_true(fabs(r->ratio_to_first - 6.0) < 1e-9);

	assert_true(scaling_text(&exp, &out));
	rel = strstr(out.buf,
		     "scaling of ops_per_s with clients (atime=relatime):\n");
	no = strstr(out.buf,
		    "scaling of ops_per_s with clients (atime=noatime):\n");
	assert_non_null(rel);
	assert_non_null(no);
	assert_true(rel < no);
	assert_null(strstr(out.buf, "with atime"));
	strbuf_release(&out);
	experiment_doc_release(&exp);
}

/* Sizes are numbers too (4k < 64k < 1M); words and labels are not. */
static void test_which_factors(void **state)
{
	static const char *const sizes[] = {"64k", "4k", "1M"};
	static const char *const sched[] = {"none", "mq-deadline"};
	static const char *const labels[] = {"1", "2"};
	static const double level[] = {200, 100, 400};
	struct experiment_doc exp;
	struct strbuf out = STRBUF_INIT;

	(void)state;
	experiment_of(&exp, "bs", sizes, 3, NULL, NULL, 0, level);
	analyze(&exp);
	assert_string_equal(row_at(&exp, 0)->value, "4k");
	assert_string_equal(row_at(&exp, 1)->value, "64k");
	assert_string_equal(row_at(&exp, 2)->value, "1M");
	assert_true(fabs(row_at(&exp, 2)->ratio_to_first - 4.0) < 1e-9);
	experiment_doc_release(&exp);

	experiment_of(&exp, "scheduler", sched, 2, NULL, NULL, 0, level);
	analyze(&exp);
	assert_int_equal(exp.has_scaling, MODEL_ABSENT);
	assert_int_equal(exp.nr_scaling, 0);
	assert_false(scaling_text(&exp, &out));
	experiment_doc_release(&exp);

	experiment_of(&exp, "label", labels, 2, NULL, NULL, 0, level);
	analyze(&exp);
	assert_int_equal(exp.has_scaling, MODEL_ABSENT);
	assert_int_equal(exp.nr_scaling, 0);
	experiment_doc_release(&exp);
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

/* The key of the last top-level member of the plain text of a document
 * (after its last "\n" free '"...":' at depth 1), onto out. */
static void last_member(const char *text, struct strbuf *out)
{
	const char *p, *last = NULL, *end;
	int depth = 0;
	bool in_str = false;

	for (p = text; *p; p++) {
		if (in_str) {
			if (*p == '\\')
				p++;
			else if (*p == '"')
				in_str = false;
			continue;
		}
		if (*p == '"') {
			if (depth == 1 && (p[-1] == '{' || p[-1] == ','))
				last = p;
			in_str = true;
		} else if (*p == '{' || *p == '[') {
			depth++;
		} else if (*p == '}' || *p == ']') {
			depth--;
		}
	}
	assert_non_null(last);
	end = strchr(last + 1, '"');
	strbuf_reset(out);
	strbuf_add(out, last + 1, (size_t)(end - last - 1));
}

/* The rows go last, as the engine has always placed them, also when
 * the document had them before; without rows, no "scaling". */
static void test_last(void **state)
{
	static const char *const v[] = {"1", "2"};
	static const char *const sched[] = {"none", "mq-deadline"};
	static const double level[] = {100, 150};
	struct strbuf text = STRBUF_INIT, key = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	struct experiment_doc exp, again;

	(void)state;
	experiment_of(&exp, "clients", v, 2, NULL, NULL, 0, level);
	analyze(&exp);
	experiment_doc_encode(&exp, MODEL_ENCODE_PLAIN, &text);
	last_member(text.buf, &key);
	assert_string_equal(key.buf, "scaling");
	/* a member after it, from a newer iotrial: analysed again, the
	 * rows go after it */
	strbuf_setlen(&text, (size_t)(strrchr(text.buf, '}') - text.buf));
	strbuf_addstr(&text, ",\"later\":2}");
	if (experiment_doc_decode(text.buf, text.len, &again, 0, &err))
		fail_msg("%s", err.buf);
	last_member(text.buf, &key);
	assert_string_equal(key.buf, "later");
	analyze(&again);
	strbuf_reset(&text);
	experiment_doc_encode(&again, MODEL_ENCODE_PLAIN, &text);
	last_member(text.buf, &key);
	assert_string_equal(key.buf, "scaling");
	assert_int_equal(again.nr_scaling, 2);
	experiment_doc_release(&again);
	experiment_doc_release(&exp);

	experiment_of(&exp, "scheduler", sched, 2, NULL, NULL, 0, level);
	analyze(&exp);
	strbuf_reset(&text);
	experiment_doc_encode(&exp, MODEL_ENCODE_PLAIN, &text);
	assert_null(strstr(text.buf, "\"scaling\""));
	experiment_doc_release(&exp);
	strbuf_release(&text);
	strbuf_release(&key);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_one_factor),
	    cmocka_unit_test(test_two_factors),
	    cmocka_unit_test(test_which_factors),
	    cmocka_unit_test(test_number),
	    cmocka_unit_test(test_typed),
	    cmocka_unit_test(test_last),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
