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

/* What a probe of the device's speed read. */
enum wrap_source {
	WRAP_FROM_FILE = 1, /* the laid-out file, with O_DIRECT */
	WRAP_FROM_DEVICE,   /* the top device of the target's stack */
};

struct wrap_probe_result {
	enum wrap_source source;
	uint64_t bytes; /* read */
	uint64_t ns;	/* in this long */
	uint64_t bs;	/* per read, aligned */
	int random;	/* random offsets, else sequential */
	double mbps;	/* bytes / ns, in 10^6 B/s */
};

/* What a reader at mbps will read in time_ns, against its file. */
struct wrap_prediction {
	double per_reader_bytes; /* each of the readers */
	double passes;		 /* per_reader_bytes over the file */
	uint64_t suggest_bytes;	 /* a --size that does not wrap: the
				    power of two of at least 1.5 times
				    per_reader_bytes, 1 MiB at least */
};

/* bytes read in ns as 10^6 B/s; 0 when ns is 0. */
double wrap_rate_mbps(uint64_t bytes, uint64_t ns);

/* The smallest power of two of at least bytes, and at least 1 MiB. */
uint64_t wrap_size_at_least(double bytes);

/*
 * The request size of a direct-read probe for reads of bs bytes in a
 * file of bytes: bs rounded up to align (0: 4096), cut down to the
 * aligned part of the file when larger. 0 when the file holds no
 * aligned read.
 */
uint64_t wrap_probe_bs(uint64_t bs, uint64_t bytes, unsigned align);

/*
 * readers (0 counts as 1) sharing mbps for time_ns: fill p, and return
 * 1 when each reads more than file_bytes (the read wraps), else 0.
 */
int wrap_predict(double mbps, uint64_t time_ns, unsigned readers,
		 uint64_t file_bytes, struct wrap_prediction *p);

/*
 * Read the block device devno (name for messages and the fallback
 * /dev/NAME; dev_bytes its size) with direct reads of bs bytes,
 * sequential or random, for a quarter of a second or 48 MiB, into pr.
 * Reads only. 0 or -errno with err set (not root, no such node, a read
 * failed).
 */
int wrap_probe(dev_t devno, const char *name, uint64_t dev_bytes, uint64_t bs,
	       int random, struct wrap_probe_result *pr, struct strbuf *err);

/*
 * The same of the file w laid out (workload_ops.open_laid_out), after
 * its prepare: O_DIRECT reads, nothing left in the page cache, nothing
 * written. -EINVAL with err set when the file system refuses O_DIRECT
 * (or the file holds no aligned read), other -errno when it cannot be
 * opened or read.
 */
int wrap_probe_laid_out(const struct workload *w, uint64_t bs, int random,
			struct wrap_probe_result *pr, struct strbuf *err);

/*
 * For each arm of e that is a time-based buffered read (seqread,
 * randread, randrw with reads; not --direct, --invalidate, --ios or a
 * write), measure the device's speed once per kind of read and append
 * to out one line per arm whose readers would read more than their
 * file in --time ("seqread of a 2 GiB file for 2 s at ~1.1 GB/s ...
 * reads the rest again from the page cache; give --size 4G,
 * --direct=1, --invalidate=1, or --ios (estimated before the first run
 * from ... direct reads ... of the laid-out file ...)"), lines
 * separated by '\n'. laid is a workload of e just prepared: its file is
 * what is read; where it cannot be read directly (or laid is NULL) the
 * top device of the target's stack is, unless it is a loop device.
 * Nothing to check appends nothing and measures nothing. When nothing
 * can be probed, returns -errno and, when note is given, appends why.
 */
int experiment_wrap_check(const struct experiment *e,
			  const struct experiment_config *c,
			  const struct workload *laid, struct strbuf *out,
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
