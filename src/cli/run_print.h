/*
 * The human summary of one run, shared by run (and later compare's
 * verbose mode): throughput, latency percentiles, CPU, per-job lines,
 * warnings and notes.
 */
#ifndef IOTRIAL_RUN_PRINT_H
#define IOTRIAL_RUN_PRINT_H

#include "../core/experiment/result_json.h"
#include "../util/strbuf.h"

/* Append the summary of run r (of meta) to out. */
void run_print_summary(struct strbuf *out, const struct run_meta *meta,
		       const struct run_result *r);

#endif
