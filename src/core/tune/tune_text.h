/*
 * The answer of a tune or a bisection for people, rendered from the
 * experiment object alone (its "tune" or "bisect" member), so that the
 * command and `iotrial show` print the same thing.
 */
#ifndef IOTRIAL_TUNE_TEXT_H
#define IOTRIAL_TUNE_TEXT_H

#include <json-c/json.h>
#include "../../util/strbuf.h"

/* Append the answer of exp to out; nothing when exp is neither. */
void tune_text(struct json_object *exp, struct strbuf *out);

#endif
