/*
 * Experiments without I/O: planning arms (cartesian product, baseline,
 * the arm limit) and analysing an experiment object's runs into
 * summaries and verdicts.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "core/experiment/analyze_doc.h"
#include "core/experiment/experiment.h"
#include "core/model/model_json.h"
#include "core/report/page.h"
#include "core/workload/rw.h"
#include "util/rng.h"
#include "util/xalloc.h"

static char *vals_a[] = {"none", "mq-deadline", "bfq"};
static char *vals_b[] = {"4k", "1M"};
static const struct param_setting fixed[] = {{"size", "4M"}};

static void config(struct experiment_config *c, struct experiment_factor *f)
{
	memset(c, 0, sizeof(*c));
	memset(f, 0, 2 * sizeof(*f));
	f[0].name = "scheduler";
	f[0].is_knob = 1;
	f[0].values = vals_a;
	f[0].nr_values = 3;
	f[1].name = "bs";
	f[1].values = vals_b;
	f[1].nr_values = 2;
	c->factors = f;
	c->nr_factors = 2;
	c->max_arms = 64;
	c->ops = workload_find("randread");
	c->params = fixed;
	c->nr_params = 1;
}

static void test_plan(void **state)
{
	struct experiment_factor f[2];
	struct experiment_config c;
	struct experiment e;
	struct strbuf err = STRBUF_INIT;
	const struct rw_params *p;

	(void)state;
	config(&c, f);
	assert_int_equal(experiment_plan(&e, &c, &err), 0);
	assert_int_equal(e.nr_arms, 6);
	assert_int_equal(e.baseline, 0);
	assert_string_equal(e.arms[0].label, "scheduler=none bs=4k");
	assert_string_equal(e.arms[1].label, "scheduler=none bs=1M");
	assert_string_equal(e.arms[5].label, "scheduler=bfq bs=1M");
	assert_true(e.arms[5].settings[0].is_knob);
	assert_false(e.arms[5].settings[1].is_knob);
	assert_int_equal(experiment_validate(&e, &c, &err), 0);
	/* each arm's parameters parsed once, the runs take those values */
	assert_non_null(e.arm_w);
	p = e.arm_w[1].params;
	assert_int_equal(p->bs_bytes, 1048576);
	assert_int_equal(p->common.size_bytes, 4194304);
	{
		struct workload w;

		e.arm_w[1].values[0].u = 12345; /* not what any text says */
		c.ro.ios = 7;
		assert_int_equal(experiment_arm_workload(&w, &e, 1, &c, &err),
				 0);
		p = w.params;
		assert_int_equal(p->bs_bytes, 12345);
		assert_int_equal(w.ro.ios, 7);
		assert_string_equal(workload_given(&w, &p->bs_bytes)->s, "1M");
		workload_release(&w);
		c.ro.ios = 0;
	}
	experiment_release(&e);

	c.baseline = "scheduler=bfq bs=4k";
	assert_int_equal(experiment_plan(&e, &c, &err), 0);
	assert_int_equal(e.baseline, 4);
	experiment_release(&e);

	c.baseline = "nope";
	assert_int_equal(experiment_plan(&e, &c, &err), -ENOENT);
	assert_non_null(strstr(err.buf, "not one of the arms"));
	experiment_release(&e);

	c.baseline = NULL;
	c.max_arms = 5;
	assert_int_equal(experiment_plan(&e, &c, &err), -E2BIG);
	assert_non_null(strstr(err.buf, "3 x 2"));
	assert_non_null(strstr(err.buf, "--max-arms"));
	experiment_release(&e);
	strbuf_release(&err);
}

/*
 * A translated knob value: the label shows what is set and what was
 * asked; --baseline finds the arm by either spelling (the JSON arm is
 * checked by tests/cli/compare_translate.sh).
 */
static void test_plan_translated(void **state)
{
	static char *vals[] = {"none", "cfq"};
	static char *canon[] = {NULL, "bfq"};
	static const char *const names[] = {"scheduler=cfq", "scheduler=bfq",
					    "cfq", "bfq",
					    "scheduler=bfq (asked: cfq)"};
	struct experiment_factor f[1] = {{"scheduler", 1, vals, 2, canon}};
	struct experiment_config c;
	struct experiment e;
	struct strbuf err = STRBUF_INIT;
	size_t i;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.factors = f;
	c.nr_factors = 1;
	c.max_arms = 64;
	c.ops = workload_find("randread");
	assert_int_equal(experiment_plan(&e, &c, &err), 0);
	assert_string_equal(e.arms[0].label, "scheduler=none");
	assert_string_equal(e.arms[1].label, "scheduler=bfq (asked: cfq)");
	experiment_release(&e);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		c.baseline = names[i];
		assert_int_equal(experiment_plan(&e, &c, &err), 0);
		assert_int_equal(e.baseline, 1);
		experiment_release(&e);
	}
	strbuf_release(&err);
}

/*
 * A knob asked for by its Linux 2.4 name: the label says what is set,
 * under the knob's own name, and what was asked; --baseline finds the
 * arm by either.
 */
static void test_plan_old_name(void **state)
{
	static char *vals[] = {"10", "80"};
	static const char *const names[] = {
	    "bdflush.nfract=80", "vm.dirty_background_ratio=80", "80",
	    "vm.dirty_background_ratio=80 (asked: bdflush.nfract=80)"};
	struct experiment_factor f[1] = {
	    {"bdflush.nfract", 1, vals, 2, NULL, "vm.dirty_background_ratio"}};
	struct experiment_config c;
	struct experiment e;
	struct strbuf err = STRBUF_INIT;
	size_t i;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.factors = f;
	c.nr_factors = 1;
	c.max_arms = 64;
	c.ops = workload_find("seqwrite");
	assert_int_equal(experiment_plan(&e, &c, &err), 0);
	assert_string_equal(
	    e.arms[0].label,
	    "vm.dirty_background_ratio=10 (asked: bdflush.nfract=10)");
	experiment_release(&e);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		c.baseline = names[i];
		assert_int_equal(experiment_plan(&e, &c, &err), 0);
		assert_int_equal(e.baseline, 1);
		experiment_release(&e);
	}
	strbuf_release(&err);
}

/*
 * A workload whose first set-up lays out its files (slow: 400 ms) and
 * whose runs are quick, as a large --size with a short --ios is.
 */
static unsigned fake_prepares;
static long fake_every_ns; /* each set-up's cost after the first */

static const struct param_spec fake_params[] = {
    {"label", PARAM_STRING, "", 0, 0, NULL, "free text"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static int fake_prepare(struct workload *w, struct target *t,
			struct strbuf *err)
{
	struct timespec lay = {0, 400 * 1000 * 1000};

	(void)w;
	(void)t;
	(void)err;
	if (fake_prepares++)
		lay.tv_nsec = fake_every_ns;
	nanosleep(&lay, NULL);
	return 0;
}

static int fake_run(struct workload *w, struct run_result *r,
		    struct strbuf *err)
{
	(void)w;
	(void)err;
	r->seconds = 0.001;
	r->ops[IO_READ] = 100 + fake_prepares % 7; /* some spread */
	r->bytes[IO_READ] = r->ops[IO_READ] * 4096;
	return 0;
}

static void fake_cleanup(struct workload *w)
{
	(void)w;
}

static const struct workload_ops fake_ops = {
    .name = "fake",
    .summary = "lays out once, runs quickly",
    .params = fake_params,
    .prepare = fake_prepare,
    .run = fake_run,
    .cleanup = fake_cleanup,
};

/*
 * The budget is judged from the runs as they will be, not from the
 * first block that laid out the files: 400 ms of layout over two runs
 * would make a block 0.4 s and a 1 s budget about 2 blocks, short of
 * the 6 a verdict needs; the runs themselves take a millisecond.
 */
static void test_budget_after_layout(void **state)
{
	static char *labels[] = {"a", "b"};
	struct experiment_factor f[1] = {{"label", 0, labels, 2, NULL, NULL}};
	struct experiment_hooks h = {0};
	struct experiment_config c;
	struct experiment e;
	struct target t = {.spec = "fake", .path = "fake"};
	struct strbuf err = STRBUF_INIT;
	size_t i;

	(void)state;
	experiment_config_init(&c);
	c.ops = &fake_ops;
	c.target = &t;
	c.factors = f;
	c.nr_factors = 1;
	c.ro.ios = 100; /* no run length to estimate from before a run */
	c.budget_ns = 1000000000ull;
	c.max_runs = 8;
	c.drop_caches = 0;
	c.seed = 1;
	fake_prepares = 0;
	fake_every_ns = 0;
	assert_int_equal(experiment_plan(&e, &c, &err), 0);
	assert_int_equal(experiment_run(&e, &c, &h, &err), 0);
	for (i = 0; i < e.doc->nr_warnings; i++)
		assert_null(strstr(e.doc->warnings[i], "--budget"));
	/* the verdict's 6 blocks were run: the budget did not stop it */
	assert_true(e.doc->blocks >= 6);
	assert_string_not_equal(e.doc->stopped, "budget spent");
	experiment_release(&e);

	/*
	 * Every set-up costs 150 ms (arms that lay out files of their own):
	 * the second block shows it, the warning comes then, and at the end
	 * it is said again from every block run.
	 */
	fake_prepares = 0;
	fake_every_ns = 150 * 1000 * 1000;
	assert_int_equal(experiment_plan(&e, &c, &err), 0);
	assert_int_equal(experiment_run(&e, &c, &h, &err), 0);
	for (i = 0; i < e.doc->nr_warnings; i++)
		if (strstr(e.doc->warnings[i], "--budget 1s allows about"))
			break;
	assert_true(i < e.doc->nr_warnings);
	assert_non_null(strstr(e.doc->warnings[i], "each, as measured over "));
	experiment_release(&e);
	strbuf_release(&err);
}

/* A workload whose first run warns of other I/O and every later run of
 * the page cache. */
static unsigned warn_runs;

static int warn_prepare(struct workload *w, struct target *t,
			struct strbuf *err)
{
	(void)w;
	(void)t;
	(void)err;
	return 0;
}

static int warn_run(struct workload *w, struct run_result *r,
		    struct strbuf *err)
{
	(void)w;
	(void)err;
	r->seconds = 0.001;
	r->ops[IO_READ] = 100 + warn_runs % 7;
	r->bytes[IO_READ] = r->ops[IO_READ] * 4096;
	if (!warn_runs++)
		run_result_warn_kind(r, RUN_WARN_OTHER_IO,
				     "other I/O ran on 'vdx' during the run");
	else
		run_result_warn_kind(r, RUN_WARN_PAGE_CACHE,
				     "reads measured the page cache, not the "
				     "device");
	return 0;
}

static const struct workload_ops warn_ops = {
    .name = "fake",
    .summary = "warns",
    .params = fake_params,
    .prepare = warn_prepare,
    .run = warn_run,
    .cleanup = fake_cleanup,
};

/*
 * An arm's warning line gives as its example the kind most of its runs
 * carried, not the first run's (issue 30: the "e.g." came from 1 run
 * of 15 and the 14 others had another flag), and names the rest.
 */
static void test_arm_warning_commonest(void **state)
{
	static char *labels[] = {"a"};
	struct experiment_factor f[1] = {{"label", 0, labels, 1, NULL, NULL}};
	struct experiment_hooks h = {0};
	struct experiment_config c;
	struct experiment e;
	struct target t = {.spec = "fake", .path = "fake"};
	struct strbuf err = STRBUF_INIT;
	const char *line = NULL;
	size_t i;

	(void)state;
	experiment_config_init(&c);
	c.ops = &warn_ops;
	c.target = &t;
	c.factors = f;
	c.nr_factors = 1;
	c.ro.ios = 100;
	c.runs_fixed = 15;
	c.drop_caches = 0;
	c.seed = 1;
	warn_runs = 0;
	assert_int_equal(experiment_plan(&e, &c, &err), 0);
	assert_int_equal(experiment_run(&e, &c, &h, &err), 0);
	for (i = 0; i < e.doc->nr_warnings; i++)
		if (strstr(e.doc->warnings[i], "runs warned"))
			line = e.doc->warnings[i];
	assert_non_null(line);
	assert_string_equal(line, "arm 'label=a': 15 of 15 runs warned; most "
				  "often (14 runs): reads measured the page "
				  "cache, not the device; also: other_io (1 "
				  "run)");
	experiment_release(&e);
	strbuf_release(&err);
}

/* The fake workload again, taking one seed per block. */
static const struct workload_ops fake_block_seed_ops = {
    .name = "fake",
    .summary = "lays out once, runs quickly, one seed per block",
    .params = fake_params,
    .prepare = fake_prepare,
    .run = fake_run,
    .cleanup = fake_cleanup,
    .seed_per_block = 1,
};

/* The seeds of e's runs, by block (up to 8 blocks) and arm (2). */
static void run_seeds(const struct experiment *e, int64_t seeds[8][2])
{
	size_t i;

	for (i = 0; i < e->doc->nr_runs; i++) {
		const struct exp_run *r = &e->doc->runs[i];
		int b = (int)r->block, a = (int)r->arm;

		assert_in_range(b, 0, 7);
		assert_int_equal(r->run->seed.type, MODEL_V_INT);
		seeds[b][a] = r->run->seed.i;
	}
}

/*
 * A workload that asks for it gets one seed per block: both arms of a
 * block do the same work, and the next block draws a new one; other
 * workloads draw a seed per run.
 */
static void test_seed_per_block(void **state)
{
	static char *labels[] = {"a", "b"};
	struct experiment_factor f[1] = {{"label", 0, labels, 2, NULL, NULL}};
	struct experiment_hooks h = {0};
	struct experiment_config c;
	struct experiment e;
	struct target t = {.spec = "fake", .path = "fake"};
	struct strbuf err = STRBUF_INIT;
	int64_t seeds[8][2];
	unsigned b;

	(void)state;
	experiment_config_init(&c);
	c.ops = &fake_block_seed_ops;
	c.target = &t;
	c.factors = f;
	c.nr_factors = 1;
	c.ro.ios = 100;
	c.runs_fixed = 4;
	c.drop_caches = 0;
	c.seed = 3;
	fake_prepares = 1; /* no 400 ms layout */
	fake_every_ns = 0;
	assert_int_equal(experiment_plan(&e, &c, &err), 0);
	assert_int_equal(experiment_run(&e, &c, &h, &err), 0);
	run_seeds(&e, seeds);
	for (b = 0; b < 4; b++) {
		assert_true(seeds[b][0] == seeds[b][1]);
		if (b)
			assert_true(seeds[b][0] != seeds[b - 1][0]);
	}
	experiment_release(&e);
	c.ops = &fake_ops;
	assert_int_equal(experiment_plan(&e, &c, &err), 0);
	assert_int_equal(experiment_run(&e, &c, &h, &err), 0);
	run_seeds(&e, seeds);
	for (b = 0; b < 4; b++)
		assert_true(seeds[b][0] != seeds[b][1]);
	experiment_release(&e);
	strbuf_release(&err);
}

/* One set of defaults: the experiment's statistics are the analysis's. */
static void test_defaults(void **state)
{
	struct experiment_config c;
	struct analysis_opts ao;

	(void)state;
	experiment_config_init(&c);
	analysis_opts_init(&ao);
	assert_true(c.alpha == ao.alpha);
	assert_true(c.equivalence == ao.margin);
	assert_true(ao.conf > 0.9 && ao.conf < 1);
	assert_true(ao.higher_is_better);
	assert_int_equal(c.max_arms, EXPERIMENT_MAX_ARMS);
	assert_int_equal(c.min_blocks, 6);
	assert_int_equal(c.max_runs, 30);
	assert_true(c.drop_caches);
	assert_null(c.ops);
	assert_int_equal(c.runs_fixed, 0);
}

static void test_validate_bad_arm(void **state)
{
	static char *bad[] = {"4k", "4kk"};
	struct experiment_factor f[1] = {{"bs", 0, bad, 2}};
	struct experiment_config c;
	struct experiment e;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.factors = f;
	c.nr_factors = 1;
	c.max_arms = 64;
	c.ops = workload_find("seqread");
	assert_int_equal(experiment_plan(&e, &c, &err), 0);
	assert_true(experiment_validate(&e, &c, &err) < 0);
	assert_non_null(strstr(err.buf, "arm 'bs=4kk'"));
	experiment_release(&e);
	strbuf_release(&err);
}

/* An experiment document with two arms whose medians differ by shift,
 * into o (release it). */
static void synthetic(struct experiment_doc *o, double shift, unsigned blocks,
		      uint64_t seed)
{
	struct rng r;
	unsigned b, a, i = 0;

	rng_seed(&r, seed);
	experiment_doc_init(o);
	/* what every experiment object has: the report reads it */
	o->schema = xstrdup("iotrial/1");
	o->type = xstrdup("experiment");
	o->metric = xcalloc(1, sizeof(*o->metric));
	o->metric->name = xstrdup("iops");
	o->metric->higher_is_better = true;
	o->arms = xcalloc(2, sizeof(*o->arms));
	o->nr_arms = 2;
	for (a = 0; a < 2; a++) {
		o->arms[a].arm = (int64_t)a;
		o->arms[a].label = xstrdup(a ? "b" : "a");
	}
	o->runs = xcalloc(2 * blocks + 1, sizeof(*o->runs));
	o->nr_runs = 2 * blocks;
	for (b = 0; b < blocks; b++)
		for (a = 0; a < 2; a++, i++) {
			/* 1% noise, uniform */
			double v = 1000 * (a ? 1 + shift : 1) *
				   (1 + 0.02 * (rng_double(&r) - 0.5));

			o->runs[i].arm = (int64_t)a;
			o->runs[i].block = (int64_t)b;
			o->runs[i].has_block = MODEL_SET;
			o->runs[i].metric = v;
		}
}

static const char *verdict_of(const struct experiment_doc *o)
{
	assert_true(o->nr_verdicts > 0);
	return o->verdicts[0].verdict;
}

static void analyze(struct experiment_doc *o)
{
	struct analysis_opts ao;
	struct strbuf err = STRBUF_INIT;

	analysis_opts_init(&ao);
	assert_int_equal(experiment_analyze_full(o, &ao, &err), 0);
	strbuf_release(&err);
}

static void test_analyze_verdicts(void **state)
{
	struct experiment_doc o;
	const struct exp_verdict *v;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	synthetic(&o, 0.10, 10, 1);
	analyze(&o);
	assert_string_equal(verdict_of(&o), "faster");
	v = &o.verdicts[0];
	assert_non_null(v->cmp);
	assert_true(fabs(v->cmp->ratio - 1.10) < 0.02);
	assert_string_equal(v->cmp->test, "wilcoxon-signed-rank");
	assert_int_equal(
	    report_page(&o, &emit_text_ops, REPORT_PAGE_VERDICTS, &out, &err),
	    0);
	assert_non_null(strstr(out.buf, "faster"));
	assert_non_null(strstr(out.buf, "baseline"));
	experiment_doc_release(&o);

	synthetic(&o, -0.10, 10, 2);
	analyze(&o);
	assert_string_equal(verdict_of(&o), "slower");
	experiment_doc_release(&o);

	synthetic(&o, 0.0, 12, 3);
	analyze(&o);
	assert_string_equal(verdict_of(&o), "equivalent");
	experiment_doc_release(&o);

	synthetic(&o, 0.10, 3, 4);
	analyze(&o);
	assert_string_equal(verdict_of(&o), "no verdict");
	experiment_doc_release(&o);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* An experiment document from runs measured before, then analysed. */
static void test_build(void **state)
{
	struct experiment_src_run r0[3], r1[2];
	struct experiment_src_arm arms[2] = {{"a", r0, 3}, {"b", r1, 2}};
	struct experiment_src src = {0};
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	struct experiment_doc d;
	struct analysis_opts ao;
	struct run_doc run;
	unsigned i;

	(void)state;
	run_doc_init(&run);
	run.workload = xstrdup("randread");
	for (i = 0; i < 3; i++)
		r0[i] =
		    (struct experiment_src_run){1000 + i, &run, "f", -1, NULL};
	for (i = 0; i < 2; i++)
		r1[i] = (struct experiment_src_run){2000 + i, NULL, NULL,
						    (int)(10 + i), NULL};
	src.workload = "randread";
	src.target = "/tmp";
	src.seed = "none";
	src.metric = "iops";
	src.higher_is_better = true;
	src.factor_kind = "import";
	src.arms = arms;
	src.nr_arms = 2;
	src.stopped = "imported";
	src.warnings = true;
	experiment_build(&src, &d);
	run_doc_release(&run); /* the document holds its own copy */
	assert_string_equal(d.id, "");
	assert_int_equal(d.blocks, 3);
	assert_int_equal(d.has_params, MODEL_ABSENT);
	assert_int_equal(d.has_warnings, MODEL_SET);
	assert_int_equal(d.nr_factors, 1);
	assert_int_equal(d.factors[0].nr_values, 2);
	assert_int_equal(d.nr_runs, 5);
	assert_int_equal(d.runs[2].seq, 2);
	assert_non_null(d.runs[2].run);
	assert_string_equal(d.runs[2].run->workload, "randread");
	assert_int_equal(d.runs[4].seq, 11);
	assert_int_equal(d.runs[4].arm, 1);
	assert_null(d.runs[4].run);
	/* no runs_mode is written, and the engine's order is kept: the
	 * run's source before the run */
	experiment_doc_encode(&d, MODEL_ENCODE_PLAIN, &text);
	assert_null(strstr(text.buf, "runs_mode"));
	assert_non_null(strstr(text.buf, "\"source\":\"f\",\"run\":{"));
	assert_non_null(strstr(text.buf, "\"stopped\":\"imported\","
					 "\"warnings\":[]}"));
	analysis_opts_init(&ao);
	assert_int_equal(experiment_analyze_full(&d, &ao, &err), 0);
	assert_int_equal(d.nr_verdicts, 1);
	assert_non_null(d.verdicts[0].verdict);
	assert_non_null(d.arms[1].summary);
	assert_int_equal(d.arms[1].summary->n, 2);
	experiment_doc_release(&d);
	strbuf_release(&text);
	strbuf_release(&err);
}

static void test_analyze_bad(void **state)
{
	struct analysis_opts ao;
	struct strbuf err = STRBUF_INIT;
	struct experiment_doc o;

	(void)state;
	synthetic(&o, 0.1, 5, 5);
	analysis_opts_init(&ao);
	o.runs[3].metric = -1;
	assert_int_equal(experiment_analyze_full(&o, &ao, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "positive"));
	experiment_doc_release(&o);
	experiment_doc_init(&o);
	strbuf_reset(&err);
	assert_int_equal(experiment_analyze_full(&o, &ao, &err), -EINVAL);
	assert_true(err.len > 0);
	experiment_doc_release(&o);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plan),
	    cmocka_unit_test(test_plan_translated),
	    cmocka_unit_test(test_plan_old_name),
	    cmocka_unit_test(test_budget_after_layout),
	    cmocka_unit_test(test_arm_warning_commonest),
	    cmocka_unit_test(test_seed_per_block),
	    cmocka_unit_test(test_defaults),
	    cmocka_unit_test(test_validate_bad_arm),
	    cmocka_unit_test(test_analyze_verdicts),
	    cmocka_unit_test(test_build),
	    cmocka_unit_test(test_analyze_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
