/*
 * The human summary of one run, as `iotrial run` prints it: what ran
 * where, throughput, latency percentiles, CPU, per-job lines, the
 * device truth section, then notes and warnings. Unlike the rest of
 * report/ it renders the live result, while it is at hand.
 */
#ifndef IOTRIAL_RUN_TEXT_H
#define IOTRIAL_RUN_TEXT_H

#include "../result/result.h"
#include "../targets/target.h"
#include "../workload/workload.h"
#include "../../util/strbuf.h"

struct truth;

/* How much report_run_text() says. */
enum report_run_flags {
	REPORT_RUN_PER_JOB = 1 << 0, /* a line per job, however many */
};

/*
 * Append the summary of run r of workload w on target t to out. Up to
 * REPORT_RUN_JOB_LINES jobs get a line each; more are summarised (the
 * least, median and most IOPS and MB/s across jobs) unless flags has
 * REPORT_RUN_PER_JOB.
 */
#define REPORT_RUN_JOB_LINES 4
void report_run_text(const struct workload *w, const struct target *t,
		     const struct run_result *r, unsigned flags,
		     struct strbuf *out);

/*
 * The device truth section of that summary: per device iostat-like
 * columns, what the workload wrote and read against what reached the
 * device, dirty memory and the burst and settled throughput; or why
 * there is no device truth. t may be NULL (nothing is added).
 */
void report_truth_text(const struct truth *t, struct strbuf *out);

#endif
