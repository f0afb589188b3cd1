/*
 * fio's iolog, both ways, so users keep the traces they have: a trace
 * exported as a version 3 iolog (fio replays it with read_iolog=), and
 * an iolog of version 2 or 3 imported as a trace (iotrial replays it).
 * Only what fio's iolog can say crosses: reads, writes, fsync and
 * fdatasync, with open and close around them; name operations and think
 * times beyond the timestamps stay behind.
 */
#ifndef IOTRIAL_TRACE_IOLOG_H
#define IOTRIAL_TRACE_IOLOG_H

#include <stddef.h>
#include "trace.h"

struct strbuf;

/*
 * t as a fio version 3 iolog into out: a timestamp in microseconds
 * since the start on every line, each file added and opened at its
 * first use and closed at the end, the trace's paths as they are.
 * Returns the I/O lines written (reads, writes, syncs).
 */
size_t iolog_export(const struct trace *t, struct strbuf *out);
/*
 * The calls of t that change what reaches the device and that an iolog
 * cannot say, so an export leaves them out: fadvise and readahead (fio
 * replays an iolog's I/O only; a DONTNEED left out means the replay's
 * reads may come from the page cache where the trace's came from the
 * device).
 */
size_t iolog_left_out(const struct trace *t);

/*
 * Parse a fio iolog (version 2 or 3) held in data[0..len) into t
 * (zeroed by the caller; release it with trace_release() whatever this
 * returns): one thread, each file existing before with the size its
 * I/O reaches, a relative file name made absolute under "/fio/". 0, or
 * -EINVAL / -EFBIG with err naming the line.
 */
int iolog_import(const char *data, size_t len, struct trace *t,
		 struct strbuf *err);

#endif
