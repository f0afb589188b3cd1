/*
 * Naming an arm (experiment/arm_name.c), as export --arm, apply --arm,
 * compare --baseline and diff --arm read it: the label with or without
 * its notes, the settings as asked or as set under either knob name,
 * the value alone, a value meaning the same through the caller's hook,
 * "#N" and a bare number, and the names that could mean two arms.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "core/experiment/arm_name.h"
#include "util/strbuf.h"

/* Two factors: a translated scheduler and read-ahead asked in sectors.
 * Arms: none/128, none/2048s, deadline/128, deadline/2048s. */
static const struct arm_spelling sp[4][2] = {
    {{"scheduler", NULL, "none", NULL}, {"read_ahead_kb", NULL, "128", NULL}},
    {{"scheduler", NULL, "none", NULL},
     {"read_ahead_kb", NULL, "2048s", "1024"}},
    {{"scheduler", NULL, "deadline", "mq-deadline"},
     {"read_ahead_kb", NULL, "128", NULL}},
    {{"scheduler", NULL, "deadline", "mq-deadline"},
     {"read_ahead_kb", NULL, "2048s", "1024"}},
};
static const struct arm_names arms[4] = {
    {"scheduler=none read_ahead_kb=128", sp[0], 2},
    {"scheduler=none read_ahead_kb=1024 (asked: 2048s)", sp[1], 2},
    {"scheduler=mq-deadline (asked: deadline) read_ahead_kb=128", sp[2], 2},
    {"scheduler=mq-deadline (asked: deadline) read_ahead_kb=1024 (asked: "
     "2048s)",
     sp[3], 2},
};

/* The arm want names, or -1 (not found), -2 (ambiguous). */
static int find(const struct arm_names *a, size_t nr, const char *want,
		arm_same_fn same)
{
	struct strbuf err = STRBUF_INIT;
	size_t idx = 99;
	int ret = arm_find(a, nr, want, same, NULL, &idx, &err);

	if (ret == -EINVAL)
		assert_true(err.len > 0);
	else
		assert_int_equal(err.len, 0);
	strbuf_release(&err);
	if (ret == -ENOENT)
		return -1;
	if (ret == -EINVAL)
		return -2;
	assert_int_equal(ret, 0);
	return (int)idx;
}

/* Every spelling of every arm names it. */
static void test_spellings(void **state)
{
	(void)state;
	assert_int_equal(find(arms, 4, arms[3].label, NULL), 3);
	assert_int_equal(
	    find(arms, 4, "scheduler=mq-deadline read_ahead_kb=1024", NULL), 3);
	assert_int_equal(
	    find(arms, 4, "scheduler=deadline read_ahead_kb=2048s", NULL), 3);
	assert_int_equal(
	    find(arms, 4, "scheduler=deadline read_ahead_kb=1024", NULL), 3);
	assert_int_equal(
	    find(arms, 4, "scheduler=mq-deadline read_ahead_kb=128", NULL), 2);
	assert_int_equal(
	    find(arms, 4, "scheduler=none read_ahead_kb=2048s", NULL), 1);
	assert_int_equal(find(arms, 4,
			      "scheduler=none (asked: x) "
			      "read_ahead_kb=128",
			      NULL),
			 -1);
	/* the factors in the label's order, all of them */
	assert_int_equal(
	    find(arms, 4, "read_ahead_kb=128 scheduler=deadline", NULL), -1);
	assert_int_equal(find(arms, 4, "scheduler=deadline", NULL), -1);
	assert_int_equal(find(arms, 4, "deadline", NULL), -1);
	assert_int_equal(find(arms, 4, "nope", NULL), -1);
	assert_int_equal(find(arms, 4, "", NULL), -1);
}

/* Numbers count from 1; "#N" is always one. */
static void test_numbers(void **state)
{
	(void)state;
	assert_int_equal(find(arms, 4, "1", NULL), 0);
	assert_int_equal(find(arms, 4, "4", NULL), 3);
	assert_int_equal(find(arms, 4, "#2", NULL), 1);
	assert_int_equal(find(arms, 4, "5", NULL), -1);
	assert_int_equal(find(arms, 4, "0", NULL), -1);
	assert_int_equal(find(arms, 4, "#0", NULL), -1);
	assert_int_equal(find(arms, 4, "#x", NULL), -1);
	assert_int_equal(find(arms, 4, "-1", NULL), -1);
}

/*
 * One factor: the value alone, as asked or as set; an old knob name
 * and its own; a bdflush line's value with spaces; a value that is also
 * another arm's number is refused, '#' picks either.
 */
static void test_one_factor(void **state)
{
	static const struct arm_spelling old[2][1] = {
	    {{"bdflush.nfract", "vm.dirty_background_ratio", "10", NULL}},
	    {{"bdflush.nfract", "vm.dirty_background_ratio", "80", NULL}},
	};
	static const struct arm_names olds[2] = {
	    {"vm.dirty_background_ratio=10 (asked: bdflush.nfract=10)", old[0],
	     1},
	    {"vm.dirty_background_ratio=80 (asked: bdflush.nfract=80)", old[1],
	     1},
	};
	static const struct arm_spelling line[2][2] = {
	    {{"bdflush", NULL, "40 0 0 0 500 3000 60 0 0", NULL},
	     {"jobs", NULL, "2", NULL}},
	    {{"bdflush", NULL, "80 0 0 0 500 3000 90 0 0", NULL},
	     {"jobs", NULL, "2", NULL}},
	};
	static const struct arm_names lines[2] = {
	    {"bdflush=40 0 0 0 500 3000 60 0 0 jobs=2", line[0], 2},
	    {"bdflush=80 0 0 0 500 3000 90 0 0 jobs=2", line[1], 2},
	};
	static const struct arm_spelling num[2][1] = {
	    {{"nomerges", NULL, "2", NULL}},
	    {{"nomerges", NULL, "1", NULL}},
	};
	static const struct arm_names nums[2] = {
	    {"nomerges=2", num[0], 1},
	    {"nomerges=1", num[1], 1},
	};
	struct strbuf err = STRBUF_INIT;
	size_t idx;

	(void)state;
	assert_int_equal(find(olds, 2, "bdflush.nfract=80", NULL), 1);
	assert_int_equal(find(olds, 2, "vm.dirty_background_ratio=80", NULL),
			 1);
	assert_int_equal(find(olds, 2, "80", NULL), 1);
	assert_int_equal(
	    find(lines, 2, "bdflush=80 0 0 0 500 3000 90 0 0 jobs=2", NULL), 1);
	assert_int_equal(find(nums, 2, "nomerges=1", NULL), 1);
	assert_int_equal(find(nums, 2, "#1", NULL), 0);
	assert_int_equal(find(nums, 2, "#2", NULL), 1);
	assert_int_equal(find(nums, 2, "1", NULL), -2);
	assert_int_equal(arm_find(nums, 2, "2", NULL, NULL, &idx, &err),
			 -EINVAL);
	assert_string_equal(err.buf,
			    "'2' is both a setting of arm 1 ('nomerges=2') and "
			    "the number of arm 2 ('nomerges=1'); give '#2' for "
			    "arm 2, or '#1' for arm 1");
	strbuf_release(&err);
}

/* A label that is a number is the label's arm only when '#' says. */
static void test_label_number(void **state)
{
	static const struct arm_spelling s[2][1] = {
	    {{"label", NULL, "a", NULL}},
	    {{"label", NULL, "b", NULL}},
	};
	static const struct arm_names a[2] = {{"x", s[0], 1}, {"1", s[1], 1}};
	struct strbuf err = STRBUF_INIT;
	size_t idx;

	(void)state;
	assert_int_equal(arm_find(a, 2, "1", NULL, NULL, &idx, &err), -EINVAL);
	assert_string_equal(err.buf,
			    "'1' is both the label of arm 2 and the number of "
			    "arm 1 ('x'); give '#1' for arm 1, or '#2' for the "
			    "arm labelled '1'");
	strbuf_release(&err);
	assert_int_equal(find(a, 2, "2", NULL), 1);
	assert_int_equal(find(a, 2, "b", NULL), 1);
}

/* The caller's hook: "deadline" means mq-deadline, "4096s" 2048. */
static int same(void *ctx, const char *factor, const char *a, const char *b)
{
	static const char *const pairs[][3] = {
	    {"scheduler", "deadline", "mq-deadline"},
	    {"read_ahead_kb", "4096s", "2048"},
	};
	size_t i;

	(void)ctx;
	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		if (!strcmp(factor, pairs[i][0]) &&
		    ((!strcmp(a, pairs[i][1]) && !strcmp(b, pairs[i][2])) ||
		     (!strcmp(a, pairs[i][2]) && !strcmp(b, pairs[i][1]))))
			return 1;
	return !strcmp(a, b);
}

/* A value meaning what an arm set names it, through the hook only; two
 * arms named by one spelling are refused. */
static void test_meaning(void **state)
{
	static const struct arm_spelling s[2][2] = {
	    {{"scheduler", NULL, "none", NULL},
	     {"read_ahead_kb", NULL, "128", NULL}},
	    {{"scheduler", NULL, "mq-deadline", NULL},
	     {"read_ahead_kb", NULL, "2048", NULL}},
	};
	static const struct arm_names a[2] = {
	    {"scheduler=none read_ahead_kb=128", s[0], 2},
	    {"scheduler=mq-deadline read_ahead_kb=2048", s[1], 2},
	};
	static const struct arm_spelling d[2][1] = {
	    {{"label", NULL, "x", NULL}},
	    {{"label", NULL, "x", NULL}},
	};
	static const struct arm_names dup[2] = {{"a", d[0], 1}, {"b", d[1], 1}};

	(void)state;
	assert_int_equal(
	    find(a, 2, "scheduler=deadline read_ahead_kb=2048", NULL), -1);
	assert_int_equal(
	    find(a, 2, "scheduler=deadline read_ahead_kb=2048", same), 1);
	assert_int_equal(
	    find(a, 2, "scheduler=deadline read_ahead_kb=4096s", same), 1);
	assert_int_equal(
	    find(a, 2, "scheduler=deadline read_ahead_kb=128", same), -1);
	assert_int_equal(find(dup, 2, "x", NULL), -2);
	assert_int_equal(find(dup, 2, "b", NULL), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_spellings),
	    cmocka_unit_test(test_numbers),
	    cmocka_unit_test(test_one_factor),
	    cmocka_unit_test(test_label_number),
	    cmocka_unit_test(test_meaning),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
