/*
 * Saying why a knob could not matter: the dirty thresholds beside the
 * dirty peak in a run's summary, the knobs a run never reached the
 * regime of, and, beside an experiment's verdicts, each knob factor that
 * no run reached ("regimes", experiment/regime_json.h).
 */
#ifndef IOTRIAL_REGIME_TEXT_H
#define IOTRIAL_REGIME_TEXT_H

#include <json-c/json.h>
#include "../../util/strbuf.h"

/*
 * The "dirty memory" lines of a run's device truth (its "truth" object):
 * the peak, the writeback peak, the kernel's thresholds in bytes (lowest
 * sampled) and the workload cgroup's. t may be NULL; nothing without
 * memory numbers.
 */
void report_dirty_text(struct json_object *t, struct strbuf *out);

/* A line per knob of the run object run ("regime") whose regime the run
 * never reached ("could not matter: ..."), and one per knob whose regime
 * its family says it cannot judge ("regime unknown: ...", a raw knob). */
void report_run_regimes_text(struct json_object *run, struct strbuf *out);

/* The entries of exp's "regimes" (NULL when none), for the formats. */
struct json_object *report_regimes(struct json_object *exp);

/*
 * One regime entry g as a sentence without a final period: "bdflush.nfract
 * (vm.dirty_background_ratio, on system) could not matter: none of its 24
 * runs reached what it controls; at 10 (12 runs): ...", or for an
 * entry of state "unknown" "sysctl:vm.swappiness: regime unknown in its
 * 8 runs: ...". Not escaped.
 */
void report_regime_sentence(struct json_object *g, struct strbuf *out);

/* The text lines of every entry of exp's "regimes", after a blank line;
 * nothing when there is none. */
void report_regimes_text(struct json_object *exp, struct strbuf *out);

#endif
