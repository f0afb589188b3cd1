/*
 * run --dry-run and compare --dry-run: what the command would do, after
 * every check it makes before the first run, and nothing more. The arms,
 * the knob plan of each (what each knob would change from and to, in
 * apply order, as `set --dry-run` shows it), the blocks planned and the
 * time they would take. The target is opened without a work directory,
 * no knob is written and nothing is stored.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "../core/experiment/budget.h"
#include "../core/experiment/trial.h"
#include "../core/model/model_json.h"
#include "../core/report/knob_text.h"
#include "../core/report/plan_json.h"
#include "../core/targets/target.h"
#include "../core/workload/workload.h"
#include "knobargs.h"
#include "../version.h"
#include "../util/error.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

/* What the dry run found; the plans are built. */
struct dry_run {
	struct knob_plan fixed; /* --set, for every arm */
	struct knob_plan *arms; /* per arm, its knob factors */
	struct experiment_budget b;
	struct budget_opts bo;
	unsigned blocks;     /* planned; 0 when adaptive without a limit */
	unsigned min_blocks; /* adaptive: the fewest for a verdict */
	double seconds;	     /* estimated; < 0 unknown */
};

/* Build the plans of tr into d. 0, or -errno with err set. */
static int dry_plan(struct trial *tr, struct dry_run *d, struct strbuf *err)
{
	unsigned i;
	int ret = 0;

	knob_plan_init(&d->fixed, &tr->kctx);
	for (i = 0; i < tr->nr_set && !ret; i++)
		ret = knob_plan_add(&d->fixed, tr->set[i], err);
	if (!ret)
		ret = knob_plan_build(&d->fixed, err);
	d->arms = xcalloc(tr->e.nr_arms ? tr->e.nr_arms : 1, sizeof(*d->arms));
	for (i = 0; i < tr->e.nr_arms && !ret; i++) {
		ret = trial_arm_plan(tr, tr->e.arms[i].settings,
				     tr->c.nr_factors, &d->arms[i], err);
		if (ret) {
			struct strbuf m = STRBUF_INIT;

			strbuf_addf(&m, "arm '%s': %s", tr->e.arms[i].label,
				    err->buf);
			strbuf_setf(err, "%s", m.buf);
			strbuf_release(&m);
		}
	}
	experiment_budget_opts(&tr->c, &d->bo);
	experiment_budget_estimate(&d->bo, tr->e.nr_arms, -1, &d->b);
	d->min_blocks = d->b.min_blocks;
	if (d->bo.runs_fixed)
		d->blocks = d->bo.runs_fixed;
	else if (d->b.blocks != -1u)
		d->blocks = d->b.blocks;
	d->seconds = -1;
	if (d->b.run_s >= 0 && d->blocks)
		d->seconds = d->b.warmup_s + d->blocks * d->b.block_s;
	return ret;
}

static void dry_release(struct dry_run *d, unsigned nr_arms)
{
	unsigned i;

	knob_plan_release(&d->fixed);
	for (i = 0; d->arms && i < nr_arms; i++)
		knob_plan_release(&d->arms[i]);
	free(d->arms);
}

/* The disk knobs of tr would change under a directory target: a knob
 * factor's (trial_dir_knob_disk()) or a --set one of d; else NULL. */
static const char *dir_disk(const struct trial *tr, const struct dry_run *d)
{
	const char *disk = trial_dir_knob_disk(tr);
	size_t i;

	if (disk || tr->t.kind != TARGET_DIR || !tr->kctx.disk)
		return disk;
	for (i = 0; i < d->fixed.nr; i++)
		if (d->fixed.v[i].k.scope == KNOB_SCOPE_DEVICE)
			return tr->kctx.disk;
	return NULL;
}

/* Would the real command be refused for want of root? When it changes
 * a knob and this is not root. */
static int needs_root(const struct trial *tr, const struct dry_run *d)
{
	unsigned i;

	if (geteuid() == 0)
		return 0;
	if (d->fixed.nr)
		return 1;
	for (i = 0; i < tr->e.nr_arms; i++)
		if (d->arms[i].nr)
			return 1;
	return 0;
}

/* The time of the fewest blocks d may run; < 0 unknown. */
static double min_seconds(const struct dry_run *d, const struct trial *tr)
{
	unsigned n = d->bo.runs_fixed ? d->blocks : d->min_blocks;

	(void)tr;
	if (d->b.run_s < 0)
		return -1;
	return d->b.warmup_s + n * d->b.block_s;
}

/* The plan for people, on stdout. */
static void dry_text(const struct trial *tr, const struct dry_run *d,
		     const char *cmd, struct strbuf *out)
{
	const char *disk = dir_disk(tr, d);
	unsigned i;

	strbuf_addf(out, "%s --dry-run: %s on %s", cmd, tr->c.ops->name,
		    tr->t.spec ? tr->t.spec : tr->t.path);
	if (strcmp(cmd, "run"))
		strbuf_addf(out, ", %u arm%s", tr->e.nr_arms,
			    tr->e.nr_arms == 1 ? "" : "s");
	strbuf_addstr(out, "; nothing is changed or stored\n");
	if (disk)
		strbuf_addf(out,
			    "target %s on %s: knobs will be changed on %s\n",
			    tr->t.spec ? tr->t.spec : tr->t.path, disk, disk);
	if (d->fixed.nr) {
		strbuf_addstr(out, "for every run (--set):\n");
		report_knob_plan_steps(&d->fixed, out);
	}
	for (i = 0; i < tr->e.nr_arms && strcmp(cmd, "run"); i++) {
		/* numbered from 1, as export and apply --arm take them */
		strbuf_addf(out, "arm %u '%s'%s:%s\n", i + 1,
			    tr->e.arms[i].label,
			    i == tr->e.baseline ? " (the baseline)" : "",
			    d->arms[i].nr ? "" : " no knob changed");
		if (d->arms[i].nr)
			report_knob_plan_steps(&d->arms[i], out);
	}
	if (!strcmp(cmd, "run"))
		strbuf_addstr(out, "one run");
	else if (d->bo.runs_fixed)
		strbuf_addf(out,
			    "blocks: %u planned, each arm once per block in "
			    "random order: %u runs",
			    d->blocks, d->blocks * tr->e.nr_arms);
	else if (d->blocks)
		strbuf_addf(out,
			    "blocks: until the estimate is within +-%g%%, "
			    "at least %u, at most %u (%s)",
			    100 * d->bo.precision, d->min_blocks, d->blocks,
			    d->b.limit ? d->b.limit : "limit");
	else
		strbuf_addf(out,
			    "blocks: until the estimate is within +-%g%%, "
			    "at least %u, no limit",
			    100 * d->bo.precision, d->min_blocks);
	if (d->bo.warmup)
		strbuf_addf(out, ", after %u warm-up run%s", d->bo.warmup,
			    d->bo.warmup == 1 ? "" : "s");
	strbuf_addch(out, '\n');
	if (d->seconds >= 0 && !d->bo.runs_fixed)
		strbuf_addf(out,
			    "estimated time: %.0f s to %.0f s (%.1f s per "
			    "run, the set-up between runs included)\n",
			    min_seconds(d, tr), d->seconds, d->b.run_s);
	else if (d->seconds >= 0)
		strbuf_addf(out,
			    "estimated time: %.0f s (%.1f s per run, the "
			    "set-up between runs included)\n",
			    d->seconds, d->b.run_s);
	else if (d->b.run_s >= 0)
		strbuf_addf(out,
			    "estimated time: at least %.0f s (%.1f s per "
			    "run); more until the estimate is precise\n",
			    min_seconds(d, tr), d->b.run_s);
	else
		strbuf_addstr(out,
			      "estimated time: unknown (a run bounded by "
			      "--ios lasts as long as the device takes)\n");
	if (needs_root(tr, d))
		strbuf_addf(out, "running it needs root: it changes knobs\n");
}

/* The plan as a document (docs/schema/dry-run.schema.json) into o. */
static void dry_doc(const struct trial *tr, const struct dry_run *d,
		    const char *cmd, struct dry_run_doc *o)
{
	const char *disk = dir_disk(tr, d);
	unsigned i;

	dry_run_doc_init(o);
	o->schema = xstrdup(IOTRIAL_SCHEMA);
	o->kind = xstrdup("dry-run");
	o->command = xstrdup(cmd);
	o->workload = xstrdup(tr->c.ops->name);
	o->target = xstrdup(tr->t.spec ? tr->t.spec : tr->t.path);
	o->device = tr->kctx.disk ? xstrdup(tr->kctx.disk) : NULL;
	o->knobs_changed_on = disk ? xstrdup(disk) : NULL;
	o->fixed = report_plan_changes_doc(&d->fixed, &o->nr_fixed);
	o->arms = xcalloc(tr->e.nr_arms + 1, sizeof(*o->arms));
	o->nr_arms = tr->e.nr_arms;
	for (i = 0; i < tr->e.nr_arms; i++) {
		struct dry_run_arm_doc *a = &o->arms[i];

		a->arm = i;
		a->label = xstrdup(tr->e.arms[i].label);
		a->baseline = i == tr->e.baseline;
		a->changes =
		    report_plan_changes_doc(&d->arms[i], &a->nr_changes);
	}
	o->adaptive = !d->bo.runs_fixed;
	o->blocks = d->blocks;
	o->has_blocks = d->blocks ? MODEL_SET : MODEL_NULL;
	o->min_blocks = d->min_blocks;
	o->warmup_runs = d->bo.warmup;
	o->runs = (int64_t)d->blocks * tr->e.nr_arms;
	o->has_runs = d->blocks ? MODEL_SET : MODEL_NULL;
	o->seconds_per_run = d->b.run_s >= 0 ? d->b.run_s : NAN;
	o->estimated_seconds_min = d->b.run_s >= 0 ? min_seconds(d, tr) : NAN;
	o->needs_root = needs_root(tr, d);
	o->estimated_seconds = d->seconds >= 0 ? d->seconds : NAN;
}

int cli_dry_run(struct trial *tr, const char *cmd, const char *json)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct dry_run d;
	int ret;

	memset(&d, 0, sizeof(d));
	ret = dry_plan(tr, &d, &err);
	if (ret) {
		error("%s", err.buf);
		ret = knob_cli_exit_code(ret);
	} else if (json) {
		struct dry_run_doc o;

		dry_doc(tr, &d, cmd, &o);
		dry_run_doc_encode(&o, 0, &out);
		ret = cli_write_doc(json, &out) ? EXIT_RUNTIME : EXIT_OK;
		dry_run_doc_release(&o);
	} else {
		dry_text(tr, &d, cmd, &out);
		fputs(out.buf, stdout);
		ret = EXIT_OK;
	}
	dry_release(&d, tr->e.nr_arms);
	strbuf_release(&err);
	strbuf_release(&out);
	return ret;
}
