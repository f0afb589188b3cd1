/*
 * Rendering stored or fresh experiment objects for people. Reports read
 * only the experiment JSON (never live structures), so `compare`, `show`
 * and `report` print the same thing from the same data.
 */
#ifndef IOTRIAL_REPORT_H
#define IOTRIAL_REPORT_H

#include <json-c/json.h>
#include "fmt.h"
#include "../../util/strbuf.h"

/*
 * A benchstat-like table: arm, median with its CI, CV, ratio to the
 * baseline with its CI, p (Holm-adjusted) and the verdict; then the
 * experiment's warnings (device truth, drift, outliers). A single run
 * (expjson_single_run()) is its run's summary instead, the text `run`
 * printed (run_text.h). Appends to out. Returns 0, or -EINVAL with err
 * set when exp is not an experiment.
 */
int report_experiment_text(struct json_object *exp, struct strbuf *out,
			   struct strbuf *err);

/*
 * Where and when a stored experiment was measured, the last lines of
 * `show`: "\nstored DATE, origin O, host H, kernel K, iotrial V\n" (O:
 * local, imported or fleet; each other part only
 * when recorded; the environment is exp's own or its first run's).
 */
void report_experiment_origin(struct json_object *exp, struct strbuf *out);

/*
 * The verdict summary of an experiment, one line as `log` lists it:
 * "2 arms: scheduler=mq-deadline faster 1.08x", or for one arm "5 runs,
 * median 12.3k iops". Appends to out.
 */
void report_verdict_summary(struct json_object *exp, struct strbuf *out);

/* The labels of exp's arms, ", "-separated, appended to out. */
void report_arm_labels(struct json_object *exp, struct strbuf *out);

#endif
