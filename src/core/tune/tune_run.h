/*
 * tune and bisect for real: a search (race.h, bisect.h) drives a trial
 * (experiment/trial.h) through an experiment_chooser. Each candidate
 * the search makes becomes an arm of the trial's experiment, with its
 * knob values planned once; each block the search hands out runs as
 * compare's blocks run (knobs through the journal, caches dropped,
 * device truth, everything restored at the end); failed runs put their
 * candidate out with the reason and the rest goes on. The experiment
 * object that results is stored like any compare, with "kind" "tune"
 * or "bisect" and a member of that name holding the answer.
 *
 * The calls, after the trial is opened (trial_open()) and configured:
 *   tune_drive_race() or tune_drive_bisect()   factors, arms, checks
 *   tune_drive_afford()   optional: can --budget pay for it at all
 *   trial_run()           the search runs
 *   trial_finish()        knobs restored
 *   tune_drive_annotate() the answer into the experiment
 *   tune_drive_release()
 */
#ifndef IOTRIAL_TUNE_RUN_H
#define IOTRIAL_TUNE_RUN_H

#include "race.h"
#include "bisect.h"
#include "space.h"
#include "../experiment/trial.h"
#include "../model/tune_doc.h"

/*
 * An --abort-if rule of tune: "p99>5ms", "metric<0.5x baseline". The
 * metric is "metric" (the one judged) or a member of a run's "metrics"
 * (iops, mbps, p99, read_p99, wall, ...), the limit in its unit (a
 * latency's in ns, or with us, ms, s) or a multiple of the baseline's
 * median so far. A candidate whose run breaks one leaves the race at
 * once; the current settings breaking one end it.
 */
struct tune_abort {
	char *text, *metric;
	int above, relative;
	double limit;
};

/* Parse text into r; -EINVAL with err for what cannot be read. */
int tune_abort_parse(struct tune_abort *r, const char *text,
		     struct strbuf *err);
void tune_abort_release(struct tune_abort *r);

/* One setting the two sets of a bisection differ in. */
struct tune_diff {
	char *knob;
	char *from, *to; /* canonical values */
};

struct tune_drive {
	struct trial *tr;
	int bisect; /* else a race */
	struct tune_race race;
	struct tune_bisect bis;
	struct tune_dim *dims;
	unsigned nr_dims;
	const struct tune_space *sp; /* the race's; borrowed */
	struct tune_diff *diff;	     /* the bisection's; nr_dims */
	int *arm_of;		     /* per candidate, or -1 */
	char **no_arm;		     /* per candidate: why it has none */
	unsigned nr_arm_of, alloc_arm_of, alloc_no_arm;
	char **fail; /* per arm: its failure this block */
	unsigned nr_fail;
	unsigned *block_arms;	     /* the block handed out */
	const unsigned *block_cands; /* its candidates (the search's) */
	unsigned nr_block, nr_block_arms;
	unsigned block_no; /* the experiment's number of that block */
	uint64_t budget_ns, start_ns;
	size_t runs_seen;
	struct experiment_chooser ch;
	struct strbuf scratch;
	struct tune_abort *aborts; /* --abort-if, nr_aborts of them */
	unsigned nr_aborts;
	double *base_values; /* per baseline run seen: its value of each
				--abort-if metric (nr_aborts a row) */
	size_t nr_base_runs, alloc_base_values;
	struct tune_doc *tune;		  /* the race's answer, once
					     annotated */
	struct bisect_doc *bisect_answer; /* the bisection's */
};

/*
 * Set up a race over the rows of sp (resolved) on tr: a factor per
 * row, the baseline arm (the current values), the checks (-EPERM when
 * not root), an arm per first-stage candidate (one that cannot be
 * planned is put out with the reason). o's seed and judge as given.
 */
int tune_drive_race(struct tune_drive *d, struct trial *tr,
		    const struct tune_space *sp, const struct tune_race_opts *o,
		    struct strbuf *err);

/*
 * The settings from[nr_from] and to[nr_to] ("KNOB=VALUE") differ in,
 * each read on tr's knobs (a knob one set lacks is at its current
 * value there), into *out (release with tune_diffs_release()).
 * -ENOENT/-ENODEV/-EINVAL with err for a knob or value that cannot be
 * set here; 0 with *nr_out 0 when they do not differ.
 */
int tune_diffs(struct trial *tr, const char *const *from, unsigned nr_from,
	       const char *const *to, unsigned nr_to, struct tune_diff **out,
	       unsigned *nr_out, struct strbuf *err);
void tune_diffs_release(struct tune_diff *d, unsigned nr);

/* Set up a bisection of diff[nr] (taken over) on tr. */
int tune_drive_bisect(struct tune_drive *d, struct trial *tr,
		      struct tune_diff *diff, unsigned nr,
		      const struct tune_bisect_opts *o, struct strbuf *err);

/*
 * Can budget_ns pay for the search's first blocks at runs of about
 * run_s seconds? 0, or -E2BIG with err saying what the budget affords
 * and what it would take (and what a full grid would). Keeps the budget
 * for the search, which stops before a block would overrun it.
 */
int tune_drive_afford(struct tune_drive *d, uint64_t budget_ns, double run_s,
		      struct strbuf *err);

/*
 * After trial_run(): the last block in, the answer into the experiment
 * exp ("kind" and the "tune" or "bisect" member, a copy); d->tune or
 * d->bisect_answer holds it then.
 */
void tune_drive_annotate(struct tune_drive *d, struct experiment_doc *exp);

/* Give the search the block it handed out last, when it ran whole (an
 * interrupted search's last block); tune_drive_annotate() does. */
void tune_drive_flush(struct tune_drive *d);

void tune_drive_release(struct tune_drive *d);

#endif
