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
 * jobs=1, 1.08x at jobs=2 (interaction p 0.61)"). Returns true when it
 * appended anything.
 */
bool report_effects_text(struct json_object *exp, struct strbuf *out);

#endif
