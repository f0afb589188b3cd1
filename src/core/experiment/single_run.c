/*
 * A single run (`iotrial run`) is an experiment of one arm and one run,
 * and the document the experiment loop built for it is the one that is
 * printed, stored and shown. Nothing is copied or rebuilt: this file
 * gives that object the shape a stored run has always had (arm "run",
 * runs_mode "run", the run's parameters and environment at the top) and
 * the process's CPU, measured here, so `run --json` and `show --json`
 * print the same run.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "experiment.h"
#include "analyze_doc.h"
#include "../model/model_json.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* User and system CPU of who (RUSAGE_SELF, RUSAGE_CHILDREN), seconds. */
static double ru_cpu_s(int who)
{
	struct rusage ru;

	if (getrusage(who, &ru))
		return 0;
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

double experiment_process_cpu_s(void)
{
	return ru_cpu_s(RUSAGE_SELF) + ru_cpu_s(RUSAGE_CHILDREN);
}

/*
 * Split process_s into the workers' share over the timed region (the
 * jobs' thread CPU) and the rest, into run's "cpu"; nothing for a run
 * without jobs.
 */
static void add_process_cpu(struct run_doc *run, double process_s)
{
	double workers_s = 0;
	size_t i;

	if (!run || !run->cpu || !run->nr_jobs)
		return;
	for (i = 0; i < run->nr_jobs; i++)
		workers_s += run->jobs[i].user_s + run->jobs[i].sys_s;
	run->cpu->process_s = process_s;
	run->cpu->has_process_s = MODEL_SET;
	run->cpu->workers_s = workers_s;
	run->cpu->has_workers_s = MODEL_SET;
	run->cpu->outside_s = process_s > workers_s ? process_s - workers_s : 0;
	run->cpu->has_outside_s = MODEL_SET;
}

/* The members of a stored run in the order it has always had: its
 * environment after "stopped" (taken from the run when it was sealed),
 * then the analysis. */
static const char *const single_order[] = {
    "schema",	   "type",   "id",	    "created",	 "workload",
    "target",	   "params", "seed",	    "metric",	 "factors",
    "baseline",	   "arms",   "runs",	    "runs_mode", "precision",
    "equivalence", "alpha",  "drop_caches", "warnings",	 "blocks",
    "stopped",	   "env",    "verdicts",    "regimes",
};

int experiment_seal_single_run(struct experiment_doc *doc, double process_s,
			       struct strbuf *err)
{
	struct analysis_opts ao;
	struct exp_factor *f;
	struct run_doc *run;
	int ret;

	if (!doc || doc->nr_runs != 1 || doc->nr_arms != 1)
		return err_set(err, -EINVAL, "there is no run to store");
	run = doc->runs[0].run;
	add_process_cpu(run, process_s);
	/* after the run's covariates, as it has always been stored */
	exp_run_order_last(&doc->runs[0], "source");
	free(doc->runs[0].source);
	doc->runs[0].source = xstrdup("run");
	free(doc->arms[0].label);
	doc->arms[0].label = xstrdup("run");
	/* as stored since the first version: one factor "arm", its value
	 * the one arm's label */
	exp_factors_free(doc->factors, doc->nr_factors);
	f = doc->factors = xcalloc(1, sizeof(*f));
	doc->nr_factors = 1;
	doc->has_factors = MODEL_SET;
	f->name = xstrdup("arm");
	f->kind = xstrdup("import");
	f->values = xcalloc(1, sizeof(*f->values));
	f->values[0] = xstrdup("run");
	f->nr_values = 1;
	/* every parameter as the run read it, not only those given */
	model_params_free(doc->params, doc->nr_params);
	doc->params = NULL;
	doc->nr_params = 0;
	doc->has_params = MODEL_ABSENT;
	if (run) {
		doc->params = model_params_dup(run->params, run->nr_params);
		doc->nr_params = run->nr_params;
		doc->has_params = MODEL_SET;
	}
	if (run && run->env && !doc->env)
		doc->env = env_doc_dup(run->env);
	if (!doc->stopped || !strcmp(doc->stopped, "fixed run count")) {
		free(doc->stopped);
		doc->stopped = xstrdup("single run");
	}
	free(doc->runs_mode);
	doc->runs_mode = xstrdup("run");
	/* --label and the target come from the command line */
	ret = experiment_doc_printable(doc, err);
	if (ret)
		return ret;
	experiment_doc_order(doc, single_order,
			     sizeof(single_order) / sizeof(single_order[0]));
	analysis_opts_init(&ao);
	return experiment_analyze_full(doc, &ao, err);
}
