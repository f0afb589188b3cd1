/*
 * Tests for workload/fiojob (reading fio job files) and fiojob_map (what
 * they become): sections and line numbers, ${VAR}, include and its
 * loops, fio's units, the subset and its refusals, groups, and the
 * command line's overrides.
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
#include <sys/stat.h>
#include <cmocka.h>
#include "core/workload/fiojob.h"
#include "core/workload/fiojob_map.h"
#include "core/workload/fiojob_expr.h"
#include "util/banned.h"

/* ${VAR} lookups for the tests: FOO=64m, EMPTY="" */
static const char *fake_env(const char *name, void *ctx)
{
	(void)ctx;
	if (!strcmp(name, "FOO"))
		return "64m";
	if (!strcmp(name, "EMPTY"))
		return "";
	return NULL;
}

static int parse(struct fiojob *j, const char *text, struct strbuf *err)
{
	fiojob_init(j);
	j->getenv = fake_env;
	return fiojob_parse_buf(j, "t.fio", text, strlen(text), err);
}

static void test_sections_and_lines(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct fiojob j;
	const struct fiojob_opt *o = NULL;
	const char *text = "; a comment\n"
			   "[global]\n"
			   "rw=randread\n"
			   "# another\n"
			   "time_based\n"
			   "\n"
			   "[job1]\n"
			   "[job2]\n"
			   "bs = 8k\n";

	(void)state;
	assert_int_equal(parse(&j, text, &err), 0);
	assert_int_equal(j.nr_secs, 3);
	assert_true(j.secs[0].is_global);
	assert_string_equal(j.secs[1].name, "job1");
	assert_int_equal(j.secs[1].nr_opts, 0);
	assert_int_equal(j.secs[1].line, 7);
	assert_string_equal(j.secs[2].name, "job2");
	assert_string_equal(fiojob_get(&j.secs[0], "rw", &o), "randread");
	assert_int_equal(o->line, 3);
	assert_string_equal(fiojob_get(&j.secs[0], "time_based", &o), "");
	assert_null(o->value);
	assert_int_equal(o->line, 5);
	assert_string_equal(fiojob_get(&j.secs[2], "bs", &o), "8k");
	assert_int_equal(o->line, 9);
	assert_string_equal(o->file, "t.fio");
	fiojob_release(&j);
	strbuf_release(&err);
}

static void test_env(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct fiojob j;

	(void)state;
	assert_int_equal(parse(&j, "[a]\nsize=${FOO}\nname=x${EMPTY}y\n", &err),
			 0);
	assert_string_equal(fiojob_get(&j.secs[0], "size", NULL), "64m");
	assert_string_equal(fiojob_get(&j.secs[0], "name", NULL), "xy");
	fiojob_release(&j);
	assert_int_equal(parse(&j, "[a]\nrw=read\nsize=${NOPE}\n", &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "t.fio:3:"));
	assert_non_null(strstr(err.buf, "'NOPE'"));
	fiojob_release(&j);
	assert_int_equal(parse(&j, "[a]\nsize=${FOO\n", &err), -EINVAL);
	assert_non_null(strstr(err.buf, "t.fio:2:"));
	fiojob_release(&j);
	strbuf_release(&err);
}

static void test_syntax_errors(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct fiojob j;

	(void)state;
	assert_int_equal(parse(&j, "[a]\nrw=read\n[broken\n", &err), -EINVAL);
	assert_non_null(strstr(err.buf, "t.fio:3:"));
	fiojob_release(&j);
	assert_int_equal(parse(&j, "rw=read\n[a]\n", &err), -EINVAL);
	assert_non_null(strstr(err.buf, "t.fio:1:"));
	assert_non_null(strstr(err.buf, "'rw'"));
	fiojob_release(&j);
	strbuf_release(&err);
}

/* Write text to dir/name. */
static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_include(void **state)
{
	char dir[] = "/tmp/test_fiojob.XXXXXX", path[512];
	struct strbuf err = STRBUF_INIT;
	struct fiojob j;
	const struct fiojob_opt *o = NULL;

	(void)state;
	assert_non_null(mkdtemp(dir));
	put(dir, "top.fio",
	    "[global]\ninclude inc/common.fio\n[a]\nrw=write\n");
	snprintf(path, sizeof(path), "%s/inc", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	put(dir, "inc/common.fio", "\n; shared\nbs=16k\ninclude more.fio\n");
	put(dir, "inc/more.fio", "size=${FOO}\n");
	snprintf(path, sizeof(path), "%s/top.fio", dir);
	fiojob_init(&j);
	j.getenv = fake_env;
	assert_int_equal(fiojob_parse_file(&j, path, &err), 0);
	assert_int_equal(j.nr_secs, 2);
	assert_string_equal(fiojob_get(&j.secs[0], "bs", &o), "16k");
	assert_int_equal(o->line, 3);
	assert_non_null(strstr(o->file, "inc/common.fio"));
	assert_string_equal(fiojob_get(&j.secs[0], "size", &o), "64m");
	assert_int_equal(o->line, 1);
	assert_non_null(strstr(o->file, "inc/more.fio"));
	fiojob_release(&j);

	/* a loop: more.fio includes common.fio again */
	put(dir, "inc/more.fio", "include common.fio\n");
	fiojob_init(&j);
	assert_int_equal(fiojob_parse_file(&j, path, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "include loop"));
	fiojob_release(&j);

	/* sections in an included file */
	put(dir, "inc/common.fio", "[x]\nbs=4k\n");
	fiojob_init(&j);
	assert_int_equal(fiojob_parse_file(&j, path, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "may not hold sections"));
	fiojob_release(&j);

	/* a missing one names the line that asked for it */
	put(dir, "top.fio", "[a]\nrw=read\ninclude nowhere.fio\n");
	fiojob_init(&j);
	assert_int_equal(fiojob_parse_file(&j, path, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "top.fio:3:"));
	assert_non_null(strstr(err.buf, "nowhere.fio"));
	fiojob_release(&j);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
	strbuf_release(&err);
}

static void test_units(void **state)
{
	uint64_t u = 0;

	(void)state;
	assert_int_equal(fiojob_parse_size("4k", &u), 0);
	assert_int_equal(u, 4096);
	assert_int_equal(fiojob_parse_size("10g", &u), 0);
	assert_int_equal(u, 10ull << 30);
	assert_int_equal(fiojob_parse_size("4KB", &u), 0);
	assert_int_equal(u, 4096);
	assert_int_equal(fiojob_parse_size("1mi", &u), 0);
	assert_int_equal(u, 1000000);
	assert_int_equal(fiojob_parse_size("0x1000", &u), 0);
	assert_int_equal(u, 4096);
	assert_int_equal(fiojob_parse_size("512", &u), 0);
	assert_int_equal(u, 512);
	assert_int_equal(fiojob_parse_size("4q", &u), -EINVAL);
	assert_int_equal(fiojob_parse_size("", &u), -EINVAL);
	assert_int_equal(fiojob_parse_size("99999999999p", &u), -ERANGE);
	assert_int_equal(fiojob_parse_time("900", &u), 0);
	assert_int_equal(u, 900000000000ull);
	assert_int_equal(fiojob_parse_time("10m", &u), 0);
	assert_int_equal(u, 600000000000ull);
	assert_int_equal(fiojob_parse_time("250ms", &u), 0);
	assert_int_equal(u, 250000000ull);
	assert_int_equal(fiojob_parse_time("2x", &u), -EINVAL);
}

/* Parse text and map it with ov into plan; the map's return. */
static int map(const char *text, const struct fiojob_overrides *ov,
	       struct fiojob_plan *plan, struct strbuf *warn,
	       struct strbuf *err)
{
	struct fiojob j;
	int ret = parse(&j, text, err);

	assert_int_equal(ret, 0);
	ret = fiojob_map(&j, ov, plan, warn, err);
	fiojob_release(&j);
	return ret;
}

/* Is "name=value" among r's parameters (the last setting of name)? */
static int has_param(const struct fiojob_run *r, const char *nv)
{
	size_t n = strcspn(nv, "=") + 1;
	unsigned i = r->nr_params;

	while (i-- > 0)
		if (!strncmp(r->params[i], nv, n))
			return !strcmp(r->params[i], nv);
	return 0;
}

static void test_map_basic(void **state)
{
	struct strbuf err = STRBUF_INIT, warn = STRBUF_INIT;
	struct fiojob_overrides ov = {0};
	struct fiojob_plan plan;
	uint64_t ios = 0;

	(void)state;
	assert_int_equal(map("[global]\nrw=randrw\nbs=4K\nnumjobs=4\n"
			     "filename=f\ntime_based\nruntime=900\n"
			     "ioengine=libaio\niodepth=16\n[file1]\nsize=10G\n",
			     &ov, &plan, &warn, &err),
			 0);
	assert_int_equal(plan.nr, 1);
	assert_string_equal(plan.runs[0].workload, "randrw");
	assert_true(has_param(&plan.runs[0], "bs=4096"));
	assert_true(has_param(&plan.runs[0], "size=10737418240"));
	assert_true(has_param(&plan.runs[0], "jobs=4"));
	assert_true(has_param(&plan.runs[0], "engine=libaio"));
	assert_true(has_param(&plan.runs[0], "iodepth=16"));
	assert_true(has_param(&plan.runs[0], "rwmixread=50"));
	assert_true(has_param(&plan.runs[0], "shared=1"));
	assert_true(has_param(&plan.runs[0], "randommap=1"));
	assert_true(has_param(&plan.runs[0], "invalidate=1"));
	assert_true(has_param(&plan.runs[0], "fadvise=1"));
	assert_int_equal(plan.runs[0].time_ns, 900000000000ull);
	assert_true(plan.runs[0].time_based);
	assert_int_equal(fiojob_run_resolve(&plan.runs[0], 0, 0, &ios, &err),
			 0);
	assert_int_equal(ios, 0);
	fiojob_plan_release(&plan);

	/* rwmixwrite, buffered=0, sync as psync, fsync on writes only */
	assert_int_equal(map("[a]\nrw=randrw\nrwmixwrite=30\nbuffered=0\n"
			     "ioengine=sync\nfsync=8\nsize=1m\nloops=2\n"
			     "ramp_time=2s\nstartdelay=500ms\n",
			     &ov, &plan, &warn, &err),
			 0);
	assert_true(has_param(&plan.runs[0], "rwmixread=70"));
	assert_true(has_param(&plan.runs[0], "direct=1"));
	assert_true(has_param(&plan.runs[0], "engine=psync"));
	assert_true(has_param(&plan.runs[0], "fsync=8"));
	/* no flush fio would not make: only fsync= and end_fsync= flush */
	assert_true(has_param(&plan.runs[0], "settle=none"));
	assert_non_null(strstr(warn.buf, "ioengine=sync runs as psync"));
	assert_int_equal(plan.runs[0].ramp_ns, 2000000000ull);
	assert_int_equal(plan.runs[0].startdelay_ns, 500000000ull);
	/* not time based: the size twice over, in 4k I/Os */
	assert_int_equal(fiojob_run_resolve(&plan.runs[0], 0, 0, &ios, &err),
			 0);
	assert_int_equal(ios, 512);
	fiojob_plan_release(&plan);

	assert_int_equal(
	    map("[a]\nrw=read\nfsync=8\nsize=1m\n", &ov, &plan, &warn, &err),
	    0);
	assert_string_equal(plan.runs[0].workload, "seqread");
	assert_false(has_param(&plan.runs[0], "fsync=8"));
	assert_false(has_param(&plan.runs[0], "randommap=1"));
	assert_false(has_param(&plan.runs[0], "settle=none"));
	fiojob_plan_release(&plan);
	assert_int_equal(map("[a]\nrw=randwrite\nnorandommap\ninvalidate=0\n"
			     "fadvise_hint=0\nsize=1m\n",
			     &ov, &plan, &warn, &err),
			 0);
	assert_false(has_param(&plan.runs[0], "randommap=1"));
	assert_false(has_param(&plan.runs[0], "invalidate=1"));
	assert_false(has_param(&plan.runs[0], "fadvise=1"));
	fiojob_plan_release(&plan);
	strbuf_release(&err);
	strbuf_release(&warn);
}

static void test_map_refusals(void **state)
{
	struct strbuf err = STRBUF_INIT, warn = STRBUF_INIT;
	struct fiojob_overrides ov = {0};
	struct fiojob_plan plan;

	(void)state;
	/* of the options iotrial does not run, the one that matters most is
	 * named, with its line and why, and the others are counted */
	assert_int_equal(map("[global]\nthinktime=20\n[a]\nrw=read\n"
			     "size=1m\nverify_pattern=0xff\nrate_iops=50\n",
			     &ov, &plan, &warn, &err),
			 -EINVAL);
	assert_non_null(
	    strstr(err.buf, "t.fio:7: 'rate_iops=50' caps the rate of I/O"));
	assert_non_null(strstr(err.buf, "--job-lenient"));
	assert_non_null(strstr(err.buf, "(and 2 other options"));
	assert_null(strstr(err.buf, "verify_pattern"));
	fiojob_plan_release(&plan);
	ov.lenient = 1;
	strbuf_reset(&warn);
	assert_int_equal(map("[global]\nthinktime=20\n[a]\nrw=read\n"
			     "size=1m\nverify_pattern=0xff\n",
			     &ov, &plan, &warn, &err),
			 0);
	assert_non_null(strstr(warn.buf, "t.fio:2: ignoring 'thinktime', "
					 "which iotrial does not run: it "
					 "pauses"));
	assert_non_null(strstr(warn.buf, "t.fio:6: ignoring 'verify_pattern'"));
	fiojob_plan_release(&plan);
	ov.lenient = 0;

	assert_int_equal(map("[a]\nrw=rw\nsize=1m\n", &ov, &plan, &warn, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "t.fio:2:"));
	assert_non_null(strstr(err.buf, "sequential mix"));
	fiojob_plan_release(&plan);
	assert_int_equal(map("[a]\nrw=read\n", &ov, &plan, &warn, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "no size"));
	fiojob_plan_release(&plan);
	assert_int_equal(
	    map("[a]\nrw=read\nsize=1m\ntime_based\n", &ov, &plan, &warn, &err),
	    -EINVAL);
	assert_non_null(strstr(err.buf, "t.fio:4:"));
	fiojob_plan_release(&plan);
	assert_int_equal(map("[a]\nrw=read\nsize=1m\nioengine=null\n", &ov,
			     &plan, &warn, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "ioengine=null"));
	fiojob_plan_release(&plan);
	assert_int_equal(
	    map("[a]\nrw=read\nsize=1m\nnrfiles=2\n", &ov, &plan, &warn, &err),
	    -EINVAL);
	fiojob_plan_release(&plan);
	assert_int_equal(
	    map("[a]\nrw=read\nsize=1m\nbs=4k,8k\n", &ov, &plan, &warn, &err),
	    -EINVAL);
	fiojob_plan_release(&plan);
	/* two jobs at once in fio: one group, run together */
	assert_int_equal(map("[global]\nrw=read\nsize=1m\n[a]\n[b]\n"
			     "[c]\nstonewall\ngroup_reporting\n",
			     &ov, &plan, &warn, &err),
			 0);
	assert_int_equal(plan.nr, 3);
	assert_int_equal(plan.runs[0].group, 0);
	assert_int_equal(plan.runs[1].group, 0);
	assert_int_equal(plan.runs[2].group, 1);
	assert_false(plan.runs[1].group_reporting);
	assert_true(plan.runs[2].group_reporting);
	fiojob_plan_release(&plan);
	ov.section = "nope";
	assert_int_equal(map("[global]\nrw=read\nsize=1m\n[a]\n[b]\n", &ov,
			     &plan, &warn, &err),
			 -ENOENT);
	assert_non_null(strstr(err.buf, "'a', 'b'"));
	fiojob_plan_release(&plan);
	strbuf_release(&err);
	strbuf_release(&warn);
}

static void test_map_groups_overrides(void **state)
{
	const char *const params[] = {"size=16M"};
	struct strbuf err = STRBUF_INIT, warn = STRBUF_INIT;
	struct fiojob_overrides ov = {0};
	struct fiojob_plan plan;
	uint64_t ios = 0;
	const char *ssd = "[global]\nbs=4k\nsize=10g\nruntime=60\n"
			  "directory=/mnt/x\nfilename=ssd.test.file\n"
			  "[seq-read]\nrw=read\nstonewall\n"
			  "[rand-read]\nrw=randread\nstonewall\n"
			  "[seq-write]\nrw=write\nstonewall\n";

	(void)state;
	ov.params = params;
	ov.nr_params = 1;
	ov.time_ns = 1000000000ull;
	assert_int_equal(map(ssd, &ov, &plan, &warn, &err), 0);
	assert_int_equal(plan.nr, 3);
	assert_int_equal(plan.runs[0].group, 0);
	assert_int_equal(plan.runs[1].group, 1);
	assert_int_equal(plan.runs[2].group, 2);
	assert_string_equal(plan.runs[2].workload, "seqwrite");
	assert_string_equal(plan.runs[0].directory, "/mnt/x");
	assert_string_equal(plan.runs[0].filename, "ssd.test.file");
	assert_true(has_param(&plan.runs[1], "size=16M"));
	assert_int_equal(plan.runs[1].time_ns, 1000000000ull);
	assert_true(plan.runs[1].time_based);
	fiojob_plan_release(&plan);

	/* not time based: a runtime caps the size's I/Os */
	ov.time_ns = 0;
	ov.section = "rand-read";
	assert_int_equal(map(ssd, &ov, &plan, &warn, &err), 0);
	assert_int_equal(plan.nr, 1);
	assert_false(plan.runs[0].time_based);
	assert_int_equal(plan.runs[0].time_ns, 60000000000ull);
	assert_int_equal(fiojob_run_resolve(&plan.runs[0], 0, 0, &ios, &err),
			 0);
	assert_int_equal(ios, 4096);
	fiojob_plan_release(&plan);

	/* size=50% needs a device */
	ov.nr_params = 0;
	ov.section = NULL;
	assert_int_equal(
	    map("[a]\nrw=randread\nsize=50%\n", &ov, &plan, &warn, &err), 0);
	assert_int_equal(plan.runs[0].size_pct, 50);
	assert_int_equal(fiojob_run_resolve(&plan.runs[0], 0, 0, &ios, &err),
			 -EINVAL);
	assert_int_equal(
	    fiojob_run_resolve(&plan.runs[0], 1, 1ull << 30, &ios, &err), 0);
	assert_true(has_param(&plan.runs[0], "size=536870912"));
	assert_int_equal(ios, 131072);
	fiojob_plan_release(&plan);
	strbuf_release(&err);
	strbuf_release(&warn);
}

static void test_map_verify(void **state)
{
	struct strbuf err = STRBUF_INIT, warn = STRBUF_INIT;
	struct fiojob_overrides ov = {0};
	struct fiojob_plan plan;

	(void)state;
	assert_int_equal(map("[a]\nrw=randwrite\nsize=1m\nverify=crc32c\n"
			     "do_verify=1\nverify_fatal=0\n",
			     &ov, &plan, &warn, &err),
			 0);
	assert_true(has_param(&plan.runs[0], "verify=crc32c"));
	fiojob_plan_release(&plan);
	/* none, both ways */
	assert_int_equal(
	    map("[a]\nrw=write\nsize=1m\nverify=0\n", &ov, &plan, &warn, &err),
	    0);
	assert_false(has_param(&plan.runs[0], "verify=crc32c"));
	fiojob_plan_release(&plan);
	assert_int_equal(map("[a]\nrw=write\nsize=1m\nverify=null\n", &ov,
			     &plan, &warn, &err),
			 0);
	assert_false(has_param(&plan.runs[0], "verify=crc32c"));
	fiojob_plan_release(&plan);
	/* verify_fatal=1: accepted, with a note */
	strbuf_reset(&warn);
	assert_int_equal(map("[a]\nrw=write\nsize=1m\nverify=crc32c\n"
			     "verify_fatal=1\n",
			     &ov, &plan, &warn, &err),
			 0);
	assert_non_null(strstr(warn.buf, "t.fio:5: verify_fatal=1"));
	fiojob_plan_release(&plan);
	/* other methods: refused with what is supported */
	assert_int_equal(map("[a]\nrw=write\nsize=1m\nverify=md5\n", &ov, &plan,
			     &warn, &err),
			 -EINVAL);
	assert_non_null(
	    strstr(err.buf, "t.fio:4: verify=md5 is not supported"));
	assert_non_null(strstr(err.buf, "crc32c"));
	assert_non_null(strstr(err.buf, "verify=null"));
	fiojob_plan_release(&plan);
	assert_int_equal(map("[a]\nrw=write\nsize=1m\nverify=crc32c\n"
			     "do_verify=0\n",
			     &ov, &plan, &warn, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "t.fio:5: do_verify=0"));
	fiojob_plan_release(&plan);
	assert_int_equal(map("[a]\nrw=read\nsize=1m\nverify=crc32c\n", &ov,
			     &plan, &warn, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "needs a job that writes"));
	fiojob_plan_release(&plan);
	strbuf_release(&err);
	strbuf_release(&warn);
}

/* fio's batching: one I/O per submit unless the job says otherwise */
static void test_map_batch(void **state)
{
	struct strbuf err = STRBUF_INIT, warn = STRBUF_INIT;
	struct fiojob_overrides ov = {0};
	struct fiojob_plan plan;
	const struct fiojob_run *r;

	(void)state;
	assert_int_equal(
	    map("[global]\nsize=1m\n[d]\nrw=read\nioengine=libaio\niodepth=4\n"
		"[b]\nrw=read\nioengine=io_uring\niodepth=32\n"
		"iodepth_batch=8\niodepth_batch_complete=4\n"
		"[z]\nrw=read\nioengine=libaio\niodepth=16\n"
		"iodepth_batch_submit=0\n"
		"iodepth_batch_complete_min=0\n"
		"iodepth_batch_complete_max=64\n",
		&ov, &plan, &warn, &err),
	    0);
	assert_int_equal(plan.nr, 3);
	r = &plan.runs[0];
	assert_true(has_param(r, "batch_submit=1"));
	assert_true(has_param(r, "batch_complete_min=1"));
	assert_true(has_param(r, "batch_complete_max=1"));
	/* the aliases, and a max below the min raised to it */
	r = &plan.runs[1];
	assert_true(has_param(r, "batch_submit=8"));
	assert_true(has_param(r, "batch_complete_min=4"));
	assert_true(has_param(r, "batch_complete_max=4"));
	/* 0 submits the depth; beyond the depth is the depth */
	r = &plan.runs[2];
	assert_true(has_param(r, "batch_submit=16"));
	assert_true(has_param(r, "batch_complete_min=0"));
	assert_true(has_param(r, "batch_complete_max=16"));
	fiojob_plan_release(&plan);

	assert_int_equal(map("[x]\nrw=read\nsize=1m\niodepth_batch=two\n", &ov,
			     &plan, &warn, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "iodepth_batch"));
	fiojob_plan_release(&plan);
	strbuf_release(&err);
	strbuf_release(&warn);
}

/* fio cuts a line at its first ';' or '#', wherever it is. */
static void test_inline_comments(void **state)
{
	struct strbuf err = STRBUF_INIT, warn = STRBUF_INIT;
	struct fiojob_overrides ov = {0};
	struct fiojob_plan plan;
	struct fiojob j;
	const struct fiojob_opt *o = NULL;

	(void)state;
	assert_int_equal(parse(&j,
			       "[a]\n"
			       "size=102404k ; 100Mb+4k\n"
			       "bs=4k # x\n"
			       "numjobs=4\t; 4 threads\n"
			       "time_based ; forever\n"
			       "rw ; =write\n"
			       "filename=/tmp/a#1\n",
			       &err),
			 0);
	assert_string_equal(fiojob_get(&j.secs[0], "size", &o), "102404k");
	assert_int_equal(o->line, 2);
	assert_string_equal(fiojob_get(&j.secs[0], "bs", NULL), "4k");
	assert_string_equal(fiojob_get(&j.secs[0], "numjobs", NULL), "4");
	assert_string_equal(fiojob_get(&j.secs[0], "time_based", &o), "");
	assert_null(o->value);
	/* the '=' was in the comment: a bare key */
	assert_string_equal(fiojob_get(&j.secs[0], "rw", &o), "");
	assert_null(o->value);
	assert_string_equal(fiojob_get(&j.secs[0], "filename", NULL), "/tmp/a");
	fiojob_release(&j);
	/* and it maps: tiobench-example.fio's lines */
	assert_int_equal(map("[global]\ndirect=1\nsize=512m\nbsrange=4k-4k\n"
			     "timeout=60\nnumjobs=4\t; 4 simultaneous threads "
			     "for each job\n[f1]\nrw=write\n",
			     &ov, &plan, &warn, &err),
			 0);
	assert_true(has_param(&plan.runs[0], "jobs=4"));
	assert_true(has_param(&plan.runs[0], "bs=4096"));
	assert_int_equal(plan.runs[0].time_ns, 60000000000ull);
	assert_false(plan.runs[0].time_based);
	fiojob_plan_release(&plan);
	strbuf_release(&err);
	strbuf_release(&warn);
}

/* fio's aliases are fio's: timeout, nr_files, threads, blocksize_range,
 * blockalign, wait_for_previous. */
static void test_aliases(void **state)
{
	struct strbuf err = STRBUF_INIT, warn = STRBUF_INIT;
	struct fiojob_overrides ov = {0};
	struct fiojob_plan plan;

	(void)state;
	assert_int_equal(map("[global]\nrw=randread\nsize=1m\ntimeout=2m\n"
			     "nr_files=1\nthreads=1\nblocksize_range=8k:8k\n"
			     "blockalign=8k\ndescription=x\n[a]\n"
			     "[b]\nwait_for_previous\n",
			     &ov, &plan, &warn, &err),
			 0);
	assert_int_equal(plan.runs[0].time_ns, 120000000000ull);
	assert_true(has_param(&plan.runs[0], "bs=8192"));
	assert_int_equal(plan.runs[1].group, 1);
	fiojob_plan_release(&plan);
	/* a range of sizes, another alignment: named, with why */
	assert_int_equal(map("[a]\nrw=read\nsize=1m\nbsrange=16k-1M\n", &ov,
			     &plan, &warn, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "t.fio:4: 'bsrange=16k-1M' mixes "
					"block sizes from 16k to 1M"));
	fiojob_plan_release(&plan);
	assert_int_equal(map("[a]\nrw=randread\nsize=1m\nbs=8k\nba=4k\n", &ov,
			     &plan, &warn, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "t.fio:5: 'ba=4k' aligns random"));
	fiojob_plan_release(&plan);
	/* sequential offsets follow each other whatever the alignment */
	assert_int_equal(map("[a]\nrw=read\nsize=1m\nbs=8k\nba=4k\n", &ov,
			     &plan, &warn, &err),
			 0);
	fiojob_plan_release(&plan);
	/* the later of bs= and bsrange= is the one fio keeps */
	assert_int_equal(map("[global]\nbs=64k\n[a]\nrw=read\nsize=1m\n"
			     "bsrange=16k-16k\n",
			     &ov, &plan, &warn, &err),
			 0);
	assert_true(has_param(&plan.runs[0], "bs=16384"));
	fiojob_plan_release(&plan);
	strbuf_release(&err);
	strbuf_release(&warn);
}

/* $pagesize, $mb_memory, $ncpus and arithmetic in parentheses. */
static void test_keywords_and_math(void **state)
{
	struct strbuf err = STRBUF_INIT, warn = STRBUF_INIT;
	struct fiojob_overrides ov = {0};
	struct fiojob_plan plan;
	struct fiojob j;
	uint64_t u = 0;

	(void)state;
	assert_int_equal(fiojob_eval("(1+2)*4096", &u), 0);
	assert_int_equal(u, 12288);
	assert_int_equal(fiojob_eval(" 2 ^ 3 ^ 2 ", &u), 0);
	assert_int_equal(u, 512); /* right to left: 2^9 */
	assert_int_equal(fiojob_eval("17 % 5 + 10 / 3", &u), 0);
	assert_int_equal(u, 5);
	assert_int_equal(fiojob_eval("0x10*2", &u), 0);
	assert_int_equal(u, 32);
	assert_int_equal(fiojob_eval("1/0", &u), -EINVAL);
	assert_int_equal(fiojob_eval("(1+2", &u), -EINVAL);
	assert_int_equal(fiojob_eval("1 2", &u), -EINVAL);
	assert_int_equal(fiojob_eval("", &u), -EINVAL);
	assert_int_equal(fiojob_eval("1-2", &u), -ERANGE);
	assert_int_equal(fiojob_eval("2^64", &u), -ERANGE);
	assert_int_equal(fiojob_eval("18446744073709551615+1", &u), -ERANGE);

	fiojob_init(&j);
	j.kw = (struct fiojob_keywords){4096, 8000, 6};
	assert_int_equal(
	    fiojob_parse_buf(&j, "t.fio",
			     "[a]\nrw=read\nbs=$pagesize\n"
			     "size=$mb_memory*1024*1024/8\n"
			     "numjobs=$ncpus/2\nruntime=(1500000)\n"
			     "filename_format=f.$jobnum\n",
			     strlen("[a]\nrw=read\nbs=$pagesize\n"
				    "size=$mb_memory*1024*1024/8\n"
				    "numjobs=$ncpus/2\nruntime=("
				    "1500000)\nfilename_format=f."
				    "$jobnum\n"),
			     &err),
	    0);
	assert_string_equal(fiojob_get(&j.secs[0], "bs", NULL), "4096");
	assert_string_equal(fiojob_get(&j.secs[0], "numjobs", NULL), "6/2");
	/* fio's own per-job names are kept as written */
	assert_string_equal(fiojob_get(&j.secs[0], "filename_format", NULL),
			    "f.$jobnum");
	ov.lenient = 1;
	assert_int_equal(fiojob_map(&j, &ov, &plan, &warn, &err), 0);
	assert_true(has_param(&plan.runs[0], "bs=4096"));
	assert_true(has_param(&plan.runs[0], "size=1048576000"));
	assert_true(has_param(&plan.runs[0], "jobs=3"));
	/* a time in parentheses is in microseconds */
	assert_int_equal(plan.runs[0].time_ns, 1500000000ull);
	fiojob_plan_release(&plan);
	fiojob_release(&j);
	strbuf_release(&err);
	strbuf_release(&warn);
}

/* What a refusal names: an engine iotrial lacks before anything else,
 * then the highest-ranked option; fio's defaults ask for nothing. */
static void test_refusal_ranking(void **state)
{
	struct strbuf err = STRBUF_INIT, warn = STRBUF_INIT;
	struct fiojob_overrides ov = {0};
	struct fiojob_plan plan;

	(void)state;
	/* netio.fio's shape: the engine explains hostname= and port= */
	assert_int_equal(map("[global]\nioengine=net\nport=8888\nbs=4k\n"
			     "size=1m\n[receiver]\nlisten\nrw=read\n",
			     &ov, &plan, &warn, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "t.fio:2: 'ioengine=net' is a "
					"network or remote-storage engine"));
	assert_null(strstr(err.buf, "port"));
	fiojob_plan_release(&plan);
	/* a job that overrides the global engine runs */
	assert_int_equal(map("[global]\nioengine=e4defrag\nsize=1m\n"
			     "[aio]\nioengine=libaio\nrw=randread\n",
			     &ov, &plan, &warn, &err),
			 0);
	fiojob_plan_release(&plan);
	/* an engine nobody classed still gets refused by name */
	assert_int_equal(map("[a]\nrw=read\nsize=1m\nioengine=frobnicate\n",
			     &ov, &plan, &warn, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "'ioengine=frobnicate' is not an "
					"engine iotrial has"));
	fiojob_plan_release(&plan);
	/* values that are fio's own defaults ask for nothing */
	assert_int_equal(map("[a]\nrw=write\nsize=1m\nthinktime=0\nsync=none\n"
			     "offset=0\nfallocate=native\nkb_base=1024\n"
			     "exitall=0\ncreate_serialize=0\n",
			     &ov, &plan, &warn, &err),
			 0);
	fiojob_plan_release(&plan);
	/* an option nobody wrote a reason for: named all the same */
	assert_int_equal(
	    map("[a]\nrw=write\nsize=1m\nfrob=2\n", &ov, &plan, &warn, &err),
	    -EINVAL);
	assert_non_null(strstr(err.buf, "t.fio:4: 'frob=2' is not an option "
					"iotrial runs"));
	fiojob_plan_release(&plan);
	/* trims, and fio's deprecated rwmixcycle */
	assert_int_equal(
	    map("[a]\nrw=randtrim\nsize=1m\n", &ov, &plan, &warn, &err),
	    -EINVAL);
	assert_non_null(strstr(err.buf, "'rw=randtrim' trims"));
	fiojob_plan_release(&plan);
	assert_int_equal(map("[a]\nrw=randrw\nsize=1m\nrwmixcycle=10\n", &ov,
			     &plan, &warn, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "deprecated"));
	/* its advice said once: "remove it" was in the reason as well */
	assert_null(strstr(strstr(err.buf, "remove it") + 1, "remove it"));
	fiojob_plan_release(&plan);
	/* fio's reports are noted once each, not refused */
	strbuf_reset(&warn);
	assert_int_equal(map("[global]\ngtod_reduce=1\nwrite_lat_log=x\n"
			     "size=1m\n[a]\n[b]\nstonewall\n",
			     &ov, &plan, &warn, &err),
			 0);
	assert_non_null(strstr(warn.buf, "note: t.fio:2: 'gtod_reduce' "
					 "changes only what fio reports"));
	assert_non_null(strstr(warn.buf, "note: t.fio:3: 'write_lat_log' "
					 "writes no fio log"));
	assert_null(strstr(strstr(warn.buf, "gtod_reduce") + 1, "gtod_reduce"));
	fiojob_plan_release(&plan);
	strbuf_release(&err);
	strbuf_release(&warn);
}

/* fio's "\:" is a colon of the name; a bare ':' separates names. And
 * sqthread_poll is io_uring's sqpoll. */
static void test_names_and_sqpoll(void **state)
{
	struct strbuf err = STRBUF_INIT, warn = STRBUF_INIT;
	struct fiojob_overrides ov = {0};
	struct fiojob_plan plan;

	(void)state;
	assert_int_equal(map("[a]\nrw=read\nsize=1m\nfilename=a\\:b\n", &ov,
			     &plan, &warn, &err),
			 0);
	assert_string_equal(plan.runs[0].filename, "a:b");
	fiojob_plan_release(&plan);
	assert_int_equal(map("[a]\nrw=read\nsize=1m\nfilename=a:b\n", &ov,
			     &plan, &warn, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "names several files"));
	fiojob_plan_release(&plan);
	assert_int_equal(map("[a]\nrw=read\nsize=1m\nioengine=io_uring\n"
			     "sqthread_poll=1\n",
			     &ov, &plan, &warn, &err),
			 0);
	assert_true(has_param(&plan.runs[0], "sqpoll=1"));
	fiojob_plan_release(&plan);
	assert_int_equal(map("[a]\nrw=read\nsize=1m\nioengine=libaio\n"
			     "sqthread_poll\n",
			     &ov, &plan, &warn, &err),
			 -EINVAL);
	assert_non_null(
	    strstr(err.buf, "t.fio:5: 'sqthread_poll' is io_uring"));
	fiojob_plan_release(&plan);
	strbuf_release(&err);
	strbuf_release(&warn);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sections_and_lines),
	    cmocka_unit_test(test_env),
	    cmocka_unit_test(test_syntax_errors),
	    cmocka_unit_test(test_include),
	    cmocka_unit_test(test_units),
	    cmocka_unit_test(test_map_basic),
	    cmocka_unit_test(test_map_refusals),
	    cmocka_unit_test(test_map_groups_overrides),
	    cmocka_unit_test(test_map_verify),
	    cmocka_unit_test(test_map_batch),
	    cmocka_unit_test(test_inline_comments),
	    cmocka_unit_test(test_aliases),
	    cmocka_unit_test(test_keywords_and_math),
	    cmocka_unit_test(test_refusal_ranking),
	    cmocka_unit_test(test_names_and_sqpoll),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
