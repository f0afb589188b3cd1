/*
 * Tests for the truth as a document (core/observe/truth_json.c): the
 * members of a run object's truth, with and without devices, and
 * numbers rounded where the codec prints them.
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
#include "core/model/model_json.h"
#include "core/report/run_text.h"
#include "core/workload/workload.h"
#include "util/xalloc.h"
#include "truth_fixture.h"
#include "util/banned.h"

/* The document's members, with and without devices. */
static void test_doc(void **state)
{
	struct sampler_series ser;
	struct truth *t = new_truth();
	struct run_result r;
	struct run_doc run;
	const struct truth_device_doc *d;
	const struct truth_doc *tr;
	struct strbuf out = STRBUF_INIT;

	(void)state;
	make_series(&ser, "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
		    "10 0 2048 20 1000 0 204800 3000 0 1500 3100 0 0 0 0 4 8",
		    0, 0, 0, 100 * MIB, 0);
	truth_from_series(t, &ser, NULL);
	t->series = ser; /* the truth owns its series */
	make_run(&r, 2, 10, 1 * MIB, 1000, 100 * MIB);
	truth_apply_run(t, &r);
	run_doc_init(&run);
	truth_to_doc(t, &run);
	assert_int_equal(run.has_devices, MODEL_SET);
	assert_int_equal(run.nr_devices, 1);
	d = &run.devices[0];
	assert_string_equal(d->name, "vdx");
	assert_non_null(d->delta);
	assert_float_equal(d->delta->w_s, 500, 1e-9);
	assert_int_equal(d->delta->has_flushes, MODEL_SET);
	assert_int_equal(d->delta->flushes, 4);
	assert_int_equal(run.has_truth, MODEL_SET);
	tr = run.truth;
	assert_float_equal(tr->absorbed_fraction, 0, 0);
	assert_int_equal(tr->has_device_write_bytes, MODEL_SET);
	assert_int_equal(tr->device_write_bytes, 100 * MIB);
	assert_int_equal(tr->has_cancelled_write_bytes, MODEL_SET);
	assert_int_equal(tr->has_dirty_peak_bytes, MODEL_SET);
	assert_non_null(tr->series);
	assert_null(tr->no_device_reason);
	/* printed, a rounded number is short: 52.4288 MB/s is 52.429 */
	run_doc_encode(&run, 0, &out);
	assert_non_null(strstr(out.buf, "\"wmbps\": 52.429,"));
	assert_non_null(strstr(out.buf, "\"w_s\": 500,"));
	assert_non_null(strstr(out.buf, "\"flushes\": 4,"));
	run_doc_release(&run);
	run_result_release(&r);
	truth_free(t);

	/* no devices: no devices[], a reason, unknown device bytes */
	t = new_truth();
	t->no_device_reason = xstrdup("no block device here");
	run_doc_init(&run);
	truth_to_doc(t, &run);
	assert_int_equal(run.has_devices, MODEL_ABSENT);
	assert_non_null(run.truth);
	assert_string_equal(run.truth->no_device_reason,
			    "no block device here");
	assert_int_equal(run.truth->has_device_write_bytes, MODEL_NULL);
	strbuf_reset(&out);
	run_doc_encode(&run, 0, &out);
	assert_non_null(strstr(out.buf, "\"device_write_bytes\": null,"));
	assert_null(strstr(out.buf, "\"devices\""));
	run_doc_release(&run);
	truth_free(t);
	strbuf_release(&out);
}

/* A watch line's device members: the same as a run's devices[]. */
static void test_watch_members(void **state)
{
	struct disk_delta dd = {.r_s = 2.004,
				.w_s = 1.0 / 3,
				.has_flushes = 1,
				.flushes = 7,
				.seconds = 1.5};
	struct watch_doc o;
	struct disk_delta_doc dd_doc;
	struct strbuf out = STRBUF_INIT;
	const char *text;

	(void)state;
	watch_doc_init(&o);
	o.schema = "iotrial/1";
	o.delta = &dd_doc;
	disk_delta_to_doc(&dd, o.delta);
	o.has_dirty_bytes = o.has_writeback_bytes = MODEL_NULL;
	watch_doc_encode(&o, MODEL_ENCODE_PLAIN, &out);
	text = out.buf;
	assert_non_null(strstr(text, "\"r_s\":2,\"w_s\":0.33,"));
	assert_non_null(strstr(text, "\"flushes\":7,\"discards\":null,"));
	assert_non_null(strstr(text, "\"d_s\":null,"));
	assert_non_null(strstr(text, "\"seconds\":1.5,\"dirty_bytes\":null,"));
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_doc),
	    cmocka_unit_test(test_watch_members),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
