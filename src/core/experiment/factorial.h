/*
 * The factorial part of an experiment's analysis: with two or more
 * factors, each factor's effect within the levels of the others and
 * their interactions (stats/effects.h), as the "effects" and
 * "interactions" of the experiment document (model/experiment_doc.h).
 */
#ifndef IOTRIAL_FACTORIAL_H
#define IOTRIAL_FACTORIAL_H

#include <stddef.h>
#include "../model/experiment_doc.h"
#include "../stats/analysis.h"
#include "../../util/strbuf.h"

/*
 * Replace doc's effects and interactions with those of its runs:
 * arms[nr_arms] are the arms analysis_run() was given (in the order of
 * doc's arms), o the options it ran with; each factor's baseline level
 * is the baseline arm's. An arm's levels are its settings looked up in
 * the factor's values (else its place in the arms' nested-loop order).
 * With fewer than two factors, or arms that are not every combination
 * of the values, doc has neither (absent). Returns 0 or -errno with err
 * set (doc then has neither).
 */
int factorial_analyze(struct experiment_doc *doc,
		      const struct analysis_arm *arms, size_t nr_arms,
		      const struct analysis_opts *o, struct strbuf *err);

#endif
