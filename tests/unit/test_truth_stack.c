/*
 * Tests for device truth over a device stack (core/observe/truth.c): a
 * loop device whose reads or writes never reached the disk under it
 * gets the "never reached" warning, with the numbers of both devices and
 * the cause that fits the stack; one that did gets none.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "core/observe/truth.h"
#include "util/xalloc.h"
#include "truth_fixture.h"
#include "util/banned.h"

/*
 * A two-point series of "loop0" over "vdx", 1 s apart: loop0 read
 * top_rd and wrote top_wr bytes, vdx bottom_rd and bottom_wr.
 */
static void make_stack_series(struct sampler_series *ser, uint64_t top_rd,
			      uint64_t top_wr, uint64_t bottom_rd,
			      uint64_t bottom_wr)
{
	const uint64_t rd[2] = {top_rd, bottom_rd}, wr[2] = {top_wr, bottom_wr};
	char text[256];
	unsigned d;

	memset(ser, 0, sizeof(*ser));
	ser->nr_devs = 2;
	ser->nr_points = ser->alloc_points = 2;
	ser->dev_names = xcalloc(2, sizeof(char *));
	ser->dev_names[0] = xstrdup("loop0");
	ser->dev_names[1] = xstrdup("vdx");
	ser->points = xcalloc(2, sizeof(*ser->points));
	ser->disk = xcalloc(4, sizeof(*ser->disk));
	ser->points[1].t_ns = 1000000000ull;
	for (d = 0; d < 2; d++) {
		const char *zero = "0 0 0 0 0 0 0 0 0 0 0";

		assert_int_equal(
		    diskstats_parse(zero, strlen(zero), &ser->disk[d]), 0);
		snprintf(text, sizeof(text),
			 "%llu 0 %llu 0 %llu 0 %llu 0 0 0 0",
			 (unsigned long long)(rd[d] / 4096),
			 (unsigned long long)(rd[d] / 512),
			 (unsigned long long)(wr[d] / 4096),
			 (unsigned long long)(wr[d] / 512));
		assert_int_equal(
		    diskstats_parse(text, strlen(text), &ser->disk[2 + d]), 0);
	}
}

/* loop0 over its backing disk vdx, as devstack resolves it. */
static void make_stack(struct devstack *ds)
{
	memset(ds, 0, sizeof(*ds));
	ds->nr_devs = ds->alloc_devs = 2;
	ds->devs = xcalloc(2, sizeof(*ds->devs));
	ds->devs[0].name = xstrdup("loop0");
	ds->devs[0].kind = DEVSTACK_LOOP;
	ds->devs[0].parent = -1;
	ds->devs[1].name = xstrdup("vdx");
	ds->devs[1].kind = DEVSTACK_DISK;
	ds->devs[1].via = DEVSTACK_VIA_BACKING;
}

/*
 * The disk at the bottom of the stack is found and its bytes kept; when
 * it moved far less than the top device (a sparse loop image read), the
 * run says so with both numbers, in the JSON and the text too.
 */
static void test_unreached(void **state)
{
	struct sampler_series ser;
	struct devstack ds;
	struct truth *t = new_truth();
	struct truth_opts o = {.direct = 1};
	struct json_object *run, *tr, *v;
	struct strbuf text = STRBUF_INIT;
	struct run_result r;

	(void)state;
	make_stack(&ds);
	/* a sparse image: 2 GiB from loop0, nothing from vdx */
	make_stack_series(&ser, 2048 * MIB, 0, 0, 0);
	truth_from_series(t, &ser, &ds);
	assert_true(t->have_bottom);
	assert_string_equal(t->bottom_device, "vdx");
	assert_int_equal(t->bottom_read_bytes, 0);
	assert_int_equal(t->device_read_bytes, 2048 * MIB);
	make_run(&r, 10, 32768, 2048 * MIB, 0, 0);
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 0);
	assert_true(warned(&r, "reads never reached 'vdx': 'loop0' delivered "
			       "2 GiB, 'vdx' 0 B (0.0%)"));
	assert_true(warned(&r, "holes"));
	assert_false(warned(&r, "writes never"));
	run_result_release(&r);
	run = truth_tree(t);
	tr = json_object_object_get(run, "truth");
	assert_true(json_object_object_get_ex(tr, "bottom_device", &v));
	assert_string_equal(json_object_get_string(v), "vdx");
	assert_true(json_object_object_get_ex(tr, "bottom_read_bytes", &v));
	assert_int_equal(json_object_get_int64(v), 0);
	assert_true(json_object_object_get_ex(tr, "bottom_write_bytes", &v));
	truth_text(t, &text);
	assert_non_null(strstr(text.buf, "2 GiB from 'loop0', 0 B from 'vdx' "
					 "(the disk under it)"));
	json_object_put(run);
	sampler_series_release(&ser);
	truth_free(t);

	/* filled first: the disk moved it all, nothing to say */
	t = new_truth();
	make_stack_series(&ser, 2048 * MIB, 0, 2040 * MIB, 0);
	truth_from_series(t, &ser, &ds);
	make_run(&r, 10, 32768, 2048 * MIB, 0, 0);
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 0);
	assert_false(warned(&r, "never reached"));
	run_result_release(&r);
	sampler_series_release(&ser);
	truth_free(t);

	/* 5%: most of it never reached; writes held in the host's cache */
	t = new_truth();
	make_stack_series(&ser, 1000 * MIB, 1000 * MIB, 50 * MIB, 20 * MIB);
	truth_from_series(t, &ser, &ds);
	make_run(&r, 10, 32768, 1000 * MIB, 32768, 1000 * MIB);
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 0);
	assert_true(warned(&r, "most reads never reached 'vdx'"));
	assert_true(warned(&r, "(5.0%)"));
	assert_true(warned(&r, "writes never reached 'vdx': 'loop0' took "));
	assert_true(warned(&r, "host page cache"));
	run_result_release(&r);
	sampler_series_release(&ser);
	truth_free(t);

	/* too little to judge */
	t = new_truth();
	make_stack_series(&ser, 8 * MIB, 0, 0, 0);
	truth_from_series(t, &ser, &ds);
	make_run(&r, 10, 2048, 8 * MIB, 0, 0);
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 0);
	assert_false(warned(&r, "never reached"));
	run_result_release(&r);
	sampler_series_release(&ser);
	truth_free(t);

	/* the bottom not sampled, or no stack given: unknown, no warning */
	t = new_truth();
	make_stack_series(&ser, 2048 * MIB, 0, 0, 0);
	truth_from_series(t, &ser, NULL);
	assert_false(t->have_bottom);
	make_run(&r, 10, 32768, 2048 * MIB, 0, 0);
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 0);
	assert_false(warned(&r, "never reached"));
	run_result_release(&r);
	sampler_series_release(&ser);
	truth_free(t);
	devstack_release(&ds);
	strbuf_release(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_unreached),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
