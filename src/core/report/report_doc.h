/*
 * What the renderers read of an experiment document beyond its members:
 * a single run's run object, the environment it recorded, an arm's
 * verdict and label, its origin. The document is typed
 * (model/experiment_doc.h), but a stored one may come from an older
 * iotrial or an import and lack what the writers always write: a
 * missing string is NULL, a missing number NaN, and these helpers read
 * them as the old getters did ("" and a count of 0).
 */
#ifndef IOTRIAL_REPORT_DOC_H
#define IOTRIAL_REPORT_DOC_H

#include <math.h>
#include "../model/experiment_doc.h"
#include "../../util/strbuf.h"

/* s, or "" when NULL. */
static inline const char *rd_s(const char *s)
{
	return s ? s : "";
}

/* A count for display: v when it is in 0..1e9, else 0. */
static inline int rd_count(int64_t v)
{
	return v >= 0 && v < 1000000000 ? (int)v : 0;
}

/* A measurement of an arm's summary or of a comparison; NaN when it has
 * none (not analysed, too few runs). */
#define ARM_NUM(a, f) ((a)->summary ? (a)->summary->f : NAN)
#define CMP_NUM(x, f) ((x)->cmp ? (x)->cmp->f : NAN)

/*
 * The run object of a single run (`iotrial run`: runs_mode "run", one
 * run with its run object), or NULL for anything else: its page is the
 * run's summary, not a table of one arm.
 */
const struct run_doc *report_single_run(const struct experiment_doc *doc);

/* The environment doc recorded: its own, or its first run's (an import
 * keeps one per run); NULL when none. */
const struct env_doc *report_env(const struct experiment_doc *doc);

/* The arm of index arm, its verdict (the baseline has none), its label
 * ("" when there is no such arm). */
const struct exp_arm *report_arm(const struct experiment_doc *doc, int64_t arm);
const struct exp_verdict *report_verdict(const struct experiment_doc *doc,
					 int64_t arm);
const char *report_arm_label(const struct experiment_doc *doc, int64_t arm);

/* doc's origin: "local" (also when missing), "fleet", or "imported" for
 * anything else (model/experiment_doc.h: EXP_ORIGIN_*). */
const char *report_origin(const struct experiment_doc *doc);

/* Is the metric better higher (the default when not said)? */
bool report_higher(const struct experiment_doc *doc);

/*
 * The numbers v's verdict rests on: the ratio, interval and raw p of
 * the comparison adjusted for the runs' covariates when verdict_from
 * says "adjusted", else of the plain one (NaN when missing). A table
 * row shows these beside the verdict's own p (p_adjusted, Holm's over
 * the arms), so the row is one test throughout. Returns true when they
 * are the adjusted ones.
 */
struct report_ratio {
	double ratio, ci_low, ci_high, p;
};
bool report_verdict_ratio(const struct exp_verdict *v,
			  struct report_ratio *out);

/* The value of name among n pairs, or NULL. */
const char *report_pair(const struct model_pair *p, size_t n, const char *name);

/* "a=1 b=2": the pairs joined with sep. */
void report_pairs(struct strbuf *out, const struct model_pair *p, size_t n,
		  const char *sep);

/* A parameter's value as JSON writes it ("4096", "true", "libaio"). */
void report_value(struct strbuf *out, const struct model_value *v);

/* A p value as the tables print it: "0.042", "3.1e-05". */
void report_add_p(struct strbuf *out, double p);

/* The median of the n values of v (sorted here); NaN when n is 0. */
double report_median(double *v, size_t n);

#endif
