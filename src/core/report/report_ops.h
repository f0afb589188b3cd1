/*
 * The latencies of an experiment's runs, per direction and per
 * operation, as the reports show them: the median over an arm's runs of
 * a run's own figure, counting only the runs that timed the thing at
 * all. A block workload times reads and writes (latency_ns.read.p50);
 * a file workload such as crashdump or smallfiles times its operations
 * (file_ops.write_dump.p50_us) and leaves the directions at zero, so a
 * zero count means "not timed", never "took 0 ns".
 */
#ifndef IOTRIAL_REPORT_OPS_H
#define IOTRIAL_REPORT_OPS_H

#include <stdbool.h>
#include "../model/experiment_doc.h"
#include "../../util/strbuf.h"

/*
 * Whether entry d of doc's "metrics" is one every format shows beside
 * the metric that decides, in its "beside the metric" table.
 */
bool report_metric_beside(const struct experiment_doc *doc,
			  const struct exp_metric *d);

/* A percentile of a direction's latency: p50, p90, p99, p99.9, max. */
enum report_pct { PCT_P50, PCT_P90, PCT_P99, PCT_P999, PCT_MAX, NR_PCTS };

/* That percentile of l, ns. */
uint64_t report_pct_of(const struct run_latency *l, enum report_pct k);

/*
 * Median over the runs of arm index arm of their write (or read)
 * latency's percentile k (ns), among runs that timed the direction;
 * NaN when none did.
 */
double report_dir_latency(const struct experiment_doc *doc, int64_t arm,
			  bool write, enum report_pct k);

/* A figure of an operation of a file workload (file_ops.NAME). */
enum report_op_field { OP_COUNT, OP_MEAN, OP_P50, OP_P99, OP_MAX, OP_ERRORS };

/* Figure f of op, in its unit (us for the times). */
double report_op_field_of(const struct run_file_op *op, enum report_op_field f);

/*
 * The names of the operations doc's runs time, each once, in the order
 * first seen, into *out (an array the caller frees; the strings stay
 * valid while doc). Returns their number; *out is NULL when it is 0.
 */
size_t report_op_names(const struct experiment_doc *doc, const char ***out);

/* The operation name of run, or NULL. */
const struct run_file_op *report_op_of(const struct run_doc *run,
				       const char *name);

/*
 * Median over the runs of arm index arm of figure f of op, among runs
 * that ran op at least once; NaN when none did.
 */
double report_op_median(const struct experiment_doc *doc, int64_t arm,
			const char *op, enum report_op_field f);

#endif
