/*
 * The regression policy: which verdicts of an experiment make
 * --fail-on-regression fail (compare and diff exit 3 on it), and which
 * verdicts are suspect. A clean arm counts when it is slower. A
 * suspect arm (its runs carried flags iotrial raised:
 * report/suspect.h) proves nothing either way, so it counts only under
 * --strict, and then whenever its estimate points the slower way: a
 * strict gate fails closed. The old way
 * (--behaviour=regression-counts-flagged) counts every slower arm.
 *
 * The gate reads the experiment document alone and says what it did
 * with each suspect arm; the command words that and picks the exit
 * code.
 */
#ifndef IOTRIAL_REGRESSION_H
#define IOTRIAL_REGRESSION_H

#include <stdbool.h>
#include "../model/experiment_doc.h"
#include "../../util/strbuf.h"

/* How the gate counts (regression_check()'s flags). */
#define REGRESSION_STRICT                                                      \
	(1u << 0) /* --strict: a suspect arm counts when                       \
		     its estimate is slower */
#define REGRESSION_COUNT_FLAGGED                                               \
	(1u << 1) /* the old way: a slower arm counts, flagged or not */

/* A suspect arm the gate looked at and what it made of it. */
struct regression_suspect {
	char *label;  /* the arm's label */
	char *kinds;  /* its reasons' kinds: "page_cache, short" */
	bool counted; /* true: counted (--strict, its estimate slower);
			 false: slower, but not counted */
};

/* What the gate found. */
struct regression_gate {
	bool regression;		     /* an arm counts as a regression */
	struct regression_suspect *suspects; /* the suspect arms it said
						something about, in the
						verdicts' order */
	size_t nr_suspects;
};

void regression_gate_release(struct regression_gate *g);

/*
 * Apply the gate to doc's verdicts with flags (REGRESSION_*): out
 * (initialised here; release it) says whether an arm counts and lists
 * each suspect arm that was counted or that was slower and not counted.
 */
void regression_check(const struct experiment_doc *doc, unsigned flags,
		      struct regression_gate *out);

/*
 * Is verdict v of doc suspect? Its reasons are v's "suspect" member,
 * or, for a verdict stored before verdicts had reasons, those computed
 * from doc's runs and arms (report/suspect.h). The kinds of its
 * reasons, once each, ", "-separated ("page_cache, short"), are
 * appended to kinds when it is not NULL.
 */
bool regression_verdict_suspect(const struct experiment_doc *doc,
				const struct exp_verdict *v,
				struct strbuf *kinds);

/*
 * Does v's estimate point the slower way (its ratio below 1 when higher
 * is better, above 1 when lower is), whatever its p? False without a
 * ratio.
 */
bool regression_estimate_slower(const struct experiment_doc *doc,
				const struct exp_verdict *v);

#endif
