/*
 * I/O engines: one way each of getting requests to the kernel, behind
 * struct engine_ops (fio's ioengine seam, kept small). A workload fills
 * io_reqs and calls submit; completed requests come back from reap with
 * their result set. Synchronous engines (psync, mmap) complete inside
 * submit and hand the requests back on the next reap.
 *
 * Engines never allocate per I/O. Buffers and files are handed over at
 * init so io_uring can register both.
 *
 * Threads: an engine belongs to one thread at a time. It may be set up on
 * one thread and driven by another, but from the first submit on, every
 * submit and reap must come from that same thread (io_uring binds its
 * ring to the first submitter for cheaper completions).
 */
#ifndef IOTRIAL_ENGINE_H
#define IOTRIAL_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include "../../util/strbuf.h"

enum io_dir {
	IO_READ = 0,
	IO_WRITE = 1,
	IO_FSYNC = 2,	  /* len and buf ignored; fsync(2) of the file */
	IO_FDATASYNC = 3, /* as IO_FSYNC, with fdatasync(2) */
};
#define IO_DIRS 2 /* directions with bytes and latency: read, write */

/*
 * One I/O. The workload owns it except between submit and the reap that
 * returns it; meanwhile the engine may use result for its own book-keeping.
 * On completion result holds the bytes moved or -errno. A short count
 * means end of file (reads) or of the device: engines continue partial
 * transfers themselves. Kernel errors come back here, not from submit
 * (-EINVAL for misaligned O_DIRECT on a block device). len_bytes must stay
 * below 2 GiB so result can hold it.
 */
struct io_req {
	uint64_t offset_bytes; /* file offset */
	uint64_t start_ns;     /* set by the workload before submit */
	void *buf;	       /* inside bufs[buf_idx] (io_uring checks) */
	uint32_t len_bytes;    /* transfer length */
	uint16_t file_idx;     /* index into engine_opts.fds */
	uint16_t buf_idx;      /* index into engine_opts.bufs */
	uint8_t dir;	       /* enum io_dir */
	int32_t result;	       /* bytes done, or -errno; set on completion */
};

/*
 * What an engine works with. engine_init() copies the struct and the fds
 * and bufs arrays (not the buffers): the files and buffers themselves
 * must stay open and allocated until engine_release().
 */
struct engine_opts {
	unsigned iodepth; /* max requests in flight */
	int direct;	  /* files were opened O_DIRECT */
	const int *fds;	  /* open files, nr_files of them */
	unsigned nr_files;
	void *const *bufs; /* iodepth buffers of buf_bytes each */
	unsigned nr_bufs;
	size_t buf_bytes;
	uint64_t file_bytes; /* size of every file (mmap maps this much) */
	int writable;	     /* files opened for writing */
	int sqpoll; /* io_uring: a kernel thread polls the submission ring
		       (IORING_SETUP_SQPOLL); other engines ignore it */
};

struct engine;

/* What an engine can and cannot do, for the rw workloads' rules. */
enum engine_caps {
	ENGINE_SYNC = 1 << 0,	   /* one I/O in flight, whatever iodepth */
	ENGINE_NO_DIRECT = 1 << 1, /* cannot work on O_DIRECT files */
	ENGINE_SQPOLL = 1 << 2,	   /* honours engine_opts.sqpoll */
};

struct engine_ops {
	const char *name; /* "psync", "io_uring", "libaio", "mmap" */
	unsigned caps;	  /* enum engine_caps */
	/* fio's ioengine= values a job file may give for this engine,
	 * NULL-terminated; NULL: its own name only. A value other than the
	 * name gets fio_note ("one synchronous I/O at a time, the same
	 * pattern") in the note that says what it runs as. */
	const char *const *fio_names;
	const char *fio_note;
	/* Set up; return 0 or -errno with err set (e.g. io_uring disabled). */
	int (*init)(struct engine *e, const struct engine_opts *o,
		    struct strbuf *err);
	/* Queue n requests (n <= free slots). Returns the number accepted
	 * (>= 0): reqs[0..ret-1] are in flight, the rest untouched; fewer
	 * than n only when n exceeds the free slots (iodepth minus
	 * requests not yet returned by reap). -errno when the engine
	 * itself failed; per-request errors come back in result. An
	 * engine may leave the kernel call to the next reap (io_uring
	 * submits and waits in one call), so every submit must be
	 * followed by a reap, as the workloads' loops do. */
	int (*submit)(struct engine *e, struct io_req **reqs, unsigned n);
	/* Wait for at least min completions, return up to max in done[].
	 * Returns the count or -errno. min is clamped to max and to the
	 * requests in flight, so reap(e, done, iodepth, iodepth) drains
	 * and min 0 only polls. done[] holds pointers to the submitted
	 * io_reqs, in completion order. */
	int (*reap)(struct engine *e, struct io_req **done, unsigned min,
		    unsigned max);
	void (*cleanup)(struct engine *e);
};

/*
 * What an engine set up beyond plain submission, as it got it from the
 * kernel (io_uring: setup flags that were accepted, registrations that
 * worked). The run's JSON lists them ("engine_features") so a result
 * says how it was measured; the names are engine_feature_name()'s.
 */
enum engine_feature {
	ENGINE_FEAT_FIXED_FILES = 1 << 0,   /* files registered */
	ENGINE_FEAT_FIXED_BUFFERS = 1 << 1, /* buffers registered */
	ENGINE_FEAT_RING_FD = 1 << 2,	    /* ring fd registered */
	ENGINE_FEAT_SINGLE_ISSUER = 1 << 3,
	ENGINE_FEAT_DEFER_TASKRUN = 1 << 4,
	ENGINE_FEAT_COOP_TASKRUN = 1 << 5,
	ENGINE_FEAT_TASKRUN_FLAG = 1 << 6,
	ENGINE_FEAT_SUBMIT_ALL = 1 << 7,
	ENGINE_FEAT_SQPOLL = 1 << 8,
	ENGINE_FEAT_BATCH_REAP = 1 << 9, /* completions taken in batches
					    from a ring shared with the
					    kernel, one release per batch */
	ENGINE_FEATS = 10		 /* how many bits there are */
};

struct engine {
	const struct engine_ops *ops;
	struct engine_opts opts; /* copy; fds and bufs arrays owned */
	void *priv;		 /* engine-private state */
	char *note; /* owned: a sentence about a fallback init took, e.g.
		       io_uring without registered buffers; NULL if none */
	/* enum engine_feature, set by init and the first submit */
	unsigned features;
};

/*
 * Every engine, one line each, in the order help and the engine parameter
 * list them. ENGINE(n) names `const struct engine_ops engine_<n>` whose
 * .name is "<n>"; this list declares them, fills the registry and the
 * names (engine.c). Adding an engine is its file and a line here.
 */
#define ENGINE_TABLE(ENGINE)                                                   \
	ENGINE(psync)                                                          \
	ENGINE(io_uring)                                                       \
	ENGINE(libaio)                                                         \
	ENGINE(mmap)

#define ENGINE_DECLARE_(n) extern const struct engine_ops engine_##n;
ENGINE_TABLE(ENGINE_DECLARE_)
#undef ENGINE_DECLARE_

/* Look an engine up by name; NULL if unknown. */
const struct engine_ops *engine_find(const char *name);
/* The engine a fio job's ioengine= value runs as (its name or one of its
 * fio_names), or NULL. */
const struct engine_ops *engine_find_fio(const char *fio_name);
/* The engines in table order, NULL-terminated. */
extern const struct engine_ops *const engine_list[];
/* Their names, NULL-terminated, for the engine parameter's choices,
 * help and suggestions. */
extern const char *const engine_name_list[];
/* engine_name_list, for callers that want a function. */
const char *const *engine_names(void);
/* Append every engine's name with the fio names it runs, for messages:
 * "psync (also for sync and pvsync), io_uring, libaio and mmap". */
void engine_fio_names_text(struct strbuf *out);
/* Append the names of the engines with every cap of caps, joined with
 * sep ("io_uring", "psync or mmap"); the last one joined with last. */
void engine_names_with(unsigned caps, const char *sep, const char *last,
		       struct strbuf *out);

/*
 * Set e up to run ops with a copy of *o (see struct engine_opts). Returns
 * 0, or -errno with err set and e left zeroed (nothing to release):
 * -EINVAL for iodepth 0 or no files, and whatever ops->init refuses.
 */
/* The JSON name of one enum engine_feature bit ("fixed_files"); NULL for
 * a value that is not exactly one known bit. */
const char *engine_feature_name(unsigned feature);

int engine_init(struct engine *e, const struct engine_ops *ops,
		const struct engine_opts *o, struct strbuf *err);
/* Clean up and free the contents; e is left zeroed. Requests still in
 * flight are waited for first. NULL and a zeroed e are fine. */
void engine_release(struct engine *e);

#endif
