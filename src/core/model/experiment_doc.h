/*
 * An experiment as a document: the iotrial/1 experiment object
 * (`compare --json`, `show --json`, `import --json`, `report --format
 * json`, `fleet merge`, `observe --json`; docs/schema/
 * experiment.schema.json). The runs are the record; arms' summaries,
 * verdicts, effects, interactions, scaling rows, regimes and advice
 * are derived from them by the analysis.
 *
 * One struct holds every shape; what each has:
 * - compare: the design (factors, arms, settings), runs with their run
 *   objects, the analysis, env; a knob factor's canonical, scope and
 *   object; advice when a budget stopped it.
 * - a single run (`run`): one arm "run", runs_mode "run", one run whose
 *   source is "run", the run's params and env at the top.
 * - observe (kind "observe"): command, windows, switchback, load_unit,
 *   abort when a rule fired; its runs are windows (run_doc.h).
 * - import: a factor of kind "import", runs with a source (the file)
 *   and a run object, or a fio report (run_fio); origin "imported".
 * - tune, bisect (kinds "tune", "bisect"): their answer in "tune" or
 *   "bisect" (tune_doc.h); arms only of the candidates tried.
 * - fleet merge: runs with a host and a source but no run, env of the
 *   fleet (env_doc.h), the fleet part (fleet_doc.h), origin "fleet".
 * - diff: the before/after experiment of two stored ones.
 */
#ifndef IOTRIAL_EXPERIMENT_DOC_H
#define IOTRIAL_EXPERIMENT_DOC_H

#include "model.h"
#include "env_doc.h"
#include "fleet_doc.h"
#include "live_doc.h"
#include "tune_doc.h"
#include "run_doc.h"

/* The metric an experiment is judged by ("metric"). */
struct exp_metric {
	char *name;	       /* "iops", "mbps", "p99", ... */
	bool higher_is_better; /* the direction of "faster" */
	char *unit;	       /* "IO/s", ...; NULL: not given */
	bool shown;	       /* "metrics[]": in the text report too */
	uint8_t has_shown;
	struct model_kept *keep;
};

/* What an experiment varies ("factors[]"). */
struct exp_factor {
	char *name;	 /* the knob or parameter, as asked */
	char *kind;	 /* "knob", "param", "import"; NULL: absent */
	char *canonical; /* a knob's name as set, or NULL */
	char *scope;	 /* "device", "mount", "system", or NULL */
	char *object;	 /* where it was set, or NULL */
	char **values;	 /* its levels, as given */
	size_t nr_values;
	struct model_kept *keep;
};

/* An arm's numbers over its runs, after the analysis ("arms[]"). */
struct exp_arm_summary {
	int64_t n;     /* runs */
	double median; /* of the metric; NaN: null */
	double ci_low; /* the median's interval; NaN: null */
	double ci_high;
	double ci_coverage; /* the interval's level, 0..1 */
	double min;
	double max;
	double cv;	  /* coefficient of variation */
	int64_t outliers; /* runs with modified z > 3.5 */
	struct model_kept *keep;
};

/* Drift of an arm's metric across blocks (Spearman). */
struct exp_arm_drift {
	double drift_rho; /* NaN: null */
	double drift_p;	  /* NaN: null */
	bool drifting;
	struct model_kept *keep;
};

/* One combination of factor values ("arms[]"). */
struct exp_arm {
	int64_t arm;		     /* its index */
	char *label;		     /* "bs=4k iodepth=8" */
	struct model_pair *settings; /* factor -> value as set */
	size_t nr_settings;
	uint8_t has_settings;
	struct model_pair *asked; /* factor -> value as asked (a legacy
				     knob's name) */
	size_t nr_asked;
	uint8_t has_asked;
	struct exp_arm_summary *summary; /* NULL: not analysed */
	struct exp_arm_drift *drift;	 /* NULL: not checked */
	struct model_num *metrics;	 /* every metric's median */
	size_t nr_metrics;
	uint8_t has_metrics;
	struct model_kept *keep;
};

/* One run of an arm ("runs[]"). */
struct exp_run {
	int64_t arm;
	int64_t block; /* -1 or absent: unpaired */
	uint8_t has_block;
	int64_t seq;	     /* the order it ran in */
	double metric;	     /* its metric's value */
	char *source;	     /* where it came from: a file, "run", a host's
				result file; or NULL */
	struct run_doc *run; /* the run object, or NULL */
	char *run_fio;	     /* a fio report imported as it was (JSON
				text), or NULL */
	char *host;	     /* a fleet's host, or NULL */
	int64_t place;	     /* compare --duet: the scratch target it ran on,
				from 0 */
	uint8_t has_place;
	struct model_num *covariates; /* what the machine did to the run
					 that the arm cannot have caused,
					 by name (experiment/covariates.h,
					 observe's t_s, log_load); NaN:
					 null */
	size_t nr_covariates;
	uint8_t has_covariates;
	struct model_kept *keep;
};

/* Why a verdict may not be trusted ("suspect[]"). */
struct exp_suspect {
	char *arm;    /* "arm" or "baseline" */
	char *label;  /* the arm's label */
	char *kind;   /* a warning kind: "page_cache", "short", ... */
	int64_t runs; /* runs of the arm that carried it */
	int64_t of;   /* of its runs */
	struct model_kept *keep;
};

/* A comparison's numbers (a verdict's, an effect's). */
struct exp_comparison {
	double ratio;  /* the estimate, arm/baseline; NaN: null */
	double ci_low; /* its interval; NaN: null */
	double ci_high;
	double ci_coverage; /* the interval's achieved level */
	uint8_t has_ci_coverage;
	double p;	   /* NaN: null */
	double p_adjusted; /* Holm; NaN: null */
	char *test;	   /* "wilcoxon-signed-rank", "mann-whitney-u" */
	struct model_kept *keep;
};

/* A paired comparison adjusted for the runs' covariates (stats/
 * adjust.h: CUPED through the origin, its signed-rank test inverted
 * into the interval): a verdict's "adjusted". */
struct exp_adjusted {
	double ratio;  /* arm/baseline; NaN: null */
	double ci_low; /* its interval; NaN: null */
	double ci_high;
	double ci_coverage; /* NaN: null */
	double p;	    /* the adjusted signed-rank test's; NaN: null */
	bool used;	    /* the verdict rests on it */
	char *why;	    /* "used", "few blocks", "no covariate",
			       "explains too little" */
	char **covariates;  /* the names kept in the fit */
	size_t nr_covariates;
	double r2; /* the spread they explain, 0..1; NaN: null */
	struct model_kept *keep;
};

/* An arm against the baseline ("verdicts[]"). */
struct exp_verdict {
	int64_t arm;
	char *label;
	char *baseline;		       /* the baseline's label */
	struct exp_comparison *cmp;    /* NULL: too few runs; ratio, ci_low,
					  ci_high and p are the plain
					  comparison's, p_adjusted the one
					  verdict_from names */
	struct exp_adjusted *adjusted; /* paired with covariates, or NULL */
	char *verdict_from; /* "plain" or "adjusted": what the verdict
			       rests on; NULL: not adjusted */
	char *verdict;	    /* "faster", "slower", "equivalent",
			       "inconclusive", "no verdict", ... */
	struct exp_suspect *suspect;
	size_t nr_suspect;
	uint8_t has_suspect;
	char *estimate;		   /* --strict: the verdict it refused */
	struct model_count *hosts; /* a fleet: verdict -> hosts */
	size_t nr_hosts;
	uint8_t has_hosts;
	char *agreement;       /* a fleet: "all faster", "mixed", ... */
	double host_ratio_min; /* a fleet: its hosts' ratios */
	uint8_t has_host_ratio_min;
	double host_ratio_max;
	uint8_t has_host_ratio_max;
	char *pooled_verdict; /* a fleet that disagrees: the pooled
				 one */
	struct model_kept *keep;
};

/* A factor's effect within the other factors' levels ("effects[]"). */
struct exp_effect {
	char *factor;
	char *level;
	char *baseline_level;
	struct model_pair *within; /* the other factors' levels */
	size_t nr_within;
	int64_t arm;
	int64_t baseline_arm;
	struct exp_comparison *cmp; /* NULL: too few runs */
	char *verdict;
	int64_t n;
	struct exp_suspect *suspect;
	size_t nr_suspect;
	uint8_t has_suspect;
	struct model_kept *keep;
};

/* Does factor's effect change with another's level
 * ("interactions[]")? */
struct exp_interaction {
	char *factor;
	char *level;
	char *baseline_level;
	char *by; /* the other factor */
	char *by_level;
	char *by_baseline_level;
	struct model_pair *within;
	size_t nr_within;
	double ratio_at_baseline; /* NaN: null */
	double ratio_at_level;	  /* NaN: null */
	int64_t *arms;		  /* the four arms it rests on */
	size_t nr_arms;
	uint8_t has_arms;
	struct exp_comparison *cmp;
	char *verdict;
	int64_t n;
	struct exp_suspect *suspect;
	size_t nr_suspect;
	uint8_t has_suspect;
	struct model_kept *keep;
};

/* A numeric factor's level against its first ("scaling[]"). */
struct exp_scaling_row {
	char *factor;
	char *value;
	struct model_pair *within;
	size_t nr_within;
	int64_t arm;
	int64_t baseline_arm;
	double median; /* the arm's; NaN: null */
	uint8_t has_median;
	double ci_low;
	uint8_t has_ci_low;
	double ci_high;
	uint8_t has_ci_high;
	int64_t n;
	uint8_t has_n;
	double ratio_to_first; /* NaN: null */
	struct exp_suspect *suspect;
	size_t nr_suspect;
	uint8_t has_suspect;
	struct model_kept *keep;
};

/* A value of a knob factor no run reached the regime of. */
struct exp_regime_value {
	char *value;
	int64_t runs;
	char *why; /* or NULL */
	struct model_kept *keep;
};

/* A knob factor that could not matter ("regimes[]"). */
struct exp_regime {
	char *factor;
	char *state; /* "not_reached", "unknown" */
	char *why;   /* "unknown": why iotrial cannot judge; or NULL */
	char *canonical;
	char *object;
	int64_t runs;	     /* judged */
	int64_t not_reached; /* of them */
	struct exp_regime_value *values;
	size_t nr_values;
	struct model_kept *keep;
};

/* The blocks a verdict needs, after a limit stopped it ("advice"). */
struct exp_advice {
	char *stopped;	     /* "budget spent", "max runs" */
	int64_t blocks;	     /* run */
	double precision;    /* asked, as a fraction */
	char *arm;	     /* the widest arm, or NULL */
	double log_ratio_sd; /* its spread */
	uint8_t has_log_ratio_sd;
	double halfwidth; /* its interval now */
	uint8_t has_halfwidth;
	int64_t blocks_needed;
	int64_t more_blocks;
	int64_t min_blocks;
	double block_s; /* s per block */
	uint8_t has_block_s;
	double budget_s; /* the --budget it takes, s */
	uint8_t has_budget_s;
	bool aa; /* an A/A experiment */
	struct model_kept *keep;
};

/*
 * Where an experiment came from, its "origin" (kept in a column of the
 * store too, which is what a loaded document's member says): measured
 * here, imported from a file, or merged from a fleet's hosts. What did
 * not come from here is not trusted to choose what `apply` and `export`
 * write as root. A missing origin is local (an experiment stored before
 * origins were kept); any other value reads as imported, the cautious
 * answer (report/report_doc.h: report_origin()).
 */
#define EXP_ORIGIN_LOCAL    "local"
#define EXP_ORIGIN_IMPORTED "imported"
#define EXP_ORIGIN_FLEET    "fleet"

/* The experiment object. */
struct experiment_doc {
	char *schema;  /* "iotrial/1" */
	char *type;    /* "experiment" */
	char *kind;    /* "observe", or NULL: compare's */
	char *id;      /* the store's id; "" before it is stored */
	char *created; /* UTC, ISO 8601; NULL: not given */
	char *workload;
	char *target;		    /* as given */
	struct model_param *params; /* the workload's parameters */
	size_t nr_params;
	uint8_t has_params;
	char *seed;    /* the shuffle's seed, or "none" */
	char *command; /* observe's command line, or NULL */
	struct exp_metric *metric;
	struct exp_factor *factors;
	size_t nr_factors;
	uint8_t has_factors;
	int64_t baseline;     /* the baseline arm's index */
	uint8_t has_baseline; /* an observe too short to analyse has none */
	struct exp_arm *arms;
	size_t nr_arms;
	struct exp_run *runs;
	size_t nr_runs;
	struct live_window *windows; /* observe */
	size_t nr_windows;
	uint8_t has_windows;
	char *runs_mode;  /* "fixed", "auto", "run", "import", "fleet",
			     "observe" */
	double precision; /* the stop rule's half-width, a fraction */
	uint8_t has_precision;
	double equivalence; /* the equivalence margin, a fraction */
	uint8_t has_equivalence;
	double alpha; /* the tests' level */
	uint8_t has_alpha;
	bool drop_caches;
	uint8_t has_drop_caches;
	int64_t duet; /* compare --duet: the arms ran at once on this many
			 scratch targets */
	uint8_t has_duet;
	char **warnings;
	size_t nr_warnings;
	uint8_t has_warnings;
	char *load_unit; /* observe: the load's unit, or NULL */
	int64_t blocks;	 /* complete blocks */
	double block_s;	 /* s a block took after the first */
	uint8_t has_block_s;
	char *stopped;			    /* why it stopped */
	struct live_abort *abort;	    /* observe: the rule that fired */
	struct live_switchback *switchback; /* observe's analysis */
	struct env_doc *env;
	struct exp_verdict *verdicts;
	size_t nr_verdicts;
	uint8_t has_verdicts;
	struct exp_regime *regimes;
	size_t nr_regimes;
	uint8_t has_regimes;
	struct exp_effect *effects;
	size_t nr_effects;
	uint8_t has_effects;
	struct exp_interaction *interactions;
	size_t nr_interactions;
	uint8_t has_interactions;
	struct exp_scaling_row *scaling;
	size_t nr_scaling;
	uint8_t has_scaling;
	struct exp_metric *metrics; /* the metrics with medians */
	size_t nr_metrics;
	uint8_t has_metrics;
	struct exp_advice *advice;
	struct fleet_doc *fleet;
	struct tune_doc *tune;	   /* kind "tune": its answer */
	struct bisect_doc *bisect; /* kind "bisect": its answer */
	bool strict;		   /* --strict refused suspect verdicts */
	uint8_t has_strict;
	char *origin; /* EXP_ORIGIN_*; NULL: local */
	struct model_kept *keep;
};

/* Lifecycle: init zeroes; release frees the contents and leaves doc
 * as init did; free releases and frees doc itself (NULL is fine). */
void experiment_doc_init(struct experiment_doc *doc);
void experiment_doc_release(struct experiment_doc *doc);
void experiment_doc_free(struct experiment_doc *doc);

/* Print doc's top-level members in the order of keys (nr of them),
 * the others after them in the table's: a writer whose order is not
 * the table's (observe). */
void experiment_doc_order(struct experiment_doc *doc, const char *const *keys,
			  size_t nr);

/* A deep copy of src into dst (not initialised). */
void experiment_doc_copy(struct experiment_doc *dst,
			 const struct experiment_doc *src);

/* Make every string of doc printable, member names too (util/text.h):
 * a document with text from the command line or from elsewhere. 0, or
 * -EINVAL with err set when it cannot be read back (doc unchanged). */
struct strbuf;
int experiment_doc_printable(struct experiment_doc *doc, struct strbuf *err);

/* Free what the analysis makes anew (model_exp_parts.c), what decode
 * kept of it too; NULL is fine. */
void exp_arm_summary_free(struct exp_arm_summary *s);
void exp_arm_drift_free(struct exp_arm_drift *d);
void exp_verdicts_free(struct exp_verdict *v, size_t nr);
void exp_factors_free(struct exp_factor *f, size_t nr);
void model_params_free(struct model_param *p, size_t nr);

/* Append a copy of text to doc's warnings (model_exp_parts.c); its
 * index. */
size_t experiment_doc_add_warning(struct experiment_doc *doc, const char *text);

/* Deep copies (model_exp_parts.c): nr parameters (new, nr of them);
 * an environment (NULL for NULL). */
struct model_param *model_params_dup(const struct model_param *src, size_t nr);
struct env_doc *env_doc_dup(const struct env_doc *src);

/* Two experiments' parameters (na and nb of them) compared as their
 * "params" objects, as env_doc_json_diff() does (model_json_diff.c):
 * one line per difference appended to out; returns how many. */
int model_params_json_diff(const struct model_param *a, size_t na,
			   const struct model_param *b, size_t nb,
			   const char *const *ignore, struct strbuf *out);

#endif
