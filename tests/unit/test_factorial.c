/*
 * Tests for core/experiment/factorial.c and core/report/effects_text.c:
 * an experiment object with two factors gets "effects" and
 * "interactions" from the analysis (experiment_analyze_built()), they are the
 * numbers effects_run() gives for its runs (the reference cases of
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
#include "core/experiment/experiment.h"
#include "core/experiment/factorial.h"
#include "core/model/model_json.h"
#include "core/report/page.h"
#include "effects_vectors.h"
#include "util/banned.h"

/*
 * The experiment document of reference case c as compare would store it:
 * factors (the first nr_factors of c's), arms with settings and labels,
 * runs with blocks, into exp (release it). settings false leaves the
 * settings out (the levels then come from the arms' order).
 */
static void experiment_of(struct experiment_doc *exp, const struct ev_case *c,
			  bool settings, unsigned nr_factors)
{
	struct strbuf t = STRBUF_INIT, set = STRBUF_INIT, err = STRBUF_INIT;
	unsigned f, a, first = 0, seq = 0;
	size_t i;

	strbuf_addf(&t,
		    "{\"schema\": \"iotrial/1\", \"type\": \"experiment\", "
		    "\"id\": \"\", \"workload\": \"randread\", \"target\": "
		    "\"/tmp\", \"seed\": \"1\", \"metric\": {\"name\": "
		    "\"iops\", \"higher_is_better\": %s}, \"factors\": [",
		    c->higher_is_better ? "true" : "false");
	for (f = 0; f < c->nr_factors; f++) {
		if (f < nr_factors) {
			strbuf_addf(&t,
				    "%s{\"name\": \"%s\", \"kind\": "
				    "\"param\", \"values\": [",
				    f ? ", " : "", c->factor_names[f]);
			for (i = 0; i < c->nr_levels[f]; i++)
				strbuf_addf(&t, "%s\"%s\"", i ? ", " : "",
					    c->levels[first + i]);
			strbuf_addstr(&t, "]}");
		}
		first += c->nr_levels[f];
	}
	strbuf_addstr(&t, "], \"arms\": [");
	for (a = 0; a < c->nr_arms; a++) {
		char label[128] = "";
		size_t len = 0;

		strbuf_reset(&set);
		for (f = 0, first = 0; f < c->nr_factors; f++) {
			const char *v = c->levels[first + c->arms[a].levels[f]];

			strbuf_addf(&set, "%s\"%s\": \"%s\"", f ? ", " : "",
				    c->factor_names[f], v);
			len += (size_t)snprintf(
			    label + len, sizeof(label) - len, "%s%s=%s",
			    f ? " " : "", c->factor_names[f], v);
			first += c->nr_levels[f];
		}
		strbuf_addf(&t, "%s{\"arm\": %u, \"label\": \"%s\"",
			    a ? ", " : "", a, label);
		if (settings)
			strbuf_addf(&t, ", \"settings\": {%s}", set.buf);
		strbuf_addstr(&t, "}");
	}
	strbuf_addstr(&t, "], \"runs\": [");
	for (a = 0; a < c->nr_arms; a++)
		for (i = 0; i < c->arms[a].n; i++)
			strbuf_addf(&t,
				    "%s{\"arm\": %u, \"block\": %u, "
				    "\"metric\": %.17g}",
				    seq++ ? ", " : "", a, c->arms[a].blocks[i],
				    c->arms[a].values[i]);
	strbuf_addstr(&t, "], \"blocks\": 8, \"stopped\": \"fixed run "
			  "count\", \"equivalence\": 0.02}");
	if (experiment_doc_decode(t.buf, t.len, exp, 0, &err))
		fail_msg("%s", err.buf);
	strbuf_release(&t);
	strbuf_release(&set);
	strbuf_release(&err);
}

/* The analysis compare makes of exp, as the engine places it. */
static void analyze(struct experiment_doc *exp, unsigned baseline)
{
	struct strbuf err = STRBUF_INIT;
	struct analysis_opts o;

	analysis_opts_init(&o);
	o.baseline = baseline;
	if (experiment_analyze_built(exp, &o, &err))
		fail_msg("%s", err.buf);
	strbuf_release(&err);
}

/* The rows hold the reference case's numbers, in its order. */
static void check_members(const struct experiment_doc *exp,
			  const struct ev_case *c)
{
	size_t i;

	assert_int_equal(exp->has_effects, MODEL_SET);
	assert_int_equal(exp->has_interactions, MODEL_SET);
	assert_int_equal(exp->nr_effects, c->nr_effects);
	assert_int_equal(exp->nr_interactions, c->nr_interactions);
	for (i = 0; i < c->nr_effects; i++) {
		const struct exp_effect *e = &exp->effects[i];

		assert_int_equal(e->arm, (int)c->effects[i].arm);
		assert_non_null(e->cmp);
		assert_true(fabs(e->cmp->ratio - c->effects[i].ratio) <
			    1e-12 * c->effects[i].ratio);
		assert_true(fabs(e->cmp->p_adjusted -
				 c->effects[i].p_adjusted) < 1e-12);
		assert_string_equal(e->verdict, c->effects[i].verdict);
	}
	for (i = 0; i < c->nr_interactions; i++) {
		const struct exp_interaction *x = &exp->interactions[i];

		assert_non_null(x->cmp);
		assert_true(fabs(x->cmp->ratio - c->interactions[i].ratio) <
			    1e-12);
		assert_string_equal(x->verdict, c->interactions[i].verdict);
	}
}

/* Two factors: effects and interactions, from settings or from order. */
static void test_members(void **state)
{
	size_t k;

	(void)state;
	for (k = 0; k < 3; k++) {
		const struct ev_case *c = &ev_cases[k];
		struct experiment_doc exp;

		experiment_of(&exp, c, true, c->nr_factors);
		analyze(&exp, c->baseline_arm);
		check_members(&exp, c);
		/* analysing again replaces, never appends */
		analyze(&exp, c->baseline_arm);
		check_members(&exp, c);
		experiment_doc_release(&exp);
		experiment_of(&exp, c, false, c->nr_factors);
		analyze(&exp, c->baseline_arm);
		check_members(&exp, c);
		experiment_doc_release(&exp);
	}
}

/* The text compare prints of exp, onto out. */
static void render(const struct experiment_doc *exp, struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(
	    report_page(exp, &emit_text_ops, REPORT_PAGE_VERDICTS, out, &err),
	    0);
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
	struct experiment_doc exp;

	(void)state;
	experiment_of(&exp, &ev_cases[0], true, 2);
	analyze(&exp, 0);
	render(&exp, &out);
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
	experiment_doc_release(&exp);

	strbuf_reset(&out);
	experiment_of(&exp, &ev_cases[1], true, 2);
	analyze(&exp, 0);
	render(&exp, &out);
	has(&out, "\nsched's effect does not depend on jobs (the same within "
		  "2%): 1.10x at jobs=1, 1.10x at jobs=2 (interaction p "
		  "0.922)\n");
	experiment_doc_release(&exp);

	/* three levels: the level is named; the pair with an interaction
	 * shows that one only */
	strbuf_reset(&out);
	experiment_of(&exp, &ev_cases[2], true, 2);
	analyze(&exp, 2);
	render(&exp, &out);
	has(&out, "\nrr=a vs rr=b\n");
	has(&out, "\nrr=c vs rr=b\n");
	has(&out, "\nrr=c's effect depends on bs: 1.00x at bs=4k, 1.20x at "
		  "bs=16k");
	assert_null(strstr(out.buf, "rr=a's effect"));
	experiment_doc_release(&exp);
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
	struct experiment_doc exp;
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
	experiment_of(&exp, &c, true, 3);
	analyze(&exp, 0);
	assert_int_equal(exp.has_effects, MODEL_SET);
	assert_int_equal(exp.has_interactions, MODEL_SET);
	assert_int_equal(exp.nr_effects, 12);
	assert_int_equal(exp.nr_interactions, 6);
	for (i = 0; i < 12; i++)
		assert_int_equal(exp.effects[i].nr_within, 2);
	for (i = 0; i < 6; i++) {
		const struct exp_interaction *x = &exp.interactions[i];
		const char *f = x->factor;
		const char *by = x->by;
		const char *v = x->verdict;

		assert_int_equal(x->nr_within, 1);
		if (!strcmp(f, "A") && !strcmp(by, "B"))
			assert_string_equal(v, "interaction");
		else
			assert_string_not_equal(v, "interaction");
	}
	render(&exp, &out);
	has(&out, "\nA=a1 vs A=a0\n  at B=b0 C=c0 ");
	has(&out, "\nwith C=c0, A's effect depends on B: 1.10x at B=b0, "
		  "0.88x at B=b1");
	has(&out, "\nwith C=c1, A's effect depends on B: ");
	if (!strstr(out.buf, "\nA's effect does not depend on C (the same "
			     "within 2% in all 2 tests") &&
	    !strstr(out.buf, "\nno evidence that A's effect depends on C (2 "
			     "tests"))
		fail_msg("no line for A and C in:\n%s", out.buf);
	experiment_doc_release(&exp);
	strbuf_release(&out);
}

/* One factor: neither member, and the table as it always was. */
static void test_one_factor(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct experiment_doc exp;

	(void)state;
	/* the arms keep both settings; the factors name one */
	experiment_of(&exp, &ev_cases[0], true, 1);
	analyze(&exp, 0);
	assert_int_equal(exp.has_effects, MODEL_ABSENT);
	assert_int_equal(exp.has_interactions, MODEL_ABSENT);
	render(&exp, &out);
	assert_null(strstr(out.buf, "every arm against"));
	assert_null(strstr(out.buf, "vs"));
	experiment_doc_release(&exp);
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

/* Where member key of the plain text of a document is, or NULL. */
static const char *member_at(const char *text, const char *key)
{
	struct strbuf k = STRBUF_INIT;
	const char *p;

	strbuf_addf(&k, ",\"%s\":", key);
	p = strstr(text, k.buf);
	strbuf_release(&k);
	return p;
}

/*
 * Analysing again puts "effects" and "interactions" after the members
 * added since, as the engine always has. A document whose factor values
 * are not strings (no writer of iotrial's makes one) does not decode:
 * refused whole, naming the member; the document analysed keeps what
 * it had.
 */
static void test_order(void **state)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct experiment_doc exp, again, bad;
	const char *vals;

	(void)state;
	experiment_of(&exp, &ev_cases[0], true, 2);
	analyze(&exp, 0);
	experiment_doc_encode(&exp, MODEL_ENCODE_PLAIN, &text);
	strbuf_setlen(&text, (size_t)(strrchr(text.buf, '}') - text.buf));
	strbuf_addstr(&text, ",\"later\":1}");
	assert_true(member_at(text.buf, "effects") <
		    member_at(text.buf, "later"));
	if (experiment_doc_decode(text.buf, text.len, &again, 0, &err))
		fail_msg("%s", err.buf);
	analyze(&again, 0);
	strbuf_reset(&text);
	experiment_doc_encode(&again, MODEL_ENCODE_PLAIN, &text);
	assert_non_null(member_at(text.buf, "later"));
	assert_true(member_at(text.buf, "later") <
		    member_at(text.buf, "effects"));
	assert_true(member_at(text.buf, "effects") <
		    member_at(text.buf, "interactions"));
	check_members(&again, &ev_cases[0]);
	experiment_doc_release(&again);

	/* factor 1's first value as a number */
	vals = strstr(text.buf, "\"values\":[");
	assert_non_null(vals);
	vals = strstr(vals + 1, "\"values\":[\"");
	assert_non_null(vals);
	{
		struct strbuf badtext = STRBUF_INIT;
		const char *end = strchr(vals + 11, '"');

		strbuf_add(&badtext, text.buf, (size_t)(vals - text.buf) + 10);
		strbuf_addstr(&badtext, "1");
		strbuf_addstr(&badtext, end + 1);
		strbuf_reset(&err);
		assert_int_equal(experiment_doc_decode(badtext.buf, badtext.len,
						       &bad, 0, &err),
				 -EINVAL);
		assert_non_null(strstr(err.buf, "factors[1].values[0]"));
		experiment_doc_release(&bad);
		strbuf_release(&badtext);
	}
	assert_int_equal(exp.has_effects, MODEL_SET);
	assert_int_equal(exp.has_interactions, MODEL_SET);
	experiment_doc_release(&exp);
	strbuf_release(&text);
	strbuf_release(&err);
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
	    cmocka_unit_test(test_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
