/*
 * Tests for core/tune/sets.c: the sets bisect compares, read from
 * KNOB=VALUE or from what `knobs --json` and `info --json` wrote on a
 * machine (tests/data/model/ holds one of each, and the cases below
 * write the variants they need). Each case checks the whole list of
 * "KNOB=VALUE" read, in order, or the error.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "core/tune/sets.h"
#include "util/banned.h"

/* The settings spec reads as, joined by spaces, into got; the return. */
static int read_set(const char *spec, struct strbuf *got, struct strbuf *err)
{
	struct knob_list l = {0};
	size_t i;
	int ret = tune_set_read(spec, &l, err);

	strbuf_reset(got);
	for (i = 0; i < l.nr; i++)
		strbuf_addf(got, "%s%s", i ? " " : "", l.v[i]);
	knob_list_release(&l);
	return ret;
}

/* tests/data/model/NAME's path into path. */
static void data_path(const char *name, struct strbuf *path)
{
	const char *src = getenv("IOTRIAL_SRC");

	strbuf_addf(path, "%s/tests/data/model/%s", src ? src : ".", name);
}

/* A temporary file holding text; its path into path (unlink it). */
static void temp_file(const char *text, struct strbuf *path)
{
	char name[] = "/tmp/test_tune_sets.XXXXXX";
	int fd = mkstemp(name);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (int)strlen(text));
	close(fd);
	strbuf_addstr(path, name);
}

/* The settings text reads as must be want. */
static void expect_text(const char *text, const char *want)
{
	struct strbuf path = STRBUF_INIT, got = STRBUF_INIT, err = STRBUF_INIT;

	temp_file(text, &path);
	if (read_set(path.buf, &got, &err))
		fail_msg("%s", err.buf);
	assert_string_equal(got.buf, want);
	unlink(path.buf);
	strbuf_release(&path);
	strbuf_release(&got);
	strbuf_release(&err);
}

/* text is no set: the error names the file and says so. */
static void expect_refused(const char *text)
{
	struct strbuf path = STRBUF_INIT, got = STRBUF_INIT, err = STRBUF_INIT;

	temp_file(text, &path);
	assert_int_equal(read_set(path.buf, &got, &err), -EINVAL);
	assert_non_null(strstr(err.buf, path.buf));
	assert_non_null(strstr(err.buf, "is neither KNOB=VALUE nor the JSON of "
					"'iotrial knobs --json' or 'iotrial "
					"info --json'"));
	assert_string_equal(got.buf, "");
	unlink(path.buf);
	strbuf_release(&path);
	strbuf_release(&got);
	strbuf_release(&err);
}

/* KNOB=VALUE is itself, not a file. */
static void test_assignment(void **state)
{
	struct strbuf got = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	assert_int_equal(read_set("read_ahead_kb=64", &got, &err), 0);
	assert_string_equal(got.buf, "read_ahead_kb=64");
	strbuf_release(&got);
	strbuf_release(&err);
}

/* knobs --json as iotrial writes it: the twin of a dirty threshold not
 * in force (it reads 0) is left out. */
static void test_knobs_file(void **state)
{
	struct strbuf path = STRBUF_INIT, got = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	data_path("knobs.json", &path);
	if (read_set(path.buf, &got, &err))
		fail_msg("%s", err.buf);
	assert_string_equal(got.buf,
			    "vm.dirty_ratio=20 vm.dirty_background_ratio=10 "
			    "vm.dirty_expire_centisecs=1500 "
			    "vm.dirty_writeback_centisecs=500 "
			    "vm.dirtytime_expire_seconds=43200");
	strbuf_release(&path);
	strbuf_release(&got);
	strbuf_release(&err);
}

/* A device's knobs: the scheduler's own parameters follow the
 * scheduler, so they are no setting of their own. */
static void test_knobs_device(void **state)
{
	(void)state;
	expect_text("{\"schema\": \"iotrial/1\", \"device\": \"loop0\", "
		    "\"mount\": null, \"knobs\": ["
		    "{\"name\": \"scheduler\", \"value\": \"mq-deadline\"}, "
		    "{\"name\": \"iosched.read_expire\", \"value\": \"500\"}, "
		    "{\"name\": \"read_ahead_kb\", \"value\": \"128\"}, "
		    "{\"name\": \"vm.dirty_bytes\", \"value\": \"1048576\"}, "
		    "{\"name\": \"vm.dirty_ratio\", \"value\": \"0\"}]}",
		    "scheduler=mq-deadline read_ahead_kb=128 "
		    "vm.dirty_bytes=1048576");
	expect_text("{\"schema\": \"iotrial/1\", \"knobs\": []}", "");
}

/* info --json as iotrial writes it: the ratios (bytes are 0), the
 * writeback timers, the first device's queue, the mount's atime. */
static void test_info_file(void **state)
{
	struct strbuf path = STRBUF_INIT, got = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	data_path("info.json", &path);
	if (read_set(path.buf, &got, &err))
		fail_msg("%s", err.buf);
	assert_string_equal(got.buf,
			    "vm.dirty_ratio=20 vm.dirty_background_ratio=10 "
			    "vm.dirty_expire_centisecs=3000 "
			    "vm.dirty_writeback_centisecs=500 "
			    "scheduler=mq-deadline read_ahead_kb=8192 "
			    "nr_requests=256 atime=relatime");
	strbuf_release(&path);
	strbuf_release(&got);
	strbuf_release(&err);
}

/* Bytes in force win over the ratios; a value null (unreadable) is no
 * setting; a stack without a device still has its mount's atime. */
static void test_info_variants(void **state)
{
	(void)state;
	expect_text("{\"schema\": \"iotrial/1\", \"vm\": {\"dirty_ratio\": 0, "
		    "\"dirty_background_ratio\": 10, \"dirty_bytes\": "
		    "4194304, \"dirty_background_bytes\": 0, "
		    "\"dirty_expire_centisecs\": null}}",
		    "vm.dirty_bytes=4194304 vm.dirty_background_ratio=10");
	expect_text("{\"schema\": \"iotrial/1\", \"stack\": {\"path\": \"/x\", "
		    "\"mount\": {\"target\": \"/x\", \"vfs_options\": "
		    "\"rw,noatime\"}, \"devices\": []}}",
		    "atime=noatime");
	expect_text("{\"schema\": \"iotrial/1\", \"stack\": {\"devices\": "
		    "[{\"name\": \"sda\", \"scheduler\": null, "
		    "\"read_ahead_kb\": 4096, \"nr_requests\": null}, "
		    "{\"name\": \"sdb\", \"scheduler\": \"none\"}]}}",
		    "read_ahead_kb=4096");
}

/* What is neither file is refused, whole. */
static void test_refused(void **state)
{
	(void)state;
	expect_refused("not json at all");
	expect_refused("{\"schema\": \"iotrial/1\", \"hostname\": \"x\"}");
	expect_refused("[1, 2]");
}

/* A file from elsewhere that names a raw knob is refused whole: such a
 * knob writes whatever file it names, as root. */
static void test_raw_refused(void **state)
{
	static const char *const texts[] = {
	    "{\"schema\": \"iotrial/1\", \"knobs\": ["
	    "{\"name\": \"read_ahead_kb\", \"value\": \"128\"}, "
	    "{\"name\": \"sysctl:kernel.sysrq\", \"value\": \"1\"}]}",
	    "{\"schema\": \"iotrial/1\", \"knobs\": ["
	    "{\"name\": \"sysfs:/sys/power/state\", \"value\": "
	    "\"mem\"}]}",
	};
	struct strbuf path = STRBUF_INIT, got = STRBUF_INIT, err = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		strbuf_reset(&path);
		strbuf_reset(&err);
		temp_file(texts[i], &path);
		assert_int_equal(read_set(path.buf, &got, &err), -EPERM);
		assert_non_null(strstr(err.buf, path.buf));
		assert_non_null(strstr(err.buf, i ? "the raw knob 'sysfs:"
						  : "the raw knob 'sysctl:"));
		assert_string_equal(got.buf, "");
		unlink(path.buf);
	}
	strbuf_release(&path);
	strbuf_release(&got);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_assignment),
	    cmocka_unit_test(test_knobs_file),
	    cmocka_unit_test(test_knobs_device),
	    cmocka_unit_test(test_info_file),
	    cmocka_unit_test(test_info_variants),
	    cmocka_unit_test(test_refused),
	    cmocka_unit_test(test_raw_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
