/*
 * Workload parameters: defaults, parsing through the spec tables, range
 * checks, suggestions for unknown names, and the cross-parameter rules.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "core/workload/workload.h"
#include "core/workload/crashdump-int.h"
#include "core/workload/rw.h"
#include "core/experiment/result_json.h"
#include "core/workload/sizedist.h"

static void test_registry(void **state)
{
	const char *const *names = workload_names();
	size_t n = 0;

	(void)state;
	while (names[n]) {
		assert_non_null(workload_find(names[n]));
		n++;
	}
	assert_int_equal(n, 10); /* replay is the tenth */
	assert_null(workload_find("randred"));
}

/* reads_only: only a pure read with no verify pass may read a device
 * that holds data; everything else may write, or cannot say. */
static int reads_only(const char *name, const char *param, const char *val)
{
	struct workload w;
	int ret;

	workload_init(&w, workload_find(name));
	if (param)
		assert_int_equal(workload_set_param(&w, param, val, NULL, NULL),
				 0);
	ret = workload_reads_only(&w);
	workload_release(&w);
	return ret;
}

static void test_reads_only(void **state)
{
	(void)state;
	assert_true(reads_only("randread", NULL, NULL));
	assert_true(reads_only("seqread", "direct", "1"));
	assert_true(reads_only("randrw", "rwmixread", "100"));
	assert_false(reads_only("randrw", NULL, NULL));
	assert_false(reads_only("randrw", "rwmixread", "99"));
	assert_false(reads_only("seqwrite", NULL, NULL));
	assert_false(reads_only("randwrite", NULL, NULL));
	assert_false(reads_only("randread", "verify", "crc32c"));
	assert_false(reads_only("smallfiles", NULL, NULL));
	assert_false(reads_only("replay", NULL, NULL));
	assert_false(reads_only("exec", NULL, NULL));
}

/* needs_files: does name, with param=val, work on files? */
static int needs_files(const char *name, const char *param, const char *val)
{
	struct workload w;
	int ret;

	workload_init(&w, workload_find(name));
	if (param)
		assert_int_equal(workload_set_param(&w, param, val, NULL, NULL),
				 0);
	ret = workload_needs_files(&w);
	workload_release(&w);
	return ret;
}

/*
 * The workloads that work on files say so (a raw scratch target then
 * gets a file system), and their refusal of a block device advises a
 * directory or scratch:SIZE, never a block device.
 */
static void test_needs_files(void **state)
{
	struct target t = {.kind = TARGET_BLOCKDEV, .work_fd = -1};
	struct strbuf err = STRBUF_INIT;
	struct workload w;

	(void)state;
	assert_true(needs_files("smallfiles", NULL, NULL));
	assert_true(needs_files("smallfiles", "loadfile", "/x"));
	assert_true(needs_files("crashdump", NULL, NULL));
	assert_true(needs_files("mmapdirty", NULL, NULL));
	assert_true(needs_files("replay", NULL, NULL));
	assert_false(needs_files("replay", "layer", "block"));
	assert_true(needs_files("exec", "cmd", "cp x {dir}/y"));
	assert_false(needs_files("exec", "cmd", "dd of=$IOTRIAL_DEV"));
	assert_false(needs_files("randrw", NULL, NULL));
	assert_false(needs_files("seqread", NULL, NULL));

	workload_init(&w, workload_find("mmapdirty"));
	t.spec = "/dev/loop9";
	t.path = "/dev/loop9";
	assert_int_equal(workload_need_files(&w, &t, "maps a file", &err),
			 -EINVAL);
	assert_string_equal(err.buf,
			    "mmapdirty maps a file, and '/dev/loop9' is a "
			    "block device; give a directory as the target, or "
			    "scratch:SIZE for a loop device with a file system "
			    "of its own");
	t.kind = TARGET_DIR;
	t.work_fd = 3;
	t.workdir = "/tmp/iotrial.AbCdEf";
	strbuf_reset(&err);
	assert_int_equal(workload_need_files(&w, &t, "maps a file", &err), 0);
	assert_int_equal(err.len, 0);
	workload_release(&w);
	strbuf_release(&err);
}

static void test_defaults(void **state)
{
	struct workload w;
	const struct rw_params *p;

	(void)state;
	workload_init(&w, workload_find("randread"));
	p = w.params;
	assert_int_equal(p->bs_bytes, 4096);
	assert_int_equal(p->iodepth, 1);
	assert_int_equal(p->common.jobs, 1);
	assert_string_equal(p->engine, "psync");
	assert_int_equal(p->rwmixread, 50);
	assert_false(workload_given(&w, &p->bs_bytes)->is_set);
	assert_string_equal(workload_given(&w, &p->bs_bytes)->s, "4k");
	assert_int_equal(workload_param_index(w.ops, "nope"), -1);
	workload_release(&w);
}

/*
 * Every row of every workload fills a field of the C type its type says,
 * inside its struct, no two the same; the rows without one are labels.
 * A copy's fields are its own.
 */
static void test_rows_typed(void **state)
{
	const char *const *names = workload_names();
	struct workload w, copy;
	size_t i, j;

	(void)state;
	for (i = 0; names[i]; i++) {
		const struct workload_ops *ops = workload_find(names[i]);
		const struct param_spec *p = ops->params;
		size_t size =
		    ops->params_size ?: sizeof(struct workload_common);

		for (j = 0; p[j].name; j++) {
			enum param_field want =
			    p[j].type == PARAM_BOOL ? PARAM_F_INT
			    : p[j].type == PARAM_CHOICE ||
				    p[j].type == PARAM_STRING
				? PARAM_F_STR
				: PARAM_F_U64;
			size_t k;

			if (!p[j].field) {
				assert_string_equal(p[j].name, "label");
				continue;
			}
			assert_int_equal(p[j].field, want);
			assert_true(p[j].off < size);
			for (k = 0; k < j; k++)
				assert_true(!p[k].field ||
					    p[k].off != p[j].off);
		}
	}
	workload_init(&w, workload_find("randrw"));
	assert_int_equal(
	    workload_set_param(&w, "engine", "io_uring", NULL, NULL), 0);
	workload_copy(&copy, &w);
	workload_release(&w);
	assert_string_equal(((const struct rw_params *)copy.params)->engine,
			    "io_uring");
	assert_int_equal(((const struct rw_params *)copy.params)->rwmixread,
			 50);
	workload_release(&copy);
}

/*
 * A row's own name for its value (.arg, "DIST") is one word, as --help
 * and the completion read it, and says more than its type's name would.
 */
static void test_rows_arg(void **state)
{
	static const char *const generic[] = {"SIZE",	 "N",	 "0|1",
					      "PERCENT", "TEXT", NULL};
	const char *const *names = workload_names();
	size_t i, j, k, named = 0;

	(void)state;
	for (i = 0; names[i]; i++) {
		const struct param_spec *p = workload_find(names[i])->params;

		for (j = 0; p[j].name; j++) {
			if (!p[j].arg)
				continue;
			named++;
			assert_true(*p[j].arg);
			assert_null(strpbrk(p[j].arg, " \t\n"));
			for (k = 0; generic[k]; k++)
				assert_string_not_equal(p[j].arg, generic[k]);
		}
	}
	/* smallfiles' and crashdump's --sizes DIST at least */
	assert_true(named >= 2);
}

/* crashdump's defaults: the collector of the field case, 250 KiB dumps
 * between 4 KiB and 8 MiB, fsync'd, deleted once read; a bad --sizes is
 * refused by validate. */
static void test_crashdump_defaults(void **state)
{
	struct strbuf err = STRBUF_INIT;
	const struct cd_params *p;
	struct sizedist d;
	struct workload w;

	(void)state;
	workload_init(&w, workload_find("crashdump"));
	p = w.params;
	assert_string_equal(w.ops->default_metric(&w), "dumps_per_min");
	assert_int_equal(p->producers, 2);
	assert_int_equal(p->consumers, 2);
	assert_int_equal(p->fsync, 1);
	assert_int_equal(p->keep, 0);
	assert_int_equal(p->dirs, 256);
	assert_int_equal(p->bs_bytes, 128 * 1024);
	assert_int_equal(sizedist_parse(p->sizes, &d, &err), 0);
	assert_int_equal(d.kind, SIZEDIST_LOGNORMAL);
	assert_true(d.mean_bytes == 250 * 1024.0);
	assert_int_equal(d.min_bytes, 4096);
	assert_int_equal(d.max_bytes, 8 << 20);
	assert_int_equal(workload_validate(&w, &err), 0);
	assert_int_equal(
	    workload_set_param(&w, "sizes", "uniform:8M-4k", NULL, &err), 0);
	strbuf_reset(&err);
	assert_true(workload_validate(&w, &err) < 0);
	assert_non_null(strstr(err.buf, "invalid size distribution"));
	workload_release(&w);
	strbuf_release(&err);
}

static void test_set_good(void **state)
{
	struct strbuf err = STRBUF_INIT, note = STRBUF_INIT;
	const struct rw_params *p;
	struct workload w;

	(void)state;
	workload_init(&w, workload_find("randrw"));
	p = w.params;
	assert_int_equal(workload_set_param(&w, "bs", "64k", &note, &err), 0);
	assert_int_equal(p->bs_bytes, 65536);
	assert_true(workload_given(&w, &p->bs_bytes)->is_set);
	assert_int_equal(workload_set_param(&w, "size", "2MB", &note, &err), 0);
	assert_int_equal(p->common.size_bytes, 2000000);
	assert_true(note.len > 0); /* decimal unit explained */
	assert_int_equal(workload_set_param(&w, "direct", "yes", NULL, &err),
			 0);
	assert_int_equal(p->common.direct, 1);
	assert_int_equal(workload_set_param(&w, "rwmixread", "70%", NULL, &err),
			 0);
	assert_int_equal(p->rwmixread, 70);
	assert_int_equal(
	    workload_set_param(&w, "engine", "io_uring", NULL, &err), 0);
	assert_string_equal(p->engine, "io_uring");
	assert_int_equal(workload_validate(&w, &err), 0);
	workload_release(&w);
	strbuf_release(&err);
	strbuf_release(&note);
}

static void test_set_bad(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct workload w;

	(void)state;
	workload_init(&w, workload_find("randread"));
	assert_int_equal(workload_set_param(&w, "bsz", "4k", NULL, &err),
			 -ENOENT);
	assert_non_null(strstr(err.buf, "did you mean 'bs'"));
	assert_true(workload_set_param(&w, "bs", "4kk", NULL, &err) < 0);
	assert_non_null(strstr(err.buf, "'4kk'"));
	assert_true(workload_set_param(&w, "iodepth", "0", NULL, &err) < 0);
	assert_non_null(strstr(err.buf, "out of range"));
	assert_true(workload_set_param(&w, "engine", "uring", NULL, &err) < 0);
	assert_non_null(strstr(err.buf, "expected one of"));
	assert_true(workload_set_param(&w, "direct", "maybe", NULL, &err) < 0);
	assert_true(workload_set_param(&w, "rwmixread", "150", NULL, &err) < 0);
	/* a failed set leaves the old value */
	assert_int_equal(((const struct rw_params *)w.params)->bs_bytes, 4096);
	assert_string_equal(((const struct rw_params *)w.params)->engine,
			    "psync");
	workload_release(&w);
	strbuf_release(&err);
}

static void test_validate(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct workload w;

	(void)state;
	workload_init(&w, workload_find("randread"));
	assert_int_equal(workload_set_param(&w, "rwmixread", "30", NULL, &err),
			 0);
	assert_int_equal(workload_validate(&w, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "randrw"));
	workload_release(&w);

	workload_init(&w, workload_find("seqread"));
	assert_int_equal(workload_set_param(&w, "engine", "mmap", NULL, &err),
			 0);
	assert_int_equal(workload_set_param(&w, "direct", "1", NULL, &err), 0);
	assert_int_equal(workload_validate(&w, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "mmap"));
	workload_release(&w);

	workload_init(&w, workload_find("seqread"));
	assert_int_equal(workload_set_param(&w, "fsync", "8", NULL, &err), 0);
	assert_int_equal(workload_validate(&w, &err), -EINVAL);
	workload_release(&w);

	workload_init(&w, workload_find("seqwrite"));
	assert_int_equal(workload_set_param(&w, "bs", "8M", NULL, &err), 0);
	assert_int_equal(workload_set_param(&w, "size", "4M", NULL, &err), 0);
	assert_int_equal(workload_validate(&w, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "larger than size"));
	workload_release(&w);
	strbuf_release(&err);
}

static void test_metric(void **state)
{
	struct workload w;
	struct run_result r;

	(void)state;
	run_result_init(&r);
	r.seconds = 2.0;
	r.ops[IO_READ] = 1000;
	r.bytes[IO_READ] = 1000 * 4096;
	workload_init(&w, workload_find("seqread"));
	assert_string_equal(result_metric_name(&w), "mbps");
	assert_true(result_metric_value(&w, &r) == 4096 * 1000 / 2.0 / 1e6);
	workload_release(&w);
	workload_init(&w, workload_find("randwrite"));
	assert_string_equal(result_metric_name(&w), "iops");
	assert_true(result_metric_value(&w, &r) == 500.0);
	workload_release(&w);
	/* a file workload is judged by its own metric: operations/s */
	r.file_ops = 3000;
	workload_init(&w, workload_find("smallfiles"));
	assert_string_equal(result_metric_name(&w), "ops_per_s");
	assert_true(result_metric_value(&w, &r) == 1500.0);
	workload_release(&w);
	run_result_warn(&r, "test %d", 1);
	assert_int_equal(r.nr_warnings, 1);
	assert_string_equal(r.warnings[0], "test 1");
	run_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_registry),
	    cmocka_unit_test(test_defaults),
	    cmocka_unit_test(test_rows_typed),
	    cmocka_unit_test(test_rows_arg),
	    cmocka_unit_test(test_crashdump_defaults),
	    cmocka_unit_test(test_reads_only),
	    cmocka_unit_test(test_needs_files),
	    cmocka_unit_test(test_set_good),
	    cmocka_unit_test(test_set_bad),
	    cmocka_unit_test(test_validate),
	    cmocka_unit_test(test_metric),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
