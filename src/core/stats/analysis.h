/*
 * Analysis of an experiment's metrics: per-arm summaries and each arm's
 * verdict against the baseline, with the statistics of stats.c wired
 * together the one way docs/ARCHITECTURE.md describes ("Statistics").
 * compare uses it on its own runs; diff uses it on the same workload
 * from two stored experiments (unpaired, since their blocks are
 * unrelated).
 *
 * The result fills the arms' summaries and the "verdicts" of the
 * experiment document (experiment/analyze_doc.h), so every consumer
 * reads the same numbers.
 */
#ifndef IOTRIAL_ANALYSIS_H
#define IOTRIAL_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
/* effects.h's JSON, until stats/effects.c fills documents */
#include "adjust.h"
#include "stats.h"
#include "../../util/strbuf.h"

/* One arm's metric values; block[i] is the block of values[i]. */
struct analysis_arm {
	const char *label;	/* "scheduler=none", shown in tables */
	const double *values;	/* n of them, > 0 */
	const unsigned *blocks; /* n of them, or NULL when not blocked */
	size_t n;
	const double *cov; /* the covariates of each run, cov[i * nr_cov +
			      c] (analysis_opts.nr_cov), NaN where not
			      measured; or NULL */
};

struct analysis_opts {
	unsigned baseline;	      /* index of the baseline arm */
	bool higher_is_better;	      /* iops, mbps */
	bool paired;		      /* blocks pair runs across arms */
	double alpha;		      /* significance level */
	double margin;		      /* equivalence: 0.02 for +-2% */
	double conf;		      /* confidence of the intervals */
	unsigned nr_cov;	      /* covariates per run (arms' cov), for the
					 adjusted comparison (stats/adjust.h) of
					 paired arms; 0: none */
	const char *const *cov_names; /* nr_cov names, for the JSON */
};

/*
 * The defaults every analysis starts from: baseline arm 0, higher is
 * better, paired by block (experiment_analyze_doc() falls back to
 * unpaired when a run has no block), alpha 0.05, equivalence margin 2%,
 * 95% intervals. The one place these numbers are written.
 */
void analysis_opts_init(struct analysis_opts *o);

/* Per-arm numbers. */
struct analysis_summary {
	struct stats_summary s;
	size_t nr_outliers; /* |modified z| > 3.5 */
	struct stats_drift drift;
	bool drift_checked; /* enough runs to check (>= 6) */
};

/* One arm against the baseline (empty for the baseline itself). */
struct analysis_verdict {
	unsigned arm;
	bool valid; /* false for the baseline */
	struct stats_comparison cmp;
	double p_adjusted; /* Holm across all compared arms */
	enum stats_verdict verdict;
	bool adj_tried;		   /* paired with covariates: adj is set */
	struct stats_adjusted adj; /* the covariate-adjusted comparison; the
				      verdict and p_adjusted rest on it
				      when adj.used */
};

struct analysis {
	unsigned nr_arms;
	struct analysis_summary *summaries; /* nr_arms */
	struct analysis_verdict *verdicts;  /* nr_arms; [baseline] invalid */
};

/*
 * Analyse arms[nr_arms]. Returns 0 or -errno (-EINVAL: baseline out of
 * range, non-positive values) with err set. Arms with fewer than 2
 * values get a summary and no comparison (verdict "no verdict").
 */
int analysis_run(struct analysis *a, const struct analysis_arm *arms,
		 unsigned nr_arms, const struct analysis_opts *o,
		 struct strbuf *err);
void analysis_release(struct analysis *a);

/*
 * The ratio and interval a verdict rests on: the adjusted one when it
 * was used, else the plain one. For the stop rule.
 */
void analysis_verdict_ci(const struct analysis_verdict *v, double *ratio,
			 double *ci_low, double *ci_high);

/* The name of the test that gave a comparison's p: "wilcoxon-signed-rank"
 * (paired) or "mann-whitney-u". */
const char *analysis_test_name(const struct stats_comparison *cmp);

#endif
