/*
 * Tests for core/tune/: the race and the bisection driven by a fake
 * workload whose response surface is known. Each candidate's metric is
 * the surface's value at its settings times a block effect (the
 * machine's mood, shared by a block's runs: what pairing by block
 * removes) and a run's own noise, both log-normal, drawn from a seeded
 * generator. The tests check that the race finds the known best, that
 * it rarely puts out a candidate that is not worse beyond the margin
 * (over many seeds), that it spends well under a grid's runs, and that
 * the bisection names the one setting that matters in fewer steps than
 * testing each alone; and the judge's calls on data of known sign.
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
#include "core/tune/race.h"
#include "core/tune/bisect.h"
#include "util/rng.h"
#include "util/banned.h"

/* A standard normal draw (Box-Muller). */
static double gauss(struct rng *g)
{
	double u = rng_double(g), v = rng_double(g);

	if (u < 1e-300)
		u = 1e-300;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* The known truth of the goal's case: buffered seqread on a RAM loop,
 * read-ahead the only knob that matters (MB/s by read_ahead_kb). */
static const char *const ra_values[] = {"16",  "32",   "64",   "128", "256",
					"512", "1024", "2048", "4096"};
static const double ra_mbps[] = {100, 135, 175, 215, 245, 258, 262, 263, 262};
static const char *const sched_values[] = {"none", "mq-deadline", "kyber"};
static const char *const nr_values[] = {"64", "128", "256"};
static const char *const ar_values[] = {"0", "1"};

/* The space of the goal: read-ahead 16 KiB now, three knobs that do
 * nothing. */
static void goal_space(struct tune_dim *dims)
{
	dims[0] = (struct tune_dim){"read_ahead_kb", ra_values, 9, 0};
	dims[1] = (struct tune_dim){"scheduler", sched_values, 3, 1};
	dims[2] = (struct tune_dim){"nr_requests", nr_values, 3, 2};
	dims[3] = (struct tune_dim){"add_random", ar_values, 2, 0};
}

/* The fake workload: the surface at c's levels, one block's mood and a
 * run's noise. sched_gain: kyber's effect, to make a second knob
 * matter; inter: the extra effect when both are changed. */
struct surface {
	double block_sd, run_sd;
	double kyber_gain, inter;
};

static double truth(const struct surface *s, const unsigned *lv)
{
	double m = ra_mbps[lv[0]];

	if (lv[1] == 2)
		m *= s->kyber_gain;
	if (lv[1] == 2 && lv[0] != 0)
		m *= s->inter;
	return m;
}

static void race_with(struct tune_race *r, const struct tune_dim *dims,
		      const struct surface *s, const double *ra, uint64_t seed,
		      unsigned max_runs);

/* Run a race to its end on surface s with seed; the caller releases. */
static void race(struct tune_race *r, const struct tune_dim *dims,
		 const struct surface *s, uint64_t seed, unsigned max_runs)
{
	race_with(r, dims, s, ra_mbps, seed, max_runs);
}

/* race() with read-ahead's response ra instead of ra_mbps. */
static void race_with(struct tune_race *r, const struct tune_dim *dims,
		      const struct surface *s, const double *ra, uint64_t seed,
		      unsigned max_runs)
{
	struct tune_race_opts o;
	struct strbuf err = STRBUF_INIT;
	struct rng g;
	const unsigned *idx;
	unsigned n, k;

	tune_race_opts_init(&o);
	o.seed = seed;
	o.max_runs = max_runs;
	rng_seed(&g, seed * 7919 + 1);
	assert_int_equal(tune_race_init(r, dims, 4, &o, &err), 0);
	while ((n = tune_race_next(r, &idx))) {
		double mood = exp(s->block_sd * gauss(&g));
		double m[256];

		assert_true(n <= 256);
		for (k = 0; k < n; k++)
			m[k] = truth(s, r->cs.v[idx[k]].level) *
			       ra[r->cs.v[idx[k]].level[0]] /
			       ra_mbps[r->cs.v[idx[k]].level[0]] * mood *
			       exp(s->run_sd * gauss(&g));
		assert_int_equal(tune_race_record(r, m, NULL), 0);
	}
	strbuf_release(&err);
}

/* The goal's case: read-ahead found (512 KiB or more), the other three
 * equivalent or irrelevant, in under a third of a grid's runs. */
static void test_race_finds_readahead(void **state)
{
	struct surface s = {0.05, 0.01, 1, 1};
	struct tune_dim dims[4];
	struct tune_race r;
	struct tune_result res;

	(void)state;
	goal_space(dims);
	race(&r, dims, &s, 1, 0);
	tune_race_result(&r, &res);
	if (getenv("TUNE_DEBUG")) {
		unsigned i;

		for (i = 0; i < r.cs.nr; i++) {
			struct tune_judgement j;

			tune_cands_judge(&r.cs, 0, i, &r.o.j, &j);
			print_message("%u fam %d lv %u%u%u%u %s runs %u: %.3f "
				      "%.3f-%.3f %s %s\n",
				      i, r.cs.v[i].family, r.cs.v[i].level[0],
				      r.cs.v[i].level[1], r.cs.v[i].level[2],
				      r.cs.v[i].level[3],
				      tune_state_name(r.cs.v[i].state),
				      r.cs.v[i].nr_runs, j.ratio, j.ci_low,
				      j.ci_high, tune_call_name(j.call),
				      r.cs.v[i].why ? r.cs.v[i].why : "");
		}
		for (i = 0; i < 4; i++)
			print_message("dim %u: %s (%s)\n", i,
				      tune_dim_finding_name(res.finding[i]),
				      r.settle_why[i]);
	}
	assert_true(res.winner > 0);
	assert_true(r.cs.v[res.winner].level[0] >= 5); /* 512 KiB or more */
	assert_true(r.cs.v[res.smallest].level[0] >= 5);
	assert_int_equal(r.cs.v[res.smallest].nr_changed, 1);
	assert_int_equal(res.finding[0], TUNE_DIM_MATTERS);
	assert_true(res.finding[1] == TUNE_DIM_NO_DIFFERENCE ||
		    res.finding[1] == TUNE_DIM_CURRENT_BEST);
	assert_true(res.finding[2] == TUNE_DIM_NO_DIFFERENCE ||
		    res.finding[2] == TUNE_DIM_CURRENT_BEST);
	assert_true(res.finding[3] == TUNE_DIM_NO_DIFFERENCE ||
		    res.finding[3] == TUNE_DIM_CURRENT_BEST);
	assert_int_equal(res.grid_arms, 9 * 3 * 3 * 2);
	assert_true(res.runs * 3 < res.grid_runs);
	print_message("race: %u runs; a grid with %u runs per arm: %llu\n",
		      res.runs, res.winner_runs,
		      (unsigned long long)res.grid_runs);
	tune_result_release(&res);
	tune_race_release(&r);
}

/* The goal's own space: two values of each knob, 16 combinations. */
static void test_race_sixteen(void **state)
{
	static const char *const ra2[] = {"16", "512"};
	static const char *const s2[] = {"none", "mq-deadline"};
	static const char *const n2[] = {"64", "256"};
	struct tune_dim dims[4] = {
	    {"read_ahead_kb", ra2, 2, 0},
	    {"scheduler", s2, 2, 1},
	    {"nr_requests", n2, 2, 1},
	    {"add_random", ar_values, 2, 0},
	};
	struct surface s = {0.05, 0.01, 1, 1};
	struct tune_race r;
	struct tune_result res;
	uint64_t seed;

	(void)state;
	/* read_ahead_kb=512 is level 1: 258 against 100 (ra_mbps[5]) */
	for (seed = 1; seed <= 20; seed++) {
		struct tune_race_opts o;
		struct strbuf err = STRBUF_INIT;
		struct rng g;
		const unsigned *idx;
		unsigned n, k;

		tune_race_opts_init(&o);
		o.seed = seed;
		rng_seed(&g, seed);
		assert_int_equal(tune_race_init(&r, dims, 4, &o, &err), 0);
		while ((n = tune_race_next(&r, &idx))) {
			double mood = exp(s.block_sd * gauss(&g)), m[32];

			for (k = 0; k < n; k++)
				m[k] = (r.cs.v[idx[k]].level[0] ? 258 : 100) *
				       mood * exp(s.run_sd * gauss(&g));
			assert_int_equal(tune_race_record(&r, m, NULL), 0);
		}
		tune_race_result(&r, &res);
		assert_int_equal(r.cs.v[res.smallest].level[0], 1);
		assert_int_equal(r.cs.v[res.smallest].nr_changed, 1);
		assert_int_equal(res.grid_arms, 16);
		assert_true(res.runs * 3 < res.grid_runs);
		if (seed == 1)
			print_message("16 combinations: %u runs; a grid "
				      "with %u runs per arm: %llu\n",
				      res.runs, res.winner_runs,
				      (unsigned long long)res.grid_runs);
		tune_result_release(&res);
		tune_race_release(&r);
		strbuf_release(&err);
	}
}

/*
 * Over many seeds: the race's answer is within the margin of the true
 * best, and a candidate is rarely put out by a leader it is not truly
 * worse than beyond the margin.
 */
static void test_race_false_eliminations(void **state)
{
	struct surface s = {0.05, 0.02, 1, 1};
	struct tune_dim dims[4];
	unsigned seeds = 60, wrong = 0, outs = 0, false_outs = 0, i;
	uint64_t seed;

	(void)state;
	goal_space(dims);
	for (seed = 100; seed < 100 + seeds; seed++) {
		struct tune_race r;
		struct tune_result res;

		race(&r, dims, &s, seed, 0);
		tune_race_result(&r, &res);
		if (truth(&s, r.cs.v[res.smallest].level) < 263 * 0.98)
			wrong++;
		for (i = 1; i < r.cs.nr; i++) {
			const struct tune_cand *c = &r.cs.v[i];

			if (c->state != TUNE_OUT_WORSE)
				continue;
			outs++;
			if (truth(&s, c->level) >=
			    truth(&s, r.cs.v[c->out_by].level) * 0.98)
				false_outs++;
		}
		tune_result_release(&res);
		tune_race_release(&r);
	}
	print_message("%u seeds: %u answers off; %u of %u eliminations "
		      "false\n",
		      seeds, wrong, false_outs, outs);
	assert_true(wrong * 20 <= seeds);
	assert_true(false_outs * 20 <= outs);
}

/*
 * A machine as loaded as a shared VM: each run's noise 30% and one run
 * in 20 a third of what it should be. The race may not tell the close
 * values apart, but it seldom puts out one that is not worse beyond
 * the margin (under 10% of its eliminations here, against under 5% at
 * a noise of 2%), and never recommends a read-ahead under 128 KiB.
 */
static void test_race_heavy_noise(void **state)
{
	struct tune_dim dims[4];
	unsigned seeds = 60, outs = 0, false_outs = 0, i;
	uint64_t seed;

	(void)state;
	goal_space(dims);
	for (seed = 500; seed < 500 + seeds; seed++) {
		struct tune_race_opts o;
		struct tune_race r;
		struct tune_result res;
		struct strbuf err = STRBUF_INIT;
		struct rng g;
		const unsigned *idx;
		unsigned n, k;

		tune_race_opts_init(&o);
		o.seed = seed;
		rng_seed(&g, seed);
		assert_int_equal(tune_race_init(&r, dims, 4, &o, &err), 0);
		while ((n = tune_race_next(&r, &idx))) {
			double mood = exp(0.1 * gauss(&g)), m[64];

			for (k = 0; k < n; k++) {
				m[k] = ra_mbps[r.cs.v[idx[k]].level[0]] * mood *
				       exp(0.3 * gauss(&g));
				if (rng_below(&g, 20) == 0)
					m[k] /= 3;
			}
			assert_int_equal(tune_race_record(&r, m, NULL), 0);
		}
		tune_race_result(&r, &res);
		assert_true(r.cs.v[res.smallest].level[0] >= 3);
		for (i = 1; i < r.cs.nr; i++) {
			const struct tune_cand *c = &r.cs.v[i];

			if (c->state != TUNE_OUT_WORSE)
				continue;
			outs++;
			if (ra_mbps[c->level[0]] >=
			    ra_mbps[r.cs.v[c->out_by].level[0]] * 0.98) {
				false_outs++;
				if (getenv("TUNE_DEBUG"))
					print_message("false: fam %d lv %u by "
						      "%d: %s\n",
						      c->family, c->level[0],
						      c->out_by, c->why);
			}
		}
		tune_result_release(&res);
		tune_race_release(&r);
		strbuf_release(&err);
	}
	print_message("heavy noise, %u seeds: %u of %u eliminations false\n",
		      seeds, false_outs, outs);
	assert_true(false_outs * 10 <= outs);
}

/* The current scheduler is best, the others 10% worse: six blocks show
 * them worse, though too few for the race's strict level to put them
 * out; the scheduler's finding is that the current value is best. */
static void test_race_current_best(void **state)
{
	struct tune_dim dims[4];
	struct tune_race_opts o;
	struct tune_race r;
	struct tune_result res;
	struct strbuf err = STRBUF_INIT;
	struct rng g;
	const unsigned *idx;
	unsigned n, k, i;

	(void)state;
	goal_space(dims);
	tune_race_opts_init(&o);
	o.seed = 3;
	o.max_blocks = 6;
	rng_seed(&g, 3);
	assert_int_equal(tune_race_init(&r, dims, 4, &o, &err), 0);
	while ((n = tune_race_next(&r, &idx))) {
		double mood = exp(0.05 * gauss(&g)), m[64];

		for (k = 0; k < n; k++)
			m[k] = 100 * (r.cs.v[idx[k]].level[1] == 1 ? 1 : 0.9) *
			       mood * exp(0.005 * gauss(&g));
		assert_int_equal(tune_race_record(&r, m, NULL), 0);
	}
	tune_race_result(&r, &res);
	for (i = 1; i < r.cs.nr; i++)
		if (r.cs.v[i].family == 1)
			assert_int_equal(r.cs.v[i].state, TUNE_ALIVE);
	assert_int_equal(res.finding[1], TUNE_DIM_CURRENT_BEST);
	tune_result_release(&res);
	tune_race_release(&r);
	strbuf_release(&err);
}

/* Two knobs matter: stage 2 combines them, measures their interaction
 * and the answer changes both. */
static void test_race_combines(void **state)
{
	struct surface add = {0.05, 0.01, 1.10, 1};
	struct surface sub = {0.05, 0.01, 1.10, 0.85};
	struct tune_dim dims[4];
	struct tune_race r;
	struct tune_result res;

	(void)state;
	goal_space(dims);
	race(&r, dims, &add, 3, 0);
	tune_race_result(&r, &res);
	assert_int_equal(r.nr_combo_dims, 2);
	assert_int_equal(r.cs.v[res.winner].level[1], 2); /* kyber */
	assert_true(r.cs.v[res.winner].level[0] >= 5);
	assert_int_equal(res.nr_inter, 1);
	assert_int_not_equal(res.inter[0].j.call, TUNE_BETTER);
	assert_int_not_equal(res.inter[0].j.call, TUNE_WORSE);
	tune_result_release(&res);
	tune_race_release(&r);
	/* kyber helps alone and hurts with read-ahead: an interaction */
	race(&r, dims, &sub, 3, 0);
	tune_race_result(&r, &res);
	assert_int_equal(res.nr_inter, 1);
	assert_int_equal(res.inter[0].j.call, TUNE_WORSE);
	assert_int_not_equal(r.cs.v[res.winner].level[1], 2);
	tune_result_release(&res);
	tune_race_release(&r);
}

/* A flat surface: nothing is shown better, so the recommendation is to
 * keep the current settings, whatever candidate happens to lead. */
static void test_race_flat(void **state)
{
	struct surface s = {0.05, 0.02, 1, 1};
	struct tune_dim dims[4];
	struct tune_race r;
	struct tune_result res;
	static const double flat[] = {100, 100, 100, 100, 100,
				      100, 100, 100, 100};

	(void)state;
	goal_space(dims);
	race_with(&r, dims, &s, flat, 31, 0);
	tune_race_result(&r, &res);
	assert_int_equal(res.smallest, 0);
	assert_int_not_equal(res.win_vs_base.call, TUNE_BETTER);
	tune_result_release(&res);
	tune_race_release(&r);
}

/* A candidate whose runs fail leaves with its reason; a refused one
 * never runs; the rest goes on. */
static void test_race_failed_candidate(void **state)
{
	struct tune_dim dims[4];
	struct tune_race_opts o;
	struct tune_race r;
	struct tune_result res;
	struct strbuf err = STRBUF_INIT;
	struct rng g;
	const unsigned *idx;
	unsigned n, k, bad = 0, refused = 0;

	(void)state;
	goal_space(dims);
	tune_race_opts_init(&o);
	assert_int_equal(tune_race_init(&r, dims, 4, &o, &err), 0);
	for (k = 1; k < r.cs.nr; k++) {
		if (r.cs.v[k].family == 1 && r.cs.v[k].level[1] == 2)
			refused = k;
		if (r.cs.v[k].family == 0 && r.cs.v[k].level[0] == 8)
			bad = k;
	}
	tune_race_refuse(&r, refused, "the kernel refuses 'kyber'");
	rng_seed(&g, 5);
	while ((n = tune_race_next(&r, &idx))) {
		double m[64];
		const char *why[64] = {0};

		for (k = 0; k < n; k++) {
			assert_int_not_equal(idx[k], refused);
			m[k] = ra_mbps[r.cs.v[idx[k]].level[0]] *
			       exp(0.01 * gauss(&g));
			if (idx[k] == bad) {
				m[k] = NAN;
				why[k] = "its run failed: exit status 1";
			}
		}
		assert_int_equal(tune_race_record(&r, m, why), 0);
	}
	assert_int_equal(r.cs.v[bad].state, TUNE_OUT_FAILED);
	assert_string_equal(r.cs.v[bad].why, "its run failed: exit status 1");
	assert_int_equal(r.cs.v[refused].state, TUNE_OUT_REFUSED);
	tune_race_result(&r, &res);
	assert_true(r.cs.v[res.winner].level[0] >= 5);
	assert_int_not_equal(res.winner, (int)bad);
	tune_result_release(&res);
	tune_race_release(&r);
	strbuf_release(&err);
}

/* A budget in runs ends the race with what it found so far; the
 * baseline failing ends it at once. */
static void test_race_budget_and_baseline(void **state)
{
	struct surface s = {0.05, 0.01, 1, 1};
	struct tune_dim dims[4];
	struct tune_race r;
	struct tune_race_opts o;
	struct strbuf err = STRBUF_INIT;
	const unsigned *idx;
	unsigned n, k;
	double m[64];
	const char *why[64] = {0};

	(void)state;
	goal_space(dims);
	race(&r, dims, &s, 9, 60);
	assert_string_equal(r.stopped, "the budget is spent");
	assert_int_equal(r.base_failed, 0);
	assert_true(r.runs <= 60);
	tune_race_release(&r);
	tune_race_opts_init(&o);
	assert_int_equal(tune_race_init(&r, dims, 4, &o, &err), 0);
	n = tune_race_next(&r, &idx);
	for (k = 0; k < n; k++) {
		m[k] = idx[k] ? 100 : NAN;
		why[k] =
		    idx[k] ? NULL : "its run failed: no space left on device";
	}
	assert_int_equal(tune_race_record(&r, m, why), 0);
	assert_int_equal(tune_race_next(&r, &idx), 0);
	assert_string_equal(r.stopped, "the current settings: its run "
				       "failed: no space left on device");
	assert_int_equal(r.base_failed, 1);
	m[0] = -1;
	assert_int_equal(tune_race_record(&r, m, NULL), -EINVAL);
	tune_race_release(&r);
	assert_int_equal(tune_race_init(&r, dims, 0, &o, &err), -EINVAL);
	assert_string_equal(err.buf, "the space has no knob");
	strbuf_release(&err);
}

/* The judge on data of known sign and size. */
static void test_judge(void **state)
{
	double a[12], b[12], c[12], d[12];
	struct tune_judge_opts o;
	struct tune_judgement j;
	unsigned i;

	(void)state;
	tune_judge_opts_init(&o);
	for (i = 0; i < 12; i++) {
		a[i] = 100 + i;
		b[i] = a[i] * (1.20 + 0.001 * (i % 3));
		c[i] = a[i] * (1 + 0.002 * ((int)(i % 5) - 2));
		d[i] = a[i] * (1 + 0.08 * ((int)(i % 2) ? 1 : -1));
	}
	assert_int_equal(tune_judge(a, b, 12, &o, &j), 0);
	assert_int_equal(j.call, TUNE_BETTER);
	assert_true(j.ratio > 1.19 && j.ratio < 1.21);
	assert_true(j.p_worse > 0.5);
	assert_int_equal(tune_judge(b, a, 12, &o, &j), 0);
	assert_int_equal(j.call, TUNE_WORSE);
	assert_true(j.p_worse < 0.01);
	o.higher_is_better = false; /* a latency: lower is better */
	assert_int_equal(tune_judge(a, b, 12, &o, &j), 0);
	assert_int_equal(j.call, TUNE_WORSE);
	o.higher_is_better = true;
	assert_int_equal(tune_judge(a, c, 12, &o, &j), 0);
	assert_int_equal(j.call, TUNE_EQUIVALENT);
	assert_true(j.p_worse > 0.5); /* not shown 2% worse */
	assert_int_equal(tune_judge(a, d, 12, &o, &j), 0);
	assert_int_equal(j.call, TUNE_CANNOT_TELL);
	assert_int_equal(tune_judge(a, b, 3, &o, &j), 0);
	assert_int_equal(j.call, TUNE_CANNOT_TELL);
	b[0] = -1;
	assert_int_equal(tune_judge(a, b, 12, &o, &j), -EINVAL);
	assert_string_equal(tune_call_name(TUNE_CANNOT_TELL), "cannot tell");
}

/* Bisection on a surface where setting `culprit` of n moves the metric
 * by gain and the others by nothing; returns the steps taken. */
static unsigned bisect(struct tune_bisect *b, unsigned n, unsigned culprit,
		       double gain, uint64_t seed)
{
	struct tune_bisect_opts o;
	struct strbuf err = STRBUF_INIT;
	struct rng g;
	const unsigned *idx;
	unsigned k, nb;

	tune_bisect_opts_init(&o);
	o.seed = seed;
	rng_seed(&g, seed + 11);
	assert_int_equal(tune_bisect_init(b, n, &o, &err), 0);
	while ((nb = tune_bisect_next(b, &idx))) {
		double mood = exp(0.05 * gauss(&g)), m[3];

		for (k = 0; k < nb; k++)
			m[k] = 100 *
			       (b->cs.v[idx[k]].level[culprit] ? gain : 1) *
			       mood * exp(0.01 * gauss(&g));
		assert_int_equal(tune_bisect_record(b, m, NULL), 0);
	}
	strbuf_release(&err);
	return b->nr_steps;
}

/* Six settings differ, one matters: it alone is named, the others
 * carry none, in fewer steps than six. */
static void test_bisect_one_of_six(void **state)
{
	unsigned culprit, i;

	(void)state;
	for (culprit = 0; culprit < 6; culprit++) {
		struct tune_bisect b;
		struct tune_bisect_result r;
		unsigned steps = bisect(&b, 6, culprit, 1.30, culprit + 1);

		tune_bisect_result(&b, &r);
		print_message("culprit %u: %u steps, %u runs, share %.2f "
			      "(%.2f-%.2f)\n",
			      culprit, steps, r.runs, r.share, r.share_low,
			      r.share_high);
		assert_true(steps < 6);
		assert_int_equal(r.nr_carries, 1);
		assert_int_equal(b.role[culprit], TUNE_ROLE_CARRIES);
		for (i = 0; i < 6; i++)
			if (i != culprit)
				assert_int_equal(b.role[i], TUNE_ROLE_NONE);
		assert_true(r.minimal > 1);
		assert_true(r.share_low < 1 && r.share_high > 0.8);
		tune_bisect_release(&b);
	}
}

/* Sets that perform alike: nothing to explain; no difference: refused. */
static void test_bisect_alike(void **state)
{
	struct tune_bisect b;
	struct tune_bisect_opts o;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	bisect(&b, 4, 0, 1.0, 2);
	assert_string_equal(b.stopped, "the two sets perform alike: there is "
				       "no difference to explain");
	tune_bisect_release(&b);
	tune_bisect_opts_init(&o);
	assert_int_equal(tune_bisect_init(&b, 0, &o, &err), -EINVAL);
	assert_string_equal(err.buf, "the two sets of settings do not differ");
	strbuf_release(&err);
}

/*
 * Drive a bisection of n settings where setting 0 moves the metric by
 * gain; a run of A with the settings of mask at B's values fails when
 * bit mask of fail is set (fail 8: the run of {0,1}). Checks that no
 * block runs a candidate twice; the caller releases.
 */
static void bisect_failing(struct tune_bisect *b, unsigned n, double gain,
			   unsigned fail, uint64_t seed)
{
	struct tune_bisect_opts o;
	struct strbuf err = STRBUF_INIT;
	struct rng g;
	const unsigned *idx;
	unsigned k, nb, i;

	tune_bisect_opts_init(&o);
	o.seed = seed;
	rng_seed(&g, seed + 3);
	assert_int_equal(tune_bisect_init(b, n, &o, &err), 0);
	while ((nb = tune_bisect_next(b, &idx))) {
		double mood = exp(0.05 * gauss(&g)), m[3];

		assert_true(nb <= 3);
		for (k = 0; k < nb; k++) {
			const unsigned *lv = b->cs.v[idx[k]].level;
			unsigned mask = 0;

			for (i = 0; i < n; i++)
				mask |= lv[i] << i;
			for (i = 0; i < k; i++)
				assert_int_not_equal(idx[i], idx[k]);
			m[k] = idx[k] > 1 && (fail >> mask & 1)
				   ? NAN
				   : 100 * (lv[0] ? gain : 1) * mood *
					 exp(0.01 * gauss(&g));
		}
		assert_int_equal(tune_bisect_record(b, m, NULL), 0);
	}
	strbuf_release(&err);
}

/* One setting differs: it is named only once its own step shows the
 * difference (A and B run once a block, B not twice); a bisection
 * stopped before that names nothing, and has no ratio yet. */
static void test_bisect_lone(void **state)
{
	struct tune_bisect b;
	struct tune_bisect_result r;
	struct tune_bisect_opts o;
	struct strbuf err = STRBUF_INIT;
	const unsigned *idx;
	double m[3] = {100, NAN, NAN};

	(void)state;
	bisect_failing(&b, 1, 1.30, 0, 4);
	tune_bisect_result(&b, &r);
	assert_int_equal(b.nr_steps, 1);
	assert_int_equal(b.role[0], TUNE_ROLE_CARRIES);
	assert_int_equal(r.nr_carries, 1);
	assert_int_equal(r.runs, 2 * b.cs.blocks);
	assert_true(r.share_low < 1 && r.share_high > 0.8);
	tune_bisect_release(&b);

	tune_bisect_opts_init(&o);
	assert_int_equal(tune_bisect_init(&b, 1, &o, &err), 0);
	assert_int_equal(tune_bisect_next(&b, &idx), 2);
	m[idx[0] == 1 ? 0 : 1] = NAN;
	m[idx[0] == 1 ? 1 : 0] = 100;
	assert_int_equal(tune_bisect_record(&b, m, NULL), 0);
	assert_int_equal(tune_bisect_next(&b, &idx), 0);
	tune_bisect_result(&b, &r);
	assert_int_equal(b.role[0], TUNE_ROLE_UNKNOWN);
	assert_int_equal(b.set_failed, 1);
	assert_int_equal(r.nr_carries, 0);
	assert_true(isnan(r.a_vs_b.ratio));
	tune_bisect_release(&b);
	strbuf_release(&err);
}

/* A step that cannot tell (its runs fail) is neither good nor bad: two
 * settings whose own steps both cannot tell are left undecided, not
 * named nor cleared; a half that cannot tell is split again when the
 * other half carries none. */
static void test_bisect_cannot_tell(void **state)
{
	struct tune_bisect b;
	struct tune_bisect_result r;
	unsigned i;

	(void)state;
	/* n 2: the steps of {0} (mask 1) and {1} (mask 2) cannot tell */
	bisect_failing(&b, 2, 1.30, 1u << 1 | 1u << 2, 5);
	tune_bisect_result(&b, &r);
	assert_int_equal(b.nr_steps, 2);
	assert_int_equal(b.steps[0].carry, TUNE_CARRY_CANNOT_TELL);
	assert_int_equal(b.steps[1].carry, TUNE_CARRY_CANNOT_TELL);
	assert_int_equal(b.role[0], TUNE_ROLE_UNDECIDED);
	assert_int_equal(b.role[1], TUNE_ROLE_UNDECIDED);
	assert_int_equal(r.nr_undecided, 2);
	assert_int_equal(r.nr_carries + r.nr_none, 0);
	assert_int_equal(r.minimal, -1);
	tune_bisect_release(&b);
	/* n 4, the culprit 0 in the half {0,1} (mask 3) whose runs fail:
	 * the other half carries none, so {0,1} is split and 0 found */
	bisect_failing(&b, 4, 1.30, 1u << 3, 6);
	tune_bisect_result(&b, &r);
	assert_int_equal(b.steps[0].carry, TUNE_CARRY_CANNOT_TELL);
	assert_int_equal(b.steps[1].carry, TUNE_CARRY_NONE);
	assert_int_equal(b.role[0], TUNE_ROLE_CARRIES);
	for (i = 1; i < 4; i++)
		assert_int_equal(b.role[i], TUNE_ROLE_NONE);
	tune_bisect_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_judge),
	    cmocka_unit_test(test_race_finds_readahead),
	    cmocka_unit_test(test_race_sixteen),
	    cmocka_unit_test(test_race_false_eliminations),
	    cmocka_unit_test(test_race_heavy_noise),
	    cmocka_unit_test(test_race_combines),
	    cmocka_unit_test(test_race_flat),
	    cmocka_unit_test(test_race_current_best),
	    cmocka_unit_test(test_race_failed_candidate),
	    cmocka_unit_test(test_race_budget_and_baseline),
	    cmocka_unit_test(test_bisect_one_of_six),
	    cmocka_unit_test(test_bisect_alike),
	    cmocka_unit_test(test_bisect_lone),
	    cmocka_unit_test(test_bisect_cannot_tell),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
