/*
 * The "Effects of each factor" section of the HTML report: a table of
 * the effects, a forest plot of their ratios and the interactions, each
 * marked as the verdicts are when it rests on runs iotrial flagged.
 */
#ifndef IOTRIAL_EFFECTS_HTML_H
#define IOTRIAL_EFFECTS_HTML_H

#include <stdbool.h>
#include <json-c/json.h>
#include "../../util/strbuf.h"

/* Append the section (its <h2> included) when exp has effects; returns
 * whether it did. */
bool report_effects_html(struct json_object *exp, struct strbuf *out);

#endif
