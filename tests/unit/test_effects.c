/*
 * Tests for core/stats/effects.c: each factor's effect within the levels
 * of the others, and interactions.
 *  - reference analyses: effects_run() against what scipy 1.10 and the
 *    documented rules give, through effects_vectors.h (written by
 *    gen_effects_vectors.py): a factor that helps at one level of
 *    another and hurts at the other (an interaction), an additive one
 *    (none), three levels with a baseline that is not the first value
 *    and a missing run, unpaired runs (no interactions);
 *  - an effect is the same comparison as analysis_run()'s verdict of
 *    the arm that differs from the baseline arm in one factor;
 *  - one factor (nothing to do); refusals. The rows they become in an
 *    experiment document are test_factorial.c's.
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
#include "core/stats/effects.h"
#include "effects_vectors.h"
#include "util/banned.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
/* Same method as scipy: agreement to rounding. */
#define TIGHT 1e-9

/* Fail with both numbers unless got is within rel (relative) of want. */
static void check_close(const char *what, const char *name, size_t i,
			double got, double want, double rel)
{
	double tol = rel * fabs(want);

	if (isnan(want) && isnan(got))
		return;
	if (tol < 1e-300)
		tol = 1e-300;
	if (!(fabs(got - want) <= tol))
		fail_msg("%s [%zu] %s: got %.17g want %.17g", name, i, what,
			 got, want);
}

/* What effects_run() needs for reference case c; free with input_free. */
struct input {
	struct analysis_arm *arms;
	struct effects_factor *factors;
	unsigned *levels;
	struct effects_input in;
	struct analysis_opts o;
};

static void input_make(struct input *t, const struct ev_case *c)
{
	unsigned a, f, first = 0;

	t->arms = calloc(c->nr_arms, sizeof(*t->arms));
	t->factors = calloc(c->nr_factors, sizeof(*t->factors));
	t->levels =
	    calloc((size_t)c->nr_arms * c->nr_factors, sizeof(unsigned));
	assert_non_null(t->arms);
	assert_non_null(t->factors);
	assert_non_null(t->levels);
	for (a = 0; a < c->nr_arms; a++) {
		t->arms[a].label = c->name;
		t->arms[a].values = c->arms[a].values;
		t->arms[a].blocks = c->paired ? c->arms[a].blocks : NULL;
		t->arms[a].n = c->arms[a].n;
		for (f = 0; f < c->nr_factors; f++)
			t->levels[a * c->nr_factors + f] = c->arms[a].levels[f];
	}
	for (f = 0; f < c->nr_factors; f++) {
		t->factors[f].name = c->factor_names[f];
		t->factors[f].levels = c->levels + first;
		t->factors[f].nr_levels = c->nr_levels[f];
		t->factors[f].baseline = c->arms[c->baseline_arm].levels[f];
		first += c->nr_levels[f];
	}
	t->in = (struct effects_input){
	    .arms = t->arms,
	    .nr_arms = c->nr_arms,
	    .factors = t->factors,
	    .nr_factors = c->nr_factors,
	    .arm_levels = t->levels,
	};
	analysis_opts_init(&t->o);
	t->o.baseline = c->baseline_arm;
	t->o.higher_is_better = c->higher_is_better;
	t->o.paired = c->paired;
	t->o.alpha = c->alpha;
	t->o.margin = c->margin;
	t->o.conf = c->conf;
}

static void input_free(struct input *t)
{
	free(t->arms);
	free(t->factors);
	free(t->levels);
}

static void run_case(const struct ev_case *c, struct input *t,
		     struct effects *ef)
{
	struct strbuf err = STRBUF_INIT;

	input_make(t, c);
	if (effects_run(ef, &t->in, &t->o, &err))
		fail_msg("%s: %s", c->name, err.buf);
	strbuf_release(&err);
}

static void check_numbers(const char *name, size_t i, bool valid,
			  const struct stats_comparison *cmp, double p_adj,
			  const struct ev_result *r)
{
	assert_int_equal(valid, !isnan(r->ratio));
	if (!valid)
		return;
	check_close("ratio", name, i, cmp->shift.ratio, r->ratio, 1e-12);
	check_close("ci_low", name, i, cmp->shift.ratio_low, r->ci_low, 1e-12);
	check_close("ci_high", name, i, cmp->shift.ratio_high, r->ci_high,
		    1e-12);
	check_close("p", name, i, cmp->p, r->p, TIGHT);
	check_close("p_adjusted", name, i, p_adj, r->p_adjusted, TIGHT);
}

/* Every reference case: every effect and every interaction. */
static void test_reference(void **state)
{
	size_t i, k;

	(void)state;
	for (i = 0; i < NELEM(ev_cases); i++) {
		const struct ev_case *c = &ev_cases[i];
		struct effects ef;
		struct input t;

		run_case(c, &t, &ef);
		assert_int_equal(ef.nr_effects, c->nr_effects);
		for (k = 0; k < ef.nr_effects; k++) {
			const struct effects_effect *e = &ef.effects[k];
			const struct ev_result *r = &c->effects[k];

			assert_int_equal(e->factor, r->factor);
			assert_int_equal(e->level, r->level);
			assert_int_equal(e->arm, r->arm);
			assert_int_equal(e->base_arm, r->base_arm);
			assert_int_equal(e->n, r->n);
			assert_int_equal(e->cmp.paired, c->paired);
			check_numbers(c->name, k, e->valid, &e->cmp,
				      e->p_adjusted, r);
			if (strcmp(stats_verdict_name(e->verdict), r->verdict))
				fail_msg("%s [%zu]: verdict '%s', want '%s'",
					 c->name, k,
					 stats_verdict_name(e->verdict),
					 r->verdict);
		}
		assert_int_equal(ef.nr_interactions, c->nr_interactions);
		for (k = 0; k < ef.nr_interactions; k++) {
			const struct effects_interaction *x =
			    &ef.interactions[k];
			const struct ev_result *r = &c->interactions[k];
			const char *v =
			    effects_interaction_verdict_name(x->verdict);

			assert_int_equal(x->factor, r->factor);
			assert_int_equal(x->level, r->level);
			assert_int_equal(x->by, r->by);
			assert_int_equal(x->by_level, r->by_level);
			assert_int_equal(x->at_baseline, r->at_baseline);
			assert_int_equal(x->at_level, r->at_level);
			assert_int_equal(x->n, r->n);
			check_numbers(c->name, k, x->valid, &x->cmp,
				      x->p_adjusted, r);
			if (strcmp(v, r->verdict))
				fail_msg("%s interaction [%zu]: '%s', want "
					 "'%s'",
					 c->name, k, v, r->verdict);
		}
		effects_release(&ef);
		input_free(&t);
	}
}

/* The cases show what they are meant to (the generator checks it too;
 * this says it where the test reads). */
static void test_reference_coverage(void **state)
{
	const struct ev_case *crossed = &ev_cases[0];
	const struct ev_case *additive = &ev_cases[1];

	(void)state;
	assert_string_equal(crossed->name, "crossed");
	assert_string_equal(crossed->interactions[0].verdict, "interaction");
	assert_string_equal(crossed->effects[0].verdict, "faster");
	assert_string_equal(crossed->effects[1].verdict, "slower");
	/* 1.10 at jobs=1 and 0.90 at jobs=2: a ratio of ratios near 0.82 */
	assert_true(fabs(crossed->interactions[0].ratio - 0.9 / 1.1) < 0.02);
	assert_string_equal(additive->name, "additive");
	assert_string_equal(additive->interactions[0].verdict,
			    "no interaction");
	assert_true(fabs(additive->interactions[0].ratio - 1) < 0.01);
}

/*
 * An effect at the baseline levels of the other factors compares the
 * same two arms as analysis_run()'s verdict of that arm: the same
 * numbers, so a change to stats_compare() reaches both alike.
 */
static void test_same_as_verdict(void **state)
{
	const struct ev_case *c = &ev_cases[0];
	struct strbuf err = STRBUF_INIT;
	struct analysis a;
	struct effects ef;
	struct input t;

	(void)state;
	run_case(c, &t, &ef);
	assert_int_equal(analysis_run(&a, t.arms, c->nr_arms, &t.o, &err), 0);
	/* effect 0: sched=mq-deadline against none at jobs=1, arm 2 */
	assert_int_equal(ef.effects[0].arm, 2);
	assert_int_equal(ef.effects[0].base_arm, 0);
	assert_true(a.verdicts[2].valid);
	assert_true(ef.effects[0].cmp.shift.ratio ==
		    a.verdicts[2].cmp.shift.ratio);
	assert_true(ef.effects[0].cmp.shift.ratio_low ==
		    a.verdicts[2].cmp.shift.ratio_low);
	assert_true(ef.effects[0].cmp.p == a.verdicts[2].cmp.p);
	/* effect 2: jobs=2 against 1 with sched=none, arm 1 */
	assert_int_equal(ef.effects[2].arm, 1);
	assert_true(ef.effects[2].cmp.shift.ratio ==
		    a.verdicts[1].cmp.shift.ratio);
	analysis_release(&a);
	effects_release(&ef);
	input_free(&t);
	strbuf_release(&err);
}

/* One factor: nothing to analyse, and no error. */
static void test_one_factor(void **state)
{
	struct input t;
	struct effects ef;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	input_make(&t, &ev_cases[0]);
	t.in.nr_factors = 1;
	assert_int_equal(effects_run(&ef, &t.in, &t.o, &err), 0);
	assert_int_equal(ef.nr_effects, 0);
	assert_int_equal(ef.nr_interactions, 0);
	effects_release(&ef);
	input_free(&t);
	strbuf_release(&err);
}

/* A level that the factor does not have is refused with a sentence. */
static void test_errors(void **state)
{
	struct input t;
	struct effects ef;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	input_make(&t, &ev_cases[0]);
	t.levels[3] = 7;
	assert_int_equal(effects_run(&ef, &t.in, &t.o, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "'jobs'"));
	effects_release(&ef);
	t.levels[3] = 1;
	t.factors[0].baseline = 2;
	strbuf_reset(&err);
	assert_int_equal(effects_run(&ef, &t.in, &t.o, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "'sched'"));
	effects_release(&ef);
	input_free(&t);
	strbuf_release(&err);
}

/* An arm with a single run gives its effects no verdict, and the
 * interaction that needs it is not tested. */
static void test_too_few(void **state)
{
	struct input t;
	struct effects ef;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	input_make(&t, &ev_cases[0]);
	t.arms[3].n = 1;
	assert_int_equal(effects_run(&ef, &t.in, &t.o, &err), 0);
	assert_false(ef.effects[1].valid);
	assert_int_equal(ef.effects[1].verdict, STATS_NO_VERDICT);
	assert_true(ef.effects[0].valid);
	assert_int_equal(ef.nr_interactions, 1);
	assert_false(ef.interactions[0].valid);
	assert_string_equal(
	    effects_interaction_verdict_name(ef.interactions[0].verdict),
	    "no verdict");
	effects_release(&ef);
	input_free(&t);
	strbuf_release(&err);
}

/*
 * Metrics 1e600 apart (both finite and positive, so the analysis takes
 * them) make a ratio that is not finite: the effect is still compared
 * on logarithms, the interaction has no ratio to test and no verdict,
 * and nothing fails.
 */
static void test_extreme(void **state)
{
	double tiny[8], huge[8];
	struct input t;
	struct effects ef;
	struct strbuf err = STRBUF_INIT;
	size_t i;

	(void)state;
	input_make(&t, &ev_cases[0]);
	for (i = 0; i < 8; i++) {
		tiny[i] = 1e-300 * (1 + 0.001 * (double)i);
		huge[i] = 1e300 * (1 + 0.002 * (double)i);
	}
	t.arms[0].values = tiny;
	t.arms[2].values = huge;
	assert_int_equal(effects_run(&ef, &t.in, &t.o, &err), 0);
	assert_true(ef.effects[0].valid);
	assert_int_equal(ef.effects[0].verdict, STATS_FASTER);
	assert_int_equal(ef.nr_interactions, 1);
	assert_false(ef.interactions[0].valid);
	assert_int_equal(ef.interactions[0].verdict, STATS_NO_VERDICT);
	effects_release(&ef);
	input_free(&t);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_reference),
	    cmocka_unit_test(test_reference_coverage),
	    cmocka_unit_test(test_same_as_verdict),
	    cmocka_unit_test(test_one_factor),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_too_few),
	    cmocka_unit_test(test_extreme),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
