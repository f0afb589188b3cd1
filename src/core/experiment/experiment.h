/*
 * Experiments: arms (the cartesian product of the varied factors) x
 * repetitions, run in randomized blocks, analysed into verdicts.
 *
 * The experiment object (JSON, schema "iotrial/1") is what the store
 * keeps, what --json prints and what every report renders:
 *
 *   { "schema": "iotrial/1", "type": "experiment", "id": "3f9a1c2e",
 *     "created": "2026-11-29T22:58:00Z", "workload": "randread",
 *     "target": "/tmp", "params": {...}, "seed": "123",
 *     "metric": {"name": "iops", "higher_is_better": true,
 *                "unit": "IO/s"},
 *     "factors": [{"name": "scheduler", "kind": "knob",
 *                  "values": ["none", "mq-deadline"]}],
 *     "baseline": 0,
 *     "arms": [{"arm": 0, "label": "scheduler=none",
 *               "settings": {"scheduler": "none"}, (what is set; and
 *               "asked": {"scheduler": "cfq"} when a value is translated)
 *               "n":.., "median":.., "ci_low":.., "ci_high":.., "min":..,
 *               "max":.., "cv":.., "outliers":.., "drift_rho":..,
 *               "metrics": {"mbps":.., "p99":.., ...}}],
 *     "runs": [{"arm": 0, "block": 0, "seq": 0, "metric": 123.4,
 *               "covariates": {"steal":.., "others_runnable":..,
 *                              "others_io_mbps":..},
 *               ("place": 1, with --duet: the twin target it ran on)
 *               "run": {iotrial/1 run object}}],
 *     "verdicts": [{"arm": 1, "label":.., "baseline":.., "ratio":..,
 *                   "ci_low":.., "ci_high":.., "p":.., "p_adjusted":..,
 *                   "test":.., "verdict": "faster"}],
 *     "effects": [{"factor": "scheduler", "level": "mq-deadline",
 *                  "baseline_level": "none", "within": {"jobs": "1"},
 *                  "arm": 2, "baseline_arm": 0, "ratio":.., "ci_low":..,
 *                  "ci_high":.., "p":.., "p_adjusted":.., "test":..,
 *                  "verdict": "faster", "n": 8}],
 *     "interactions": [{"factor": "scheduler", "level": "mq-deadline",
 *                       "baseline_level": "none", "by": "jobs",
 *                       "by_level": "2", "by_baseline_level": "1",
 *                       "within": {}, "ratio_at_baseline": 1.10,
 *                       "ratio_at_level": 0.97, "ratio": 0.88,
 *                       "ci_low":.., "ci_high":.., "p":..,
 *                       "p_adjusted":.., "test":..,
 *                       "verdict": "interaction", "n": 8}],
 *     "blocks": 8, "stopped": "precision reached", "runs_mode": "auto",
 *     ("duet": 2, with --duet: the arms ran at once on this many
 *      scratch targets alike),
 *     "precision": 0.02, "equivalence": 0.02, "alpha": 0.05,
 *     "warnings": [..], "env": {..},
 *     "metrics": [{"name": "mbps", "unit": "MB/s",
 *                  "higher_is_better": true, "shown": true}, ...],
 *     "advice": {"stopped": "budget spent", "blocks": 3,
 *                "blocks_needed": 17, "more_blocks": 14, ...} }
 * (metrics.h: the other metrics; budget.h: advice, only when a limit
 * stopped the experiment.)
 *
 * "effects" and "interactions" are there only with two factors or more
 * (stats/effects.h). An effect compares the two arms that differ in
 * factor only: factor at level against factor at its baseline level
 * (the baseline arm's), the other factors at the levels "within" names;
 * paired by block like the verdicts, p Holm-adjusted over the factor's
 * effects, n the pairs of runs. An interaction asks whether factor's
 * effect at by_level of "by" differs from its effect at by's baseline
 * level ("within": the remaining factors): "ratio" is the ratio of the
 * two effects from the Wilcoxon signed-rank test on the per-block
 * differences of their log ratios, p Holm-adjusted over all
 * interactions, "verdict" one of "interaction", "no interaction" (the
 * same within the equivalence margin), "inconclusive", "no verdict".
 * Each pair of factors is asked once (the first in "factors" order is
 * "factor"); unpaired runs have no interactions. Arms are listed in the
 * order of nested loops over the factors, the last varying fastest.
 */
#ifndef IOTRIAL_EXPERIMENT_H
#define IOTRIAL_EXPERIMENT_H

#include <stdbool.h>
#include <stdint.h>
#include "budget.h"
#include "../stats/analysis.h"
#include "../observe/measure.h"
#include "../workload/workload.h"
#include "../model/experiment_doc.h"
#include "../../util/strbuf.h"

#define EXPERIMENT_MAX_ARMS 64

/* One varied factor: a knob or a workload parameter, and its values. */
struct experiment_factor {
	char *name;
	int is_knob;   /* else a parameter of the workload */
	char **values; /* nr_values of them, as typed */
	unsigned nr_values;
	char **canon;	/* knobs: per value, what is really set where it
			   differs from the value typed ("bfq" for "cfq"),
			   else NULL; the array itself may be NULL */
	char *set_name; /* knobs: the name of what is set when the factor
			   is named by an older one ("vm.dirty_ratio" for
			   "bdflush.nfract_sync"), else NULL */
};

/* One factor's value in an arm. */
struct arm_setting {
	const char *name;
	const char *value;
	const char *canon;    /* what is really set, when it differs from
				 value; NULL otherwise */
	const char *set_name; /* the knob's name when name is an older
				 one; NULL otherwise */
	int is_knob;
};

/* One arm: a value for every factor. */
struct experiment_arm {
	char *label;		      /* "scheduler=none bs=4k"; a translated
					 knob value shows what is set:
					 "scheduler=bfq (asked: cfq)",
					 "vm.dirty_ratio=90 (asked:
					 bdflush.nfract_sync=90)" */
	struct arm_setting *settings; /* nr_factors of them */
};

/* What the loop tells its caller as it goes. */
struct experiment_progress {
	unsigned run;	  /* runs done, warm-ups included */
	unsigned planned; /* runs planned so far (grows when adaptive) */
	unsigned block;	  /* current block, 0-based; warm-ups: -1u */
	const char *arm;  /* label of the run starting now */
	double elapsed_s;
	double eta_s;	    /* until the whole experiment ends (eta.h); < 0
			       when unknown */
	const char *eta_by; /* what ends it: "runs", "precision",
			       "max-runs", "budget"; NULL: unknown */
	double run_s;	    /* seconds a run takes, as measured; < 0: none */
	double halfwidth;   /* widest ratio CI half-width so far, or -1 */
};

struct knob_setting;
struct run_meta;
struct experiment;

/*
 * A search that chooses each block's arms itself (iotrial tune and
 * bisect) instead of running every arm in every block until the stop
 * rule says so. A run that fails does not end the experiment: the
 * chooser hears of it and the block goes on.
 */
struct experiment_chooser {
	void *ctx;
	/*
	 * The arms of block b, in run order, into *arms (the chooser's,
	 * valid until its next call); their number, or 0 to end the
	 * experiment with *why as its "stopped". The runs of the blocks
	 * before are in e->doc; it may add arms (experiment_add_arm())
	 * first.
	 */
	unsigned (*next_block)(void *ctx, struct experiment *e, unsigned b,
			       const unsigned **arms, const char **why);
	/* The run of arm in block b failed, why says how. */
	void (*run_failed)(void *ctx, unsigned arm, unsigned b,
			   const char *why);
};

/*
 * How the experiment touches the world beyond the workload: knobs are
 * applied through apply_knobs (journaled by the caller's knob session);
 * any hook may be NULL. trial.c fills them.
 */
struct experiment_hooks {
	void *ctx;
	/* Set the knob settings of the arm about to run (only knobs). */
	int (*apply_knobs)(void *ctx, const struct arm_setting *s, unsigned n,
			   struct strbuf *err);
	void (*progress)(void *ctx, const struct experiment_progress *p);
	/*
	 * An observer for the timed region of the run w is about to make
	 * (device truth) into *out, which may stay NULL. 0, or -errno with
	 * err set to fail the run.
	 */
	/* w has just been prepared (its files laid out) and its timed run
	 * comes next, caches not yet dropped. May be NULL. */
	void (*laid_out)(void *ctx, const struct workload *w);
	int (*run_begin)(void *ctx, const struct workload *w,
			 const struct measure_hook **out, struct strbuf *err);
	/* That run is over and r filled: complete and release the
	 * observer's part of r. */
	void (*run_end)(void *ctx, struct run_result *r);
	/* A run that counts (not a warm-up, not cut off) was recorded:
	 * what it ran and its result, valid during the call only. */
	void (*run_done)(void *ctx, const struct run_meta *meta,
			 const struct run_result *r);
	/* A warning the caller should hear now, not only at the end (it is
	 * in the object's "warnings" too). */
	void (*warn)(void *ctx, const char *msg);
	/*
	 * A duet (experiment_config.places): set the knob settings of the
	 * arm about to run on place k (only knobs).
	 */
	int (*apply_knobs_at)(void *ctx, unsigned place,
			      const struct arm_setting *s, unsigned n,
			      struct strbuf *err);
	/*
	 * A duet: run_begin and run_end of a run on place k. They are
	 * called in the child process that makes the run, which exits
	 * after it: what they change stays there.
	 */
	int (*run_begin_at)(void *ctx, unsigned place, const struct workload *w,
			    const struct measure_hook **out,
			    struct strbuf *err);
	void (*run_end_at)(void *ctx, unsigned place, struct run_result *r);
};

/* The most places of a duet: arms that run at the same time. */
#define EXPERIMENT_MAX_PLACES 4

struct experiment_config {
	const struct workload_ops *ops;
	const struct param_setting *params; /* fixed parameters, as given */
	unsigned nr_params;
	struct run_opts ro;    /* time or ios, ramp; seed is per run */
	struct target *target; /* opened by the caller */
	struct experiment_factor *factors;
	unsigned nr_factors;
	const char *baseline; /* arm label or NULL: first values */
	unsigned runs_fixed;  /* runs per arm; 0 = adaptive */
	unsigned min_blocks;  /* adaptive: at least this many */
	unsigned max_runs;    /* adaptive: at most this many per arm */
	uint64_t budget_ns;   /* adaptive: stop after this long (0) */
	double precision;     /* adaptive: widest CI half-width */
	double equivalence;   /* "same" within +-this */
	double alpha;	      /* significance level */
	unsigned warmup;      /* discarded runs before block 0 */
	unsigned max_arms;    /* refuse more arms than this */
	int drop_caches;      /* sync + drop_caches before each run */
	const struct metric_def *metric; /* judged by; NULL: the workload's
					    default (metric_default()) */
	uint64_t seed;		    /* order of arms in blocks, run seeds */
	volatile int *stop;	    /* non-zero: finish now, keep the data */
	struct workload_live *live; /* where runs publish their progress
				       (workload/live.h), or NULL */
	const struct knob_setting *knobs; /* in force for every run (run
					     --set), for the run objects */
	unsigned nr_knobs;
	/*
	 * A single run (iotrial run; one arm, runs_fixed 1): its seed is
	 * seed itself, its files are not kept, a run a signal cut short
	 * still counts (with a warning saying so), and the object is not
	 * analysed here (experiment_seal_single_run() gives it its stored
	 * shape and analyses it).
	 */
	int single_run;
	/*
	 * Explicit arms instead of the cartesian product: nr_arm_levels
	 * rows of nr_factors indices into each factor's values (row 0 the
	 * baseline). NULL: the product.
	 */
	const unsigned *arm_levels;
	unsigned nr_arm_levels;
	const struct experiment_chooser *chooser; /* NULL: every arm in
						     every block */
	/*
	 * compare --duet: nr_places targets alike (places[0] is target),
	 * one per arm; each block runs every arm at the same time, arm
	 * order[k] on places[k], the order drawn anew per block, so that
	 * what the machine does during the block it does to every arm.
	 * 0 or 1: one run after another on target.
	 */
	struct target *const *places;
	unsigned nr_places;
};

/*
 * The defaults of an experiment, the one place they are written: zero
 * for everything that has to be given (ops, target, factors, the run
 * length), adaptive runs with at least 6 blocks and at most 30 runs per
 * arm, precision 2%, equivalence and alpha as analysis_opts_init() has
 * them, at most EXPERIMENT_MAX_ARMS arms, caches dropped between runs.
 */
void experiment_config_init(struct experiment_config *c);

/* What of c the budget's plan (budget.h) depends on, into out. */
void experiment_budget_opts(const struct experiment_config *c,
			    struct budget_opts *out);

struct experiment {
	struct experiment_arm *arms;
	unsigned nr_arms;
	unsigned baseline;
	struct workload *arm_w;	    /* per arm: its parameters parsed and
				       validated once (experiment_validate()),
				       copied for each of its runs; or NULL */
	struct experiment_doc *doc; /* the experiment, owned */
	int failed_in_prepare;	    /* experiment_run's error came from the
				       workload's prepare (the layout) */
	int failed_verify;	    /* ... from a run whose --verify found
				       data not as written */
};

/*
 * Build the arms (the cartesian product of the factors' values) and find
 * the baseline. -E2BIG when there are more than max_arms arms, -ENOENT
 * when the baseline label matches no arm; err says what to do.
 */
int experiment_plan(struct experiment *e, const struct experiment_config *c,
		    struct strbuf *err);

/*
 * One more arm, of the values at levels[nr_factors] (experiment_plan()'s
 * part: settings and label). -EINVAL for a level out of range.
 */
int experiment_arms_append(struct experiment *e,
			   const struct experiment_config *c,
			   const unsigned *levels, struct strbuf *err);

/*
 * One more arm after experiment_validate(), even while it runs (a
 * chooser adds the arms it will try): its settings, its workload
 * checked, its entry in e->doc's arms when the document exists.
 * Returns the new arm's index in *out, 0, or -errno with err set.
 */
int experiment_add_arm(struct experiment *e, const struct experiment_config *c,
		       const unsigned *levels, unsigned *out,
		       struct strbuf *err);

/*
 * Check every arm's parameters against the workload before anything
 * runs, so a bad value fails in a second, not after an hour; keep each
 * arm's parsed workload (e->arm_w) for its runs.
 */
int experiment_validate(struct experiment *e, const struct experiment_config *c,
			struct strbuf *err);

/*
 * The workload of arm of e: c's parameters, then the arm's parameter
 * factors, validated; a copy of the one experiment_validate() parsed
 * when it has (with c's run options). Release w with workload_release()
 * either way. 0 or -errno with err set (naming the arm when there are
 * factors).
 */
int experiment_arm_workload(struct workload *w, const struct experiment *e,
			    unsigned arm, const struct experiment_config *c,
			    struct strbuf *err);

/*
 * Run the experiment: warm-ups, then randomized blocks until the stop
 * rule says so, analysing after each block. On success e->doc holds the
 * experiment with every run, the arms' summaries and verdicts. A stop
 * request ends it early with what was measured (stopped:
 * "interrupted"). Returns 0 or -errno with err set; e->doc may still
 * hold the runs done before a failure.
 */
int experiment_run(struct experiment *e, const struct experiment_config *c,
		   const struct experiment_hooks *h, struct strbuf *err);

void experiment_release(struct experiment *e);

/*
 * The CPU the whole process and its reaped children used so far, user
 * and system, in seconds (as time(1) counts it).
 */
double experiment_process_cpu_s(void);

/*
 * Give the object of a single run (single_run.c) the shape a stored run
 * has: arm "run", runs_mode "run", stopped "single run", the run's
 * parameters and environment at the top; add process_s (from
 * experiment_process_cpu_s(), taken when the run is over), workers_s
 * and outside_s to the run's "cpu"; make its strings printable and
 * analyse it. That object is then printed, stored and shown as it is.
 * -EINVAL when exp does not hold exactly one run, else what
 * experiment_analyze_full() returns.
 */
int experiment_seal_single_run(struct experiment_doc *exp, double process_s,
			       struct strbuf *err);

/* sync(2), then drop the page cache, dentries and inodes (root only).
 * Returns 0 or -errno. */
int experiment_drop_caches(void);

/* One run of an experiment built from runs measured before. */
struct experiment_src_run {
	double metric;		   /* the run's metric, > 0 */
	const struct run_doc *run; /* its run object (copied), or NULL */
	const char *source;	   /* where it came from, or NULL */
	int seq;		   /* its "seq"; < 0: numbered as given */
	const char *run_fio;	   /* a fio report as its run (JSON text,
				      copied), or NULL */
};

/* The runs of one arm of an experiment built from runs. */
struct experiment_src_arm {
	const char *label;
	const struct experiment_src_run *runs; /* nr of them */
	size_t nr;
};

/*
 * What experiment_build() makes an experiment of: runs measured
 * elsewhere (import), the hosts' ratios (a fleet merge), the arms of
 * two stored experiments (diff). Members given NULL are left out.
 */
struct experiment_src {
	const char *id; /* NULL: "" (the store gives one) */
	const char *workload;
	const char *target;
	const struct model_param *params; /* copied */
	size_t nr_params;
	bool has_params;    /* "params", {} when nr_params is 0 */
	const char *seed;   /* "none" when the runs' seeds vary */
	const char *metric; /* "iops", "mbps" */
	bool higher_is_better;
	const char *metric_unit; /* "IO/s", "ns"; NULL: not said */
	const char *factor_kind; /* one factor "arm" of this kind whose
				    values are the labels, and empty
				    "settings" per arm; NULL: neither */
	const struct experiment_src_arm *arms; /* nr_arms of them */
	size_t nr_arms;
	const char *stopped;	   /* why it ended: "imported" */
	const char *runs_mode;	   /* "import", "fleet" */
	bool warnings;		   /* an empty "warnings" array */
	const struct env_doc *env; /* copied */
};

/*
 * The experiment of src into out (initialised here; release it): arm 0
 * is the baseline, runs are unpaired (no "block"), "blocks" is the
 * most runs of an arm; its members in the order the engine has always
 * written such an experiment. No analysis yet
 * (experiment_analyze_full()).
 */
void experiment_build(const struct experiment_src *src,
		      struct experiment_doc *out);

/*
 * Analyse an experiment experiment_build() made, or one a file held
 * whole, with o (experiment_analyze_full()), and place what the analysis
 * made as the engine's tree has always had it in such an experiment: a
 * member new to it after those it held, the effects, interactions and
 * scaling rows moved last. 0, or the analysis' error with err set.
 */
int experiment_analyze_built(struct experiment_doc *doc,
			     const struct analysis_opts *o, struct strbuf *err);

#endif
