/*
 * Re-reading small kernel text files (sysfs attributes, /proc files)
 * cheaply. The sampler reads the same handful of files four times a
 * second for the whole run; opening them once and pread()ing at offset 0
 * makes the kernel regenerate the text without a path walk or a new file
 * descriptor each time, which is most of what keeps observation under
 * 0.5% of a core.
 */
#ifndef IOTRIAL_PROCFILE_H
#define IOTRIAL_PROCFILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Open path read-only for repeated procfile_read(). Returns the fd (>= 0)
 * or -errno; never sets errno for the caller.
 */
int procfile_open(const char *path);

/*
 * Read the file behind fd from offset 0 into buf (cap bytes, cap > 0),
 * NUL-terminating it. Files longer than cap - 1 are truncated: callers
 * pick cap so the lines they need fit. Returns the byte count or -errno.
 */
ssize_t procfile_read(int fd, char *buf, size_t cap);

/* Close fd if it is open (>= 0); returns -1 for "fd = procfile_close(fd)". */
int procfile_close(int fd);

/*
 * Skip blanks at p[*pos], then read a decimal number from p[*pos..len),
 * leaving *pos just past its digits. The number parsers of /proc files
 * share it. Returns 0, -EINVAL (no digit) or -ERANGE (past UINT64_MAX).
 */
int procfile_scan_u64(const char *p, size_t len, size_t *pos, uint64_t *out);

/* For procfile_each_line(): one line, without its newline. 0 goes on. */
typedef int (*procfile_line_fn)(const char *line, size_t line_len, void *arg);

/*
 * Walk the lines of a /proc file's text in buf (len bytes; a NUL ends
 * the text early), calling fn for each. Returns 0, or the first nonzero
 * value fn returned, where the walk stopped.
 */
int procfile_each_line(const char *buf, size_t len, procfile_line_fn fn,
		       void *arg);

/* For procfile_each_kv(): one line's name and value. 0 goes on. */
typedef int (*procfile_kv_fn)(const char *name, size_t name_len,
			      const char *value, size_t value_len, void *arg);

/*
 * Walk the "name: value" lines of a /proc file's text as
 * procfile_each_line() does: fn gets each line's name (what stands
 * before its first ':') and its value (what follows, untrimmed). Lines
 * without a ':' are skipped. Returns 0 or the first nonzero fn value.
 */
int procfile_each_kv(const char *buf, size_t len, procfile_kv_fn fn, void *arg);

/* A "name: value" line a parser wants, and where its number goes. */
struct procfile_key {
	const char *name; /* without the colon */
	size_t off;	  /* offsetof the uint64_t in the parser's struct */
	unsigned bit;	  /* the bit of it in *have */
};

/* A value's parser for procfile_parse_keys(): 0, -EINVAL or -ERANGE. */
typedef int (*procfile_value_fn)(const char *value, size_t len, uint64_t *out);

/*
 * The nr keys[] of a "name: value" file's text: each wanted line's
 * value parsed by parse into out + key.off, its bit added to *have;
 * other lines are skipped. 0, or the first value's parse error.
 */
int procfile_parse_keys(const char *buf, size_t len,
			const struct procfile_key *keys, size_t nr,
			procfile_value_fn parse, void *out, unsigned *have);

#endif
