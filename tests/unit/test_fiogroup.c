/*
 * Tests for workload/fiogroup (job sections at the same time): with
 * stand-in sections that only open and close their timed region, the
 * group's region opens once, after every section reached its timed
 * part, and closes once, after the last ended; the group's result sums
 * the sections'; a section that fails before its timed part holds up
 * nobody; each section works in its own subdirectory, removed after.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "core/targets/target.h"
#include "core/workload/fiogroup.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/banned.h"

static char base[64];

static int setup(void **state)
{
	char state_path[128];

	(void)state;
	snprintf(base, sizeof(base), "/var/tmp/iotrial-test-fg.XXXXXX");
	if (!mkdtemp(base))
		return -1;
	snprintf(state_path, sizeof(state_path), "%s/state", base);
	mkdir(state_path, 0700);
	setenv("IOTRIAL_STATE_DIR", state_path, 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) ? -1 : 0;
}

/* What the caller's hook saw. */
static struct {
	int begins, ends;
	uint64_t begin_ns, end_ns;
	uint64_t ops_at_end; /* the group's ops when its region closed */
} seen;
/* What the sections' threads found wrong (cmocka asserts in main only). */
static _Atomic int wrong;

static void hook_begin(void *ctx)
{
	(void)ctx;
	seen.begins++;
	seen.begin_ns = clock_now_ns();
}

static void hook_end(void *ctx, struct run_result *r)
{
	(void)ctx;
	seen.ends++;
	seen.end_ns = clock_now_ns();
	seen.ops_at_end = r->ops[IO_READ] + r->ops[IO_WRITE];
}

static const struct measure_hook caller_hook = {NULL, hook_begin, hook_end};

static void sleep_ms(unsigned ms)
{
	struct timespec ts = {0, (long)ms * 1000000L};

	nanosleep(&ts, NULL);
}

/*
 * A stand-in section: "ramp" ms before its timed part, "run" ms in it,
 * "ops" reads counted; "fail" fails before the timed part. Its timed
 * part must begin after the group's and end before the group's.
 */
struct fake_params {
	struct workload_common common;
	uint64_t ramp_ms, run_ms, ops;
	int fail;
};

#define FAKE(member) PARAM_AT(struct fake_params, member)

static const struct param_spec fake_params[] = {
    {"ramp", PARAM_UINT, "0", 0, 0, NULL, "ms before the timed part",
     FAKE(ramp_ms)},
    {"run", PARAM_UINT, "10", 0, 0, NULL, "ms in it", FAKE(run_ms)},
    {"ops", PARAM_UINT, "1", 0, 0, NULL, "reads counted", FAKE(ops)},
    {"fail", PARAM_BOOL, "0", 0, 1, NULL, "fail before it", FAKE(fail)},
    {NULL},
};

static int fake_prepare(struct workload *w, struct target *t,
			struct strbuf *err)
{
	int fd;

	(void)err;
	w->target = t;
	/* its own directory: a file of its own lands there */
	fd = target_open_file(t, "f", O_CREAT | O_RDWR, 0600);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

static int fake_run(struct workload *w, struct run_result *r,
		    struct strbuf *err)
{
	const struct fake_params *p = w->params;
	struct measure m;
	uint64_t arrived_ns;
	unsigned k;

	sleep_ms((unsigned)p->ramp_ms);
	if (p->fail)
		return err_set(err, -EIO, "failed on purpose");
	measure_init(&m, w->hook);
	arrived_ns = clock_now_ns();
	measure_begin(&m);
	/* the group's region opened once, after this section got here */
	if (seen.begins != 1 || seen.begin_ns < arrived_ns ||
	    seen.begin_ns > m.start_ns)
		atomic_fetch_add(&wrong, 1);
	sleep_ms((unsigned)p->run_ms);
	r->ops[IO_READ] = p->ops;
	r->nr_jobs = 1;
	r->jobs = calloc(1, sizeof(*r->jobs));
	r->jobs[0].ops[IO_READ] = r->ops[IO_READ];
	for (k = 0; k < r->ops[IO_READ]; k++)
		hist_record(&r->lat[IO_READ], 1000 * (k + 1));
	measure_end(&m, r);
	/* and closed once every section's is */
	if (seen.ends != 1 || seen.end_ns < m.end_ns)
		atomic_fetch_add(&wrong, 1);
	return 0;
}

static void fake_cleanup(struct workload *w)
{
	target_unlink_file(w->target, "f");
}

static const struct workload_ops fake_ops = {
    .name = "fake",
    .params = fake_params,
    .params_size = sizeof(struct fake_params),
    .prepare = fake_prepare,
    .run = fake_run,
    .cleanup = fake_cleanup,
};

/* Add a stand-in section with "k=v" params. */
static void add(struct fiogroup *g, const char *name, const char *const *params,
		unsigned nr)
{
	struct strbuf err = STRBUF_INIT;
	struct run_opts ro = {.time_ns = 1000000000ull};

	assert_int_equal(
	    fiogroup_add(g, name, &fake_ops, params, nr, &ro, &err), 0);
	strbuf_release(&err);
}

/* Entries in the target's work directory. */
static int work_entries(const struct target *t)
{
	DIR *d = opendir(t->workdir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* Run g on a directory target in base; the run's return value. */
static int run_group(struct fiogroup *g, struct run_result *r,
		     struct strbuf *err)
{
	struct target t;
	struct workload w;
	int ret;

	memset(&seen, 0, sizeof(seen));
	atomic_store(&wrong, 0);
	assert_int_equal(target_open(&t, base, 0, NULL, err), 0);
	workload_init(&w, &g->ops);
	w.hook = &caller_hook;
	assert_int_equal(w.ops->prepare(&w, &t, err), 0);
	assert_int_equal(work_entries(&t), (int)g->nr);
	ret = w.ops->run(&w, r, err);
	assert_int_equal(atomic_load(&wrong), 0);
	w.ops->cleanup(&w);
	assert_int_equal(work_entries(&t), 0);
	workload_release(&w);
	target_release(&t);
	return ret;
}

static void test_one_region(void **state)
{
	const char *const a[] = {"ramp=30", "run=10", "ops=3"};
	const char *const b[] = {"ramp=0", "run=40", "ops=5"};
	const char *const c[] = {"ramp=5", "run=5", "ops=2"};
	struct strbuf err = STRBUF_INIT;
	struct fiogroup g;
	struct run_result r;

	(void)state;
	fiogroup_init(&g);
	add(&g, "a", a, 3);
	add(&g, "b", b, 3);
	add(&g, "c", c, 3);
	run_result_init(&r);
	assert_int_equal(run_group(&g, &r, &err), 0);
	assert_int_equal(seen.begins, 1);
	assert_int_equal(seen.ends, 1);
	/* every section's tallies were in when the region closed */
	assert_int_equal(seen.ops_at_end, 10);
	assert_int_equal(r.ops[IO_READ], 10);
	assert_int_equal(r.lat[IO_READ].count, 10);
	assert_int_equal(r.nr_jobs, 3);
	assert_int_equal(r.jobs[1].ops[IO_READ], 5);
	/* the group's region spans the longest section */
	assert_true(r.seconds >= g.secs[1].r.seconds);
	assert_true(g.secs[1].r.seconds > g.secs[2].r.seconds);
	/* each section keeps its own numbers, and says whose truth it has */
	assert_int_equal(g.secs[0].r.ops[IO_READ], 3);
	assert_int_equal(g.secs[2].r.ops[IO_READ], 2);
	assert_int_equal(g.secs[0].r.nr_notes, 1);
	assert_non_null(strstr(g.secs[0].r.notes[0], "the group's"));
	run_result_release(&r);
	fiogroup_release(&g);
	strbuf_release(&err);
}

static void test_failed_section(void **state)
{
	const char *const ok[] = {"run=10", "ops=4"};
	const char *const bad[] = {"ramp=20", "fail=1"};
	struct strbuf err = STRBUF_INIT;
	struct fiogroup g;
	struct run_result r;

	(void)state;
	fiogroup_init(&g);
	add(&g, "ok", ok, 2);
	add(&g, "bad", bad, 2);
	run_result_init(&r);
	/* the good section is not held up for ever, and the error says who */
	assert_int_equal(run_group(&g, &r, &err), -EIO);
	assert_non_null(strstr(err.buf, "[bad]: failed on purpose"));
	assert_int_equal(seen.begins, 1);
	assert_int_equal(seen.ends, 1);
	assert_int_equal(r.ops[IO_READ], 4);
	run_result_release(&r);
	fiogroup_release(&g);
	strbuf_release(&err);
}

static void test_blockdev_refused(void **state)
{
	const char *const p[] = {"run=1"};
	struct strbuf err = STRBUF_INIT;
	struct fiogroup g;
	struct workload w;
	struct target t;

	(void)state;
	fiogroup_init(&g);
	add(&g, "a", p, 1);
	add(&g, "b", p, 1);
	memset(&t, 0, sizeof(t));
	t.kind = TARGET_BLOCKDEV;
	t.work_fd = -1;
	workload_init(&w, &g.ops);
	assert_int_equal(w.ops->prepare(&w, &t, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "need a directory target"));
	w.ops->cleanup(&w);
	workload_release(&w);
	fiogroup_release(&g);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_one_region),
	    cmocka_unit_test(test_failed_section),
	    cmocka_unit_test(test_blockdev_refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
