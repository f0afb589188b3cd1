/*
 * The analysis of an experiment document: from its runs to each arm's
 * summary, the verdicts against the baseline and the baseline itself
 * (stats/analysis.h does the statistics; this reads the document and
 * fills it). What it gathered stays for the stages after it (the
 * factors' effects take the same arms and options).
 */
#ifndef IOTRIAL_ANALYZE_DOC_H
#define IOTRIAL_ANALYZE_DOC_H

#include <stddef.h>
#include "covariates.h"
#include "../model/experiment_doc.h"
#include "../stats/analysis.h"
#include "../../util/strbuf.h"

/*
 * What the analysis read from a document's runs: each arm's values,
 * blocks and covariates as analysis_run() takes them, and the options
 * as the document made them (the metric's direction; unpaired when a
 * run has no block; the covariates' names). Labels and names point
 * into the document: valid while it is, unchanged.
 */
struct exp_analysis {
	struct analysis_arm *in; /* nr_arms of them */
	size_t nr_arms;
	struct analysis_opts opts;
	const char *cov_names[RUN_MAX_COV];
	double *values; /* what in[] points into */
	unsigned *blocks;
	double *cov;
};

/*
 * Analyse doc's runs (its arms and metric) with the options o (alpha,
 * margin, conf, baseline): each arm's summary (and drift, where
 * checked) replaces what it had, doc's verdicts are made anew (without
 * the marks report/suspect.c sets) and its baseline set. out holds
 * what the stages after it need (release it with exp_analysis_release()
 * before doc goes, also after an error). Returns 0, or -EINVAL with err
 * set (no arm or too many, a run's arm out of range, a metric not
 * positive), or analysis_run()'s error.
 */
int experiment_analyze_doc(struct experiment_doc *doc,
			   const struct analysis_opts *o,
			   struct exp_analysis *out, struct strbuf *err);
void exp_analysis_release(struct exp_analysis *a);

/*
 * The whole analysis of doc (analyze_full.c): experiment_analyze_doc(),
 * then the regimes, the factors' effects and interactions, the scaling
 * rows and the suspect marks, each replacing what doc had. 0, or
 * -errno with err set (what was set before the failure stays).
 */
int experiment_analyze_full(struct experiment_doc *doc,
			    const struct analysis_opts *o, struct strbuf *err);

/*
 * The analysis a of arms into doc: each arm's summary and drift
 * (replacing what it had), and doc's verdicts, one per arm but o's
 * baseline, in arm order (replacing them).
 */
void analysis_summaries_doc(const struct analysis *a,
			    struct experiment_doc *doc);
void analysis_verdicts_doc(const struct analysis *a,
			   const struct analysis_arm *arms,
			   const struct analysis_opts *o,
			   struct experiment_doc *doc);

#endif
