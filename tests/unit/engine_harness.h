/*
 * What the engine tests share: a scratch file (or a loop device over it)
 * with buffers, requests and an engine set up on it, a byte pattern that
 * differs per offset and per generation, and a pump that runs one request
 * per block through an engine and checks what comes back.
 *
 * Files live in /var/tmp, not /tmp, because tmpfs has no O_DIRECT; a
 * filesystem that refuses O_DIRECT skips those cases, and io_uring cases
 * skip when the kernel has io_uring disabled.
 *
 * Included by test_engine.c and test_engine_uring.c (each test is one
 * program built from one file).
 */
#ifndef IOTRIAL_TEST_ENGINE_HARNESS_H
#define IOTRIAL_TEST_ENGINE_HARNESS_H

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/loop.h>
#include <cmocka.h>
#include "core/engine/engine.h"
#include "util/strbuf.h"

#define BLOCK_BYTES 4096u
#define NR_BLOCKS   64u
#define FILE_BYTES  ((uint64_t)BLOCK_BYTES * NR_BLOCKS)
#define MAX_DEPTH   16u
#define TEST_DIR    "/var/tmp"

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

/* A test of fn on engine name; the name cmocka prints says which. */
/* clang-format off */
#define CASE(fn, name, depth, direct)                                          \
	{ #fn " " name " qd" #depth " " #direct, fn, NULL, NULL,               \
	  &(struct tcase){ name, depth, direct } }
/* clang-format on */

#endif
