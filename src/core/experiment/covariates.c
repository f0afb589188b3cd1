/*
 * Reading a run's covariates from its run object; covariates.h says
 * which and why these.
 */
#include <math.h>
#include "covariates.h"
#include "../../util/banned.h"

const char *const run_cov_names[RUN_NR_COV] = {"steal", "others_runnable",
					       "others_io_mbps"};

/* The number at o.key, or NaN when it is missing or not a number. */
static double num(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !v ||
	    (!json_object_is_type(v, json_type_double) &&
	     !json_object_is_type(v, json_type_int)))
		return NAN;
	return json_object_get_double(v);
}

void run_covariates(struct json_object *run, double *out)
{
	struct json_object *cpu = NULL, *truth = NULL, *smp = NULL;
	double total, secs;

	if (run) {
		json_object_object_get_ex(run, "cpu", &cpu);
		json_object_object_get_ex(run, "truth", &truth);
	}
	if (truth)
		json_object_object_get_ex(truth, "sampler", &smp);
	total = num(cpu, "system_total_s");
	out[0] = total > 0 ? num(cpu, "system_steal_s") / total : NAN;
	out[1] = num(smp, "runnable_mean") - num(smp, "runnable_ours");
	secs = num(run, "seconds");
	out[2] = secs > 0 ? (num(smp, "others_read_bytes") +
			     num(smp, "others_write_bytes")) /
				1e6 / secs
			  : NAN;
}
