/*
 * The experiment of `iotrial diff` (experiment/diff.c) and its text
 * (report/diff_text.c): two stored experiments are refused when they are
 * one, ran different workloads or metrics, or lack the arm asked for;
 * otherwise the runs of one arm of each become "before" and "after",
 * analysed, and the differences of their environments are listed.
 * Experiments are built in memory; nothing is stored.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "core/experiment/diff.h"
#include "core/experiment/experiment.h"
#include "core/report/diff_text.h"
#include "core/report/expjson.h"
#include "util/strbuf.h"

/*
 * An experiment "id" of workload with two arms, "base" and "fast", of
 * six runs each around base_iops and fast_iops; kernel goes into its
 * "env". The caller owns it.
 */
static struct json_object *make(const char *id, const char *workload,
				double base_iops, double fast_iops,
				const char *kernel)
{
	struct experiment_src_run r0[6], r1[6];
	struct experiment_src_arm arms[2] = {{"base", r0, 6}, {"fast", r1, 6}};
	struct experiment_src src = {0};
	struct json_object *o, *env = json_object_new_object();
	unsigned i;

	for (i = 0; i < 6; i++) {
		r0[i] =
		    (struct experiment_src_run){base_iops + i, NULL, NULL, -1};
		r1[i] =
		    (struct experiment_src_run){fast_iops + i, NULL, NULL, -1};
	}
	json_object_object_add(env, "kernel_release",
			       json_object_new_string(kernel));
	src.id = id;
	src.workload = workload;
	src.target = "/srv";
	src.seed = "none";
	src.metric = "iops";
	src.higher_is_better = true;
	src.factor_kind = "import";
	src.arms = arms;
	src.nr_arms = 2;
	src.stopped = "imported";
	src.env = env;
	o = experiment_build(&src);
	json_object_put(env);
	return o;
}

/* The label of arm i of d. */
static const char *label(struct json_object *d, int i)
{
	return expjson_str(
	    json_object_array_get_idx(expjson_get(d, "arms"), (size_t)i),
	    "label");
}

static void test_refusals(void **state)
{
	struct json_object *a = make("aaaa0001", "randread", 1000, 1300,
				     "6.1.0"),
			   *b =
			       make("aaaa0002", "seqread", 1000, 1300, "6.1.0"),
			   *e[2], *d = (struct json_object *)1;
	const char *id[2] = {"aaaa0001", "aaaa0002"};
	struct strbuf err = STRBUF_INIT;
	int arm[2];

	(void)state;
	e[0] = a;
	e[1] = a;
	assert_int_equal(diff_build(e, id, NULL, arm, &d, &err), -EINVAL);
	assert_null(d);
	assert_non_null(strstr(err.buf, "are the same experiment"));

	e[1] = b;
	assert_int_equal(diff_build(e, id, NULL, arm, &d, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "ran different workloads "
					"('randread' and 'seqread')"));

	json_object_object_add(b, "workload",
			       json_object_new_string("randread"));
	json_object_object_add(expjson_get(b, "metric"), "name",
			       json_object_new_string("mbps"));
	assert_int_equal(diff_build(e, id, NULL, arm, &d, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "measured different metrics"));

	json_object_object_add(expjson_get(b, "metric"), "name",
			       json_object_new_string("iops"));
	assert_int_equal(diff_build(e, id, "slow", arm, &d, &err), -EINVAL);
	assert_string_equal(err.buf, "arm 'slow' is not in experiment "
				     "'aaaa0001'; its arms are 'base', "
				     "'fast'");
	assert_null(d);
	json_object_put(a);
	json_object_put(b);
	strbuf_release(&err);
}

static void test_before_after(void **state)
{
	struct json_object *e[2], *d = NULL;
	const char *id[2] = {"bbbb", "cccc0002"};
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	int arm[2] = {-1, -1};

	(void)state;
	e[0] = make("bbbb0001", "randread", 1000, 1500, "6.1.0");
	e[1] = make("cccc0002", "randread", 700, 1510, "6.18.44");

	/* the baselines by default: 1000 before, 700 after */
	assert_int_equal(diff_build(e, id, NULL, arm, &d, &err), 0);
	assert_int_equal(arm[0], 0);
	assert_int_equal(arm[1], 0);
	assert_string_equal(expjson_str(d, "id"), "bbbb0001..cccc0002");
	assert_string_equal(label(d, 0), "before bbbb0001");
	assert_string_equal(label(d, 1), "after cccc0002");
	assert_string_equal(report_diff_verdict(d), "slower");
	report_diff_text(e, id, arm, d, "", &out);
	assert_non_null(strstr(out.buf, "before: bbbb0001 arm 'base'; after: "
					"cccc0002 arm 'base'\n"));
	assert_non_null(strstr(out.buf, "env differs: "));
	assert_non_null(strstr(out.buf, "6.18.44"));
	json_object_put(d);

	/* the arm named in both: 1500 against 1510, not slower */
	strbuf_reset(&out);
	assert_int_equal(diff_build(e, id, "fast", arm, &d, &err), 0);
	assert_int_equal(arm[0], 1);
	assert_int_equal(arm[1], 1);
	assert_string_not_equal(report_diff_verdict(d), "slower");
	report_diff_json(e, id, arm, d, "", &out);
	assert_non_null(strstr(out.buf, "\"arm_before\": \"fast\""));
	json_object_put(d);

	json_object_put(e[0]);
	json_object_put(e[1]);
	strbuf_release(&err);
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_refusals),
	    cmocka_unit_test(test_before_after),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
