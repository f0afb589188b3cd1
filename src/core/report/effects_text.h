/*
 * The effects section of an experiment with two or more factors
 * ("effects" and "interactions"), before the table of every arm against
 * the baseline arm; its headings, for the footnotes and the plot.
 */
#ifndef IOTRIAL_EFFECTS_TEXT_H
#define IOTRIAL_EFFECTS_TEXT_H

#include "../model/experiment_doc.h"
#include "../../util/strbuf.h"

/* "jobs=2 vs jobs=1 at scheduler=cfq": what effect e compares. */
void report_effect_heading(const struct exp_effect *e, struct strbuf *out);

/* "scheduler=deadline's effect at jobs=2 vs at jobs=1": what
 * interaction x compares. */
void report_interaction_heading(const struct exp_interaction *x,
				struct strbuf *out);

#endif
