/*
 * Tests for core/observe/diskstats.c: the stat-file parser on every
 * field count the kernel has printed (11, 15, 17) and on malformed text,
 * counter wrap and reset, and the iostat -x columns computed from two
 * hand-made readings whose answers are worked out in the comments.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "core/observe/diskstats.h"
#include "util/banned.h"

/* Parse a NUL-terminated string. */
static int parse(const char *s, struct diskstats *out)
{
	return diskstats_parse(s, strlen(s), out);
}

/* A 6.x kernel's line, padded the way the kernel pads it. */
static void test_parse_17_fields(void **state)
{
	struct diskstats s;

	(void)state;
	assert_int_equal(
	    parse("   29699     6219  2488042    42491    26560    10728  "
		  "1252112     8228        0    25060    51331     4412"
		  "       43   111800      505     1499      106\n",
		  &s),
	    0);
	assert_int_equal(s.nr_fields, 17);
	assert_int_equal(s.v[DS_RD_IOS], 29699);
	assert_int_equal(s.v[DS_WR_SECTORS], 1252112);
	assert_int_equal(s.v[DS_IO_TICKS], 25060);
	assert_int_equal(s.v[DS_DC_SECTORS], 111800);
	assert_int_equal(s.v[DS_FL_TICKS], 106);
}

/* Older kernels: 11 fields (pre-4.18) and 15 (pre-5.5). */
static void test_parse_old_kernels(void **state)
{
	struct diskstats s;

	(void)state;
	assert_int_equal(parse("1 2 3 4 5 6 7 8 9 10 11", &s), 0);
	assert_int_equal(s.nr_fields, 11);
	assert_int_equal(s.v[DS_QUEUE_TICKS], 11);
	assert_int_equal(s.v[DS_DC_IOS], 0);
	assert_int_equal(parse("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n", &s), 0);
	assert_int_equal(s.nr_fields, 15);
	assert_int_equal(s.v[DS_DC_TICKS], 15);
}

/* Future kernels may append fields: the known ones are kept. */
static void test_parse_extra_fields(void **state)
{
	struct diskstats s;

	(void)state;
	assert_int_equal(parse("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 "
			       "19",
			       &s),
			 0);
	assert_int_equal(s.nr_fields, DS_NR_FIELDS);
	assert_int_equal(s.v[DS_FL_TICKS], 17);
}

/* Anything but numbers and whitespace is refused. */
static void test_parse_rejects(void **state)
{
	struct diskstats s;
	static const char max64[] = "18446744073709551615 0 0 0 0 0 0 0 0 0 0";
	static const char over64[] = "18446744073709551616 0 0 0 0 0 0 0 0 0 0";

	(void)state;
	assert_int_equal(parse("", &s), -EINVAL);
	assert_int_equal(parse("1 2 3 4 5 6 7 8 9 10", &s), -EINVAL);
	assert_int_equal(parse("1 2 3 4 5 6 7 8 9 10 x", &s), -EINVAL);
	assert_int_equal(parse("1 2 3 4 5 6 7 8 9 10 11x", &s), -EINVAL);
	assert_int_equal(parse("-1 2 3 4 5 6 7 8 9 10 11", &s), -EINVAL);
	assert_int_equal(parse("1 2 3 4 5 6 7 8 9 10 1.5", &s), -EINVAL);
	assert_int_equal(parse(max64, &s), 0);
	assert_int_equal(s.v[0], UINT64_MAX);
	assert_int_equal(parse(over64, &s), -ERANGE);
	/* a length shorter than the string is honoured */
	assert_int_equal(diskstats_parse("1 2 3 4 5 6 7 8 9 10 11 12", 22, &s),
			 0);
	assert_int_equal(s.nr_fields, 11);
	/* text after a NUL is not read */
	assert_int_equal(diskstats_parse("1 2 3 4 5 6 7 8 9 10 11\0zz", 26, &s),
			 0);
}

/* Differences across wraps and resets. */
static void test_counter_delta(void **state)
{
	(void)state;
	assert_int_equal(diskstats_counter_delta(10, 25), 15);
	/* a 32-bit tick counter wrapped: 0xfffffff0 -> 0x10 is 32 ms */
	assert_int_equal(diskstats_counter_delta(0xfffffff0ull, 0x10), 0x20);
	/* a 64-bit counter wrapped */
	assert_int_equal(diskstats_counter_delta(UINT64_MAX - 4, 5), 10);
	/* a reset: the device was re-created; count from zero */
	assert_int_equal(diskstats_counter_delta(5000, 7), 7);
	assert_int_equal(diskstats_counter_delta(1ull << 40, 3), 3);
}

/*
 * Two readings 2 s apart:
 *   reads 200, 4096 sectors (2 MiB), 400 ms -> 100 r/s, 1.048576 MB/s,
 *     r_await 2 ms, rareq-sz 10.24 KiB, rrqm/s 25 (50 merges)
 *   writes 50, 1000 sectors, 1000 ms -> 25 w/s, 0.256 MB/s, w_await 20,
 *     wareq-sz 10 KiB
 *   io_ticks 1000 ms over 2000 -> 50 %util; queue ticks 3000 -> aqu 1.5
 *   discards 4 of 8192 sectors in 8 ms; flushes 10 in 30 ms
 */
static void test_columns(void **state)
{
	struct diskstats a, b;
	struct disk_delta d;

	(void)state;
	assert_int_equal(parse("100 10 1000 50 20 0 500 10 0 5000 7000 "
			       "1 0 16 2 3 9",
			       &a),
			 0);
	assert_int_equal(parse("300 60 5096 450 70 0 1500 1010 2 6000 10000 "
			       "5 0 8208 10 13 39",
			       &b),
			 0);
	diskstats_delta(&a, &b, 2.0, &d);
	assert_int_equal(d.reads, 200);
	assert_int_equal(d.writes, 50);
	assert_int_equal(d.read_bytes, 4096 * 512);
	assert_int_equal(d.write_bytes, 1000 * 512);
	assert_int_equal(d.discard_bytes, 8192 * 512);
	assert_int_equal(d.discards, 4);
	assert_int_equal(d.flushes, 10);
	assert_true(d.has_discards && d.has_flushes);
	assert_float_equal(d.r_s, 100.0, 1e-9);
	assert_float_equal(d.w_s, 25.0, 1e-9);
	assert_float_equal(d.rrqm_s, 25.0, 1e-9);
	assert_float_equal(d.rmbps, 1.048576, 1e-9);
	assert_float_equal(d.wmbps, 0.256, 1e-9);
	assert_float_equal(d.r_await_ms, 2.0, 1e-9);
	assert_float_equal(d.w_await_ms, 20.0, 1e-9);
	assert_float_equal(d.rareq_kib, 10.24, 1e-9);
	assert_float_equal(d.wareq_kib, 10.0, 1e-9);
	assert_float_equal(d.util_pct, 50.0, 1e-9);
	assert_float_equal(d.aqu_sz, 1.5, 1e-9);
	assert_float_equal(d.d_s, 2.0, 1e-9);
	assert_float_equal(d.d_await_ms, 2.0, 1e-9);
	assert_float_equal(d.f_s, 5.0, 1e-9);
	assert_float_equal(d.f_await_ms, 3.0, 1e-9);
}

/* No requests: no division by zero; a zero interval gives no rates. */
static void test_idle_and_zero_interval(void **state)
{
	struct diskstats a, b;
	struct disk_delta d;

	(void)state;
	assert_int_equal(parse("5 0 40 1 5 0 40 1 0 2 2", &a), 0);
	diskstats_delta(&a, &a, 1.0, &d);
	assert_float_equal(d.r_await_ms, 0, 0);
	assert_float_equal(d.rareq_kib, 0, 0);
	assert_float_equal(d.util_pct, 0, 0);
	assert_false(d.has_discards);
	assert_false(d.has_flushes);
	assert_int_equal(parse("6 0 48 3 5 0 40 1 0 3 4", &b), 0);
	diskstats_delta(&a, &b, 0, &d);
	assert_int_equal(d.reads, 1);
	assert_float_equal(d.r_s, 0, 0);
	assert_float_equal(d.r_await_ms, 2.0, 1e-9);
}

/* Busy time beyond the interval (clock skew between readers) caps. */
static void test_util_capped(void **state)
{
	struct diskstats a, b;
	struct disk_delta d;

	(void)state;
	assert_int_equal(parse("0 0 0 0 0 0 0 0 0 0 0", &a), 0);
	assert_int_equal(parse("1 0 8 1 0 0 0 0 0 1010 1010", &b), 0);
	diskstats_delta(&a, &b, 1.0, &d);
	assert_float_equal(d.util_pct, 100.0, 0);
	assert_float_equal(d.aqu_sz, 1.01, 1e-9);
}

/* A wrap of the 32-bit tick fields still gives the right await. */
static void test_columns_across_wrap(void **state)
{
	struct diskstats a, b;
	struct disk_delta d;

	(void)state;
	assert_int_equal(parse("10 0 80 4294967000 0 0 0 0 0 4294967000 "
			       "4294967000",
			       &a),
			 0);
	assert_int_equal(parse("20 0 160 704 0 0 0 0 0 204 304", &b), 0);
	diskstats_delta(&a, &b, 1.0, &d);
	/* (2^32 - 4294967000) + 704 = 296 + 704 = 1000 ms over 10 reads */
	assert_float_equal(d.r_await_ms, 100.0, 1e-9);
	assert_float_equal(d.util_pct, 50.0, 1e-9);
	assert_float_equal(d.aqu_sz, 0.6, 1e-9);
}

/* The real file of a real device parses (when sysfs is there). */
static void test_real_device(void **state)
{
	static const char *const paths[] = {
	    "/sys/block/vda/stat", "/sys/block/sda/stat",
	    "/sys/block/nvme0n1/stat", "/sys/block/loop0/stat"};
	struct diskstats s;
	size_t i;
	int fd;

	(void)state;
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		fd = open(paths[i], O_RDONLY);
		if (fd < 0)
			continue;
		assert_int_equal(diskstats_read_fd(fd, &s), 0);
		assert_true(s.nr_fields >= DS_MIN_FIELDS);
		/* a second read of the same fd works too (pread at 0) */
		assert_int_equal(diskstats_read_fd(fd, &s), 0);
		close(fd);
		return;
	}
	skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_17_fields),
	    cmocka_unit_test(test_parse_old_kernels),
	    cmocka_unit_test(test_parse_extra_fields),
	    cmocka_unit_test(test_parse_rejects),
	    cmocka_unit_test(test_counter_delta),
	    cmocka_unit_test(test_columns),
	    cmocka_unit_test(test_idle_and_zero_interval),
	    cmocka_unit_test(test_util_capped),
	    cmocka_unit_test(test_columns_across_wrap),
	    cmocka_unit_test(test_real_device),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
