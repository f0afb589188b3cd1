/*
 * An experiment document's numbers as metrics (openmetrics.h): compare,
 * observe, and a single run.
 */
#ifndef IOTRIAL_OPENMETRICS_DOC_H
#define IOTRIAL_OPENMETRICS_DOC_H

#include "openmetrics.h"
#include "../model/experiment_doc.h"

/*
 * An experiment (compare, observe) or a single run: what it is, runs and
 * blocks done, each arm's median of the metric with its interval, each
 * verdict's ratio with its interval, p and the verdict as a set of 0/1
 * gauges; for a single run also its I/Os, bytes, latencies and the
 * iostat columns of its devices. The metric's value is converted to its
 * base unit (ns to seconds, MB/s to bytes per second) and the families
 * named after it.
 */
void om_experiment(struct om_writer *w, const struct experiment_doc *doc);

#endif
