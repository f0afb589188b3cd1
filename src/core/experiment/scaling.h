/*
 * The scaling part of an experiment's analysis: for a factor whose
 * values are all numbers (clients=1,2,4,8,16, bs=4k,64k, read_ahead_kb,
 * iodepth, ...), the metric's median with its CI at each value in
 * numeric order and its ratio to the median at the smallest value, as
 * dbench users read a sweep. It sits beside the verdicts against the
 * baseline, which stay as they are.
 */
#ifndef IOTRIAL_SCALING_H
#define IOTRIAL_SCALING_H

struct experiment_doc; /* model/experiment_doc.h */

/*
 * Replace doc's scaling rows with ones built from its factors and its
 * arms' summaries (median, ci_low, ci_high, n: the analysis fills them
 * before): one row
 *
 *   {"factor": "clients", "value": "4", "within": {"atime": "noatime"},
 *    "arm": 2, "baseline_arm": 0, "median":.., "ci_low":.., "ci_high":..,
 *    "n": 5, "ratio_to_first": 3.1}
 *
 * per arm and numeric factor, the rows of one factor grouped by the
 * levels of the other factors ("within", empty with one factor), each
 * group in the numeric order of the factor's values, its ratio against
 * the group's first row (whose arm is "baseline_arm"). A factor is
 * numeric when it has two values or more and each is a number, with an
 * optional size unit ("4k"); "label" never is. doc has no scaling
 * (has_scaling MODEL_ABSENT) when no factor is numeric, or the arms are
 * not one per combination of the factors' values.
 */
void scaling_analyze(struct experiment_doc *doc);

/*
 * The number value text stands for: a plain number ("16", "0.5") or a
 * size ("4k" is 4096). 0, or -EINVAL when it is neither.
 */
int scaling_number(const char *text, double *out);

#endif
