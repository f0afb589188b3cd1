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
	out[0] = total >= RUN_COV_STEAL_MIN_S
		     ? num(cpu, "system_steal_s") / total
		     : NAN;
	out[1] = num(smp, "runnable_mean") - num(smp, "runnable_ours");
	secs = num(run, "seconds");
	out[2] = secs > 0 ? (num(smp, "others_read_bytes") +
			     num(smp, "others_write_bytes")) /
				1e6 / secs
			  : NAN;
}

struct json_object *run_covariates_json(const char *const *names,
					const double *values, unsigned nr)
{
	struct json_object *o = json_object_new_object();
	unsigned c;

	for (c = 0; c < nr; c++)
		json_object_object_add(o, names[c],
				       isfinite(values[c])
					   ? json_object_new_double(values[c])
					   : NULL);
	return o;
}

void runs_covariates(struct json_object *runs, double *cov, const char **names,
		     unsigned *out_nr)
{
	size_t i, n = runs ? json_object_array_length(runs) : 0;
	struct json_object *first = NULL;
	unsigned c, nr = 0;

	for (i = 0; i < n && !first; i++) {
		struct json_object *r = json_object_array_get_idx(runs, i);
		struct json_object *cv;

		if (json_object_object_get_ex(r, "covariates", &cv) &&
		    json_object_is_type(cv, json_type_object))
			first = cv;
	}
	if (!first) {
		for (c = 0; c < RUN_NR_COV; c++)
			names[c] = run_cov_names[c];
		for (i = 0; i < n; i++)
			run_covariates(
			    json_object_object_get(
				json_object_array_get_idx(runs, i), "run"),
			    cov + i * RUN_NR_COV);
		*out_nr = RUN_NR_COV;
		return;
	}
	json_object_object_foreach(first, key, val)
	{
		(void)val;
		if (nr < RUN_MAX_COV)
			names[nr++] = key;
	}
	for (i = 0; i < n; i++) {
		struct json_object *cv = json_object_object_get(
		    json_object_array_get_idx(runs, i), "covariates");

		for (c = 0; c < nr; c++)
			cov[i * nr + c] = num(cv, names[c]);
	}
	*out_nr = nr;
}
