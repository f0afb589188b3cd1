/*
 * Tests for core/stats/adjust.c: the regression adjustment of paired
 * log-ratios (CUPED). The simulations are the point: many A/A
 * experiments whose noise has the structure measured on a busy 2-CPU
 * VM (bench/README.md, "Where the noise comes from"): a level shared by
 * the runs of a block, a per-run contention that is heavy-tailed (t
 * with 3 degrees of freedom), a covariate that measures it with error,
 * a drift across the experiment, and an offset for the run that goes
 * second in its block. Both verdict paths (the plain signed-rank test
 * and the adjusted one as compare uses it: adjusted when
 * stats_adjust_paired() says used, else plain) must reject at most 5%
 * of A/A experiments plus 3 binomial standard deviations, and the
 * adjusted interval must still cover a real effect.
 * A local splitmix64 keeps the simulations independent of util/rng.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "core/stats/adjust.h"
#include "util/banned.h"

#define NR_SIM 4000

struct sm64 {
	uint64_t s;
};

static uint64_t sm64_next(struct sm64 *g)
{
	uint64_t z = (g->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double sm64_unif(struct sm64 *g)
{
	return ((double)(sm64_next(g) >> 11) + 0.5) / 9007199254740992.0;
}

static double sm64_normal(struct sm64 *g)
{
	return sqrt(-2 * log(sm64_unif(g))) * cos(2 * M_PI * sm64_unif(g));
}

/* Student's t with 3 degrees of freedom, scaled to sd 1. */
static double sm64_t3(struct sm64 *g)
{
	double z = sm64_normal(g), c = 0;
	int i;

	for (i = 0; i < 3; i++) {
		double x = sm64_normal(g);

		c += x * x;
	}
	return z / sqrt(c / 3) / sqrt(3.0);
}

/* How the simulated machine behaves. */
struct sim_model {
	double effect;	   /* true log ratio arm / baseline */
	double contention; /* sd of the per-run contention (t3) */
	double noise;	   /* sd of the rest of a run's noise (t3) */
	double cov_error;  /* sd of the covariate's measurement error, as
			      a share of the contention's sd */
	double second;	   /* offset of the run that goes second */
	double drift;	   /* per block, a random walk's step */
	double cov_by_arm; /* the arm moves the covariate by this (in
			      contention sds), the metric untouched */
	size_t blocks;
	unsigned useless; /* covariates of pure noise beside it */
};

/* One simulated experiment into d[n] and z[c * n + i] (the covariate,
 * then m->useless of noise). */
static void simulate(struct sm64 *g, const struct sim_model *m, double *d,
		     double *z)
{
	unsigned u;

	double level = 0;
	size_t b;

	for (b = 0; b < m->blocks; b++) {
		double y[2], c[2], zz[2];
		int arm_first = sm64_unif(g) < 0.5;
		int k;

		level += m->drift * sm64_normal(g);
		for (k = 0; k < 2; k++) {
			/* k = 0 the baseline, 1 the arm */
			int second = (k == 0) == !arm_first;

			c[k] = m->contention * sm64_t3(g);
			y[k] = level + (k ? m->effect : 0) - c[k] +
			       m->noise * sm64_t3(g) + (second ? m->second : 0);
			zz[k] = c[k] +
				m->cov_error * m->contention * sm64_normal(g) +
				(k ? m->cov_by_arm * m->contention : 0);
		}
		d[b] = y[1] - y[0];
		z[b] = zz[1] - zz[0];
		for (u = 1; u <= m->useless; u++)
			z[u * m->blocks + b] = sm64_normal(g);
	}
}

/* A verdict path's tallies over many experiments. */
struct tally {
	unsigned reject_plain, reject_used, used, covered_plain, covered_used;
	double hw_plain, hw_used; /* summed relative half-widths */
};

static void run_sim(const struct sim_model *m, uint64_t seed, struct tally *t)
{
	struct sm64 g = {seed};
	double d[64], z[4 * 64];
	unsigned i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < NR_SIM; i++) {
		struct stats_adjusted a;
		struct stats_shift s;
		struct stats_test w;

		simulate(&g, m, d, z);
		assert_int_equal(stats_signrank_shift(d, m->blocks, 0.95, &s),
				 0);
		assert_int_equal(stats_wilcoxon(d, m->blocks, &w), 0);
		assert_int_equal(stats_adjust_paired(d, m->blocks, z,
						     1 + m->useless, 0.95, NULL,
						     &a),
				 0);
		t->reject_plain += w.p < 0.05;
		t->covered_plain +=
		    s.ci_low <= m->effect && m->effect <= s.ci_high;
		t->hw_plain += tanh((s.ci_high - s.ci_low) / 2);
		t->used += a.used;
		t->reject_used += a.wilcoxon.p < 0.05;
		t->covered_used +=
		    a.shift.ci_low <= m->effect && m->effect <= a.shift.ci_high;
		t->hw_used += tanh((a.shift.ci_high - a.shift.ci_low) / 2);
	}
}

/* The most rejections 5% allows over NR_SIM experiments: 3 sds. */
static unsigned max_rejections(void)
{
	return (unsigned)(NR_SIM * 0.05 + 3 * sqrt(NR_SIM * 0.05 * 0.95));
}

/* The busy VM's structure, effect 0, at blocks n. */
static struct sim_model busy_vm(size_t n)
{
	return (struct sim_model){
	    .effect = 0,
	    .contention = 0.25,
	    .noise = 0.08,
	    .cov_error = 0.4,
	    .second = 0.05,
	    .drift = 0.05,
	    .blocks = n,
	};
}

/* An exact fit: d = 0.1 + 2 z: the adjusted differences are all 0.1. */
static void test_exact_fit(void **state)
{
	double d[10], z[10], out[10];
	struct stats_adjusted a;
	size_t i;

	(void)state;
	for (i = 0; i < 10; i++) {
		z[i] = (double)i - 4.5;
		d[i] = 0.1 + 2 * z[i];
	}
	assert_int_equal(stats_adjust_paired(d, 10, z, 1, 0.95, out, &a), 0);
	assert_true(a.used);
	assert_int_equal(a.why, STATS_ADJ_USED);
	/* through the origin: beta = sum(dz)/sum(zz) = 2 since sum z = 0 */
	assert_float_equal(a.beta[0], 2.0, 1e-12);
	for (i = 0; i < 10; i++)
		assert_float_equal(out[i], 0.1, 1e-12);
	assert_float_equal(a.shift.ratio, exp(0.1), 1e-12);
}

/* Flipping a pair (d_i, z_i) flips its adjusted difference only. */
static void test_sign_flip(void **state)
{
	double d[12] = {0.3,  -0.1, 0.25, 0.05, -0.4,  0.2,
			0.15, -0.2, 0.1,  0.35, -0.05, 0.0};
	double z[12] = {0.2, -0.1, 0.3,	 0.1,  -0.3, 0.05,
			0.1, -0.2, -0.1, 0.25, 0.0,  0.15};
	double a1[12], a2[12];
	struct stats_adjusted r1, r2;
	size_t i;

	(void)state;
	assert_int_equal(stats_adjust_paired(d, 12, z, 1, 0.95, a1, &r1), 0);
	assert_true(r1.used);
	d[3] = -d[3];
	z[3] = -z[3];
	d[7] = -d[7];
	z[7] = -z[7];
	assert_int_equal(stats_adjust_paired(d, 12, z, 1, 0.95, a2, &r2), 0);
	assert_float_equal(r1.beta[0], r2.beta[0], 1e-12);
	assert_float_equal(r1.r2, r2.r2, 1e-12);
	for (i = 0; i < 12; i++)
		assert_float_equal(a2[i], (i == 3 || i == 7) ? -a1[i] : a1[i],
				   1e-12);
}

/* Too few blocks, a constant or missing covariate: not used, plain. */
static void test_not_used(void **state)
{
	double d[10] = {0.1, 0.2, -0.1, 0.05, 0.3, -0.2, 0.1, 0.0, 0.15, 0.2};
	double z[20] = {0};
	struct stats_adjusted a;
	struct stats_shift s;

	(void)state;
	assert_int_equal(stats_signrank_shift(d, 10, 0.95, &s), 0);
	assert_int_equal(stats_adjust_paired(d, 6, z, 1, 0.95, NULL, &a), 0);
	assert_int_equal(a.why, STATS_ADJ_FEW_BLOCKS);
	assert_int_equal(stats_adjust_paired(d, 10, z, 1, 0.95, NULL, &a), 0);
	assert_int_equal(a.why, STATS_ADJ_NO_COVARIATE);
	assert_false(a.used);
	assert_float_equal(a.shift.shift, s.shift, 1e-15);
	assert_float_equal(a.shift.ci_low, s.ci_low, 1e-15);
	z[3] = NAN;
	z[4] = 1;
	assert_int_equal(stats_adjust_paired(d, 10, z, 1, 0.95, NULL, &a), 0);
	assert_int_equal(a.why, STATS_ADJ_NO_COVARIATE);
	/* a covariate unrelated to d explains too little alone */
	z[3] = 0;
	z[4] = 0;
	z[1] = 1e-3;
	z[2] = 1e-3;
	assert_int_equal(stats_adjust_paired(d, 10, z, 1, 0.95, NULL, &a), 0);
	assert_int_equal(a.why, STATS_ADJ_NO_COVARIATE);
	/* one mostly constant (yet centred enough: signed-rank p 0.027)
	 * explains part of d's mean, which is the shift: it would take
	 * more from the shift than it explains (r2_shift 0.64) */
	for (unsigned i = 0; i < 10; i++)
		z[i] = i < 7 ? 1 : -0.1;
	assert_int_equal(stats_adjust_paired(d, 10, z, 1, 0.95, NULL, &a), 0);
	assert_int_equal(a.why, STATS_ADJ_WEAK);
	assert_float_equal(a.r2_shift, 6.7 * 6.7 / 70.3, 1e-9);
	assert_int_equal(stats_adjust_paired(d, 0, z, 1, 0.95, NULL, &a),
			 -EINVAL);
	assert_int_equal(stats_adjust_paired(d, 10, z, 5, 0.95, NULL, &a),
			 -EINVAL);
}

/* A/A on the busy VM's structure at 12 and 20 blocks: both paths hold
 * 5%, and the adjusted interval is narrower. */
static void test_sim_aa(void **state)
{
	size_t sizes[] = {12, 20};
	unsigned k;

	(void)state;
	for (k = 0; k < 2; k++) {
		struct sim_model m = busy_vm(sizes[k]);
		struct tally t;

		run_sim(&m, 1000 + k, &t);
		print_message("A/A, %zu blocks: plain %u/%d rejected (mean "
			      "half-width %.1f%%), adjusted path %u/%d (used "
			      "in %u, half-width %.1f%%)\n",
			      m.blocks, t.reject_plain, NR_SIM,
			      100 * t.hw_plain / NR_SIM, t.reject_used, NR_SIM,
			      t.used, 100 * t.hw_used / NR_SIM);
		assert_true(t.reject_plain <= max_rejections());
		assert_true(t.reject_used <= max_rejections());
		assert_true(t.used > NR_SIM / 2);
		assert_true(t.hw_used < 0.8 * t.hw_plain);
	}
}

/* A covariate unrelated to the noise: used rarely, and still 5%. */
static void test_sim_aa_useless_covariate(void **state)
{
	struct sim_model m = busy_vm(12);
	struct tally t;

	(void)state;
	m.cov_error = 50; /* the covariate is nearly pure noise */
	run_sim(&m, 2000, &t);
	print_message("A/A, useless covariate: adjusted path %u/%d rejected, "
		      "used in %u\n",
		      t.reject_used, NR_SIM, t.used);
	assert_true(t.reject_used <= max_rejections());
}

/*
 * A real 10% effect: the adjusted interval covers it as often as 95%
 * asks (within 3 sds), and finds it more often than the plain test;
 * also beside two covariates of pure noise, whose sample means would
 * take part of the shift away from an interval cut at the adjusted
 * differences' own Walsh averages (hence the inversion, adjust.c).
 */
static void test_sim_effect(void **state)
{
	unsigned useless[] = {0, 2}, k;

	(void)state;
	for (k = 0; k < 2; k++) {
		struct sim_model m = busy_vm(k ? 10 : 20);
		struct tally t;

		m.effect = log(1.10);
		m.useless = useless[k];
		run_sim(&m, 3000 + k, &t);
		print_message("effect 1.10, %zu blocks, %u useless "
			      "covariates: covered plain %u/%d, adjusted "
			      "%u/%d; detected plain %u, adjusted %u\n",
			      m.blocks, m.useless, t.covered_plain, NR_SIM,
			      t.covered_used, NR_SIM, t.reject_plain,
			      t.reject_used);
		assert_true(t.covered_used >= NR_SIM - max_rejections());
		assert_true(t.reject_used > t.reject_plain);
	}
}

/*
 * The arm moves the covariate and not the metric (a covariate the
 * setting affects): adjusting would turn the covariate's shift into a
 * false effect. The balance check leaves it out when the shift is
 * clear (two contention sds), so the false-positive rate stays at 5%;
 * a smaller shift gets through it (printed: that is why iotrial only
 * offers covariates the setting cannot move, see analysis.c).
 */
static void test_sim_arm_moves_covariate(void **state)
{
	double shifts[] = {0.5, 1.0, 2.0};
	unsigned k;

	(void)state;
	for (k = 0; k < 3; k++) {
		struct sim_model m = busy_vm(20);
		struct tally t;

		m.cov_by_arm = shifts[k];
		run_sim(&m, 4000 + k, &t);
		print_message("A/A, the arm moves the covariate by %.1f sd: "
			      "adjusted path %u/%d rejected, used in %u\n",
			      shifts[k], t.reject_used, NR_SIM, t.used);
		if (shifts[k] >= 2)
			assert_true(t.reject_used <= max_rejections());
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_exact_fit),
	    cmocka_unit_test(test_sign_flip),
	    cmocka_unit_test(test_not_used),
	    cmocka_unit_test(test_sim_aa),
	    cmocka_unit_test(test_sim_aa_useless_covariate),
	    cmocka_unit_test(test_sim_effect),
	    cmocka_unit_test(test_sim_arm_moves_covariate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
