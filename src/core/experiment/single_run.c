/*
 * A single run (`iotrial run`) is an experiment of one arm and one run,
 * and the object the experiment loop built for it is the one that is
 * printed, stored and shown. Nothing is copied or rebuilt: this file
 * gives that object the shape a stored run has always had (arm "run",
 * runs_mode "run", the run's parameters and environment at the top) and
 * the process's CPU, measured here, so `run --json` and `show --json`
 * print the same run.
 */
#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include "experiment.h"
#include "import.h"
#include "../../util/error.h"
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
static void add_process_cpu(struct json_object *run, double process_s)
{
	struct json_object *cpu, *jobs;
	double workers_s = 0;
	size_t i, n;

	if (!json_object_object_get_ex(run, "cpu", &cpu) ||
	    !json_object_is_type(cpu, json_type_object) ||
	    !json_object_object_get_ex(run, "jobs", &jobs) ||
	    !json_object_is_type(jobs, json_type_array))
		return;
	n = json_object_array_length(jobs);
	if (!n)
		return;
	for (i = 0; i < n; i++) {
		struct json_object *j = json_object_array_get_idx(jobs, i);
		struct json_object *v;

		if (json_object_object_get_ex(j, "user_s", &v))
			workers_s += json_object_get_double(v);
		if (json_object_object_get_ex(j, "sys_s", &v))
			workers_s += json_object_get_double(v);
	}
	json_object_object_add(cpu, "process_s",
			       json_object_new_double(process_s));
	json_object_object_add(cpu, "workers_s",
			       json_object_new_double(workers_s));
	json_object_object_add(
	    cpu, "outside_s",
	    json_object_new_double(process_s > workers_s ? process_s - workers_s
							 : 0));
}

/* A deep copy of o, or NULL when o is NULL or cannot be copied. */
static struct json_object *copy(struct json_object *o)
{
	struct json_object *c = NULL;

	if (!o || json_object_deep_copy(o, &c, NULL))
		return NULL;
	return c;
}

int experiment_seal_single_run(struct json_object *exp, double process_s,
			       struct strbuf *err)
{
	struct json_object *runs, *arms, *entry, *run, *arm, *factors, *f,
	    *vals, *stopped;
	struct analysis_opts ao;

	runs = json_object_object_get(exp, "runs");
	arms = json_object_object_get(exp, "arms");
	if (!json_object_is_type(runs, json_type_array) ||
	    json_object_array_length(runs) != 1 ||
	    !json_object_is_type(arms, json_type_array) ||
	    json_object_array_length(arms) != 1)
		return err_set(err, -EINVAL, "there is no run to store");
	entry = json_object_array_get_idx(runs, 0);
	run = json_object_object_get(entry, "run");
	arm = json_object_array_get_idx(arms, 0);
	add_process_cpu(run, process_s);
	json_object_object_add(entry, "source", json_object_new_string("run"));
	json_object_object_add(arm, "label", json_object_new_string("run"));
	/* as stored since the first version: one factor "arm", its value
	 * the one arm's label */
	factors = json_object_new_array();
	f = json_object_new_object();
	vals = json_object_new_array();
	json_object_array_add(vals, json_object_new_string("run"));
	json_object_object_add(f, "name", json_object_new_string("arm"));
	json_object_object_add(f, "kind", json_object_new_string("import"));
	json_object_object_add(f, "values", vals);
	json_object_array_add(factors, f);
	json_object_object_add(exp, "factors", factors);
	/* every parameter as the run read it, not only those given */
	json_object_object_add(exp, "params",
			       copy(json_object_object_get(run, "params")));
	if (json_object_is_type(json_object_object_get(run, "env"),
				json_type_object))
		json_object_object_add(
		    exp, "env", copy(json_object_object_get(run, "env")));
	stopped = json_object_object_get(exp, "stopped");
	if (!stopped ||
	    !strcmp(json_object_get_string(stopped), "fixed run count"))
		json_object_object_add(exp, "stopped",
				       json_object_new_string("single run"));
	json_object_object_add(exp, "runs_mode", json_object_new_string("run"));
	/* --label and the target come from the command line */
	import_make_printable(exp);
	analysis_opts_init(&ao);
	return experiment_analyze_json(exp, &ao, err);
}
