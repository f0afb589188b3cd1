/*
 * Tests for device truth (core/observe/truth.c). Hand-made series check
 * the arithmetic and each warning, with and without the numbers that
 * should trigger it. The JSON members are test_truth_json.c's; the hook
 * around real writes is test_truth_hook.c's; a device stack whose
 * bottom did not move is test_truth_stack.c's.
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

/*
 * 2 s between first and last point: 204800 sectors (100 MiB) written in
 * 1000 writes, 2048 sectors (1 MiB) read in 10 reads.
 */
static void test_from_series(void **state)
{
	struct sampler_series ser;
	struct truth *t = new_truth();

	(void)state;
	make_series(&ser, "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
		    "10 0 2048 20 1000 0 204800 3000 0 1500 3100 0 0 0 0 4 8",
		    1 * MIB, 2 * MIB, 10, 10 + 100 * MIB, 3 * MIB);
	truth_from_series(t, &ser, NULL);
	assert_float_equal(t->seconds, 2.0, 1e-9);
	assert_int_equal(t->nr_devs, 1);
	assert_true(t->have_device);
	assert_string_equal(t->device, "vdx");
	assert_int_equal(t->device_write_bytes, 100 * MIB);
	assert_int_equal(t->device_read_bytes, 1 * MIB);
	assert_float_equal(t->devs[0].d.w_s, 500.0, 1e-9);
	assert_float_equal(t->devs[0].d.w_await_ms, 3.0, 1e-9);
	assert_float_equal(t->devs[0].d.util_pct, 75.0, 1e-9);
	assert_int_equal(t->devs[0].d.flushes, 4);
	assert_true(t->have_procio);
	assert_int_equal(t->process_write_bytes, 100 * MIB);
	assert_int_equal(t->cancelled_write_bytes, 3 * MIB);
	assert_true(t->have_mem);
	assert_int_equal(t->dirty_start_bytes, 1 * MIB);
	assert_int_equal(t->dirty_end_bytes, 2 * MIB);
	assert_int_equal(t->dirty_peak_bytes, 3 * MIB);
	assert_int_equal(t->writeback_peak_bytes, 5 * MIB);
	sampler_series_release(&ser);
	truth_free(t);
}

/* The absorbed fraction: missing device bytes or cancelled, the larger. */
static void test_absorbed(void **state)
{
	struct truth *t = new_truth();
	struct run_result r;

	(void)state;
	make_run(&r, 2, 0, 0, 1000, 100 * MIB);
	t->have_device = 1;
	t->device_write_bytes = 10 * MIB;
	truth_apply_run(t, &r);
	assert_float_equal(t->absorbed_fraction, 0.9, 1e-9);
	/* more reached the device than written (journal): nothing absorbed */
	t->device_write_bytes = 120 * MIB;
	truth_apply_run(t, &r);
	assert_float_equal(t->absorbed_fraction, 0.0, 0);
	/* other writers hide the loss; the cancelled bytes do not */
	t->have_procio = 1;
	t->cancelled_write_bytes = 80 * MIB;
	truth_apply_run(t, &r);
	assert_float_equal(t->absorbed_fraction, 0.8, 1e-9);
	t->cancelled_write_bytes = 500 * MIB; /* capped at what was written */
	truth_apply_run(t, &r);
	assert_float_equal(t->absorbed_fraction, 1.0, 1e-9);
	/* no device: unknown */
	t->have_device = 0;
	truth_apply_run(t, &r);
	assert_true(isnan(t->absorbed_fraction));
	/* burst vs settled */
	t->have_device = 1;
	r.burst_seconds = 0.5;
	truth_apply_run(t, &r);
	assert_float_equal(t->settled_mbps, 100.0 * MIB / 2 / 1e6, 1e-6);
	assert_float_equal(t->burst_mbps, 100.0 * MIB / 0.5 / 1e6, 1e-6);
	run_result_release(&r);
	truth_free(t);
}

/* Each warning fires on its numbers, and quotes them. */
static void test_warnings(void **state)
{
	struct truth *t = new_truth();
	struct truth_opts o = {0};
	struct run_result r;

	(void)state;
	t->have_device = 1;
	t->device = xstrdup("vdx");
	t->have_procio = 1;

	/* a clean run: 10 s, many I/Os, device saw what was written */
	make_run(&r, 10, 0, 0, 25600, 100 * MIB);
	r.cpu.user_s = 1;
	t->device_write_bytes = 101 * MIB;
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 1ull << 34);
	assert_int_equal(r.nr_warnings, 0);
	run_result_release(&r);

	/* deleted before writeback */
	make_run(&r, 10, 0, 0, 25600, 100 * MIB);
	t->device_write_bytes = 2 * MIB;
	t->cancelled_write_bytes = 98 * MIB;
	t->dirty_peak_bytes = 100 * MIB;
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 1ull << 34);
	assert_true(warned(&r, "98% of the written bytes never reached"));
	assert_int_equal(kind_of(&r, "never reached"), RUN_WARN_ABSORBED);
	assert_true(warned(&r, "'vdx' took 2 MiB"));
	assert_true(warned(&r, "files were deleted or truncated while still "
			       "dirty; fsync them before deleting"));
	assert_false(warned(&r, "--settle"));
	run_result_release(&r);

	/* reads from the page cache; direct I/O is never suspected */
	make_run(&r, 10, 25600, 100 * MIB, 0, 0);
	t->device_write_bytes = 0;
	t->cancelled_write_bytes = 0;
	t->device_read_bytes = 1 * MIB;
	o.working_set_bytes = 100 * MIB;
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 1ull << 34);
	assert_true(warned(&r, "reads measured the page cache"));
	assert_int_equal(kind_of(&r, "page cache"), RUN_WARN_PAGE_CACHE);
	assert_true(warned(&r, "(1.0%)"));
	assert_true(warned(&r, "working set fits in 16 GiB"));
	run_result_release(&r);
	make_run(&r, 10, 25600, 100 * MIB, 0, 0);
	o.direct = 1;
	truth_warn(t, &r, &o, 1ull << 34);
	assert_false(warned(&r, "page cache"));
	o.direct = 0;
	run_result_release(&r);

	/* CPU-bound workers: all of them at >= 90% */
	make_run(&r, 10, 25600, 100 * MIB, 0, 0);
	t->device_read_bytes = 100 * MIB;
	r.jobs = xcalloc(2, sizeof(*r.jobs));
	r.nr_jobs = 2;
	r.jobs[0].seconds = r.jobs[1].seconds = 10;
	r.jobs[0].user_s = 3;
	r.jobs[0].sys_s = 6.5;
	r.jobs[1].sys_s = 9.9;
	truth_warn(t, &r, &o, 1ull << 34);
	assert_true(warned(&r, "CPU-bound: all 2 used at least 90%"));
	assert_int_equal(kind_of(&r, "CPU-bound"), RUN_WARN_CPU_BOUND);
	assert_true(warned(&r, "busiest 99%"));
	assert_true(warned(&r, "try an async engine, larger blocks or more "
			       "jobs"));
	run_result_release(&r);
	/* ...with the workload's own advice where it has one */
	make_run(&r, 10, 25600, 100 * MIB, 0, 0);
	r.cpu.user_s = 9.8;
	o.cpu_bound_advice = "a larger --stride";
	truth_warn(t, &r, &o, 1ull << 34);
	assert_true(warned(&r, "CPU-bound: 1 used at least 90%"));
	assert_true(warned(&r, "as the device; a larger --stride"));
	assert_false(warned(&r, "async engine"));
	o.cpu_bound_advice = NULL;
	run_result_release(&r);
	make_run(&r, 10, 25600, 100 * MIB, 0, 0);
	r.jobs = xcalloc(2, sizeof(*r.jobs));
	r.nr_jobs = 2;
	r.jobs[0].seconds = r.jobs[1].seconds = 10;
	r.jobs[0].sys_s = 9.5;
	r.jobs[1].sys_s = 2;
	truth_warn(t, &r, &o, 1ull << 34);
	assert_false(warned(&r, "CPU-bound"));
	run_result_release(&r);

	/* too short: under a second, or under 1000 I/Os */
	make_run(&r, 0.5, 5000, 20 * MIB, 0, 0);
	t->device_read_bytes = 20 * MIB;
	truth_warn(t, &r, &o, 0);
	assert_true(warned(&r, "too short to trust: 0.500 s and 5000 I/Os"));
	assert_int_equal(kind_of(&r, "too short"), RUN_WARN_SHORT);
	assert_true(warned(&r, "use a longer --time or more --ios"));
	run_result_release(&r);
	make_run(&r, 0.5, 5000, 20 * MIB, 0, 0);
	o.short_run_advice = "give it more --passes";
	truth_warn(t, &r, &o, 0);
	assert_true(warned(&r, "and 1000 I/Os; give it more --passes"));
	assert_false(warned(&r, "--time"));
	o.short_run_advice = NULL;
	run_result_release(&r);
	make_run(&r, 5, 999, 20 * MIB, 0, 0);
	truth_warn(t, &r, &o, 0);
	assert_true(warned(&r, "too short"));
	run_result_release(&r);

	/* other I/O: far more device traffic than ours */
	make_run(&r, 10, 25600, 100 * MIB, 0, 0);
	t->device_read_bytes = 500 * MIB;
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 0);
	assert_true(warned(&r, "other I/O ran on 'vdx'"));
	assert_true(warned(&r, "delivered 500 MiB of reads"));
	assert_int_equal(kind_of(&r, "other I/O"), RUN_WARN_OTHER_IO);
	run_result_release(&r);
	make_run(&r, 10, 25600, 100 * MIB, 0, 0);
	t->device_read_bytes = 100 * MIB;
	t->device_write_bytes = 300 * MIB;
	truth_warn(t, &r, &o, 0);
	assert_true(warned(&r, "took 300 MiB of writes"));
	assert_int_equal(kind_of(&r, "of writes"), RUN_WARN_OTHER_IO);
	run_result_release(&r);

	/* steal: a fifth of the machine's CPU time, and a second of it */
	t->device_write_bytes = 100 * MIB;
	make_run(&r, 10, 25600, 100 * MIB, 0, 0);
	r.cpu.system_total_s = 4.14;
	r.cpu.system_steal_s = 1.25;
	truth_warn(t, &r, &o, 0);
	assert_true(warned(&r, "the hypervisor took 30% of the machine's CPU "
			       "time during the run (1.25 s of 4.14 s)"));
	assert_int_equal(kind_of(&r, "hypervisor"), RUN_WARN_STEAL);
	assert_string_equal(run_warn_kind_name(RUN_WARN_STEAL), "steal");
	run_result_release(&r);
	make_run(&r, 10, 25600, 100 * MIB, 0, 0);
	r.cpu.system_total_s = 4.14;
	r.cpu.system_steal_s = 0.8; /* 19% */
	truth_warn(t, &r, &o, 0);
	assert_false(warned(&r, "hypervisor"));
	run_result_release(&r);
	make_run(&r, 10, 25600, 100 * MIB, 0, 0);
	r.cpu.system_total_s = 0.5; /* half a second: a tick decides */
	r.cpu.system_steal_s = 0.25;
	truth_warn(t, &r, &o, 0);
	assert_false(warned(&r, "hypervisor"));
	run_result_release(&r);
	truth_free(t);
}

/*
 * The cached-reads sentence never contradicts its own numbers (issue
 * 30: "the workload read 1.64 GiB but 'loop0' delivered 1.66 GiB
 * (101.0%), so at least 39.0% came from memory"). A device that
 * delivered more than the workload read shows read-ahead or other I/O,
 * not memory; one that delivered less shows that much from memory, and
 * no more is claimed than the shortfall.
 */
static void test_cached_sentence_agrees(void **state)
{
	struct truth *t = new_truth();
	struct truth_opts o = {.working_set_bytes = 1ull << 30};
	uint64_t read_bytes = 1761 * MIB; /* 1.72 GiB, 1.72 times over */
	struct run_result r;
	unsigned i;

	(void)state;
	t->have_device = 1;
	t->device = xstrdup("loop0");
	/* more delivered than read: no claim that anything came from
	 * memory, only what could have */
	make_run(&r, 2, 1761, read_bytes, 0, 0);
	t->device_read_bytes = read_bytes + read_bytes / 100;
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 1ull << 34);
	assert_int_equal(kind_of(&r, "page cache"), RUN_WARN_PAGE_CACHE);
	assert_false(warned(&r, "came from memory"));
	assert_false(warned(&r, "at least"));
	assert_true(warned(&r, "could have come from memory, but 'loop0' "
			       "delivered 1.74 GiB, 101.0% of the 1.72 GiB"));
	assert_true(warned(&r, "read-ahead or other I/O on it delivers the "
			       "bytes above what was read"));
	run_result_release(&r);
	/* less delivered than read, while wrapped: the shortfall is what
	 * came from memory, not the 41.9% a cache keeping it all gives */
	make_run(&r, 2, 1761, read_bytes, 0, 0);
	t->device_read_bytes = read_bytes * 7 / 10;
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 1ull << 34);
	assert_int_equal(kind_of(&r, "page cache"), RUN_WARN_PAGE_CACHE);
	assert_true(warned(&r, "delivered only 1.2 GiB (70.0%), so 30.0% "
			       "came from memory"));
	assert_false(warned(&r, "at least"));
	assert_false(warned(&r, "41.9%"));
	run_result_release(&r);
	/* every split of the bytes: the percentage said to have come from
	 * memory is never more than the shortfall shows, and none is said
	 * when there is no shortfall */
	for (i = 50; i <= 150; i += 5) {
		const char *w;
		double said;

		make_run(&r, 2, 1761, read_bytes, 0, 0);
		t->device_read_bytes = read_bytes * i / 100;
		truth_apply_run(t, &r);
		truth_warn(t, &r, &o, 1ull << 34);
		w = r.nr_warnings ? r.warnings[0] : "";
		if (strstr(w, "came from memory")) {
			const char *so = strstr(w, "), so ");

			assert_non_null(so);
			said = strtod(so + 6, NULL);
			assert_true(i < 100);
			assert_true(said <= 100.0 - i + 0.05);
		}
		run_result_release(&r);
	}
	truth_free(t);
}

/*
 * The absorbed-writes warning suggests what helps for its cause: a run
 * that synced but rewrote its file while dirty is not told to sync; a
 * run that left its writes dirty is.
 */
/*
 * The cached fraction is a quantity on every run; a shortfall of the
 * device beyond 5% is a page-cache warning, not only a near-total one
 * (note 000: a 2 GiB file read 4.4 times over in a 2 s run).
 */
static void test_cached_fraction(void **state)
{
	struct truth *t = new_truth();
	struct truth_opts o = {.working_set_bytes = 2ull << 30};
	struct run_result r;

	(void)state;
	t->have_device = 1;
	t->device = xstrdup("vda");
	make_run(&r, 2, 9391, 9391000000ull, 0, 0);
	t->device_read_bytes = 2147000000ull;
	truth_apply_run(t, &r);
	assert_float_equal(t->cached_read_fraction, 1 - 2147.0 / 9391, 1e-9);
	truth_warn(t, &r, &o, 1ull << 34);
	assert_int_equal(kind_of(&r, "page cache"), RUN_WARN_PAGE_CACHE);
	assert_true(warned(&r, "(22.9%), so 77.1% came from memory"));
	assert_true(warned(&r, "2 GiB working set 4.37 times over"));
	assert_true(warned(&r, "--invalidate=1"));
	run_result_release(&r);

	/* 4% short: sampling edges, not the cache */
	make_run(&r, 2, 1000, 1000 * MIB, 0, 0);
	t->device_read_bytes = 960 * MIB;
	truth_apply_run(t, &r);
	assert_float_equal(t->cached_read_fraction, 0.04, 1e-9);
	truth_warn(t, &r, &o, 1ull << 34);
	assert_false(warned(&r, "page cache"));
	run_result_release(&r);

	/* 10% short, read once: random repeats, said so */
	make_run(&r, 2, 1000, 1000 * MIB, 0, 0);
	t->device_read_bytes = 900 * MIB;
	o.working_set_bytes = 64ull << 30;
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 1ull << 34);
	assert_true(warned(&r, "so 10.0% came from memory"));
	assert_true(warned(&r, "blocks read twice"));
	run_result_release(&r);

	/* read-ahead: the device delivered more, nothing was cached */
	make_run(&r, 2, 1000, 1000 * MIB, 0, 0);
	t->device_read_bytes = 1200 * MIB;
	truth_apply_run(t, &r);
	assert_float_equal(t->cached_read_fraction, 0, 0);
	run_result_release(&r);

	/* wrapped by 10% of a file that fits in memory: flagged, although
	 * other I/O made the device deliver more than the workload read;
	 * the sentence says what could have come from memory, never that
	 * it did, since the device's count shows no shortfall */
	o.working_set_bytes = 1000 * MIB;
	make_run(&r, 2, 1100, 1100 * MIB, 0, 0);
	t->device_read_bytes = 1300 * MIB;
	truth_apply_run(t, &r);
	assert_float_equal(t->cached_read_fraction, 0, 0);
	truth_warn(t, &r, &o, 1ull << 34);
	assert_int_equal(kind_of(&r, "page cache"), RUN_WARN_PAGE_CACHE);
	assert_true(warned(&r, "up to 9.1% of them could have come from "
			       "memory, but 'vda' delivered 1.27 GiB, 118.2% "
			       "of the 1.07 GiB the workload read"));
	assert_false(warned(&r, "came from memory"));
	assert_true(warned(&r, "1000 MiB working set 1.10 times over"));
	run_result_release(&r);
	/* ... but not when each pass starts cold, nor when it does not fit */
	o.invalidate = 1;
	make_run(&r, 2, 1100, 1100 * MIB, 0, 0);
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 1ull << 34);
	assert_false(warned(&r, "page cache"));
	run_result_release(&r);
	o.invalidate = 0;
	make_run(&r, 2, 1100, 1100 * MIB, 0, 0);
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 512 * MIB);
	assert_false(warned(&r, "page cache"));
	run_result_release(&r);
	/* ... nor when the process itself fetched from storage all it read:
	 * the cache did not keep the file */
	t->have_procio = 1;
	t->process_read_bytes = 1100 * MIB;
	make_run(&r, 2, 1100, 1100 * MIB, 0, 0);
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 1ull << 34);
	assert_false(warned(&r, "page cache"));
	run_result_release(&r);
	t->have_procio = 0;
	t->process_read_bytes = 0;

	/* no device: unknown */
	t->have_device = 0;
	make_run(&r, 2, 1000, 1000 * MIB, 0, 0);
	truth_apply_run(t, &r);
	assert_true(isnan(t->cached_read_fraction));
	truth_warn(t, &r, &o, 1ull << 34);
	assert_false(warned(&r, "page cache"));
	run_result_release(&r);
	truth_free(t);
}

static void test_absorbed_causes(void **state)
{
	struct truth *t = new_truth();
	struct truth_opts o = {0};
	struct run_result r;

	(void)state;
	t->have_device = 1;
	t->device = xstrdup("vdx");
	t->have_procio = 1;

	/* settle=sync, a time-based seqwrite over an 8 MiB file */
	o.settle = TRUTH_SETTLE_SYNC;
	o.working_set_bytes = 8 * MIB;
	make_run(&r, 10, 0, 0, 204800, 800 * MIB);
	t->device_write_bytes = 8 * MIB;
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 1ull << 34);
	assert_true(warned(&r, "99% of the written bytes never reached"));
	assert_true(warned(&r, "the run synced, but it wrote its 8 MiB "
			       "working set 100.0 times over, and blocks "
			       "rewritten while still dirty reach the device "
			       "only once; use --direct=1, a larger --size, "
			       "or --ios to write it once"));
	assert_false(warned(&r, "--settle"));
	run_result_release(&r);
	/* ...with the workload's own advice where it has one */
	make_run(&r, 10, 0, 0, 204800, 800 * MIB);
	o.rewrite_advice = "--passes 1 writes each page once";
	truth_warn(t, &r, &o, 1ull << 34);
	assert_true(warned(&r, "reach the device only once; --passes 1 "
			       "writes each page once"));
	assert_false(warned(&r, "--ios"));
	o.rewrite_advice = NULL;
	run_result_release(&r);

	/* settle=sync but stopped by a signal before the sync: not synced */
	make_run(&r, 10, 0, 0, 204800, 800 * MIB);
	r.interrupted = 1;
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 1ull << 34);
	assert_true(warned(&r, "99% of the written bytes never reached"));
	assert_false(warned(&r, "the run synced"));
	assert_true(warned(&r, "still dirty when the run ended"));
	run_result_release(&r);

	/* settle=sync, less written than the working set */
	o.working_set_bytes = 1024 * MIB;
	make_run(&r, 10, 0, 0, 204800, 800 * MIB);
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 1ull << 34);
	assert_true(warned(&r, "the run synced, so its writes were not left "
			       "dirty; blocks rewritten while dirty"));
	assert_true(warned(&r, "that 'vdx' is the device written to"));
	assert_false(warned(&r, "times over"));
	assert_false(warned(&r, "--settle"));
	run_result_release(&r);

	/* settle=none, the file written once: left dirty */
	o.settle = TRUTH_SETTLE_NONE;
	o.working_set_bytes = 64 * MIB;
	make_run(&r, 10, 0, 0, 16384, 64 * MIB);
	t->device_write_bytes = 0;
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 1ull << 34);
	assert_true(warned(&r, "writes were still dirty when the run ended "
			       "(--settle=none); use --settle=sync, "
			       "--fsync=N, or --direct=1"));
	assert_false(warned(&r, "times over"));
	run_result_release(&r);

	/* settle=none and rewritten: both causes, both remedies */
	o.working_set_bytes = 8 * MIB;
	make_run(&r, 10, 0, 0, 204800, 800 * MIB);
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 1ull << 34);
	assert_true(warned(&r, "(--settle=none) and blocks were rewritten "
			       "while dirty (the 8 MiB working set written "
			       "100.0 times over); use --settle=sync, "
			       "--fsync=N, a larger --size or --ios to write "
			       "it once, or --direct=1"));
	run_result_release(&r);

	/* a workload that does not say how it ended: every cause */
	o.settle = TRUTH_SETTLE_UNKNOWN;
	o.working_set_bytes = 0;
	make_run(&r, 10, 0, 0, 16384, 64 * MIB);
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 1ull << 34);
	assert_true(warned(&r, "files deleted or still dirty when the run "
			       "ended, or blocks rewritten while dirty"));
	assert_false(warned(&r, "--settle"));
	run_result_release(&r);
	truth_warn(t, &r, NULL, 1ull << 34); /* no opts: the same */
	assert_true(warned(&r, "files deleted or still dirty"));
	run_result_release(&r);
	truth_free(t);
}

/* A workload with a size and nothing else. */
static const struct param_spec bare_params[] = {
    {"size", PARAM_SIZE, "4k", 0, 0, NULL, "bytes",
     PARAM_AT(struct workload_common, size_bytes)},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};
static const struct workload_ops bare = {.name = "bare", .params = bare_params};

/*
 * A warning's advice names only options the workload has: smallfiles
 * (which refuses --direct and --randommap) reading from the cache is
 * told to drop caches, and its dirty files to fsync, nothing else.
 */
static void test_advice_fits_workload(void **state)
{
	struct truth *t = new_truth();
	struct truth_opts o = {.working_set_bytes = 64ull << 30, .lacks = ~0u};
	struct run_result r;

	(void)state;
	t->have_device = 1;
	t->device = xstrdup("vda");
	make_run(&r, 2, 1000, 1000 * MIB, 0, 0);
	t->device_read_bytes = 900 * MIB;
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 1ull << 34);
	assert_true(warned(&r, "came from memory; blocks read twice or cached "
			       "before the run; drop caches before the run"));
	assert_false(warned(&r, "--"));
	run_result_release(&r);

	/* read twice over: the fact, and no option it lacks */
	o.working_set_bytes = 400 * MIB;
	make_run(&r, 2, 1000, 1000 * MIB, 0, 0);
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 1ull << 34);
	assert_true(warned(&r, "2.50 times over, and passes after the first "
			       "can find it in memory"));
	assert_false(warned(&r, "--"));
	run_result_release(&r);

	/* the same runs of a block-I/O workload name its options */
	o.lacks = 0;
	make_run(&r, 2, 1000, 1000 * MIB, 0, 0);
	truth_apply_run(t, &r);
	truth_warn(t, &r, &o, 1ull << 34);
	assert_true(warned(&r, "give a --size larger than the run reads, --ios "
			       "to read it once, --invalidate=1 to drop it "
			       "after each pass (fio's default), or "
			       "--direct=1"));
	run_result_release(&r);
	truth_free(t);
}

/* The options a workload's parameters give the truth. */
static void test_opts_from_workload(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct truth_opts o = {0};
	struct workload w;

	(void)state;
	workload_init(&w, workload_find("seqwrite"));
	assert_int_equal(workload_set_param(&w, "size", "8M", NULL, &err), 0);
	assert_int_equal(workload_set_param(&w, "jobs", "2", NULL, &err), 0);
	workload_truth_opts(&w, &o);
	assert_int_equal(o.working_set_bytes, 16 * MIB);
	assert_int_equal(o.settle, TRUTH_SETTLE_SYNC); /* the default */
	assert_int_equal(o.direct, 0);
	assert_int_equal(workload_set_param(&w, "settle", "none", NULL, &err),
			 0);
	workload_truth_opts(&w, &o);
	assert_int_equal(o.settle, TRUTH_SETTLE_NONE);
	assert_int_equal(workload_set_param(&w, "end_fsync", "1", NULL, &err),
			 0);
	workload_truth_opts(&w, &o);
	assert_int_equal(o.settle, TRUTH_SETTLE_SYNC);
	assert_null(o.cpu_bound_advice); /* the block-I/O advice */
	assert_int_equal(o.lacks, 0);	 /* every option advice names */
	workload_release(&w);

	/* smallfiles has none of them: its --fsync is not a count */
	workload_init(&w, workload_find("smallfiles"));
	workload_truth_opts(&w, &o);
	assert_int_equal(o.lacks, TRUTH_LACKS_SIZE | TRUTH_LACKS_DIRECT |
				      TRUTH_LACKS_INVALIDATE |
				      TRUTH_LACKS_RANDOMMAP |
				      TRUTH_LACKS_SETTLE | TRUTH_LACKS_FSYNC_N);
	workload_release(&w);

	/* mmapdirty has no engine, blocks or jobs: its own advice */
	workload_init(&w, workload_find("mmapdirty"));
	workload_truth_opts(&w, &o);
	assert_non_null(strstr(o.cpu_bound_advice, "--stride"));
	assert_non_null(strstr(o.short_run_advice, "--passes"));
	assert_non_null(strstr(o.rewrite_advice, "--passes 1"));
	/* its own hook: a sync at the end settles inside the region */
	assert_int_equal(o.settle, TRUTH_SETTLE_SYNC);
	assert_int_equal(workload_set_param(&w, "sync", "none", NULL, &err), 0);
	workload_truth_opts(&w, &o);
	assert_int_equal(o.settle, TRUTH_SETTLE_UNKNOWN);
	workload_release(&w);

	/* a workload without the settle parameter does not say */
	workload_init(&w, &bare);
	workload_truth_opts(&w, &o);
	assert_int_equal(o.settle, TRUTH_SETTLE_UNKNOWN);
	assert_int_equal(o.working_set_bytes, 4096);
	workload_release(&w);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_from_series),
	    cmocka_unit_test(test_absorbed),
	    cmocka_unit_test(test_warnings),
	    cmocka_unit_test(test_absorbed_causes),
	    cmocka_unit_test(test_cached_fraction),
	    cmocka_unit_test(test_cached_sentence_agrees),
	    cmocka_unit_test(test_advice_fits_workload),
	    cmocka_unit_test(test_opts_from_workload),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
