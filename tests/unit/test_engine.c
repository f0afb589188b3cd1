/*
 * Engine tests: every engine must move the right bytes to the right
 * offsets, at queue depth 1 and 16, buffered and O_DIRECT, and keep the
 * submit/reap contract the workloads rely on (min/max, free slots, short
 * reads at end of file, errors as results). Data is written through the
 * engine, read back through the engine, and cross-checked with a plain
 * pread so an engine cannot pass by agreeing with itself. What only
 * io_uring does (threads, unregistered buffers, a kernel that refuses
 * it) is in test_engine_uring.c; the set-up both use is in
 * engine_harness.h.
 */
#include "engine_harness.h"

/* Write a pattern through the engine, read it back, check it both ways. */
static void test_roundtrip(void **state)
{
	const struct tcase *c = *state;
	struct env v;

	env_setup(&v, c->engine, c->depth, c->direct, FILE_BYTES);
	assert_int_equal(pump(&v.e, v.reqs, c->depth, IO_WRITE, 1), 0);
	assert_int_equal(pump(&v.e, v.reqs, c->depth, IO_READ, 1), 0);
	/* A second generation catches a read that returned stale data. */
	assert_int_equal(pump(&v.e, v.reqs, c->depth, IO_WRITE, 2), 0);
	assert_int_equal(pump(&v.e, v.reqs, c->depth, IO_READ, 2), 0);
	check_file(v.path, FILE_BYTES, 2);
	env_teardown(&v);
}

/* Submit reqs[0..n-1], reap until all are back; returns how many came
 * back (asserting each reap's bounds). */
static unsigned submit_and_drain(struct engine *e, struct io_req **reqs,
				 unsigned n)
{
	struct io_req *done[MAX_DEPTH];
	unsigned got = 0;

	assert_int_equal(e->ops->submit(e, reqs, n), (int)n);
	while (got < n) {
		int ret = e->ops->reap(e, done, 1, MAX_DEPTH);

		assert_true(ret >= 1);
		got += (unsigned)ret;
	}
	return got;
}

/* fsync and fdatasync requests complete with 0, after writes. */
static void test_fsync(void **state)
{
	const struct tcase *c = *state;
	struct io_req *batch[3];
	struct env v;

	env_setup(&v, c->engine, 4, c->direct, FILE_BYTES);
	assert_int_equal(pump(&v.e, v.reqs, 4, IO_WRITE, 3), 0);
	v.reqs[0].dir = IO_FSYNC;
	v.reqs[1].dir = IO_FDATASYNC;
	v.reqs[2].dir = IO_FSYNC;
	for (unsigned i = 0; i < 3; i++) {
		v.reqs[i].len_bytes = 0;
		v.reqs[i].file_idx = 0;
		v.reqs[i].result = -12345;
		batch[i] = &v.reqs[i];
	}
	assert_int_equal(submit_and_drain(&v.e, batch, 3), 3);
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(v.reqs[i].result, 0);
	check_file(v.path, FILE_BYTES, 3);
	env_teardown(&v);
}

/* A read across end of file returns the bytes there are; one at end of
 * file returns 0. */
static void test_short_read(void **state)
{
	const struct tcase *c = *state;
	uint64_t file_bytes = c->direct ? 3 * BLOCK_BYTES : 10000;
	struct io_req *batch[2];
	int fd;
	char *all;
	struct env v;

	env_setup(&v, c->engine, 2, c->direct, file_bytes);
	all = malloc(file_bytes);
	fill_pattern(all, 0, file_bytes, 4);
	fd = open(v.path, O_WRONLY);
	assert_int_equal(pwrite(fd, all, file_bytes, 0), (ssize_t)file_bytes);
	assert_int_equal(fsync(fd), 0);
	close(fd);
	free(all);

	v.reqs[0].offset_bytes = 2 * BLOCK_BYTES;
	v.reqs[1].offset_bytes = c->direct ? file_bytes : 3 * BLOCK_BYTES;
	for (unsigned i = 0; i < 2; i++) {
		v.reqs[i].len_bytes = BLOCK_BYTES;
		v.reqs[i].dir = IO_READ;
		v.reqs[i].result = -12345;
		batch[i] = &v.reqs[i];
	}
	assert_int_equal(submit_and_drain(&v.e, batch, 2), 2);
	assert_int_equal(v.reqs[0].result, file_bytes - 2 * BLOCK_BYTES);
	assert_int_equal(count_mismatches(v.reqs[0].buf, 2 * BLOCK_BYTES,
					  v.reqs[0].result, 4),
			 0);
	assert_int_equal(v.reqs[1].result, 0);
	env_teardown(&v);
}

/* reap honours max, waits for min, clamps min to what is in flight, and
 * submit accepts no more than the free slots. */
static void test_reap_bounds(void **state)
{
	const struct tcase *c = *state;
	struct io_req *batch[MAX_DEPTH], *done[MAX_DEPTH];
	unsigned got = 0;
	int ret;
	struct env v;

	env_setup(&v, c->engine, 8, c->direct, FILE_BYTES);
	for (unsigned i = 0; i < 10; i++) {
		v.reqs[i].offset_bytes = (uint64_t)i * BLOCK_BYTES;
		v.reqs[i].len_bytes = BLOCK_BYTES;
		v.reqs[i].dir = IO_READ;
		batch[i] = &v.reqs[i];
	}
	/* Nothing in flight: returns at once, even with min 1. */
	assert_int_equal(v.e.ops->reap(&v.e, done, 1, 8), 0);
	/* Ten asked, eight slots. */
	assert_int_equal(v.e.ops->submit(&v.e, batch, 10), 8);
	/* No slot left until something is reaped. */
	assert_int_equal(v.e.ops->submit(&v.e, batch + 8, 2), 0);
	assert_int_equal(v.e.ops->reap(&v.e, done, 0, 0), 0);

	ret = v.e.ops->reap(&v.e, done, 0, 3);
	assert_true(ret >= 0 && ret <= 3);
	got += (unsigned)ret;
	ret = v.e.ops->reap(&v.e, done, 2, 3);
	assert_true(ret >= 2 && ret <= 3);
	got += (unsigned)ret;
	/* min above what is in flight must not hang. */
	ret = v.e.ops->reap(&v.e, done, 8, 8);
	assert_int_equal((unsigned)ret, 8 - got);
	for (int i = 0; i < ret; i++)
		assert_int_equal(done[i]->result, BLOCK_BYTES);
	assert_int_equal(v.e.ops->reap(&v.e, done, 1, 8), 0);
	/* The slots are free again. */
	assert_int_equal(v.e.ops->submit(&v.e, batch + 8, 2), 2);
	assert_int_equal(v.e.ops->reap(&v.e, done, 2, 8), 2);
	env_teardown(&v);
}

/* A misaligned O_DIRECT request comes back as -EINVAL, not a crash. On a
 * block device: filesystems may serve it buffered instead. */
static void test_direct_einval(void **state)
{
	const struct tcase *c = *state;
	struct io_req *batch[2];
	struct env v;

	env_setup(&v, c->engine, 2, 2, FILE_BYTES);
	v.reqs[0].offset_bytes = 1;
	v.reqs[0].len_bytes = BLOCK_BYTES;
	v.reqs[0].dir = IO_READ;
	v.reqs[1].offset_bytes = 0;
	v.reqs[1].len_bytes = 100;
	v.reqs[1].dir = IO_WRITE;
	batch[0] = &v.reqs[0];
	batch[1] = &v.reqs[1];
	assert_int_equal(submit_and_drain(&v.e, batch, 2), 2);
	assert_int_equal(v.reqs[0].result, -EINVAL);
	assert_int_equal(v.reqs[1].result, -EINVAL);
	env_teardown(&v);
}

/* A file index out of range fails the request with -EBADF. */
static void test_bad_file(void **state)
{
	const struct tcase *c = *state;
	struct io_req *batch[1];
	struct env v;

	env_setup(&v, c->engine, 2, 0, FILE_BYTES);
	v.reqs[0].file_idx = 3;
	v.reqs[0].len_bytes = BLOCK_BYTES;
	v.reqs[0].dir = IO_READ;
	batch[0] = &v.reqs[0];
	assert_int_equal(submit_and_drain(&v.e, batch, 1), 1);
	assert_int_equal(v.reqs[0].result, -EBADF);
	env_teardown(&v);
}

/* Every feature bit has its own name; 0 and two bits at once have none. */
static void test_feature_names(void **state)
{
	(void)state;
	for (unsigned i = 0; i < ENGINE_FEATS; i++) {
		const char *n = engine_feature_name(1u << i);

		assert_non_null(n);
		for (unsigned k = 0; k < i; k++)
			assert_string_not_equal(n,
						engine_feature_name(1u << k));
	}
	assert_string_equal(engine_feature_name(ENGINE_FEAT_FIXED_FILES),
			    "fixed_files");
	assert_string_equal(engine_feature_name(ENGINE_FEAT_BATCH_REAP),
			    "batch_reap");
	assert_null(engine_feature_name(0));
	assert_null(engine_feature_name(3));
	assert_null(engine_feature_name(1u << ENGINE_FEATS));
}

/* An unknown name finds nothing; every listed name finds its engine. */
static void test_find(void **state)
{
	const char *const *names = engine_names();
	unsigned n = 0;

	(void)state;
	assert_null(engine_find("posixaio"));
	assert_null(engine_find(""));
	assert_null(engine_find(NULL));
	for (; names[n]; n++) {
		const struct engine_ops *ops = engine_find(names[n]);

		assert_non_null(ops);
		assert_string_equal(ops->name, names[n]);
	}
	assert_int_equal(n, 4);
	assert_ptr_equal(engine_find("io_uring"), &engine_io_uring);
	assert_ptr_equal(engine_find("libaio"), &engine_libaio);
	assert_ptr_equal(engine_find("psync"), &engine_psync);
	assert_ptr_equal(engine_find("mmap"), &engine_mmap);
}

/* fio's ioengine names find the engine that runs them; the caps the rw
 * workloads' rules read come from the table. */
static void test_fio_names_and_caps(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_ptr_equal(engine_find_fio("sync"), &engine_psync);
	assert_ptr_equal(engine_find_fio("pvsync"), &engine_psync);
	assert_ptr_equal(engine_find_fio("libaio"), &engine_libaio);
	assert_null(engine_find_fio("posixaio"));
	assert_null(engine_find_fio(NULL));
	assert_true(engine_psync.caps & ENGINE_SYNC);
	assert_true(engine_mmap.caps & ENGINE_NO_DIRECT);
	assert_false(engine_libaio.caps & ENGINE_SYNC);
	engine_names_with(ENGINE_SYNC, ", ", " or ", &sb);
	assert_string_equal(sb.buf, "psync or mmap");
	strbuf_reset(&sb);
	engine_names_with(ENGINE_SQPOLL, ", ", " or ", &sb);
	assert_string_equal(sb.buf, "io_uring");
	strbuf_reset(&sb);
	engine_fio_names_text(&sb);
	assert_string_equal(sb.buf,
			    "psync (also for sync and pvsync), io_uring, "
			    "libaio and mmap");
	strbuf_release(&sb);
}

/* engine_init refuses nonsense and leaves nothing to release; release
 * takes NULL and a zeroed engine. */
static void test_init_errors(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct engine e;
	struct engine_opts o;
	int fd = 0;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.fds = &fd;
	o.nr_files = 1;
	assert_int_equal(engine_init(&e, &engine_psync, &o, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "iodepth"));
	assert_null(e.priv);
	o.iodepth = 1;
	o.nr_files = 0;
	assert_int_equal(engine_init(&e, &engine_psync, &o, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "no files"));
	engine_release(NULL);
	memset(&e, 0, sizeof(e));
	engine_release(&e);
	strbuf_release(&err);
}

/* The mmap engine says O_DIRECT is impossible and what to do instead. */
static void test_mmap_refuses_direct(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct engine e;
	struct engine_opts o;
	int fd = 0;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.iodepth = 1;
	o.direct = 1;
	o.fds = &fd;
	o.nr_files = 1;
	o.file_bytes = FILE_BYTES;
	assert_int_equal(engine_init(&e, &engine_mmap, &o, &err), -EINVAL);
	assert_string_equal(err.buf, "the mmap engine cannot do O_DIRECT; "
				     "use --direct=0 or another engine");
	strbuf_release(&err);
}

/* The mmap engine refuses a file shorter than the map (SIGBUS later). */
static void test_mmap_short_file(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct engine e;
	struct engine_opts o;
	struct env v;

	(void)state;
	memset(&v, 0, sizeof(v));
	assert_int_equal(env_open_file(&v, 4096, 0), 0);
	memset(&o, 0, sizeof(o));
	o.iodepth = 1;
	o.fds = &v.fd;
	o.nr_files = 1;
	o.file_bytes = FILE_BYTES;
	o.writable = 1;
	assert_int_equal(engine_init(&e, &engine_mmap, &o, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "shorter than"));
	close(v.fd);
	unlink(v.path);
	strbuf_release(&err);
}

/* clang-format off */
/* direct is 0 (buffered) or 1 (O_DIRECT) in the printed names. */
#define ENGINE_CASES(name)                                                     \
	CASE(test_roundtrip, name, 1, 0), CASE(test_roundtrip, name, 16, 0),   \
	CASE(test_fsync, name, 4, 0), CASE(test_short_read, name, 2, 0),       \
	CASE(test_reap_bounds, name, 8, 0), CASE(test_bad_file, name, 2, 0)

#define DIRECT_CASES(name)                                                     \
	CASE(test_roundtrip, name, 1, 1), CASE(test_roundtrip, name, 16, 1),   \
	CASE(test_fsync, name, 4, 1), CASE(test_short_read, name, 2, 1),       \
	CASE(test_reap_bounds, name, 8, 1), CASE(test_direct_einval, name, 2, 1)
/* clang-format on */

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_find),
	    cmocka_unit_test(test_feature_names),
	    cmocka_unit_test(test_fio_names_and_caps),
	    cmocka_unit_test(test_init_errors),
	    cmocka_unit_test(test_mmap_refuses_direct),
	    cmocka_unit_test(test_mmap_short_file),
	    ENGINE_CASES("psync"),
	    DIRECT_CASES("psync"),
	    ENGINE_CASES("io_uring"),
	    DIRECT_CASES("io_uring"),
	    ENGINE_CASES("libaio"),
	    DIRECT_CASES("libaio"),
	    ENGINE_CASES("mmap"),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
