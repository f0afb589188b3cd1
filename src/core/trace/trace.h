/*
 * An I/O trace: what a recorded program asked of the file system, call
 * by call, with the files it touched and the state they started in. The
 * file format (docs/TRACE-FORMAT.md) is written by struct trace_writer,
 * streamed as the capture goes, and read whole by trace_read_mem().
 *
 * A trace file is untrusted input: the reader bounds every count and
 * length, and refuses what does not hold together (an event naming a
 * file the trace does not list, an unknown operation, a path with a NUL).
 */
#ifndef IOTRIAL_TRACE_H
#define IOTRIAL_TRACE_H

#include <stddef.h>
#include <stdint.h>

struct strbuf;
struct outfile;

#define TRACE_MAGIC	       "IOTRACE\n" /* the file's first 8 bytes */
#define TRACE_VERSION_MAJOR    1	   /* a reader refuses other majors */
#define TRACE_VERSION_MINOR    3	  /* and reads any minor of its major */
#define TRACE_EVENT_BYTES      64	  /* one event on disk */
#define TRACE_HEADER_BYTES     16	  /* the header this writer writes */
#define TRACE_FILE_FIXED_BYTES 32	  /* a FILE record before its path */
#define TRACE_END_BYTES	       48	  /* the END record's payload */
#define TRACE_CACHED_BYTES     16	  /* one entry of a CACHED record */
#define TRACE_RECORD_MAX       (1u << 20) /* bytes of one record's payload */
#define TRACE_PATH_MAX	       4096	  /* bytes of a file's path */
#define TRACE_FILES_MAX	       (1u << 20) /* files of one trace */
#define TRACE_EVENTS_MAX       (1u << 25) /* events of one trace (2 GiB) */
#define TRACE_META_MAX	       1024	  /* meta entries */

/* The record types (a record is a u32 type, a u32 length, the payload). */
enum trace_record_type {
	TRACE_REC_META = 1,   /* u16 key length, key, u16 value length, value */
	TRACE_REC_FILE = 2,   /* struct trace_file */
	TRACE_REC_EVENTS = 3, /* a whole number of events */
	TRACE_REC_END = 4,    /* struct trace_end */
	TRACE_REC_CACHED = 5, /* 1.3: u32 file id, u32 0, u64 bytes cached */
};

/* The operations. Their numbers are part of the format: append only. */
enum trace_op {
	TOP_NONE = 0,
	TOP_OPEN = 1,	    /* file, arg: open flags, ret: the fd */
	TOP_CLOSE = 2,	    /* fd */
	TOP_READ = 3,	    /* fd, file, offset, size (asked), ret (moved) */
	TOP_WRITE = 4,	    /* the same */
	TOP_LSEEK = 5,	    /* fd, offset (asked), arg: whence, ret: position */
	TOP_FSYNC = 6,	    /* fd */
	TOP_FDATASYNC = 7,  /* fd */
	TOP_SYNC_RANGE = 8, /* fd, offset, size, arg: flags */
	TOP_FALLOCATE = 9,  /* fd, offset, size, arg: mode */
	TOP_FTRUNCATE = 10, /* fd, size */
	TOP_UNLINK = 11,    /* file */
	TOP_RENAME = 12,    /* file to file2 */
	TOP_MKDIR = 13,	    /* file */
	TOP_RMDIR = 14,	    /* file */
	TOP_STAT = 15,	    /* file (stat, lstat, fstatat, statx on a name) */
	TOP_FSTAT = 16,	    /* fd */
	TOP_GETDENTS = 17,  /* fd, size: the buffer, ret: bytes returned */
	TOP_MMAP = 18,	    /* fd, offset, size, arg: prot << 16 | flags */
	TOP_MSYNC = 19,	    /* size, arg: flags (noted, not replayed) */
	/* the block layer (1.1): one request of the recorded device;
	 * ts_ns: issue, dur_ns: to completion, offset: sector * 512,
	 * size: bytes, ret: the completion's error (0 or -errno), arg:
	 * requests in flight at issue (this one included), file2: ns from
	 * insert to issue (0: not seen), tid: the task it was issued in */
	TOP_BLK_READ = 20,
	TOP_BLK_WRITE = 21,
	TOP_BLK_DISCARD = 22,
	TOP_BLK_FLUSH = 23, /* a flush alone (no data) */
	/* 1.2: page cache advice */
	TOP_FADVISE = 24,   /* fd, offset, size, arg: POSIX_FADV_* (0..5) */
	TOP_READAHEAD = 25, /* fd, offset, size */
	/* 1.3: flushes of a whole file system */
	TOP_SYNC = 26,	 /* sync(): every file system; fd -1, file 0 */
	TOP_SYNCFS = 27, /* syncfs(fd): the file system of fd's file */
	/* 1.3: io_uring requests of the recorded processes; ts_ns: the
	 * submission, dur_ns: to the completion, fd: the sqe's descriptor
	 * (TEV_FIXED: its index in the ring's registered files), file,
	 * offset and size as a read or write has them, ret: the
	 * completion's result, file2: the ring (1, 2, ... in the order
	 * the trace met them; not a file), arg: the requests in flight on
	 * that ring at the submission, this one included */
	TOP_URING_READ = 28,
	TOP_URING_WRITE = 29,
	TOP_URING_FSYNC = 30,	  /* offset, size: the range (0, 0: all) */
	TOP_URING_FDATASYNC = 31, /* the same */
	TOP__NR
};

/* trace_event.flags */
enum trace_event_flags {
	TEV_VEC = 1 << 0,	 /* readv/writev family: size is what moved */
	TEV_POSITIONAL = 1 << 1, /* pread/pwrite family: offset was given */
	TEV_NOFILE = 1 << 2,	 /* the fd was not opened in the trace */
	/* block requests (rwbs): */
	TEV_PREFLUSH = 1 << 3, /* F before the op: flush the cache first */
	TEV_FUA = 1 << 4,      /* F after the op: forced unit access */
	TEV_SYNC = 1 << 5,     /* S */
	TEV_META = 1 << 6,     /* M */
	TEV_RAHEAD = 1 << 7,   /* A: read-ahead */
	TEV_UNDONE = 1 << 8,   /* no completion seen before the trace ended */
	/* io_uring requests (1.3; TEV_VEC, TEV_POSITIONAL, TEV_UNDONE as
	 * above): */
	TEV_FIXED = 1 << 9,   /* a registered file: fd is its index */
	TEV_SQPOLL = 1 << 10, /* submitted by the ring's kernel thread */
};

/* One call, as it is on disk (64 bytes, little-endian). */
struct trace_event {
	uint64_t ts_ns;	 /* entry, since the trace's start */
	uint64_t dur_ns; /* entry to exit */
	uint32_t tid;	 /* the thread (as the kernel numbers it) */
	uint16_t op;	 /* enum trace_op */
	uint16_t flags;	 /* enum trace_event_flags */
	uint32_t file;	 /* the file's id, 0: none */
	uint32_t file2;	 /* rename's target, 0: none */
	uint64_t offset; /* bytes */
	uint64_t size;	 /* bytes */
	int64_t ret;	 /* the call's return value (-errno on error) */
	uint32_t arg;	 /* per op: see enum trace_op */
	int32_t fd;	 /* the descriptor as the program numbered it, or -1 */
};

/* trace_file.kind */
enum trace_file_kind {
	TFK_UNKNOWN = 0,
	TFK_REG = 1,
	TFK_DIR = 2,
	TFK_OTHER = 3, /* a device, a pipe, a socket, /proc: never replayed */
};

/* A file the trace touched. */
struct trace_file {
	uint32_t id;	     /* 1..; events refer to it */
	uint8_t kind;	     /* enum trace_file_kind */
	uint8_t existed;     /* 1: it was there before the first event */
	uint64_t dev, ino;   /* identity when first seen (0: unknown) */
	uint64_t size_bytes; /* its size before the trace (existed only) */
	char *path;	     /* as the program named it, made absolute */
	/* 1.3, a CACHED record: the bytes of it in the page cache as the
	 * trace's first open of it returned */
	uint64_t cached_bytes;
	uint8_t have_cached;
};

/* The closing record: what the capture counted. */
struct trace_end {
	uint64_t nr_events;   /* events written */
	uint64_t lost;	      /* calls the capture could not record */
	uint64_t duration_ns; /* start to stop */
	uint64_t bpf_ns;      /* CPU time in the capture's BPF programs */
	uint64_t user_ns;     /* CPU time of the capture's own process */
	uint64_t bpf_calls;   /* BPF program runs */
};

/* One key = value of the trace's description. */
struct trace_meta {
	char *key, *value;
};

/* A whole trace in memory. */
struct trace {
	unsigned version_minor;
	struct trace_meta *meta;
	size_t nr_meta, alloc_meta;
	struct trace_file *files; /* files[i].id == i + 1 */
	size_t nr_files, alloc_files;
	size_t nr_cached;	    /* files with have_cached */
	struct trace_event *events; /* in file order (by ts_ns per thread) */
	size_t nr_events, alloc_events;
	struct trace_end end;
	int complete;	  /* 1: the END record was read */
	size_t cut_bytes; /* bytes of a last record cut short (a trace
			     cut mid-record is read to its last whole
			     one); 0: none */
};

/* The name of op ("read"), or "?" for one out of range. */
const char *trace_op_name(unsigned op);
/* The op called name, or TOP_NONE. */
unsigned trace_op_find(const char *name);
/* Is op a name operation (open, stat, unlink, rename, mkdir, rmdir,
 * getdents)? */
int trace_op_is_name(unsigned op);
/* Is op a block-layer request (TOP_BLK_*)? */
int trace_op_is_block(unsigned op);
/* Is op one of the format's operations (named; not 0, not past
 * TOP__NR)? */
int trace_op_known(unsigned op);
/* Is op an io_uring request (TOP_URING_*)? */
int trace_op_is_uring(unsigned op);
/* The call whose work op does: TOP_READ for an io_uring read, and so
 * on; op itself for the others. */
unsigned trace_op_base(unsigned op);
/* The trace format minor version that brought op in (0 for the first). */
unsigned trace_op_minor(unsigned op);
/* The name of a POSIX_FADV_* advice ("dontneed"), or NULL for one that
 * Linux does not know. */
const char *trace_fadv_name(uint32_t advice);

/* The value of meta key, or NULL. */
const char *trace_meta_get(const struct trace *t, const char *key);
/* The file with id (1-based), or NULL. */
const struct trace_file *trace_file_get(const struct trace *t, uint32_t id);

/*
 * Parse a whole trace file held in data[0..len) into t (which the
 * caller has zeroed; release it with trace_release() whatever this
 * returns). A trace without its END record whose last record is cut
 * short (a recorder killed, a full disk) is read to its last whole
 * record: t->complete stays 0 and t->cut_bytes says what was left. 0,
 * or -EINVAL (not a trace, malformed) / -ENOTSUP (another major
 * version) / -EFBIG (over a bound) with err set.
 */
int trace_read_mem(const void *data, size_t len, struct trace *t,
		   struct strbuf *err);
/*
 * The same from the file at path (not followed if a symbolic link):
 * only a regular file is read (a FIFO or a device is refused at once,
 * -EINVAL, never waited on), and one larger than any trace can be is
 * refused (-EFBIG).
 */
int trace_read_file(const char *path, struct trace *t, struct strbuf *err);
void trace_release(struct trace *t);

/* Append a meta entry or a file to t (t owns copies). */
void trace_add_meta(struct trace *t, const char *key, const char *value);
/* Returns the new file's id. */
uint32_t trace_add_file(struct trace *t, const struct trace_file *f);

/*
 * Writes a trace as it is captured: the header at open, then meta,
 * file and event records as they come (events in blocks, so memory
 * stays bounded), and the END record at finish. Every function returns
 * 0 or -errno with err set; after an error, only release.
 */
struct trace_writer {
	int fd;
	struct outfile *out;  /* what fd was opened as (NULL: given) */
	struct strbuf *block; /* events not written yet */
	uint64_t nr_events;
	uint32_t nr_meta, nr_files; /* records written */
	uint32_t max_file;	    /* the highest file id an event named */
	uint64_t bytes;		    /* written so far */
	int failed;		    /* a write failed */
	int anonymize; /* paths as trace_anonymize_path() makes them */
	/* shown each event as it is written (NULL: none) */
	void (*on_event)(void *ctx, const struct trace_event *e);
	void *on_event_ctx;
};
/*
 * Create path and write to it as the records come, so a trace cut short
 * is readable to its last whole record: a new regular file, or with
 * replace an existing one truncated; a symbolic link, a device, a FIFO
 * is refused (util/outfile.h), -EEXIST an existing file without
 * replace.
 */
int trace_writer_open(struct trace_writer *w, const char *path, int replace,
		      struct strbuf *err);
/* The same to fd, which the writer then owns (release closes it). */
int trace_writer_open_fd(struct trace_writer *w, int fd, struct strbuf *err);
/*
 * The writer refuses (-EINVAL, -EFBIG) what the reader would refuse,
 * so what it wrote reads back the same: a key empty or over 255 bytes,
 * a 1025th meta entry; a file out of order (its id not the next one),
 * with an empty path or one over TRACE_PATH_MAX bytes, of an unknown
 * kind; an event of an unknown operation or fadvise advice, a block
 * request naming a file (at the event), an event naming a file never
 * written (at finish). A meta value over TRACE_PATH_MAX bytes is cut
 * there (before a UTF-8 character it would split): a description, not
 * an identity.
 */
int trace_writer_meta(struct trace_writer *w, const char *key,
		      const char *value, struct strbuf *err);
int trace_writer_file(struct trace_writer *w, const struct trace_file *f,
		      struct strbuf *err);
/* What the page cache held of file id (written before) as the trace
 * first opened it: a CACHED record. */
int trace_writer_cached(struct trace_writer *w, uint32_t id,
			uint64_t cached_bytes, struct strbuf *err);
int trace_writer_event(struct trace_writer *w, const struct trace_event *e,
		       struct strbuf *err);
/* Flush the events, write end (nr_events is filled in) and fsync. */
int trace_writer_finish(struct trace_writer *w, struct trace_end *end,
			struct strbuf *err);
/* Close without an END record (after an error). NULL is fine. */
void trace_writer_release(struct trace_writer *w);

/*
 * path with each component replaced by a stable hash of it (16 hex
 * digits of FNV-1a, 64 bits), into out: the same name gives the same
 * hash in every trace, the tree's shape stays, so the trace still
 * replays, and no name can be read back from it.
 */
void trace_anonymize_path(const char *path, struct strbuf *out);
/* Every path of t so; the meta entries that name things (command, pid,
 * cgroup, host) go. */
void trace_anonymize(struct trace *t);

/* The whole of t written to path as trace_writer does, but to a new
 * file renamed onto path at the end: a failure leaves what was there. */
int trace_write_file(const struct trace *t, const char *path, int replace,
		     struct strbuf *err);

#endif
