/*
 * What an experiment measured, in one sentence under its table: which
 * device delivered the bytes and how many reached the disk at the bottom
 * of the target's stack, per run. A verdict about read-ahead means little
 * if the reads came from the page cache or from the holes of a sparse
 * image, and the table alone cannot show that.
 */
#ifndef IOTRIAL_DEVICES_TEXT_H
#define IOTRIAL_DEVICES_TEXT_H

#include "../../util/strbuf.h"

/*
 * Append "measured: per run (median of N runs), the workload read 1.5
 * GiB, 'loop0' delivered 1.5 GiB and 'vda' (the disk under it) 1.5 GiB;
 * the page cache was dropped before each run\n" for the runs of
 * experiment exp that carry a device truth (reads and writes each when
 * there were any; the disk only when it is not the top device; the cache
 * part only when the experiment says so), then where each knob factor
 * was set when its factor says ("; read_ahead_kb was set on 'loop1'").
 * Nothing when no run has one, or for a single run (its summary, from
 * the page's run section, holds its device truth). The devices
 * section of the page (page.h, REPORT_SEC(devices)).
 */

#endif
