/*
 * The knobs an experiment varied whose regime no run reached: from each
 * run's "regime" entries (result_json.c), an experiment's "regimes"
 * member, so that every renderer can say beside the verdicts why a knob
 * could not matter.
 */
#ifndef IOTRIAL_REGIME_H
#define IOTRIAL_REGIME_H

struct experiment_doc; /* model/experiment_doc.h */

/*
 * Set doc's regimes (has_regimes MODEL_SET, the ones it held freed):
 * one entry per knob factor that no run reached and at least one run
 * was judged on (state "not_reached", canonical, object, runs,
 * not_reached, and per value its runs not reached and the why of the
 * first of them), and one per knob factor none of whose runs could be
 * judged but whose family said why (state "unknown", why, not_reached
 * 0, no values: a raw knob); none when there is neither. Reads the
 * runs' regime entries and the arms' settings as untrusted: a member
 * they lack reads as "".
 */
void regime_analyze(struct experiment_doc *doc);

#endif
