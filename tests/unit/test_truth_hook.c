/*
 * The truth hook for real (core/observe/truth.c) around buffered writes
 * to a directory: files deleted before writeback must show as absorbed
 * (> 0.5, with the warning), the same files fsync'd before deletion as
 * reaching the device (near 0). A tmpfs target must work and say why it
 * has no devices.
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
#include "core/report/run_text.h"
#include "core/workload/workload.h"
#include "util/xalloc.h"
#include "truth_fixture.h"
#include "util/banned.h"

/* Write nr files of file_bytes into dir; fsync each if asked; delete. */
static uint64_t write_and_delete(const char *dir, unsigned nr,
				 size_t file_bytes, int do_fsync)
{
	char path[512];
	static char buf[1 << 20];
	uint64_t total = 0;
	unsigned i;
	size_t done;

	memset(buf, 'a', sizeof(buf));
	for (i = 0; i < nr; i++) {
		int fd;

		snprintf(path, sizeof(path), "%s/f%u", dir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		assert_true(fd >= 0);
		for (done = 0; done < file_bytes; done += sizeof(buf))
			assert_int_equal(write(fd, buf, sizeof(buf)),
					 sizeof(buf));
		if (do_fsync)
			assert_int_equal(fsync(fd), 0);
		close(fd);
		unlink(path);
		total += file_bytes;
	}
	return total;
}

/* One measured region around write_and_delete; returns the run. */
static void measured(struct truth_hook *th, const char *dir, int do_fsync,
		     struct run_result *r)
{
	struct measure m;

	run_result_init(r);
	measure_init(&m, &th->hook);
	measure_begin(&m);
	r->bytes[IO_WRITE] = write_and_delete(dir, 16, 4 << 20, do_fsync);
	r->ops[IO_WRITE] = r->bytes[IO_WRITE] >> 20;
	measure_end(&m, r);
}

/* The dbench effect, for real, and its cure. */
static void test_hook_delete_before_writeback(void **state)
{
	struct target t = {0};
	struct truth_hook th;
	struct strbuf err = STRBUF_INIT;
	struct run_result r;
	const struct truth *tr;
	char dir[] = "/var/tmp/iotrial-test-truth.XXXXXX";

	(void)state;
	assert_non_null(mkdtemp(dir));
	t.kind = TARGET_DIR;
	t.path = dir;
	assert_int_equal(truth_hook_init(&th, &t, NULL, &err), 0);
	if (!th.stack.nr_devs) {
		truth_hook_release(&th);
		rmdir(dir);
		skip();
	}
	measured(&th, dir, 0, &r);
	tr = r.truth;
	assert_non_null(tr);
	assert_true(tr->have_device);
	assert_int_equal(tr->logical_write_bytes, 64 * MIB);
	assert_true(tr->absorbed_fraction > 0.5);
	assert_true(warned(&r, "never reached the device"));
	assert_true(tr->series.nr_points >= 2);
	assert_true(tr->have_env);
	if (tr->have_procio)
		assert_true(tr->cancelled_write_bytes > 32 * MIB);
	print_message("  delete before writeback: absorbed %.3f, device %llu "
		      "bytes, cancelled %llu bytes\n",
		      tr->absorbed_fraction,
		      (unsigned long long)tr->device_write_bytes,
		      (unsigned long long)tr->cancelled_write_bytes);
	run_result_release(&r);

	measured(&th, dir, 1, &r);
	tr = r.truth;
	assert_true(tr->absorbed_fraction < 0.1);
	assert_false(warned(&r, "never reached the device"));
	print_message("  fsync before delete: absorbed %.3f, device %llu "
		      "bytes\n",
		      tr->absorbed_fraction,
		      (unsigned long long)tr->device_write_bytes);
	run_result_release(&r);
	truth_hook_release(&th);
	rmdir(dir);
	strbuf_release(&err);
}

/* A tmpfs target: the run works, no devices, the reason is given. */
static void test_hook_tmpfs(void **state)
{
	struct target t = {0};
	struct truth_hook th;
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	struct run_result r;
	const struct truth *tr;
	struct json_object *run;
	unsigned i;
	int noted = 0;

	(void)state;
	t.kind = TARGET_DIR;
	t.path = "/dev/shm";
	assert_int_equal(truth_hook_init(&th, &t, NULL, &err), 0);
	if (th.stack.nr_devs) {
		truth_hook_release(&th);
		skip();
	}
	measured(&th, "/dev/shm", 0, &r);
	tr = r.truth;
	assert_non_null(tr);
	assert_int_equal(tr->nr_devs, 0);
	assert_non_null(tr->no_device_reason);
	assert_true(isnan(tr->absorbed_fraction));
	for (i = 0; i < r.nr_notes; i++)
		noted |= strstr(r.notes[i], "no block device") != NULL;
	assert_true(noted);
	run = truth_tree(tr);
	truth_text(tr, &text);
	assert_non_null(strstr(text.buf, "device truth: not available"));
	assert_false(json_object_object_get_ex(run, "devices", NULL));
	assert_true(json_object_object_get_ex(run, "env", NULL));
	json_object_put(run);
	run_result_release(&r);
	truth_hook_release(&th);
	strbuf_release(&err);
	strbuf_release(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_hook_delete_before_writeback),
	    cmocka_unit_test(test_hook_tmpfs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
