/*
 * Tests for the truth's JSON (core/observe/truth_json.c, json_round.c):
 * the members of a run object's truth, by name, with and without
 * devices, and numbers rounded where they are printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <json-c/json.h>
#include "core/experiment/experiment.h"
#include "core/observe/measure.h"
#include "core/observe/truth.h"
#include "core/observe/json_round.h"
#include "core/report/run_text.h"
#include "core/workload/workload.h"
#include "util/xalloc.h"
#include "truth_fixture.h"
#include "util/banned.h"

/* The JSON members, by name, with and without devices. */
static void test_json(void **state)
{
	struct sampler_series ser;
	struct truth *t = new_truth();
	struct run_result r;
	struct json_object *run = json_object_new_object(), *v, *d, *tr;

	(void)state;
	make_series(&ser, "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
		    "10 0 2048 20 1000 0 204800 3000 0 1500 3100 0 0 0 0 4 8",
		    0, 0, 0, 100 * MIB, 0);
	truth_from_series(t, &ser, NULL);
	t->series = ser; /* the truth owns its series */
	make_run(&r, 2, 10, 1 * MIB, 1000, 100 * MIB);
	truth_apply_run(t, &r);
	truth_to_json(t, run);
	assert_true(json_object_object_get_ex(run, "devices", &v));
	assert_int_equal(json_object_array_length(v), 1);
	d = json_object_array_get_idx(v, 0);
	assert_true(json_object_object_get_ex(d, "name", &v));
	assert_string_equal(json_object_get_string(v), "vdx");
	assert_true(json_object_object_get_ex(d, "w_s", &v));
	assert_float_equal(json_object_get_double(v), 500, 1e-9);
	assert_true(json_object_object_get_ex(d, "wmbps", &v));
	assert_float_equal(json_object_get_double(v), 52.429, 1e-9);
	assert_true(json_object_object_get_ex(d, "flushes", &v));
	assert_int_equal(json_object_get_int(v), 4);
	assert_true(json_object_object_get_ex(d, "util_pct", &v));
	assert_true(json_object_object_get_ex(d, "aqu_sz", &v));
	assert_true(json_object_object_get_ex(d, "r_await_ms", &v));
	assert_true(json_object_object_get_ex(run, "truth", &tr));
	assert_true(json_object_object_get_ex(tr, "cached_read_fraction", &v));
	assert_true(json_object_object_get_ex(tr, "absorbed_fraction", &v));
	assert_float_equal(json_object_get_double(v), 0, 0);
	assert_true(json_object_object_get_ex(tr, "device_write_bytes", &v));
	assert_int_equal(json_object_get_uint64(v), 100 * MIB);
	assert_true(json_object_object_get_ex(tr, "logical_write_bytes", &v));
	assert_true(json_object_object_get_ex(tr, "cancelled_write_bytes", &v));
	assert_true(json_object_object_get_ex(tr, "dirty_peak_bytes", &v));
	assert_true(json_object_object_get_ex(tr, "series", &v));
	assert_false(json_object_object_get_ex(tr, "no_device_reason", NULL));
	/* a rounded number prints short */
	v = json_round(12.5000001, 3);
	assert_string_equal(json_object_to_json_string(v), "12.5");
	json_object_put(v);
	assert_null(json_round(NAN, 3));
	json_object_put(run);
	run_result_release(&r);
	truth_free(t);

	/* no devices: no devices[], a reason, unknown device bytes */
	t = new_truth();
	t->no_device_reason = xstrdup("no block device here");
	run = json_object_new_object();
	truth_to_json(t, run);
	assert_false(json_object_object_get_ex(run, "devices", NULL));
	assert_true(json_object_object_get_ex(run, "truth", &tr));
	assert_true(json_object_object_get_ex(tr, "no_device_reason", &v));
	assert_true(json_object_object_get_ex(tr, "device_write_bytes", &v));
	assert_null(v);
	json_object_put(run);
	truth_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
