/*
 * The rw workloads on a real directory target, for what fio job files
 * need of them: jobs that share one file (shared=1) lay out one file and
 * all do their I/O in it; a run of --ios with a time as well ends at
 * whichever comes first.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "core/targets/target.h"
#include "core/workload/randmap.h"
#include "core/workload/workload.h"
#include "util/banned.h"

/* A private temp directory per test, and a state dir inside it. */
static char base[64];

static int setup(void **state)
{
	char state_path[128];

	(void)state;
	snprintf(base, sizeof(base), "/var/tmp/iotrial-test-rw.XXXXXX");
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

/* Regular files in the target's work directory. */
static int work_files(const struct target *t)
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

/* Prepare workload name with "k=v" params on a target in base. */
static void prepare(struct workload *w, struct target *t, const char *name,
		    const char *const *params)
{
	struct strbuf err = STRBUF_INIT;
	unsigned i;

	assert_int_equal(target_open(t, base, 0, NULL, &err), 0);
	workload_init(w, workload_find(name));
	for (i = 0; params[i]; i += 2)
		assert_int_equal(
		    workload_set_param(w, params[i], params[i + 1], NULL, &err),
		    0);
	assert_int_equal(workload_validate(w, &err), 0);
	assert_int_equal(w->ops->prepare(w, t, &err), 0);
	strbuf_release(&err);
}

static void finish(struct workload *w, struct target *t)
{
	w->ops->cleanup(w);
	assert_int_equal(work_files(t), 0);
	workload_release(w);
	target_release(t);
}

static void test_shared(void **state)
{
	const char *const params[] = {"jobs",	"3", "size", "64k",
				      "shared", "1", NULL};
	struct strbuf err = STRBUF_INIT;
	struct run_result r;
	struct workload w;
	struct target t;
	unsigned i;

	(void)state;
	prepare(&w, &t, "randread", params);
	assert_int_equal(work_files(&t), 1);
	w.ro.ios = 300;
	run_result_init(&r);
	assert_int_equal(w.ops->run(&w, &r, &err), 0);
	assert_int_equal(r.ops[IO_READ], 300);
	assert_int_equal(r.nr_jobs, 3);
	for (i = 0; i < 3; i++)
		assert_int_equal(r.jobs[i].ops[IO_READ], 100);
	run_result_release(&r);
	finish(&w, &t);

	/* without it, a file per job */
	prepare(&w, &t, "randwrite",
		(const char *const[]){"jobs", "3", "size", "64k", NULL});
	assert_int_equal(work_files(&t), 3);
	finish(&w, &t);
	strbuf_release(&err);
}

static void test_ios_with_time(void **state)
{
	const char *const params[] = {"size", "64k", "settle", "none", NULL};
	struct strbuf err = STRBUF_INIT;
	struct run_result r;
	struct workload w;
	struct target t;

	(void)state;
	/* the count comes first */
	prepare(&w, &t, "randwrite", params);
	w.ro.ios = 100;
	w.ro.time_ns = 3600ull * 1000000000ull;
	run_result_init(&r);
	assert_int_equal(w.ops->run(&w, &r, &err), 0);
	assert_int_equal(r.ops[IO_WRITE], 100);
	run_result_release(&r);
	/* the time comes first: 10 ms against all the I/Os there are */
	w.ro.ios = UINT64_MAX / 2;
	w.ro.time_ns = 10000000ull;
	run_result_init(&r);
	assert_int_equal(w.ops->run(&w, &r, &err), 0);
	assert_true(r.ops[IO_WRITE] > 0);
	assert_true(r.ops[IO_WRITE] < UINT64_MAX / 2);
	run_result_release(&r);
	finish(&w, &t);
	strbuf_release(&err);
}

/* Pages of the target's work file name in the page cache. */
static size_t resident_pages(const struct target *t, const char *name)
{
	struct strbuf path = STRBUF_INIT;
	size_t pages, i, n = 0;
	unsigned char *vec;
	struct stat st;
	void *p;
	int fd;

	target_file_path(t, name, &path);
	fd = open(path.buf, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	pages = ((size_t)st.st_size + 4095) / 4096;
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	assert_true(p != MAP_FAILED);
	vec = calloc(pages, 1);
	assert_int_equal(mincore(p, (size_t)st.st_size, vec), 0);
	for (i = 0; i < pages; i++)
		n += vec[i] & 1;
	free(vec);
	munmap(p, (size_t)st.st_size);
	close(fd);
	strbuf_release(&path);
	return n;
}

/*
 * invalidate=1 drops the file at every pass: one I/O into the third pass
 * next to nothing of it is cached (a page or two the kernel had not yet
 * put on its LRU lists may escape the drop); without, all of it is.
 */
static void test_invalidate(void **state)
{
	const char *const with[] = {"size",	  "1M", "randommap", "1",
				    "invalidate", "1",	NULL};
	const char *const without[] = {"size", "1M", "randommap", "1", NULL};
	const char *const *cases[] = {with, without};
	struct strbuf err = STRBUF_INIT;
	struct run_result r;
	struct workload w;
	struct target t;
	int c;

	(void)state;
	for (c = 0; c < 2; c++) {
		prepare(&w, &t, "randread", cases[c]);
		w.ro.ios = 513;
		run_result_init(&r);
		assert_int_equal(w.ops->run(&w, &r, &err), 0);
		assert_int_equal(r.ops[IO_READ], 513);
		run_result_release(&r);
		if (c == 0)
			assert_true(resident_pages(&t, "job0.data") <= 8);
		else
			assert_int_equal(resident_pages(&t, "job0.data"), 256);
		finish(&w, &t);
	}
	strbuf_release(&err);
}

/* Each pass of the walk visits every block once, not in order. */
static void test_randmap(void **state)
{
	static const uint64_t sizes[] = {1, 2, 3, 16, 1000, 4097};
	unsigned char *seen = calloc(4097, 1);
	size_t s;

	(void)state;
	assert_non_null(seen);
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint64_t n = sizes[s], i, in_order = 0, prev = 0;
		struct randmap m;
		int pass;

		randmap_init(&m, n, 0x1234567 * (s + 1), 0x89abcdef * (s + 3));
		for (pass = 0; pass < 2; pass++) {
			memset(seen, 0, n);
			for (i = 0; i < n; i++) {
				uint64_t b = randmap_next(&m);

				assert_true(b < n);
				assert_int_equal(seen[b], 0);
				seen[b] = 1;
				in_order += i && b == prev + 1;
				prev = b;
			}
		}
		if (n >= 1000)
			assert_true(in_order < n / 10);
	}
	free(seen);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_randmap),
	    cmocka_unit_test_setup_teardown(test_invalidate, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_shared, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ios_with_time, setup,
					    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
