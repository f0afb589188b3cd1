/*
 * The metrics a run can be judged by: a small table of built-in ones
 * (iops, mbps, device_mbps, read/write latency quantiles, wall) plus
 * each workload's own (workload_ops.metrics). One metric is primary: it
 * drives the stop rule and the verdicts, its direction
 * (higher_is_better) flows into the analysis; the others are reported
 * beside it.
 */
#ifndef IOTRIAL_METRICS_H
#define IOTRIAL_METRICS_H

#include "../model/experiment_doc.h"
#include "../workload/workload.h"
#include "../../util/strbuf.h"

/*
 * The metric called name for workloads of ops: the workload's own
 * first, then the built-in ones; NULL when there is none.
 */
const struct metric_def *metric_find(const struct workload_ops *ops,
				     const char *name);

/* The metric runs of w are judged by when none is asked for: what the
 * workload's default_metric hook answers for w's parameters. */
const struct metric_def *metric_default(const struct workload *w);

/*
 * metric_default() of a workload of ops with params[nr] (as the command
 * line gives them; a parameter the workload refuses is left at its
 * default). params NULL: the defaults, for help.
 */
const struct metric_def *metric_default_for(const struct workload_ops *ops,
					    const struct param_setting *params,
					    unsigned nr);

/*
 * metric_find() for --metric: name NULL is the default for params[nr]
 * (metric_default_for()). -ENOENT with err suggesting the nearest name
 * and listing the valid ones.
 */
int metric_lookup(const struct workload_ops *ops, const char *name,
		  const struct param_setting *params, unsigned nr,
		  const struct metric_def **out, struct strbuf *err);

/*
 * Every metric of ops, the workload's own first: the i-th for i from 0,
 * NULL past the last.
 */
const struct metric_def *metric_at(const struct workload_ops *ops, size_t i);

/* "iops, mbps, ..." into out. */
void metric_names(const struct workload_ops *ops, struct strbuf *out);

/* m's value for run r of w; NAN when the run has none. */
double metric_value(const struct metric_def *m, const struct workload *w,
		    const struct run_result *r);

/* {"name", "higher_is_better", "unit"}: the experiment's "metric",
 * into out (initialised here). */
void metric_to_doc(const struct metric_def *m, struct exp_metric *out);

/* A run's "metrics", {"iops": .., "read_p99": .., ...}: every metric r
 * has a value for, into doc. */
void metric_values_doc(const struct workload *w, const struct run_result *r,
		       struct run_doc *doc);

/*
 * Beside the primary metric: each arm's median of every other metric
 * its runs carry (runs[].run.metrics) into arms[].metrics {name: median},
 * and exp's "metrics": [{"name", "unit", "higher_is_better", "shown"}]
 * says what they are ("shown": the ones a text report prints: iops,
 * mbps, device_mbps, p50, p99, wall and the workload's own).
 */
void metric_arm_medians_doc(struct experiment_doc *exp,
			    const struct workload_ops *ops);

#endif
