/*
 * The exposition writer (report/openmetrics.h) and the progress lines
 * (report/progress.h): names, counters in both flavours, label values
 * escaped and made printable, unknown values left out, JSON that parses
 * whatever an arm's label holds.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "core/report/openmetrics.h"
#include "core/report/progress.h"

/* A counter's TYPE line names the sample in Prometheus' text, the
 * family in OpenMetrics', whose exposition ends in "# EOF". */
static void test_counter_flavours(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct om_writer w;

	(void)state;
	om_init(&w, &out, OM_PROMETHEUS, "run");
	om_family(&w, "iotrial_run_bytes", OM_COUNTER, "bytes", "Bytes.");
	om_sample(&w, NULL, 0, 4096);
	om_end(&w);
	assert_string_equal(out.buf,
			    "# HELP iotrial_run_bytes_total Bytes.\n"
			    "# TYPE iotrial_run_bytes_total counter\n"
			    "iotrial_run_bytes_total{command=\"run\"} 4096\n");
	strbuf_reset(&out);
	om_init(&w, &out, OM_OPENMETRICS, "run");
	om_family(&w, "iotrial_run_bytes", OM_COUNTER, "bytes", "Bytes.");
	om_sample(&w, NULL, 0, 4096);
	om_end(&w);
	assert_string_equal(out.buf,
			    "# HELP iotrial_run_bytes Bytes.\n"
			    "# TYPE iotrial_run_bytes counter\n"
			    "# UNIT iotrial_run_bytes bytes\n"
			    "iotrial_run_bytes_total{command=\"run\"} 4096\n"
			    "# EOF\n");
	strbuf_release(&out);
}

/* A label value from a user: quote and backslash escaped, a newline and
 * an escape byte made '?', never raw; NaN is no sample. */
static void test_labels(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct om_label l = {"arm", "a\"b\\c\nd\033[2Je"};
	struct om_writer w;

	(void)state;
	om_init(&w, &out, OM_PROMETHEUS, "compare");
	om_family(&w, "iotrial_arm_runs", OM_GAUGE, NULL, "Runs.");
	om_sample(&w, &l, 1, 3);
	om_sample(&w, &l, 1, NAN);
	assert_non_null(strstr(out.buf, "iotrial_arm_runs{command=\"compare\","
					"arm=\"a\\\"b\\\\c?d?[2Je\"} 3\n"));
	assert_null(strchr(out.buf, '\033'));
	assert_null(strstr(out.buf, "NaN"));
	strbuf_release(&out);
}

/* watch: the iostat columns in base units, flushes only when counted. */
static void test_watch_units(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct disk_delta d;
	struct om_device dev = {"vda", &d};
	struct om_writer w;

	(void)state;
	memset(&d, 0, sizeof(d));
	d.r_await_ms = 2.5;
	d.util_pct = 50;
	d.rmbps = 3;
	d.rareq_kib = 4;
	om_init(&w, &out, OM_PROMETHEUS, "watch");
	om_watch(&w, &dev, 1, NULL, 1.0, 1e9);
	assert_non_null(strstr(out.buf, "iotrial_device_read_await_seconds{"
					"command=\"watch\",device=\"vda\"} "
					"0.0025\n"));
	assert_non_null(strstr(out.buf, "iotrial_device_utilization_ratio{"
					"command=\"watch\",device=\"vda\"} "
					"0.5\n"));
	assert_non_null(strstr(out.buf, "iotrial_device_read_bytes_per_second{"
					"command=\"watch\",device=\"vda\"} "
					"3000000\n"));
	assert_non_null(strstr(out.buf, "iotrial_device_read_request_size_"
					"bytes{command=\"watch\",device="
					"\"vda\"} 4096\n"));
	assert_null(strstr(out.buf, "flushes"));
	assert_null(strstr(out.buf, "iotrial_memory_"));
	strbuf_release(&out);
}

/* The JSON line: an arm's quote and control bytes escaped, an unknown
 * ETA null, and the terminal's line printable. */
static void test_progress_lines(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct progress_snap s;

	(void)state;
	progress_snap_init(&s, "compare");
	s.arm = "x\"\033]0;t\007";
	s.unit = "runs";
	s.done = 2;
	s.planned = 12;
	s.block = 1;
	progress_json_line(&s, &out);
	assert_string_equal(out.buf,
			    "{\"schema\":\"iotrial/1\",\"type\":\"progress\","
			    "\"command\":\"compare\",\"event\":\"update\","
			    "\"elapsed_s\":0,\"eta_s\":null,\"done\":2,"
			    "\"planned\":12,\"unit\":\"runs\",\"block\":1,"
			    "\"arm\":\"x\\\"\\u001b]0;t\\u0007\"}\n");
	strbuf_reset(&out);
	s.eta_s = 125;
	progress_text_line(&s, &out);
	assert_string_equal(out.buf, "[3/12] block 2: x\"?]0;t?, ETA 2m05s");
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_counter_flavours),
	    cmocka_unit_test(test_labels),
	    cmocka_unit_test(test_watch_units),
	    cmocka_unit_test(test_progress_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
