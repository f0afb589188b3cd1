/*
 * The human summary of one run, as `iotrial run` prints it and `show`
 * and `report` print a stored run: what ran where, throughput, latency
 * percentiles, CPU, per-job lines, the device truth section, then notes
 * and warnings. Rendered from the run object, like the rest of report/.
 */
#ifndef IOTRIAL_RUN_TEXT_H
#define IOTRIAL_RUN_TEXT_H

#include "../../util/strbuf.h"

struct run_doc; /* model/run_doc.h */

/* How much report_run_summary() says. */
enum report_run_flags {
	REPORT_RUN_PER_JOB = 1 << 0, /* a line per job, however many */
	REPORT_RUN_METRIC = 1 << 1,  /* and the metric the run is judged by */
};

/*
 * Append the summary of run to out. Up to REPORT_RUN_JOB_LINES jobs get
 * a line each; more are summarised (the least, median and most IOPS and
 * MB/s across jobs) unless flags has REPORT_RUN_PER_JOB. Members the run
 * lacks (an older or imported run) are left out.
 */
#define REPORT_RUN_JOB_LINES 4
void report_run_summary(const struct run_doc *run, unsigned flags,
			struct strbuf *out);

/*
 * The device truth section of that summary, from run's "truth" and
 * "devices": per device iostat-like columns, what the workload wrote
 * and read against what reached the device, dirty memory and the burst
 * and settled throughput; or why there is no device truth. Nothing when
 * run has no "truth".
 */
void report_run_truth(const struct run_doc *run, struct strbuf *out);

#endif
