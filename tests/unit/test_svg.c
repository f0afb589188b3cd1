/*
 * Tests for core/report/svg.c: scales map the data interval onto the
 * pixels (linear and log, a y axis upside down), ticks are round 1-2-5
 * values inside the interval, and escaping leaves no markup.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>
#include "core/report/svg.h"
#include "util/banned.h"

static void test_linear(void **state)
{
	struct svg_scale s;
	double t[SVG_MAX_TICKS];
	int n, i;

	(void)state;
	svg_scale_init(&s, 0, 1000, 100, 700, 0);
	assert_true(fabs(svg_scale_map(&s, 0) - 100) < 1e-9);
	assert_true(fabs(svg_scale_map(&s, 1000) - 700) < 1e-9);
	assert_true(fabs(svg_scale_map(&s, 500) - 400) < 1e-9);
	n = svg_ticks(&s, t);
	assert_int_equal(n, 6);
	for (i = 0; i < n; i++)
		assert_true(fabs(t[i] - 200 * i) < 1e-9);

	/* widened to round values around the data */
	svg_scale_init(&s, 1373, 2592, 0, 100, 0);
	assert_true(s.d0 <= 1373 && s.d1 >= 2592);
	assert_true(fabs(s.d0 - 1000) < 1e-9 && fabs(s.d1 - 3000) < 1e-9);
	n = svg_ticks(&s, t);
	assert_true(n >= 3 && n <= SVG_MAX_TICKS);
	for (i = 0; i < n; i++)
		assert_true(t[i] >= s.d0 && t[i] <= s.d1);

	/* a y axis: larger values go up */
	svg_scale_init(&s, 0, 10, 200, 20, 0);
	assert_true(svg_scale_map(&s, 10) < svg_scale_map(&s, 0));

	/* one value: an interval around it, not a division by zero */
	svg_scale_init(&s, 5, 5, 0, 100, 0);
	assert_true(s.d0 < 5 && s.d1 > 5);
	assert_true(isfinite(svg_scale_map(&s, 5)));
}

static void test_log(void **state)
{
	struct svg_scale s;
	double t[SVG_MAX_TICKS];
	int n;

	(void)state;
	svg_scale_init(&s, 1200, 2e6, 0, 600, 1);
	assert_true(fabs(s.d0 - 1000) < 1e-6 && fabs(s.d1 - 1e7) < 1e-3);
	assert_true(fabs(svg_scale_map(&s, 1e4) - 150) < 1e-6);
	assert_true(fabs(svg_scale_map(&s, 1e7) - 600) < 1e-6);
	n = svg_ticks(&s, t);
	assert_int_equal(n, 5);
	assert_true(fabs(t[0] - 1e3) < 1e-6 && fabs(t[4] - 1e7) < 1e-3);

	/* a short log axis gets 2x and 5x too */
	svg_scale_init(&s, 10, 900, 0, 600, 1);
	n = svg_ticks(&s, t);
	assert_int_equal(n, 7); /* 10 20 50 100 200 500 1000 */
	assert_true(fabs(t[1] - 20) < 1e-9 && fabs(t[2] - 50) < 1e-9);

	/* a non-positive lower end on a log axis does not break it */
	svg_scale_init(&s, 0, 100, 0, 600, 1);
	assert_true(s.d0 > 0 && isfinite(svg_scale_map(&s, 50)));
}

static void test_escape(void **state)
{
	struct strbuf out = STRBUF_INIT;

	(void)state;
	svg_escape(&out, "<script>a=\"b\" & 'c'</script>\x01");
	assert_string_equal(out.buf, "&lt;script&gt;a=&quot;b&quot; &amp; "
				     "&#39;c&#39;&lt;/script&gt; ");
	strbuf_reset(&out);
	svg_text(&out, 1, 2, "end", "label", "a<b");
	assert_string_equal(out.buf, "<text x=\"1.0\" y=\"2.0\" "
				     "text-anchor=\"end\" class=\"label\">"
				     "a&lt;b</text>");
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_linear),
	    cmocka_unit_test(test_log),
	    cmocka_unit_test(test_escape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
