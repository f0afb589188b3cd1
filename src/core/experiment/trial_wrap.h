/*
 * The trial's warnings about reads that wrap their file (trial_wrap.c),
 * worked out from wrap.h's measures; trial.c says what they return.
 */
#ifndef IOTRIAL_TRIAL_WRAP_H
#define IOTRIAL_TRIAL_WRAP_H

#include "trial_types.h"

/*
 * Ask for experiment_wrap_check() (wrap.h) on the trial's arms once the
 * first run has laid out its files, before that run's timed part: each
 * warning is said (SESSION_SAY_WARN) then, and when the speed could not
 * be measured and say_fallback is set, a note says why (a compare's
 * first runs tell instead). When it was measured, the runs do not warn
 * again.
 */
void trial_wrap_check(struct trial *tr, int say_fallback);

/*
 * For trial.c's laid_out hook: the first time, with trial_wrap_check()
 * asked, experiment_wrap_check() on w's file. Its warnings (one a line)
 * go to warn, and its note to note only when trial_wrap_check() asked
 * for it. Nothing is appended otherwise.
 */
void trial_wrap_laid_out(struct trial *tr, const struct workload *w,
			 struct strbuf *warn, struct strbuf *note);

/*
 * For trial.c's run_done hook: 1 with the warning in warn when run r of
 * an experiment read past the end of its file and that has not been
 * said yet for its file (at most TRIAL_WRAP_SAID are remembered); 0
 * otherwise.
 */
int trial_wrap_after_run(struct trial *tr, const struct run_meta *meta,
			 const struct run_result *r, struct strbuf *warn);

#endif
