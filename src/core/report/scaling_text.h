/*
 * The scaling table of a numeric sweep (the "scaling" rows of an
 * experiment object, experiment/scaling.h), printed by compare and show
 * after the table of every arm against the baseline arm.
 */
#ifndef IOTRIAL_SCALING_TEXT_H
#define IOTRIAL_SCALING_TEXT_H

#include <stdbool.h>
#include <json-c/json.h>
#include "../../util/strbuf.h"

/*
 * Append to out, when exp has "scaling" rows: for each numeric factor
 * (and each combination of the other factors' levels) a heading
 * ("scaling of iops with iodepth:", "... (atime=noatime):") and a line
 * per value in numeric order: the value, the metric's median, its 95%
 * CI, the number of runs and the ratio to the first value's median
 * ("3.12x"). Returns true when it appended anything.
 */
bool report_scaling_text(struct json_object *exp, struct strbuf *out);

#endif
