/*
 * Tests for core/compat/compat.c: versions, pinning, behaviour names,
 * and the procedure's rule that no warning comes before the release
 * that allows it, and none to a script that named either behaviour.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>
#include "core/compat/compat.h"
#include "util/banned.h"

/* Versions parse as MAJOR.MINOR[.PATCH] and order numerically. */
static void test_versions(void **state)
{
	struct compat_version a, b;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(compat_version_parse("0.1", &a, &err), 0);
	assert_int_equal(compat_version_parse("0.1.0", &b, &err), 0);
	assert_int_equal(compat_version_cmp(&a, &b), 0);
	assert_int_equal(compat_version_parse("0.10", &b, &err), 0);
	assert_true(compat_version_cmp(&a, &b) < 0);
	assert_int_equal(compat_version_parse("1", &b, &err), -EINVAL);
	assert_int_equal(compat_version_parse("0.1.", &b, &err), -EINVAL);
	assert_int_equal(compat_version_parse("0.1.0.0", &b, &err), -EINVAL);
	assert_int_equal(compat_version_parse("v0.1", &b, &err), -EINVAL);
	assert_int_equal(compat_version_parse("", &b, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "invalid release ''"));
	strbuf_release(&err);
}

/* Up to this release: accepted, current behaviour; newer: refused with
 * the version; before 0.1: refused. */
static void test_pin(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct compat c;
	int i;

	(void)state;
	assert_int_equal(compat_init(&c, "0.1.0", &err), 0);
	assert_int_equal(compat_pin(&c, "0.1", &err), 0);
	assert_true(c.is_pinned);
	for (i = 0; i < COMPAT_NR; i++)
		assert_false(compat_old(&c, (enum compat_id)i));
	assert_int_equal(compat_pin(&c, "0.2", &err), -EINVAL);
	assert_non_null(strstr(err.buf, "release 0.2.0 is newer than this "
					"iotrial (0.1.0)"));
	assert_int_equal(compat_pin(&c, "0.1.1", &err), -EINVAL);
	assert_int_equal(compat_pin(&c, "0.0.9", &err), -EINVAL);
	assert_non_null(strstr(err.buf, "no iotrial release before 0.1"));
	strbuf_release(&err);
}

/* Naming the old behaviour selects it; the new one, or nothing, not. */
static void test_choose(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct compat c;

	(void)state;
	compat_init(&c, "0.1.0", &err);
	assert_false(compat_old(&c, COMPAT_REGRESSION_FLAGGED));
	assert_int_equal(compat_choose(&c, "regression-counts-flagged", &err),
			 0);
	assert_true(compat_old(&c, COMPAT_REGRESSION_FLAGGED));
	assert_false(compat_old(&c, COMPAT_DIFF_UNLIKE));
	assert_int_equal(compat_choose(&c, "diff-verdict-unlike", &err), 0);
	assert_true(compat_old(&c, COMPAT_DIFF_UNLIKE));
	assert_int_equal(compat_choose(&c, "diff-refuse-unlike", &err), 0);
	assert_false(compat_old(&c, COMPAT_DIFF_UNLIKE));
	assert_int_equal(compat_choose(&c, "diff-verdict", &err), -EINVAL);
	assert_non_null(strstr(err.buf, "unknown behaviour 'diff-verdict'"));
	assert_non_null(strstr(err.buf, "diff-verdict-unlike"));
	strbuf_release(&err);
}

/* Every entry is complete: names, texts, the deprecating release. */
static void test_registry(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < COMPAT_NR; i++) {
		const struct compat_entry *e = &compat_registry[i];

		assert_non_null(e->old_name);
		assert_non_null(e->new_name);
		assert_non_null(e->old_text);
		assert_non_null(e->new_text);
		assert_non_null(e->deprecated_in);
		assert_string_not_equal(e->old_name, e->new_name);
	}
}

/*
 * An entry whose default is still old until 0.3 and whose warnings may
 * start in 0.2: no warning in 0.1, a warning in 0.2 to a script that
 * did nothing, none to one that named either behaviour or pinned.
 */
static void test_warn_schedule(void **state)
{
	const struct compat_entry e = {
	    .old_name = "x-old",
	    .new_name = "x-new",
	    .old_text = "old x",
	    .new_text = "new x",
	    .deprecated_in = "0.1",
	    .new_default_in = "0.3",
	    .warn_from = "0.2",
	};
	struct strbuf out = STRBUF_INIT;
	struct compat c;

	(void)state;
	compat_init(&c, "0.1.0", NULL);
	assert_false(compat_entry_warns(&e, &c, COMPAT_DEFAULT, &out));
	compat_init(&c, "0.2.0", NULL);
	assert_true(compat_entry_warns(&e, &c, COMPAT_DEFAULT, &out));
	assert_non_null(strstr(out.buf, "--behaviour=x-old keeps it"));
	assert_false(compat_entry_warns(&e, &c, COMPAT_OLD, NULL));
	assert_false(compat_entry_warns(&e, &c, COMPAT_NEW, NULL));
	assert_int_equal(compat_pin(&c, "0.1", NULL), 0);
	assert_false(compat_entry_warns(&e, &c, COMPAT_DEFAULT, NULL));
	/* from 0.3 the default is new: nothing to warn about */
	compat_init(&c, "0.3.0", NULL);
	assert_false(compat_entry_warns(&e, &c, COMPAT_DEFAULT, NULL));
	/* ...and a script pinned to 0.2 is not warned either */
	assert_int_equal(compat_pin(&c, "0.2", NULL), 0);
	assert_false(compat_entry_warns(&e, &c, COMPAT_DEFAULT, NULL));
	/* today's registry schedules no warning: none is printed */
	compat_init(&c, "0.1.0", NULL);
	assert_false(compat_warns(&c, COMPAT_REGRESSION_FLAGGED, NULL));
	assert_false(compat_warns(&c, COMPAT_DIFF_UNLIKE, NULL));
	strbuf_release(&out);
}

/* help compat names both switches of every entry. */
static void test_describe(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct compat c;
	int i;

	(void)state;
	compat_init(&c, "0.1.0", NULL);
	compat_describe(&c, &out);
	for (i = 0; i < COMPAT_NR; i++) {
		assert_non_null(strstr(out.buf, compat_registry[i].old_name));
		assert_non_null(strstr(out.buf, compat_registry[i].new_name));
	}
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_versions),
	    cmocka_unit_test(test_pin),
	    cmocka_unit_test(test_choose),
	    cmocka_unit_test(test_registry),
	    cmocka_unit_test(test_warn_schedule),
	    cmocka_unit_test(test_describe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
