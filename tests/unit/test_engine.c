/*
 * Engine tests: every engine must move the right bytes to the right
 * offsets, at queue depth 1 and 16, buffered and O_DIRECT, and keep the
 * submit/reap contract the workloads rely on (min/max, free slots, short
 * reads at end of file, errors as results). Data is written through the
 * engine, read back through the engine, and cross-checked with a plain
 * pread so an engine cannot pass by agreeing with itself.
 *
 * Files live in /var/tmp, not /tmp, because tmpfs has no O_DIRECT; a
 * filesystem that refuses O_DIRECT skips those cases, and io_uring cases
 * skip when the kernel has io_uring disabled.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/loop.h>
#include <linux/seccomp.h>
#include <cmocka.h>
#include "core/engine/engine.h"
#include "util/strbuf.h"

#define BLOCK_BYTES  4096u
#define NR_BLOCKS    64u
#define FILE_BYTES   ((uint64_t)BLOCK_BYTES * NR_BLOCKS)
#define MAX_DEPTH    16u
#define TEST_DIR     "/var/tmp"
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* What a parameterised case runs with. */
struct tcase {
	const char *engine;
	unsigned depth;
	int direct; /* 0 buffered, 1 O_DIRECT, 2 O_DIRECT on a loop device */
};

/* One test's file, buffers, requests and engine. */
struct env {
	char path[64];
	int fd;
	int loop_fd; /* the loop device holding path, or -1 */
	void *bufs[MAX_DEPTH];
	struct io_req reqs[MAX_DEPTH];
	struct engine e;
	struct strbuf err;
};

/* The byte a pattern generation gen puts at file offset off. */
static uint8_t pattern_byte(uint64_t off, unsigned gen)
{
	uint64_t x = (off + 1) * 0x9e3779b97f4a7c15ull + gen * 0x85ebca6bu;

	return (uint8_t)(x >> 56);
}

/* Fill len bytes at buf with the pattern of file offset off. */
static void fill_pattern(void *buf, uint64_t off, size_t len, unsigned gen)
{
	uint8_t *p = buf;

	for (size_t i = 0; i < len; i++)
		p[i] = pattern_byte(off + i, gen);
}

/* How many of len bytes at buf differ from the pattern at off. */
static size_t count_mismatches(const void *buf, uint64_t off, size_t len,
			       unsigned gen)
{
	const uint8_t *p = buf;
	size_t bad = 0;

	for (size_t i = 0; i < len; i++)
		bad += p[i] != pattern_byte(off + i, gen);
	return bad;
}

/* Create a file of file_bytes in TEST_DIR and open it (O_DIRECT when
 * asked): 0, or -errno (the caller skips on EINVAL from O_DIRECT). */
static int env_open_file(struct env *v, uint64_t file_bytes, int direct)
{
	int fd;

	snprintf(v->path, sizeof(v->path), "%s/iotrial-test-engine.XXXXXX",
		 TEST_DIR);
	fd = mkstemp(v->path);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)file_bytes) < 0) {
		close(fd);
		return -errno;
	}
	close(fd);
	v->fd = open(v->path, O_RDWR | (direct ? O_DIRECT : 0));
	if (v->fd < 0)
		return -errno;
	return 0;
}

/*
 * Replace v->fd with an O_DIRECT descriptor of a loop device over v->path,
 * for errors only a block device gives (ext4 quietly turns a misaligned
 * O_DIRECT request into a buffered one). The device clears itself when
 * the last descriptor closes, even if the test dies. 0, or -errno.
 */
static int env_use_loop(struct env *v)
{
	char dev[32];
	int ctl, backing, ret = -EBUSY;

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return -errno;
	backing = open(v->path, O_RDWR | O_CLOEXEC);
	if (backing < 0) {
		ret = -errno;
		close(ctl);
		return ret;
	}
	for (int tries = 0; tries < 10 && ret == -EBUSY; tries++) {
		struct loop_config cfg;
		int nr = ioctl(ctl, LOOP_CTL_GET_FREE);

		if (nr < 0) {
			ret = -errno;
			break;
		}
		snprintf(dev, sizeof(dev), "/dev/loop%d", nr);
		v->loop_fd = open(dev, O_RDWR | O_CLOEXEC);
		if (v->loop_fd < 0) {
			ret = -errno;
			break;
		}
		memset(&cfg, 0, sizeof(cfg));
		cfg.fd = (unsigned)backing;
		cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR;
		ret = ioctl(v->loop_fd, LOOP_CONFIGURE, &cfg) < 0 ? -errno : 0;
		if (ret < 0) {
			close(v->loop_fd);
			v->loop_fd = -1;
		}
	}
	close(backing);
	close(ctl);
	if (ret < 0)
		return ret;
	close(v->fd);
	v->fd = open(dev, O_RDWR | O_DIRECT | O_CLOEXEC);
	return v->fd < 0 ? -errno : 0;
}

/* Set up v for engine name at depth: file, buffers, engine. Skips the test
 * when O_DIRECT or io_uring is unavailable here. */
static void env_setup(struct env *v, const char *name, unsigned depth,
		      int direct, uint64_t file_bytes)
{
	struct engine_opts o;
	int ret;

	memset(v, 0, sizeof(*v));
	strbuf_init(&v->err, 0);
	v->fd = -1;
	v->loop_fd = -1;
	ret = env_open_file(v, file_bytes, direct);
	if (ret == -EINVAL && direct) {
		unlink(v->path);
		print_message("O_DIRECT not supported in %s\n", TEST_DIR);
		skip();
	}
	assert_int_equal(ret, 0);
	if (direct == 2) {
		ret = env_use_loop(v);
		if (ret < 0) {
			print_message("no loop device (%s); needs root\n",
				      strerror(-ret));
			if (v->fd >= 0)
				close(v->fd);
			if (v->loop_fd >= 0)
				close(v->loop_fd);
			unlink(v->path);
			skip();
		}
	}
	for (unsigned i = 0; i < MAX_DEPTH; i++)
		v->bufs[i] = aligned_alloc(BLOCK_BYTES, BLOCK_BYTES);

	memset(&o, 0, sizeof(o));
	o.iodepth = depth;
	o.direct = direct;
	o.fds = &v->fd;
	o.nr_files = 1;
	o.bufs = v->bufs;
	o.nr_bufs = MAX_DEPTH;
	o.buf_bytes = BLOCK_BYTES;
	o.file_bytes = file_bytes;
	o.writable = 1;
	ret = engine_init(&v->e, engine_find(name), &o, &v->err);
	if (ret == -ENOSYS || ret == -EPERM) {
		print_message("%s unavailable: %s\n", name, v->err.buf);
		close(v->fd);
		unlink(v->path);
		for (unsigned i = 0; i < MAX_DEPTH; i++)
			free(v->bufs[i]);
		strbuf_release(&v->err);
		skip();
	}
	if (ret)
		print_message("engine_init(%s): %s\n", name, v->err.buf);
	assert_int_equal(ret, 0);
	for (unsigned i = 0; i < MAX_DEPTH; i++) {
		v->reqs[i].buf = v->bufs[i];
		v->reqs[i].buf_idx = (uint16_t)i;
	}
}

/* Undo env_setup. */
static void env_teardown(struct env *v)
{
	engine_release(&v->e);
	if (v->fd >= 0)
		close(v->fd);
	if (v->loop_fd >= 0)
		close(v->loop_fd);
	unlink(v->path);
	for (unsigned i = 0; i < MAX_DEPTH; i++)
		free(v->bufs[i]);
	strbuf_release(&v->err);
}

/*
 * Run one request per block through the engine, depth in flight, blocks
 * in a scrambled order. Writes carry pattern gen; reads are checked
 * against it. Returns the number of bad results and bad bytes, so it can
 * run on a thread where cmocka cannot assert.
 */
static size_t pump(struct engine *e, struct io_req *reqs, unsigned depth,
		   int dir, unsigned gen)
{
	struct io_req *free_reqs[MAX_DEPTH], *batch[MAX_DEPTH];
	struct io_req *done[MAX_DEPTH];
	unsigned nr_free = depth, next = 0, finished = 0;
	size_t bad = 0;

	for (unsigned i = 0; i < depth; i++)
		free_reqs[i] = &reqs[i];
	while (finished < NR_BLOCKS) {
		unsigned nb = 0;
		int ret;

		while (nr_free && next < NR_BLOCKS) {
			struct io_req *r = free_reqs[--nr_free];
			unsigned block = (next++ * 37u) % NR_BLOCKS;

			r->offset_bytes = (uint64_t)block * BLOCK_BYTES;
			r->len_bytes = BLOCK_BYTES;
			r->file_idx = 0;
			r->dir = (uint8_t)dir;
			r->result = -12345;
			if (dir == IO_WRITE)
				fill_pattern(r->buf, r->offset_bytes,
					     BLOCK_BYTES, gen);
			else
				memset(r->buf, 0xee, BLOCK_BYTES);
			batch[nb++] = r;
		}
		if (nb) {
			ret = e->ops->submit(e, batch, nb);
			if (ret != (int)nb)
				return bad + 1000000;
		}
		ret = e->ops->reap(e, done, 1, depth);
		if (ret < 1)
			return bad + 1000000;
		for (int i = 0; i < ret; i++) {
			struct io_req *r = done[i];

			if (r->result != (int32_t)BLOCK_BYTES)
				bad++;
			else if (dir == IO_READ)
				bad += count_mismatches(r->buf, r->offset_bytes,
							BLOCK_BYTES, gen);
			free_reqs[nr_free++] = r;
			finished++;
		}
	}
	return bad;
}

/* Check the file's contents with plain buffered preads. */
static void check_file(const char *path, uint64_t bytes, unsigned gen)
{
	char *buf = malloc(bytes);
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, buf, bytes, 0), (ssize_t)bytes);
	assert_int_equal(count_mismatches(buf, 0, bytes, gen), 0);
	close(fd);
	free(buf);
}

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

/* What the io_uring thread test's worker does and finds. */
struct thread_job {
	struct env *v;
	size_t bad;
};

/* Worker: drive an engine set up on another thread. */
static void *thread_pump(void *arg)
{
	struct thread_job *j = arg;

	j->bad = pump(&j->v->e, j->v->reqs, 8, IO_WRITE, 5);
	j->bad += pump(&j->v->e, j->v->reqs, 8, IO_READ, 5);
	return NULL;
}

/* io_uring set up on one thread works when driven from another (the
 * single-issuer ring binds to the first submitter). */
static void test_uring_other_thread(void **state)
{
	const struct tcase *c = *state;
	struct thread_job j;
	pthread_t t;
	struct env v;

	env_setup(&v, "io_uring", 8, c->direct, FILE_BYTES);
	j.v = &v;
	j.bad = 0;
	assert_int_equal(pthread_create(&t, NULL, thread_pump, &j), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(j.bad, 0);
	check_file(v.path, FILE_BYTES, 5);
	env_teardown(&v);
}

/* Buffers io_uring cannot register (a shared file mapping) still work,
 * through plain reads and writes, and the fallback is noted. */
static void test_uring_unregistered_bufs(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct engine_opts o;
	struct env v, backing;
	char *map;
	int ret;

	(void)state;
	memset(&v, 0, sizeof(v));
	memset(&backing, 0, sizeof(backing));
	assert_int_equal(env_open_file(&v, FILE_BYTES, 0), 0);
	assert_int_equal(env_open_file(&backing, MAX_DEPTH * BLOCK_BYTES, 0),
			 0);
	map = mmap(NULL, MAX_DEPTH * BLOCK_BYTES, PROT_READ | PROT_WRITE,
		   MAP_SHARED, backing.fd, 0);
	assert_true(map != MAP_FAILED);
	for (unsigned i = 0; i < MAX_DEPTH; i++) {
		v.bufs[i] = map + i * BLOCK_BYTES;
		v.reqs[i].buf = v.bufs[i];
		v.reqs[i].buf_idx = (uint16_t)i;
	}
	memset(&o, 0, sizeof(o));
	o.iodepth = 4;
	o.fds = &v.fd;
	o.nr_files = 1;
	o.bufs = v.bufs;
	o.nr_bufs = MAX_DEPTH;
	o.buf_bytes = BLOCK_BYTES;
	o.file_bytes = FILE_BYTES;
	o.writable = 1;
	ret = engine_init(&v.e, &engine_io_uring, &o, &err);
	if (ret == -ENOSYS || ret == -EPERM) {
		munmap(map, MAX_DEPTH * BLOCK_BYTES);
		close(backing.fd);
		unlink(backing.path);
		close(v.fd);
		unlink(v.path);
		strbuf_release(&err);
		skip();
	}
	assert_int_equal(ret, 0);
	if (v.e.note)
		print_message("note: %s\n", v.e.note);
	assert_int_equal(pump(&v.e, v.reqs, 4, IO_WRITE, 6), 0);
	assert_int_equal(pump(&v.e, v.reqs, 4, IO_READ, 6), 0);
	check_file(v.path, FILE_BYTES, 6);
	engine_release(&v.e);
	munmap(map, MAX_DEPTH * BLOCK_BYTES);
	close(backing.fd);
	unlink(backing.path);
	close(v.fd);
	unlink(v.path);
	strbuf_release(&err);
}

/*
 * In a child, make io_uring_setup fail with code (as a kernel without
 * io_uring, or a container's seccomp policy, would) and check the
 * sentence engine_init gives. Returns the child's exit status: 0 when
 * the message matched, 77 when seccomp is unavailable.
 */
static int uring_refused_child(int code, const char *want)
{
	struct sock_filter filter[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		     offsetof(struct seccomp_data, nr)),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
	    BPF_STMT(BPF_RET | BPF_K,
		     SECCOMP_RET_ERRNO | (unsigned)(code & 0xffff)),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {ARRAY_LEN(filter), filter};
	struct strbuf err = STRBUF_INIT;
	struct engine_opts o;
	struct engine e;
	int fd = 0, ret;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return 77;
	memset(&o, 0, sizeof(o));
	o.iodepth = 4;
	o.fds = &fd;
	o.nr_files = 1;
	ret = engine_init(&e, &engine_io_uring, &o, &err);
	if (ret != -code || strcmp(err.buf, want)) {
		fprintf(stderr, "got %d '%s'\n", ret, err.buf);
		return 1;
	}
	strbuf_release(&err);
	return 0;
}

/* The sentence for EPERM: it names the sysctl when that is what refused. */
static void want_eperm(char *out, size_t len)
{
	struct strbuf val = STRBUF_INIT;
	const char *why = "io_uring_setup: operation not permitted, probably "
			  "by a seccomp filter";

	if (!strbuf_read_file(&val, "/proc/sys/kernel/io_uring_disabled", 64)) {
		strbuf_trim(&val);
		if (!strcmp(val.buf, "2"))
			why = "disabled by sysctl kernel.io_uring_disabled=2";
		else if (!strcmp(val.buf, "1"))
			why = "kernel.io_uring_disabled=1 allows it only for "
			      "kernel.io_uring_group";
	}
	snprintf(out, len,
		 "io_uring is not available on this kernel (%s); use "
		 "--engine=libaio or psync",
		 why);
	strbuf_release(&val);
}

/* io_uring refused by the kernel: a clear sentence naming the way out. */
static void test_uring_unavailable(void **state)
{
	char eperm[256];
	const struct {
		int code;
		const char *want;
	} cases[] = {
	    {ENOSYS, "io_uring is not available on this kernel "
		     "(io_uring_setup: function not implemented); use "
		     "--engine=libaio or psync"},
	    {EPERM, eperm},
	};

	(void)state;
	want_eperm(eperm, sizeof(eperm));
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		int status;
		pid_t pid = fork();

		assert_true(pid >= 0);
		if (!pid)
			_exit(
			    uring_refused_child(cases[i].code, cases[i].want));
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		if (WEXITSTATUS(status) == 77)
			skip();
		assert_int_equal(WEXITSTATUS(status), 0);
	}
}

/* A test of fn on engine name; the name cmocka prints says which. */
/* clang-format off */
#define CASE(fn, name, depth, direct)                                          \
	{ #fn " " name " qd" #depth " " #direct, fn, NULL, NULL,               \
	  &(struct tcase){ name, depth, direct } }

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
	    cmocka_unit_test(test_init_errors),
	    cmocka_unit_test(test_mmap_refuses_direct),
	    cmocka_unit_test(test_mmap_short_file),
	    ENGINE_CASES("psync"),
	    DIRECT_CASES("psync"),
	    ENGINE_CASES("io_uring"),
	    DIRECT_CASES("io_uring"),
	    CASE(test_uring_other_thread, "io_uring", 8, 0),
	    CASE(test_uring_other_thread, "io_uring", 8, 1),
	    cmocka_unit_test(test_uring_unregistered_bufs),
	    cmocka_unit_test(test_uring_unavailable),
	    ENGINE_CASES("libaio"),
	    DIRECT_CASES("libaio"),
	    ENGINE_CASES("mmap"),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
