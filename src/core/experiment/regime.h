/*
 * The knobs an experiment varied whose regime no run reached: from each
 * run's "regime" entries (result_json.c), an experiment's "regimes"
 * member, so that every renderer can say beside the verdicts why a knob
 * could not matter.
 */
#ifndef IOTRIAL_REGIME_H
#define IOTRIAL_REGIME_H

#include <json-c/json.h>

/*
 * Set exp's "regimes": one entry per knob factor that no run reached and
 * at least one run was judged on ({"factor", "state": "not_reached",
 * "canonical", "object", "runs", "not_reached", "values": [{"value",
 * "runs", "why"}]}, the why of each value's first run not reached), and
 * one per knob factor none of whose runs could be judged but whose
 * family said why ({"factor", "state": "unknown", "why", ...,
 * "not_reached": 0, "values": []}: a raw knob); an empty array when
 * there is none. Reads the runs as untrusted: anything malformed is
 * skipped.
 */
void regime_analyze_json(struct json_object *exp);

#endif
