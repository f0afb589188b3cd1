/*
 * What a trial says about its knobs beyond setting them (trial_knobs.c):
 * where each knob factor is set, the regime each knob in force reached.
 */
#ifndef IOTRIAL_TRIAL_KNOBS_H
#define IOTRIAL_TRIAL_KNOBS_H

#include "trial_types.h"

/* For trial.c: the regime of every knob in force for the run r (into
 * r->regimes), and "canonical", "scope" and "object" on each knob factor
 * of the experiment object. */
void trial_run_regimes(struct trial *tr, struct run_result *r);
void trial_annotate_factors(const struct trial *tr);

/* Why knob cannot act on the trial's workload (workload_ops.knob_above),
 * or NULL; after trial_plan(). */
const char *trial_knob_above(const struct trial *tr, const char *knob);
/* For trial.c: a warning of kind fidelity on r for every knob in force
 * that cannot act on the workload (a run --force'd past the refusal). */
void trial_mark_knobs_above(const struct trial *tr, struct run_result *r);

/*
 * Where the knob factors are set, for the plan: "read_ahead_kb,
 * scheduler on 'loop1'; bdflush.nfract (vm.dirty_background_ratio) for
 * the whole system". Nothing when no factor is a knob. After
 * trial_open() and trial_add_factor().
 */
void trial_knob_places(const struct trial *tr, struct strbuf *out);

/*
 * When the target is a directory and a knob of the trial (a factor, or a
 * fixed knob of tr->set once trial_check() has planned it) is one of the
 * device under it: that disk ("vda"), so the plan can say that knobs
 * will be changed there; else NULL. After trial_open().
 */
const char *trial_dir_knob_disk(const struct trial *tr);

/*
 * For trial_check(), once the fixed knobs (tr->set) and every arm's are
 * planned: a knob held for the whole trial must not be one an arm
 * changes, the same knob or the other unit of one setting
 * (vm.dirty_bytes beside vm.dirty_ratio), nor one an arm's change resets
 * (a scheduler switch resets nr_requests and iosched.*; max_sectors_kb
 * may move read-ahead). 0, or -EINVAL with err saying which.
 */
int trial_check_fixed_vs_arms(const struct trial *tr, struct strbuf *err);

#endif
