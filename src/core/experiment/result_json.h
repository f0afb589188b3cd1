/*
 * The "iotrial/1" run object (docs/iotrial.1, OUTPUT; how it may change:
 * docs/COMPATIBILITY.md): the one serialisation every consumer reads, so
 * its keys and units are fixed: mbps is 10^6 bytes/s, *_ns nanoseconds,
 * *_bytes bytes, seconds seconds. It is a struct run_doc
 * (model/run_doc.h); the codec prints it.
 *
 * The object records a trial, not only its result: the workload and its
 * parameters, the target, the knobs and the device truth sit beside the
 * numbers. So this file uses workload/, observe/ and the target, which
 * all fill or include result.h: it belongs above them, with the
 * experiment that assembles runs, never beside result.h.
 */
#ifndef IOTRIAL_RESULT_JSON_H
#define IOTRIAL_RESULT_JSON_H

#include "../model/run_doc.h"
#include "../result/result.h"
#include "../targets/target.h"
#include "../workload/workload.h"
#include "../../version.h"

#define RESULT_SCHEMA IOTRIAL_SCHEMA

/* A knob as it was during the run: name and canonical value. */
struct knob_setting {
	const char *name;
	const char *value;
};

/* What the run object says besides the result itself. */
struct run_meta {
	const struct workload *w;
	const struct target *t;
	const struct knob_setting *knobs; /* nr_knobs of them, may be NULL */
	unsigned nr_knobs;
	const struct metric_def *metric; /* the run's metric; NULL: the
					    workload's default */
};

/* The metric a run is judged by by default: what the workload's
 * default_metric hook names for w (metric_default()). */
const char *result_metric_name(const struct workload *w);
double result_metric_value(const struct workload *w,
			   const struct run_result *r);

/* Fill doc (initialised here; run_doc_release() it) with the run
 * object of r. */
void result_to_doc(const struct run_meta *meta, const struct run_result *r,
		   struct run_doc *doc);

#endif
