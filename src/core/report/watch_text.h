/*
 * What `iotrial watch` prints each interval: per device an iostat -x
 * style line with the page cache's Dirty and Writeback beside it, as a
 * table, CSV or one JSON object per line.
 */
#ifndef IOTRIAL_WATCH_TEXT_H
#define IOTRIAL_WATCH_TEXT_H

#include "../observe/diskstats.h"
#include "../observe/sampler.h"
#include "../../util/strbuf.h"

enum watch_format { WATCH_TEXT, WATCH_CSV, WATCH_JSON };

/* The column header of the table and the CSV form (JSON has none).
 * Appends to out. */
void report_watch_header(enum watch_format fmt, struct strbuf *out);

/*
 * Device name's line for one interval at when (a time already
 * formatted): d, its counters over the interval, and p's dirty and
 * writeback memory ("?" or empty when p has none). Memory is the
 * machine's, not the device's: the table shows it on the first line of
 * an interval only (p NULL for the others; CSV and JSON lines need p,
 * each line standing alone). Appends to out.
 */
void report_watch_line(enum watch_format fmt, const char *when,
		       const char *name, const struct disk_delta *d,
		       const struct sampler_point *p, struct strbuf *out);

#endif
