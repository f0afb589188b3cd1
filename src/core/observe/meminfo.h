/*
 * The memory numbers that tell whether the page cache, not the device,
 * took a workload's writes: Dirty (written, not yet sent to the device)
 * and Writeback (being sent now), from /proc/meminfo; plus the totals the
 * "fits in the page cache" warning and the environment snapshot need.
 */
#ifndef IOTRIAL_MEMINFO_H
#define IOTRIAL_MEMINFO_H

#include <stddef.h>
#include <stdint.h>

/* Which fields a parse found; the others are 0. */
enum meminfo_have {
	MEMINFO_TOTAL = 1 << 0,
	MEMINFO_FREE = 1 << 1,
	MEMINFO_AVAILABLE = 1 << 2,
	MEMINFO_CACHED = 1 << 3,
	MEMINFO_DIRTY = 1 << 4,
	MEMINFO_WRITEBACK = 1 << 5,
	MEMINFO_FILE_LRU = 1 << 6, /* Active(file) or Inactive(file) */
};

/* One reading of /proc/meminfo, in bytes. */
struct meminfo {
	uint64_t total_bytes;	      /* MemTotal */
	uint64_t free_bytes;	      /* MemFree */
	uint64_t available_bytes;     /* MemAvailable (3.14+) */
	uint64_t cached_bytes;	      /* Cached: the page cache */
	uint64_t dirty_bytes;	      /* Dirty */
	uint64_t writeback_bytes;     /* Writeback */
	uint64_t active_file_bytes;   /* Active(file) */
	uint64_t inactive_file_bytes; /* Inactive(file) */
	unsigned have;		      /* enum meminfo_have */
};

/*
 * Parse len bytes of /proc/meminfo text ("Name:   123 kB" lines; need not
 * be NUL-terminated). Unknown lines are skipped; a known name with a
 * malformed value is -EINVAL. Returns 0 when Dirty or MemTotal was found,
 * -EINVAL otherwise. out is zeroed first.
 */
int meminfo_parse(const char *buf, size_t len, struct meminfo *out);

/* Read and parse /proc/meminfo open at fd (see procfile.h). */
int meminfo_read_fd(int fd, struct meminfo *out);

/* Open and read /proc/meminfo once. Returns 0 or -errno. */
int meminfo_read(struct meminfo *out);

#endif
