/*
 * Will a time-based read wrap its file (experiment/wrap.c): the
 * arithmetic of the estimate made before the first run (the rate a
 * probe read, what each reader reads in --time against its file, the
 * --size to suggest, the aligned request size of a direct probe), and
 * the probe of a laid-out file through workload_ops.open_laid_out: whole
 * aligned reads only, nothing written, and a file system that refuses
 * O_DIRECT named as the reason.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "core/experiment/wrap.h"
#include "core/workload/workload.h"
#include "util/strbuf.h"

#define MIB (1024ull * 1024ull)
#define GIB (1024ull * MIB)
#define SEC 1000000000ull

static void test_rate(void **state)
{
	(void)state;
	/* 48 MiB in 0.05 s */
	assert_float_equal(wrap_rate_mbps(48 * MIB, SEC / 20),
			   48.0 * MIB / 0.05 / 1e6, 1e-9);
	assert_float_equal(wrap_rate_mbps(1000000, SEC), 1.0, 1e-12);
	assert_float_equal(wrap_rate_mbps(123, 0), 0.0, 0);
}

/* The example: a 2 GiB file for 2 s at ~1.1 GB/s. */
static void test_predict(void **state)
{
	struct wrap_prediction p;

	(void)state;
	assert_int_equal(wrap_predict(1100, 2 * SEC, 1, 2 * GIB, &p), 1);
	assert_float_equal(p.per_reader_bytes, 2.2e9, 1);
	assert_float_equal(p.passes, 2.2e9 / (2.0 * GIB), 1e-9);
	/* 1.5 x 2.2 GB = 3.3 GB: the next power of two is 4 GiB */
	assert_int_equal(p.suggest_bytes, 4 * GIB);

	/* two readers of their own files share the device: 1.1 GB each,
	 * less than 2 GiB, no wrap */
	assert_int_equal(wrap_predict(1100, 2 * SEC, 2, 2 * GIB, &p), 0);
	assert_float_equal(p.per_reader_bytes, 1.1e9, 1);
	assert_int_equal(p.suggest_bytes, 2 * GIB);

	/* exactly the file: not more than it holds */
	assert_int_equal(wrap_predict(1, SEC, 1, 1000000, &p), 0);
	assert_int_equal(wrap_predict(1, SEC, 1, 999999, &p), 1);
	/* 0 readers count as one; no file, no wrap */
	assert_int_equal(wrap_predict(1000, SEC, 0, 500 * MIB, &p), 1);
	assert_float_equal(p.per_reader_bytes, 1e9, 1);
	assert_int_equal(wrap_predict(1000, SEC, 1, 0, &p), 0);
	/* the suggestion is never below 1 MiB */
	wrap_predict(0.001, SEC, 1, 4096, &p);
	assert_int_equal(p.suggest_bytes, MIB);
	assert_int_equal(wrap_size_at_least(MIB + 1), 2 * MIB);
	assert_int_equal(wrap_size_at_least(3 * GIB), 4 * GIB);
}

static void test_probe_bs(void **state)
{
	(void)state;
	assert_int_equal(wrap_probe_bs(MIB, GIB, 512), MIB);
	/* a buffered bs that is not aligned: rounded up */
	assert_int_equal(wrap_probe_bs(1000, GIB, 512), 1024);
	assert_int_equal(wrap_probe_bs(1000, GIB, 0), 4096);
	/* a file smaller than one request: its aligned part */
	assert_int_equal(wrap_probe_bs(MIB, 300 * 1024 + 7, 4096), 300 * 1024);
	assert_int_equal(wrap_probe_bs(MIB, 4095, 4096), 0);
}

static char path[] = "/tmp/iotrial-test-wrap.XXXXXX";
static int open_errno; /* what the fake open_laid_out returns, 0: open */
static uint64_t file_bytes;

/* A fake workload's laid-out file (buffered: tmpfs may hold /tmp). */
static int fake_open(const struct workload *w, uint64_t *bytes)
{
	int fd;

	(void)w;
	if (open_errno)
		return -open_errno;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	*bytes = file_bytes;
	return fd;
}

static const struct workload_ops fake_ops = {
    .name = "fake",
    .open_laid_out = fake_open,
};

static void test_probe_laid_out(void **state)
{
	struct workload w = {.ops = &fake_ops};
	struct wrap_probe_result pr;
	struct strbuf err = STRBUF_INIT;
	struct stat st;
	char *buf = calloc(1, 3 * MIB);
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	memset(buf, 'x', 3 * MIB);
	assert_int_equal(write(fd, buf, 3 * MIB), (ssize_t)(3 * MIB));
	close(fd);
	file_bytes = 3 * MIB;

	memset(&pr, 0, sizeof(pr));
	assert_int_equal(wrap_probe_laid_out(&w, MIB, 0, &pr, &err), 0);
	assert_int_equal(pr.source, WRAP_FROM_FILE);
	assert_int_equal(pr.bs, MIB);
	assert_int_equal(pr.random, 0);
	/* whole requests, within the cap of a few dozen MiB */
	assert_true(pr.bytes >= MIB && pr.bytes % MIB == 0);
	assert_true(pr.bytes <= 48 * MIB);
	assert_true(pr.ns > 0);
	assert_float_equal(pr.mbps, wrap_rate_mbps(pr.bytes, pr.ns), 1e-9);

	/* random reads of an unaligned bs: aligned requests */
	assert_int_equal(wrap_probe_laid_out(&w, 1000, 1, &pr, &err), 0);
	assert_int_equal(pr.bs, 4096);
	assert_int_equal(pr.random, 1);
	assert_true(pr.bytes % 4096 == 0);

	/* a probe reads and never writes */
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, (off_t)(3 * MIB));

	/* the file system refuses O_DIRECT: said so */
	open_errno = EINVAL;
	assert_int_equal(wrap_probe_laid_out(&w, MIB, 0, &pr, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "refuses O_DIRECT"));
	strbuf_reset(&err);
	open_errno = 0;

	/* a file said to be longer than it is: a short read is an error */
	file_bytes = 8 * MIB;
	assert_int_equal(wrap_probe_laid_out(&w, MIB, 0, &pr, &err), -EIO);
	assert_non_null(strstr(err.buf, "cannot read the laid-out file"));

	strbuf_reset(&err);

	/* less than one aligned read: nothing to probe */
	file_bytes = 100;
	assert_int_equal(wrap_probe_laid_out(&w, MIB, 0, &pr, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "smaller than one aligned read"));

	unlink(path);
	strbuf_release(&err);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rate),
	    cmocka_unit_test(test_predict),
	    cmocka_unit_test(test_probe_bs),
	    cmocka_unit_test(test_probe_laid_out),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
