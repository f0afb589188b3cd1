/*
 * The text of an experiment's effects and interactions (the "effects"
 * and "interactions" of an experiment object with two or more factors),
 * printed by compare and show before the table of every arm against the
 * baseline arm.
 */
#ifndef IOTRIAL_EFFECTS_TEXT_H
#define IOTRIAL_EFFECTS_TEXT_H

#include <stdbool.h>
#include <json-c/json.h>
#include "../../util/strbuf.h"

/*
 * Append to out, when exp has effects: for each factor and each of its
 * levels, a heading ("scheduler=mq-deadline vs scheduler=none") and the
 * effect within each combination of the other factors' levels (ratio
 * with its CI, Holm-adjusted p, verdict); then a line per interaction
 * that is significant and one per pair of factors that shows none
 * ("no evidence that scheduler's effect depends on jobs: 1.10x at
 * jobs=1, 1.08x at jobs=2 (interaction p 0.61)"). An effect or an
 * interaction resting on runs iotrial flagged is marked '*' and
 * footnoted as a verdict is (report/suspect.h). Returns true when it
 * appended anything.
 */
bool report_effects_text(struct json_object *exp, struct strbuf *out);

/* Only the interaction lines of report_effects_text(); true when exp
 * has interactions. */
bool report_interactions_text(struct json_object *exp, struct strbuf *out);

/* The footnotes of the marked effects, or interactions: one line
 * "* HEADING: why" each. Returns how many. */
size_t report_effect_notes(struct json_object *exp, struct strbuf *out);
size_t report_interaction_notes(struct json_object *exp, struct strbuf *out);

/* "jobs=2 vs jobs=1 at scheduler=cfq": what effect e compares. */
void report_effect_heading(struct json_object *e, struct strbuf *out);

/* "scheduler=deadline's effect at jobs=2 vs at jobs=1": what
 * interaction x compares. */
void report_interaction_heading(struct json_object *x, struct strbuf *out);

#endif
