/*
 * Tests for core/experiment/factorial.c and core/report/effects_text.c:
 * an experiment object with two factors gets "effects" and
 * "interactions" from experiment_analyze_json(), they are the numbers
 * effects_run() gives for its runs (the reference cases of
 * effects_vectors.h), and the text groups them by factor and says
 * whether one factor's effect depends on the other. One factor gets
 * neither member, and its table is as before. factorial_analyze() on a
 * hand-built experiment document fills its effects and interactions
 * (names for levels, the arms they rest on) and replaces them when run
 * again.
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
#include "core/experiment/factorial.h"
#include "core/report/report.h"
#include "effects_vectors.h"
#include "util/banned.h"

static void add_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}

/*
 * The experiment object of reference case c as compare would store it:
 * factors, arms with settings and labels, runs with blocks. settings
 * false leaves the settings out (the levels then come from the arms'
 * order).
 */
static struct json_object *experiment_of(const struct ev_case *c, bool settings)
{
	struct json_object *exp = json_object_new_object();
	struct json_object *factors = json_object_new_array();
	struct json_object *arms = json_object_new_array();
	struct json_object *runs = json_object_new_array();
	struct json_object *metric = json_object_new_object();
	unsigned f, a, first = 0;
	size_t i;

	add_str(exp, "schema", "iotrial/1");
	add_str(exp, "type", "experiment");
	add_str(exp, "id", "");
	add_str(exp, "workload", "randread");
	add_str(exp, "target", "/tmp");
	add_str(exp, "seed", "1");
	add_str(metric, "name", "iops");
	json_object_object_add(metric, "higher_is_better",
			       json_object_new_boolean(c->higher_is_better));
	json_object_object_add(exp, "metric", metric);
	for (f = 0; f < c->nr_factors; f++) {
		struct json_object *fo = json_object_new_object();
		struct json_object *vals = json_object_new_array();

		add_str(fo, "name", c->factor_names[f]);
		add_str(fo, "kind", "param");
		for (i = 0; i < c->nr_levels[f]; i++)
			json_object_array_add(
			    vals, json_object_new_string(c->levels[first + i]));
		first += c->nr_levels[f];
		json_object_object_add(fo, "values", vals);
		json_object_array_add(factors, fo);
	}
	json_object_object_add(exp, "factors", factors);
	for (a = 0; a < c->nr_arms; a++) {
		struct json_object *arm = json_object_new_object();
		struct json_object *set = json_object_new_object();
		char label[128] = "";
		size_t len = 0;

		for (f = 0, first = 0; f < c->nr_factors; f++) {
			const char *v = c->levels[first + c->arms[a].levels[f]];

			add_str(set, c->factor_names[f], v);
			len += (size_t)snprintf(
			    label + len, sizeof(label) - len, "%s%s=%s",
			    f ? " " : "", c->factor_names[f], v);
			first += c->nr_levels[f];
		}
		json_object_object_add(arm, "arm", json_object_new_int((int)a));
		add_str(arm, "label", label);
		if (settings)
			json_object_object_add(arm, "settings", set);
		else
			json_object_put(set);
		json_object_array_add(arms, arm);
		for (i = 0; i < c->arms[a].n; i++) {
			struct json_object *r = json_object_new_object();

			json_object_object_add(r, "arm",
					       json_object_new_int((int)a));
			json_object_object_add(
			    r, "block",
			    json_object_new_int((int)c->arms[a].blocks[i]));
			json_object_object_add(
			    r, "metric",
			    json_object_new_double(c->arms[a].values[i]));
			json_object_array_add(runs, r);
		}
	}
	json_object_object_add(exp, "arms", arms);
	json_object_object_add(exp, "runs", runs);
	json_object_object_add(exp, "blocks", json_object_new_int(8));
	add_str(exp, "stopped", "fixed run count");
	json_object_object_add(exp, "equivalence",
			       json_object_new_double(0.02));
	return exp;
}

static void analyze(struct json_object *exp, unsigned baseline)
{
	struct strbuf err = STRBUF_INIT;
	struct analysis_opts o;

	analysis_opts_init(&o);
	o.baseline = baseline;
	if (experiment_analyze_json(exp, &o, &err))
		fail_msg("%s", err.buf);
	strbuf_release(&err);
}

static double num(struct json_object *o, const char *key)
{
	struct json_object *v;

	assert_true(json_object_object_get_ex(o, key, &v));
	return json_object_get_double(v);
}

/* The members hold the reference case's numbers, in its order. */
static void check_members(struct json_object *exp, const struct ev_case *c)
{
	struct json_object *effects, *xs;
	size_t i;

	assert_true(json_object_object_get_ex(exp, "effects", &effects));
	assert_true(json_object_object_get_ex(exp, "interactions", &xs));
	assert_int_equal(json_object_array_length(effects), c->nr_effects);
	assert_int_equal(json_object_array_length(xs), c->nr_interactions);
	for (i = 0; i < c->nr_effects; i++) {
		struct json_object *e = json_object_array_get_idx(effects, i);

		assert_int_equal((int)num(e, "arm"), (int)c->effects[i].arm);
		assert_true(fabs(num(e, "ratio") - c->effects[i].ratio) <
			    1e-12 * c->effects[i].ratio);
		assert_true(fabs(num(e, "p_adjusted") -
				 c->effects[i].p_adjusted) < 1e-12);
		assert_string_equal(json_object_get_string(
					json_object_object_get(e, "verdict")),
				    c->effects[i].verdict);
	}
	for (i = 0; i < c->nr_interactions; i++) {
		struct json_object *x = json_object_array_get_idx(xs, i);

		assert_true(fabs(num(x, "ratio") - c->interactions[i].ratio) <
			    1e-12);
		assert_string_equal(json_object_get_string(
					json_object_object_get(x, "verdict")),
				    c->interactions[i].verdict);
	}
}

/* Two factors: effects and interactions, from settings or from order. */
static void test_members(void **state)
{
	size_t k;

	(void)state;
	for (k = 0; k < 3; k++) {
		const struct ev_case *c = &ev_cases[k];
		struct json_object *exp = experiment_of(c, true);

		analyze(exp, c->baseline_arm);
		check_members(exp, c);
		/* analysing again replaces, never appends */
		analyze(exp, c->baseline_arm);
		check_members(exp, c);
		json_object_put(exp);
		exp = experiment_of(c, false);
		analyze(exp, c->baseline_arm);
		check_members(exp, c);
		json_object_put(exp);
	}
}

static void render(struct json_object *exp, struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(report_experiment_text(exp, out, &err), 0);
	strbuf_release(&err);
}

static void has(const struct strbuf *out, const char *s)
{
	if (!strstr(out->buf, s))
		fail_msg("'%s' not in:\n%s", s, out->buf);
}

/* The text: effects grouped by factor, then a sentence on each pair. */
static void test_text(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct json_object *exp = experiment_of(&ev_cases[0], true);

	(void)state;
	analyze(exp, 0);
	render(exp, &out);
	has(&out, "\neffect ");
	has(&out, "\nsched=mq-deadline vs sched=none\n  at jobs=1 ");
	has(&out, "\n  at jobs=2 ");
	has(&out, "\njobs=2 vs jobs=1\n  at sched=none ");
	has(&out, "\n  at sched=mq-deadline ");
	has(&out, "\nsched's effect depends on jobs: 1.10x at jobs=1, 0.90x "
		  "at jobs=2 (interaction p 0.008)\n");
	/* the table of every arm against the baseline arm stays, after */
	has(&out, "\nevery arm against the baseline arm:\narm ");
	has(&out, "\nsched=mq-deadline jobs=2 ");
	assert_true(strstr(out.buf, "depends on") <
		    strstr(out.buf, "every arm against"));
	json_object_put(exp);

	strbuf_reset(&out);
	exp = experiment_of(&ev_cases[1], true);
	analyze(exp, 0);
	render(exp, &out);
	has(&out, "\nsched's effect does not depend on jobs (the same within "
		  "2%): 1.10x at jobs=1, 1.10x at jobs=2 (interaction p "
		  "0.922)\n");
	json_object_put(exp);

	/* three levels: the level is named; the pair with an interaction
	 * shows that one only */
	strbuf_reset(&out);
	exp = experiment_of(&ev_cases[2], true);
	analyze(exp, 2);
	render(exp, &out);
	has(&out, "\nrr=a vs rr=b\n");
	has(&out, "\nrr=c vs rr=b\n");
	has(&out, "\nrr=c's effect depends on bs: 1.00x at bs=4k, 1.20x at "
		  "bs=16k");
	assert_null(strstr(out.buf, "rr=a's effect"));
	json_object_put(exp);
	strbuf_release(&out);
}

/*
 * Three factors of two levels, 8 blocks: A helps by 10% at B=b0 and
 * hurts by 12% at B=b1, whatever C; the rest is additive. Each effect
 * is within the two other factors' levels, each interaction within the
 * third; only A with B interacts, at both levels of C.
 */
static void test_three_factors(void **state)
{
	static const char *const names[] = {"A", "B", "C"};
	static const char *const levels[] = {"a0", "a1", "b0",
					     "b1", "c0", "c1"};
	static const unsigned nr_levels[] = {2, 2, 2};
	static double values[8][8];
	static unsigned blocks[8][8];
	struct ev_arm arms[8];
	struct ev_case c = {
	    .name = "three",
	    .factor_names = names,
	    .levels = levels,
	    .nr_levels = nr_levels,
	    .nr_factors = 3,
	    .arms = arms,
	    .nr_arms = 8,
	    .higher_is_better = 1,
	};
	struct strbuf out = STRBUF_INIT;
	struct json_object *exp, *effects, *xs, *w;
	unsigned a, b;
	size_t i;

	(void)state;
	for (a = 0; a < 8; a++) {
		unsigned la = a >> 2 & 1, lb = a >> 1 & 1, lc = a & 1;
		double m = 1000 * (la ? 1.1 : 1) * (lb ? 1.5 : 1) *
			   (lc ? 0.8 : 1) * (la && lb ? 0.8 : 1);

		arms[a] =
		    (struct ev_arm){{la, lb, lc, 0}, values[a], blocks[a], 8};
		for (b = 0; b < 8; b++) {
			blocks[a][b] = (b + a) % 8;
			values[a][b] = m * (1 + 0.01 * (blocks[a][b] % 3)) *
				       (1 + 0.0004 * ((a * 7 + b * 13) % 11));
		}
	}
	exp = experiment_of(&c, true);
	analyze(exp, 0);
	assert_true(json_object_object_get_ex(exp, "effects", &effects));
	assert_true(json_object_object_get_ex(exp, "interactions", &xs));
	assert_int_equal(json_object_array_length(effects), 12);
	assert_int_equal(json_object_array_length(xs), 6);
	for (i = 0; i < 12; i++) {
		w = json_object_object_get(
		    json_object_array_get_idx(effects, i), "within");
		assert_int_equal(json_object_object_length(w), 2);
	}
	for (i = 0; i < 6; i++) {
		struct json_object *x = json_object_array_get_idx(xs, i);
		const char *f =
		    json_object_get_string(json_object_object_get(x, "factor"));
		const char *by =
		    json_object_get_string(json_object_object_get(x, "by"));
		const char *v = json_object_get_string(
		    json_object_object_get(x, "verdict"));

		w = json_object_object_get(x, "within");
		assert_int_equal(json_object_object_length(w), 1);
		if (!strcmp(f, "A") && !strcmp(by, "B"))
			assert_string_equal(v, "interaction");
		else
			assert_string_not_equal(v, "interaction");
	}
	render(exp, &out);
	has(&out, "\nA=a1 vs A=a0\n  at B=b0 C=c0 ");
	has(&out, "\nwith C=c0, A's effect depends on B: 1.10x at B=b0, "
		  "0.88x at B=b1");
	has(&out, "\nwith C=c1, A's effect depends on B: ");
	if (!strstr(out.buf, "\nA's effect does not depend on C (the same "
			     "within 2% in all 2 tests") &&
	    !strstr(out.buf, "\nno evidence that A's effect depends on C (2 "
			     "tests"))
		fail_msg("no line for A and C in:\n%s", out.buf);
	json_object_put(exp);
	strbuf_release(&out);
}

/* One factor: neither member, and the table as it always was. */
static void test_one_factor(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct json_object *exp = experiment_of(&ev_cases[0], true);
	struct json_object *factors, *effects;

	(void)state;
	factors = json_object_object_get(exp, "factors");
	json_object_array_del_idx(factors, 1, 1);
	analyze(exp, 0);
	assert_false(json_object_object_get_ex(exp, "effects", &effects));
	assert_false(json_object_object_get_ex(exp, "interactions", &effects));
	render(exp, &out);
	assert_null(strstr(out.buf, "every arm against"));
	assert_null(strstr(out.buf, "vs"));
	json_object_put(exp);
	strbuf_release(&out);
}

/* A copy of s the document owns. */
static char *dup(const char *s)
{
	char *d = strdup(s);

	assert_non_null(d);
	return d;
}

/*
 * Reference case c as an experiment document (its factors, and arms
 * with labels and settings), with the arms analysis_run() takes in
 * arms[] and c's options in o. Release doc after.
 */
static void doc_of(const struct ev_case *c, struct experiment_doc *doc,
		   struct analysis_arm *arms, struct analysis_opts *o)
{
	unsigned f, a, first = 0;
	size_t i;

	experiment_doc_init(doc);
	doc->factors = calloc(c->nr_factors, sizeof(*doc->factors));
	doc->arms = calloc(c->nr_arms, sizeof(*doc->arms));
	assert_non_null(doc->factors);
	assert_non_null(doc->arms);
	doc->nr_factors = c->nr_factors;
	doc->has_factors = MODEL_SET;
	doc->nr_arms = c->nr_arms;
	for (f = 0; f < c->nr_factors; f++) {
		struct exp_factor *xf = &doc->factors[f];

		xf->name = dup(c->factor_names[f]);
		xf->values = calloc(c->nr_levels[f], sizeof(*xf->values));
		assert_non_null(xf->values);
		for (i = 0; i < c->nr_levels[f]; i++)
			xf->values[i] = dup(c->levels[first + i]);
		xf->nr_values = c->nr_levels[f];
		first += c->nr_levels[f];
	}
	for (a = 0; a < c->nr_arms; a++) {
		struct exp_arm *arm = &doc->arms[a];

		arm->arm = a;
		arm->label = dup(c->name);
		arm->settings = calloc(c->nr_factors, sizeof(*arm->settings));
		assert_non_null(arm->settings);
		for (f = 0, first = 0; f < c->nr_factors; f++) {
			arm->settings[f].name = dup(c->factor_names[f]);
			arm->settings[f].value =
			    dup(c->levels[first + c->arms[a].levels[f]]);
			first += c->nr_levels[f];
		}
		arm->nr_settings = c->nr_factors;
		arm->has_settings = MODEL_SET;
		arms[a] = (struct analysis_arm){
		    .label = c->name,
		    .values = c->arms[a].values,
		    .blocks = c->paired ? c->arms[a].blocks : NULL,
		    .n = c->arms[a].n,
		};
	}
	analysis_opts_init(o);
	o->baseline = c->baseline_arm;
	o->higher_is_better = c->higher_is_better;
	o->paired = c->paired;
	o->alpha = c->alpha;
	o->margin = c->margin;
	o->conf = c->conf;
}

/* The typed stage; fails the test on an error. */
static void analyze_doc(struct experiment_doc *doc,
			const struct analysis_arm *arms, size_t nr_arms,
			const struct analysis_opts *o)
{
	struct strbuf err = STRBUF_INIT;

	if (factorial_analyze(doc, arms, nr_arms, o, &err))
		fail_msg("%s", err.buf);
	strbuf_release(&err);
}

/* doc's rows hold reference case c's numbers, in its order. */
static void check_doc(const struct experiment_doc *doc, const struct ev_case *c)
{
	size_t i;

	assert_int_equal(doc->has_effects, MODEL_SET);
	assert_int_equal(doc->has_interactions, MODEL_SET);
	assert_int_equal(doc->nr_effects, c->nr_effects);
	assert_int_equal(doc->nr_interactions, c->nr_interactions);
	for (i = 0; i < c->nr_effects; i++) {
		const struct exp_effect *e = &doc->effects[i];
		const struct ev_result *r = &c->effects[i];

		assert_int_equal(e->arm, r->arm);
		assert_int_equal(e->baseline_arm, r->base_arm);
		assert_string_equal(e->factor, c->factor_names[r->factor]);
		assert_int_equal(e->n, r->n);
		assert_string_equal(e->verdict, r->verdict);
		if (isnan(r->ratio)) {
			assert_null(e->cmp);
			continue;
		}
		assert_non_null(e->cmp);
		assert_true(fabs(e->cmp->ratio - r->ratio) < 1e-12 * r->ratio);
		assert_true(fabs(e->cmp->p_adjusted - r->p_adjusted) < 1e-9);
		assert_string_equal(e->cmp->test, c->paired
						      ? "wilcoxon-signed-rank"
						      : "mann-whitney-u");
	}
	for (i = 0; i < c->nr_interactions; i++) {
		const struct exp_interaction *x = &doc->interactions[i];
		const struct ev_result *r = &c->interactions[i];

		assert_string_equal(x->factor, c->factor_names[r->factor]);
		assert_string_equal(x->by, c->factor_names[r->by]);
		assert_string_equal(x->verdict, r->verdict);
		assert_int_equal(x->n, r->n);
		assert_int_equal(x->nr_arms, 4);
		assert_int_equal(x->arms[0], doc->effects[r->at_baseline].arm);
		assert_int_equal(x->arms[1],
				 doc->effects[r->at_baseline].baseline_arm);
		assert_int_equal(x->arms[2], doc->effects[r->at_level].arm);
		assert_int_equal(x->arms[3],
				 doc->effects[r->at_level].baseline_arm);
		if (!isnan(r->ratio))
			assert_true(fabs(x->cmp->ratio - r->ratio) < 1e-9);
	}
}

/*
 * The typed stage on a hand-built document: each reference case's
 * effects and interactions, with names for levels; run again, it
 * replaces them.
 */
static void test_doc(void **state)
{
	struct analysis_arm arms[8];
	struct experiment_doc doc;
	struct analysis_opts o;
	const struct exp_effect *e;
	const struct exp_interaction *x;
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(ev_cases) / sizeof(*ev_cases); k++) {
		const struct ev_case *c = &ev_cases[k];

		assert_true(c->nr_arms <= 8);
		doc_of(c, &doc, arms, &o);
		analyze_doc(&doc, arms, c->nr_arms, &o);
		check_doc(&doc, c);
		analyze_doc(&doc, arms, c->nr_arms, &o);
		check_doc(&doc, c);
		experiment_doc_release(&doc);
	}

	doc_of(&ev_cases[0], &doc, arms, &o);
	analyze_doc(&doc, arms, ev_cases[0].nr_arms, &o);
	e = &doc.effects[1];
	assert_string_equal(e->level, "mq-deadline");
	assert_string_equal(e->baseline_level, "none");
	assert_int_equal(e->nr_within, 1);
	assert_string_equal(e->within[0].name, "jobs");
	assert_string_equal(e->within[0].value, "2");
	assert_int_equal(e->arm, 3);
	assert_int_equal(e->baseline_arm, 1);
	assert_string_equal(e->verdict, "slower");
	assert_true(isfinite(e->cmp->ci_low) && e->cmp->ci_low < e->cmp->ratio);
	assert_true(e->cmp->p <= e->cmp->p_adjusted);
	assert_int_equal(e->has_suspect, MODEL_ABSENT);
	x = &doc.interactions[0];
	assert_string_equal(x->level, "mq-deadline");
	assert_string_equal(x->baseline_level, "none");
	assert_string_equal(x->by_level, "2");
	assert_string_equal(x->by_baseline_level, "1");
	assert_int_equal(x->nr_within, 0);
	assert_true(x->ratio_at_baseline == doc.effects[0].cmp->ratio);
	assert_true(x->ratio_at_level == doc.effects[1].cmp->ratio);
	assert_string_equal(x->verdict, "interaction");
	experiment_doc_release(&doc);
}

/*
 * An arm with one run: its effect has no comparison and no verdict,
 * and the interaction that rests on it has F's effect at that level as
 * null and is not tested.
 */
static void test_doc_too_few(void **state)
{
	struct analysis_arm arms[4];
	struct experiment_doc doc;
	struct analysis_opts o;

	(void)state;
	doc_of(&ev_cases[0], &doc, arms, &o);
	arms[3].n = 1;
	analyze_doc(&doc, arms, 4, &o);
	assert_int_equal(doc.nr_effects, 4);
	assert_null(doc.effects[1].cmp);
	assert_string_equal(doc.effects[1].verdict, "no verdict");
	assert_non_null(doc.effects[0].cmp);
	assert_int_equal(doc.nr_interactions, 1);
	assert_null(doc.interactions[0].cmp);
	assert_true(isnan(doc.interactions[0].ratio_at_level));
	assert_true(isfinite(doc.interactions[0].ratio_at_baseline));
	assert_string_equal(doc.interactions[0].verdict, "no verdict");
	experiment_doc_release(&doc);
}

/*
 * No factorial: one factor, or arms that are not every combination,
 * leave the document without either member, also when it had them.
 */
static void test_doc_none(void **state)
{
	struct analysis_arm arms[4];
	struct experiment_doc doc;
	struct analysis_opts o;

	(void)state;
	doc_of(&ev_cases[0], &doc, arms, &o);
	analyze_doc(&doc, arms, 4, &o);
	assert_int_equal(doc.has_effects, MODEL_SET);
	doc.nr_factors = 1;
	analyze_doc(&doc, arms, 4, &o);
	doc.nr_factors = 2;
	assert_int_equal(doc.has_effects, MODEL_ABSENT);
	assert_int_equal(doc.has_interactions, MODEL_ABSENT);
	assert_int_equal(doc.nr_effects, 0);
	assert_null(doc.effects);
	analyze_doc(&doc, arms, 3, &o);
	assert_int_equal(doc.has_effects, MODEL_ABSENT);
	o.baseline = 4;
	analyze_doc(&doc, arms, 4, &o);
	assert_int_equal(doc.has_effects, MODEL_ABSENT);
	experiment_doc_release(&doc);
}

/* The index of member key in exp, or -1. */
static int member_at(struct json_object *exp, const char *key)
{
	int i = 0;

	json_object_object_foreach(exp, k, v)
	{
		(void)v;
		if (!strcmp(k, key))
			return i;
		i++;
	}
	return -1;
}

/*
 * Through the tree: analysing again puts "effects" and "interactions"
 * after the members added since, as it always has. A tree whose factor
 * values are not strings (no writer of iotrial's makes one) does not
 * decode: the analysis refuses it whole, naming the member, and the
 * tree keeps what it had.
 */
static void test_tree(void **state)
{
	struct json_object *exp = experiment_of(&ev_cases[0], true);
	struct json_object *vals, *v;
	struct strbuf err = STRBUF_INIT;
	struct analysis_opts o;

	(void)state;
	analyze(exp, 0);
	json_object_object_add(exp, "later", json_object_new_int(1));
	assert_true(member_at(exp, "effects") < member_at(exp, "later"));
	analyze(exp, 0);
	assert_true(member_at(exp, "later") < member_at(exp, "effects"));
	assert_int_equal(member_at(exp, "effects") + 1,
			 member_at(exp, "interactions"));
	check_members(exp, &ev_cases[0]);

	vals = json_object_object_get(
	    json_object_array_get_idx(json_object_object_get(exp, "factors"),
				      1),
	    "values");
	json_object_array_put_idx(vals, 0, json_object_new_int(1));
	analysis_opts_init(&o);
	assert_int_equal(experiment_analyze_json(exp, &o, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "factors[1].values[0]"));
	assert_true(json_object_object_get_ex(exp, "effects", &v));
	assert_true(json_object_object_get_ex(exp, "interactions", &v));
	strbuf_release(&err);
	json_object_put(exp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_members),
	    cmocka_unit_test(test_text),
	    cmocka_unit_test(test_three_factors),
	    cmocka_unit_test(test_one_factor),
	    cmocka_unit_test(test_doc),
	    cmocka_unit_test(test_doc_too_few),
	    cmocka_unit_test(test_doc_none),
	    cmocka_unit_test(test_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
