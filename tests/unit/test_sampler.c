/*
 * Tests for the sampler and the readers it runs: /proc/meminfo and
 * /proc/PID/io parsing on real and malformed text, then the thread itself
 * on this machine's files: points arrive at the interval, timestamps
 * grow, our own writes show up in the process accounting, a bounded
 * series keeps the newest points, and the CPU it used is measured.
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
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "core/observe/cpustat.h"
#include "core/observe/meminfo.h"
#include "core/observe/procio.h"
#include "core/observe/sampler.h"
#include "util/banned.h"

static const char meminfo_text[] = "MemTotal:       24684092 kB\n"
				   "MemFree:        24265784 kB\n"
				   "MemAvailable:   24327372 kB\n"
				   "Buffers:            1856 kB\n"
				   "Cached:           229424 kB\n"
				   "SwapCached:            0 kB\n"
				   "Dirty:               220 kB\n"
				   "Writeback:             0 kB\n"
				   "WritebackTmp:        999 kB\n"
				   "HugePages_Total:       0\n";

/* The lines we want, in bytes; WritebackTmp is not Writeback. */
static void test_meminfo_parse(void **state)
{
	struct meminfo m;

	(void)state;
	assert_int_equal(meminfo_parse(meminfo_text, strlen(meminfo_text), &m),
			 0);
	assert_int_equal(m.total_bytes, 24684092ull * 1024);
	assert_int_equal(m.available_bytes, 24327372ull * 1024);
	assert_int_equal(m.cached_bytes, 229424ull * 1024);
	assert_int_equal(m.dirty_bytes, 220ull * 1024);
	assert_int_equal(m.writeback_bytes, 0);
	assert_true(m.have & MEMINFO_WRITEBACK);
}

/* Malformed values are errors; text without our names is too. */
static void test_meminfo_rejects(void **state)
{
	struct meminfo m;
	static const char bad[] = "MemTotal: 12x kB\n";
	static const char none[] = "Foo: 1 kB\nBar: 2 kB\n";
	static const char big[] = "Dirty: 99999999999999999999 kB\n";
	static const char huge[] = "Dirty: 18446744073709551615 kB\n";

	(void)state;
	assert_int_equal(meminfo_parse(bad, strlen(bad), &m), -EINVAL);
	assert_int_equal(meminfo_parse(none, strlen(none), &m), -EINVAL);
	assert_int_equal(meminfo_parse(big, strlen(big), &m), -ERANGE);
	assert_int_equal(meminfo_parse(huge, strlen(huge), &m), -ERANGE);
	assert_int_equal(meminfo_parse("", 0, &m), -EINVAL);
	/* a cut buffer: only what len covers */
	assert_int_equal(meminfo_parse(meminfo_text, 28, &m), 0);
	assert_true(m.have == MEMINFO_TOTAL);
}

/* The machine's own /proc/meminfo. */
static void test_meminfo_real(void **state)
{
	struct meminfo m;

	(void)state;
	assert_int_equal(meminfo_read(&m), 0);
	assert_true(m.total_bytes > 0);
	assert_true(m.have & MEMINFO_DIRTY);
}

static const char io_text[] = "rchar: 6976\n"
			      "wchar: 10\n"
			      "syscr: 10\n"
			      "syscw: 1\n"
			      "read_bytes: 4096\n"
			      "write_bytes: 8192\n"
			      "cancelled_write_bytes: 4096\n";

/* /proc/PID/io fields and deltas. */
static void test_procio_parse(void **state)
{
	struct procio a, b, d;
	static const char later[] = "write_bytes: 16384\n"
				    "cancelled_write_bytes: 8192\n"
				    "read_bytes: 4096\n";

	(void)state;
	assert_int_equal(procio_parse(io_text, strlen(io_text), &a), 0);
	assert_int_equal(a.rchar, 6976);
	assert_int_equal(a.write_bytes, 8192);
	assert_int_equal(a.cancelled_write_bytes, 4096);
	assert_int_equal(procio_parse(later, strlen(later), &b), 0);
	procio_delta(&a, &b, &d);
	assert_int_equal(d.write_bytes, 8192);
	assert_int_equal(d.cancelled_write_bytes, 4096);
	assert_int_equal(d.read_bytes, 0);
	assert_int_equal(d.rchar, 0); /* b lacks it: never negative */
}

/* Malformed /proc/PID/io text. */
static void test_procio_rejects(void **state)
{
	struct procio p;
	static const char bad[] = "write_bytes: -5\n";
	static const char no_write[] = "rchar: 5\n";
	static const char big[] = "write_bytes: 184467440737095516160\n";

	(void)state;
	assert_int_equal(procio_parse(bad, strlen(bad), &p), -EINVAL);
	assert_int_equal(procio_parse(no_write, strlen(no_write), &p), -EINVAL);
	assert_int_equal(procio_parse(big, strlen(big), &p), -ERANGE);
}

/* A device whose stat file exists here, or NULL. */
static const char *some_device(const char **name)
{
	static const char *const names[] = {"vda", "sda", "nvme0n1", "loop0",
					    "zram0"};
	static char path[64];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "/sys/block/%s/stat", names[i]);
		if (!access(path, R_OK)) {
			*name = names[i];
			return path;
		}
	}
	return NULL;
}

/* Sleep ms milliseconds. */
static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* The thread samples, our writes are accounted, the cost is measured. */
static void test_sampler_thread(void **state)
{
	struct sampler s;
	struct sampler_series ser;
	struct sampler_dev dev;
	struct strbuf err = STRBUF_INIT;
	char path[] = "/var/tmp/iotrial-test-sampler.XXXXXX";
	char buf[65536];
	unsigned i, tries;
	int fd;

	(void)state;
	dev.stat_path = some_device(&dev.name);
	if (!dev.stat_path)
		skip();
	assert_int_equal(sampler_init(&s, &dev, 1, 10 * 1000000ull, 0, &err),
			 0);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	memset(buf, 'x', sizeof(buf));
	/*
	 * Start and stop take a point each; the thread should add about 12
	 * in 120 ms, but a loaded machine may not run it at all in that
	 * time. So try again (a fresh series, fresh writes) until it added
	 * two, rather than judge the machine's scheduling.
	 */
	for (tries = 0; tries < 100; tries++) {
		assert_int_equal(sampler_start(&s, &err), 0);
		for (i = 0; i < 16; i++) /* 1 MiB dirtied, never written back */
			assert_int_equal(write(fd, buf, sizeof(buf)),
					 sizeof(buf));
		sleep_ms(120);
		sampler_stop(&s);
		if (s.series.nr_points >= 4)
			break;
	}
	close(fd);
	assert_true(s.series.nr_points >= 4);
	for (i = 1; i < s.series.nr_points; i++)
		assert_true(s.series.points[i].t_ns >
			    s.series.points[i - 1].t_ns);
	for (i = 0; i < s.series.nr_points; i++) {
		assert_true(sampler_disk(&s.series, i, 0)->nr_fields >=
			    DS_MIN_FIELDS);
		assert_true(s.series.points[i].have & SAMPLER_HAVE_MEM);
		assert_true(s.series.points[i].have & SAMPLER_HAVE_CPU);
	}
	if (s.series.points[0].have & SAMPLER_HAVE_IO) {
		const struct procio *a = &s.series.points[0].io;
		const struct procio *b =
		    &s.series.points[s.series.nr_points - 1].io;

		assert_true(b->wchar - a->wchar >= 16 * sizeof(buf));
	}
	assert_true(s.cpu_ns > 0);
	/* each sample costs less CPU than the interval it stands for */
	assert_true(s.cpu_ns < s.series.nr_points * 10 * 1000000ull);
	sampler_take_series(&s, &ser);
	assert_int_equal(s.series.nr_points, 0);
	assert_int_equal(s.series.nr_devs, 1);
	assert_string_equal(ser.dev_names[0], dev.name);
	/* the sampler can run again after its series was taken */
	assert_int_equal(sampler_start(&s, &err), 0);
	sampler_stop(&s);
	assert_true(s.series.nr_points >= 2);
	sampler_series_release(&ser);
	sampler_release(&s);
	strbuf_release(&err);
}

/* A bounded series keeps only the newest points, in order. */
static void test_sampler_bounded(void **state)
{
	struct sampler s;
	struct strbuf err = STRBUF_INIT;
	uint64_t last = 0;
	unsigned i;

	(void)state;
	assert_int_equal(sampler_init(&s, NULL, 0, 0, 2, &err), 0);
	assert_int_equal(s.interval_ns, SAMPLER_DEFAULT_INTERVAL_NS);
	for (i = 0; i < 5; i++) {
		sampler_sample(&s);
		last = s.series.points[s.series.nr_points - 1].t_ns;
	}
	assert_int_equal(s.series.nr_points, 2);
	assert_true(s.series.points[1].t_ns == last);
	assert_true(s.series.points[0].t_ns < last);
	sampler_release(&s);
	strbuf_release(&err);
}

/* A device that does not exist is an error naming it. */
static void test_sampler_bad_device(void **state)
{
	struct sampler s;
	struct strbuf err = STRBUF_INIT;
	struct sampler_dev dev = {"nosuch0", "/sys/block/nosuch0/stat"};

	(void)state;
	assert_int_equal(sampler_init(&s, &dev, 1, 0, 0, &err), -ENOENT);
	assert_non_null(strstr(err.buf, "'nosuch0'"));
	sampler_release(&s);
	strbuf_release(&err);
}

/* /proc/stat's cpu line: busy counts steal, which is also given apart. */
static void test_cpustat_steal(void **state)
{
	uint64_t busy, total, steal = 99;

	(void)state;
	assert_int_equal(cpustat_parse_proc_stat("cpu  100 10 50 400 20 0 5 "
						 "35 0 0\ncpu0 1 2 3\n",
						 &busy, &total, &steal),
			 0);
	assert_int_equal(busy, 100 + 10 + 50 + 5 + 35);
	assert_int_equal(total, busy + 400 + 20);
	assert_int_equal(steal, 35);
	/* an old kernel without the steal field */
	assert_int_equal(cpustat_parse_proc_stat("cpu  100 10 50 400\n", &busy,
						 &total, &steal),
			 0);
	assert_int_equal(steal, 0);
	assert_int_equal(
	    cpustat_parse_proc_stat("cpu  1 2 3 4\n", &busy, &total, NULL), 0);
	assert_int_equal(
	    cpustat_parse_proc_stat("intr 1 2\n", &busy, &total, &steal),
	    -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cpustat_steal),
	    cmocka_unit_test(test_meminfo_parse),
	    cmocka_unit_test(test_meminfo_rejects),
	    cmocka_unit_test(test_meminfo_real),
	    cmocka_unit_test(test_procio_parse),
	    cmocka_unit_test(test_procio_rejects),
	    cmocka_unit_test(test_sampler_thread),
	    cmocka_unit_test(test_sampler_bounded),
	    cmocka_unit_test(test_sampler_bad_device),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
