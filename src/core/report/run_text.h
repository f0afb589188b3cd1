/*
 * The human summary of one run, as `iotrial run` prints it: what ran
 * where, throughput, latency percentiles, CPU, per-job lines, the
 * device truth section, then notes and warnings. Unlike the rest of
 * report/ it renders the live result, while it is at hand.
 */
#ifndef IOTRIAL_RUN_TEXT_H
#define IOTRIAL_RUN_TEXT_H

#include "../result/result.h"
#include "../target/target.h"
#include "../workload/workload.h"
#include "../../util/strbuf.h"

/* Append the summary of run r of workload w on target t to out. */
void report_run_text(const struct workload *w, const struct target *t,
		     const struct run_result *r, struct strbuf *out);

#endif
