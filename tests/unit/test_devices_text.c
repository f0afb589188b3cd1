/*
 * Tests for core/report/devices_text.c: the "measured:" line under an
 * experiment's table. Medians per run of what the workload, the top
 * device and the disk at the bottom moved; the disk only when every run
 * knows it and it is not the top device; the cache sentence only when
 * the experiment dropped caches and no warning says that failed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "core/report/devices_text.h"
#include "doc_text_helper.h"
#include "util/banned.h"

#define MIB (1024ull * 1024ull)

/* A run whose truth read logical, top and bottom bytes ("" bottom: none). */
static void add_run(struct strbuf *sb, unsigned long long logical,
		    unsigned long long top, const char *bottom,
		    unsigned long long bottom_bytes)
{
	strbuf_addf(sb,
		    "%s{\"arm\": 0, \"run\": {\"truth\": {\"device\": "
		    "\"loop0\", \"logical_read_bytes\": %llu, "
		    "\"device_read_bytes\": %llu, \"logical_write_bytes\": 0, "
		    "\"device_write_bytes\": 0",
		    sb->buf[sb->len - 1] == '[' ? "" : ", ", logical, top);
	if (*bottom)
		strbuf_addf(sb,
			    ", \"bottom_device\": \"%s\", "
			    "\"bottom_read_bytes\": %llu, "
			    "\"bottom_write_bytes\": 0",
			    bottom, bottom_bytes);
	strbuf_addstr(sb, "}}}");
}

/* Render an experiment of those runs with drop_caches and warnings. */
static void render(struct strbuf *runs, const char *rest, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct experiment_doc e;

	strbuf_addf(&text,
		    "{\"schema\": \"iotrial/1\", \"type\": \"experiment\", "
		    "\"runs\": %s]%s}",
		    runs->buf, rest);
	doc_text(text.buf, &e);
	strbuf_reset(out);
	assert_int_equal(doc_text_page(&e, REPORT_SEC(devices), out, &err), 0);
	experiment_doc_release(&e);
	strbuf_release(&text);
	strbuf_release(&err);
}

static void test_measured_line(void **state)
{
	struct strbuf runs = STRBUF_INIT, out = STRBUF_INIT;

	(void)state;
	strbuf_addstr(&runs, "[");
	add_run(&runs, 100 * MIB, 100 * MIB, "vda", 90 * MIB);
	add_run(&runs, 300 * MIB, 300 * MIB, "vda", 310 * MIB);
	add_run(&runs, 200 * MIB, 200 * MIB, "vda", 200 * MIB);
	render(&runs, ", \"drop_caches\": true, \"warnings\": []", &out);
	assert_string_equal(out.buf,
			    "\nmeasured: per run (median of 3 runs), the "
			    "workload read 200 MiB, 'loop0' delivered 200 MiB "
			    "and 'vda' (the disk under it) 200 MiB; the page "
			    "cache was dropped before each run\n");

	/* dropping failed: not claimed */
	render(&runs,
	       ", \"drop_caches\": true, \"warnings\": [\"could not drop "
	       "caches between runs; runs may start with a warm page cache\"]",
	       &out);
	assert_null(strstr(out.buf, "dropped"));

	/* one run without the disk: the disk is left out */
	add_run(&runs, 200 * MIB, 200 * MIB, "", 0);
	render(&runs, "", &out);
	assert_non_null(strstr(out.buf, "median of 4 runs"));
	assert_null(strstr(out.buf, "vda"));
	strbuf_release(&runs);

	/* the top device is the disk: named once */
	strbuf_addstr(&runs, "[");
	add_run(&runs, 10 * MIB, 10 * MIB, "loop0", 10 * MIB);
	render(&runs, "", &out);
	assert_string_equal(out.buf, "\nmeasured: per run (median of 1 run), "
				     "the workload read 10 MiB, 'loop0' "
				     "delivered 10 MiB\n");
	strbuf_release(&runs);

	/* no truth (imported runs): nothing */
	strbuf_addstr(&runs, "[{\"arm\": 0, \"run\": {}}");
	render(&runs, "", &out);
	assert_string_equal(out.buf, "");
	strbuf_release(&runs);
	strbuf_release(&out);
}

/*
 * A workload that counts none of its own I/O (exec) or not its reads
 * (mmapdirty's faults): the processes' counters say what was fetched and
 * dirtied, not "the workload read 0 B", and the writes are not left out.
 */
static void test_measured_uncounted(void **state)
{
	struct strbuf runs = STRBUF_INIT, out = STRBUF_INIT;
	int i;

	(void)state;
	strbuf_addstr(&runs, "[");
	for (i = 0; i < 2; i++)
		strbuf_addf(&runs,
			    "%s{\"arm\": 0, \"run\": {\"truth\": {\"device\": "
			    "\"vda\", \"logical_read_bytes\": 0, "
			    "\"device_read_bytes\": %llu, "
			    "\"logical_write_bytes\": 0, "
			    "\"device_write_bytes\": %llu, "
			    "\"process_read_bytes\": %llu, "
			    "\"process_write_bytes\": %llu}}}",
			    i ? ", " : "", 70 * MIB, 1030 * MIB, 64 * MIB,
			    1024 * MIB);
	render(&runs, "", &out);
	assert_string_equal(out.buf,
			    "\nmeasured: per run (median of 2 runs), the "
			    "workload's processes fetched 64 MiB from "
			    "storage, 'vda' delivered 70 MiB, they dirtied "
			    "1 GiB, 'vda' took 1.01 GiB\n");

	/* counted writes, uncounted reads (mmapdirty) */
	strbuf_reset(&runs);
	strbuf_addf(&runs,
		    "[{\"arm\": 0, \"run\": {\"truth\": {\"device\": "
		    "\"vda\", \"logical_read_bytes\": 0, "
		    "\"device_read_bytes\": %llu, "
		    "\"logical_write_bytes\": %llu, "
		    "\"device_write_bytes\": %llu, "
		    "\"process_read_bytes\": %llu, "
		    "\"process_write_bytes\": %llu}}}",
		    64 * MIB, 64 * MIB, 65 * MIB, 64 * MIB, 64 * MIB);
	render(&runs, "", &out);
	assert_non_null(strstr(out.buf, "the workload's processes fetched "
					"64 MiB from storage, 'vda' delivered "
					"64 MiB, the workload wrote 64 MiB"));
	strbuf_release(&runs);
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_measured_line),
	    cmocka_unit_test(test_measured_uncounted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
