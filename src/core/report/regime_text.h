/*
 * Saying why a knob could not matter: the dirty thresholds beside the
 * dirty peak in a run's summary, the knobs a run never reached the
 * regime of, and, beside an experiment's verdicts, each knob factor that
 * no run reached ("regimes", experiment/regime.h: the regimes
 * section of the page, page.h).
 */
#ifndef IOTRIAL_REGIME_TEXT_H
#define IOTRIAL_REGIME_TEXT_H

#include "../../util/strbuf.h"

struct truth_doc; /* model/truth_doc.h */
struct run_doc;

/*
 * The "dirty memory" lines of a run's device truth t: the peak, the
 * writeback peak, the kernel's thresholds in bytes (lowest sampled) and
 * the workload cgroup's. t may be NULL; nothing without memory numbers.
 */
void report_dirty_text(const struct truth_doc *t, struct strbuf *out);

/* A line per knob of run ("regime") whose regime the run never reached
 * ("could not matter: ..."), and one per knob whose regime its family
 * says it cannot judge ("regime unknown: ...", a raw knob). */
void report_run_regimes(const struct run_doc *run, struct strbuf *out);

#endif
