/*
 * I/O engines: one way each of getting requests to the kernel, behind
 * struct engine_ops (fio's ioengine seam, kept small). A workload fills
 * io_reqs and calls submit; completed requests come back from reap with
 * their result set. Synchronous engines (psync, mmap) complete inside
 * submit and hand the requests back on the next reap.
 *
 * Engines never allocate per I/O. Buffers and files are handed over at
 * init so io_uring can register both.
 */
#ifndef IOTRIAL_ENGINE_H
#define IOTRIAL_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include "../../util/strbuf.h"

enum io_dir {
	IO_READ = 0,
	IO_WRITE = 1,
	IO_FSYNC = 2, /* len and buf ignored; fsync(2)/fdatasync of the file */
};
#define IO_DIRS 2 /* directions with bytes and latency: read, write */

struct io_req {
	uint64_t offset_bytes;  /* file offset */
	uint64_t start_ns;      /* set by the workload before submit */
	void *buf;              /* one of the registered buffers */
	uint32_t len_bytes;     /* transfer length */
	uint16_t file_idx;      /* index into engine_opts.fds */
	uint16_t buf_idx;       /* index into engine_opts.bufs */
	uint8_t dir;            /* enum io_dir */
	int32_t result;         /* bytes done, or -errno; set on completion */
};

struct engine_opts {
	unsigned iodepth;       /* max requests in flight */
	int direct;             /* files were opened O_DIRECT */
	const int *fds;         /* open files, nr_files of them */
	unsigned nr_files;
	void *const *bufs;      /* iodepth buffers of buf_bytes each */
	unsigned nr_bufs;
	size_t buf_bytes;
	uint64_t file_bytes;    /* size of every file (mmap maps this much) */
	int writable;           /* files opened for writing */
};

struct engine;

struct engine_ops {
	const char *name; /* "psync", "io_uring", "libaio", "mmap" */
	/* Set up; return 0 or -errno with err set (e.g. io_uring disabled). */
	int (*init)(struct engine *e, const struct engine_opts *o,
		    struct strbuf *err);
	/* Queue n requests (n <= free slots). Returns the number accepted
	 * (>= 0) or -errno. */
	int (*submit)(struct engine *e, struct io_req **reqs, unsigned n);
	/* Wait for at least min completions, return up to max in done[].
	 * Returns the count or -errno. */
	int (*reap)(struct engine *e, struct io_req **done, unsigned min,
		    unsigned max);
	void (*cleanup)(struct engine *e);
};

struct engine {
	const struct engine_ops *ops;
	struct engine_opts opts;
	void *priv; /* engine-private state */
};

/* Look an engine up by name; NULL if unknown. */
const struct engine_ops *engine_find(const char *name);
/* NULL-terminated list of engine names, for help and suggestions. */
const char *const *engine_names(void);

/* Convenience wrappers; engine_init copies *o. */
int engine_init(struct engine *e, const struct engine_ops *ops,
		const struct engine_opts *o, struct strbuf *err);
void engine_release(struct engine *e);

extern const struct engine_ops engine_psync;
extern const struct engine_ops engine_io_uring;
extern const struct engine_ops engine_libaio;
extern const struct engine_ops engine_mmap;

#endif
