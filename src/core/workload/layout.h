/*
 * Laying out work files: a read job needs its file written in full (a
 * hole or an unwritten extent reads as zeros without touching the
 * device), a write job only needs the space. Files of an earlier run can
 * be reused when an experiment asks for it.
 */
#ifndef IOTRIAL_LAYOUT_H
#define IOTRIAL_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include "../targets/target.h"
#include "../../util/rng.h"
#include "../../util/strbuf.h"

/* Fill buf with bytes from rng: writes must not be trivially compressible. */
void layout_fill_random(void *buf, size_t bytes, struct rng *rng);
/*
 * Work file name in t's work directory (target_open_file: never through a
 * link). Write it in full (bytes, content from seed), flush it and drop
 * it from the page cache. A file of that name is replaced by a new one.
 * 0 or -errno with err set.
 */
int layout_write(const struct target *t, const char *name, uint64_t bytes,
		 uint64_t seed, struct strbuf *err);
/* Create work file name at full size without writing it (fallocate, or a
 * sparse file where the filesystem has no fallocate), replacing a file of
 * that name. */
int layout_preallocate(const struct target *t, const char *name, uint64_t bytes,
		       struct strbuf *err);
/* Can an earlier run's work file serve again? A regular file of the same
 * size, fully allocated; its cache is dropped so the next run starts
 * cold. 1 or 0. */
int layout_reusable(const struct target *t, const char *name, uint64_t bytes);

#endif
