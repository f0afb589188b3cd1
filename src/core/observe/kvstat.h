/*
 * Files of "name value" lines: /proc/vmstat (pages) and a memory
 * cgroup's memory.stat (bytes). The sampler reads the dirty thresholds
 * the kernel computes (nr_dirty_threshold, nr_dirty_background_threshold)
 * and what a cgroup holds dirty from them, a few names out of many
 * lines, four times a second.
 */
#ifndef IOTRIAL_KVSTAT_H
#define IOTRIAL_KVSTAT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parse len bytes of buf ("name value" lines; need not be NUL-terminated)
 * and, for each names[i] (nr of them, nr <= 31) found, set vals[i] and
 * bit i of the return value (so 0 or more). Unknown lines are skipped; a wanted
 * name whose value is not a decimal number makes the call return -EINVAL
 * (-ERANGE past 64 bits). vals is not touched for names not found.
 */
int kvstat_parse(const char *buf, size_t len, const char *const *names,
		 unsigned nr, uint64_t *vals);

/* Read the file open at fd (procfile.h) and kvstat_parse() it. */
int kvstat_read_fd(int fd, const char *const *names, unsigned nr,
		   uint64_t *vals);

#endif
