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
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "core/experiment/diff.h"
#include "core/experiment/experiment.h"
#include "core/model/model_json.h"
#include "core/report/diff_text.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * An experiment "id" of workload with two arms, "base" and "fast", of
 * six runs each around base_iops and fast_iops; kernel goes into its
 * "env". Built into *out.
 */
static void make(struct experiment_doc *out, const char *id,
		 const char *workload, double base_iops, double fast_iops,
		 const char *kernel)
{
	struct experiment_src_run r0[6], r1[6];
	struct experiment_src_arm arms[2] = {{"base", r0, 6}, {"fast", r1, 6}};
	struct experiment_src src = {0};
	struct env_doc env;
	unsigned i;

	for (i = 0; i < 6; i++) {
		r0[i] =
		    (struct experiment_src_run){base_iops + i, NULL, NULL, -1};
		r1[i] =
		    (struct experiment_src_run){fast_iops + i, NULL, NULL, -1};
	}
	env_doc_init(&env);
	env.kernel_release = xstrdup(kernel);
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
	src.env = &env;
	experiment_build(&src, out);
	env_doc_release(&env);
}

/* Set the string *member to s. */
static void set(char **member, const char *s)
{
	free(*member);
	*member = xstrdup(s);
}

static void test_refusals(void **state)
{
	struct experiment_doc a, b;
	const struct experiment_doc *e[2];
	struct experiment_doc *d = (struct experiment_doc *)1;
	const char *id[2] = {"aaaa0001", "aaaa0002"};
	struct strbuf err = STRBUF_INIT;
	int arm[2];

	(void)state;
	make(&a, "aaaa0001", "randread", 1000, 1300, "6.1.0");
	make(&b, "aaaa0002", "seqread", 1000, 1300, "6.1.0");
	e[0] = &a;
	e[1] = &a;
	assert_int_equal(diff_build(e, id, NULL, arm, &d, &err), -EINVAL);
	assert_null(d);
	assert_non_null(strstr(err.buf, "are the same experiment"));

	e[1] = &b;
	assert_int_equal(diff_build(e, id, NULL, arm, &d, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "ran different workloads "
					"('randread' and 'seqread')"));

	set(&b.workload, "randread");
	set(&b.metric->name, "mbps");
	assert_int_equal(diff_build(e, id, NULL, arm, &d, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "measured different metrics"));

	/* the same name, the other direction */
	set(&b.metric->name, "iops");
	b.metric->higher_is_better = false;
	assert_int_equal(diff_build(e, id, NULL, arm, &d, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "measured different metrics"));

	b.metric->higher_is_better = true;
	assert_int_equal(diff_build(e, id, "slow", arm, &d, &err), -EINVAL);
	assert_string_equal(err.buf, "arm 'slow' is not in experiment "
				     "'aaaa0001'; its arms are 'base', "
				     "'fast'");
	assert_null(d);
	experiment_doc_release(&a);
	experiment_doc_release(&b);
	strbuf_release(&err);
}

static void test_before_after(void **state)
{
	struct experiment_doc x[2], *d = NULL;
	const struct experiment_doc *e[2] = {&x[0], &x[1]};
	const char *id[2] = {"bbbb", "cccc0002"};
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct diff_doc doc;
	int arm[2] = {-1, -1};

	(void)state;
	make(&x[0], "bbbb0001", "randread", 1000, 1500, "6.1.0");
	make(&x[1], "cccc0002", "randread", 700, 1510, "6.18.44");

	/* the baselines by default: 1000 before, 700 after */
	assert_int_equal(diff_build(e, id, NULL, arm, &d, &err), 0);
	assert_int_equal(arm[0], 0);
	assert_int_equal(arm[1], 0);
	assert_string_equal(d->id, "bbbb0001..cccc0002");
	assert_int_equal(d->nr_arms, 2);
	assert_string_equal(d->arms[0].label, "before bbbb0001");
	assert_string_equal(d->arms[1].label, "after cccc0002");
	diff_doc_fill(&doc, e, id, arm, d, "");
	assert_string_equal(doc.verdict, "slower");
	assert_true(doc.like_for_like);
	assert_int_equal(doc.nr_differences, 1);
	assert_string_equal(doc.differences[0],
			    "env differs: kernel_release: '6.1.0' vs "
			    "'6.18.44'");
	report_diff_text(&doc, &out);
	assert_non_null(strstr(out.buf, "before: bbbb0001 arm 'base'; after: "
					"cccc0002 arm 'base'\n"));
	assert_non_null(strstr(out.buf, "\nenv differs: kernel_release: "
					"'6.1.0' vs '6.18.44'\n"));
	diff_doc_release(&doc);

	/* the arm named in both: 1500 against 1510, not slower */
	strbuf_reset(&out);
	assert_int_equal(diff_build(e, id, "fast", arm, &d, &err), 0);
	assert_int_equal(arm[0], 1);
	assert_int_equal(arm[1], 1);
	diff_doc_fill(&doc, e, id, arm, d, "");
	assert_string_not_equal(doc.verdict, "slower");
	report_diff_json(&doc, &out);
	assert_non_null(strstr(out.buf, "\"arm_before\": \"fast\""));
	diff_doc_release(&doc);

	/* refused: no experiment, no verdict, what differs said first */
	strbuf_reset(&out);
	diff_doc_fill(&doc, e, id, arm, NULL, "bs: 4 KiB vs 8 KiB\n");
	assert_false(doc.like_for_like);
	assert_string_equal(doc.verdict, "");
	report_diff_text(&doc, &out);
	assert_non_null(strstr(out.buf, "not like for like: the two arms ran "
					"differently\n  bs: 4 KiB vs 8 KiB\n"
					"no verdict: "));
	diff_doc_release(&doc);

	experiment_doc_release(&x[0]);
	experiment_doc_release(&x[1]);
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
