/*
 * Tests for core/experiment/noise.c and core/store/store_noise.c: the
 * key that makes two comparisons alike, the noise one experiment adds,
 * what --precision costs by the model, and the table in the store
 * (made on the first write, pooled over the newest rows of a key).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "core/experiment/noise.h"
#include "core/model/model_json.h"
#include "core/report/log_text.h"
#include "core/store/store.h"
#include "core/workload/workload.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* An experiment of two arms over blocks whose per-block log ratios are
 * d[], with block_s. */
static void exp_of(struct experiment_doc *e, const double *d, unsigned blocks,
		   double block_s)
{
	unsigned b, a;

	experiment_doc_init(e);
	e->schema = xstrdup("iotrial/1");
	e->type = xstrdup("experiment");
	e->workload = xstrdup("randread");
	e->arms = xcalloc(2, sizeof(*e->arms));
	e->nr_arms = 2;
	for (a = 0; a < 2; a++) {
		e->arms[a].arm = a;
		e->arms[a].label = xstrdup(a ? "b" : "a");
	}
	e->runs = xcalloc(2 * blocks, sizeof(*e->runs));
	e->nr_runs = 2 * blocks;
	for (b = 0; b < blocks; b++)
		for (a = 0; a < 2; a++) {
			struct exp_run *r = &e->runs[2 * b + a];

			r->arm = a;
			r->block = b;
			r->has_block = MODEL_SET;
			r->metric = a ? 100 * exp(d[b]) : 100;
		}
	e->baseline = 0;
	e->has_baseline = MODEL_SET;
	e->blocks = blocks;
	e->block_s = block_s;
	e->has_block_s = MODEL_SET;
}

/* The key names what makes comparisons alike, parameters sorted. */
static void test_key(void **state)
{
	struct param_setting p1[] = {{"size", "64M"}, {"bs", "4k"}};
	struct param_setting p2[] = {{"bs", "4k"}, {"size", "64M"}};
	struct target t = {.spec = "scratch:2G:ext4"};
	struct experiment_config c;
	struct strbuf k1 = STRBUF_INIT, k2 = STRBUF_INIT;

	(void)state;
	experiment_config_init(&c);
	c.ops = workload_find("randread");
	c.target = &t;
	c.ro.time_ns = 3000000000ull;
	c.params = p1;
	c.nr_params = 2;
	noise_key(&c, &k1);
	c.params = p2;
	noise_key(&c, &k2);
	assert_string_equal(k1.buf, k2.buf);
	assert_string_equal(k1.buf, "randread iops scratch:2G:ext4 ramp=0ms "
				    "places=1 bs=4k size=64M");
	c.nr_places = 2;
	noise_key(&c, &k2);
	assert_string_not_equal(k1.buf, k2.buf);
	strbuf_release(&k1);
	strbuf_release(&k2);
}

/* The row: the sd of the per-block log-ratios, the blocks, block_s. */
static void test_row(void **state)
{
	const double d[] = {0.1, -0.1, 0.2, 0.0, -0.2, 0.05};
	struct experiment_doc e;
	struct noise_row r;

	(void)state;
	exp_of(&e, d, 6, 4.5);
	assert_int_equal(noise_row_of(&e, &r), 0);
	assert_int_equal(r.blocks, 6);
	assert_float_equal(r.log_ratio_sd, stats_sd(d, 6), 1e-12);
	assert_float_equal(r.block_s, 4.5, 1e-12);
	/* a run without its block is not paired */
	e.runs[0].has_block = MODEL_ABSENT;
	assert_int_equal(noise_row_of(&e, &r), 0);
	assert_int_equal(r.blocks, 5);
	assert_float_equal(r.log_ratio_sd, stats_sd(d + 1, 5), 1e-12);
	/* nothing to learn without a block's time or a baseline */
	e.has_block_s = MODEL_ABSENT;
	assert_int_equal(noise_row_of(&e, &r), -EINVAL);
	e.has_block_s = MODEL_SET;
	e.has_baseline = MODEL_ABSENT;
	assert_int_equal(noise_row_of(&e, &r), -EINVAL);
	experiment_doc_release(&e);
	exp_of(&e, d, 1, 4.5);
	assert_int_equal(noise_row_of(&e, &r), -EINVAL);
	experiment_doc_release(&e);
}

/* n = (z sd / atanh(p))^2, at least the fewest blocks of a verdict. */
static void test_cost(void **state)
{
	struct noise_model m = {
	    .experiments = 1, .log_ratio_sd = 0.1, .block_s = 6};
	struct noise_cost c;
	double z = 1.959963984540054;

	(void)state;
	noise_cost(&m, 0.05, 0.05, 6, &c);
	assert_int_equal(c.blocks,
			 (unsigned)ceil(pow(z * 0.1 / atanh(0.05), 2)));
	assert_float_equal(c.seconds, c.blocks * 6.0, 1e-9);
	m.log_ratio_sd = 0.001;
	noise_cost(&m, 0.05, 0.05, 6, &c);
	assert_int_equal(c.blocks, 6);
}

/*
 * --time auto: spread^2 = a + b / T and block = c1 T + c0 fitted over
 * the lengths measured; the best T = sqrt(b c0 / (a c1)), within half
 * the shortest and twice the longest; the default with one length.
 */
static void test_pick(void **state)
{
	/* a = 0.025, b = 0.45; block = 2 T + 0.6 */
	struct noise_model m[3] = {
	    {.run_s = 1,
	     .experiments = 1,
	     .blocks = 41,
	     .log_ratio_sd = sqrt(0.025 + 0.45 / 1),
	     .block_s = 2.6},
	    {.run_s = 3,
	     .experiments = 1,
	     .blocks = 41,
	     .log_ratio_sd = sqrt(0.025 + 0.45 / 3),
	     .block_s = 6.6},
	    {.run_s = 10,
	     .experiments = 1,
	     .blocks = 17,
	     .log_ratio_sd = sqrt(0.025 + 0.45 / 10),
	     .block_s = 20.6},
	};
	struct noise_pick p;

	(void)state;
	noise_pick_time(m, 3, 3, &p);
	assert_string_equal(p.why, "fitted");
	assert_int_equal(p.lengths, 3);
	assert_float_equal(p.a, 0.025, 1e-9);
	assert_float_equal(p.b, 0.45, 1e-9);
	assert_float_equal(p.c1, 2, 1e-9);
	assert_float_equal(p.c0, 0.6, 1e-9);
	/* sqrt(0.45 * 0.6 / (0.025 * 2)) = 2.32 s, two digits */
	assert_float_equal(p.run_s, 2.3, 1e-9);
	/* the noise all averages out: ten times the overhead's share */
	m[0].log_ratio_sd = sqrt(0.45);
	m[1].log_ratio_sd = sqrt(0.15);
	m[2].log_ratio_sd = sqrt(0.045);
	noise_pick_time(m, 3, 3, &p);
	assert_string_equal(p.why, "the run's own noise dominates");
	assert_float_equal(p.run_s, 3, 1e-9);
	/* longer runs do not help: the shortest measured */
	m[0].log_ratio_sd = m[1].log_ratio_sd = m[2].log_ratio_sd = 0.2;
	noise_pick_time(m, 3, 3, &p);
	assert_string_equal(p.why, "longer runs do not help");
	assert_float_equal(p.run_s, 1, 1e-9);
	noise_pick_time(m, 1, 3, &p);
	assert_string_equal(p.why, "one run length measured");
	assert_float_equal(p.run_s, 3, 0);
	noise_pick_time(m, 0, 3, &p);
	assert_string_equal(p.why, "nothing measured");
}

/* The table: none until the first write; the newest rows pooled. */
static void test_store(void **state)
{
	const double d[] = {0.1, -0.1, 0.2, 0.0, -0.2, 0.05, 0.1, -0.05};
	char dir[] = "/tmp/test_noise.XXXXXX", db[64], cmd[96];
	char id[STORE_ID_LEN + 1];
	struct strbuf err = STRBUF_INIT;
	struct noise_model m;
	struct noise_row r1 = {
	    .run_s = 3, .blocks = 11, .log_ratio_sd = 0.2, .block_s = 6};
	struct noise_row r2 = {
	    .run_s = 3, .blocks = 21, .log_ratio_sd = 0.1, .block_s = 3};
	struct noise_row r3 = {
	    .run_s = 1, .blocks = 30, .log_ratio_sd = 0.3, .block_s = 2};
	struct noise_model ms[STORE_NOISE_LENGTHS];
	unsigned nr;
	struct store s;
	int i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(db, sizeof(db), "%s/results.db", dir);
	assert_int_equal(store_open(&s, db, &err), 0);
	assert_int_equal(store_noise_get(&s, "k", 3, &m, &err), 0);
	assert_int_equal(m.experiments, 0);
	{
		struct experiment_doc e;
		struct log_columns cols;

		exp_of(&e, d, 8, 1);
		log_columns_of_doc(&e, &cols);
		assert_int_equal(store_save_doc(&s, &e, &cols, id, &err), 0);
		log_columns_release(&cols);
		experiment_doc_release(&e);
	}
	assert_int_equal(store_noise_add(&s, id, "k", &r1, &err), 0);
	assert_int_equal(store_noise_add(&s, id, "k", &r2, &err), 0);
	assert_int_equal(store_noise_add(&s, id, "other", &r1, &err), 0);
	assert_int_equal(store_noise_get(&s, "k", 3, &m, &err), 0);
	assert_int_equal(m.experiments, 2);
	assert_int_equal(m.blocks, 32);
	assert_float_equal(m.log_ratio_sd, sqrt((10 * 0.04 + 20 * 0.01) / 30.0),
			   1e-12);
	assert_float_equal(m.block_s, (11 * 6 + 21 * 3) / 32.0, 1e-12);
	/* only the newest STORE_NOISE_POOL count */
	for (i = 0; i < STORE_NOISE_POOL; i++)
		assert_int_equal(store_noise_add(&s, id, "k", &r2, &err), 0);
	assert_int_equal(store_noise_get(&s, "k", 3, &m, &err), 0);
	assert_int_equal(m.experiments, STORE_NOISE_POOL);
	assert_float_equal(m.log_ratio_sd, 0.1, 1e-12);
	/* another run length is another model; --ios rows are not one */
	assert_int_equal(store_noise_add(&s, id, "k", &r3, &err), 0);
	r3.run_s = 0;
	assert_int_equal(store_noise_add(&s, id, "k", &r3, &err), 0);
	assert_int_equal(store_noise_get(&s, "k", 1, &m, &err), 0);
	assert_int_equal(m.experiments, 1);
	assert_int_equal(store_noise_lengths(&s, "k", ms, &nr, &err), 0);
	assert_int_equal(nr, 2);
	assert_float_equal(ms[0].run_s, 1, 0);
	assert_float_equal(ms[1].run_s, 3, 0);
	store_close(&s);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_key),	  cmocka_unit_test(test_row),
	    cmocka_unit_test(test_cost),  cmocka_unit_test(test_pick),
	    cmocka_unit_test(test_store),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
