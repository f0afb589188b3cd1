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
#include "cli.h"
#include "job.h"
#include "job_target.h"
#include "job_share.h"
#include "knobargs.h"
#include "progress.h"
#include "../core/experiment/trial.h"
#include "../core/model/model_json.h"
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
	struct run_doc *docs;	   /* then each section's run object */
	unsigned nr_docs;	   /* of group->nr */
	struct job_shares *shares; /* the files sections share */
	unsigned base;		   /* the group's first run in the plan */
};

/* Say run in words in v's summary. */
static void say_run(struct job_view *v, const struct run_doc *run)
{
	report_run_summary(run, v->flags, &v->summary);
}

static void job_run_done(void *ctx, const struct run_meta *meta,
			 const struct run_result *r)
{
	struct job_view *v = ctx;
	struct run_doc doc;
	unsigned i;

	result_to_doc(meta, r, &doc);
	say_run(v, &doc);
	run_doc_release(&doc);
	v->interrupted = r->interrupted;
	if (!v->group || v->nr_docs)
		return;
	v->docs = xcalloc(v->group->nr ?: 1, sizeof(*v->docs));
	for (i = 0; i < v->group->nr; i++) {
		struct fiogroup_section *s = &v->group->secs[i];
		struct run_meta m = *meta;

		m.w = &s->w;
		m.metric = NULL;
		strbuf_addf(&v->summary, "[%s]:\n", s->name);
		result_to_doc(&m, &s->r, &v->docs[v->nr_docs++]);
		say_run(v, &v->docs[i]);
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

/* The entry of section r in doc's jobs: its run object run and its
 * shared file, both taken (NULL: null, none). */
static void add_entry(struct job_doc *doc, const struct fiojob_run *r,
		      const char *id, struct run_doc *run,
		      struct job_file_share *file)
{
	struct job_entry *e;

	doc->jobs = xrealloc(doc->jobs, (doc->nr_jobs + 1) * sizeof(*e));
	e = &doc->jobs[doc->nr_jobs++];
	memset(e, 0, sizeof(*e));
	e->section = xstrdup(r->section);
	e->name = xstrdup(r->name);
	e->group = (int)r->group;
	e->reporting_group = (int)r->report;
	e->group_reporting = r->group_reporting;
	e->id = id[0] ? xstrdup(id) : NULL;
	e->file = file;
	e->run = run;
}

/*
 * The entry of a group of sections that ran at once, in doc's groups:
 * its sections, the device truth they shared (taken from run), and with
 * group_reporting the group's run object (the sections summed).
 */
static void add_group(struct job_doc *doc, struct fiojob_run *runs, unsigned nr,
		      const char *id, struct run_doc *run)
{
	struct job_group *g;
	unsigned k;

	doc->groups = xrealloc(doc->groups, (doc->nr_groups + 1) * sizeof(*g));
	g = &doc->groups[doc->nr_groups++];
	memset(g, 0, sizeof(*g));
	doc->has_groups = MODEL_SET;
	g->sections = xcalloc(nr, sizeof(*g->sections));
	for (k = 0; k < nr; k++) {
		g->sections[g->nr_sections++] = xstrdup(runs[k].section);
		g->group_reporting |= runs[k].group_reporting;
	}
	g->group = (int)runs[0].group;
	g->id = id[0] ? xstrdup(id) : NULL;
	if (g->group_reporting) {
		g->run = xmalloc(sizeof(*g->run));
		run_doc_copy(g->run, run);
	}
	g->devices = run->devices;
	g->nr_devices = run->nr_devices;
	g->has_devices = run->has_devices;
	g->truth = run->truth;
	g->has_truth = run->has_truth;
	run->devices = NULL;
	run->nr_devices = 0;
	run->truth = NULL;
}

/*
 * Run the sections runs[0..nr) of one group as one trial: one section
 * alone, several at the same time (a fiogroup). On success append each
 * section's entry to jobs (and the group's to groups). Returns an exit
 * code (EXIT_OK on success).
 */
static int run_section(const struct job_cli_args *a, struct fiojob_run *runs,
		       unsigned nr, volatile int *stop, uint64_t seed,
		       struct job_doc *doc, struct job_view *view)
{
	struct trial_hooks hooks = {.ctx = view, .run_done = job_run_done};
	struct strbuf err = STRBUF_INIT, spec = STRBUF_INIT;
	struct strbuf other = STRBUF_INIT;
	struct fiojob_run *r = &runs[0];
	struct run_doc *run = NULL;
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
	if (a->prog)
		tr.c.live = &a->prog->live;
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
	if (a->prog) /* the metrics file holds the last group's run */
		cli_progress_doc(a->prog, tr.e.doc);
	if (trial_run_doc(&tr)) {
		run = xmalloc(sizeof(*run));
		run_doc_copy(run, trial_run_doc(&tr));
	}
	if (nr == 1) {
		add_entry(doc, r, tr.id, run,
			  job_shares_doc(view->shares, view->base));
		run = NULL;
	}
	for (k = 0; nr > 1 && k < nr; k++) {
		struct run_doc *sec = NULL;

		if (k < view->nr_docs) {
			sec = xmalloc(sizeof(*sec));
			*sec = view->docs[k];
			run_doc_init(&view->docs[k]);
		}
		add_entry(doc, &runs[k], tr.id, sec,
			  job_shares_doc(view->shares, view->base + k));
	}
	if (nr > 1 && run)
		add_group(doc, runs, nr, tr.id, run);
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
	run_doc_free(run);
	for (k = 0; k < view->nr_docs; k++)
		run_doc_release(&view->docs[k]);
	free(view->docs);
	view->docs = NULL;
	view->nr_docs = 0;
	view->group = NULL;
	strbuf_release(&err);
	strbuf_release(&spec);
	strbuf_release(&other);
	return ret;
}

/* How long the group of runs[0..nr) lasts, in seconds: its longest
 * section's ramp and time, with its start delay; < 0 when a section
 * ends at its size (no time known). */
static double group_length_s(const struct fiojob_run *runs, unsigned nr)
{
	double longest = 0;
	unsigned k;

	for (k = 0; k < nr; k++) {
		const struct fiojob_run *r = &runs[k];
		double s = (double)(r->ramp_ns + r->time_ns) / 1e9;

		if (!r->time_based || !r->time_ns)
			return -1;
		if (nr == 1)
			s += (double)r->startdelay_ns / 1e9;
		if (s > longest)
			longest = s;
	}
	return longest;
}

/* The number of groups in plan from run i on, and in *eta_s how long
 * they take (< 0: unknown). */
static unsigned groups_left(const struct fiojob_plan *plan, unsigned i,
			    double *eta_s)
{
	unsigned nr = 0, n;

	*eta_s = 0;
	for (; i < plan->nr; i += n, nr++) {
		double len;

		for (n = 1; i + n < plan->nr &&
			    plan->runs[i + n].group == plan->runs[i].group;
		     n++)
			;
		len = group_length_s(&plan->runs[i], n);
		if (len < 0 || *eta_s < 0)
			*eta_s = -1;
		else
			*eta_s += len;
	}
	return nr;
}

/* The progress of a job file: group done of planned begins, its first
 * section's name as the "arm", the ETA of what is left. */
static void progress_group(const struct job_cli_args *a,
			   const struct fiojob_plan *plan, unsigned i,
			   unsigned done, unsigned planned)
{
	struct progress_snap s = {0};
	double len;

	if (!a->prog)
		return;
	groups_left(plan, i, &s.eta_s);
	s.done = done;
	s.planned = planned;
	s.unit = "runs";
	s.block = -2;
	s.halfwidth = -1;
	s.eta_by = s.eta_s >= 0 ? "time" : NULL;
	s.arm = plan->runs[i].section;
	len = group_length_s(&plan->runs[i], 1);
	cli_progress_run(a->prog, len > 0 ? len : 0, 0);
	cli_progress_step(a->prog, &s);
}

int job_cli_run(const struct job_cli_args *a)
{
	struct job_view view = {STRBUF_INIT, 0, 0, NULL, NULL, 0, NULL, 0};
	struct job_shares shares;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct job_doc doc;
	struct fiojob_plan plan;
	const struct cli_run_opts *ro = a->r;
	const char *json_file = ro->json_file;
	volatile int *stop;
	unsigned i, n, planned, done = 0;
	double eta_s;
	int ret;

	job_doc_init(&doc);
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
	doc.schema = xstrdup(IOTRIAL_SCHEMA);
	doc.type = xstrdup("job_file");
	doc.file = xstrdup(ro->job);
	stop = cli_catch_stop_signals();
	job_shares_init(&shares, &plan, ro->target);
	view.shares = &shares;
	planned = groups_left(&plan, 0, &eta_s);
	if (a->prog)
		cli_progress_start(a->prog, "run", a->quiet, 0);
	for (i = 0; i < plan.nr && !ret && !*stop; i += n, done++) {
		for (n = 1; i + n < plan.nr &&
			    plan.runs[i + n].group == plan.runs[i].group;
		     n++)
			;
		view.base = i;
		progress_group(a, &plan, i, done, planned);
		ret = run_section(a, &plan.runs[i], n, stop, ro->seed, &doc,
				  &view);
	}
	if (a->prog) {
		struct progress_snap end = {.done = done,
					    .planned = planned,
					    .unit = "runs",
					    .block = -2,
					    .halfwidth = -1};

		cli_progress_step(a->prog, &end);
		cli_progress_finish(a->prog, *stop	      ? "interrupted"
					     : ret == EXIT_OK ? "done"
							      : "failed");
	}
	/* the shared files go with the run, as every work file does */
	job_shares_release(&shares);
	view.shares = NULL;
	if (!ret && *stop)
		ret = EXIT_RUNTIME;
	if (json_file && doc.nr_jobs) {
		job_doc_encode(&doc, 0, &out);
		if (cli_write_json_text(json_file, out.buf, 0))
			ret = EXIT_RUNTIME;
	}
	if (!json_file || strcmp(json_file, "-"))
		fputs(view.summary.buf, stdout);
out:
	job_doc_release(&doc);
	fiojob_plan_release(&plan);
	strbuf_release(&view.summary);
	strbuf_release(&err);
	strbuf_release(&out);
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
