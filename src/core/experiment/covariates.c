/*
 * Reading a run's covariates from its run document; covariates.h says
 * which and why these.
 */
#include <math.h>
#include <string.h>
#include "covariates.h"
#include "../result/steal.h"
#include "../../util/banned.h"

const char *const run_cov_names[RUN_NR_COV] = {"steal", "others_runnable",
					       "others_io_mbps"};

/* A number with a presence byte: v, or NaN when absent or null. */
static double opt_num(double v, uint8_t has)
{
	return has == MODEL_SET ? v : NAN;
}

void run_covariates(const struct run_doc *run, double *out)
{
	const struct run_cpu *cpu = run ? run->cpu : NULL;
	const struct truth_sampler *smp =
	    run && run->truth ? run->truth->sampler : NULL;
	double total = cpu ? cpu->system_total_s : NAN;
	double secs = run ? run->seconds : NAN;
	double mean = NAN, ours = NAN, rd = NAN, wr = NAN;

	if (smp) {
		mean = opt_num(smp->runnable_mean, smp->has_runnable_mean);
		ours = opt_num(smp->runnable_ours, smp->has_runnable_ours);
		rd = opt_num((double)smp->others_read_bytes,
			     smp->has_others_read_bytes);
		wr = opt_num((double)smp->others_write_bytes,
			     smp->has_others_write_bytes);
	}
	out[0] = run_steal_share(cpu ? cpu->system_steal_s : NAN, total);
	out[1] = mean - ours;
	out[2] = secs > 0 ? (rd + wr) / 1e6 / secs : NAN;
}

/* run's covariate name, NaN when it has none of that name. */
static double cov_of(const struct exp_run *run, const char *name)
{
	size_t c;

	if (run->has_covariates != MODEL_SET)
		return NAN;
	for (c = 0; c < run->nr_covariates; c++)
		if (!strcmp(run->covariates[c].name, name))
			return run->covariates[c].value;
	return NAN;
}

void runs_covariates(const struct exp_run *runs, size_t nr, double *cov,
		     const char **names, unsigned *out_nr)
{
	const struct exp_run *first = NULL;
	unsigned c, n = 0;
	size_t i;

	for (i = 0; i < nr && !first; i++)
		if (runs[i].has_covariates == MODEL_SET)
			first = &runs[i];
	if (!first) {
		for (c = 0; c < RUN_NR_COV; c++)
			names[c] = run_cov_names[c];
		for (i = 0; i < nr; i++)
			run_covariates(runs[i].run, cov + i * RUN_NR_COV);
		*out_nr = RUN_NR_COV;
		return;
	}
	for (i = 0; i < first->nr_covariates && n < RUN_MAX_COV; i++)
		names[n++] = first->covariates[i].name;
	for (i = 0; i < nr; i++)
		for (c = 0; c < n; c++)
			cov[i * n + c] = cov_of(&runs[i], names[c]);
	*out_nr = n;
}
