/*
 * What the files of a trial share: trial_session.c (its log and its
 * session) below trial_factor.c (the factors) and trial_hooks.c (what
 * the block loop calls around each run), all below trial.c; not part of
 * the API.
 */
#ifndef IOTRIAL_TRIAL_INT_H
#define IOTRIAL_TRIAL_INT_H

#include "trial_types.h"

/* Send a formatted message to the caller's log, if there is one. */
void trial_say(const struct trial *tr, enum session_say_level level,
	       const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * A session_log's say for the checks before trial_check(): a note waits
 * in tr->held (data is the trial), anything else goes to the caller.
 */
void trial_hold_say(void *data, enum session_say_level level, const char *msg);

/* Say the held notes (trial_check() passed) and forget them. */
void trial_flush_held(struct trial *tr);

/*
 * The trial's session, opened at the first change: a scratch target's,
 * or one of our own. The mark taken then is where trial_finish() rolls
 * back to.
 */
int trial_open_session(struct trial *tr, struct strbuf *err);

/* Free the names and values of factor f (not f itself). */
void trial_free_factor(struct experiment_factor *f);

/* Apply plan in the trial's session (trial_open_session() first). */
int trial_apply(struct trial *tr, struct knob_plan *plan, struct strbuf *err);

/* The hooks through which experiment_run() calls back into the trial. */
void trial_experiment_hooks(struct trial *tr, struct experiment_hooks *h);

#endif
