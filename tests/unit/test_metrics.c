/*
 * The metric table: lookup with suggestions, a workload's own default
 * and extra metrics, each metric's value from a run result, and the
 * budget estimate that plans an experiment.
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
#include "core/experiment/experiment.h"
#include "core/experiment/metrics.h"
#include "core/model/model_json.h"
#include "core/result/hist.h"
#include "core/stats/stats.h"
#include "util/xalloc.h"

static double ops_per_s(const struct workload *w, const struct run_result *r)
{
	(void)w;
	return r->seconds > 0
		   ? (double)(r->ops[IO_READ] + r->ops[IO_WRITE]) / r->seconds
		   : NAN;
}

static const struct metric_def own[] = {
    {"ops_per_s", "ops/s", true, "file operations per second", ops_per_s},
    {NULL, NULL, false, NULL, NULL},
};

/* A workload that declares its own default metric, as smallfiles will. */
static const struct param_spec no_params[] = {{0}};
static const char *files_metric(const struct workload *w)
{
	(void)w;
	return "ops_per_s";
}

static const struct workload_ops files_ops = {
    .name = "files",
    .params = no_params,
    .default_metric = files_metric,
    .metrics = own,
};

static void test_lookup(void **state)
{
	const struct workload_ops *rr = workload_find("randread");
	const struct workload_ops *sr = workload_find("seqread");
	const struct metric_def *m;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_string_equal(metric_default_for(rr, NULL, 0)->name, "iops");
	assert_string_equal(metric_default_for(sr, NULL, 0)->name, "mbps");
	assert_int_equal(metric_lookup(rr, NULL, NULL, 0, &m, &err), 0);
	assert_string_equal(m->name, "iops");
	assert_int_equal(metric_lookup(rr, "read_p99", NULL, 0, &m, &err), 0);
	assert_false(m->higher_is_better);
	assert_string_equal(m->unit, "ns");
	assert_int_equal(metric_lookup(rr, "wall", NULL, 0, &m, &err), 0);
	assert_false(m->higher_is_better);
	assert_int_equal(metric_lookup(rr, "device_mbps", NULL, 0, &m, &err),
			 0);
	assert_true(m->higher_is_better);
	assert_int_equal(metric_lookup(rr, "p98", NULL, 0, &m, &err), -ENOENT);
	assert_non_null(strstr(err.buf, "did you mean 'p99'"));
	assert_non_null(strstr(err.buf, "iops, mbps, device_mbps"));
	assert_null(metric_find(rr, "ops_per_s"));
	strbuf_release(&err);
}

/* The default metric is the workload's hook's answer for the parameters
 * given: exec is judged by its wall time, or by the number it prints
 * once metric-from or metric-cmd says how to read it. */
static void test_default_from_params(void **state)
{
	const struct workload_ops *ex = workload_find("exec");
	const struct param_setting from[] = {{"cmd", "true"},
					     {"metric-from", "([0-9]+) ops"}};
	const struct param_setting cmd[] = {{"metric-cmd", "echo 1"}};
	const struct metric_def *m;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_string_equal(metric_default_for(ex, NULL, 0)->name, "wall");
	assert_string_equal(metric_default_for(ex, from, 1)->name, "wall");
	assert_string_equal(metric_default_for(ex, from, 2)->name, "printed");
	assert_int_equal(metric_lookup(ex, NULL, cmd, 1, &m, &err), 0);
	assert_string_equal(m->name, "printed");
	assert_int_equal(metric_lookup(ex, "wall", cmd, 1, &m, &err), 0);
	assert_string_equal(m->name, "wall");
	strbuf_release(&err);
}

static void test_own_metric(void **state)
{
	const struct metric_def *m = metric_default_for(&files_ops, NULL, 0);
	struct strbuf names = STRBUF_INIT;

	(void)state;
	assert_string_equal(m->name, "ops_per_s");
	assert_true(m->higher_is_better);
	assert_ptr_equal(metric_find(&files_ops, "ops_per_s"), m);
	assert_non_null(metric_find(&files_ops, "p99"));
	metric_names(&files_ops, &names);
	assert_int_equal(strncmp(names.buf, "ops_per_s, iops, ", 17), 0);
	strbuf_release(&names);
}

static void test_values(void **state)
{
	const struct workload_ops *rr = workload_find("randread");
	struct workload w;
	struct run_result r;
	unsigned i;

	(void)state;
	workload_init(&w, rr);
	run_result_init(&r);
	r.seconds = 2;
	r.ops[IO_READ] = 100;
	r.bytes[IO_READ] = 100 * 4096;
	for (i = 1; i <= 100; i++)
		hist_record(&r.lat[IO_READ], i * 1000);
	assert_true(fabs(metric_value(metric_find(rr, "iops"), &w, &r) - 50) <
		    1e-9);
	assert_true(fabs(metric_value(metric_find(rr, "wall"), &w, &r) - 2) <
		    1e-9);
	/* reads only: p99 is the read p99; no writes, no write latency */
	assert_true(metric_value(metric_find(rr, "p99"), &w, &r) ==
		    metric_value(metric_find(rr, "read_p99"), &w, &r));
	assert_true(isnan(metric_value(metric_find(rr, "write_p99"), &w, &r)));
	/* no device truth: no device MB/s */
	assert_true(
	    isnan(metric_value(metric_find(rr, "device_mbps"), &w, &r)));
	/* a slow write makes the merged p999 at least as slow as reads' */
	r.ops[IO_WRITE] = 1;
	hist_record(&r.lat[IO_WRITE], 5000000);
	assert_true(metric_value(metric_find(rr, "p999"), &w, &r) >=
		    metric_value(metric_find(rr, "read_p999"), &w, &r));
	run_result_release(&r);
	workload_release(&w);
}

/* A run's metrics into its document: the finite ones, by name. */
static void test_values_doc(void **state)
{
	const struct workload_ops *rr = workload_find("randread");
	struct workload w;
	struct run_result r;
	struct run_doc doc;
	struct exp_metric m;
	size_t i, iops = SIZE_MAX;

	(void)state;
	workload_init(&w, rr);
	run_result_init(&r);
	r.seconds = 2;
	r.ops[IO_READ] = 100;
	r.bytes[IO_READ] = 100 * 4096;
	hist_record(&r.lat[IO_READ], 1000);
	run_doc_init(&doc);
	metric_values_doc(&w, &r, &doc);
	for (i = 0; i < doc.nr_metrics; i++) {
		assert_true(isfinite(doc.metrics[i].value));
		assert_null(strstr(doc.metrics[i].name, "write"));
		if (!strcmp(doc.metrics[i].name, "iops"))
			iops = i;
	}
	assert_true(iops < doc.nr_metrics);
	assert_float_equal(doc.metrics[iops].value, 50, 1e-9);
	run_doc_release(&doc);
	metric_to_doc(metric_find(rr, "p99"), &m);
	assert_string_equal(m.name, "p99");
	assert_string_equal(m.unit, "ns");
	assert_false(m.higher_is_better);
	free(m.name);
	free(m.unit);
	run_result_release(&r);
	workload_release(&w);
}

/* Each arm's median of each metric its runs carry, and what they are. */
static void test_arm_medians_doc(void **state)
{
	static const double iops[] = {10, 30, 20, 100};
	struct experiment_doc e;
	size_t i;

	(void)state;
	experiment_doc_init(&e);
	e.arms = xcalloc(3, sizeof(*e.arms));
	e.nr_arms = 3; /* the third has no runs */
	e.runs = xcalloc(5, sizeof(*e.runs));
	e.nr_runs = 5; /* the fifth has no run object (a fleet's) */
	for (i = 0; i < 4; i++) {
		struct run_doc *run = xcalloc(1, sizeof(*run));

		e.runs[i].arm = i < 3 ? 0 : 1;
		e.runs[i].run = run;
		run->metrics = xcalloc(1, sizeof(*run->metrics));
		run->nr_metrics = 1;
		run->metrics[0].name = xstrdup("iops");
		run->metrics[0].value = iops[i];
	}
	metric_arm_medians_doc(&e, &files_ops);
	assert_int_equal(e.arms[0].has_metrics, MODEL_SET);
	assert_int_equal(e.arms[0].nr_metrics, 1);
	assert_string_equal(e.arms[0].metrics[0].name, "iops");
	assert_float_equal(e.arms[0].metrics[0].value, 20, 0);
	assert_float_equal(e.arms[1].metrics[0].value, 100, 0);
	assert_int_equal(e.arms[2].has_metrics, MODEL_ABSENT);
	/* only the metrics some arm has a median of are described */
	assert_int_equal(e.has_metrics, MODEL_SET);
	assert_int_equal(e.nr_metrics, 1);
	assert_string_equal(e.metrics[0].name, "iops");
	assert_string_equal(e.metrics[0].unit, "IO/s");
	assert_true(e.metrics[0].higher_is_better);
	assert_int_equal(e.metrics[0].has_shown, MODEL_SET);
	assert_true(e.metrics[0].shown);
	experiment_doc_release(&e);
}

/* 12 arms of 3 s with a 40 s budget: 1 block; a verdict needs 9. */
static void test_budget(void **state)
{
	struct experiment_config ec;
	struct budget_opts c;
	struct experiment_budget b;
	struct strbuf msg = STRBUF_INIT;

	(void)state;
	experiment_config_init(&ec);
	experiment_budget_opts(&ec, &c);
	c.time_ns = 3000000000ull;
	c.budget_ns = 40000000000ull;
	experiment_budget_estimate(&c, 12, -1, &b);
	assert_int_equal(b.min_blocks, 9);
	assert_int_equal(b.blocks, 1);
	assert_string_equal(b.limit, "--budget");
	assert_int_equal(experiment_budget_short(&b, &c, &msg), 1);
	assert_non_null(strstr(msg.buf, "needs at least 9 blocks"));
	/* 6 blocks of 2 arms fit in 45 s */
	strbuf_reset(&msg);
	c.budget_ns = 45000000000ull;
	experiment_budget_estimate(&c, 2, -1, &b);
	assert_int_equal(b.min_blocks, 6);
	assert_int_equal(experiment_budget_short(&b, &c, &msg), 0);
	/* --ios: unknown until a block is measured, then judged */
	c.time_ns = 0;
	c.ios = 1000;
	c.budget_ns = 10000000000ull;
	experiment_budget_estimate(&c, 2, -1, &b);
	assert_int_equal(experiment_budget_short(&b, &c, &msg), 0);
	experiment_budget_estimate(&c, 2, 2.0, &b);
	assert_int_equal(b.blocks, 2);
	assert_int_equal(experiment_budget_short(&b, &c, &msg), 1);
	/* fixed runs are what the user asked for */
	c.runs_fixed = 2;
	experiment_budget_estimate(&c, 2, 2.0, &b);
	assert_int_equal(experiment_budget_short(&b, &c, &msg), 0);
	strbuf_release(&msg);
}

/* A hand-built experiment of 3 arms over nr_blocks blocks, stopped on
 * stopped: arm 1's per-block log ratio to arm 0 is d1[b], arm 2's d2[b];
 * one more run has no block (unpaired) and one a null metric. */
static void advice_exp(struct experiment_doc *e, const char *factor,
		       const char *stopped, const double *d1, const double *d2,
		       unsigned nr_blocks)
{
	size_t b, a, k = 0;

	experiment_doc_init(e);
	e->factors = xcalloc(1, sizeof(*e->factors));
	e->nr_factors = 1;
	e->has_factors = MODEL_SET;
	e->factors[0].name = xstrdup(factor);
	e->arms = xcalloc(3, sizeof(*e->arms));
	e->nr_arms = 3;
	for (a = 0; a < 3; a++) {
		e->arms[a].arm = (int64_t)a;
		e->arms[a].label = xstrdup(a == 0 ? "a" : a == 1 ? "b" : "c");
	}
	e->runs = xcalloc(3 * nr_blocks + 2, sizeof(*e->runs));
	for (b = 0; b < nr_blocks; b++)
		for (a = 0; a < 3; a++, k++) {
			e->runs[k].arm = (int64_t)a;
			e->runs[k].block = (int64_t)b;
			e->runs[k].has_block = MODEL_SET;
			e->runs[k].metric = a == 0   ? 100
					    : a == 1 ? 100 * exp(d1[b])
						     : 100 * exp(d2[b]);
		}
	e->runs[k].arm = 2; /* unpaired: no block */
	e->runs[k++].metric = 1e9;
	e->runs[k].arm = 2;
	e->runs[k].block = 0;
	e->runs[k].has_block = MODEL_SET;
	e->runs[k++].metric = NAN; /* null: a later run of block 0 */
	e->nr_runs = k;
	e->baseline = 0;
	e->has_baseline = MODEL_SET;
	e->blocks = nr_blocks;
	e->stopped = xstrdup(stopped);
}

/*
 * The advice of a limit, from the typed experiment: the widest arm's
 * spread of per-block log ratios, the blocks and budget +-precision
 * takes (n = (z sd / atanh(p))^2, at least the fewest for a verdict and
 * one more than run), A/A when only 'label' varies; nothing when no
 * limit stopped it; with one block, no spread.
 */
static void test_advice_doc(void **state)
{
	static const double d1[] = {0.01, -0.01, 0.02, 0.0};
	static const double d2[] = {0.1, -0.1, 0.2, 0.0};
	const double z = 1.959963984540054;
	struct budget_opts c = {.alpha = 0.05, .precision = 0.01};
	struct experiment_budget b = {
	    .min_blocks = 9, .block_s = 3, .warmup_s = 1};
	struct experiment_doc e;
	double sd = stats_sd(d2 + 1, 3), need; /* block 0 of c is null */

	(void)state;
	advice_exp(&e, "label", "budget spent", d1, d2, 4);
	experiment_advice_doc(&e, &c, &b);
	assert_non_null(e.advice);
	assert_string_equal(e.advice->stopped, "budget spent");
	assert_int_equal(e.advice->blocks, 4);
	assert_float_equal(e.advice->precision, 0.01, 0);
	assert_string_equal(e.advice->arm, "c");
	assert_int_equal(e.advice->has_log_ratio_sd, MODEL_SET);
	assert_float_equal(e.advice->log_ratio_sd, sd, 1e-12);
	assert_float_equal(e.advice->halfwidth, tanh(z * sd / 2), 1e-9);
	need = ceil(pow(z * sd / atanh(0.01), 2));
	assert_true(need > 9);
	assert_int_equal(e.advice->blocks_needed, (int64_t)need);
	assert_int_equal(e.advice->more_blocks, (int64_t)need - 4);
	assert_int_equal(e.advice->min_blocks, 9);
	assert_int_equal(e.advice->has_block_s, MODEL_SET);
	assert_float_equal(e.advice->budget_s, ceil(1 + need * 3), 0);
	assert_true(e.advice->aa);
	/* asked again: replaced, not added */
	c.precision = 0.5;
	experiment_advice_doc(&e, &c, &b);
	assert_int_equal(e.advice->blocks_needed, 9);
	experiment_doc_release(&e);

	/* a factor other than 'label': not A/A; no block time: no budget */
	b.block_s = -1;
	advice_exp(&e, "bs", "max runs", d1, d2, 4);
	experiment_advice_doc(&e, &c, &b);
	assert_false(e.advice->aa);
	assert_int_equal(e.advice->has_block_s, MODEL_ABSENT);
	assert_int_equal(e.advice->has_budget_s, MODEL_ABSENT);
	experiment_doc_release(&e);

	/* one block: no spread, the fewest blocks for a verdict */
	advice_exp(&e, "bs", "max runs", d1, d2, 1);
	experiment_advice_doc(&e, &c, &b);
	assert_null(e.advice->arm);
	assert_int_equal(e.advice->has_log_ratio_sd, MODEL_ABSENT);
	assert_int_equal(e.advice->has_halfwidth, MODEL_ABSENT);
	assert_int_equal(e.advice->blocks_needed, 9);
	experiment_doc_release(&e);

	/* stopped otherwise, or fixed runs: no advice */
	advice_exp(&e, "bs", "precision reached", d1, d2, 4);
	experiment_advice_doc(&e, &c, &b);
	assert_null(e.advice);
	experiment_doc_release(&e);
	advice_exp(&e, "bs", "max runs", d1, d2, 4);
	e.blocks = -1; /* a document's number, not an unsigned */
	experiment_advice_doc(&e, &c, &b);
	assert_null(e.advice);
	experiment_doc_release(&e);
	advice_exp(&e, "bs", "max runs", d1, d2, 4);
	c.runs_fixed = 4;
	experiment_advice_doc(&e, &c, &b);
	assert_null(e.advice);
	experiment_doc_release(&e);
}

/* Each of keys (NULL-terminated) is a member of text after the one
 * before, from text on. */
static void keys_in_order(const char *text, const char *const *keys)
{
	struct strbuf k = STRBUF_INIT;
	const char *p = text;

	for (; *keys; keys++) {
		strbuf_reset(&k);
		strbuf_addf(&k, "\"%s\":", *keys);
		p = strstr(p, k.buf);
		if (!p)
			fail_msg("no '%s' in order in %s", *keys, text);
	}
	strbuf_release(&k);
}

/*
 * The loop's end on a document read back: the advice and the medians
 * set on it print as the model writes them, the arms' medians in the
 * arm that has them only.
 */
static void test_printed(void **state)
{
	static const double d[] = {0.1, -0.1, 0.2, 0.0};
	static const char *const top[] = {"arms", "metrics", "stopped",
					  "advice", NULL};
	static const char *const advice[] = {"stopped",
					     "blocks",
					     "precision",
					     "arm",
					     "log_ratio_sd",
					     "halfwidth",
					     "blocks_needed",
					     "more_blocks",
					     "min_blocks",
					     "block_s",
					     "budget_s",
					     "aa",
					     NULL};
	static const char text[] =
	    "{\"schema\": \"iotrial/1\", \"type\": \"experiment\", "
	    "\"arms\": [{\"arm\": 0, \"label\": \"a\"}, {\"arm\": 1, "
	    "\"label\": \"b\"}, {\"arm\": 2, \"label\": \"c\"}], "
	    "\"metrics\": [], \"stopped\": \"max runs\"}";
	struct budget_opts c = {.alpha = 0.05, .precision = 0.01};
	struct experiment_budget b = {.min_blocks = 6, .block_s = 2};
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct experiment_doc e, t;
	const char *p;

	(void)state;
	advice_exp(&e, "label", "max runs", d, d, 4);
	experiment_advice_doc(&e, &c, &b);
	assert_int_equal(
	    experiment_doc_decode(text, sizeof(text) - 1, &t, 0, &err), 0);
	t.advice = e.advice;
	e.advice = NULL;
	t.arms[1].metrics = xcalloc(1, sizeof(*t.arms[1].metrics));
	t.arms[1].metrics[0].name = xstrdup("iops");
	t.arms[1].metrics[0].value = 1234.5;
	t.arms[1].nr_metrics = 1;
	t.arms[1].has_metrics = MODEL_SET;
	assert_int_equal(t.nr_metrics, 0);
	free(t.metrics); /* "metrics": [], the document's own */
	t.metrics = xcalloc(1, sizeof(*t.metrics));
	t.nr_metrics = 1;
	t.has_metrics = MODEL_SET;
	metric_to_doc(metric_find(&files_ops, "iops"), &t.metrics[0]);
	t.metrics[0].shown = true;
	t.metrics[0].has_shown = MODEL_SET;
	experiment_doc_encode(&t, MODEL_ENCODE_PLAIN, &out);
	keys_in_order(out.buf, top);
	p = strstr(out.buf, "\"advice\":");
	assert_non_null(p);
	keys_in_order(p, advice);
	assert_non_null(strstr(out.buf, "{\"arm\":0,\"label\":\"a\"},"));
	assert_non_null(strstr(out.buf, "{\"arm\":1,\"label\":\"b\","
					"\"metrics\":{\"iops\":1234.5}}"));
	assert_non_null(strstr(out.buf, "\"metrics\":[{\"name\":\"iops\","
					"\"higher_is_better\":true,\"unit\":"
					"\"IO/s\",\"shown\":true}]"));
	experiment_doc_release(&t);
	experiment_doc_release(&e);
	/* the skeleton's metric: no "shown" */
	experiment_doc_init(&t);
	t.metric = xcalloc(1, sizeof(*t.metric));
	metric_to_doc(metric_find(&files_ops, "p99"), t.metric);
	strbuf_reset(&out);
	experiment_doc_encode(&t, MODEL_ENCODE_PLAIN, &out);
	assert_non_null(strstr(out.buf, "\"metric\":{\"name\":\"p99\","
					"\"higher_is_better\":false,\"unit\":"
					"\"ns\"}"));
	experiment_doc_release(&t);
	strbuf_release(&out);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_lookup),
	    cmocka_unit_test(test_own_metric),
	    cmocka_unit_test(test_default_from_params),
	    cmocka_unit_test(test_values),
	    cmocka_unit_test(test_values_doc),
	    cmocka_unit_test(test_arm_medians_doc),
	    cmocka_unit_test(test_budget),
	    cmocka_unit_test(test_advice_doc),
	    cmocka_unit_test(test_printed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
