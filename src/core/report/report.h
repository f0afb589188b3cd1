/*
 * Rendering stored or fresh experiment objects for people. Reports read
 * only the experiment JSON (never live structures), so `compare`, `show`
 * and `report` print the same thing from the same data.
 */
#ifndef IOTRIAL_REPORT_H
#define IOTRIAL_REPORT_H

#include <json-c/json.h>
#include "../../util/strbuf.h"

/*
 * A benchstat-like table: arm, median with its CI, CV, ratio to the
 * baseline with its CI, p (Holm-adjusted) and the verdict; then the
 * experiment's warnings (device truth, drift, outliers). Appends to out.
 * Returns 0, or -EINVAL with err set when exp is not an experiment.
 */
int report_experiment_text(struct json_object *exp, struct strbuf *out,
			   struct strbuf *err);

/* A metric value for humans: "12.3k", "1.52M", "845", "97.3". */
void report_fmt_metric(struct strbuf *out, double v);

#endif
