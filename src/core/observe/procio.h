/*
 * Per-process I/O accounting from /proc/PID/io: how many bytes the
 * process dirtied (write_bytes), how many of those it later truncated or
 * deleted before they were written back (cancelled_write_bytes), and how
 * many it made the kernel fetch from storage (read_bytes). The file sums
 * every thread of the process, live and exited, so reading our own at the
 * start and end of a run covers all the workers.
 */
#ifndef IOTRIAL_PROCIO_H
#define IOTRIAL_PROCIO_H

#include <stddef.h>
#include <stdint.h>

/* Which fields a parse found; the others are 0. */
enum procio_have {
	PROCIO_RCHAR = 1 << 0,
	PROCIO_WCHAR = 1 << 1,
	PROCIO_SYSCR = 1 << 2,
	PROCIO_SYSCW = 1 << 3,
	PROCIO_READ_BYTES = 1 << 4,
	PROCIO_WRITE_BYTES = 1 << 5,
	PROCIO_CANCELLED = 1 << 6,
};

/* One reading of /proc/PID/io. */
struct procio {
	uint64_t rchar;			/* bytes passed to read-like calls */
	uint64_t wchar;			/* bytes passed to write-like calls */
	uint64_t syscr, syscw;		/* read and write system calls */
	uint64_t read_bytes;		/* fetched from the storage layer */
	uint64_t write_bytes;		/* dirtied for the storage layer */
	uint64_t cancelled_write_bytes; /* dirtied, then truncated or deleted */
	unsigned have;			/* enum procio_have */
};

/*
 * Parse len bytes of /proc/PID/io text ("name: value" lines; need not be
 * NUL-terminated). Unknown names are skipped; a malformed value is
 * -EINVAL, one too large -ERANGE. Returns 0 when write_bytes was found,
 * -EINVAL otherwise. out is zeroed first.
 */
int procio_parse(const char *buf, size_t len, struct procio *out);

/* Read and parse the file open at fd (see procfile.h). */
int procio_read_fd(int fd, struct procio *out);

/* after - before, field by field (these counters only grow). */
void procio_delta(const struct procio *before, const struct procio *after,
		  struct procio *out);

#endif
