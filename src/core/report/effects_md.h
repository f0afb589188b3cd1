/*
 * The "Effects of each factor" section of the Markdown report, marked as
 * the verdict table is (report/suspect.h).
 */
#ifndef IOTRIAL_EFFECTS_MD_H
#define IOTRIAL_EFFECTS_MD_H

#include <stdbool.h>
#include <json-c/json.h>
#include "../../util/strbuf.h"

/* Append the section when exp has effects: a table of them, then the
 * interactions as a list; returns whether it did. */
bool report_effects_md(struct json_object *exp, struct strbuf *out);

#endif
