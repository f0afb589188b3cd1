/*
 * blktrace's binary records, as `blkparse -d FILE` dumps them (and as
 * blktrace writes them per CPU), imported as a block trace: the
 * requests of one device, paired from their insert, issue and complete
 * records as a capture pairs them (blk.h).
 *
 * A record is struct blk_io_trace (48 bytes, the writer's byte order)
 * followed by pdu_len bytes of payload, which this reader skips:
 *   u32 magic     0x65617400 | version (7)
 *   u32 sequence  (not read)
 *   u64 time      ns since the trace started
 *   u64 sector    512-byte units
 *   u32 bytes
 *   u32 action    low 16 bits: what happened (__BLK_TA_*: 7 issue,
 *                 8 complete, 12 insert; bit 8 marks a cgroup payload),
 *                 high 16: categories (read 1, write 2, flush 4, sync 8,
 *                 ahead 0x800, meta 0x1000, discard 0x2000, fua 0x8000)
 *   u32 pid
 *   u32 device    major << 20 | minor
 *   u32 cpu       (not read)
 *   u16 error     (read: a completion's, as a positive errno)
 *   u16 pdu_len
 * The byte order is the one the magic reads in. The input is untrusted:
 * every record must carry the magic and fit the data, counts are
 * bounded by the trace format's.
 */
#ifndef IOTRIAL_TRACE_BLKPARSE_H
#define IOTRIAL_TRACE_BLKPARSE_H

#include <stddef.h>
#include <stdint.h>
#include "trace.h"

struct strbuf;

#define BLKPARSE_MAGIC	 0x65617400u
#define BLKPARSE_VERSION 7u
#define BLKPARSE_RECORD	 48u

/* Does data[0..len) start like blktrace's records (either order)? */
int blkparse_detect(const void *data, size_t len);

/*
 * Parse the records in data[0..len) into t (zeroed by the caller;
 * release with trace_release() whatever this returns): the requests of
 * the first device named (*others_out: records of other devices
 * left out), a layer=block trace with its END. 0, or -EINVAL / -EFBIG
 * with err naming the record.
 */
int blkparse_import(const void *data, size_t len, struct trace *t,
		    uint64_t *others_out, struct strbuf *err);

/*
 * The block requests of t as blktrace records (little-endian, version
 * 7, no payloads) into out, in time order: an insert where the request
 * was queued, its issue, its completion (unless it never completed),
 * on the device of t's block.dev meta entry (0 if none), cpu 0.
 * `blkparse -i -` reads them; blkparse_import() reads them back.
 * Returns the requests written.
 */
size_t blkparse_export(const struct trace *t, struct strbuf *out);

#endif
