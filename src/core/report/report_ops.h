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

#include <json-c/json.h>
#include "../../util/strbuf.h"

/*
 * Whether entry d of an experiment's "metrics" list is one every format
 * shows beside the metric named primary (the one that decides), in its
 * "beside the metric" table.
 */
int report_metric_beside(struct json_object *d, const char *primary);

/* That table's heading of d, unescaped: "iops (IO/s)"; a latency's
 * name alone ("p50": its values carry their unit). Appends to out. */
void report_metric_heading(struct json_object *d, struct strbuf *out);

/*
 * Median over the runs of arm index arm of latency_ns.dir.pct (ns),
 * among runs whose dir has a positive value there and no zero count;
 * NaN when none has.
 */
double report_dir_latency(struct json_object *exp, int arm, const char *dir,
			  const char *pct);

/*
 * The names of the operations exp's runs time (the keys of their
 * file_ops), each once, in the order first seen, into *out (an array
 * the caller frees; the strings stay valid while exp). Returns their
 * number; *out is NULL when it is 0.
 */
size_t report_op_names(struct json_object *exp, const char ***out);

/*
 * Median over the runs of arm index arm of file_ops.op.field (a number
 * member: "p50_us", "count", "errors"), among runs that ran op at least
 * once; NaN when none did.
 */
double report_op_median(struct json_object *exp, int arm, const char *op,
			const char *field);

/*
 * The per-operation table of a file workload under the verdicts of
 * `show`: "\nper operation, median over each arm's runs:\n" then one
 * line per arm and operation (count, mean, p50, p99, max, errors).
 * Appends nothing when no run timed an operation.
 */
void report_ops_text(struct json_object *exp, struct strbuf *out);

#endif
