/*
 * A metric: what one number of a run means and which way is better. The
 * built-in metrics (throughput, latency quantiles, what reached the
 * device, wall time) are listed in experiment/metrics.c; a workload adds
 * its own through workload_ops.metrics and names its default through
 * workload_ops.default_metric.
 */
#ifndef IOTRIAL_METRIC_H
#define IOTRIAL_METRIC_H

#include <stdbool.h>

struct workload;
struct run_result;

struct metric_def {
	const char *name;      /* "iops", "read_p99", "ops_per_s" */
	const char *unit;      /* "IO/s", "MB/s", "ns", "s", "ops/s" */
	bool higher_is_better; /* throughput yes, latency and time no */
	const char *help;      /* one line: what it measures */
	/* The value for run r of w; NAN when the run has none (no reads
	 * for a read latency, no device truth). */
	double (*value)(const struct workload *w, const struct run_result *r);
};

#endif
