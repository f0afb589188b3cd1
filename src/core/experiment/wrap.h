/*
 * Before the first run: will a time-based buffered read wrap its file
 * and read it again from the page cache? See wrap.c for how the device's
 * speed is measured (a short probe) and what the answer is worth.
 */
#ifndef IOTRIAL_WRAP_H
#define IOTRIAL_WRAP_H

#include <stdint.h>
#include <sys/types.h>
#include "experiment.h"
#include "../result/result.h"
#include "../../util/strbuf.h"

/*
 * Read the block device devno (name for messages and the fallback
 * /dev/NAME; dev_bytes its size) with direct reads of bs bytes,
 * sequential or random, for a quarter of a second or 512 MiB, and put
 * the rate in 10^6 B/s into *mbps. Reads only. 0 or -errno with err set
 * (not root, no such node, a read failed).
 */
int wrap_probe(dev_t devno, const char *name, uint64_t dev_bytes, uint64_t bs,
	       int random, double *mbps, struct strbuf *err);

/*
 * For each arm of e that is a time-based buffered read (seqread,
 * randread, randrw with reads; not --direct, --invalidate or --ios),
 * probe the target's top device once per kind of read and append to out
 * one line per arm whose readers would read more than their file in
 * --time ("seqread of a 2 GiB file for 2 s at ~1.1 GB/s will read it
 * again from the page cache ...; give --size 4G, --direct=1,
 * --invalidate=1, or --ios ..."), lines separated by '\n'. Nothing to
 * check appends nothing. When the device cannot be probed, returns
 * -errno and, when note is given, appends why to it.
 */
int experiment_wrap_check(const struct experiment *e,
			  const struct experiment_config *c, struct strbuf *out,
			  struct strbuf *note);

/*
 * After a run of w (r with its truth): when w is a time-based
 * buffered read whose readers read 90% of their file or more (the
 * workload's own bytes: the device's also count read-ahead and other
 * I/O), append a warning that says how much ("read it 1.30 times over
 * in a run of this setting", or "read 94% of it: a run a little
 * faster reads the rest again from the page cache") and what to give
 * instead, set *key to a number that is the same for the same file,
 * readers and time (to say it once), and return 1; else 0.
 */
int wrap_after_run(const struct workload *w, const struct run_result *r,
		   struct strbuf *out, uint64_t *key);

#endif
