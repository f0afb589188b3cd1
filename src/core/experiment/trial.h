/*
 * A trial runs an experiment for real: it opens the target, tells knob
 * factors from workload parameters, checks every arm's settings and the
 * rights to change them before anything is changed, applies each arm's
 * knobs through one journaled knob session, observes every run's device
 * truth, rolls all changes back at the end, records the environment and
 * saves the result to the store. `iotrial run` is a trial of one arm
 * and one run (TRIAL_ONE_RUN), `iotrial compare` one of many
 * (TRIAL_EXPERIMENT); both commands only parse, call and render.
 *
 * Nothing here prints: notes (how a parameter was read, each knob a run
 * changes), the session's messages and warnings go to the session_log the
 * caller gives; errors come back as -errno with err set.
 *
 * The calls, in order (each returns 0 or -errno with err set):
 *
 *   trial_init()          defaults in tr->c; the caller fills tr->c
 *                         (ops, params, ro, seed, stop, ...), tr->set
 *   trial_read_params()   optional: each fixed parameter, with notes
 *   trial_open()          the target; tr->c.stop must be set by now
 *   trial_add_factor()    per "NAME=V1,V2,..." (needs the target)
 *   trial_plan()          the arms; every arm's parameters checked
 *   trial_check()         every knob value parsed, the rights checked
 *   trial_run()           knobs applied, the runs made
 *   trial_finish()        knobs restored; the environment recorded
 *   trial_store()         saved to the results store
 *   trial_release()       always; restores whatever is still changed
 */
#ifndef IOTRIAL_TRIAL_H
#define IOTRIAL_TRIAL_H

#include "trial_types.h"
#include "trial_knobs.h"
#include "trial_wrap.h"
#include "noise.h"

/*
 * Start a trial of kind: tr->c gets experiment_config_init()'s defaults
 * and, for TRIAL_ONE_RUN, one fixed run without dropping caches. hooks
 * may be NULL. Release with trial_release() whatever happens next.
 */
void trial_init(struct trial *tr, enum trial_kind kind,
		const struct trial_hooks *hooks);

/*
 * Set each fixed parameter (tr->c.params) on a workload of tr->c.ops, in
 * order, and say how each was read when that needs saying ("1MB is
 * 1,000,000 bytes"). -EINVAL, -ERANGE with err naming the parameter.
 * Cross-parameter checks come in trial_plan(), once the run length is
 * known.
 */
int trial_read_params(struct trial *tr, struct strbuf *err);

/*
 * Open the target spec (target_open(): -EINTR when tr->c.stop fired
 * during a long set-up, other codes for a target that cannot be used)
 * and find its knobs. When tr->c.ops with the fixed parameters only
 * reads (workload_reads_only()), a device that holds data is opened
 * without TARGET_ALLOW_DESTROY, read only: every run's workload is
 * checked again before it is prepared (target_refuse_writes()). When it
 * works on files (workload_needs_files()), a raw scratch:SIZE is made
 * with a file system (TARGET_FILES), and a note says so.
 */
int trial_open(struct trial *tr, const char *spec, unsigned target_flags,
	       struct strbuf *err);

/*
 * Add the factor "NAME=V1,V2,...": a parameter of the workload or a knob
 * of the target (trial_open() first). -EINVAL for a malformed spec, one
 * value, a value twice or a factor varied twice; -ENOENT (err suggests
 * the nearest name) when NAME is neither; -ENODEV for a knob the target
 * has no device or mount for.
 */
int trial_add_factor(struct trial *tr, const char *spec, struct strbuf *err);

/*
 * Build the arms and check each arm's parameters against the workload,
 * so a bad value fails now, not after an hour: experiment_plan() and
 * experiment_validate().
 */
int trial_plan(struct trial *tr, struct strbuf *err);

/*
 * Before anything is changed: parse the fixed knobs (tr->set; notes
 * about how values were read go to the log) and plan every arm's knob
 * values, once (the runs apply these plans), and check the rights to
 * change them (-EPERM when not root). Without
 * root, caches cannot be dropped between runs: that is a warning, and
 * the runs go on without.
 */
int trial_check(struct trial *tr, struct strbuf *err);

/*
 * After trial_check(), even while the trial runs (an experiment_chooser
 * adds the arms it tries): one more arm of the factors' values at
 * levels[nr_factors], its workload checked and its knob values planned
 * (a plan that fails leaves an arm that must not run: -errno, err
 * naming it, *out its index all the same). 0 or -errno.
 */
int trial_add_arm(struct trial *tr, const unsigned *levels, unsigned *out,
		  struct strbuf *err);

/*
 * 1 when the end of the trial undoes something: fixed knobs to restore
 * or a scratch target to tear down (the caller then keeps signals such
 * as SIGPIPE from ending the process before trial_finish()).
 */
int trial_has_undo(const struct trial *tr);

/*
 * Run: apply the fixed knobs (the log hears each change "for this
 * run"), then the experiment, each arm's knobs applied before its runs,
 * with device truth per run. On failure tr->failed says where; the
 * experiment may still hold the runs made before it. A stop
 * request ends an experiment early with what was measured; a single run
 * that measured nothing fails with -EINTR.
 */
int trial_run(struct trial *tr, struct strbuf *err);

/*
 * The single run's object (iotrial/1 run), after a successful
 * trial_run() of TRIAL_ONE_RUN (or one whose --verify failed); NULL
 * otherwise. It is the run inside tr->e.doc, the experiment
 * trial_store() stores, with the process's CPU in its "cpu". Owned by
 * tr.
 */
const struct run_doc *trial_run_doc(const struct trial *tr);

/*
 * Roll back every knob change, newest first, and close the session;
 * then, for an experiment, record the target's environment as it is
 * restored ("env"). Returns the first rollback error (the journal keeps
 * what could not be restored for the next iotrial).
 */
int trial_finish(struct trial *tr, struct strbuf *err);

/*
 * Save to the store at db (NULL: the default) and set tr->id: the
 * experiment object as it is (for a single run, the one-arm experiment
 * "run" that trial_run() sealed: experiment_seal_single_run()). The
 * experiment object gets its "id".
 */
int trial_store(struct trial *tr, const char *db, struct strbuf *err);

/*
 * What --precision will cost on this machine by its noise model (the
 * store at db, NULL the default: noise.h), after trial_check(): 1 with
 * m and cost filled when earlier experiments of this kind were stored,
 * 0 when none were (or the store cannot be read).
 */
int trial_plan_cost(struct trial *tr, const char *db, struct noise_model *m,
		    struct noise_cost *cost);

/*
 * compare --time auto, after trial_check(): set tr->c.ro.time_ns to the
 * run length the noise model of this comparison (the store at db) finds
 * best (noise_pick_time()), def_s when it knows fewer than two lengths;
 * out says what was chosen and why.
 */
void trial_pick_time(struct trial *tr, const char *db, double def_s,
		     struct noise_pick *out);

/*
 * A plan for the knob settings s[n] of one arm (built; release it either
 * way). trial_check() makes one per arm and keeps it; a dry run
 * (cli/dryrun.c) makes its own to show them.
 */
int trial_arm_plan(struct trial *tr, const struct arm_setting *s, unsigned n,
		   struct knob_plan *plan, struct strbuf *err);

/* Restore what is still changed, close the target, free everything. */
void trial_release(struct trial *tr);

#endif
