/*
 * fio job files on the command line; see job.h. Each group of job
 * sections is one trial of one run, made and stored like `iotrial
 * run`'s, so `log`, `show` and `diff` know them; the groups run one
 * after another in file order, which is fio's order of its stonewalled
 * groups, and the sections of one group at the same time (a fiogroup).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <json-c/json.h>
#include "cli.h"
#include "job.h"
#include "job_target.h"
#include "job_share.h"
#include "knobargs.h"
#include "../core/experiment/trial.h"
#include "../core/report/run_text.h"
#include "../core/workload/fiogroup.h"
#include "../core/workload/fiojob.h"
#include "../util/error.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

/*
 * Print each line of warn: "note: ..." lines as notes when notes is set
 * (not when the job file failed: then they are noise; not with
 * --quiet), others as warnings.
 */
static void print_warnings(const char *warn, int notes)
{
	const char *p = warn;

	while (*p) {
		size_t n = strcspn(p, "\n");
		char *line = xstrndup(p, n);

		if (strncmp(line, "note: ", 6))
			warning("%s", line);
		else if (notes)
			note("%s", line + 6);
		free(line);
		p += n;
		if (*p)
			p++;
	}
}

int job_cli_load(const char *file, const char *section, int lenient,
		 const char *const *params, unsigned nr_params,
		 uint64_t time_ns, int need_one, struct fiojob_plan *plan)
{
	const struct fiojob_overrides ov = {section, params, nr_params, time_ns,
					    lenient & JOB_LENIENT};
	struct strbuf err = STRBUF_INIT, warn = STRBUF_INIT;
	struct fiojob j;
	int ret;

	memset(plan, 0, sizeof(*plan));
	fiojob_init(&j);
	j.include_any = !!(lenient & JOB_INCLUDE_ANY);
	ret = fiojob_parse_file(&j, file, &err);
	if (!ret)
		ret = fiojob_map(&j, &ov, plan, &warn, &err);
	if (!ret && need_one && plan->nr != 1)
		ret = err_set(&err, -EINVAL,
			      "'%s' has %u job sections%s; compare varies one: "
			      "pick it with --section NAME",
			      file, plan->nr,
			      plan->runs[1].group == plan->runs[0].group
				  ? " (some run at the same time, which "
				    "compare does not do)"
				  : "");
	print_warnings(warn.buf, !ret && !(lenient & JOB_QUIET));
	if (ret)
		error("%s", err.buf);
	fiojob_release(&j);
	strbuf_release(&err);
	strbuf_release(&warn);
	return ret ? EXIT_USAGE : EXIT_OK;
}

/* What the sections said, for printing at the end. */
struct job_view {
	struct strbuf summary;
	int interrupted;
	unsigned flags;
	struct fiogroup *group;	   /* sections at once, or NULL */
	struct json_object *objs;  /* then each section's run object */
	struct job_shares *shares; /* the files sections share */
	unsigned base;		   /* the group's first run in the plan */
};

static void job_run_done(void *ctx, const struct run_meta *meta,
			 const struct run_result *r)
{
	struct job_view *v = ctx;
	unsigned i;

	struct json_object *o = result_to_json(meta, r);

	report_run_text(o, v->flags, &v->summary);
	json_object_put(o);
	v->interrupted = r->interrupted;
	for (i = 0; v->group && i < v->group->nr; i++) {
		struct fiogroup_section *s = &v->group->secs[i];
		struct run_meta m = *meta;

		m.w = &s->w;
		m.metric = NULL;
		strbuf_addf(&v->summary, "[%s]:\n", s->name);
		o = result_to_json(&m, &s->r);
		report_run_text(o, v->flags, &v->summary);
		json_object_array_add(v->objs, o);
	}
}

/* Wait ns before a section (startdelay), or until a stop signal. */
static void start_delay(uint64_t ns, volatile int *stop)
{
	const struct timespec step = {0, 50000000}; /* 50 ms */
	uint64_t waited = 0;

	while (waited < ns && !*stop) {
		nanosleep(&step, NULL);
		waited += 50000000ull;
	}
}

/* The exit code for a failed trial_run(). */
static int failed_code(const struct trial *tr, int ret)
{
	if (tr->failed == TRIAL_FAILED_KNOBS)
		return knob_cli_exit_code(ret);
	if (tr->failed == TRIAL_FAILED_PREPARE)
		return ret == -EINVAL || ret == -ENOSPC ? EXIT_USAGE
							: EXIT_RUNTIME;
	return EXIT_RUNTIME;
}

/*
 * The sections of one group (nr of them) as one workload of tr: each a
 * section of g, run at the same time. Returns an exit code.
 */
static int group_setup(const struct job_cli_args *a, struct trial *tr,
		       struct fiojob_run *runs, unsigned nr, struct fiogroup *g,
		       struct job_view *v)
{
	struct strbuf err = STRBUF_INIT;
	unsigned k;
	int ret = EXIT_OK, failed;

	tr->c.ro.time_ns = tr->c.ro.ios = tr->c.ro.ramp_ns = 0;
	for (k = 0; k < nr && ret == EXIT_OK; k++) {
		struct fiojob_run *r = &runs[k];
		struct run_opts ro = {
		    .time_ns = r->time_ns,
		    .ramp_ns = a->r->ramp_given ? a->r->ramp_ns : r->ramp_ns,
		    .share_who = r->section};

		ro.share = job_shares_get(v->shares, v->base + k, &tr->t,
					  &failed, &err);
		if (failed) {
			error("[%s]: %s", r->section, err.buf);
			ret = EXIT_USAGE;
		} else if (r->startdelay_ns) {
			error("%s:%u: [%s] has startdelay=, but it runs at "
			      "the same time as other sections; iotrial "
			      "starts the sections of a group together: "
			      "remove it, or pick one with --section",
			      r->file, r->line, r->section);
			ret = EXIT_USAGE;
		} else if (fiojob_run_resolve(r, tr->t.kind == TARGET_BLOCKDEV,
					      tr->t.capacity_bytes, &ro.ios,
					      &err)) {
			error("%s", err.buf);
			ret = EXIT_USAGE;
		} else if (fiogroup_add(g, r->section,
					workload_find(r->workload),
					(const char *const *)r->params,
					r->nr_params, &ro, &err)) {
			error("%s:%u: [%s]: %s", r->file, r->line, r->section,
			      err.buf);
			ret = EXIT_USAGE;
		}
		if (ro.time_ns > tr->c.ro.time_ns)
			tr->c.ro.time_ns = ro.time_ns;
		if (ro.ramp_ns > tr->c.ro.ramp_ns)
			tr->c.ro.ramp_ns = ro.ramp_ns;
		tr->c.ro.ios += ro.ios;
	}
	tr->c.ops = &g->ops;
	tr->c.params = NULL;
	tr->c.nr_params = 0;
	strbuf_release(&err);
	return ret;
}

/* The entry of section r, its run object run, in jobs. */
static void add_entry(struct json_object *jobs, const struct fiojob_run *r,
		      const char *id, struct json_object *run,
		      struct json_object *file)
{
	struct json_object *entry = json_object_new_object();

	json_object_object_add(entry, "section",
			       json_object_new_string(r->section));
	json_object_object_add(entry, "name", json_object_new_string(r->name));
	json_object_object_add(entry, "group",
			       json_object_new_int((int)r->group));
	json_object_object_add(entry, "reporting_group",
			       json_object_new_int((int)r->report));
	json_object_object_add(entry, "group_reporting",
			       json_object_new_boolean(r->group_reporting));
	json_object_object_add(entry, "id",
			       id[0] ? json_object_new_string(id) : NULL);
	if (file)
		json_object_object_add(entry, "file", file);
	json_object_object_add(entry, "run", json_object_get(run));
	json_object_array_add(jobs, entry);
}

/*
 * The entry of a group of sections that ran at once, in groups: its
 * sections, the device truth they shared, and with group_reporting the
 * group's run object (the sections summed).
 */
static void add_group(struct json_object *groups, struct fiojob_run *runs,
		      unsigned nr, const char *id, struct json_object *run)
{
	static const char *const truth_keys[] = {"devices", "truth"};
	struct json_object *g = json_object_new_object(), *names, *v;
	int reporting = 0;
	unsigned k;

	names = json_object_new_array();
	for (k = 0; k < nr; k++) {
		json_object_array_add(names,
				      json_object_new_string(runs[k].section));
		reporting |= runs[k].group_reporting;
	}
	json_object_object_add(g, "group",
			       json_object_new_int((int)runs[0].group));
	json_object_object_add(g, "sections", names);
	json_object_object_add(g, "group_reporting",
			       json_object_new_boolean(reporting));
	json_object_object_add(g, "id",
			       id[0] ? json_object_new_string(id) : NULL);
	for (k = 0; k < ARRAY_SIZE(truth_keys); k++)
		if (json_object_object_get_ex(run, truth_keys[k], &v))
			json_object_object_add(g, truth_keys[k],
					       json_object_get(v));
	if (reporting)
		json_object_object_add(g, "run", json_object_get(run));
	json_object_array_add(groups, g);
}

/*
 * Run the sections runs[0..nr) of one group as one trial: one section
 * alone, several at the same time (a fiogroup). On success append each
 * section's entry to jobs (and the group's to groups). Returns an exit
 * code (EXIT_OK on success).
 */
static int run_section(const struct job_cli_args *a, struct fiojob_run *runs,
		       unsigned nr, volatile int *stop, uint64_t seed,
		       struct json_object *jobs, struct json_object *groups,
		       struct job_view *view)
{
	struct trial_hooks hooks = {.ctx = view, .run_done = job_run_done};
	struct strbuf err = STRBUF_INIT, spec = STRBUF_INIT;
	struct strbuf other = STRBUF_INIT;
	struct fiojob_run *r = &runs[0];
	struct json_object *run;
	struct fiogroup g;
	struct trial tr;
	uint64_t ios = 0;
	int ret = EXIT_OK, pr, failed;
	unsigned k;

	fiogroup_init(&g);
	if (a->quiet)
		knob_cli_log_quiet(&hooks.log);
	else
		knob_cli_log(&hooks.log, NULL);
	trial_init(&tr, TRIAL_ONE_RUN, &hooks);
	tr.c.stop = stop;
	tr.c.seed = seed;
	tr.set = a->set;
	tr.nr_set = a->nr_set;
	tr.c.ops = workload_find(r->workload);
	if (job_cli_target(r, a->r->target, &spec, &err)) {
		error("%s", err.buf);
		ret = EXIT_USAGE;
		goto out;
	}
	for (k = 1; k < nr; k++) {
		if (job_cli_target(&runs[k], a->r->target, &other, &err)) {
			error("%s", err.buf);
			ret = EXIT_USAGE;
			goto out;
		}
		if (strcmp(other.buf, spec.buf)) {
			error("%s:%u: [%s] runs at the same time as [%s] but "
			      "in '%s', not '%s'; iotrial runs a group in one "
			      "target: give -t, or pick one with --section",
			      runs[k].file, runs[k].line, runs[k].section,
			      r->section, other.buf, spec.buf);
			ret = EXIT_USAGE;
			goto out;
		}
	}
	pr = trial_open(&tr, spec.buf, a->r->target_flags, &err);
	if (pr) {
		error("%s", err.buf);
		ret = pr == -EINTR ? EXIT_RUNTIME : EXIT_USAGE;
		goto out;
	}
	if (nr > 1) {
		ret = group_setup(a, &tr, runs, nr, &g, view);
		if (ret)
			goto out;
		view->group = &g;
		view->objs = json_object_new_array();
	} else if (fiojob_run_resolve(r, tr.t.kind == TARGET_BLOCKDEV,
				      tr.t.capacity_bytes, &ios, &err)) {
		error("%s", err.buf);
		ret = EXIT_USAGE;
		goto out;
	} else {
		tr.c.params = fiojob_run_settings(r);
		tr.c.nr_params = r->nr_params;
		tr.c.ro.ios = ios;
		tr.c.ro.time_ns = r->time_ns;
		tr.c.ro.ramp_ns = a->r->ramp_given ? a->r->ramp_ns : r->ramp_ns;
		tr.c.ro.share_who = r->section;
		tr.c.ro.share = job_shares_get(view->shares, view->base, &tr.t,
					       &failed, &err);
		if (failed) {
			error("[%s]: %s", r->section, err.buf);
			ret = EXIT_USAGE;
			goto out;
		}
	}
	if ((pr = trial_read_params(&tr, &err)) ||
	    (pr = trial_plan(&tr, &err))) {
		error("%s:%u: [%s]: %s", r->file, r->line, r->section, err.buf);
		ret = EXIT_USAGE;
		goto out;
	}
	if (trial_has_undo(&tr))
		signal(SIGPIPE, SIG_IGN);
	pr = trial_check(&tr, &err);
	if (pr) {
		error("%s", err.buf);
		ret = knob_cli_exit_code(pr);
		goto out;
	}
	if (nr == 1 && r->startdelay_ns)
		start_delay(r->startdelay_ns, stop);
	for (k = 0; k < nr; k++)
		strbuf_addf(&view->summary, "[%s]%s", runs[k].section,
			    k + 1 < nr ? " " : "");
	strbuf_addf(&view->summary, " group %u, %s:\n", r->group,
		    nr > 1 ? "at the same time (device truth shared)"
			   : r->workload);
	pr = trial_run(&tr, &err);
	if (pr) {
		error("%s: %s", nr > 1 ? "the group" : r->section, err.buf);
		ret = failed_code(&tr, pr);
		goto finish;
	}
	if (view->interrupted)
		ret = EXIT_RUNTIME;
	else if (!a->r->no_store && trial_store(&tr, a->r->db, &err)) {
		error("[%s] was not stored: %s", r->section, err.buf);
		ret = EXIT_RUNTIME;
	}
	if (tr.id[0])
		strbuf_addf(&view->summary,
			    "stored as %s ('iotrial show %s')\n", tr.id, tr.id);
	run = trial_run_object(&tr);
	if (nr == 1)
		add_entry(jobs, r, tr.id, run,
			  job_shares_json(view->shares, view->base));
	for (k = 0; nr > 1 && k < nr; k++)
		add_entry(jobs, &runs[k], tr.id,
			  json_object_array_get_idx(view->objs, k),
			  job_shares_json(view->shares, view->base + k));
	if (nr > 1)
		add_group(groups, runs, nr, tr.id, run);
finish:
	strbuf_reset(&err);
	if (trial_finish(&tr, &err)) {
		error("%s", err.buf);
		if (ret == EXIT_OK)
			ret = EXIT_RUNTIME;
	}
out:
	trial_release(&tr);
	fiogroup_release(&g);
	json_object_put(view->objs);
	view->objs = NULL;
	view->group = NULL;
	strbuf_release(&err);
	strbuf_release(&spec);
	strbuf_release(&other);
	return ret;
}

int job_cli_run(const struct job_cli_args *a)
{
	struct job_view view = {STRBUF_INIT, 0, 0, NULL, NULL, NULL, 0};
	struct job_shares shares;
	struct strbuf err = STRBUF_INIT;
	struct json_object *obj = NULL, *jobs, *groups;
	struct fiojob_plan plan;
	const struct cli_run_opts *ro = a->r;
	const char *json_file = ro->json_file;
	volatile int *stop;
	unsigned i, n;
	int ret;

	ret = job_cli_load(
	    ro->job, ro->section,
	    cli_run_opts_job_flags(ro) | (a->quiet ? JOB_QUIET : 0), a->params,
	    a->nr_params, ro->time_given ? ro->time_ns : 0, 0, &plan);
	if (ret)
		goto out;
	if (json_file && cli_check_output(json_file)) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (!ro->no_store && (ret = cli_check_store(ro->db, "iotrial run")))
		goto out;
	if (a->per_job)
		view.flags |= REPORT_RUN_PER_JOB;
	obj = json_object_new_object();
	json_object_object_add(obj, "schema",
			       json_object_new_string(IOTRIAL_SCHEMA));
	json_object_object_add(obj, "type", json_object_new_string("job_file"));
	json_object_object_add(obj, "file", json_object_new_string(ro->job));
	jobs = json_object_new_array();
	json_object_object_add(obj, "jobs", jobs);
	groups = json_object_new_array();
	stop = cli_catch_stop_signals();
	job_shares_init(&shares, &plan, ro->target);
	view.shares = &shares;
	for (i = 0; i < plan.nr && !ret && !*stop; i += n) {
		for (n = 1; i + n < plan.nr &&
			    plan.runs[i + n].group == plan.runs[i].group;
		     n++)
			;
		view.base = i;
		ret = run_section(a, &plan.runs[i], n, stop, ro->seed, jobs,
				  groups, &view);
	}
	/* the shared files go with the run, as every work file does */
	job_shares_release(&shares);
	view.shares = NULL;
	if (json_object_array_length(groups))
		json_object_object_add(obj, "groups", groups);
	else
		json_object_put(groups);
	if (!ret && *stop)
		ret = EXIT_RUNTIME;
	if (json_file && json_object_array_length(jobs) &&
	    cli_write_json(json_file, obj))
		ret = EXIT_RUNTIME;
	if (!json_file || strcmp(json_file, "-"))
		fputs(view.summary.buf, stdout);
out:
	json_object_put(obj);
	fiojob_plan_release(&plan);
	strbuf_release(&view.summary);
	strbuf_release(&err);
	return ret;
}

int job_cli_compare_setup(struct trial *tr, const char *file,
			  const char *section, int lenient,
			  const char *const *params, unsigned nr_params,
			  int time_given, int ramp_given,
			  struct fiojob_plan *plan)
{
	struct strbuf err = STRBUF_INIT, spec = STRBUF_INIT;
	struct fiojob_run *r;
	uint64_t ios = 0;
	int ret;

	ret = job_cli_load(file, section, lenient, params, nr_params,
			   time_given ? tr->c.ro.time_ns : 0, 1, plan);
	if (ret)
		return ret;
	r = &plan->runs[0];
	ret = job_cli_target(r, tr->t.path, &spec, &err);
	strbuf_release(&spec);
	if (ret) {
		error("%s", err.buf);
		strbuf_release(&err);
		return EXIT_USAGE;
	}
	if (fiojob_run_resolve(r, tr->t.kind == TARGET_BLOCKDEV,
			       tr->t.capacity_bytes, &ios, &err)) {
		error("%s", err.buf);
		strbuf_release(&err);
		return EXIT_USAGE;
	}
	strbuf_release(&err);
	tr->c.ops = workload_find(r->workload);
	tr->c.params = fiojob_run_settings(r);
	tr->c.nr_params = r->nr_params;
	if (!time_given && !tr->c.ro.ios) {
		tr->c.ro.time_ns = r->time_ns;
		tr->c.ro.ios = ios;
	}
	if (!ramp_given)
		tr->c.ro.ramp_ns = r->ramp_ns;
	return EXIT_OK;
}
